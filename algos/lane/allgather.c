/* Full-lane and hierarchical allgather (Traff, Hunold 2020, Listings 3 and
 * 4), on the node and lane communicators of the kernel context.
 *
 * Accepts: any p (regular or not: lane.h), count 0, derived types, MPI_IN_PLACE.
 * Schedule, N nodes of n processes, block b of rank b = node n + local:
 *   lane: an allgather on my lane communicator puts the N blocks of my
 *     local rank (those of ranks j n + local) straight into their places
 *     (a type of one block with extent n blocks); an allgather on my node,
 *     in place, exchanges these sets (a vector of N blocks n apart with the
 *     extent of one block): zero-copy, as the paper's Listing 3.
 *   hier: a gather of the node's n blocks to its local rank 0, in place
 *     into the node's n blocks of recvbuf; an allgather of n-block chunks
 *     among the local ranks 0 (the lane of local 0), in place; a bcast of
 *     all p blocks on every node (Listing 4).
 * Cost: lane: allgather(N, c) + allgather(n, N c); hier: gather(n, c) +
 * allgather(N, n c) + bcast(n, p c), with the inner algorithms' costs.
 * Memory: none (derived types only).
 */
#include "lane.h"

static const cs_coll used_lane[] = {CS_allgather};
static const cs_coll used_hier[] = {CS_gather, CS_allgather, CS_bcast};

static int lane_steps(const cs_lanes *L, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype) {
  MPI_Aint ext = cs_extent(recvtype);
  long c = recvcount;
  MPI_Datatype lanetype, nodetype = MPI_DATATYPE_NULL;
  CS_CHECK(cs_lanes_strided(1, c, c, (long)L->n * c, recvtype, &lanetype));
  int rc = cs_lanes_strided(L->nn, c, (long)L->n * c, c, recvtype, &nodetype);
  char *mine = (char *)recvbuf + (MPI_Aint)L->me * c * ext;
  cs_args y = cs_lanes_args(L->lane, recvtype);
  y.sendbuf = sendbuf;
  y.sendcount = sendcount;
  y.sendtype = sendtype;
  y.recvbuf = mine;
  y.recvcount = 1;
  y.recvtype = lanetype;
  if (rc == MPI_SUCCESS && sendbuf == MPI_IN_PLACE) {
    /* In place, my block is at my rank's place: the lane allgather's own
     * place is at node my of the lane type's tiling, the same spot. */
    y.sendcount = 0;
    y.sendtype = recvtype;
  }
  if (rc == MPI_SUCCESS) rc = cs_lane_inner_run(L, CS_allgather, &y);
  if (rc == MPI_SUCCESS && L->n > 1) {
    cs_args z = cs_lanes_args(L->node, recvtype);
    z.sendbuf = MPI_IN_PLACE;
    z.recvbuf = recvbuf;
    z.recvcount = 1;
    z.recvtype = nodetype;
    z.sendtype = nodetype;
    rc = cs_lane_inner_run(L, CS_allgather, &z);
  }
  cs_lanes_free_type(&lanetype);
  cs_lanes_free_type(&nodetype);
  return rc;
}

static int hier_steps(const cs_lanes *L, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  MPI_Aint ext = cs_extent(recvtype);
  long c = recvcount;
  int p;
  MPI_Comm_size(comm, &p);
  MPI_Datatype chunk, all = MPI_DATATYPE_NULL;
  CS_CHECK(cs_lanes_contig((long)L->n * c, recvtype, &chunk));
  int rc = cs_lanes_contig((long)p * c, recvtype, &all);
  char *nodebase = (char *)recvbuf + (MPI_Aint)L->my * L->n * c * ext;
  cs_args y = cs_lanes_args(L->node, recvtype);
  y.root = 0;
  y.recvtype = recvtype;
  y.recvcount = (int)c;
  y.sendtype = sendtype;
  y.sendcount = sendcount;
  if (L->me == 0) {
    /* The leader's own block goes to its place first (in place: it is there). */
    if (sendbuf != MPI_IN_PLACE && rc == MPI_SUCCESS)
      rc = cs_copy(sendbuf, sendcount, sendtype, nodebase, c, recvtype);
    y.sendbuf = MPI_IN_PLACE;
    y.recvbuf = nodebase;
  } else {
    y.sendbuf = sendbuf == MPI_IN_PLACE ? nodebase + (MPI_Aint)L->me * c * ext : sendbuf;
    if (sendbuf == MPI_IN_PLACE) {
      y.sendcount = (int)c;
      y.sendtype = recvtype;
    }
    y.recvbuf = NULL;
  }
  if (rc == MPI_SUCCESS) rc = cs_lane_inner_run(L, CS_gather, &y);
  if (rc == MPI_SUCCESS && L->me == 0) {
    cs_args z = cs_lanes_args(L->lane, recvtype);
    z.sendbuf = MPI_IN_PLACE;
    z.recvbuf = recvbuf;
    z.recvcount = z.sendcount = 1;
    z.recvtype = z.sendtype = chunk;
    rc = cs_lane_inner_run(L, CS_allgather, &z);
  }
  if (rc == MPI_SUCCESS)
    rc = cs_lanes_vec(L, CS_bcast, L->node, 0, recvbuf, recvbuf, 1, all, MPI_OP_NULL);
  cs_lanes_free_type(&chunk);
  cs_lanes_free_type(&all);
  return rc;
}

/* Nothing moves at count 0 (zero-extent block types would follow). */
static int allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx,
                     int hier) {
  cs_lanes L;
  CS_CHECK(cs_lanes_get(&L, ctx, comm, CS_allgather, hier ? "hier" : "lane",
                        hier ? used_hier : used_lane, hier ? 3 : 1, MPI_OP_NULL, recvtype));
  if (recvcount == 0) return MPI_SUCCESS;
  if (hier) return hier_steps(&L, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  return lane_steps(&L, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

int cs_allgather_lane(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ctx, 0);
}

int cs_allgather_hier(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  return allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ctx, 1);
}
