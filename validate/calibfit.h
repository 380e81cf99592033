/*
 * calibfit.h: the fits of `collsim calibrate` (pure C + GSL, no MPI).
 *
 * Every function takes plain arrays, so that tests/test_calibfit.c can feed it
 * synthetic samples with known parameters. Functions return 0 on success and -1
 * on bad input, with a message in err (which may be NULL).
 *
 * Fit criterion (see docs/calibrate.md): times span six decades (a 0-byte ping-pong
 * takes ~1e-7 s, a 16 MiB one ~1e-2 s), so an ordinary least-squares line would be
 * decided by the largest messages alone and could miss the latency completely. The
 * line y = a + b x is fitted by weighted least squares with weights 1 / y_i^2, i.e.
 * it minimises the sum of squared RELATIVE residuals (y_i - a - b x_i) / y_i, the
 * error measure a model user cares about ("the model is off by 5%") at every size.
 * The residual reported is the root mean square of these relative residuals, which
 * is exactly the minimised quantity: rms_rel = sqrt(chi^2 / n).
 */
#ifndef COLLSIM_CALIBFIT_H
#define COLLSIM_CALIBFIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = a + b x, fitted by relative-error least squares. */
typedef struct cs_linfit {
  double a, b;       /* intercept (s) and slope (s/byte) */
  double se_a, se_b; /* standard errors (from the fit's covariance scaled by its
                        residual variance chi^2/(n-2); 0 when n = 2) */
  double rms_rel;    /* RMS relative residual sqrt(mean(((y - a - b x) / y)^2)) */
  double max_rel;    /* largest |relative residual| ... */
  double x_max_rel;  /* ... and the x where it occurs */
  int n;             /* points used */
} cs_linfit;

/* Fits y = a + b x to n points (x >= 0, y > 0, at least two distinct x). */
int cs_fit_linear_rel(const double *x, const double *y, int n, cs_linfit *fit, char *err,
                      size_t errlen);

/* The median of v[0..n) (mean of the middle two for even n; NaN for n = 0); v is
 * not modified. */
double cs_median(const double *v, int n);

/*
 * Groups the samples (k[i], x[i], y[i]) by the pair (k, x) and writes one point per
 * group, sorted by k then x: ok, ox (the key), oy (the median of the group's y) and,
 * if ocount is not NULL, the group size. Output arrays need room for n entries.
 * Returns the number of groups.
 */
int cs_medians_by_key(const double *k, const double *x, const double *y, int n, double *ok,
                      double *ox, double *oy, int *ocount);

/*
 * The max-rate model (Bienz, Olson, Gropp): k processes of a node sending at once
 * reach the aggregate rate R(k) = min(RN, k Rb). Fitted to n points (k[i], rate[i])
 * by relative least squares over (Rb, RN): for every split of the sorted distinct k
 * into a leading linear part (k Rb) and a saturated rest (RN), Rb and RN have closed
 * forms; the split with the smallest relative residual of the full min() model wins
 * (on a tie the one with more points in the linear part: saturation is only claimed
 * when the data show it).
 */
typedef struct cs_maxrate_fit {
  double Rb;               /* per-process rate, bytes/s */
  double RN;               /* per-node injection limit, bytes/s */
  int rn_reached;          /* 1: some k is limited by RN; 0: RN was not reached by the largest
                              k measured, and RN = kmax Rb is only a lower bound */
  int rb_identified;       /* 0: even the smallest k is limited by RN, so Rb is not identified:
                              Rb >= RN / kmin, and Rb is set to that bound (= RN for kmin = 1) */
  int nlin;                /* distinct k values in the linear (k Rb) part */
  double rms_rel, max_rel; /* relative residuals of the rates */
  int n;
} cs_maxrate_fit;

int cs_fit_maxrate(const double *k, const double *rate, int n, cs_maxrate_fit *fit, char *err,
                   size_t errlen);

/*
 * Concurrent-flow samples: k[i] flows of bytes[i] each took t[i] (the slowest flow,
 * ideally a median over repetitions). For each distinct k the line t = a_k + s_k m
 * is fitted (cs_fit_linear_rel) and gives the aggregate rate R_k = k / s_k; then
 * cs_fit_maxrate fits (Rb, RN) to the (k, R_k). Per-k results go to ks, rates and
 * rate_rms (each with room for n entries; any may be NULL), their number to *nk.
 */
int cs_fit_flows(const double *k, const double *bytes, const double *t, int n, double *ks,
                 double *rates, double *rate_rms, int *nk, cs_maxrate_fit *fit, char *err,
                 size_t errlen);

/*
 * Segmented (piecewise) fit: the sizes x (sorted increasing, distinct: per-size
 * medians) are split into consecutive segments, each with its own line
 * y = a + b x fitted by relative least squares (cs_fit_linear_rel), the
 * breakpoints found from the data: for every number of segments K = 1 ..
 * maxseg, dynamic programming over all splits (each segment >= minpts sizes)
 * gives the K-segment split with the smallest sum of squared relative residuals
 * (chi2_K); K is chosen by the Bayesian information criterion
 * BIC_K = n ln(chi2_K / n) + (3K - 1) ln n (two line parameters per segment and
 * one breakpoint between two), and a further segment is only taken when it
 * also lowers chi2 by at least min_gain (a fraction, e.g. 0.25): with per-size
 * medians of thousands of samples, noise alone never pays that much.
 *
 * Breakpoint between segments i and i+1 (sizes x[j] last of i, x[j+1] first of
 * i+1): where the two lines cross, if they cross within [x[j-1], x[j+2]] (a kink:
 * the breakpoint is then located between the samples, and the sizes next to it
 * may have fallen on either side within the noise); otherwise x[j] (a jump,
 * e.g. a protocol switch: it lies somewhere in the gap, and the lower segment's
 * line is used up to x[j]). Segment i+1 applies to sizes > from[i+1].
 */
#define CS_SEG_MAX 8
typedef struct cs_segfit {
  int nseg;
  double from[CS_SEG_MAX];  /* from[0] = 0; segment i applies for x > from[i] */
  int first[CS_SEG_MAX];    /* index of the first and ... */
  int last[CS_SEG_MAX];     /* ... last size of each segment */
  int crossing[CS_SEG_MAX]; /* 1: from[i] is where the lines cross; 0: a jump */
  cs_linfit seg[CS_SEG_MAX];
  double rms_rel, max_rel, x_max_rel; /* over all sizes */
  double chi2_1seg;                   /* chi2 of the single line, for comparison */
  int n;
} cs_segfit;

int cs_fit_segmented(const double *x, const double *y, int n, int maxseg, int minpts,
                     double min_gain, cs_segfit *fit, char *err, size_t errlen);

/* The fitted value at size x (the segment of x, as SimGrid looks it up). */
double cs_segfit_eval(const cs_segfit *fit, double x);

#ifdef __cplusplus
}
#endif

#endif /* COLLSIM_CALIBFIT_H */
