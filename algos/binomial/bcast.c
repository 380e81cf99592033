/* Binomial tree broadcast (MPICH's and Open MPI's bcast_binomial): the
 * standard broadcast, ceil(log2 p) rounds of the whole vector.
 *
 * Accepts: any p, any root, any count (0 sends nothing), derived datatypes
 * (the buffer is sent as it is, count elements of dt; no copy, no
 * temporary).
 * Schedule: with virtual ranks v = (r - root) mod p and q = ceil(log2 p), a
 * process other than the root receives once, from v - 2^k where 2^k is the
 * lowest set bit of v; then it (and the root, from k = q) sends to
 * v + 2^j for j = k-1 down to 0 where that exists (largest subtree first).
 * p = 7, root 0 (v = r):
 *
 *   round 1:  0 -> 4
 *   round 2:  0 -> 2            4 -> 6
 *   round 3:  0 -> 1   2 -> 3   4 -> 5
 *
 * p = 5, root 2 (v = r - 2 mod 5: 2 -> 1 is v 0 -> 4, and so on):
 *
 *   round 1:  2 -> 1                        (v 0 -> 4)
 *   round 2:  2 -> 4                        (v 0 -> 2)
 *   round 3:  2 -> 3   4 -> 0               (v 0 -> 1, v 2 -> 3)
 *
 * Cost: ceil(log2 p) (alpha + beta m) on the critical path (Table I style;
 * formula binomial, models/table1.c): the root sends q times, and the last
 * process reached has received after q rounds; no local work.
 * Memory: none besides the buffer.
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_bcast_binomial(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm,
                      const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  if (p == 1 || count == 0) return MPI_SUCCESS;
  int v = cs_mod((long)r - root, p), rc = MPI_SUCCESS;
  /* mask: the lowest set bit of v (where it received from), or the first
   * power of two >= p at the root. */
  int mask = 1;
  while (mask < p && !(v & mask)) mask <<= 1;
  if (v != 0)
    rc = cs_flushed(
        MPI_Recv(buf, count, dt, cs_mod((long)r - mask, p), CS_TAG, comm, MPI_STATUS_IGNORE));
  for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
    if (v + mask < p)
      rc = cs_flushed(MPI_Send(buf, count, dt, cs_mod((long)r + mask, p), CS_TAG, comm));
  return rc;
}
