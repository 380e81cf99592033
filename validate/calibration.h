/* The analysis of `collsim calibrate` (docs/calibrate.md): the driver's raw
 * samples read back, fitted (calibfit.h), printed, turned into a platform
 * (platforms/platgen.h) and compared with a re-measurement of that platform.
 * No MPI: validate/calibrate_run.c runs the driver and calls these. */
#ifndef COLLSIM_CALIBRATION_H
#define COLLSIM_CALIBRATION_H

#include <stdio.h>

#include "calibfit.h"
#include "platgen.h"
#include "results.h"

typedef struct {
  int n, cap;
  double *k, *x, *y;
  int *l; /* the launch of each sample (1..) */
  char pair[32];
} cs_calib_series;

typedef struct {
  char backend[16], library[256];
  int np, nodes;
  int *node_ranks; /* ranks per node */
  char (*node_host)[64];
  long rows;
  int launches; /* the largest launch number of the samples */
  cs_calib_series s[CS_CALIB_NSERIES];
} cs_calib_samples;

#define CS_CALIB_MAXPTS 256

typedef struct {
  int ok;
  cs_linfit f;
  int sizes; /* distinct sizes fitted */
  double xmin, xmax;
  int dropped; /* sizes whose median time was not > 0 */
  char err[256];
  /* The segmented fit of the same medians (calibfit.h: breakpoints from the data). */
  int seg_ok;
  cs_segfit seg;
  char seg_err[256];
  /* Over launches (launches.h): the most launches of a size, and the median and
   * largest launch-to-launch spread ((max - min) / median of the launches'
   * medians) over the sizes, with the size of the largest (NAN: one launch). */
  int launches;
  double spread_median, spread_max, spread_max_x;
  /* The per-size medians fitted: of the launches' medians (the first
   * CS_CALIB_MAXPTS), for refits. */
  int npts;
  double px[CS_CALIB_MAXPTS], py[CS_CALIB_MAXPTS];
} cs_calib_line;

/* Segmented fits: at most this many segments, each of at least CS_CALIB_SEG_MINPTS
 * sizes, a further segment taken only if it lowers chi2 by CS_CALIB_SEG_GAIN. */
#define CS_CALIB_SEG_MAX    6
#define CS_CALIB_SEG_MINPTS 3
#define CS_CALIB_SEG_GAIN   0.2

typedef struct {
  cs_calib_line intra, inter, reduce, memcpy;
  cs_calib_line xintra, xinter; /* exchanges (MPI_Sendrecv both ways at once) */
  int flows_ok, flows_inter, nk;
  cs_maxrate_fit flows;
  double ks[512], rates[512], rate_rms[512];
  char flows_err[256];
} cs_calib_analysis;

/* A platform chosen from the fits, and how each parameter was chosen. */
typedef struct {
  cs_platform pl;
  char note[1024]; /* how each parameter was chosen */
} cs_calib_platform;

/* Reads the driver's samples file; 0, or -1 with a message. */
int cs_calib_read_samples(const char *path, cs_calib_samples *S);
void cs_calib_samples_free(cs_calib_samples *S);

/* Fits every series of S (a failed fit says why in its err). */
void cs_calib_analyze(const cs_calib_samples *S, cs_calib_analysis *A);
/* Prints every fitted figure with its residual. */
void cs_calib_print_analysis(FILE *out, const cs_calib_samples *S, const cs_calib_analysis *A);

/* The launch-to-launch spread a fit may show (the median over its sizes of
 * (max - min) / median of the launches' medians): validation holds
 * predictions to a median error of 25% over all sizes (issue 10), so a fit
 * whose own measurements move more than that between launches cannot be
 * judged to it. */
#define CS_CALIB_SPREAD_TARGET 0.25
/* Prints a warning for every fit of A whose median launch-to-launch spread
 * exceeds CS_CALIB_SPREAD_TARGET, naming the fit, its spread and the advice
 * (a quiet machine, more launches); load: the 1-minute load average (< 0:
 * unknown), cores: this machine's. Returns the number of such fits. */
int cs_calib_spread_warnings(FILE *out, const cs_calib_analysis *A, int launches, double load,
                             int cores);
/* The fits a platform's calibration comment (cs_val_platform_calibration)
 * marks as beyond the spread target, joined by ", " into names; their
 * number (0: none, or no such comment). */
int cs_calib_unsteady_fits(const char *calibration, char *names, size_t len);

/* abg on one node, maxrate on several; 0, or -1 with a message. An abg
 * platform's network is the exchange's fit (unless pingpong, or no exchange
 * was measured: then the ping-pong's). Unless linear, an abg platform carries
 * the segmented fits: the network's (if it has more than one segment), the
 * reduction's as local work. */
int cs_calib_choose_platform(const cs_calib_samples *S, const cs_calib_analysis *A, int linear,
                             int pingpong, cs_calib_platform *C);
/* Writes the platform (its XML opens with a comment on the fits) and its hostfile. */
int cs_calib_write_platform(const char *xml, const char *hostfile, const cs_calib_samples *S,
                            const cs_calib_analysis *A, const cs_calib_platform *C,
                            const char *samples_path, double seconds);

/* Compares the figures fitted to a re-measurement of platform xml (samples at
 * samples_path) with the parameters pl it was written from (an m-byte message
 * of SMPI costs alpha + beta (m + 16), so the fitted intercept is alpha + 16
 * beta), printing each. Returns the largest relative difference, or -1 if
 * nothing could be compared. */
double cs_calib_verify(FILE *out, const char *samples_path, const char *xml, const cs_platform *pl);

#endif
