/* The kernel context: what a kernel knows about the processes of its
 * communicator besides their ranks (the way Open MPI passes its coll module
 * and MPICH caches comm->node_comm).
 *
 * Who gets one: kernels of rows flagged CS_NODE_AWARE (registry.h); the
 * dispatcher passes NULL to every other kernel, so that jobs that time or
 * price them do not pay for building it.
 *
 * Accepts: any intracommunicator. The context is created collectively on
 * the first cs_ctx_get() of a communicator, cached on it as an attribute and
 * freed with it (MPI_Comm_free, or MPI_Finalize for the predefined ones).
 *
 * Node identity, in this order:
 *   1. COLLSIM_VNODE=n (n >= 1) in the environment: virtual nodes of n
 *      consecutive ranks of MPI_COMM_WORLD (world rank w is on node w / n), so
 *      that the multi-node code paths run under mpirun on one machine (and
 *      under smpirun on any platform). Every process must see the same value.
 *   2. Otherwise MPI_Get_processor_name: collsim's SimGrid hosts "node<N>-<j>"
 *      and "node<N>" are on node N (algos/topo.h); any other name is a host
 *      name, and processes with the same name share a node (grouped by a
 *      hash; two different names with the same hash are detected with a
 *      second hash, and the communicator then counts as not regular).
 *
 * Regular: every node holds the same number n of the communicator's
 * processes, and each node's processes have consecutive ranks (node b holds
 * ranks b n .. b n + n - 1). Then nodecomm holds the n processes of my node
 * (ordered by rank), lanecomm the nnodes processes with my local rank
 * (ordered by node), node = rank / n, local = rank mod n, ppn = n. If the
 * communicator is not regular, the decompositions must still be correct,
 * so, as in Traff and Hunold's multi-lane collectives: nodecomm is
 * MPI_COMM_SELF, lanecomm a duplicate of comm, node = rank, local = 0,
 * nnodes = p, ppn = 1. found_nodes, min_ppn and max_ppn say what was found
 * in either case.
 *
 * Cost: creation (the topology) calls only MPI_Comm_size/rank,
 * MPI_Get_processor_name, point-to-point messages and the attribute
 * functions where nodes are consecutive blocks of equal size with increasing
 * node keys (ctx.c, ctx_blocks: one exchange with the left neighbour and two
 * minimums by binomial trees, about 5 messages per process); otherwise, and
 * always under the models' recording MPI, MPI_Comm_split and MPI_Comm_free (a
 * temporary node communicator) and MPI_Allreduce (two, three if not
 * regular; integers, MAX/SUM; one on the temporary node communicator).
 * SMPI 3.32's MPI_Comm_split costs wall time quadratic in p (16384 ranks:
 * a third of a NAP run), hence the first path. The node and lane
 * communicators (MPI_Comm_create_group where regular,
 * MPI_Comm_split under the recording MPI, MPI_Comm_dup for an irregular
 * lane communicator) are made on the first cs_ctx_nodecomm()/cs_ctx_lanecomm()
 * call, which every process of comm makes: a kernel that needs one calls it on
 * every process, and a driver that times such a kernel calls
 * cs_ctx_prepare(comm, CS_CTX_NODES | CS_CTX_LANES) first. Lazy because under
 * SMPI each communicator costs every process memory proportional to the
 * job's size (32 KB per process at 8192 ranks). In simulation every one of
 * these calls costs simulated time, so drivers create the context before
 * anything is timed.
 *
 * The leaders' communicator (cs_ctx_leaderscomm): the lane of one local rank
 * only (a root's, the node leaders of a hierarchical decomposition), made by
 * its members alone where regular (MPI_Comm_create_group; the other
 * processes send nothing and get MPI_COMM_NULL), by an MPI_Comm_split in
 * which the others pass MPI_UNDEFINED under the recording MPI, and as the
 * lane communicator (a duplicate of comm, every process a leader) if not
 * regular. Every process of comm calls it (the split needs them all). It is
 * the lane communicator when that exists already, else one more cached
 * communicator (one: asking for another local rank's lane replaces it).
 * What it saves: a composition on node and leaders communicators only
 * (hier) needs ppn times fewer lane members; at 32768 ranks on 2048 nodes
 * of 16 the lane communicators are 2048 processes each on every process.
 *
 * Limitations: intracommunicators only (not checked: creation uses only the
 * calls listed under Cost, which a recording MPI layer of the models
 * implements, and MPI_Comm_test_inter is not among them). The
 * context describes the communicator at creation time; COLLSIM_VNODE is read
 * then. Threads: as MPI attribute caching (no locking of our own). SMPI 3.32
 * shares the attributes of MPI_COMM_WORLD between all simulated processes,
 * so the context of MPI_COMM_WORLD is kept in a per-rank table instead (never
 * freed before MPI_Finalize).
 */
#ifndef COLLSIM_CTX_H
#define COLLSIM_CTX_H

#include <mpi.h>

typedef struct cs_ctx {
  MPI_Comm comm; /* the communicator the context belongs to */
  /* The node and lane communicators: read them with cs_ctx_nodecomm() and
   * cs_ctx_lanecomm(), which make them on first use (MPI_COMM_NULL until then). */
  MPI_Comm nodecomm; /* processes of my node (MPI_COMM_SELF if not regular) */
  MPI_Comm lanecomm; /* one process per node, same local rank (a duplicate of comm
                        if not regular) */
  /* The leaders' communicator (cs_ctx_leaderscomm): the lane of local rank
   * leaders_of (-1: none made), MPI_COMM_NULL on the processes not in it. */
  MPI_Comm leaderscomm;
  int leaders_of;
  int rank, size;  /* in comm */
  int node, local; /* my node (0 .. nnodes-1) and my rank on it */
  int nnodes, ppn; /* nodes and processes per node, as the decompositions see them */
  int regular;     /* 1: same ppn on every node, consecutive ranks */
  /* What was found, also when not regular: distinct nodes, the smallest and
   * largest number of processes of comm on one node, and whether node
   * identity came from COLLSIM_VNODE (vnode > 0: its value) or names. */
  int found_nodes, min_ppn, max_ppn, vnode;
} cs_ctx;

/* The cached context of comm, created (collectively) on first use.
 * Returns MPI_SUCCESS or the error of the MPI call that failed. */
int cs_ctx_get(MPI_Comm comm, const cs_ctx **ctx);

/* The node and lane communicators of ctx, created (collectively over
 * ctx->comm: every process calls) on first use; the context keeps and frees
 * them. */
int cs_ctx_nodecomm(const cs_ctx *ctx, MPI_Comm *nodecomm);
int cs_ctx_lanecomm(const cs_ctx *ctx, MPI_Comm *lanecomm);
/* The leaders' communicator of root (a rank of ctx->comm): the lane of the
 * root's local rank, ordered by node, on the processes of that lane;
 * MPI_COMM_NULL on the others. Every process of ctx->comm calls it with the
 * same root; the context keeps and frees it. */
int cs_ctx_leaderscomm(const cs_ctx *ctx, int root, MPI_Comm *leaders);

/* What a driver creates before timing: the context (topology) and, on
 * request, the node and lane communicators, or the leaders' communicator
 * of root 0 (cs_ctx_prepare_root: of root) where a row needs only that. */
enum { CS_CTX_TOPOLOGY = 0, CS_CTX_NODES = 1, CS_CTX_LANES = 2, CS_CTX_LEADERS = 4 };
int cs_ctx_prepare(MPI_Comm comm, int what);
int cs_ctx_prepare_root(MPI_Comm comm, int what, int root);

#endif
