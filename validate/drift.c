/* Drift probes of `collsim validate` (drift.h). */
#include "drift.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibration.h"
#include "sizes.h"

const char *cs_drift_name(const cs_drift_probe *p, char *buf, size_t len) {
  char b[32];
  snprintf(buf, len, "%s %s", cs_csv_calib_kind(p->kind),
           cs_size_str((double)p->bytes, b, sizeof b));
  return buf;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* The samples of series s at size m (k = 1) of launch l (0: every launch) into
 * y; their number. */
static int samples_at(const cs_calib_series *s, long m, int l, double *y) {
  int n = 0;
  for (int i = 0; i < s->n; i++)
    if (s->k[i] == 1 && s->x[i] == (double)m && (l == 0 || s->l[i] == l)) y[n++] = s->y[i];
  return n;
}

/* The distinct sizes (k = 1) of s, sorted; their number (at most max). */
static int sizes_of(const cs_calib_series *s, double *x, int max) {
  double *v = malloc(sizeof(double) * (size_t)(s->n + 1));
  int n = 0, m = 0;
  if (!v) return 0;
  for (int i = 0; i < s->n; i++)
    if (s->k[i] == 1) v[n++] = s->x[i];
  qsort(v, (size_t)n, sizeof(double), cmp_d);
  for (int i = 0; i < n && m < max; i++)
    if (m == 0 || v[i] != x[m - 1]) x[m++] = v[i];
  free(v);
  return m;
}

/* A probe of kind at m priced price, with the calibration's band from s. */
static void add_probe(cs_drift *D, const cs_calib_series *s, int launches, int kind, long m,
                      double price) {
  if (D->n == CS_DRIFT_MAX || !(price > 0)) return;
  for (int i = 0; i < D->n; i++)
    if (D->p[i].kind == kind && D->p[i].bytes == m) return;
  cs_drift_probe *p = &D->p[D->n++];
  memset(p, 0, sizeof *p);
  p->kind = kind;
  p->bytes = m;
  p->price = price;
  p->band_lo = p->band_hi = p->cal_ratio = NAN;
  double *y = malloc(sizeof(double) * (size_t)(s->n + 1)), med[CS_MAX_LAUNCHES];
  if (!y) return;
  for (int l = 1; l <= launches && l <= CS_MAX_LAUNCHES; l++) {
    int n = samples_at(s, m, launches > 1 ? l : 0, y);
    if (n == 0) continue;
    double md, lo, hi;
    cs_median_ci(y, n, &md, &lo, &hi);
    med[p->cal_n++] = md;
    if (!(lo / price >= p->band_lo)) p->band_lo = lo / price;
    if (!(hi / price <= p->band_hi)) p->band_hi = hi / price;
  }
  free(y);
  p->cal_ratio = p->cal_n ? cs_median(med, p->cal_n) / price : NAN;
  for (int l = 0; l < CS_MAX_LAUNCHES; l++) p->med[l] = p->lo[l] = p->hi[l] = NAN;
}

/* Probes of series kind: a size in the middle of each segment of pw (fewer than
 * three segments, or none: three sizes spread over the range), each priced by
 * price(mo, arg, m). */
static void plan_kind(cs_drift *D, const cs_calib_samples *S, int kind, const cs_pw *pw,
                      const cs_model *mo, int arg, double (*price)(const cs_model *, int, double)) {
  const cs_calib_series *s = &S->s[kind];
  double x[CS_CALIB_MAXPTS];
  int n = sizes_of(s, x, CS_CALIB_MAXPTS);
  if (n == 0) return;
  int pick[CS_PW_MAX + 3], np = 0;
  if (pw && pw->n >= 3) {
    for (int g = 0; g < pw->n; g++) {
      int first = -1, last = -1;
      for (int i = 0; i < n; i++)
        if ((g == 0 || x[i] > pw->from[g]) && (g + 1 == pw->n || x[i] <= pw->from[g + 1])) {
          if (first < 0) first = i;
          last = i;
        }
      if (first >= 0) pick[np++] = (first + last) / 2;
    }
  } else {
    /* fewer than three regimes: three sizes spread over the range (so that a
     * quantity is judged by a majority of three, see drift.h) */
    pick[np++] = n / 6;
    pick[np++] = n / 2;
    pick[np++] = n - 1 - n / 6;
  }
  for (int i = 0; i < np; i++)
    add_probe(D, s, S->launches > 0 ? S->launches : 1, kind, (long)x[pick[i]],
              price(mo, arg, x[pick[i]]));
}

static double price_msg(const cs_model *mo, int same_node, double m) {
  return cs_model_msg_alone(mo, same_node, m);
}
static double price_local(const cs_model *mo, int work, double m) {
  return cs_model_local_time(mo, (cs_work)work, m);
}

/* The "Raw samples: PATH" of a calibration comment into buf; 0, or -1. */
static int samples_path(const char *calibration, char *buf, size_t len) {
  const char *key = "Raw samples: ", *p = calibration ? strstr(calibration, key) : NULL;
  if (!p) return -1;
  p += strlen(key);
  size_t n = strcspn(p, "\n");
  if (n == 0 || n >= len) return -1;
  memcpy(buf, p, n);
  buf[n] = '\0';
  return 0;
}

void cs_drift_plan(cs_drift *D, const cs_model *mo, const char *calibration, const char *xml,
                   int launches) {
  memset(D, 0, sizeof *D);
  D->launches = launches < CS_MAX_LAUNCHES ? launches : CS_MAX_LAUNCHES;
  if (samples_path(calibration, D->samples, sizeof D->samples)) {
    snprintf(D->why, sizeof D->why,
             "the platform names no calibration samples (it was not written by `collsim "
             "calibrate`): nothing to compare the machine's state with");
    return;
  }
  if (access(D->samples, R_OK) != 0 && D->samples[0] != '/' && xml) {
    /* relative to where calibrate ran: try beside the platform */
    const char *slash = strrchr(xml, '/'), *base = strrchr(D->samples, '/');
    char alt[sizeof D->samples];
    int n = snprintf(alt, sizeof alt, "%.*s%s", slash ? (int)(slash - xml + 1) : 0, xml,
                     base ? base + 1 : D->samples);
    if (n > 0 && (size_t)n < sizeof alt && access(alt, R_OK) == 0)
      memcpy(D->samples, alt, sizeof alt);
  }
  cs_calib_samples S;
  if (cs_calib_read_samples(D->samples, &S)) {
    snprintf(D->why, sizeof D->why,
             "the calibration's samples %s cannot be read: nothing to compare the machine's "
             "state with",
             D->samples);
    return;
  }
  /* The network as the platform was fitted (calibration.c's note says which). */
  int exchange = calibration && strstr(calibration, "exchange fit") != NULL;
  if (mo->kind == CS_MODEL_ABG) {
    int inter = S.nodes > 1;
    int kind = exchange ? (inter ? CS_CALIB_XCHG_INTER : CS_CALIB_XCHG_INTRA)
                        : (inter ? CS_CALIB_PP_INTER : CS_CALIB_PP_INTRA);
    plan_kind(D, &S, kind, &mo->net, mo, !inter, price_msg);
  } else {
    plan_kind(D, &S, CS_CALIB_PP_INTRA, NULL, mo, 1, price_msg);
    plan_kind(D, &S, CS_CALIB_PP_INTER, NULL, mo, 0, price_msg);
  }
  plan_kind(D, &S, CS_CALIB_REDUCE, &mo->local, mo, CS_WORK_REDUCE, price_local);
  plan_kind(D, &S, CS_CALIB_MEMCPY, mo->copy.n ? &mo->copy : &mo->local, mo, CS_WORK_COPY,
            price_local);
  cs_calib_samples_free(&S);
  if (D->n == 0)
    snprintf(D->why, sizeof D->why, "the calibration's samples %s hold none of the probes' kinds",
             D->samples);
}

void cs_drift_spec(const cs_drift *D, char *buf, size_t len) {
  size_t u = 0;
  buf[0] = '\0';
  for (int i = 0; i < D->n && u < len; i++) {
    if (i == 0 || D->p[i].kind != D->p[i - 1].kind)
      u += (size_t)snprintf(buf + u, len - u, "%s%s:%ld", i ? ";" : "",
                            cs_csv_calib_kind(D->p[i].kind), D->p[i].bytes);
    else
      u += (size_t)snprintf(buf + u, len - u, ",%ld", D->p[i].bytes);
  }
}

/* -1 below the band, +1 above, 0 inside (or not judged: no band, no interval). */
static int beyond(const cs_drift_probe *p, double lo, double hi) {
  if (!isfinite(p->band_lo) || !isfinite(p->band_hi) || !isfinite(lo) || !isfinite(hi)) return 0;
  return hi < p->band_lo ? -1 : lo > p->band_hi ? 1 : 0;
}

void cs_drift_add_launch(cs_drift *D, int l, const char *path) {
  if (l < 0 || l >= CS_MAX_LAUNCHES || D->n == 0 || access(path, R_OK) != 0) return;
  cs_calib_samples S;
  if (cs_calib_read_samples(path, &S)) return;
  D->have[l] = 1;
  for (int i = 0; i < D->n; i++) {
    cs_drift_probe *p = &D->p[i];
    const cs_calib_series *s = &S.s[p->kind];
    double *y = malloc(sizeof(double) * (size_t)(s->n + 1));
    int n = y ? samples_at(s, p->bytes, 0, y) : 0;
    if (n > 0) {
      double md, lo, hi;
      cs_median_ci(y, n, &md, &lo, &hi);
      p->med[l] = md / p->price;
      p->lo[l] = lo / p->price;
      p->hi[l] = hi / p->price;
      p->flag[l] = beyond(p, p->lo[l], p->hi[l]);
    }
    free(y);
  }
  cs_calib_samples_free(&S);
}

int cs_drift_quantity(int kind) {
  return kind == CS_CALIB_REDUCE   ? CS_DRIFT_REDUCE
         : kind == CS_CALIB_MEMCPY ? CS_DRIFT_COPY
                                   : CS_DRIFT_NET;
}

const char *cs_drift_quantity_name(int q) {
  static const char *const names[CS_DRIFT_NQ] = {"network", "local reduction", "local copy"};
  return q >= 0 && q < CS_DRIFT_NQ ? names[q] : "?";
}

/* Judges the quantities from launch l's figures (l < 0: over launches). */
static void judge(const cs_drift *D, int l, cs_drift_q *q) {
  double v[CS_DRIFT_NQ][CS_DRIFT_MAX];
  memset(q, 0, sizeof *q * CS_DRIFT_NQ);
  for (int i = 0; i < D->n; i++) {
    const cs_drift_probe *p = &D->p[i];
    double x = l < 0 ? (p->agg.n > 0 ? p->agg.median : NAN) : p->med[l];
    if (!isfinite(x)) continue;
    int k = cs_drift_quantity(p->kind), fl = l < 0 ? p->flag_all : p->flag[l];
    v[k][q[k].probes++] = x;
    q[k].below += fl < 0;
    q[k].above += fl > 0;
  }
  for (int k = 0; k < CS_DRIFT_NQ; k++) {
    q[k].median = cs_median(v[k], q[k].probes);
    q[k].drifted = 2 * q[k].below > q[k].probes ? -1 : 2 * q[k].above > q[k].probes ? 1 : 0;
  }
}

void cs_drift_finish(cs_drift *D) {
  for (int i = 0; i < D->n; i++) {
    cs_drift_probe *p = &D->p[i];
    cs_launch_aggregate(p->med, p->lo, p->hi, D->launches, &p->agg);
    p->flag_all = p->agg.n > 0 ? beyond(p, p->agg.lo, p->agg.hi) : 0;
  }
  judge(D, -1, D->q);
  for (int l = 0; l < D->launches; l++) judge(D, l, D->ql[l]);
}

void cs_drift_summarize(const cs_drift *D, int l, cs_drift_summary *s) {
  double v[CS_DRIFT_MAX] = {0};
  memset(s, 0, sizeof *s);
  s->median = s->min = s->max = NAN;
  for (int i = 0; i < D->n; i++) {
    const cs_drift_probe *p = &D->p[i];
    double x = l < 0 ? (p->agg.n > 0 ? p->agg.median : NAN) : p->med[l];
    if (!isfinite(x)) continue;
    v[s->measured++] = x;
    s->beyond += (l < 0 ? p->flag_all : p->flag[l]) != 0;
    if (!(x >= s->min)) s->min = x;
    if (!(x <= s->max)) s->max = x;
  }
  s->median = cs_median(v, s->measured);
  const cs_drift_q *q = l < 0 ? D->q : D->ql[l];
  for (int k = 0; k < CS_DRIFT_NQ; k++) s->drifted += q[k].drifted != 0;
}
