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
 * Both walk gather.c's two steps backwards (lane.h, cs_lanes_rooted).
 */
#include "lane.h"

static const cs_coll used[] = {CS_scatter};

/* gather.c's walk backwards: the near step from the root to the processes
 * of its group (the root's sets as its near type, the others into a
 * temporary of nb blocks), then the far step from them (the root straight
 * from its place). */
static int scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const cs_ctx *ctx,
                   int hier) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, CS_scatter, hier ? "hier" : "lane", used, 1, MPI_OP_NULL,
                        sendtype));
  if (cs_lanes_rooted_empty(root, comm, sendcount, recvcount, recvtype)) return MPI_SUCCESS;
  cs_lanes_rooted s;
  cs_tmp t = {0};
  int rc = cs_lanes_rooted_init(&s, &L, root, sendbuf, sendcount, sendtype, hier);
  MPI_Datatype any = s.isroot ? sendtype : recvtype; /* a type that is valid here */
  if (rc == MPI_SUCCESS && !s.isroot && s.mid) rc = cs_tmp_alloc(&t, s.nb * recvcount, recvtype);
  if (rc == MPI_SUCCESS && s.mid && s.near_runs) {
    cs_args z = cs_lanes_args(s.near, any);
    z.root = s.near_root;
    if (s.isroot) {
      z.sendbuf = sendbuf;
      z.sendcount = 1;
      z.sendtype = s.near_type;
      z.recvbuf = MPI_IN_PLACE;
    } else {
      z.recvbuf = t.buf;
      z.recvcount = (int)(s.nb * recvcount);
      z.recvtype = recvtype;
    }
    rc = cs_lane_inner_run(&L, CS_scatter, &z);
  }
  if (rc == MPI_SUCCESS) {
    cs_args y = cs_lanes_args(s.far, any);
    y.root = s.far_root;
    y.recvbuf = recvbuf;
    y.recvcount = recvcount;
    y.recvtype = recvtype;
    if (s.isroot) {
      y.sendbuf = s.place;
      y.sendcount = s.place_count;
      y.sendtype = s.place_type;
    } else if (s.mid) {
      y.sendbuf = t.buf;
      y.sendcount = recvcount;
      y.sendtype = recvtype;
    }
    rc = cs_lane_inner_run(&L, CS_scatter, &y);
  }
  cs_tmp_free(&t);
  cs_lanes_rooted_free(&s);
  return rc;
}

int cs_scatter_lane(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const cs_ctx *ctx) {
  return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ctx, 0);
}

int cs_scatter_hier(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const cs_ctx *ctx) {
  return scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ctx, 1);
}
