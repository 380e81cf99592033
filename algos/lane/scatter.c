/* Full-lane and hierarchical scatter (Traff, Hunold 2020, Sec. III: the
 * reverse of the gathers in gather.c), on the node and lane communicators
 * of the kernel context, any root.
 *
 * Accepts: any p (regular or not: lane.h), any root, count 0, derived
 * types, MPI_IN_PLACE (recvbuf) at the root.
 * Schedule, root R = rn n + rl:
 *   lane: a scatter on the root's node from the root: process j gets the N
 *     blocks of local rank j (a strided type at the root: zero-copy there)
 *     into a temporary; then a scatter on every lane from the root's node
 *     (the root sends its lane's blocks straight from sendbuf).
 *   hier: a scatter of n-block chunks on the lane of rl from the root's
 *     node into a temporary at the processes of local rank rl, then a
 *     scatter on every node from local rank rl.
 * Cost: lane: scatter(n, N c) on the root's node + scatter(N, c); hier:
 * scatter(N, n c) + scatter(n, c), with the inner algorithms' costs.
 * Memory: N blocks (lane) or n blocks (hier) where gather.c has them.
 */
#include "lane.h"

static const cs_coll used[] = {CS_scatter};

static int empty(int root, MPI_Comm comm, int sendcount, int recvcount, MPI_Datatype recvtype) {
  int r, sz = 0;
  MPI_Comm_rank(comm, &r);
  if (r == root) return sendcount == 0;
  MPI_Type_size(recvtype, &sz);
  return (long)recvcount * sz == 0;
}

int cs_scatter_lane(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const cs_ctx *ctx) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, CS_scatter, "lane", used, 1, MPI_OP_NULL, sendtype));
  if (empty(root, comm, sendcount, recvcount, recvtype)) return MPI_SUCCESS;
  int rl = root % L.n, rn = root / L.n, isroot = L.my == rn && L.me == rl;
  MPI_Datatype any = isroot ? sendtype : recvtype; /* a type that is valid here */
  long c = sendcount;
  MPI_Aint ext = cs_extent(sendtype);
  MPI_Datatype lanetype = MPI_DATATYPE_NULL, nodetype = MPI_DATATYPE_NULL;
  cs_tmp t = {0};
  int rc = MPI_SUCCESS;
  if (isroot) {
    rc = cs_lanes_strided(1, c, c, (long)L.n * c, sendtype, &lanetype);
    if (rc == MPI_SUCCESS) rc = cs_lanes_strided(L.nn, c, (long)L.n * c, c, sendtype, &nodetype);
  } else if (L.my == rn) {
    rc = cs_tmp_alloc(&t, (long)L.nn * recvcount, recvtype);
  }
  if (rc == MPI_SUCCESS && L.my == rn && L.n > 1) {
    cs_args z = cs_lanes_args(L.node, any);
    z.root = rl;
    if (isroot) {
      z.sendbuf = sendbuf;
      z.sendcount = 1;
      z.sendtype = nodetype;
      z.recvbuf = MPI_IN_PLACE;
    } else {
      z.recvbuf = t.buf;
      z.recvcount = L.nn * recvcount;
      z.recvtype = recvtype;
    }
    rc = cs_lane_inner_run(&L, CS_scatter, &z);
  }
  if (rc == MPI_SUCCESS) {
    cs_args y = cs_lanes_args(L.lane, any);
    y.root = rn;
    y.recvbuf = recvbuf;
    y.recvcount = recvcount;
    y.recvtype = recvtype;
    if (isroot) {
      y.sendbuf = (const char *)sendbuf + (MPI_Aint)rl * c * ext;
      y.sendcount = 1;
      y.sendtype = lanetype;
    } else if (L.my == rn) {
      y.sendbuf = t.buf;
      y.sendcount = recvcount;
      y.sendtype = recvtype;
    }
    rc = cs_lane_inner_run(&L, CS_scatter, &y);
  }
  cs_tmp_free(&t);
  cs_lanes_free_type(&lanetype);
  cs_lanes_free_type(&nodetype);
  return rc;
}

int cs_scatter_hier(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const cs_ctx *ctx) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, CS_scatter, "hier", used, 1, MPI_OP_NULL, sendtype));
  if (empty(root, comm, sendcount, recvcount, recvtype)) return MPI_SUCCESS;
  int rl = root % L.n, rn = root / L.n, isroot = L.my == rn && L.me == rl;
  MPI_Datatype any = isroot ? sendtype : recvtype; /* a type that is valid here */
  long c = sendcount;
  MPI_Aint ext = cs_extent(sendtype);
  MPI_Datatype chunk = MPI_DATATYPE_NULL;
  cs_tmp t = {0};
  int rc = MPI_SUCCESS;
  if (isroot)
    rc = cs_lanes_contig((long)L.n * c, sendtype, &chunk);
  else if (L.me == rl)
    rc = cs_tmp_alloc(&t, (long)L.n * recvcount, recvtype);
  if (rc == MPI_SUCCESS && L.me == rl && L.nn > 1) {
    cs_args z = cs_lanes_args(L.lane, any);
    z.root = rn;
    if (isroot) {
      z.sendbuf = sendbuf;
      z.sendcount = 1;
      z.sendtype = chunk;
      z.recvbuf = MPI_IN_PLACE;
    } else {
      z.recvbuf = t.buf;
      z.recvcount = L.n * recvcount;
      z.recvtype = recvtype;
    }
    rc = cs_lane_inner_run(&L, CS_scatter, &z);
  }
  if (rc == MPI_SUCCESS) {
    cs_args y = cs_lanes_args(L.node, any);
    y.root = rl;
    y.recvbuf = recvbuf;
    y.recvcount = recvcount;
    y.recvtype = recvtype;
    if (isroot) {
      y.sendbuf = (const char *)sendbuf + (MPI_Aint)rn * L.n * c * ext;
      y.sendcount = (int)c;
      y.sendtype = sendtype;
    } else if (L.me == rl) {
      y.sendbuf = t.buf;
      y.sendcount = recvcount;
      y.sendtype = recvtype;
    }
    rc = cs_lane_inner_run(&L, CS_scatter, &y);
  }
  cs_tmp_free(&t);
  cs_lanes_free_type(&chunk);
  return rc;
}
