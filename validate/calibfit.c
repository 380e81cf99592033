/* calibfit.c: the fits of `collsim calibrate`; see calibfit.h and docs/calibrate.md. */
#include "calibfit.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>

static void set_err(char *err, size_t len, const char *fmt, ...) {
  if (!err || !len) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, len, fmt, ap);
  va_end(ap);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double cs_median(const double *v, int n) {
  if (n <= 0) return NAN;
  double *c = malloc(sizeof(double) * (size_t)n);
  if (!c) return NAN;
  memcpy(c, v, sizeof(double) * (size_t)n);
  qsort(c, (size_t)n, sizeof(double), cmp_double);
  double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
  free(c);
  return m;
}

int cs_fit_linear_rel(const double *x, const double *y, int n, cs_linfit *fit, char *err,
                      size_t errlen) {
  memset(fit, 0, sizeof *fit);
  if (n < 2) {
    set_err(err, errlen, "a line needs at least 2 points (got %d)", n);
    return -1;
  }
  int distinct = 0;
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i]) || x[i] < 0) {
      set_err(err, errlen, "size %g is not a finite number >= 0", x[i]);
      return -1;
    }
    if (!isfinite(y[i]) || y[i] <= 0) {
      set_err(err, errlen, "time %g (at size %g) is not a finite number > 0", y[i], x[i]);
      return -1;
    }
    if (x[i] != x[0]) distinct = 1;
  }
  if (!distinct) {
    set_err(err, errlen, "all %d points have the same size %g: the slope is undetermined", n, x[0]);
    return -1;
  }
  double *w = malloc(sizeof(double) * (size_t)n);
  if (!w) {
    set_err(err, errlen, "out of memory");
    return -1;
  }
  for (int i = 0; i < n; i++) w[i] = 1.0 / (y[i] * y[i]);
  gsl_set_error_handler_off();
  double c0, c1, cov00, cov01, cov11, chisq;
  int rc = gsl_fit_wlinear(x, 1, w, 1, y, 1, (size_t)n, &c0, &c1, &cov00, &cov01, &cov11, &chisq);
  free(w);
  if (rc != GSL_SUCCESS || !isfinite(c0) || !isfinite(c1)) {
    set_err(err, errlen, "weighted least squares failed (%s)", gsl_strerror(rc));
    return -1;
  }
  fit->a = c0;
  fit->b = c1;
  fit->n = n;
  /* Relative residuals, recomputed (chisq equals their sum of squares). */
  double ss = 0;
  for (int i = 0; i < n; i++) {
    double r = (y[i] - c0 - c1 * x[i]) / y[i];
    ss += r * r;
    if (fabs(r) > fit->max_rel) {
      fit->max_rel = fabs(r);
      fit->x_max_rel = x[i];
    }
  }
  fit->rms_rel = sqrt(ss / n);
  /* The weights fix only the relative sizes of the errors: scale the covariance by
   * the residual variance per degree of freedom. */
  double s2 = n > 2 ? ss / (n - 2) : 0;
  fit->se_a = sqrt(cov00 * s2);
  fit->se_b = sqrt(cov11 * s2);
  return 0;
}

typedef struct {
  double k, x, y;
} kxy;

static int cmp_kxy(const void *a, const void *b) {
  const kxy *p = a, *q = b;
  if (p->k != q->k) return p->k < q->k ? -1 : 1;
  if (p->x != q->x) return p->x < q->x ? -1 : 1;
  return 0;
}

int cs_medians_by_key(const double *k, const double *x, const double *y, int n, double *ok,
                      double *ox, double *oy, int *ocount) {
  if (n <= 0) return 0;
  kxy *s = malloc(sizeof(kxy) * (size_t)n);
  double *g = malloc(sizeof(double) * (size_t)n);
  if (!s || !g) {
    free(s);
    free(g);
    return 0;
  }
  for (int i = 0; i < n; i++) s[i] = (kxy){k[i], x[i], y[i]};
  qsort(s, (size_t)n, sizeof(kxy), cmp_kxy);
  int groups = 0;
  for (int i = 0; i < n;) {
    int j = i, c = 0;
    while (j < n && s[j].k == s[i].k && s[j].x == s[i].x) g[c++] = s[j++].y;
    ok[groups] = s[i].k;
    ox[groups] = s[i].x;
    oy[groups] = cs_median(g, c);
    if (ocount) ocount[groups] = c;
    groups++;
    i = j;
  }
  free(s);
  free(g);
  return groups;
}

/* Relative residuals of the min() model over all points. */
static double maxrate_resid(const double *k, const double *r, int n, double Rb, double RN,
                            double *maxrel) {
  double ss = 0;
  *maxrel = 0;
  for (int i = 0; i < n; i++) {
    double m = k[i] * Rb < RN ? k[i] * Rb : RN;
    double e = (r[i] - m) / r[i];
    ss += e * e;
    if (fabs(e) > *maxrel) *maxrel = fabs(e);
  }
  return ss;
}

int cs_fit_maxrate(const double *k, const double *rate, int n, cs_maxrate_fit *fit, char *err,
                   size_t errlen) {
  memset(fit, 0, sizeof *fit);
  if (n < 1) {
    set_err(err, errlen, "no concurrent-flow rates to fit");
    return -1;
  }
  double kmin = INFINITY, kmax = 0;
  for (int i = 0; i < n; i++) {
    if (!isfinite(k[i]) || k[i] < 1) {
      set_err(err, errlen, "flow count %g is not a number >= 1", k[i]);
      return -1;
    }
    if (!isfinite(rate[i]) || rate[i] <= 0) {
      set_err(err, errlen, "rate %g (k = %g) is not a finite number > 0", rate[i], k[i]);
      return -1;
    }
    if (k[i] < kmin) kmin = k[i];
    if (k[i] > kmax) kmax = k[i];
  }
  /* Distinct k, sorted: the candidate split points. */
  double *ks = malloc(sizeof(double) * (size_t)n);
  if (!ks) {
    set_err(err, errlen, "out of memory");
    return -1;
  }
  memcpy(ks, k, sizeof(double) * (size_t)n);
  qsort(ks, (size_t)n, sizeof(double), cmp_double);
  int d = 0;
  for (int i = 0; i < n; i++)
    if (i == 0 || ks[i] != ks[d - 1]) ks[d++] = ks[i];
  /* Split j: distinct k values ks[0..j) follow k Rb, the rest RN. With weights
   * w = 1/R^2 (relative errors): Rb = sum(w k R) / sum(w k^2) = sum(k/R) / sum(k^2/R^2),
   * RN = sum(w R) / sum(w) = sum(1/R) / sum(1/R^2). */
  double best = INFINITY;
  for (int j = 0; j <= d; j++) {
    double lkr = 0, lkk = 0, ur = 0, uw = 0;
    for (int i = 0; i < n; i++) {
      double w = 1.0 / (rate[i] * rate[i]);
      if (j > 0 && k[i] <= ks[j - 1]) {
        lkr += w * k[i] * rate[i];
        lkk += w * k[i] * k[i];
      } else {
        ur += w * rate[i];
        uw += w;
      }
    }
    double Rb, RN;
    if (j == 0) { /* every k saturated: Rb >= RN is not identified */
      RN = ur / uw;
      Rb = RN / kmin;
    } else if (j == d) { /* nothing saturated: RN >= kmax Rb */
      Rb = lkr / lkk;
      RN = kmax * Rb;
    } else {
      Rb = lkr / lkk;
      RN = ur / uw;
    }
    double maxrel, ss = maxrate_resid(k, rate, n, Rb, RN, &maxrel);
    /* Ties (within rounding) go to the larger j. */
    if (ss <= best * (1 + 1e-9) + 1e-30) {
      best = ss;
      fit->Rb = Rb;
      fit->RN = RN;
      fit->nlin = j;
      fit->rms_rel = sqrt(ss / n);
      fit->max_rel = maxrel;
    }
  }
  fit->n = n;
  free(ks);
  /* Which limits the data show: RN binds for some k (k Rb > RN), and Rb is seen only if
   * the smallest k is below RN (otherwise Rb >= RN / kmin is all that is known). */
  for (int i = 0; i < n; i++)
    if (k[i] * fit->Rb > fit->RN * (1 + 1e-9)) fit->rn_reached = 1;
  fit->rb_identified = !(fit->rn_reached && kmin * fit->Rb >= fit->RN * (1 - 1e-9));
  return 0;
}

int cs_fit_flows(const double *k, const double *bytes, const double *t, int n, double *ks,
                 double *rates, double *rate_rms, int *nk, cs_maxrate_fit *fit, char *err,
                 size_t errlen) {
  if (nk) *nk = 0;
  memset(fit, 0, sizeof *fit);
  if (n < 2) {
    set_err(err, errlen, "too few concurrent-flow samples (%d)", n);
    return -1;
  }
  double *ok = malloc(sizeof(double) * (size_t)n), *ox = malloc(sizeof(double) * (size_t)n),
         *oy = malloc(sizeof(double) * (size_t)n), *kk = malloc(sizeof(double) * (size_t)n),
         *rr = malloc(sizeof(double) * (size_t)n);
  int rc = -1;
  if (!ok || !ox || !oy || !kk || !rr) {
    set_err(err, errlen, "out of memory");
    goto out;
  }
  /* Sort by (k, bytes); the medians of repeated points are fitted. */
  int g = cs_medians_by_key(k, bytes, t, n, ok, ox, oy, NULL), d = 0;
  for (int i = 0; i < g;) {
    int j = i;
    while (j < g && ok[j] == ok[i]) j++;
    cs_linfit lf;
    char e2[200];
    if (cs_fit_linear_rel(ox + i, oy + i, j - i, &lf, e2, sizeof e2)) {
      set_err(err, errlen, "k = %g: %s", ok[i], e2);
      goto out;
    }
    if (!(lf.b > 0)) {
      set_err(err, errlen, "k = %g: the time does not grow with the size (slope %g s/byte)", ok[i],
              lf.b);
      goto out;
    }
    kk[d] = ok[i];
    rr[d] = ok[i] / lf.b;
    if (ks) ks[d] = kk[d];
    if (rates) rates[d] = rr[d];
    if (rate_rms) rate_rms[d] = lf.rms_rel;
    d++;
    i = j;
  }
  if (nk) *nk = d;
  rc = cs_fit_maxrate(kk, rr, d, fit, err, errlen);
out:
  free(ok);
  free(ox);
  free(oy);
  free(kk);
  free(rr);
  return rc;
}

/* ---- segmented fits -------------------------------------------------------------- */

/* chi2 (sum of squared relative residuals) of one line through points i..j. */
static double seg_chi2(const double *x, const double *y, int i, int j, cs_linfit *lf) {
  cs_linfit f;
  if (cs_fit_linear_rel(x + i, y + i, j - i + 1, &f, NULL, 0)) return INFINITY;
  if (lf) *lf = f;
  return f.rms_rel * f.rms_rel * f.n;
}

double cs_segfit_eval(const cs_segfit *fit, double x) {
  int i = 0;
  while (i + 1 < fit->nseg && x > fit->from[i + 1]) i++;
  return fit->seg[i].a + fit->seg[i].b * x;
}

int cs_fit_segmented(const double *x, const double *y, int n, int maxseg, int minpts,
                     double min_gain, cs_segfit *fit, char *err, size_t errlen) {
  memset(fit, 0, sizeof *fit);
  if (minpts < 2) minpts = 2;
  if (maxseg < 1) maxseg = 1;
  if (maxseg > CS_SEG_MAX) maxseg = CS_SEG_MAX;
  if (n < 2) {
    set_err(err, errlen, "a line needs at least 2 sizes (got %d)", n);
    return -1;
  }
  for (int i = 1; i < n; i++)
    if (!(x[i] > x[i - 1])) {
      set_err(err, errlen, "sizes must be distinct and increasing (size %g after %g)", x[i],
              x[i - 1]);
      return -1;
    }
  if (n / minpts < maxseg) maxseg = n / minpts > 0 ? n / minpts : 1;
  /* c[i*n+j]: chi2 of one line over i..j (j - i + 1 >= minpts). */
  double *c = malloc(sizeof(double) * (size_t)n * (size_t)n);
  double *D = malloc(sizeof(double) * (size_t)(maxseg + 1) * (size_t)(n + 1));
  int *arg = malloc(sizeof(int) * (size_t)(maxseg + 1) * (size_t)(n + 1));
  if (!c || !D || !arg) {
    free(c);
    free(D);
    free(arg);
    set_err(err, errlen, "out of memory");
    return -1;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      c[(size_t)i * n + j] = j - i + 1 >= minpts ? seg_chi2(x, y, i, j, NULL) : INFINITY;
      /* D[k][j]: best chi2 of the first j points in k segments; arg: start of the last. */
#define DK(k, j) D[(size_t)(k) * (n + 1) + (j)]
#define AK(k, j) arg[(size_t)(k) * (n + 1) + (j)]
  for (int k = 0; k <= maxseg; k++)
    for (int j = 0; j <= n; j++) DK(k, j) = INFINITY, AK(k, j) = -1;
  DK(0, 0) = 0;
  for (int k = 1; k <= maxseg; k++)
    for (int j = 1; j <= n; j++)
      for (int s = 0; s < j; s++) {
        if (!isfinite(DK(k - 1, s))) continue;
        double v = DK(k - 1, s) + c[(size_t)s * n + (j - 1)];
        if (v < DK(k, j)) DK(k, j) = v, AK(k, j) = s;
      }
      /* An RMS relative residual of 1e-6 counts as exact: below it, splitting the
       * rounding noise of exact data would still "gain". */
#define FLOOR  1e-12
#define BIC(k) (n * log(DK(k, n) / n + FLOOR) + (3.0 * (k)-1) * log((double)n))
  int best = 1;
  double bic_best = BIC(1), chi_best = DK(1, n) + n * FLOOR;
  for (int k = 2; k <= maxseg; k++) {
    double chi = DK(k, n) + n * FLOOR;
    if (!isfinite(chi) || !(BIC(k) < bic_best) || !(chi < chi_best * (1 - min_gain))) continue;
    best = k;
    bic_best = BIC(k);
    chi_best = chi;
  }
#undef BIC
#undef FLOOR
  fit->chi2_1seg = DK(1, n);
  int rc = 0;
  if (!isfinite(DK(best, n))) {
    set_err(err, errlen, "no segmented fit: the sizes do not allow one (n = %d)", n);
    rc = -1;
    goto out;
  }
  /* Walk back the splits. */
  int j = n;
  for (int k = best; k >= 1; k--) {
    int s = AK(k, j);
    fit->first[k - 1] = s;
    fit->last[k - 1] = j - 1;
    j = s;
  }
  fit->nseg = best;
  fit->n = n;
  for (int k = 0; k < best; k++) seg_chi2(x, y, fit->first[k], fit->last[k], &fit->seg[k]);
  fit->from[0] = 0;
  for (int k = 1; k < best; k++) {
    const cs_linfit *p = &fit->seg[k - 1], *q = &fit->seg[k];
    int jl = fit->last[k - 1], jh = fit->first[k];
    double lo = x[jl], hi = x[jh];
    /* Near a kink the sizes next to it may fall on either side within the noise:
     * a crossing within one size of the gap is taken too. */
    double span_lo = jl > fit->first[k - 1] ? x[jl - 1] : lo;
    double span_hi = jh < fit->last[k] ? x[jh + 1] : hi;
    double xc = p->b != q->b ? (q->a - p->a) / (p->b - q->b) : NAN;
    /* Outside [lo, hi] the crossing moves a sampled size to the other line: taken
     * only if that line fits it within 3x the segments' own residual (a kink);
     * a jump next to the crossing fails this. */
    int fits = isfinite(xc) && xc >= span_lo && xc <= span_hi;
    double tol = 3 * fmax(fmax(p->rms_rel, q->rms_rel), 1e-6);
    if (fits && xc < lo) fits = fabs(y[jl] - (q->a + q->b * x[jl])) <= tol * y[jl];
    if (fits && xc >= hi) fits = fabs(y[jh] - (p->a + p->b * x[jh])) <= tol * y[jh];
    if (fits) {
      fit->from[k] = xc;
      fit->crossing[k] = 1;
    } else {
      fit->from[k] = lo;
    }
  }
  double ss = 0;
  for (int i = 0; i < n; i++) {
    double r = (y[i] - cs_segfit_eval(fit, x[i])) / y[i];
    ss += r * r;
    if (fabs(r) > fit->max_rel) fit->max_rel = fabs(r), fit->x_max_rel = x[i];
  }
  fit->rms_rel = sqrt(ss / n);
out:
#undef DK
#undef AK
  free(c);
  free(D);
  free(arg);
  return rc;
}
