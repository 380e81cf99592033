/* Measurements over several launches, aggregated (launches.h). */
#include "launches.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibfit.h"

static int usable(const double *v, int i) { return v && isfinite(v[i]); }

void cs_launch_aggregate(const double *med, const double *lo, const double *hi, int n,
                         cs_launch_agg *a) {
  double m[CS_MAX_LAUNCHES] = {0}, l[CS_MAX_LAUNCHES] = {0}, h[CS_MAX_LAUNCHES] = {0};
  int nm = 0, nl = 0, nh = 0;
  a->min = a->max = NAN;
  for (int i = 0; i < n && i < CS_MAX_LAUNCHES; i++) {
    if (!(isfinite(med[i]) && med[i] > 0)) continue;
    m[nm++] = med[i];
    if (!(med[i] >= a->min)) a->min = med[i];
    if (!(med[i] <= a->max)) a->max = med[i];
    if (usable(lo, i)) l[nl++] = lo[i];
    if (usable(hi, i)) h[nh++] = hi[i];
  }
  a->n = nm;
  a->median = cs_median(m, nm);
  /* Only from every counted launch: then lo <= median <= hi holds (each
   * launch's lo <= its median <= its hi, and medians keep that order). */
  a->lo = nl == nm ? cs_median(l, nl) : NAN;
  a->hi = nh == nm ? cs_median(h, nh) : NAN;
}

double cs_launch_spread(const cs_launch_agg *a) {
  return a->n >= 2 && a->median > 0 ? (a->max - a->min) / a->median : NAN;
}

typedef struct {
  double k, x, y;
  int l;
} klxy;

static int cmp_klxy(const void *pa, const void *pb) {
  const klxy *a = pa, *b = pb;
  if (a->k != b->k) return a->k < b->k ? -1 : 1;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return (a->l > b->l) - (a->l < b->l);
}

int cs_launch_medians_by_key(const double *k, const double *x, const int *launch, const double *y,
                             int n, double *ok, double *ox, cs_launch_agg *oa) {
  if (n <= 0) return 0;
  klxy *s = malloc(sizeof(klxy) * (size_t)n);
  double *g = malloc(sizeof(double) * (size_t)n);
  if (!s || !g) {
    free(s);
    free(g);
    return -1;
  }
  for (int i = 0; i < n; i++) s[i] = (klxy){k[i], x[i], y[i], launch ? launch[i] : 1};
  qsort(s, (size_t)n, sizeof(klxy), cmp_klxy);
  int groups = 0;
  for (int i = 0; i < n;) {
    double med[CS_MAX_LAUNCHES];
    int nl = 0, j = i;
    while (j < n && s[j].k == s[i].k && s[j].x == s[i].x) {
      int c = 0, j0 = j;
      while (j < n && s[j].k == s[i].k && s[j].x == s[i].x && s[j].l == s[j0].l) g[c++] = s[j++].y;
      if (nl < CS_MAX_LAUNCHES) med[nl++] = cs_median(g, c);
    }
    ok[groups] = s[i].k;
    ox[groups] = s[i].x;
    cs_launch_aggregate(med, NULL, NULL, nl, &oa[groups]);
    groups++;
    i = j;
  }
  free(s);
  free(g);
  return groups;
}

void cs_launch_path(char *buf, size_t len, const char *stem, int launch, const char *ext) {
  snprintf(buf, len, "%s-L%d%s", stem, launch, ext);
}

int cs_launches_run(const char *what, const char *stem, const char *ext, int n, cs_launch_fn fn,
                    void *ctx) {
  for (int l = 1; l <= n; l++) {
    char path[4400];
    cs_launch_path(path, sizeof path, stem, l, ext);
    double load;
    if (n > 1) {
      if (getloadavg(&load, 1) == 1)
        fprintf(stderr, "collsim %s: launch %d of %d (load %.2f)\n", what, l, n, load);
      else
        fprintf(stderr, "collsim %s: launch %d of %d\n", what, l, n);
    }
    int rc = fn(ctx, l, path);
    if (rc) return rc;
  }
  return 0;
}

int cs_launches_parse(const char *cmd, const char *value) {
  char *end;
  long v = value ? strtol(value, &end, 10) : 0;
  if (!value || *end || end == value || v < 1 || v > CS_MAX_LAUNCHES) {
    fprintf(stderr, "collsim %s: --launches needs a number of mpirun launches 1..%d\n", cmd,
            CS_MAX_LAUNCHES);
    return -1;
  }
  return (int)v;
}
