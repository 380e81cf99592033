/* Circulant allreduce (Bar-Noy, Kipnis, Schieber 1993; Träff, Hunold,
 * Vardas, Funk 2023, Sec. III-B, Listing 2).
 *
 * Accepts: any p, any count, commutative ops only, MPI_IN_PLACE; and only
 * ops whose result does not depend on the order of evaluation (registry
 * flag CS_ASSOCIATIVE, cs_op_exact: integer, logical and bitwise ops,
 * MIN/MAX, MINLOC/MAXLOC; not floating-point or complex MPI_SUM/MPI_PROD,
 * not user ops, which collsim cannot inspect).
 * Why: rank r computes V[r] + (V[r+1] + ...) grouped by the skips of its
 * own rounds, so every rank adds in a different order, and with floating
 * point the ranks get different bits (5 ranks, 8 floats with +-1e6 and
 * 1e-2: 1.745 on rank 0, 1.6875 on rank 3; sim/check.c --type fsum). MPI
 * asks for the same result on every process. Making this kernel
 * rank-consistent would need one order for all ranks, i.e. a broadcast of
 * one rank's result after the q rounds (a binomial broadcast: q more
 * rounds of m elements), i.e. 2q alpha + 2q beta m + the gamma terms
 * below, never less than circulant_rsag (reduce_scatter + allgatherv:
 * 2q alpha + ((2^q - 1) + (p - 1)) / p beta m < 2q alpha + 3 beta m),
 * which is rank-consistent already (each block is reduced once, by its
 * owner, then copied). So the restriction, not the broadcast: such calls
 * are refused (MPI_ERR_OP; the PMPI library lets the library serve them).
 * Rounds: q = ceil(log2 p); in round k every rank sends m elements to
 * rank - d_k and receives m elements from rank + d_k.
 * Invariant after round k: part holds S = V[r+1] + ... + V[r+skips[k+1]-1]
 * (excluding the own input) and recvbuf holds W = V[r] + S. In round k the
 * rank sends W if skips[k+1] is even (e_k = 0) and S if it is odd (e_k = 1),
 * so that the ranges received never overlap.
 * Local work: copy m (not in place), reduce m in round 0, then per round m
 * into W plus m into S while a later round still sends S.
 * Cost = q (alpha + beta m) + (1 + q + #S-updates) gamma m <= Table I's
 * q (alpha + beta m + 2 gamma m).
 * Memory: two temporary vectors of m elements.
 */
#include "../kernel.h"
#include "../collsim.h"

int cs_allreduce_circulant(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt,
                           MPI_Op op, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  if (sendbuf != MPI_IN_PLACE) CS_CHECK(cs_copy(sendbuf, count, dt, recvbuf, count, dt));
  if (p == 1 || count == 0) return MPI_SUCCESS;

  cs_circ c;
  cs_circ_init(&c, p);
  /* S must be kept up to date after round k iff a later round sends it. */
  int need_s[CS_MAX_ROUNDS] = {0};
  for (int k = c.q - 2; k >= 0; k--) need_s[k] = need_s[k + 1] || c.e[k + 1];

  cs_tmp part = {0}, temp = {0};
  int rc = cs_tmp_alloc(&part, count, dt);
  if (rc == MPI_SUCCESS) rc = cs_tmp_alloc(&temp, count, dt);
  /* Round 0: send the own input, receive S = V[r+1] directly into part. */
  if (rc == MPI_SUCCESS)
    rc = cs_sendrecv(recvbuf, count, dt, cs_mod(r - c.d[0], p), part.buf, count, dt,
                     cs_mod(r + c.d[0], p), comm);
  if (rc == MPI_SUCCESS) rc = cs_reduce_local(part.buf, recvbuf, count, dt, op);
  for (int k = 1; k < c.q && rc == MPI_SUCCESS; k++) {
    const void *out = c.e[k] ? part.buf : recvbuf;
    rc = cs_sendrecv(out, count, dt, cs_mod(r - c.d[k], p), temp.buf, count, dt,
                     cs_mod(r + c.d[k], p), comm);
    if (rc == MPI_SUCCESS) rc = cs_reduce_local(temp.buf, recvbuf, count, dt, op);
    if (rc == MPI_SUCCESS && need_s[k]) rc = cs_reduce_local(temp.buf, part.buf, count, dt, op);
  }
  cs_tmp_free(&part);
  cs_tmp_free(&temp);
  return rc;
}
