/* ./collsim lanes: Traff and Hunold's lane pattern and multi-collective
 * benchmarks (the driver's lanes mode, sim/lanes.c) under smpirun on a
 * platform or under mpirun, their CSV (docs/csv.md, "lanes") and pictures
 * like the paper's Figs. 1-3 (plots/lanes.gp). */
#ifndef COLLSIM_RUN_LANES_H
#define COLLSIM_RUN_LANES_H

typedef struct {
  int smpi;                /* 1: smpirun on platform (default); 0: mpirun on this machine */
  const char *platform;    /* smpi: a file or a named machine */
  const char *hostfile;    /* optional */
  int np;                  /* 0: every host's cores of the platform (smpi) */
  int vnode;               /* > 0: COLLSIM_VNODE for the job (virtual nodes of vnode ranks) */
  const char *pattern;     /* lane or multi */
  const char *counts;      /* MPI_INT counts c, e.g. 1152,11520 */
  const char *ks;          /* virtual lanes k, e.g. 1-8 or 1,2,4; NULL: 1, 2, 4, ... n and n */
  int reps, warmup, inner; /* -1: the driver's defaults */
  const char *out;         /* CSV (rewritten); NULL: print */
  const char *plot;        /* directory for the pictures, or NULL */
  int quiet;
} cs_lanes_req;

/* 0 on success, 2 bad input, 1 a failed run. */
int cs_lanes_run(const cs_lanes_req *q);
/* The pictures of a lanes CSV into dir (lanes-PATTERN-time.png,
 * lanes-PATTERN-ratio.png); 0 on success. */
int cs_lanes_plot(const char *csv, const char *pattern, const char *dir, const char *title);

/* The hydra study (issue 27 item 5) into dir: both benchmarks, then bcast,
 * allgather, allreduce and scan with lib:ompi, lib:mpich and the registry's
 * lane and hier rows (names or families beginning so), pictures in
 * dir/plots and dir/summary.md with each ratio beside the paper's claim.
 * quick: two counts per collective instead of three. Scan runs on the
 * first quarter of the nodes (SMPI's one linear scan costs minutes per call
 * at 1152 ranks), on all of them with full_scan. Prints its wall time. */
int cs_lanes_study(const char *dir, const char *platform, int quick, int full_scan);

#endif
