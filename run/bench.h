/* A timing run: the driver (sim/) started under smpirun on a platform or
 * under mpirun, once per algorithm, for the sizes its CSV still lacks
 * (resumable). ./collsim bench parses its options into a cs_bench_req
 * (cli/bench.c); predict, table1, guidelines, validate and the demo fill
 * one themselves. */
#ifndef COLLSIM_RUN_BENCH_H
#define COLLSIM_RUN_BENCH_H

#include <stddef.h>
#include <stdio.h>

#include "foreign.h"
#include "registry.h"
#include "results.h"

#define CS_MAX_SIZES 256
#define CS_MAX_ALGOS 32

/* The datatype of a run (--type): byte (MPI_BOR), int (MPI_SUM), double (MPI_MAX). */
typedef enum { CS_BENCH_BYTE, CS_BENCH_INT, CS_BENCH_DOUBLE, CS_BENCH_NTYPES } cs_bench_type;
extern const char *const cs_bench_type_name[CS_BENCH_NTYPES];
/* The reduction op of each type, as files record it: bor, sum, max. */
extern const char *const cs_bench_op_name[CS_BENCH_NTYPES];
/* --verify's values, indexed by cs_bench_req.verify. */
extern const char *const cs_bench_verify_name[3];

typedef struct {
  int smpi;                    /* 1: SMPI on xml (default); 0: a real MPI under mpirun */
  char xml[4096], hosts[4096]; /* smpi: platform and hostfile */
  const char *hostfile;        /* as given */
  int np;
  cs_coll coll;
  const char *algos[CS_MAX_ALGOS];
  int nalgos;
  long bytes[CS_MAX_SIZES];
  int nbytes;
  const char *out; /* NULL: print */
  cs_bench_type type;
  int reps, warmup; /* -1: backend default */
  double time_limit;
  int root, inplace, redo, quiet, jobs, stats;
  /* 1: a file of another configuration is started over (with a note)
   * instead of refused: for callers that own their files and fix their
   * configuration themselves (the demo), whose old results a new collsim
   * would otherwise refuse. */
  int redo_foreign;
  const char *cfg;     /* extra smpirun options */
  int single;          /* 1: reduce_scatter with the root's block only (--layout single) */
  const char *samples; /* NULL, or a CSV the driver appends rep-level times to */
  int osu;             /* 0: CSV; 1: OSU-style table (Size, Avg Latency(us)); 2: with min, max,
                          iterations (--format osu, osu-full) */
  int keep_network;    /* smpi: SMPI's own network model, not collsim's exact timing */
  /* 1: verify only the library's results before timing (native, native:,
   * lib:), as predict and table1 do: collsim's kernels are proven by the
   * check matrix, and their model comparisons need only times. 0: all. */
  int verify;     /* 0: all rows (default); 1: library rows only; 2: none (--verify none) */
  int interleave; /* mpi: algorithms lacking the same sizes run in one launch, in rounds
                     (each round calls every algorithm once: sim/bench.c) */
  int lib_free;   /* smpi: 1 = the library's reductions cost nothing (SMPI's own
                     behaviour), 0 = charged gamma per byte as collsim's (default) */
  /* mpi: drift probes (sim/driver.h) interleaved with the sizes, their samples
   * appended to probes_out with launch in its launch column (validate) */
  const char *probes, *probes_out;
  int launch;
  /* What the progress line names before the collective (validate: "launch
   * 2/3", guidelines: "reduce-single.csv"), or NULL. */
  const char *stage;
  /* smpi: xml as read already by the caller, who runs several benches on it
   * (cs_platform_load); NULL: cs_bench_run reads xml itself. */
  cs_platform_file *pf;
} cs_bench_req;

void cs_bench_defaults(cs_bench_req *q);
/* 1 iff the first np hosts of hostfile put ranks of one node on different
 * SimGrid hosts (node<N>-<j>): SMPI groups ranks into nodes by host, so the
 * library's node-aware algorithms then see one-rank nodes and run flat. */
int cs_library_sees_flat_nodes(const char *hostfile, int np);

/* Runs what out lacks (resumable); 0 on success. */
int cs_bench_run(cs_bench_req *q);
/* The bytes size i of q really moves (for q's datatype), and whether an
 * earlier size of q moves the same (then it is run and reported once). */
long cs_req_bytes(const cs_bench_req *q, int i);
int cs_req_dup(const cs_bench_req *q, int i);
/* 0 if every name of algos is an algorithm of coll (or an SMPI selector),
 * else -1 with the valid names. */
int cs_check_algos(cs_coll coll, const char **algos, int n);

#endif
