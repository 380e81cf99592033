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
 * Both are one walk (lane.h, cs_lanes_rooted: the far step, then the near
 * one); scatter.c walks it backwards.
 */
#include "lane.h"

static const cs_coll used[] = {CS_gather};

/* The far step into the processes of the root's group (the root straight
 * into its place, the others into a temporary of nb blocks), then the near
 * step to the root (in place there, the sets as its near type). */
static int gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const cs_ctx *ctx,
                  int hier) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, CS_gather, hier ? "hier" : "lane", used, 1, MPI_OP_NULL,
                        recvtype));
  if (cs_lanes_rooted_empty(root, comm, recvcount, sendcount, sendtype)) return MPI_SUCCESS;
  cs_lanes_rooted s;
  cs_tmp t = {0};
  int rc = cs_lanes_rooted_init(&s, &L, root, recvbuf, recvcount, recvtype, hier);
  MPI_Datatype any = s.isroot ? recvtype : sendtype; /* a type that is valid here */
  cs_args y = cs_lanes_args(s.far, any);
  y.root = s.far_root;
  y.sendbuf = sendbuf;
  y.sendcount = sendcount;
  y.sendtype = sendtype;
  if (s.isroot) {
    y.recvbuf = s.place;
    y.recvcount = s.place_count;
    y.recvtype = s.place_type;
  } else if (s.mid && rc == MPI_SUCCESS) {
    rc = cs_tmp_alloc(&t, s.nb * sendcount, sendtype);
    y.recvbuf = t.buf;
    y.recvcount = sendcount;
    y.recvtype = sendtype;
  }
  if (rc == MPI_SUCCESS) rc = cs_lane_inner_run(&L, CS_gather, &y);
  if (rc == MPI_SUCCESS && s.mid && s.near_runs) {
    cs_args z = cs_lanes_args(s.near, any);
    z.root = s.near_root;
    if (s.isroot) {
      z.sendbuf = MPI_IN_PLACE;
      z.recvbuf = recvbuf;
      z.recvcount = 1;
      z.recvtype = z.sendtype = s.near_type;
    } else {
      z.sendbuf = t.buf;
      z.sendcount = (int)(s.nb * sendcount);
      z.sendtype = sendtype;
    }
    rc = cs_lane_inner_run(&L, CS_gather, &z);
  }
  cs_tmp_free(&t);
  cs_lanes_rooted_free(&s);
  return rc;
}

int cs_gather_lane(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   const cs_ctx *ctx) {
  return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ctx, 0);
}

int cs_gather_hier(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   const cs_ctx *ctx) {
  return gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, ctx, 1);
}
