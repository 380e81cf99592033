/* Timing runs and the models beside them: ./collsim bench, predict,
 * table1 (cli/bench.c, cli/predict.c), shared with guidelines and demo. */
#ifndef COLLSIM_CLI_BENCH_H
#define COLLSIM_CLI_BENCH_H

#include <stddef.h>

#include "model.h"
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
  const char *cfg;     /* extra smpirun options */
  const char *layout;  /* NULL/"even", or "single": reduce_scatter with the root's block only */
  const char *samples; /* NULL, or a CSV the driver appends rep-level times to */
} cs_bench_req;

void cs_bench_defaults(cs_bench_req *q);
/* Runs what out lacks (resumable); 0 on success. */
int cs_bench_run(cs_bench_req *q);
long cs_effective_bytes(cs_coll coll, int p, long m, int size);
/* The bytes size i of q really moves (for q's datatype), and whether an
 * earlier size of q moves the same (then it is run and reported once). */
long cs_req_bytes(const cs_bench_req *q, int i);
int cs_req_dup(const cs_bench_req *q, int i);

int cs_resolve_platform(const char *arg, const char *hostfile, char *xml, char *hosts, size_t len);
int cs_model_from_platform(const char *xml, cs_model *mo, char *err, size_t errlen);
int cs_check_algos(cs_coll coll, const char **algos, int n);
int cs_bench_parse(int argc, char **argv, cs_bench_req *q, const char *cmd,
                   int (*extra)(int, char **, int, void *), void *ctx, char *platform,
                   size_t platlen);

#endif
