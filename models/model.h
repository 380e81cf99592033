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
 *    blocking exchanges (MPI_Sendrecv, MPI_Send, MPI_Recv) and local work
 *    (algos/local.c's gamma charges) are recorded with world ranks and byte
 *    counts. models/record.c builds each rank's arguments as the timing
 *    driver does (sim/bench.c, MPI_BYTE); buffers are shared by all ranks
 *    and local work is charged, not done, as in simulated timing runs.
 *    Setup collectives and communicator calls of kernels cost nothing.
 *    There is no per-algorithm model code: adding an algorithm adds none.
 *    An event evaluator (eval.c) prices the records: a message starts when
 *    both sides have posted it and takes the model's message time; a
 *    process's exchange ends when its send and its receive have both
 *    ended; local work takes gamma per byte. The time of a collective is
 *    that of the slowest process, all starting at 0. On a contention-free
 *    alpha-beta-gamma machine this is exactly what SimGrid/SMPI computes
 *    (tests/model_vs_sim.sh holds it to 1e-9).
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
