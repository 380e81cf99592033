/* Butterfly allreduce: recursive doubling with the non-power-of-two
 * correction (Rabenseifner 2004, Sec. 2.4; the "standard" column of Table I
 * in Träff et al. 2023).
 *
 * Accepts: any p, any count, commutative ops only, MPI_IN_PLACE.
 * Schedule: with p2 the largest power of two <= p and rem = p - p2, the
 * first 2 rem ranks pair up: each even rank sends its vector to rank + 1,
 * which reduces it and takes part in log2 p2 rounds of recursive doubling
 * (full exchange and reduce with partner newrank ^ 2^k); finally the odd
 * ranks send the result back to their even partners.
 * Cost = ceil(log2 p) (alpha + beta m + gamma m) + alpha + beta m for p not a
 * power of two, log2 p (alpha + beta m + gamma m) otherwise, plus gamma m for
 * the initial copy (not in place).
 * Memory: one temporary vector.
 *
 * cs_allreduce_butterfly_first is the same schedule, in place, among the
 * first g ranks of comm only (the others return at once): what NAP's node
 * combines call when fewer than all local ranks hold a partial result
 * (algos/nap/allreduce.c); the registered kernel is it with g = p.
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_allreduce_butterfly_first(void *buf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                 int g) {
  int r;
  MPI_Comm_rank(comm, &r);
  if (g <= 1 || r >= g || count == 0) return MPI_SUCCESS;
  cs_bfly b;
  cs_bfly_init(&b, g);
  cs_tmp t;
  CS_CHECK(cs_tmp_alloc(&t, count, dt));
  int rc = MPI_SUCCESS;
  int nr = cs_bfly_newrank(&b, r, 1);
  if (r < 2 * b.rem) {
    if (nr < 0) /* even: hand the vector to the odd partner */
      rc = cs_flushed(MPI_Send(buf, count, dt, r + 1, CS_TAG, comm));
    else {
      rc = cs_flushed(MPI_Recv(t.buf, count, dt, r - 1, CS_TAG, comm, MPI_STATUS_IGNORE));
      if (rc == MPI_SUCCESS) rc = cs_reduce_local(t.buf, buf, count, dt, op);
    }
  }
  if (nr >= 0) {
    for (int mask = 1; mask < b.p2 && rc == MPI_SUCCESS; mask <<= 1) {
      int peer = cs_bfly_oldrank(&b, nr ^ mask, 1);
      rc = cs_sendrecv(buf, count, dt, peer, t.buf, count, dt, peer, comm);
      if (rc == MPI_SUCCESS) rc = cs_reduce_local(t.buf, buf, count, dt, op);
    }
  }
  if (r < 2 * b.rem && rc == MPI_SUCCESS) {
    if (nr < 0)
      rc = cs_flushed(MPI_Recv(buf, count, dt, r + 1, CS_TAG, comm, MPI_STATUS_IGNORE));
    else
      rc = cs_flushed(MPI_Send(buf, count, dt, r - 1, CS_TAG, comm));
  }
  cs_tmp_free(&t);
  return rc;
}

int cs_allreduce_butterfly(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt,
                           MPI_Op op, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  int p;
  MPI_Comm_size(comm, &p);
  if (sendbuf != MPI_IN_PLACE) CS_CHECK(cs_copy(sendbuf, count, dt, recvbuf, count, dt));
  return cs_allreduce_butterfly_first(recvbuf, count, dt, op, comm, p);
}
