/* Measurements over several mpirun launches (docs/calibrate.md, "Launches"):
 * one launch of a real MPI program can sit in a state of its own (placement,
 * memory layout, clock frequency, neighbours on a VM) for all its cases, so
 * the variation between launches exceeds that within one (Hunold and
 * Carpen-Amarie, ReproMPI). `collsim calibrate` and `collsim validate` run
 * N launches through cs_launches_run, each into its own file, and aggregate
 * every case the same way: the median over launches of the per-launch
 * medians, beside the launches' range (the launch-to-launch spread) and the
 * within-launch interval. No MPI. */
#ifndef COLLSIM_LAUNCHES_H
#define COLLSIM_LAUNCHES_H

#include <stddef.h>

/* The launches of calibrate and validate on a real MPI (docs/calibrate.md,
 * "Launches", has the measurements this was chosen from). */
#define CS_DEFAULT_LAUNCHES 3
/* The largest number of launches of one measurement. */
#define CS_MAX_LAUNCHES 64

/* One case over its launches. */
typedef struct {
  int n;           /* launches that measured the case */
  double median;   /* median of the per-launch medians (NAN if n = 0) */
  double lo, hi;   /* within-launch interval: medians over launches of each launch's
                      interval ends (NAN where no launch has one) */
  double min, max; /* smallest and largest per-launch median */
} cs_launch_agg;

/* Aggregates the per-launch medians med[0..n) with their intervals lo, hi (either
 * may be NULL; NAN entries are missing: a launch without a finite positive median
 * is not counted). */
void cs_launch_aggregate(const double *med, const double *lo, const double *hi, int n,
                         cs_launch_agg *a);
/* The launch-to-launch spread relative to the median, (max - min) / median;
 * NAN with fewer than two launches. */
double cs_launch_spread(const cs_launch_agg *a);

/* Groups samples (k[i], x[i], launch[i], y[i]) by (k, x); within a group, the
 * median of each launch's y, aggregated over launches (cs_launch_aggregate,
 * without intervals). launch may be NULL (one launch). One output point per
 * group, sorted by k then x: ok, ox, oa (room for n entries each). Returns the
 * number of groups, or -1 if out of memory. */
int cs_launch_medians_by_key(const double *k, const double *x, const int *launch, const double *y,
                             int n, double *ok, double *ox, cs_launch_agg *oa);

/* The file of launch `launch` (1-based): STEM-L<launch>EXT. */
void cs_launch_path(char *buf, size_t len, const char *stem, int launch, const char *ext);

/* Runs launches 1..n of one measurement: fn(ctx, launch, path) with path =
 * cs_launch_path(stem, launch, ext), announcing each on stderr with the
 * machine's load (what names the command). Stops at the first launch that
 * fails and returns its status; 0 when all ran. */
typedef int (*cs_launch_fn)(void *ctx, int launch, const char *path);
int cs_launches_run(const char *what, const char *stem, const char *ext, int n, cs_launch_fn fn,
                    void *ctx);

/* Parses a --launches value (1..CS_MAX_LAUNCHES); -1 with a message naming cmd. */
int cs_launches_parse(const char *cmd, const char *value);

#endif
