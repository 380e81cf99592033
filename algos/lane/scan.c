/* Full-lane and hierarchical scan and exscan (Traff, Hunold 2020, Listing
 * 6 and its text), on the node and lane communicators of the kernel
 * context.
 *
 * Accepts: any p (regular or not: lane.h), count 0, derived types,
 * MPI_IN_PLACE, and non-commutative ops: the decomposition keeps rank
 * order (rank = node n + local on every communicator, lane.h; every result
 * is (earlier nodes' total) op (my node's prefix), T op recvbuf, and each
 * inner collective reduces in rank order, as MPI requires of MPI_Scan,
 * MPI_Exscan and MPI_Reduce_scatter and as collsim's inner rows without
 * CS_COMMUTATIVE do). Under SMPI 3.32 the library's MPI_Scan and
 * MPI_Exscan get non-commutative ops wrong (a known defect, sim/check.c),
 * so there the rows are right for them with collsim's scans inside
 * (COLLSIM_INNER=scan:hillis,exscan:hillis), as the check shows.
 * Schedule, N nodes of n processes, count c:
 *   lane: a reduce_scatter on my node splits the input into n near-equal
 *     blocks of the node's total; an exscan on my lane gives, for my
 *     block, the total of the earlier nodes; an allgatherv on my node
 *     joins these blocks into T (nodes after the first); a scan (exscan)
 *     on my node gives my node's prefix in recvbuf; recvbuf = T op recvbuf
 *     (for exscan at local rank 0, T).
 *   hier: a scan (exscan) on my node; the last process of each node knows
 *     the node's total, which an exscan on its lane turns into the earlier
 *     nodes' total T, broadcast on the node; recvbuf = T op recvbuf.
 * Cost: lane: reduce_scatter(n, c) + exscan(N, c/n) + allgatherv(n, c) +
 * scan(n, c) + gamma c; hier: scan(n, c) + exscan(N, c) + bcast(n, c) +
 * gamma c (exscan: one more gamma c at the last process), with the inner
 * algorithms' costs.
 * Memory: one vector of c elements.
 */
#include <stdlib.h>

#include "lane.h"

static const cs_coll used_lane_scan[] = {CS_reduce_scatter, CS_exscan, CS_allgatherv, CS_scan};
static const cs_coll used_lane_exscan[] = {CS_reduce_scatter, CS_exscan, CS_allgatherv};
static const cs_coll used_hier_scan[] = {CS_scan, CS_exscan, CS_bcast};
static const cs_coll used_hier_exscan[] = {CS_exscan, CS_bcast};

static int lane_scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm, const cs_ctx *ctx, int ex) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, ex ? CS_exscan : CS_scan, "lane",
                        ex ? used_lane_exscan : used_lane_scan, ex ? 3 : 4, op, dt));
  if (count == 0) return MPI_SUCCESS;
  const void *in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  MPI_Aint ext = cs_extent(dt);
  cs_tmp t = {0};
  int *counts = malloc(sizeof(int) * 2 * (size_t)L.n);
  int err = counts ? cs_tmp_alloc(&t, count, dt) : MPI_ERR_NO_MEM;
  int *displs = counts + L.n;
  cs_layout l = cs_layout_even(L.n, count);
  for (int i = 0; counts && i < L.n; i++) {
    counts[i] = (int)cs_lcount(&l, i);
    displs[i] = (int)cs_ldispl(&l, i);
  }
  char *mine = t.buf + (MPI_Aint)displs[L.me] * ext;
  if (err == MPI_SUCCESS) {
    cs_args y = cs_lanes_args(L.node, dt);
    y.op = op;
    y.sendbuf = in;
    y.recvbuf = mine;
    y.counts = counts;
    err = cs_lane_inner_run(&L, CS_reduce_scatter, &y);
  }
  if (err == MPI_SUCCESS)
    err = cs_lanes_vec(&L, CS_exscan, L.lane, 0, MPI_IN_PLACE, mine, counts[L.me], dt, op);
  if (err == MPI_SUCCESS && L.my > 0) { /* node 0 has no earlier nodes */
    cs_args y = cs_lanes_args(L.node, dt);
    y.sendbuf = MPI_IN_PLACE;
    y.recvbuf = t.buf;
    y.counts = counts;
    y.displs = displs;
    err = cs_lane_inner_run(&L, CS_allgatherv, &y);
  }
  if (err == MPI_SUCCESS)
    err = cs_lanes_vec(&L, ex ? CS_exscan : CS_scan, L.node, 0, sendbuf, recvbuf, count, dt, op);
  if (err == MPI_SUCCESS && L.my > 0) {
    if (ex && L.me == 0)
      err = cs_copy(t.buf, count, dt, recvbuf, count, dt);
    else
      err = cs_reduce_local(t.buf, recvbuf, count, dt, op);
  }
  cs_tmp_free(&t);
  free(counts);
  return err;
}

static int hier_scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm, const cs_ctx *ctx, int ex) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, ex ? CS_exscan : CS_scan, "hier",
                        ex ? used_hier_exscan : used_hier_scan, ex ? 2 : 3, op, dt));
  if (count == 0) return MPI_SUCCESS;
  int last = L.me == L.n - 1;
  cs_tmp t = {0};
  int err = cs_tmp_alloc(&t, count, dt);
  /* exscan: the last process keeps its input (in place, recvbuf is about
   * to be overwritten) to make the node's total from its result. */
  if (err == MPI_SUCCESS && ex && last)
    err = cs_copy(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, dt, t.buf, count, dt);
  if (err == MPI_SUCCESS)
    err = cs_lanes_vec(&L, ex ? CS_exscan : CS_scan, L.node, 0, sendbuf, recvbuf, count, dt, op);
  if (err == MPI_SUCCESS && last) {
    /* The node's total: the scan's result, or the exscan's op the input. */
    if (!ex)
      err = cs_copy(recvbuf, count, dt, t.buf, count, dt);
    else if (L.me > 0)
      err = cs_reduce_local(recvbuf, t.buf, count, dt, op);
    if (err == MPI_SUCCESS)
      err = cs_lanes_vec(&L, CS_exscan, L.lane, 0, MPI_IN_PLACE, t.buf, count, dt, op);
  }
  if (err == MPI_SUCCESS && L.my > 0) {
    err = cs_lanes_vec(&L, CS_bcast, L.node, L.n - 1, t.buf, t.buf, count, dt, MPI_OP_NULL);
    if (err == MPI_SUCCESS) {
      if (ex && L.me == 0)
        err = cs_copy(t.buf, count, dt, recvbuf, count, dt);
      else
        err = cs_reduce_local(t.buf, recvbuf, count, dt, op);
    }
  }
  cs_tmp_free(&t);
  return err;
}

int cs_scan_lane(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                 MPI_Comm comm, const cs_ctx *ctx) {
  return lane_scan(sendbuf, recvbuf, count, dt, op, comm, ctx, 0);
}
int cs_exscan_lane(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                   MPI_Comm comm, const cs_ctx *ctx) {
  return lane_scan(sendbuf, recvbuf, count, dt, op, comm, ctx, 1);
}
int cs_scan_hier(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                 MPI_Comm comm, const cs_ctx *ctx) {
  return hier_scan(sendbuf, recvbuf, count, dt, op, comm, ctx, 0);
}
int cs_exscan_hier(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                   MPI_Comm comm, const cs_ctx *ctx) {
  return hier_scan(sendbuf, recvbuf, count, dt, op, comm, ctx, 1);
}
