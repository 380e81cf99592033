/* Ceil-halving reduce-scatter ("Optimal, non-pipelined reduce-scatter and
 * allreduce algorithms breaking the power-of-two constraint", the ceilhalf
 * seed), regular and irregular.
 *
 * Accepts: any p, any block sizes (zero blocks included), commutative ops
 * only, MPI_IN_PLACE.
 * Buffers: R[i] is the partial sum, at rank r, of the block of rank
 * (r + i) mod p (the "rotated copy"). With s' = s and s = ceil(s/2), starting
 * from s = p, each round sends R[s .. s'-1] to r + s and receives
 * T[0 .. s'-s-1] from r - s, then R[i] += T[i]. Every block is reduced exactly
 * once: p - 1 blocks in ceil(log2 p) rounds, optimal in rounds and volume
 * for every p.
 * No rotated copy is made: the first round sends the input blocks
 * [s, p) straight from the input (an hindexed type where they wrap) and
 * reduces the input into what it receives; only for odd p one input block,
 * R[s-1], is copied. The last round receives the own block into recvbuf
 * (not in place), so no final copy is needed either.
 * Cost = q alpha + beta sum of the blocks sent + gamma (p-1) blocks (+ one
 * block copy for odd p).
 * Memory: R (ceil(p/2) blocks) and T (floor(p/2) blocks); O(1) other state
 * for regular and even layouts.
 */
#include <stdlib.h>

#include "../collsim.h"
#include "../kernel.h"

int cs_piece_reduce_scatter_ceilhalf(const void *in, void *out, const cs_layout *l, MPI_Datatype dt,
                                     MPI_Op op, MPI_Comm comm, int inplace, const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Aint ext = cs_extent(dt);
  long own_n = cs_lcount(l, r);
#define VBLOCK(b) ((const char *)in + cs_ldispl(l, (b)) * ext)
  if (p == 1) return inplace ? MPI_SUCCESS : cs_copy(VBLOCK(0), own_n, dt, out, own_n, dt);

  int q = cs_ceil_log2(p), hi = p - p / 2; /* ceil(p/2) */
  /* Offsets of rel i within R: R holds rel [0, ceil(p/2)) packed. Blocks
   * lying back to back in order (regular and even layouts) give them in
   * O(1) (cs_lsum); only explicit arrays need a table, so regular blocks
   * keep no O(p) state (32768 simulated ranks held 4 GiB of tables). */
  int packed = l->kind != CS_LAYOUT_ARRAYS;
  long *off = NULL;
  if (!packed) {
    off = malloc(sizeof(long) * (size_t)(hi + 1));
    if (!off) return MPI_ERR_NO_MEM;
    off[0] = 0;
    for (int i = 0; i < hi; i++) off[i + 1] = off[i] + cs_lcount(l, (r + i) % p);
  }
#define OFF(i) (off ? off[(i)] : cs_lsum(l, r, (i)))
  cs_tmp R = {0}, T = {0};
  int rc = cs_tmp_alloc(&R, OFF(hi), dt);
  if (rc == MPI_SUCCESS) rc = cs_tmp_alloc(&T, OFF(p / 2), dt);
#define RAT(i) (R.buf + OFF(i) * ext)

  int s = p, round = 0;
  while (s > 1 && rc == MPI_SUCCESS) {
    int sp = s;
    s = sp - sp / 2;
    int n = sp - s; /* blocks exchanged this round */
    int last = ++round == q;
    int to = (r + s) % p, from = cs_mod(r - s, p);
    /* The last round receives just the own block: into out when that is
     * not also the input. */
    char *dst = last && !inplace ? (char *)out : (round == 1 ? R.buf : T.buf);
    long rn = OFF(n);
    if (round == 1) {
      cs_view sv;
      rc = cs_view_range(&sv, (void *)in, dt, l, r + s, n);
      if (rc != MPI_SUCCESS) break;
      rc = cs_sendrecv(sv.buf, sv.count, sv.type, to, dst, rn, dt, from, comm);
      cs_view_free(&sv);
      /* R[i] = T[i] + V[r+i] for i < n, and R[s-1] = V[r+s-1] if n < s. */
      double pending = 0; /* one charge for the n blocks (the model's unit) */
      if (packed) {
        /* Blocks r .. r+n-1 lie back to back in the input up to the wrap
         * and in R: at most two reductions, element for element the same. */
        int n1 = n < p - r ? n : p - r;
        rc = cs_reduce_local_deferred(VBLOCK(r), dst, OFF(n1), dt, op, &pending);
        if (rc == MPI_SUCCESS && n > n1)
          rc = cs_reduce_local_deferred(VBLOCK(0), dst + OFF(n1) * ext, OFF(n) - OFF(n1), dt, op,
                                        &pending);
      }
      for (int i = 0; !packed && i < n && rc == MPI_SUCCESS; i++)
        rc = cs_reduce_local_deferred(VBLOCK((r + i) % p), dst + off[i] * ext,
                                      cs_lcount(l, (r + i) % p), dt, op, &pending);
      cs_charge_pending(&pending);
      if (rc == MPI_SUCCESS && n < s) {
        int b = (r + s - 1) % p;
        rc = cs_copy(VBLOCK(b), cs_lcount(l, b), dt, RAT(s - 1), cs_lcount(l, b), dt);
      }
      if (last && rc == MPI_SUCCESS && dst != (char *)out)
        rc = cs_copy(dst, own_n, dt, out, own_n, dt);
    } else {
      rc = cs_sendrecv(RAT(s), OFF(sp) - OFF(s), dt, to, dst, rn, dt, from, comm);
      if (rc != MPI_SUCCESS) break;
      if (dst == (char *)out) {
        rc = cs_reduce_local(R.buf, out, own_n, dt, op);
      } else {
        rc = cs_reduce_local(T.buf, R.buf, rn, dt, op);
        if (rc == MPI_SUCCESS && last) rc = cs_copy(R.buf, own_n, dt, out, own_n, dt);
      }
    }
  }
#undef RAT
#undef OFF
#undef VBLOCK
  cs_tmp_free(&R);
  cs_tmp_free(&T);
  free(off);
  return rc;
}

CS_RS_ENTRIES(ceilhalf)
