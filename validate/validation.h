/* The analysis of `collsim validate`: predictions (collsim's model, SMPI)
 * against measurements on a real MPI library, as relative errors, their
 * summary per algorithm and the report (docs/csv.md "validate",
 * docs/calibrate.md). No MPI: validate/validate_run.c runs the simulations and
 * measurements, writes the rows and calls these. */
#ifndef COLLSIM_VALIDATION_H
#define COLLSIM_VALIDATION_H

#include <stdio.h>

#include "drift.h"

/* Sizes from this many bytes on are "large" (the m >= 64 KiB figure). */
#define CS_VAL_LARGE 65536

/* One case: an algorithm at m bytes. Errors are (predicted - measured) /
 * measured, NAN where a prediction or the measurement is missing. */
typedef struct {
  char algo[64];
  long bytes;
  double model, sim;   /* predicted seconds; < 0 or NAN: missing */
  double meas, lo, hi; /* measured median (over launches: the median of the launches'
                          medians) and its 95% confidence interval (within a launch) */
  int launches;        /* mpirun launches measured (launches.h) */
  double lmin, lmax;   /* the smallest and largest per-launch median */
  double err[2];       /* [0] model, [1] simulation */
  int unstable[2];     /* the interval is wider than that error: the
                          measurement cannot tell the error from its own spread */
  int spread[2];       /* the launch-to-launch spread (lmax - lmin) / meas is wider than
                          that error: another launch could have measured it away */
} cs_val_case;

typedef struct {
  cs_val_case *c;
  int n, cap;
} cs_val_set;

void cs_val_set_init(cs_val_set *V);
void cs_val_set_free(cs_val_set *V);
/* Adds a case measured over `launches` launches whose medians ranged over
 * lmin..lmax (one launch: NAN, NAN), computes its errors and flags; returns it
 * (NULL if out of memory). An interval is "wider than the error" when
 * (hi - lo) / meas > |err|; a case without an interval (lo or hi missing) is not
 * flagged. The launches' spread is wider than the error when
 * (lmax - lmin) / meas > |err| (two launches or more). */
const cs_val_case *cs_val_add_case(cs_val_set *V, const char *algo, long bytes, double model,
                                   double sim, double meas, double lo, double hi, int launches,
                                   double lmin, double lmax);
/* The case's launch-to-launch spread relative to its median (NAN: one launch). */
double cs_val_launch_spread(const cs_val_case *c);

/* The figures of one prediction (0 model, 1 simulation) over the cases of algo
 * (NULL: every algorithm but native, which is SMPI's collective when simulated
 * and the library's when measured, and has no model) with bytes >= min_bytes: the median and worst
 * absolute error over all cases, the median over the stable ones (neither the
 * interval nor the launches' spread wider than the error), and the counts
 * (unstable: either flag). Medians are NAN without cases. */
typedef struct {
  double median, worst, median_stable;
  long worst_bytes;
  char worst_algo[64];
  int n, unstable;
} cs_val_stats;
void cs_val_stats_of(const cs_val_set *V, int pred, const char *algo, long min_bytes,
                     cs_val_stats *s);

/* What the report states besides the cases. */
typedef struct {
  const char *coll; /* MPI name, e.g. MPI_Allreduce */
  int np;
  const char *platform;    /* the platform file predictions came from */
  const char *calibration; /* the calibration recorded in it (text), or NULL */
  const char *csv;         /* the table of cases */
  const char *picture;     /* predicted-vs-measured plot (path relative to the report), or NULL */
  double load_before, load_after;  /* 1-minute load average around the measurement (< 0: unknown) */
  int cores;                       /* online processors of this machine */
  int oversubscribed;              /* np > cores with no hostfile */
  int reused;                      /* some measurements came from an earlier run */
  double target_all, target_large; /* the median errors aimed at (e.g. 0.25, 0.15) */
  int launches;                    /* mpirun launches per case (1: one) */
  const cs_drift *drift;           /* the drift probes (drift.h), or NULL: not taken */
  const cs_val_set *per_launch;    /* NULL, or `launches` sets: the same cases measured by
                                      each launch alone (its median and interval) */
  const char *type, *op;           /* the datatype and op of the cases (byte, bor; ...), or NULL */
  const char *command;             /* the command that made the report, or NULL */
} cs_val_info;

/* The median of the signed errors of one prediction over collsim's algorithms
 * (native apart) with bytes >= min_bytes; NAN without cases. */
double cs_val_signed_median(const cs_val_set *V, int pred, long min_bytes);

/* Writes the Markdown report: findings first (per algorithm: median and worst
 * errors of model and simulation, over all sizes and for m >= 64 KiB, stable
 * cases apart), the verdict against the targets, the largest errors, then the
 * per-size table with each median's interval and the flags. */
void cs_val_report(FILE *f, const cs_val_set *V, const cs_val_info *info);

/* The calibration recorded in a platform written by `collsim calibrate`: the
 * text of its leading XML comment (malloc'd), or NULL if it has none. */
char *cs_val_platform_calibration(const char *xml);

#endif
