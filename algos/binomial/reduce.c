/* Binomial tree reduce: Rabenseifner 2004's "binary tree" reduction with full
 * vectors (Sec. 2.3) and the "standard" reduction-to-root of Table I in
 * Träff et al. 2023, ceil(log2 p) (alpha + beta m + gamma m). Registered
 * once, as reduce/binomial; allreduce/bintree composes it with bcast/binomial.
 *
 * Accepts: any p, any root, commutative ops only, MPI_IN_PLACE at the root.
 * Schedule: with virtual ranks v = (r - root) mod p, in round k a rank with
 * bit k set sends its partial vector to v - 2^k and stops; the others
 * receive from v + 2^k (if it exists) and reduce. The root receives in
 * ceil(log2 p) rounds.
 * Local work: the first vector received is reduced with the own input into
 * the receive buffer itself (no copy of the input); leaves send their input
 * unchanged.
 * Memory: two temporary vectors on inner ranks, one at the root.
 * An in-place root accumulates in recvbuf directly.
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_reduce_binomial(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                       int root, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  int v = cs_mod(r - root, p), inplace = sendbuf == MPI_IN_PLACE;
  const void *in = inplace ? recvbuf : sendbuf;
  if (p == 1 || count == 0)
    return r == root && !inplace ? cs_copy(sendbuf, count, dt, recvbuf, count, dt) : MPI_SUCCESS;
  cs_tmp acc = {0}, t = {0};
  int rc = MPI_SUCCESS;
  /* cur: the partial sum so far (the input until something is received). */
  const char *cur = in;
  /* An in-place root accumulates in recvbuf, which holds its input. */
  char *accbuf = v == 0 && inplace ? recvbuf : NULL;
  for (int mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1) {
    if (v & mask) {
      rc = cs_flushed(MPI_Send(cur, count, dt, cs_mod(r - mask, p), CS_TAG, comm));
      break;
    }
    if (v + mask >= p) continue;
    int from = (r + mask) % p;
    if (!accbuf) {
      /* First receive: into the accumulator (recvbuf at the root), then
       * add the input. */
      if (v == 0)
        accbuf = recvbuf;
      else {
        rc = cs_tmp_alloc(&acc, count, dt);
        accbuf = acc.buf;
      }
      if (rc == MPI_SUCCESS)
        rc = cs_flushed(MPI_Recv(accbuf, count, dt, from, CS_TAG, comm, MPI_STATUS_IGNORE));
      if (rc == MPI_SUCCESS) rc = cs_reduce_local(in, accbuf, count, dt, op);
      cur = accbuf;
    } else {
      if (!t.base) rc = cs_tmp_alloc(&t, count, dt);
      if (rc == MPI_SUCCESS)
        rc = cs_flushed(MPI_Recv(t.buf, count, dt, from, CS_TAG, comm, MPI_STATUS_IGNORE));
      if (rc == MPI_SUCCESS) rc = cs_reduce_local(t.buf, accbuf, count, dt, op);
    }
  }
  cs_tmp_free(&acc);
  cs_tmp_free(&t);
  return rc;
}
