/* Reduce by Rabenseifner's recursive halving and doubling (halvdoub) and
 * binary blocks (binblocks): Rabenseifner 2004, Secs. 2.5 and 2.6. The
 * engine is algos/halvdoub/halving.c; the reduce-scatter part is the one of
 * algos/halvdoub/allreduce.c (see there).
 *
 * Accepts: any p >= 1, any root, any count (0, < p, not divisible by p),
 * any datatype, commutative ops only, MPI_IN_PLACE at the root.
 *
 * halvdoub
 * Schedule: the allreduce's first step and recursive halving, then a
 * binomial gather of the result nodes to the root among the p2 survivors:
 * for bit b = p2/2, p2/4, .. 1 of the new rank, the processes whose bit b
 * differs from the root's send their (doubled) node to newrank ^ b and
 * stop, the others receive. A root among the removed ranks (odd, < 2 rem)
 * swaps roles with its even partner in the first step: the even rank hands
 * its reduced half to the root, which goes on as the survivor (no extra
 * cost).
 * Cost (p not a power of two) = [alpha + (beta + gamma) m/2] + [alpha +
 * beta m/2] + log2 p2 alpha + (1 - 1/p2)(beta + gamma) m + log2 p2 alpha +
 * (1 - 1/p2) beta m (one-way messages); no copies: the root works in
 * recvbuf.
 * Memory: ceil(count/2) elements, plus count elements off the root.
 *
 * binblocks
 * Schedule: the allreduce's reduce-scatter inside the blocks and up the
 * chain of blocks to block 0, then block 0 gathers to the root as above. A
 * root outside block 0 receives rank 0's node and plays rank 0 in the
 * gather (Sec. 2.6).
 * Cost (block 0's path) = 2 k0 alpha + (1 - 2^-k0)(2 beta + gamma) m plus
 * alpha + (beta + gamma) m 2^-k1 per block boundary on the way up and what
 * the smaller blocks make block 0 wait (allreduce.c); a root outside block 0
 * adds alpha + beta m 2^-k0.
 * Memory: ceil(count/2) elements, plus count elements off the root in
 * blocks of more than one process.
 */
#include "../collsim.h"
#include "../kernel.h"
#include "halving.h"

int cs_reduce_halvdoub(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                       int root, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return hd_run(0, sendbuf, recvbuf, count, dt, op, root, comm);
}

int cs_reduce_binblocks(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                        int root, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return hd_run(1, sendbuf, recvbuf, count, dt, op, root, comm);
}
