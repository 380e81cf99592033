/* What the full-lane and hierarchical kernels of this folder share (Traff
 * and Hunold 2020): their inner collectives, chosen once per call, and the
 * strided block types of the paper's zero-copy listings.
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
