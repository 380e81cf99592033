/* The analysis of `collsim validate` (validation.h). */
#include "calibration.h"
#include "validation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibfit.h"
#include "sizes.h"

void cs_val_set_init(cs_val_set *V) { memset(V, 0, sizeof *V); }

void cs_val_set_free(cs_val_set *V) {
  free(V->c);
  memset(V, 0, sizeof *V);
}

static double rel_err(double pred, double meas) {
  return isfinite(pred) && pred >= 0 && isfinite(meas) && meas > 0 ? (pred - meas) / meas : NAN;
}

double cs_val_launch_spread(const cs_val_case *c) {
  return c->launches >= 2 && c->meas > 0 && isfinite(c->lmin) && isfinite(c->lmax)
             ? (c->lmax - c->lmin) / c->meas
             : NAN;
}

const cs_val_case *cs_val_add_case(cs_val_set *V, const char *algo, long bytes, double model,
                                   double sim, double meas, double lo, double hi, int launches,
                                   double lmin, double lmax) {
  if (V->n == V->cap) {
    int cap = V->cap ? 2 * V->cap : 64;
    cs_val_case *c = realloc(V->c, sizeof *c * (size_t)cap);
    if (!c) return NULL;
    V->c = c;
    V->cap = cap;
  }
  cs_val_case *c = &V->c[V->n++];
  memset(c, 0, sizeof *c);
  snprintf(c->algo, sizeof c->algo, "%s", algo);
  c->bytes = bytes;
  c->model = model;
  c->sim = sim;
  c->meas = meas;
  c->lo = lo;
  c->hi = hi;
  c->launches = launches;
  c->lmin = lmin;
  c->lmax = lmax;
  c->err[0] = rel_err(model, meas);
  c->err[1] = rel_err(sim, meas);
  int ci = isfinite(lo) && isfinite(hi) && hi >= lo && meas > 0;
  double spread = cs_val_launch_spread(c);
  for (int k = 0; k < 2; k++) {
    c->unstable[k] = ci && isfinite(c->err[k]) && (hi - lo) / meas > fabs(c->err[k]);
    c->spread[k] = isfinite(spread) && isfinite(c->err[k]) && spread > fabs(c->err[k]);
  }
  return c;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median_of(double *v, int n) {
  if (n == 0) return NAN;
  qsort(v, (size_t)n, sizeof(double), cmp_d);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int counted(const cs_val_case *c, const char *algo, long min_bytes) {
  if (c->bytes < min_bytes) return 0;
  return algo ? !strcmp(c->algo, algo) : strcmp(c->algo, "native") != 0;
}

void cs_val_stats_of(const cs_val_set *V, int pred, const char *algo, long min_bytes,
                     cs_val_stats *s) {
  memset(s, 0, sizeof *s);
  s->median = s->worst = s->median_stable = NAN;
  double *all = malloc(sizeof(double) * (size_t)(V->n + 1)),
         *st = malloc(sizeof(double) * (size_t)(V->n + 1));
  int ns = 0;
  if (!all || !st) goto out;
  for (int i = 0; i < V->n; i++) {
    const cs_val_case *c = &V->c[i];
    double e = fabs(c->err[pred]);
    if (!counted(c, algo, min_bytes) || !isfinite(e)) continue;
    all[s->n++] = e;
    if (c->unstable[pred] || c->spread[pred])
      s->unstable++;
    else
      st[ns++] = e;
    if (!(e <= s->worst)) {
      s->worst = e;
      s->worst_bytes = c->bytes;
      snprintf(s->worst_algo, sizeof s->worst_algo, "%s", c->algo);
    }
  }
  s->median = median_of(all, s->n);
  s->median_stable = median_of(st, ns);
out:
  free(all);
  free(st);
}

double cs_val_signed_median(const cs_val_set *V, int pred, long min_bytes) {
  double *v = malloc(sizeof(double) * (size_t)(V->n + 1));
  int n = 0;
  if (!v) return NAN;
  for (int i = 0; i < V->n; i++)
    if (counted(&V->c[i], NULL, min_bytes) && isfinite(V->c[i].err[pred]))
      v[n++] = V->c[i].err[pred];
  double m = median_of(v, n);
  free(v);
  return m;
}

/* ---- the report -------------------------------------------------------------------- */

static const char *pct(double x, char *buf, size_t len) {
  if (isfinite(x))
    snprintf(buf, len, "%.1f%%", 100 * x);
  else
    snprintf(buf, len, "-");
  return buf;
}

static const char *secs(double x, char *buf, size_t len) {
  if (isfinite(x) && x >= 0)
    snprintf(buf, len, "%.4g", x);
  else
    snprintf(buf, len, "-");
  return buf;
}

static const char *const pred_name[2] = {"model", "simulation"};

/* "12.3% (met)" against a target. */
static void verdict(FILE *f, const cs_val_stats *s, double target) {
  char b[32];
  if (s->n == 0) {
    fprintf(f, "no cases");
    return;
  }
  fprintf(f, "median %s over %d cases (target <= %.0f%%: %s)", pct(s->median, b, sizeof b), s->n,
          100 * target, s->median <= target ? "met" : "NOT met");
}

/* The distinct algorithms of V, in order of appearance. */
static int algos_of(const cs_val_set *V, const char **names, int max) {
  int n = 0;
  for (int i = 0; i < V->n; i++) {
    int seen = 0;
    for (int j = 0; j < n; j++) seen |= !strcmp(names[j], V->c[i].algo);
    if (!seen && n < max) names[n++] = V->c[i].algo;
  }
  return n;
}

/* Indices of the k largest |errors| of prediction pred (non-native), largest first. */
static int largest(const cs_val_set *V, int pred, int *idx, int k) {
  int n = 0;
  for (; n < k; n++) {
    int best = -1;
    for (int i = 0; i < V->n; i++) {
      const cs_val_case *c = &V->c[i];
      int taken = 0;
      for (int j = 0; j < n; j++) taken |= idx[j] == i;
      if (taken || !counted(c, NULL, 0) || !isfinite(c->err[pred])) continue;
      if (best < 0 || fabs(c->err[pred]) > fabs(V->c[best].err[pred])) best = i;
    }
    if (best < 0) break;
    idx[n] = best;
  }
  return n;
}

static int cmp_l(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
}

/* Per size (collsim's algorithms): the median signed error of each prediction
 * and the median relative width of the measured intervals; sizes whose median
 * |error| exceeds the target of their band (m >= 64 KiB: target_large, else
 * target_all) are listed, so that a regime that defeats the target shows with
 * its data and whether the measurements themselves were unsteady there. */
static void sizes_beyond(FILE *f, const cs_val_set *V, const cs_val_info *I) {
  long *sz = malloc(sizeof(long) * (size_t)(V->n + 1));
  double *e = malloc(sizeof(double) * (size_t)(V->n + 1)),
         *w = malloc(sizeof(double) * (size_t)(V->n + 1));
  int ns = 0, printed = 0;
  char b1[32], b2[32], b3[32], b4[32];
  if (!sz || !e || !w) goto out;
  for (int i = 0; i < V->n; i++) {
    int seen = 0;
    for (int j = 0; j < ns; j++) seen |= sz[j] == V->c[i].bytes;
    if (!seen) sz[ns++] = V->c[i].bytes;
  }
  qsort(sz, (size_t)ns, sizeof(long), cmp_l);
  for (int k = 0; k < ns; k++) {
    double med[2], width;
    int n = 0;
    for (int pr = 0; pr < 2; pr++) {
      n = 0;
      for (int i = 0; i < V->n; i++)
        if (V->c[i].bytes == sz[k] && counted(&V->c[i], NULL, 0) && isfinite(V->c[i].err[pr]))
          e[n++] = V->c[i].err[pr];
      med[pr] = median_of(e, n);
    }
    n = 0;
    for (int i = 0; i < V->n; i++) {
      const cs_val_case *c = &V->c[i];
      if (c->bytes == sz[k] && counted(c, NULL, 0) && c->meas > 0 && isfinite(c->hi))
        w[n++] = (c->hi - c->lo) / c->meas;
    }
    width = median_of(w, n);
    n = 0;
    for (int i = 0; i < V->n; i++) {
      const cs_val_case *c = &V->c[i];
      if (c->bytes == sz[k] && counted(c, NULL, 0) && isfinite(cs_val_launch_spread(c)))
        w[n++] = cs_val_launch_spread(c);
    }
    double lspread = median_of(w, n);
    double target = sz[k] >= CS_VAL_LARGE ? I->target_large : I->target_all;
    if (!(fabs(med[0]) > target || fabs(med[1]) > target)) continue;
    if (!printed++)
      fprintf(f,
              "- Sizes where the median error over collsim's algorithms exceeds the target "
              "(%.0f%% below 64 KiB, %.0f%% from 64 KiB; signed: + over-, - under-predicted; "
              "interval = median width of the measured 95%% intervals relative to the median; "
              "launch spread = median (largest - smallest launch median) / median):",
              100 * I->target_all, 100 * I->target_large);
    fprintf(f, "%s %s: model %s, simulation %s, interval %s", printed > 1 ? ";" : "",
            cs_size_str((double)sz[k], b1, sizeof b1), pct(med[0], b2, sizeof b2),
            pct(med[1], b3, sizeof b3), pct(width, b4, sizeof b4));
    if (isfinite(lspread)) fprintf(f, ", launch spread %s", pct(lspread, b4, sizeof b4));
  }
  if (printed) fprintf(f, ".\n");
out:
  free(sz);
  free(e);
  free(w);
}

/* The launches: how far the launches' medians spread, against the error. */
static void launch_finding(FILE *f, const cs_val_set *V, const cs_val_info *I) {
  if (I->launches < 2) return;
  double *sp = malloc(sizeof(double) * (size_t)(V->n + 1));
  if (!sp) return;
  int n = 0, flagged[2] = {0, 0}, worst = -1;
  for (int i = 0; i < V->n; i++) {
    const cs_val_case *c = &V->c[i];
    double x = cs_val_launch_spread(c);
    if (!counted(c, NULL, 0) || !isfinite(x)) continue;
    sp[n++] = x;
    if (worst < 0 || x > cs_val_launch_spread(&V->c[worst])) worst = i;
    for (int pr = 0; pr < 2; pr++) flagged[pr] += c->spread[pr];
  }
  char b1[32], b2[32], b3[32];
  if (n > 0)
    fprintf(f,
            "- Launches: %d per case. Launch-to-launch spread of the medians: %s median over "
            "%d cases, largest %s (%s at %s); wider than the error in %d cases for the model, "
            "%d for the simulation.\n",
            I->launches, pct(median_of(sp, n), b1, sizeof b1), n,
            pct(cs_val_launch_spread(&V->c[worst]), b2, sizeof b2), V->c[worst].algo,
            cs_size_str((double)V->c[worst].bytes, b3, sizeof b3), flagged[0], flagged[1]);
  free(sp);
}

/* "0.52x [0.50, 0.55]", bold when beyond the band. */
static const char *drift_cell(double med, double lo, double hi, int flag, char *buf, size_t len) {
  if (!isfinite(med))
    snprintf(buf, len, "-");
  else if (isfinite(lo) && isfinite(hi))
    snprintf(buf, len, "%s%.2fx [%.2f, %.2f]%s", flag ? "**" : "", med, lo, hi, flag ? "**" : "");
  else
    snprintf(buf, len, "%s%.2fx%s", flag ? "**" : "", med, flag ? "**" : "");
  return buf;
}

/* The launch's model errors: "model m >= 64 KiB 12.3%, all sizes 8.1% (signed median +5.0%)". */
static void launch_errors(FILE *f, const cs_val_set *L) {
  cs_val_stats a, l;
  char b1[32], b2[32], b3[32];
  cs_val_stats_of(L, 0, NULL, CS_VAL_LARGE, &l);
  cs_val_stats_of(L, 0, NULL, 0, &a);
  double sg = cs_val_signed_median(L, 0, 0);
  snprintf(b3, sizeof b3, "%+.1f%%", 100 * sg);
  fprintf(f, "model median |error| m >= 64 KiB %s, all sizes %s (signed median %s)",
          pct(l.median, b1, sizeof b1), pct(a.median, b2, sizeof b2), isfinite(sg) ? b3 : "-");
}

/* The machine's state beside the errors: the drift probes (drift.h). */
static void drift_finding(FILE *f, const cs_val_info *I) {
  const cs_drift *D = I->drift;
  char b1[64];
  if (!D) return;
  if (D->n == 0) {
    fprintf(f, "- **Machine state: not checked** (%s).\n", D->why);
    return;
  }
  cs_drift_summary s;
  cs_drift_summarize(D, -1, &s);
  if (s.measured == 0) {
    fprintf(f,
            "- **Machine state: not checked**: no launch has drift probe samples (its "
            "measurements were reused from a collsim that took none; remove the output "
            "directory's measured-*.csv to measure again with probes).\n");
    return;
  }
  fprintf(f,
          "- **Machine state** (drift = a probe of calibrate's own measurements, taken now "
          "between the sizes, / its price on the calibrated platform; %d probes): median drift "
          "%.2fx (%.2f .. %.2f), %d probe%s beyond the calibration's own spread: ",
          s.measured, s.median, s.min, s.max, s.beyond, s.beyond == 1 ? "" : "s");
  if (s.drifted == 0) {
    fprintf(f,
            "**holds**: no calibrated quantity drifted (a quantity drifts when most of its "
            "probes lie beyond the spread the calibration itself showed at their sizes, its "
            "launches' 95%% intervals over the same price, on one side).\n");
  } else {
    int faster = 0, slower = 0;
    fprintf(f, "**does NOT hold: the machine is not in its calibrated state.**");
    for (int k = 0, j = 0; k < CS_DRIFT_NQ; k++) {
      const cs_drift_q *q = &D->q[k];
      if (!q->drifted) continue;
      faster += q->drifted < 0;
      slower += q->drifted > 0;
      fprintf(f, "%s %s: median drift %.2fx, %d of %d probes %s the calibration's spread (",
              j++ ? ";" : "", cs_drift_quantity_name(k), q->median,
              q->drifted < 0 ? q->below : q->above, q->probes, q->drifted < 0 ? "below" : "above");
      for (int i = 0, m = 0; i < D->n; i++) {
        const cs_drift_probe *p = &D->p[i];
        if (cs_drift_quantity(p->kind) != k || p->flag_all != q->drifted) continue;
        fprintf(f, "%s%s %.2fx against %.2f .. %.2f", m++ ? ", " : "",
                cs_drift_name(p, b1, sizeof b1), p->agg.median, p->band_lo, p->band_hi);
      }
      fprintf(f, "), launches");
      int any = 0;
      for (int l = 0; l < D->launches; l++)
        if (D->ql[l][k].drifted == q->drifted) fprintf(f, "%s %d", any++ ? "," : "", l + 1);
      fprintf(f, "%s", any ? "" : ": none alone");
    }
    fprintf(f,
            ". The machine ran %s than when it was calibrated, so the errors above reflect that "
            "change as much as the predictions%s: recalibrate (`./collsim calibrate`, same "
            "options) and validate again, in one machine state.\n",
            faster && slower ? "partly faster, partly slower"
            : faster         ? "faster"
                             : "slower",
            faster && !slower   ? " (priced at the calibrated speed, they over-predict)"
            : slower && !faster ? " (priced at the calibrated speed, they under-predict)"
                                : "");
  }
  if (I->per_launch)
    for (int l = 0; l < I->launches && l < CS_MAX_LAUNCHES; l++) {
      cs_drift_summarize(D, l, &s);
      fprintf(f, "  - Launch %d: ", l + 1);
      if (s.measured)
        fprintf(f, "median drift %.2fx, %d of %d probes beyond, %s; ", s.median, s.beyond,
                s.measured, s.drifted ? "**drifted**" : "holds");
      else
        fprintf(f, "no drift probes (%s); ",
                D->have[l] ? "none at the planned sizes" : "no probe file");
      launch_errors(f, &I->per_launch[l]);
      fprintf(f, ".\n");
    }
}

/* The probes, per launch and over launches. */
static void drift_section(FILE *f, const cs_val_info *I) {
  const cs_drift *D = I->drift;
  if (!D || D->n == 0) return;
  char b1[64], b2[32], b3[80];
  fprintf(f, "## Drift probes\n\n");
  fprintf(f,
          "Each launch re-measured these probes with calibrate's own code (sim/calibrate.c) "
          "between the sizes of the collective; their samples are in the output directory "
          "(`probes-*-L<k>.csv`, the format of calibrate's samples). Drift = measured / price on "
          "the platform (the model's cost of that message or local work); each cell is the "
          "launch's median drift with the 95%% interval of the median. The calibration column "
          "gives the calibration's own median at that size over the same price, and its band: "
          "the smallest and largest end of its launches' 95%% intervals (from `%s`). A probe "
          "whose interval lies wholly outside that band (**bold**) drifted: the calibration's "
          "spread does not explain it.\n\n",
          D->samples);
  fprintf(f, "| probe | price (s) | calibration: median, band |");
  for (int l = 0; l < D->launches; l++) fprintf(f, " launch %d |", l + 1);
  fprintf(f, " over launches | beyond |\n|---|---:|---|");
  for (int l = 0; l < D->launches; l++) fprintf(f, "---|");
  fprintf(f, "---|---|\n");
  for (int i = 0; i < D->n; i++) {
    const cs_drift_probe *p = &D->p[i];
    fprintf(f, "| %s | %s | ", cs_drift_name(p, b1, sizeof b1), secs(p->price, b2, sizeof b2));
    if (isfinite(p->band_lo))
      fprintf(f, "%.2fx, %.2f .. %.2f |", p->cal_ratio, p->band_lo, p->band_hi);
    else
      fprintf(f, "- (no calibration samples at this size) |");
    for (int l = 0; l < D->launches; l++)
      fprintf(f, " %s |", drift_cell(p->med[l], p->lo[l], p->hi[l], p->flag[l], b3, sizeof b3));
    fprintf(f, " %s | %s |\n",
            drift_cell(p->agg.n ? p->agg.median : NAN, p->agg.lo, p->agg.hi, p->flag_all, b3,
                       sizeof b3),
            p->flag_all < 0   ? "faster"
            : p->flag_all > 0 ? "slower"
                              : "");
  }
  fprintf(f, "\n");
}

void cs_val_report(FILE *f, const cs_val_set *V, const cs_val_info *I) {
  char b1[32], b2[32], b3[32], b4[32], b5[32], b6[32];
  fprintf(f, "# Predicted against measured: %s, p = %d, type %s\n\n", I->coll, I->np,
          I->type ? I->type : "byte");
  if (I->command && *I->command)
    fprintf(f, "Made by `%s`; the settings of every run are the first line of `%s`.\n\n",
            I->command, I->csv);
  if (I->type)
    fprintf(f, "Datatype %s, reduction op %s (`--type`; other types have files of their own).\n\n",
            I->type, I->op ? I->op : "-");
  fprintf(f,
          "Predictions: collsim's model and SMPI on `%s`; measurements: this MPI library under "
          "mpirun, median of the repetitions with its 95%% confidence interval. Error = "
          "(predicted - measured) / measured; medians and worst cases are of |error|. A case is "
          "**unstable** for a prediction when the measured median's interval is wider than the "
          "error ((hi - lo) / median > |error|): the measurement cannot tell that error from its "
          "own spread. Headline figures are over collsim's algorithms (native is SMPI's "
          "collective when simulated and the library's when measured, and has no model).\n\n",
          I->platform);
  if (I->launches > 1)
    fprintf(f,
            "Each case was measured in %d mpirun launches (the algorithms of a size in rounds "
            "within each launch): the measured time is the median of the launches' medians, the "
            "interval the median of the launches' intervals. A case is also **unstable** when "
            "the launch-to-launch spread ((largest - smallest launch median) / median) is wider "
            "than the error: another launch could have measured that error away.\n\n",
            I->launches);

  /* ---- findings ---- */
  fprintf(f, "## Findings\n\n");
  if (I->oversubscribed)
    fprintf(f,
            "- **WARNING: oversubscribed.** %d ranks ran on %d cores: ranks waited for a core, "
            "so the measurements describe time-sharing, not the machine; use --np <= %d (or a "
            "hostfile spreading the ranks over nodes).\n",
            I->np, I->cores, I->cores);
  char unsteady[1024];
  int nu = cs_calib_unsteady_fits(I->calibration, unsteady, sizeof unsteady);
  if (nu)
    fprintf(f,
            "- **Calibration unsteady.** %d fit%s of the calibration (%s) moved more between "
            "calibrate's launches than the %.0f%% spread target (the platform's comment, "
            "below): the predictions inherit that noise, and errors below it mean little. "
            "Calibrate again on a quiet machine with more launches (--launches 7).\n",
            nu, nu == 1 ? "" : "s", unsteady, 100 * CS_CALIB_SPREAD_TARGET);
  if (I->reused)
    fprintf(f,
            "- Measurements already present in the output directory were reused (resumed run): "
            "the machine's load while they were taken is not known%s.\n",
            I->load_before >= 0 ? "; the load below is that of this run" : "");
  if (I->load_before >= 0)
    fprintf(f,
            "- Machine load (1-minute average) %.2f before and %.2f after the measurement on %d "
            "core%s%s.\n",
            I->load_before, I->load_after, I->cores, I->cores == 1 ? "" : "s",
            I->load_before > I->cores || I->load_after > I->cores
                ? ": **busy** (more runnable processes than cores): expect noisy medians"
                : "");
  launch_finding(f, V, I);
  for (int pr = 0; pr < 2; pr++) {
    cs_val_stats a, l, as, ls;
    cs_val_stats_of(V, pr, NULL, 0, &a);
    cs_val_stats_of(V, pr, NULL, CS_VAL_LARGE, &l);
    as = a, ls = l;
    fprintf(f, "- **%s**, m >= 64 KiB: ", pred_name[pr]);
    verdict(f, &l, I->target_large);
    fprintf(f, "; all sizes: ");
    verdict(f, &a, I->target_all);
    fprintf(f, ". Worst %s (%s, %s).", pct(a.worst, b1, sizeof b1), a.worst_algo,
            cs_size_str((double)a.worst_bytes, b2, sizeof b2));
    fprintf(f, " Stable cases only: m >= 64 KiB %s (%d of %d), all sizes %s (%d of %d).\n",
            pct(ls.median_stable, b3, sizeof b3), l.n - l.unstable, l.n,
            pct(as.median_stable, b4, sizeof b4), a.n - a.unstable, a.n);
  }
  drift_finding(f, I);
  for (int pr = 0; pr < 2; pr++) {
    int idx[3], k = largest(V, pr, idx, 3);
    if (!k) continue;
    fprintf(f, "- Largest %s errors:", pred_name[pr]);
    for (int j = 0; j < k; j++) {
      const cs_val_case *c = &V->c[idx[j]];
      fprintf(f, "%s %s at %s: predicted %s s, measured %s s [%s, %s], %s%s", j ? ";" : "", c->algo,
              cs_size_str((double)c->bytes, b1, sizeof b1),
              secs(pr ? c->sim : c->model, b2, sizeof b2), secs(c->meas, b3, sizeof b3),
              secs(c->lo, b4, sizeof b4), secs(c->hi, b5, sizeof b5),
              c->err[pr] > 0 ? "over by " : "under by ", pct(fabs(c->err[pr]), b6, sizeof b6));
    }
    fprintf(f, ".\n");
  }
  fprintf(f, "\n");

  /* ---- sizes beyond the target: bands of consecutive sizes ---- */
  sizes_beyond(f, V, I);

  /* ---- per algorithm ---- */
  const char *names[64];
  int na = algos_of(V, names, 64);
  fprintf(f, "## Per algorithm\n\n");
  fprintf(f,
          "| algorithm | prediction | median, all sizes | worst, all sizes | median, m >= 64 KiB | "
          "worst, m >= 64 KiB | median of stable cases (all / >= 64 KiB) | cases | unstable |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int i = 0; i < na; i++)
    for (int pr = 0; pr < 2; pr++) {
      cs_val_stats a, l;
      cs_val_stats_of(V, pr, names[i], 0, &a);
      cs_val_stats_of(V, pr, names[i], CS_VAL_LARGE, &l);
      if (a.n == 0) {
        fprintf(f, "| %s | %s | - | - | - | - | - | 0 | 0 |\n", names[i], pred_name[pr]);
        continue;
      }
      char w1[64], w2[64];
      snprintf(w1, sizeof w1, "%s (%s)", pct(a.worst, b1, sizeof b1),
               cs_size_str((double)a.worst_bytes, b2, sizeof b2));
      if (l.n)
        snprintf(w2, sizeof w2, "%s (%s)", pct(l.worst, b1, sizeof b1),
                 cs_size_str((double)l.worst_bytes, b2, sizeof b2));
      else
        snprintf(w2, sizeof w2, "-");
      fprintf(f, "| %s | %s | %s | %s | %s | %s | %s / %s | %d | %d |\n", names[i], pred_name[pr],
              pct(a.median, b3, sizeof b3), w1, pct(l.median, b4, sizeof b4), w2,
              pct(a.median_stable, b5, sizeof b5), pct(l.median_stable, b6, sizeof b6), a.n,
              a.unstable);
    }
  fprintf(f, "\n");

  drift_section(f, I);

  if (I->picture) fprintf(f, "## Predicted against measured\n\n![%s](%s)\n\n", I->coll, I->picture);

  fprintf(f, "## Calibration used\n\n");
  if (I->calibration)
    fprintf(f, "From the comment of `%s`:\n\n```\n%s\n```\n\n", I->platform, I->calibration);
  else
    fprintf(f,
            "`%s` records no calibration (it was not written by `collsim calibrate`); its "
            "collsim-model line gives the model's parameters.\n\n",
            I->platform);

  /* ---- every size ---- */
  fprintf(f, "## Every case\n\n");
  fprintf(f,
          "| algorithm | m | measured median (s) | 95%% interval | interval / median | launches "
          "| launch medians (s) | launch spread / median | model (s) | model error | simulation "
          "(s) | simulation error | flag |\n"
          "|---|---:|---:|---|---:|---:|---|---:|---:|---:|---:|---:|---|\n");
  for (int i = 0; i < V->n; i++) {
    const cs_val_case *c = &V->c[i];
    char iv[80], w[32];
    if (isfinite(c->lo) && isfinite(c->hi))
      snprintf(iv, sizeof iv, "%s .. %s", secs(c->lo, b1, sizeof b1), secs(c->hi, b2, sizeof b2));
    else
      snprintf(iv, sizeof iv, "-");
    pct(c->meas > 0 && isfinite(c->hi) ? (c->hi - c->lo) / c->meas : NAN, w, sizeof w);
    const char *flag = c->unstable[0] && c->unstable[1] ? "unstable (both)"
                       : c->unstable[0]                 ? "unstable (model)"
                       : c->unstable[1]                 ? "unstable (simulation)"
                                                        : "";
    const char *lflag = c->spread[0] && c->spread[1] ? "launch spread (both)"
                        : c->spread[0]               ? "launch spread (model)"
                        : c->spread[1]               ? "launch spread (simulation)"
                                                     : "";
    char lr[80], ls[32];
    if (c->launches >= 2)
      snprintf(lr, sizeof lr, "%s .. %s", secs(c->lmin, b1, sizeof b1),
               secs(c->lmax, b2, sizeof b2));
    else
      snprintf(lr, sizeof lr, "-");
    pct(cs_val_launch_spread(c), ls, sizeof ls);
    fprintf(f, "| %s | %s | %s | %s | %s | %d | %s | %s |", c->algo,
            cs_size_str((double)c->bytes, b3, sizeof b3), secs(c->meas, b4, sizeof b4), iv, w,
            c->launches, lr, ls);
    fprintf(f, " %s | %s | %s | %s | %s%s%s |\n", secs(c->model, b5, sizeof b5),
            pct(c->err[0], b6, sizeof b6), secs(c->sim, b1, sizeof b1),
            pct(c->err[1], b2, sizeof b2), flag, flag[0] && lflag[0] ? ", " : "", lflag);
  }
  fprintf(f, "\nThe same cases as CSV: `%s`.\n", I->csv);
}

char *cs_val_platform_calibration(const char *xml) {
  FILE *f = fopen(xml, "r");
  if (!f) return NULL;
  char line[1024];
  size_t cap = 8192, n = 0;
  char *text = malloc(cap);
  int in = 0, found = 0;
  while (text && fgets(line, sizeof line, f)) {
    if (!in) {
      if (strncmp(line, "<!--", 4)) break; /* only the leading comment */
      in = 1;
      continue;
    }
    if (!strncmp(line, "-->", 3)) break;
    if (n == 0 && !strstr(line, "collsim calibrate")) break;
    found = 1;
    size_t l = strlen(line);
    if (n + l + 1 > cap) break;
    memcpy(text + n, line, l + 1);
    n += l;
  }
  fclose(f);
  if (!found) {
    free(text);
    return NULL;
  }
  while (n > 0 && text[n - 1] == '\n') text[--n] = '\0';
  return text;
}
