/* Timing runs and the models beside them: ./collsim bench, predict,
 * table1 (cli/bench.c, cli/predict.c), shared with guidelines and demo; and
 * the entry points of table1 and guidelines that demo calls. */
#ifndef COLLSIM_CLI_BENCH_H
#define COLLSIM_CLI_BENCH_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"
#include "platmodel.h"
#include "registry.h"
#include "results.h"

#define CS_MAX_SIZES 256
#define CS_MAX_ALGOS 32

typedef struct {
  const char *backend;         /* smpi or mpi */
  char xml[4096], hosts[4096]; /* smpi: platform and hostfile */
  const char *hostfile;        /* as given */
  int smpi;
  int np;
  cs_coll coll;
  const char *algos[CS_MAX_ALGOS];
  int nalgos;
  long bytes[CS_MAX_SIZES];
  int nbytes;
  const char *out; /* NULL: print */
  const char *type;
  int reps, warmup; /* -1: backend default */
  double time_limit;
  int root, inplace, redo, quiet, jobs, stats;
  /* 1: a file of another configuration is started over (with a note)
   * instead of refused: for callers that own their files and fix their
   * configuration themselves (the demo), whose old results a new collsim
   * would otherwise refuse. */
  int redo_foreign;
  const char *cfg;     /* extra smpirun options */
  const char *layout;  /* NULL/"even", or "single": reduce_scatter with the root's block only */
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
} cs_bench_req;

void cs_bench_defaults(cs_bench_req *q);
/* Runs what out lacks (resumable); 0 on success. */
int cs_bench_run(cs_bench_req *q);
/* The bytes size i of q really moves (for q's datatype), and whether an
 * earlier size of q moves the same (then it is run and reported once). */
long cs_req_bytes(const cs_bench_req *q, int i);
int cs_req_dup(const cs_bench_req *q, int i);

/* ./collsim table1: Table I for np processes (formula, model, simulation on
 * an abg platform with alpha, beta, gamma), its CSV at csv (NULL: a
 * temporary file) and the Markdown table printed to out. */
typedef struct {
  int np;
  const char *bytes, *csv;
  double alpha, beta, gamma;
  int nosim;
} cs_table1_req;
void cs_table1_defaults(cs_table1_req *t);
int cs_table1_run(const cs_table1_req *t, FILE *out);

/* ./collsim guidelines: both sides of every guideline timed (resumable bench
 * CSVs in out, a directory), guidelines.csv and violations.md written there,
 * the violations printed to out (the FILE). */
typedef struct {
  const char *platform, *hostfile, *bytes, *lib, *ours, *out, *backend;
  int np, reps, redo, quiet;
  int redo_foreign; /* as in cs_bench_req */
  double tol, alpha;
} cs_gl_opts;
void cs_gl_opts_defaults(cs_gl_opts *o);
int cs_guidelines_run(const cs_gl_opts *o, FILE *out);

int cs_resolve_platform(const char *arg, const char *hostfile, char *xml, char *hosts, size_t len);
int cs_check_algos(cs_coll coll, const char **algos, int n);
int cs_bench_parse(int argc, char **argv, cs_bench_req *q, const char *cmd,
                   int (*extra)(int, char **, int, void *), void *ctx, char *platform,
                   size_t platlen);

#endif
