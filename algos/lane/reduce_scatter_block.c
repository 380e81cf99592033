/* Full-lane and hierarchical reduce_scatter_block (Traff, Hunold 2020,
 * Sec. III: "two MPI_Reduce_scatter_block operations on nodecomm and
 * lanecomm, but requires process local reorderings of the input data"; the
 * paper shows no listing), on the node and lane communicators of the kernel
 * context.
 *
 * Accepts: any p (regular or not: lane.h), count 0, derived types,
 * MPI_IN_PLACE; commutative ops only (CS_COMMUTATIVE, as the other reducing
 * decompositions: each block is reduced over the node first, then over the
 * nodes).
 * Schedule, N nodes of n processes, block b = j n + i (node j, local rank
 * i) of c elements, p = n N:
 *   lane: a local reordering puts the N blocks of local rank i (b = j n + i
 *     for every node j, n blocks apart) together, local rank by local rank,
 *     into a temporary U[i][j]; a reduce_scatter_block on my node with N c
 *     elements per process gives local rank i the node's sum of U[i][.]; a
 *     reduce_scatter_block on my lane with c elements per process gives node
 *     j its block j of it: block j n + i, summed over every node.
 *     p = 6, n = 3, N = 2: input blocks 0 1 2 3 4 5 -> U = 0 3 | 1 4 | 2 5;
 *     local rank 1 gets the node's (1 4), node 1's gets 4.
 *   hier: a reduce of the p c elements on my node to local rank 0; a
 *     reduce_scatter_block among the local ranks 0 (the lane of local rank
 *     0) with n c elements each: the n blocks of node j, contiguous; a
 *     scatter of c elements each on every node from local rank 0.
 *   With one process per node (or a communicator that is not regular) both
 *   are the inner reduce_scatter_block on the lane (= every process).
 * Cost: lane: gamma_copy p c + reduce_scatter_block(n, N c) +
 * reduce_scatter_block(N, c); hier: reduce(n, p c) +
 * reduce_scatter_block(N, n c) + scatter(n, c), with the inner algorithms'
 * costs.
 * Memory: p c + N c elements (lane); p c + n c at the local ranks 0 (hier).
 */
#include "lane.h"

static const cs_coll used_lane[] = {CS_reduce_scatter_block};
static const cs_coll used_hier[] = {CS_reduce, CS_reduce_scatter_block, CS_scatter};

static int lane_steps(const cs_lanes *L, const void *in, void *recvbuf, long c, MPI_Datatype dt,
                      MPI_Op op) {
  int n = L->n, N = L->nn;
  MPI_Datatype s = MPI_DATATYPE_NULL;
  cs_tmp u = {0}, v = {0};
  int err = cs_lanes_strided(N, c, (long)n * c, c, dt, &s);
  if (err == MPI_SUCCESS) err = cs_tmp_alloc(&u, (long)n * N * c, dt);
  if (err == MPI_SUCCESS && N > 1) err = cs_tmp_alloc(&v, (long)N * c, dt);
  /* U[i][j] = block j n + i: n of the strided type (extent one block). */
  if (err == MPI_SUCCESS) err = cs_copy(in, n, s, u.buf, (long)n * N * c, dt);
  if (err == MPI_SUCCESS)
    err = cs_lanes_vec(L, CS_reduce_scatter_block, L->node, 0, u.buf, N > 1 ? v.buf : recvbuf,
                       (long)N * c, dt, op);
  if (err == MPI_SUCCESS && N > 1)
    err = cs_lanes_vec(L, CS_reduce_scatter_block, L->lane, 0, v.buf, recvbuf, c, dt, op);
  cs_tmp_free(&u);
  cs_tmp_free(&v);
  cs_lanes_free_type(&s);
  return err;
}

static int hier_steps(const cs_lanes *L, const void *in, void *recvbuf, long c, MPI_Datatype dt,
                      MPI_Op op) {
  int n = L->n, N = L->nn, leader = L->me == 0;
  cs_tmp g = {0}, h = {0};
  int err = MPI_SUCCESS;
  if (leader) err = cs_tmp_alloc(&g, (long)n * N * c, dt);
  if (err == MPI_SUCCESS && leader && N > 1) err = cs_tmp_alloc(&h, (long)n * c, dt);
  if (err == MPI_SUCCESS)
    err = cs_lanes_vec(L, CS_reduce, L->node, 0, in, g.buf, (long)n * N * c, dt, op);
  if (err == MPI_SUCCESS && leader && N > 1)
    err = cs_lanes_vec(L, CS_reduce_scatter_block, L->lane, 0, g.buf, h.buf, (long)n * c, dt, op);
  if (err == MPI_SUCCESS) {
    cs_args z = cs_lanes_args(L->node, dt);
    z.sendbuf = N > 1 ? h.buf : g.buf;
    z.sendcount = z.recvcount = (int)c;
    z.recvbuf = recvbuf;
    err = cs_lane_inner_run(L, CS_scatter, &z);
  }
  cs_tmp_free(&g);
  cs_tmp_free(&h);
  return err;
}

static int rsb(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype dt, MPI_Op op,
               MPI_Comm comm, const cs_ctx *ctx, int hier) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, CS_reduce_scatter_block, hier ? "hier" : "lane",
                        hier ? used_hier : used_lane, hier ? 3 : 1, op, dt));
  if (recvcount == 0) return MPI_SUCCESS;
  if (L.n == 1) /* one process per node (or not regular): the lane is comm */
    return cs_lanes_vec(&L, CS_reduce_scatter_block, L.lane, 0, sendbuf, recvbuf, recvcount, dt,
                        op);
  long c = recvcount;
  if (!cs_count_ok((long)L.n * L.nn * c, "a lane reduce_scatter_block's input"))
    return MPI_ERR_COUNT;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  return hier ? hier_steps(&L, in, recvbuf, c, dt, op) : lane_steps(&L, in, recvbuf, c, dt, op);
}

int cs_reduce_scatter_block_lane(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype dt,
                                 MPI_Op op, MPI_Comm comm, const cs_ctx *ctx) {
  return rsb(sendbuf, recvbuf, recvcount, dt, op, comm, ctx, 0);
}
int cs_reduce_scatter_block_hier(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype dt,
                                 MPI_Op op, MPI_Comm comm, const cs_ctx *ctx) {
  return rsb(sendbuf, recvbuf, recvcount, dt, op, comm, ctx, 1);
}
