/* ./collsim guidelines as a run: both sides of every guideline timed
 * (resumable bench CSVs in out, a directory), guidelines.csv and
 * violations.md written there, the violations printed (guidelines/guidelines_run.c). */
#ifndef COLLSIM_GUIDELINES_RUN_H
#define COLLSIM_GUIDELINES_RUN_H

#include <stdio.h>

#include "bench.h"

typedef struct {
  const char *platform; /* a file or a named machine (cs_resolve_platform); NULL with mpi */
  const char *hostfile; /* NULL: beside the platform, or the default placement */
  const char *lib;      /* the library's side: SMPI's selector lib (smpi), native (mpi) */
  const char *ours;     /* the family on our side (registry) */
  const char *out;      /* the directory (NULL: results/guidelines/PLATFORM-pNP) */
  int smpi;             /* 1: simulated (default), 0: mpirun on this machine */
  int np, reps, redo, quiet;
  int redo_foreign; /* as in cs_bench_req */
  long bytes[CS_MAX_SIZES];
  int nbytes;
  double tol, alpha;
} cs_gl_opts;

void cs_gl_opts_defaults(cs_gl_opts *o);
int cs_guidelines_run(const cs_gl_opts *o, FILE *out);
/* The registry's first family: the default of --ours. */
const char *cs_first_family(void);

#endif
