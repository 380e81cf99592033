/* collsim cost models: what a collective costs on paper.
 *
 * Two kinds of answers, both pure C (no MPI, no SimGrid):
 *  - cs_table1_time: the paper's closed-form expressions (Table I of Träff,
 *    Hunold, Vardas, Funk 2023, the ceilhalf seed's rounds and volume), as
 *    printed, with an optional envelope added to every message.
 *  - cs_model_time: the exact cost of OUR implementation, derived from the
 *    kernel code itself. The kernel sources of algos/ are built a third
 *    time against collsim's recording MPI (models/mpirec/mpi.h): the p ranks
 *    of a case run as coroutines of this process, messages are delivered
 *    for real (MPI's matching rules, buffered sends), and every rank's
 *    blocking exchanges (MPI_Sendrecv, MPI_Send, MPI_Recv), nonblocking
 *    posts and waits (MPI_Isend, MPI_Irecv, MPI_Wait, MPI_Waitall) and
 *    local work (algos/local.c's gamma charges) are recorded with world
 *    ranks and byte counts (size_t: counts of 4 GiB and more escape into a
 *    side table, record.h). models/record.c builds each rank's arguments
 *    as the timing driver does (sim/bench.c, MPI_BYTE); buffers are shared
 *    by all ranks and local work is charged, not done, as in simulated
 *    timing runs. There is no per-algorithm model code: adding an
 *    algorithm adds none.
 *
 *    Setup and the priced call. As the timing driver builds the kernel
 *    context before it times, record.c builds it (cs_ctx_prepare, node-aware
 *    rows) before the priced call: its communicators and setup collectives
 *    (MPI_Barrier, MPI_Bcast, MPI_Allreduce, MPI_Allgather) cost nothing.
 *    Inside the priced call:
 *    - every library collective on any communicator (MPI_Barrier, Bcast,
 *      Reduce, Allreduce, Allgather(v), Gather(v), Scatter(v),
 *      Reduce_scatter(_block), Scan, Exscan) is priced as the algorithm
 *      SMPI's selector runs for it (cs_model.lib, default SMPI's default
 *      selector; sim/libalgo.c names it), reproduced as its messages by
 *      models/mpirec/libcoll.c (SMPI charges no local work inside a
 *      collsim kernel's library call, nor does the model);
 *    - an algorithm libcoll.c does not reproduce fails the model with a
 *      message naming the collective, the algorithm and the selector;
 *    - creating a communicator (MPI_Comm_split, MPI_Comm_dup) fails the
 *      model with a message naming the call (SMPI charges its messages).
 *
 *    Evaluators. Programs of blocking steps only: an event evaluator
 *    (eval.c) in sweeps: a message starts when both sides have posted it
 *    and takes the model's message time; a process's exchange ends when
 *    its send and its receive have both ended; local work takes gamma per
 *    byte. Programs with nonblocking steps (a kernel's own, or a library
 *    collective's): the fluid evaluator (fluid.c), abg only, prices every
 *    message as a flow that starts when both sides have posted it (every
 *    send rendezvous, as smpirun runs with send-is-detached-thresh:0),
 *    waits out the route's latency alpha, then moves its bytes plus the
 *    envelope at the max-min fair share of the links it crosses (the
 *    sender's link up and the receiver's link down, 1/beta each, as
 *    platgen's abg platform has them), rates recomputed whenever flows
 *    start or end; a wait ends when its flows have. The time of a
 *    collective is that of the slowest process, all starting at 0. On a
 *    contention-free alpha-beta-gamma machine this is exactly what
 *    SimGrid/SMPI computes (tests/model_vs_sim.sh and, for nonblocking
 *    messages and library collectives, tests/model_nb.sh hold it to 1e-9).
 *    Messages between a pair of ranks are paired in posting order (the
 *    k-th send from i to j with the k-th receive at j from i); a kernel
 *    whose messages of one pair match out of that order (other tags or
 *    communicators in flight at once) fails the model with a message.
 *
 * Cost models (cs_model.kind):
 *  - ABG: homogeneous, one-ported, full duplex: alpha + beta (m + envelope)
 *    per message (envelope = 16 for SMPI, 0 in the papers), gamma per byte
 *    of each local reduction and copy.
 *  - MAXRATE (Bienz, Olson, Gropp 2019, eq. 2-3, node-aware postal +
 *    max-rate): ppn processes per node; intra-node alpha_l + beta_l m;
 *    inter-node alpha + n m / min(RN, n Rb) when n processes of the node
 *    inject at once (n counted per communication step).
 *  - LANES (Träff, Hunold 2020, k-lane): as MAXRATE with k NICs per node,
 *    each of rate RN; local rank j uses lane j mod k (processes alternate
 *    over sockets), so n counts the concurrent senders of one lane.
 *    MAXRATE and LANES (and ABG with calibrated network segments) price
 *    blocking programs only: a kernel with nonblocking messages or library
 *    collectives fails under them with a message, unless the platform's
 *    routes are at hand (routes_nb below: the fluid evaluator on them).
 * MAXRATE and LANES ranks see host names node<N>-<L> (N = r / ppn,
 * L = r % ppn) in MPI_Get_processor_name, ABG ranks node<r>, as
 * platforms/platgen.c names the hosts.
 */
#ifndef COLLSIM_MODEL_H
#define COLLSIM_MODEL_H

#include <stddef.h>

#include "pwcost.h"
#include "registry.h"

typedef enum { CS_MODEL_ABG, CS_MODEL_MAXRATE, CS_MODEL_LANES } cs_model_kind;

typedef struct {
  cs_model_kind kind;
  double alpha, beta, gamma; /* s, s/byte, s/byte */
  double envelope;           /* bytes added to every message: 16 in SMPI, 0 in the papers */
  /* MAXRATE and LANES: */
  double alpha_l, beta_l; /* intra-node */
  double Rb, RN;          /* bytes/s: per process, per NIC */
  double Rx;              /* bytes/s between lanes of a node (0: no limit) */
  int ppn, lanes;
  /* Calibrated segments (algos/pwcost.h; n = 0: none): ABG messages of m bytes
   * cost cs_pw_eval(net, m) instead of alpha + beta (m + envelope); a local
   * reduction of b bytes costs cs_pw_eval(local, b) instead of gamma b (every
   * kind); a local copy costs cs_pw_eval(copy, b), or without copy segments
   * what a reduction of b bytes costs. */
  cs_pw net, local, copy;
  /* The SMPI collective selector (sim/libalgo.c) whose algorithm prices a
   * library collective that a kernel calls inside the priced call; NULL:
   * SMPI's default, what collsim's timing runs use. */
  const char *lib;
  /* Rabenseifner's unidirectional factors (2004, Sec. 2): f_alpha =
   * alpha_uni / alpha_x, f_beta = beta_uni / beta_x, where alpha_x + beta_x m
   * is a bidirectional exchange and alpha_uni + beta_uni m a one-way message.
   * alpha and beta above are one-way (what one message alone costs), so the
   * formulas' exchange terms are alpha / f_alpha and beta / f_beta. Full
   * duplex (the default, cs_model_abg): both 1. Half duplex (half_duplex = 1:
   * the abg platform's links SHARED, an exchange costs alpha + 2 beta m):
   * f_alpha = 1, f_beta = 1/2. */
  int half_duplex;
  double f_alpha, f_beta;
  /* The platform's own routes (routes.h; NULL: none). When set, every
   * program is priced by the fluid evaluator on them (fluid.c): flows on the
   * links SimGrid's routing gives, shared as its CM02 model shares them. The
   * closed-form parameters above then serve local work only. */
  struct cs_routes *routes;
  /* The platform's own routes for the programs the event evaluator does not
   * price under MAXRATE or LANES (nonblocking steps, or library collectives
   * that have them: SMPI's linear scan inside scan and exscan lane and
   * hier): those alone go to the fluid evaluator on them, as with routes;
   * blocking programs keep the event evaluator. NULL: they fail. */
  struct cs_routes *routes_nb;
} cs_model;

/* What the model charges for one message of b bytes alone, without
 * contention: ABG its network segments or alpha + beta (b + envelope); the
 * other kinds alpha_l + beta_l (b + envelope) within a node (one lane), alpha +
 * (b + envelope) / min(Rb, RN) between nodes. (validate's drift probes.) */
double cs_model_msg_alone(const cs_model *mo, int same_node, double b);
/* What the model charges for local work of kind w on b bytes: its segments of
 * that kind (a copy without copy segments: a reduction's), else gamma b. */
double cs_model_local_time(const cs_model *mo, cs_work w, double b);

/* An ABG model with the given parameters and SMPI's 16-byte envelope. */
cs_model cs_model_abg(double alpha, double beta, double gamma);

/* What is priced: collective, algorithm (registry name), p, m bytes, root,
 * in place. The element type is MPI_BYTE: m counts bytes exactly. */
typedef struct {
  cs_coll coll;
  const char *algo;
  int p;
  long bytes;
  int root;
  int inplace;
} cs_case;

/* 1 iff collsim has an exact model of (coll, algo): every registered
 * algorithm except the library's own (native). */
int cs_model_has(cs_coll coll, const char *algo);

/* The exact model time of our implementation. Returns 0, or -1 with a
 * message in err (unknown or native algorithm, p < 1, m < 0, no memory, a
 * kernel error or an MPI call the recording MPI does not implement). */
int cs_model_time(const cs_model *mo, const cs_case *c, double *t, char *err, size_t errlen);

/* The exact closed form of (coll, algo) where one is proven equal to the
 * recorded model (models/closed.c: the ring family on full-duplex abg, not in
 * place; ctest closed): 1 and *t, or 0 where none applies. cs_model_time
 * takes it first; cs_model_eval always prices the recorded programs. */
int cs_model_closed(const cs_model *mo, const cs_case *c, double *t);

/* The cost model and evaluator that price the case under mo (after
 * cs_model_time of the same case it records nothing again): "abg-closed"
 * (an exact closed form, cs_model_closed: nothing recorded), "fluid-routes"
 * (the fluid evaluator on the platform's own routes, mo->routes),
 * "fluid-abg" (the fluid evaluator on abg's per-host links: nonblocking
 * steps or half duplex), "abg", "abg-segments" (calibrated network
 * segments), "maxrate" or "lanes" (the event evaluator, concurrent senders
 * counted per step index). docs/csv.md says where each is exact. 0, or -1
 * with a message in err. */
int cs_model_kind_of(const cs_model *mo, const cs_case *c, const char **kind, char *err,
                     size_t errlen);

/* Per-process detail for tests and teaching: messages sent, bytes sent and
 * bytes of local work of the slowest and of all processes. */
typedef struct {
  double time;   /* slowest process */
  long messages; /* messages sent by all processes */
  double sent;   /* bytes sent by all processes */
  double local;  /* bytes of local work of all processes */
  int rounds;    /* communication steps of the longest process */
  int sweeps;    /* the evaluator's passes over the processes (its cost) */
} cs_model_stats;
int cs_model_eval(const cs_model *mo, const cs_case *c, cs_model_stats *st, char *err,
                  size_t errlen);

/* The paper's formula for (coll, algo) under an ABG model (envelope added
 * per message). Returns 0, or -1 when the papers give no formula. */
int cs_table1_time(const cs_model *mo, cs_coll coll, const char *algo, int p, long m, double *t);

#endif
