/* Allreduce by Rabenseifner's recursive halving and doubling (halvdoub) and
 * binary blocks (binblocks): Rabenseifner 2004, Secs. 2.5 and 2.6, Figs. 1
 * and 2. The engine is algos/halvdoub/halving.c.
 *
 * Accepts: any p >= 1, any count (0, < p, not divisible by p), any
 * datatype (contiguous element ranges of the user buffers, extent apart),
 * commutative ops only, MPI_IN_PLACE. Every element is reduced at one
 * process and copied from there: all ranks get identical bits, also for
 * float sums (so the rows need no CS_ASSOCIATIVE).
 *
 * halvdoub
 * Schedule: p2 = 2^floor(log2 p), rem = p - p2. The first 2 rem ranks pair
 * up and exchange HALF vectors (the even rank sends the second half to
 * rank + 1, the odd one the first half to rank - 1), both reduce their
 * half, and the odd rank sends its reduced half to the even one, which goes
 * on as survivor (survivors: even ranks < 2 rem and ranks >= 2 rem,
 * renumbered 0 .. p2 - 1). The survivors halve the vector log2 p2 times with
 * distance doubling (partner newrank ^ 2^i; bit i clear keeps the lower
 * half), then double it back with distance halving; finally each surviving
 * even rank < 2 rem sends the whole result to rank + 1.
 * Cost (m bytes, p not a power of two) = [alpha + (beta + gamma) m/2] +
 * [alpha + beta m/2] + log2 p2 alpha + (1 - 1/p2)(beta + gamma) m +
 * log2 p2 alpha + (1 - 1/p2) beta m + [alpha + beta m]; the bracketed terms
 * vanish for a power of two: 2 log2 p alpha + (1 - 1/p)(2 beta + gamma) m.
 * No copy of the input (the first reduction writes into recvbuf).
 * Memory: ceil(count/2) elements.
 *
 * binblocks
 * Schedule: p = 2^k0 + 2^k1 + ..., k0 > k1 > ...; block i is ranks
 * base_i .. base_i + 2^ki - 1, the largest first. Each block halves the
 * vector inside as above (its process j keeps the node of depth ki of the
 * bisection whose path is the bits of j). Then, from the smallest block up,
 * a process of block i receives from process j mod 2^k(i+1) of block i + 1
 * that block's partial result of its node and reduces it, and sends the
 * 2^(k(i-1) - ki) pieces of its node to the processes j + m 2^ki of block
 * i - 1 that own them. Block 0 then holds the result; the pieces flow back
 * down the same way (a process of block i receives its node from the
 * 2^(k(i-1) - ki) processes it fed, then passes its node to block i + 1)
 * and every block doubles the vector inside. A power of two is one block:
 * halvdoub without the first step.
 * Cost (block 0's path) = 2 k0 alpha + (1 - 2^-k0)(2 beta + gamma) m, plus
 * per block boundary alpha + (beta + gamma) m 2^-k(i-1) up and alpha +
 * beta m 2^-k(i-1) down, plus what the smaller blocks make the larger wait:
 * a process of block i sends and receives m 2^-ki in 2^(k(i-1) - ki)
 * messages, the imbalance the paper names (33 = 32 + 1: the lone process
 * moves m twice in 32 messages each way).
 * Memory: ceil(count/2) elements.
 */
#include "../collsim.h"
#include "../kernel.h"
#include "halving.h"

int cs_allreduce_halvdoub(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                          MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return hd_run(0, sendbuf, recvbuf, count, dt, op, -1, comm);
}

int cs_allreduce_binblocks(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt,
                           MPI_Op op, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return hd_run(1, sendbuf, recvbuf, count, dt, op, -1, comm);
}
