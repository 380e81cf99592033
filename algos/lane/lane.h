/* What the full-lane and hierarchical kernels of this folder share (Traff
 * and Hunold 2020): their inner collectives, chosen once per call, the
 * strided block types of the paper's zero-copy listings, and the step
 * shapes both rows of a collective (and gather and scatter) use: the
 * two-step walk of a rooted block collective (cs_lanes_rooted), packing
 * strided blocks before an inner collective (cs_lanes_pack), an inner
 * vector collective (cs_lanes_vec).
 *
 * The rows of this folder are kernels, not composition rows, because their
 * data are p blocks whose share on a node or a lane is strided (the blocks
 * of one local rank on every node lie n blocks apart), or need a local
 * combination (scan, exscan): the composition engine (algos/compose/) knows
 * one vector and nested contiguous ranges of it. Their inner collectives
 * are still registered algorithms called through the dispatcher (cs_run):
 * composition, not copies. The node structure is the kernel context's
 * (algos/ctx.h): on a communicator that is not regular every process is a
 * node of its own (node = rank, local = 0, n = 1, lane = all), so that
 * rank = node n + local holds everywhere and every kernel stays correct. */
#ifndef COLLSIM_LANE_H
#define COLLSIM_LANE_H

#include "../collsim.h"
#include "../kernel.h"

/* The structure a kernel works with, from its context. */
typedef struct {
  MPI_Comm node, lane;               /* my node's processes; one process per node, my local rank */
  int n, nn, me, my;                 /* processes per node, nodes, my local rank, my node */
  const cs_algo_info *row[CS_NCOLL]; /* the inner algorithm of every collective used */
} cs_lanes;

/* Prepares L for a kernel of collective coll that calls the inner
 * collectives colls[0..k-1] (reducing with op on dt; MPI_OP_NULL: none):
 * resolves COLLSIM_INNER and checks that each inner algorithm serves the
 * call before anything is sent. Returns MPI_SUCCESS, MPI_ERR_ARG or
 * MPI_ERR_OP (with one line on stderr at rank 0 of comm). */
int cs_lanes_get(cs_lanes *L, const cs_ctx *ctx, MPI_Comm comm, cs_coll coll, const char *name,
                 const cs_coll colls[], int k, MPI_Op op, MPI_Datatype dt);

/* Arguments on communicator c whose every type field is t (valid where
 * MPI ignores it) and op MPI_OP_NULL. */
cs_args cs_lanes_args(MPI_Comm c, MPI_Datatype t);

/* Runs the inner algorithm of coll with y on y->comm. */
int cs_lane_inner_run(const cs_lanes *L, cs_coll coll, cs_args *y);

/* Runs the inner algorithm of a vector collective coll (allreduce, reduce,
 * reduce_scatter_block: count per block, bcast: buffer recvbuf, scan,
 * exscan) on communicator on: count elements of dt, op (MPI_OP_NULL for
 * bcast), root (rooted ones). */
int cs_lanes_vec(const cs_lanes *L, cs_coll coll, MPI_Comm on, int root, const void *sendbuf,
                 void *recvbuf, long count, MPI_Datatype dt, MPI_Op op);

/* The two steps of a rooted block collective through the root's group
 * (gather.c runs them in this order, scatter.c in the reverse): the far
 * step, on far with root far_root, between every process and the
 * processes of the root's group (mid: one on each far communicator); the
 * near step, on near with root near_root (the root), inside the root's
 * group, where it has more than one process (near_runs).
 *   lane: far = my lane (root: the root's node), the group = the root's
 *     node (near = node, root: the root's local rank), nb = N blocks each;
 *   hier: far = my node (root: the root's local rank), the group = the
 *     lane of that local rank (near = lane, root: the root's node), nb = n.
 * The root's blocks (its p blocks at buf, c elements of dt each): its own
 * far step's share at place (place_count of place_type: lane: one block
 * with an extent of n blocks; hier: its node's n blocks, contiguous), and
 * the near step's sets in place as one near_type (lane: N blocks n apart
 * with the extent of one block, a strided set per local rank; hier: n
 * blocks per node). */
typedef struct {
  MPI_Comm far, near;
  int far_root, near_root, mid, near_runs, isroot;
  long nb;
  char *place;
  int place_count;
  MPI_Datatype place_type, near_type, dt; /* dt: the root's block type */
} cs_lanes_rooted;

/* Sets s up for root and this process (hier: 0 lane, 1 hier), creating
 * the root's types; cs_lanes_rooted_free frees them (also after a
 * failure). */
int cs_lanes_rooted_init(cs_lanes_rooted *s, const cs_lanes *L, int root, const void *buf, long c,
                         MPI_Datatype dt, int hier);
void cs_lanes_rooted_free(cs_lanes_rooted *s);
/* Nothing moves in a rooted block collective: the root's count (rootcount)
 * is 0, elsewhere count elements of type are 0 bytes (zero-extent block
 * types would follow). */
int cs_lanes_rooted_empty(int root, MPI_Comm comm, int rootcount, int count, MPI_Datatype type);

/* The step shape "pack the strided blocks, then run the inner collective":
 * for j < nb, one s at src + j sstep bytes, copied (charged as local work)
 * to dst + j dstep bytes as dcount elements of dt. */
int cs_lanes_pack(const void *src, int nb, MPI_Aint sstep, MPI_Datatype s, void *dst,
                  MPI_Aint dstep, long dcount, MPI_Datatype dt);

/* A committed type of nb blocks of count elements of dt, block i at
 * i * stride elements, whose extent is step elements (so that consecutive
 * ones tile: the paper's lanetype and nodetype). MPI_ERR_COUNT if a figure
 * does not fit an int. */
int cs_lanes_strided(int nb, long count, long stride, long step, MPI_Datatype dt,
                     MPI_Datatype *out);
/* A committed contiguous type of count elements of dt (MPI_ERR_COUNT above
 * INT_MAX). */
int cs_lanes_contig(long count, MPI_Datatype dt, MPI_Datatype *out);
void cs_lanes_free_type(MPI_Datatype *t);

#endif
