/* Circulant allreduce (Bar-Noy, Kipnis, Schieber 1993; Träff, Hunold,
 * Vardas, Funk 2023, Sec. III-B, Listing 2).
 *
 * Accepts: any p, any count, commutative ops only, MPI_IN_PLACE.
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
