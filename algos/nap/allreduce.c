/* Node-aware parallel (NAP) allreduce: Bienz, Olson, Gropp 2019, Algorithm 1
 * and Sec. III-A, for any number of nodes.
 *
 * Accepts: any p, any count (0, < p, not divisible), any datatype (the
 * vector is sent whole, count elements of dt), commutative ops only,
 * MPI_IN_PLACE. Reads the kernel context (CS_NODE_AWARE): N nodes of n
 * processes with consecutive ranks (algos/ctx.h, regular). A communicator
 * that is not regular (node sizes differ, ranks not consecutive) has n = 1
 * in the context, and so has one process per node: NAP has no local ranks
 * to spread the inter-node messages over, and the kernel runs recursive
 * doubling (the butterfly allreduce, this registry's), which is what NAP is
 * for n = 1.
 *
 * Schedule. Every process first holds its node's partial result: a reduce
 * of the node's n vectors to local rank 0 (binomial tree) and a broadcast
 * on the node (binomial tree). Then ceil(log_n N) inter-node steps; at step
 * i, subgroups of s = n^i consecutive nodes hold identical partial results
 * (their subgroup's), and groups of up to n consecutive subgroups combine
 * them. Node b is in group b / (n s), subgroup j = (b mod n s) / s, position
 * x = b mod s; a group has g <= n subgroups (the last group may have fewer,
 * and its last subgroup fewer than s nodes: N need not be a power of n, nor
 * a multiple of it). Process of local rank r < g, r != j, on node (j, x)
 * needs subgroup r's partial result:
 *   - from the process of local rank j on node (r, x), in one exchange
 *     (MPI_Sendrecv: each sends its subgroup's partial result), where that
 *     node exists (the paper's step: "process q with local rank r in
 *     subgroup m communicates with process u with local rank m in subgroup
 *     r", same node position);
 *   - where it does not (x beyond the size of a shorter last subgroup r),
 *     from the process of local rank j on node (r, x mod size_r), which
 *     holds the same partial result; that process sends it after its own
 *     exchange (Sec. III-A's "extra nodes send to the idle process",
 *     generalised: any position, any step).
 * Local rank j (the paper's idle process) holds its own subgroup's result,
 * local ranks >= g hold nothing. Then the node combines: a binomial reduce
 * of local ranks 0 .. g-1 to local rank 0 and a binomial broadcast to all n.
 * After the last step every process holds the reduction of all p vectors.
 * Every element's result is computed at one process (local rank 0 of its
 * node, last step) and broadcast: all ranks get the same bits, also for
 * float sums; the order of the reduction is fixed by p and n.
 *
 * Cost (m bytes, N nodes of n, q = ceil(log_n N); intra-node alpha_l,
 * beta_l, inter-node alpha, beta): the node reduce and broadcast cost
 * 2 ceil(log2 n) (alpha_l + beta_l m) + ceil(log2 n) gamma m at the start
 * and after each step (ceil(log2 g) reductions there), each step one
 * exchange alpha + beta m per process (n - 1 concurrent inter-node messages
 * per node: the max-rate limit applies). The paper's eq. 6.
 * Memory: two temporary vectors.
 */
#include "../collsim.h"
#include "../kernel.h"

/* Reduce the vectors of local ranks 0 .. g-1 of node to local rank 0 by a
 * binomial tree (acc holds mine; t is a temporary of count elements). */
static int prefix_reduce(void *acc, void *t, int count, MPI_Datatype dt, MPI_Op op, int g,
                         int local, MPI_Comm node) {
  int rc = MPI_SUCCESS;
  if (local >= g) return rc;
  for (int mask = 1; mask < g && rc == MPI_SUCCESS; mask <<= 1) {
    if (local & mask) return cs_flushed(MPI_Send(acc, count, dt, local - mask, CS_TAG, node));
    if (local + mask >= g) continue;
    rc = cs_flushed(MPI_Recv(t, count, dt, local + mask, CS_TAG, node, MPI_STATUS_IGNORE));
    if (rc == MPI_SUCCESS) rc = cs_reduce_local(t, acc, count, dt, op);
  }
  return rc;
}

/* The node's combine: reduce of local ranks 0 .. g-1, broadcast to all. */
static int node_combine(void *acc, void *t, int count, MPI_Datatype dt, MPI_Op op, int g, int local,
                        MPI_Comm node) {
  int rc = prefix_reduce(acc, t, count, dt, op, g, local, node);
  return rc == MPI_SUCCESS ? cs_bcast_binomial(acc, count, dt, 0, node, NULL) : rc;
}

int cs_allreduce_nap(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm, const cs_ctx *ctx) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  if (p == 1 || count == 0)
    return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS : cs_copy(sendbuf, count, dt, recvbuf, count, dt);
  if (!ctx || !ctx->regular || ctx->ppn == 1)
    return cs_allreduce_butterfly(sendbuf, recvbuf, count, dt, op, comm, ctx);
  MPI_Comm node;
  int rc = cs_ctx_nodecomm(ctx, &node);
  if (rc != MPI_SUCCESS) return rc;
  const int n = ctx->ppn, N = ctx->nnodes, b = ctx->node, local = ctx->local;
  /* cur: my partial result (recvbuf, holding my input, at first); other: where
   * a subgroup's result is received, then the new cur (no copy) */
  if (sendbuf != MPI_IN_PLACE) rc = cs_copy(sendbuf, count, dt, recvbuf, count, dt);
  cs_tmp t = {0}, spare = {0};
  if (rc == MPI_SUCCESS) rc = cs_tmp_alloc(&t, count, dt);
  if (rc == MPI_SUCCESS) rc = cs_tmp_alloc(&spare, count, dt);
  char *cur = recvbuf, *other = spare.buf;
  if (rc == MPI_SUCCESS) rc = node_combine(cur, t.buf, count, dt, op, n, local, node);
  for (long s = 1; s < N && rc == MPI_SUCCESS; s *= n) {
    long G = s * n, gstart = b / G * G, off = b - gstart;
    long j = off / s, x = off % s;
    long left = N - gstart; /* nodes of my group and the groups after it */
    long g = (left + s - 1) / s < n ? (left + s - 1) / s : n;
    if (local < g && local != j) {
      long k = local;
      long sk = left - k * s < s ? left - k * s : s, sj = left - j * s < s ? left - j * s : s;
      if (x < sk) {
        /* the exchange with local rank j of node (k, x) */
        int peer = (int)((gstart + k * s + x) * n + j);
        rc = cs_flushed(MPI_Sendrecv(cur, count, dt, peer, CS_TAG, other, count, dt, peer, CS_TAG,
                                     comm, MPI_STATUS_IGNORE));
      } else {
        /* node (k, x) does not exist: its equal, node (k, x mod sk), sends */
        int from = (int)((gstart + k * s + x % sk) * n + j);
        rc = cs_flushed(MPI_Recv(other, count, dt, from, CS_TAG, comm, MPI_STATUS_IGNORE));
      }
      /* the nodes (k, y), y >= sj, y mod sj = x, of a longer subgroup k have
       * no partner in mine: I send them my subgroup's result */
      for (long y = x + sj; y < sk && rc == MPI_SUCCESS; y += sj)
        rc =
            cs_flushed(MPI_Send(cur, count, dt, (int)((gstart + k * s + y) * n + j), CS_TAG, comm));
      /* local rank j keeps its subgroup's result; I contribute subgroup k's */
      char *swap = cur;
      cur = other;
      other = swap;
    }
    if (rc == MPI_SUCCESS) rc = node_combine(cur, t.buf, count, dt, op, (int)g, local, node);
  }
  if (rc == MPI_SUCCESS && cur != (char *)recvbuf) rc = cs_copy(cur, count, dt, recvbuf, count, dt);
  cs_tmp_free(&t);
  cs_tmp_free(&spare);
  return rc;
}
