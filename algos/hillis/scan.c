/* Scan and exscan by recursive doubling of the distance (Hillis, Steele
 * 1986, "Data parallel algorithms", the prefix sum by pointer jumping;
 * Kogge-Stone's adder): ceil(log2 p) rounds of one-ported exchanges for any
 * p, where the library's linear scan (SMPI's only one) posts p - 1 messages
 * per process and keeps a received vector per earlier rank.
 *
 * Accepts: any p, count 0, derived types, MPI_IN_PLACE, any op
 * (non-commutative too: every combination is (earlier ranks) op (later
 * ranks), the order MPI_Scan defines). Exscan leaves rank 0's recvbuf
 * untouched (MPI: undefined).
 * Schedule: in round k = 0, 1, ... while d = 2^k < p, rank r sends its
 * partial prefix (scan: recvbuf, which holds the op of ranks
 * max(0, r - d + 1) .. r) to rank r + d and receives rank r - d's into a
 * temporary T, then recvbuf = T op recvbuf (ranks without a partner at
 * that distance skip that side: MPI_PROC_NULL). p = 6, [a..b] = x_a op
 * ... op x_b:
 *
 *   round d = 1: r receives [r-1]      -> r holds [r-1..r]
 *   round d = 2: r receives [r-3..r-2] -> r holds [r-3..r]
 *   round d = 4: r receives [r-7..r-4] -> r holds [0..r]
 *
 * Exscan keeps the inclusive partial A (a copy of the input) for sending,
 * and the exclusive result E in recvbuf: round d = 1 receives [r-1] into
 * recvbuf (E), later rounds receive into T and make E = T op E and, where
 * r + 2d < p still needs A, A = T op A.
 * Cost: scan ceil(log2 p) (alpha + beta m + gamma m) + gamma m (the input's
 * copy, not in place); exscan ceil(log2 p) (alpha + beta m) + gamma m (A)
 * + at most (2 ceil(log2 p) - 1) gamma m; the last rank does the most.
 * Memory: one temporary vector (scan), two (exscan).
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_scan_hillis(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                   MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  if (sendbuf != MPI_IN_PLACE) CS_CHECK(cs_copy(sendbuf, count, dt, recvbuf, count, dt));
  if (p == 1 || count == 0) return MPI_SUCCESS;
  cs_tmp t;
  CS_CHECK(cs_tmp_alloc(&t, count, dt));
  int rc = MPI_SUCCESS;
  for (long d = 1; d < p && rc == MPI_SUCCESS; d <<= 1) {
    int to = r + d < p ? (int)(r + d) : MPI_PROC_NULL;
    int from = r - d >= 0 ? (int)(r - d) : MPI_PROC_NULL;
    rc = cs_sendrecv(recvbuf, count, dt, to, t.buf, count, dt, from, comm);
    if (rc == MPI_SUCCESS && from != MPI_PROC_NULL)
      rc = cs_reduce_local(t.buf, recvbuf, count, dt, op);
  }
  cs_tmp_free(&t);
  return rc;
}

int cs_exscan_hillis(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  if (p == 1 || count == 0) return MPI_SUCCESS;
  cs_tmp a = {0}, t = {0};
  int rc = cs_tmp_alloc(&a, count, dt);
  if (rc == MPI_SUCCESS) rc = cs_tmp_alloc(&t, count, dt);
  if (rc == MPI_SUCCESS)
    rc = cs_copy(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, dt, a.buf, count, dt);
  for (long d = 1; d < p && rc == MPI_SUCCESS; d <<= 1) {
    int to = r + d < p ? (int)(r + d) : MPI_PROC_NULL;
    int from = r - d >= 0 ? (int)(r - d) : MPI_PROC_NULL;
    void *in = d == 1 ? recvbuf : t.buf; /* E itself in the first round */
    rc = cs_sendrecv(a.buf, count, dt, to, in, count, dt, from, comm);
    if (rc != MPI_SUCCESS || from == MPI_PROC_NULL) continue;
    if (d > 1) rc = cs_reduce_local(t.buf, recvbuf, count, dt, op);
    if (rc == MPI_SUCCESS && r + 2 * d < p) rc = cs_reduce_local(in, a.buf, count, dt, op);
  }
  cs_tmp_free(&t);
  cs_tmp_free(&a);
  return rc;
}
