/* Full-lane and hierarchical gather (Traff, Hunold 2020, Sec. III: the
 * paper describes them by its allgather and scatter; no listing), on the
 * node and lane communicators of the kernel context, any root.
 *
 * Accepts: any p (regular or not: lane.h), any root, count 0, derived
 * types, MPI_IN_PLACE at the root.
 * Schedule, N nodes of n processes, root R = rn n + rl (rn its node, rl its
 * local rank):
 *   lane: a gather on every lane to the root's node: the root receives the
 *     N blocks of its lane straight into their places (one block with an
 *     extent of n blocks), the other processes of the root's node into a
 *     temporary of N blocks; then a gather on the root's node to the root,
 *     which receives each set as a strided type (zero-copy at the root).
 *   hier: a gather on every node to its process of local rank rl (the
 *     root into its node's n blocks of recvbuf, the others into a
 *     temporary), then a gather of n-block chunks on the lane of rl to the
 *     root.
 * Cost: lane: gather(N, c) + gather(n, N c) on the root's node; hier:
 * gather(n, c) + gather(N, n c), with the inner algorithms' costs.
 * Memory: N blocks at the processes of the root's node but the root
 * (lane), n blocks at the processes of local rank rl but the root (hier).
 */
#include "lane.h"

static const cs_coll used[] = {CS_gather};

/* Nothing moves (zero-extent block types would follow). */
static int empty(int root, MPI_Comm comm, int sendcount, MPI_Datatype sendtype, int recvcount) {
  int r, sz = 0;
  MPI_Comm_rank(comm, &r);
  if (r == root) return recvcount == 0;
  MPI_Type_size(sendtype, &sz);
  return (long)sendcount * sz == 0;
}

int cs_gather_lane(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   const cs_ctx *ctx) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, CS_gather, "lane", used, 1, MPI_OP_NULL, recvtype));
  if (empty(root, comm, sendcount, sendtype, recvcount)) return MPI_SUCCESS;
  int rl = root % L.n, rn = root / L.n, isroot = L.my == rn && L.me == rl;
  MPI_Datatype any = isroot ? recvtype : sendtype; /* a type that is valid here */
  long c = recvcount;
  MPI_Aint ext = cs_extent(recvtype);
  MPI_Datatype lanetype = MPI_DATATYPE_NULL, nodetype = MPI_DATATYPE_NULL;
  cs_tmp t = {0};
  int rc = MPI_SUCCESS;
  cs_args y = cs_lanes_args(L.lane, any);
  y.root = rn;
  y.sendbuf = sendbuf;
  y.sendcount = sendcount;
  y.sendtype = sendtype;
  if (isroot) {
    rc = cs_lanes_strided(1, c, c, (long)L.n * c, recvtype, &lanetype);
    if (rc == MPI_SUCCESS) rc = cs_lanes_strided(L.nn, c, (long)L.n * c, c, recvtype, &nodetype);
    y.recvbuf = (char *)recvbuf + (MPI_Aint)rl * c * ext;
    y.recvcount = 1;
    y.recvtype = lanetype;
  } else if (L.my == rn) {
    rc = cs_tmp_alloc(&t, (long)L.nn * sendcount, sendtype);
    y.recvbuf = t.buf;
    y.recvcount = sendcount;
    y.recvtype = sendtype;
  }
  if (rc == MPI_SUCCESS) rc = cs_lane_inner_run(&L, CS_gather, &y);
  if (rc == MPI_SUCCESS && L.my == rn && L.n > 1) {
    cs_args z = cs_lanes_args(L.node, any);
    z.root = rl;
    if (isroot) {
      z.sendbuf = MPI_IN_PLACE;
      z.recvbuf = recvbuf;
      z.recvcount = 1;
      z.recvtype = z.sendtype = nodetype;
    } else {
      z.sendbuf = t.buf;
      z.sendcount = L.nn * sendcount;
      z.sendtype = sendtype;
    }
    rc = cs_lane_inner_run(&L, CS_gather, &z);
  }
  cs_tmp_free(&t);
  cs_lanes_free_type(&lanetype);
  cs_lanes_free_type(&nodetype);
  return rc;
}

int cs_gather_hier(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   const cs_ctx *ctx) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, CS_gather, "hier", used, 1, MPI_OP_NULL, recvtype));
  if (empty(root, comm, sendcount, sendtype, recvcount)) return MPI_SUCCESS;
  int rl = root % L.n, rn = root / L.n, isroot = L.my == rn && L.me == rl;
  MPI_Datatype any = isroot ? recvtype : sendtype; /* a type that is valid here */
  long c = recvcount;
  MPI_Aint ext = cs_extent(recvtype);
  MPI_Datatype chunk = MPI_DATATYPE_NULL;
  cs_tmp t = {0};
  int rc = MPI_SUCCESS;
  cs_args y = cs_lanes_args(L.node, any);
  y.root = rl;
  y.sendbuf = sendbuf;
  y.sendcount = sendcount;
  y.sendtype = sendtype;
  if (isroot) {
    rc = cs_lanes_contig((long)L.n * c, recvtype, &chunk);
    y.recvbuf = (char *)recvbuf + (MPI_Aint)rn * L.n * c * ext;
    y.recvcount = (int)c;
    y.recvtype = recvtype;
  } else if (L.me == rl) {
    rc = cs_tmp_alloc(&t, (long)L.n * sendcount, sendtype);
    y.recvbuf = t.buf;
    y.recvcount = sendcount;
    y.recvtype = sendtype;
  }
  if (rc == MPI_SUCCESS) rc = cs_lane_inner_run(&L, CS_gather, &y);
  if (rc == MPI_SUCCESS && L.me == rl && L.nn > 1) {
    cs_args z = cs_lanes_args(L.lane, any);
    z.root = rn;
    if (isroot) {
      z.sendbuf = MPI_IN_PLACE;
      z.recvbuf = recvbuf;
      z.recvcount = 1;
      z.recvtype = z.sendtype = chunk;
    } else {
      z.sendbuf = t.buf;
      z.sendcount = L.n * sendcount;
      z.sendtype = sendtype;
    }
    rc = cs_lane_inner_run(&L, CS_gather, &z);
  }
  cs_tmp_free(&t);
  cs_lanes_free_type(&chunk);
  return rc;
}
