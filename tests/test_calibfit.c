/* test_calibfit: the fits of `collsim calibrate` (validate/calibfit.c) recover known
 * alpha, beta, gamma, Rb, RN from synthetic samples, exact and with deterministic
 * pseudo-noise, and refuse bad input. Exits 1 if any check fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibfit.h"
#include "assert.h"
#include "calibration.h"
#include "sizes.h"
#include "pwcost.h"

/* Deterministic pseudo-noise: a 64-bit LCG, uniform in [-1, 1). */
static unsigned long long lcg_state;
static double noise(void) {
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(lcg_state >> 11) / 4503599627370496.0 - 1.0; /* 2^52 */
}

/* Message sizes as the driver uses them: 0, 1, 2, 3, 4, 6, ... 12 MiB, 16 MiB. */
static int pp_sizes(double *s) {
  int n = 0;
  s[n++] = 0;
  for (long m = 1; m <= (16L << 20); m *= 2) {
    s[n++] = (double)m;
    if (m >= 2 && m + m / 2 <= (16L << 20)) s[n++] = (double)(m + m / 2);
  }
  return n;
}

static void test_median(void) {
  double a[] = {5, 1, 4, 2, 3}, b[] = {4, 1, 3, 2};
  ASSERT_NEAR(cs_median(a, 5), 3, 0, "median of 5 unsorted values");
  ASSERT_NEAR(cs_median(b, 4), 2.5, 0, "median of 4 values (mean of the middle two)");
  ASSERT(a[0] == 5 && b[0] == 4, "median leaves its input unchanged");
  ASSERT(isnan(cs_median(a, 0)), "median of nothing is NaN");
  /* Grouping: two keys, three and two samples. */
  double k[] = {2, 1, 1, 2, 1}, x[] = {8, 4, 4, 8, 4}, y[] = {10, 3, 1, 20, 2}, ok[5], ox[5], oy[5];
  int cnt[5];
  int g = cs_medians_by_key(k, x, y, 5, ok, ox, oy, cnt);
  ASSERT(g == 2 && ok[0] == 1 && ox[0] == 4 && oy[0] == 2 && cnt[0] == 3 && ok[1] == 2 &&
             oy[1] == 15 && cnt[1] == 2,
         "medians_by_key groups (k, x), sorts, takes medians");
}

static void test_linear(void) {
  double s[64], y[64 * 15] = {0}, x[64 * 15], k[64 * 15], ok[64 * 15], ox[64 * 15], oy[64 * 15];
  int ns = pp_sizes(s);
  const double alpha = 1.7e-6, beta = 1.3e-10;
  cs_linfit f;
  char err[256];
  /* Exact samples. */
  for (int i = 0; i < ns; i++) y[i] = alpha + beta * s[i];
  ASSERT(cs_fit_linear_rel(s, y, ns, &f, err, sizeof err) == 0, "linear fit, exact samples: runs");
  ASSERT_NEAR(f.a, alpha, 1e-9, "exact: alpha");
  ASSERT_NEAR(f.b, beta, 1e-9, "exact: beta");
  ASSERT(f.rms_rel < 1e-12 && f.max_rel < 1e-12 && f.n == ns, "exact: residual 0");

  /* 15 repetitions per size, each off by up to +-5% (uniform), plus a rare 3x outlier
   * (OS noise) that the median must absorb; fitted on the per-size medians. */
  lcg_state = 12345;
  int n = 0;
  for (int i = 0; i < ns; i++)
    for (int r = 0; r < 15; r++) {
      double t = (alpha + beta * s[i]) * (1 + 0.05 * noise());
      if (r == 7 && i % 5 == 0) t *= 3;
      k[n] = 1, x[n] = s[i], y[n] = t, n++;
    }
  int g = cs_medians_by_key(k, x, y, n, ok, ox, oy, NULL);
  ASSERT(g == ns, "noisy: one median per size");
  ASSERT(cs_fit_linear_rel(ox, oy, g, &f, err, sizeof err) == 0, "noisy: runs");
  ASSERT_NEAR(f.a, alpha, 0.01, "%s", "noisy: alpha within 1%");
  ASSERT_NEAR(f.b, beta, 0.01, "%s", "noisy: beta within 1%");
  ASSERT(f.rms_rel > 0.001 && f.rms_rel < 0.03, "%s",
         "noisy: RMS relative residual between 0.1% and 3%");
  ASSERT(
      f.se_a > 0 && f.se_b > 0 && fabs(f.a - alpha) < 4 * f.se_a && fabs(f.b - beta) < 4 * f.se_b,
      "noisy: the truth lies within 4 standard errors");

  /* The same data fitted without relative weights would lose the latency: check that
   * the weighting is what recovers it (a plain mean-square line is decided by 16 MiB). */
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (int i = 0; i < g; i++) sx += ox[i], sy += oy[i], sxx += ox[i] * ox[i], sxy += ox[i] * oy[i];
  double b_ols = (g * sxy - sx * sy) / (g * sxx - sx * sx), a_ols = (sy - b_ols * sx) / g;
  char msg[160];
  snprintf(msg, sizeof msg,
           "unweighted least squares misses alpha by far (%.0f%%), the relative fit does not",
           100 * fabs(a_ols - alpha) / alpha);
  ASSERT(fabs(a_ols - alpha) / alpha > 0.1, "%s", msg);

  /* gamma: MPI_Reduce_local-like times, call overhead 8 ns, 0.25 ns/byte. */
  const double c0 = 8e-9, gamma = 2.5e-10;
  int m = 0;
  for (long b = 16; b <= (16L << 20); b *= 2) {
    x[m] = (double)b, y[m] = c0 + gamma * (double)b, m++;
    x[m] = 1.5 * (double)b, y[m] = c0 + gamma * 1.5 * (double)b, m++;
  }
  ASSERT(cs_fit_linear_rel(x, y, m, &f, err, sizeof err) == 0, "gamma, exact: runs");
  ASSERT_NEAR(f.b, gamma, 1e-9, "exact: gamma");
  ASSERT_NEAR(f.a, c0, 1e-7, "exact: call overhead");
  lcg_state = 777;
  for (int i = 0; i < m; i++) y[i] = (c0 + gamma * x[i]) * (1 + 0.02 * noise());
  ASSERT(cs_fit_linear_rel(x, y, m, &f, err, sizeof err) == 0, "%s", "gamma, +-2% noise: runs");
  ASSERT_NEAR(f.b, gamma, 0.005, "%s", "noisy: gamma within 0.5%");

  /* Bad input. */
  double one[] = {1}, same[] = {4, 4, 4}, ty[] = {1e-6, 2e-6, 3e-6}, zero[] = {0, 1e-6, 2e-6},
         xs[] = {0, 1, 2};
  err[0] = 0;
  ASSERT(cs_fit_linear_rel(one, one, 1, &f, err, sizeof err) == -1 && strstr(err, "at least 2"),
         "refuses one point");
  ASSERT(cs_fit_linear_rel(same, ty, 3, &f, err, sizeof err) == -1 && strstr(err, "same size"),
         "refuses a single size");
  ASSERT(cs_fit_linear_rel(xs, zero, 3, &f, err, sizeof err) == -1 && strstr(err, "> 0"),
         "refuses a zero time");
}

static void rates_of(const double *k, int n, double Rb, double RN, double *r) {
  for (int i = 0; i < n; i++) r[i] = k[i] * Rb < RN ? k[i] * Rb : RN;
}

static void test_maxrate(void) {
  double k[8] = {1, 2, 3, 4, 5, 6, 7, 8}, r[8];
  cs_maxrate_fit f;
  char err[256];
  /* RN binds from k = 3 (5 GB/s per process, 12.5 GB/s per node: the generator's defaults). */
  rates_of(k, 8, 5e9, 12.5e9, r);
  ASSERT(cs_fit_maxrate(k, r, 8, &f, err, sizeof err) == 0, "maxrate, exact: runs");
  ASSERT_NEAR(f.Rb, 5e9, 1e-12, "exact: Rb");
  ASSERT_NEAR(f.RN, 12.5e9, 1e-12, "exact: RN");
  ASSERT(f.rn_reached && f.rb_identified && f.nlin == 2 && f.rms_rel < 1e-12,
         "exact: RN reached from k = 3, residual 0");

  lcg_state = 4242;
  for (int i = 0; i < 8; i++) r[i] *= 1 + 0.02 * noise();
  ASSERT(cs_fit_maxrate(k, r, 8, &f, err, sizeof err) == 0, "%s", "maxrate, +-2% noise: runs");
  ASSERT_NEAR(f.Rb, 5e9, 0.02, "%s", "noisy: Rb within 2%");
  ASSERT_NEAR(f.RN, 12.5e9, 0.015, "%s", "noisy: RN within 1.5%");
  ASSERT(f.nlin == 2 && f.rms_rel < 0.02, "%s",
         "noisy: the right split (2 linear k), residual < 2%");

  /* Never saturated: RN is only a lower bound. */
  rates_of(k, 4, 3e9, 1e11, r);
  ASSERT(cs_fit_maxrate(k, r, 4, &f, err, sizeof err) == 0 && !f.rn_reached && f.rb_identified,
         "RN not reached by k <= 4: flagged");
  ASSERT_NEAR(f.Rb, 3e9, 1e-12, "not reached: Rb");
  ASSERT_NEAR(f.RN, 12e9, 1e-12, "not reached: RN = kmax Rb");

  /* Saturated from k = 1: Rb >= RN not identified. */
  rates_of(k, 6, 2e10, 1e10, r);
  ASSERT(cs_fit_maxrate(k, r, 6, &f, err, sizeof err) == 0 && f.rn_reached && !f.rb_identified,
         "saturated at k = 1: Rb flagged as not identified");
  ASSERT_NEAR(f.RN, 1e10, 1e-12, "saturated: RN");
  ASSERT_NEAR(f.Rb, 1e10, 1e-12, "saturated: Rb set to RN");

  /* One k only (one node with 2 ranks): Rb = the rate, RN not reached. */
  r[0] = 4e9;
  ASSERT(cs_fit_maxrate(k, r, 1, &f, err, sizeof err) == 0 && !f.rn_reached && f.rb_identified,
         "k = 1 only: Rb, RN not reached");
  ASSERT_NEAR(f.Rb, 4e9, 1e-12, "k = 1 only: Rb");

  r[1] = -1;
  ASSERT(cs_fit_maxrate(k, r, 2, &f, err, sizeof err) == -1 && strstr(err, "rate"),
         "refuses a negative rate");
  ASSERT(cs_fit_maxrate(k, r, 0, &f, err, sizeof err) == -1, "refuses no data");
}

/* Raw concurrent-flow samples: k pairs of m bytes take alpha + k m / min(RN, k Rb). */
static void test_flows(void) {
  enum { KMAX = 6, NS = 6, REPS = 9 };
  static double k[KMAX * NS * REPS], x[KMAX * NS * REPS], t[KMAX * NS * REPS];
  const double alpha = 2e-6, Rb = 4e9, RN = 9e9;
  double ks[KMAX * NS * REPS], rates[KMAX * NS * REPS], rms[KMAX * NS * REPS];
  for (int pass = 0; pass < 2; pass++) {
    int n = 0;
    lcg_state = 99;
    for (int kk = 1; kk <= KMAX; kk++)
      for (long m = 16384, s = 0; s < NS; s++, m *= 4)
        for (int r = 0; r < REPS; r++) {
          double R = kk * Rb < RN ? kk * Rb : RN;
          double tt = alpha + kk * (double)m / R;
          if (pass) tt *= 1 + 0.03 * noise();
          k[n] = kk, x[n] = (double)m, t[n] = tt, n++;
        }
    cs_maxrate_fit f;
    char err[256];
    int nk = 0;
    int rc = cs_fit_flows(k, x, t, n, ks, rates, rms, &nk, &f, err, sizeof err);
    ASSERT(rc == 0 && nk == KMAX, "%s",
           pass ? "flows, +-3% noise: runs, one rate per k" : "flows, exact: runs, one rate per k");
    double tol = pass ? 0.01 : 1e-9;
    ASSERT_NEAR(rates[0], Rb, tol, "%s",
                pass ? "noisy flows: k = 1 rate" : "exact flows: k = 1 rate");
    ASSERT_NEAR(f.Rb, Rb, tol, "%s", pass ? "noisy flows: Rb within 1%" : "exact flows: Rb");
    ASSERT_NEAR(f.RN, RN, tol, "%s", pass ? "noisy flows: RN within 1%" : "exact flows: RN");
    ASSERT(f.rn_reached && f.nlin == 2, "flows: RN binds from k = 3");
  }
  double one[2] = {1, 1}, xs[2] = {1000, 1000}, ts[2] = {1e-6, 1e-6};
  cs_maxrate_fit f;
  char err[256];
  ASSERT(cs_fit_flows(one, xs, ts, 2, NULL, NULL, NULL, NULL, &f, err, sizeof err) == -1 &&
             strstr(err, "k = 1"),
         "flows: refuses one size per k, naming k");
}

/* Synthetic segments: t = a_i + b_i m on sizes 0 .. 16 MiB (the driver's grid).
 * kink: continuous at the breakpoints (lines cross), jump: a step in between. */
static void segmented_case(const char *name, int nseg, const double *brk, const double *a,
                           const double *b, double amp, int expect_cross, double tol) {
  double x[64] = {0}, y[64] = {0};
  int n = pp_sizes(x);
  lcg_state = 12345;
  for (int i = 0; i < n; i++) {
    int s = 0;
    while (s + 1 < nseg && x[i] > brk[s + 1]) s++;
    y[i] = (a[s] + b[s] * x[i]) * (1 + amp * noise());
  }
  cs_segfit f;
  char err[200], what[256];
  int rc = cs_fit_segmented(x, y, n, 6, 3, 0.25, &f, err, sizeof err);
  snprintf(what, sizeof what, "%s: fit succeeds (%s)", name, rc ? err : "ok");
  ASSERT(rc == 0, "%s", what);
  if (rc) return;
  snprintf(what, sizeof what, "%s: %d segments found (want %d)", name, f.nseg, nseg);
  ASSERT(f.nseg == nseg, "%s", what);
  if (f.nseg != nseg) return;
  for (int s = 0; s < nseg; s++) {
    snprintf(what, sizeof what, "%s: slope of segment %d", name, s);
    ASSERT_NEAR(f.seg[s].b, b[s], tol, "%s", what);
    if (s == 0) continue;
    if (expect_cross) {
      snprintf(what, sizeof what, "%s: breakpoint %d (lines cross)", name, s);
      ASSERT_NEAR(f.from[s], brk[s], tol, "%s", what);
    } else {
      /* A jump is only located between two sampled sizes: the gap must hold it. */
      double lo = x[f.last[s - 1]], hi = x[f.first[s]];
      snprintf(what, sizeof what, "%s: breakpoint %d: true %g in the gap (%g, %g]", name, s, brk[s],
               lo, hi);
      ASSERT(brk[s] >= lo && brk[s] < hi, "%s", what);
    }
  }
  snprintf(what, sizeof what, "%s: RMS residual %.3g%% within the noise", name, 100 * f.rms_rel);
  ASSERT(f.rms_rel <= amp + 1e-12, "%s", what);
}

static void test_segmented(void) {
  /* Kinks: 0.2 us + 0.1 ns/B, from 5000 B 0.3 ns/B, from 3 MB 0.5 ns/B (continuous). */
  double kb[3] = {0, 5000, 3e6}, kbs[3] = {1e-10, 3e-10, 5e-10}, ka[3];
  ka[0] = 2e-7;
  ka[1] = ka[0] + (kbs[0] - kbs[1]) * kb[1];
  ka[2] = ka[1] + (kbs[1] - kbs[2]) * kb[2];
  segmented_case("kinks, exact", 3, kb, ka, kbs, 0, 1, 1e-9);
  /* The bar: breakpoints and slopes within 2% with noise (+-1% on each median). */
  segmented_case("kinks, +-1% noise", 3, kb, ka, kbs, 0.01, 1, 0.02);
  /* With +-3% the kink at 3 MB (only 6 sizes above it) is located within 10%. */
  segmented_case("kinks, +-3% noise", 3, kb, ka, kbs, 0.03, 1, 0.10);
  /* Jumps (protocol switches): eager to 4000 B, rendezvous above, out of cache from 6 MB. */
  double jb[3] = {0, 4000, 6e6}, ja[3] = {3e-7, 1.5e-6, 2e-4}, jbs[3] = {1e-10, 1.3e-10, 5e-10};
  segmented_case("jumps, +-1% noise", 3, jb, ja, jbs, 0.01, 0, 0.02);
  /* One straight line with noise must stay one segment. */
  double lb[1] = {0}, la[1] = {2e-7}, lbs[1] = {1.2e-10};
  segmented_case("one line, +-3% noise", 1, lb, la, lbs, 0.03, 1, 0.02);
  /* Bad input. */
  double x[3] = {1, 1, 2}, y[3] = {1, 1, 1};
  cs_segfit f;
  char err[256];
  ASSERT(
      cs_fit_segmented(x, y, 3, 4, 2, 0.25, &f, err, sizeof err) == -1 && strstr(err, "increasing"),
      "segmented: repeated sizes refused");
}

/* The piecewise cost shared by platform, simulation and models (algos/pwcost.h):
 * SimGrid's lookup (a threshold's segment starts strictly above it), the text
 * form round trip, the clamp at 0, and malformed text refused whole. */
static void test_pwcost(void) {
  cs_pw pw, back;
  ASSERT(cs_pw_parse("0:1e-6:1e-9;4096:2e-6:5e-10;1048576:-1e-3:2e-10", &pw) == 0 && pw.n == 3,
         "pwcost: parses three segments");
  ASSERT_NEAR(cs_pw_eval(&pw, 4096), 1e-6 + 1e-9 * 4096, 1e-15,
              "pwcost: the threshold itself is below it");
  ASSERT_NEAR(cs_pw_eval(&pw, 4097), 2e-6 + 5e-10 * 4097, 1e-15,
              "pwcost: one byte above starts the next");
  ASSERT_NEAR(cs_pw_eval(&pw, 0), 1e-6, 1e-15, "pwcost: size 0 in the first segment");
  ASSERT_NEAR(cs_pw_eval(&pw, 8e6), -1e-3 + 2e-10 * 8e6, 1e-12, "pwcost: last segment");
  ASSERT(cs_pw_eval(&pw, 1048577) == 0, "pwcost: a negative cost is charged as 0");
  char buf[512];
  cs_pw_format(&pw, buf, sizeof buf);
  ASSERT(cs_pw_parse(buf, &back) == 0 && back.n == 3 && !memcmp(&back, &pw, sizeof pw), "%s",
         "pwcost: %.17g text form round-trips exactly");
  const char *bad[] = {"0:1", "0:1:2;", "0:1:2;5:1:1;5:1:1", "x", "0:1:2;1e400:1:1", ""};
  for (int i = 0; i < 6; i++) {
    char what[96];
    snprintf(what, sizeof what, "pwcost: '%s' refused and leaves no segment", bad[i]);
    ASSERT(cs_pw_parse(bad[i], &back) == -1 && back.n == 0, "%s", what);
  }
  ASSERT(cs_pw_parse("-", &back) == 0 && back.n == 0 && cs_pw_eval(&back, 5) == 0,
         "pwcost: '-' is the empty cost");
}

/* The platform from the fits (calibration.c): on one node its network is the
 * exchange's fit, not the ping-pong's (--net pingpong: the ping-pong's); a
 * kinked segment whose intercept is negative (SimGrid's latency factor
 * cannot be) is refitted on its own sizes as b (m + 16), not raised. */
static void test_platform_from_fits(void) {
  static double k[3][64], x[3][64], y[3][64];
  static cs_calib_samples S;
  static int ranks[1] = {2};
  static char host[1][64] = {"h"};
  memset(&S, 0, sizeof S);
  S.np = 2;
  S.nodes = 1;
  S.node_ranks = ranks;
  S.node_host = host;
  double sz[64];
  int ns = pp_sizes(sz);
  /* exchange: 1 us + 1e-10 s/B, and from 2 MB on -2e-4 s + 2e-10 s/B (a kink:
   * the lines cross at 2 MB); ping-pong: half the exchange's slope; reduce. */
  const int kinds[3] = {CS_CALIB_XCHG_INTRA, CS_CALIB_PP_INTRA, CS_CALIB_REDUCE};
  for (int q = 0; q < 3; q++) {
    cs_calib_series *se = &S.s[kinds[q]];
    se->k = k[q], se->x = x[q], se->y = y[q];
    int n = 0;
    for (int i = 0; i < ns; i++) {
      double m = sz[i];
      if (q == 2 && m < 16) continue;
      double t = m <= 2e6 ? 1e-6 + 1e-10 * m : -2e-4 + 2e-10 * m;
      if (q == 1) t = 1e-6 + 0.5e-10 * m;
      if (q == 2) t = 1e-8 + 2e-11 * m;
      k[q][n] = 1, x[q][n] = m, y[q][n] = t, n++;
    }
    se->n = se->cap = n;
  }
  cs_calib_analysis A;
  cs_calib_analyze(&S, &A);
  cs_calib_platform C;
  ASSERT(cs_calib_choose_platform(&S, &A, 0, 0, &C) == 0, "platform from the fits: chosen");
  ASSERT_NEAR(C.pl.beta, A.xintra.f.b, 1e-12, "one node: beta is the exchange's slope");
  ASSERT(C.pl.net.n == 2, "exchange: two network segments");
  int last = C.pl.net.n - 1;
  double b = C.pl.net.b[last];
  ASSERT(C.pl.net.a[last] == CS_SMPI_ENVELOPE * b,
         "negative intercept: segment refitted as b (m + 16)");
  /* The refit is the relative least-squares line through -16: its own formula. */
  double sxt = 0, sxx = 0, ss_refit = 0, ss_raised = 0;
  int nseg = 0;
  for (int i = 0; i < S.s[CS_CALIB_XCHG_INTRA].n; i++) {
    double m = x[0][i], t = y[0][i];
    if (m <= 2e6) continue;
    sxt += (m + 16) / t;
    sxx += (m + 16) * (m + 16) / (t * t);
    double e = (cs_pw_eval(&C.pl.net, m) - t) / t;
    double r = (CS_SMPI_ENVELOPE * 2e-10 + 2e-10 * m - t) / t; /* a raised to 16 b */
    ss_refit += e * e, ss_raised += r * r, nseg++;
  }
  ASSERT_NEAR(b, sxt / sxx, 1e-9, "refit slope = sum(x/t) / sum(x^2/t^2)");
  double rms_refit = sqrt(ss_refit / nseg), rms_raised = sqrt(ss_raised / nseg);
  char msg[160];
  snprintf(msg, sizeof msg,
           "refit: RMS relative error over the segment %.1f%% < 25%% and below raising a (%.1f%%)",
           100 * rms_refit, 100 * rms_raised);
  ASSERT(rms_refit < 0.25 && rms_refit < rms_raised, "%s", msg);
  ASSERT(cs_calib_choose_platform(&S, &A, 0, 1, &C) == 0, "--net pingpong: chosen");
  ASSERT_NEAR(C.pl.beta, A.intra.f.b, 1e-12, "--net pingpong: beta is the ping-pong's slope");
}

int main(void) {
  test_median();
  test_linear();
  test_maxrate();
  test_flows();
  test_segmented();
  test_pwcost();
  test_platform_from_fits();
  return cs_test_end();
}
