/* Ring reduce-scatter (Rabenseifner 2004, Sec. 2.7: the pairwise-exchange
 * reduce-scatter of the ring protocol), regular and irregular.
 *
 * Accepts: any p, any block sizes (zero blocks included), commutative ops
 * only, MPI_IN_PLACE.
 * Schedule: p - 1 steps; in step k (0 <= k < p - 1) rank r sends its partial
 * sum of block (r - k - 1) mod p to r + 1 and receives the partial sum of
 * block (r - k - 2) mod p from r - 1, to which it adds its own input block.
 * After the last step, block r holds the contributions of all p processes.
 * The first step sends the input block itself (no copy); the last step
 * receives straight into out when out is not the input (not in place).
 * Cost = (p - 1) alpha + beta (every block but the receiver's own travels
 * p - 1 times, once per hop: (p-1)/p m per process for regular blocks)
 * + gamma (p - 1)/p m; one block copy in place.
 * Memory: two blocks of the largest size (the partial sent and the one being
 * received).
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_piece_reduce_scatter_pairring(const void *in, void *out, const cs_layout *l, MPI_Datatype dt,
                                     MPI_Op op, MPI_Comm comm, int inplace, const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Aint ext = cs_extent(dt);
  long own_n = cs_lcount(l, r);
#define VBLOCK(b) ((const char *)in + cs_ldispl(l, (b)) * ext)
  if (p == 1) return inplace ? MPI_SUCCESS : cs_copy(VBLOCK(0), own_n, dt, out, own_n, dt);
  long maxn = 0;
  for (int b = 0; b < p; b++)
    if (cs_lcount(l, b) > maxn) maxn = cs_lcount(l, b);
  cs_tmp A = {0}, B = {0};
  int rc = cs_tmp_alloc(&A, maxn, dt);
  if (rc == MPI_SUCCESS) rc = cs_tmp_alloc(&B, maxn, dt);
  int to = (r + 1) % p, from = cs_mod(r - 1, p);
  const char *sbuf = VBLOCK(cs_mod(r - 1, p)); /* step 0 sends the input block */
  char *bufs[2] = {A.buf, B.buf};
  for (int k = 0; k < p - 1 && rc == MPI_SUCCESS; k++) {
    int sb = cs_mod(r - k - 1, p), rb = cs_mod(r - k - 2, p);
    int last = k == p - 2; /* rb == r */
    char *dst = last && !inplace ? (char *)out : bufs[k & 1];
    rc = cs_sendrecv(sbuf, cs_lcount(l, sb), dt, to, dst, cs_lcount(l, rb), dt, from, comm);
    if (rc == MPI_SUCCESS) rc = cs_reduce_local(VBLOCK(rb), dst, cs_lcount(l, rb), dt, op);
    if (rc == MPI_SUCCESS && last && dst != (char *)out)
      rc = cs_copy(dst, own_n, dt, out, own_n, dt);
    sbuf = dst;
  }
#undef VBLOCK
  cs_tmp_free(&A);
  cs_tmp_free(&B);
  return rc;
}

CS_RS_ENTRIES(pairring)
