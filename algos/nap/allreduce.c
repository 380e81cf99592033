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
 * Schedule. Every process first holds its node's partial result: a node
 * combine (below). Then L = ceil(log_n N) inter-node steps over a tree of
 * nodes built top-down: the N nodes (step L's one group) are split into g =
 * ceil(N / n^(L-1)) <= n subgroups of consecutive nodes whose sizes differ
 * by at most one (the first S mod g have one node more), each subgroup of
 * S nodes at step i likewise into ceil(S / n^(i-1)) subgroups for step i - 1
 * (one subgroup, no step, where S <= n^(i-1)), down to single nodes. At step
 * i (i = 1 .. L, bottom-up) the nodes of each subgroup hold identical
 * partial results (their subgroup's), and the g subgroups of a group
 * combine them. Process of local rank k < g, k != j, on node (j, x)
 * (subgroup j, position x) needs subgroup k's partial result:
 *   - from the process of local rank j on node (k, x), in one exchange
 *     (MPI_Sendrecv: each sends its subgroup's partial result), where that
 *     node exists (the paper's step: "process q with local rank r in
 *     subgroup m communicates with process u with local rank m in subgroup
 *     r", same node position);
 *   - where it does not (x = q, the extra node of a subgroup of q + 1 nodes
 *     when subgroup k has q), from the idle process of node (k, j mod q)
 *     (Sec. III-A: "extra nodes send to the idle process"; here the idle
 *     process, which holds its subgroup's result and exchanges with nobody,
 *     sends to the extra node, which is what the extra node lacks): one
 *     message per extra node and per short subgroup, concurrent with the
 *     exchanges. An idle process serves ceil(r / q) extra nodes (r = S mod
 *     g): one, as r <= q always (step 1: q = 1, r = 0; step i >= 2: S >
 *     (g - 1) n^(i-1) and n^(i-1) >= n >= g give q >= g - 1 >= r).
 * Local rank j (the paper's idle process) holds its own subgroup's result,
 * local ranks >= g hold nothing. Then the node combines again.
 *
 * The node combine: the butterfly allreduce (recursive doubling, the
 * registry's, cs_allreduce_butterfly_first: any number of ranks) among the
 * g local ranks that hold a partial result (g = n at the start and where a
 * group has n subgroups), then, where g < n, the others receive the result
 * by doubling (local rank h + y from y, h = g, 2g, ...: ceil(log2(n / g))
 * steps). Local rank k holds subgroup k's result on every node of the
 * group, so every node runs the same combination in the same order, and the
 * butterfly gives all its ranks the same bits for a commutative op: every
 * rank of the communicator gets the same bits, also for float sums; the
 * order of the reduction is fixed by p and n.
 *
 * What the paper leaves open, and what collsim does. (1) How a group with
 * fewer than n subgroups combines: the paper's idle local ranks "recover
 * the final result during the following intra-node allreduce", which needs
 * an identity element to contribute (its code is sum-only); for any op the
 * kernel reduces among the g holders and spreads the result (above). (2)
 * How the groups are formed when N is not a power of n: "the initial step
 * reduces over groups of nearly equal size" (Fig. 9); the kernel balances
 * the subgroups of every group top-down (above), so that a short subgroup
 * is at most one node shorter and every extra node costs one message. With
 * subgroups of n^i nodes and a short remainder (the kernel before), 17
 * nodes of 4 had one node send 15 messages in a row in the last step.
 *
 * Cost (m bytes, N nodes of n, L = ceil(log_n N); intra-node alpha_l,
 * beta_l, inter-node alpha, beta): 1 + L node combines of ceil(log2 n)
 * steps (alpha_l + beta_l m + gamma m) where n is a power of two (two more
 * intra-node messages for the butterfly's fold otherwise; a group of g < n
 * subgroups: the butterfly among g, then ceil(log2(n / g)) steps of
 * alpha_l + beta_l m, which eq. 6's log2 p intra-node steps do not count,
 * nor does the paper's own full intra-node allreduce), each inter-node
 * step one exchange alpha + beta m per process (n - 1 concurrent inter-node
 * messages per node: the max-rate limit applies). Where N = n^L: the
 * paper's eq. 6 with n - 1 senders per step, and the received result
 * reduced in the combine (L gamma m fewer than eq. 6).
 * Memory: one temporary vector, and the butterfly's one during a combine.
 */
#include "../collsim.h"
#include "../kernel.h"

/* The node combine: the butterfly allreduce among local ranks 0 .. g-1,
 * then the result to local ranks g .. n-1 by doubling. */
static int node_combine(void *acc, int count, MPI_Datatype dt, MPI_Op op, int g, int n, int local,
                        MPI_Comm node) {
  int rc = cs_allreduce_butterfly_first(acc, count, dt, op, node, g);
  for (long h = g; h < n && rc == MPI_SUCCESS; h *= 2) {
    if (local >= h && local < 2 * h)
      rc = cs_flushed(MPI_Recv(acc, count, dt, (int)(local - h), CS_TAG, node, MPI_STATUS_IGNORE));
    else if (local < h && local + h < n)
      rc = cs_flushed(MPI_Send(acc, count, dt, (int)(local + h), CS_TAG, node));
  }
  return rc;
}

/* A group of one step: g subgroups of consecutive nodes from node a, the
 * first r of q + 1 nodes, the others of q; mine is j, my position x. */
typedef struct {
  long a, g, q, r, j, x;
} nap_level;

static long sub_first(const nap_level *v, long k) {
  return v->a + k * v->q + (k < v->r ? k : v->r);
}

int cs_allreduce_nap(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  if (p == 1 || count == 0)
    return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS : cs_copy(sendbuf, count, dt, recvbuf, count, dt);
  if (!ctx || !ctx->regular || ctx->ppn == 1)
    return cs_allreduce_butterfly(sendbuf, recvbuf, count, dt, op, comm, ctx);
  MPI_Comm node;
  int rc = cs_ctx_nodecomm(ctx, &node);
  if (rc != MPI_SUCCESS) return rc;
  const int n = ctx->ppn, local = ctx->local;
  const long N = ctx->nnodes, b = ctx->node;
  /* the tree, top-down: lv[i] is my group at step i (1 .. L) */
  nap_level lv[64];
  int L = 0;
  for (long c = 1; c < N; c *= n) L++;
  long a = 0, S = N, cap = 1;
  for (int i = 1; i < L; i++) cap *= n; /* n^(L-1) */
  for (int i = L; i >= 1; i--, cap /= n) {
    nap_level *v = &lv[i];
    v->a = a;
    v->g = S <= cap ? 1 : (S + cap - 1) / cap;
    v->q = S / v->g;
    v->r = S % v->g;
    long off = b - a, big = v->r * (v->q + 1);
    v->j = off < big ? off / (v->q + 1) : v->r + (off - big) / v->q;
    v->x = off < big ? off % (v->q + 1) : (off - big) % v->q;
    a = sub_first(v, v->j);
    S = v->q + (v->j < v->r);
  }
  /* cur: my partial result (recvbuf, holding my input, at first); other: where
   * a subgroup's result is received, then the new cur (no copy) */
  if (sendbuf != MPI_IN_PLACE) rc = cs_copy(sendbuf, count, dt, recvbuf, count, dt);
  cs_tmp spare = {0};
  if (rc == MPI_SUCCESS) rc = cs_tmp_alloc(&spare, count, dt);
  char *cur = recvbuf, *other = spare.buf;
  if (rc == MPI_SUCCESS) rc = node_combine(cur, count, dt, op, n, n, local, node);
  for (int i = 1; i <= L && rc == MPI_SUCCESS; i++) {
    const nap_level *v = &lv[i];
    if (v->g == 1) continue; /* my subgroup is my group: nothing to combine */
    const long j = v->j, x = v->x, q = v->q;
    if (local < v->g && local != j) {
      long k = local, sk = q + (k < v->r);
      if (x < sk) { /* the exchange with local rank j of node (k, x) */
        int peer = (int)((sub_first(v, k) + x) * n + j);
        rc = cs_flushed(MPI_Sendrecv(cur, count, dt, peer, CS_TAG, other, count, dt, peer, CS_TAG,
                                     comm, MPI_STATUS_IGNORE));
      } else { /* I am an extra node: the idle process of node (k, j mod q) sends */
        int from = (int)((sub_first(v, k) + j % q) * n + k);
        rc = cs_flushed(MPI_Recv(other, count, dt, from, CS_TAG, comm, MPI_STATUS_IGNORE));
      }
      /* local rank j keeps its subgroup's result; I contribute subgroup k's */
      char *swap = cur;
      cur = other;
      other = swap;
    } else if (local == j && j >= v->r) {
      /* the idle process of a short subgroup's node: the extra nodes (k, q),
       * k < r, k mod q = x, lack my subgroup's result */
      for (long k = x; k < v->r && rc == MPI_SUCCESS; k += q)
        rc = cs_flushed(
            MPI_Send(cur, count, dt, (int)((sub_first(v, k) + q) * n + j), CS_TAG, comm));
    }
    if (rc == MPI_SUCCESS) rc = node_combine(cur, count, dt, op, (int)v->g, n, local, node);
  }
  if (rc == MPI_SUCCESS && cur != (char *)recvbuf) rc = cs_copy(cur, count, dt, recvbuf, count, dt);
  cs_tmp_free(&spare);
  return rc;
}
