/* Butterfly reduce-scatter: recursive vector halving with Rabenseifner's
 * non-power-of-two step (Rabenseifner 2004, Sec. 2.5; the "standard" column
 * of Table I in Träff et al. 2023), regular and irregular blocks.
 *
 * Accepts: any p, any block sizes, commutative ops only, MPI_IN_PLACE.
 * Schedule: with p2 the largest power of two <= p and rem = p - p2, the
 * first 2 rem ranks pair up; the even rank sends the second half of its
 * vector to rank + 1, the odd one the first half to rank - 1, both reduce
 * their half, and the odd rank sends its reduced half to the even rank,
 * which goes on with the whole vector. The p2 survivors (newrank) own the
 * blocks of their original ranks (a surviving pair owns two blocks) and
 * halve the vector log2 p2 times, distance halving so that each keeps the
 * half that holds its own blocks. Finally each surviving even rank sends
 * its partner's block to it.
 * Cost (p not a power of two) = 2 alpha + beta m + gamma m/2 + log2 p2 alpha
 * + (beta + gamma)(m - m_own_pair) + alpha + beta m/p, plus copies.
 * Memory: two temporary vectors.
 */
#include <stdlib.h>

#include "../collsim.h"
#include "../kernel.h"

/* Element range [first, end) of the blocks owned by survivors [a, b). */
static void survivors_range(const cs_bfly *bf, const cs_layout *l, int a, int b, long *first,
                            long *end) {
  int lo, hi, lo2, hi2;
  cs_bfly_blocks(bf, a, &lo, &hi);
  cs_bfly_blocks(bf, b - 1, &lo2, &hi2);
  *first = cs_ldispl(l, lo);
  *end = cs_ldispl(l, hi2 - 1) + cs_lcount(l, hi2 - 1);
}

int cs_piece_reduce_scatter_butterfly(const void *in, void *out, const cs_layout *l,
                                      MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int inplace,
                                      const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Aint ext = cs_extent(dt);
  long m = cs_ldispl(l, p - 1) + cs_lcount(l, p - 1), own_n = cs_lcount(l, r);
  const char *V = in;
  if (p == 1) return inplace ? MPI_SUCCESS : cs_copy(V, own_n, dt, out, own_n, dt);
  cs_bfly bf;
  cs_bfly_init(&bf, p);
  cs_tmp W = {0}, T = {0};
  int rc = cs_tmp_alloc(&W, m, dt);
  if (rc == MPI_SUCCESS) rc = cs_tmp_alloc(&T, m, dt);
  int nr = cs_bfly_newrank(&bf, r, 0);
  long h = m / 2;
  if (rc == MPI_SUCCESS && r < 2 * bf.rem) {
    if (nr >= 0) { /* even: keep [0, h), hand [h, m) over */
      rc = cs_sendrecv(V + h * ext, (m - h), dt, r + 1, T.buf, h, dt, r + 1, comm);
      if (rc == MPI_SUCCESS) rc = cs_copy(V, h, dt, W.buf, h, dt);
      if (rc == MPI_SUCCESS) rc = cs_reduce_local(T.buf, W.buf, h, dt, op);
      if (rc == MPI_SUCCESS)
        rc = cs_sendrecv(NULL, 0, dt, MPI_PROC_NULL, W.buf + h * ext, (m - h), dt, r + 1, comm);
    } else { /* odd: reduce [h, m), pass it to the even partner, wait */
      rc = cs_sendrecv(V, h, dt, r - 1, T.buf, (m - h), dt, r - 1, comm);
      if (rc == MPI_SUCCESS) rc = cs_copy(V + h * ext, (m - h), dt, W.buf, (m - h), dt);
      if (rc == MPI_SUCCESS) rc = cs_reduce_local(T.buf, W.buf, (m - h), dt, op);
      if (rc == MPI_SUCCESS)
        rc = cs_sendrecv(W.buf, (m - h), dt, r - 1, NULL, 0, dt, MPI_PROC_NULL, comm);
    }
  } else if (rc == MPI_SUCCESS) {
    rc = cs_copy(V, m, dt, W.buf, m, dt);
  }
  if (nr >= 0) {
    /* Distance halving over survivors: the window [base, base + 2 half)
     * splits into two halves; keep the one holding newrank. */
    for (int half = bf.p2 / 2; half >= 1 && rc == MPI_SUCCESS; half /= 2) {
      int base = nr & ~(2 * half - 1), lower = nr < base + half;
      int peer = cs_bfly_oldrank(&bf, nr ^ half, 0);
      long kf, ke, sf, se;
      survivors_range(&bf, l, lower ? base : base + half, lower ? base + half : base + 2 * half,
                      &kf, &ke);
      survivors_range(&bf, l, lower ? base + half : base, lower ? base + 2 * half : base + half,
                      &sf, &se);
      rc = cs_sendrecv(W.buf + sf * ext, (se - sf), dt, peer, T.buf, (ke - kf), dt, peer, comm);
      if (rc == MPI_SUCCESS) rc = cs_reduce_local(T.buf, W.buf + kf * ext, (ke - kf), dt, op);
    }
    if (rc == MPI_SUCCESS && r < 2 * bf.rem) {
      long c1 = cs_lcount(l, r + 1);
      rc = cs_sendrecv(W.buf + cs_ldispl(l, r + 1) * ext, c1, dt, r + 1, NULL, 0, dt, MPI_PROC_NULL,
                       comm);
    }
    if (rc == MPI_SUCCESS) rc = cs_copy(W.buf + cs_ldispl(l, r) * ext, own_n, dt, out, own_n, dt);
  } else if (rc == MPI_SUCCESS) {
    rc = cs_sendrecv(NULL, 0, dt, MPI_PROC_NULL, out, own_n, dt, r - 1, comm);
  }
  cs_tmp_free(&W);
  cs_tmp_free(&T);
  return rc;
}

CS_RS_ENTRIES(butterfly)
