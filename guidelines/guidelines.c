/* Performance guidelines: the table and the arithmetic (guidelines/guidelines.h). */
#include "guidelines.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define T(c) \
  { CS_##c, 0 }
#define T1(c) \
  { CS_##c, 1 }

static const cs_guideline table[] = {
    /* Hunold et al.'s reduction guidelines (2)-(6), irregular forms */
    {"rs<=ar",
     "(2) Reduce_scatter <= Allreduce",
     1,
     1,
     {T(reduce_scatter)},
     {T(allreduce)},
     0,
     0,
     0},
    {"rs<=red+scv",
     "(3) Reduce_scatter <= Reduce + Scatterv",
     1,
     2,
     {T(reduce_scatter)},
     {T(reduce), T(scatterv)},
     0,
     0,
     0},
    {"ar<=rs+agv",
     "(4) Allreduce <= Reduce_scatter + Allgatherv",
     1,
     2,
     {T(allreduce)},
     {T(reduce_scatter), T(allgatherv)},
     0,
     0,
     0},
    {"red<=ar", "(5) Reduce <= Allreduce", 1, 1, {T(reduce)}, {T(allreduce)}, 0, 0, 0},
    {"red~rs1",
     "(6) Reduce ~ Reduce_scatter with the root's block only",
     1,
     1,
     {T(reduce)},
     {T1(reduce_scatter)},
     0,
     1,
     0},
    /* the same with regular blocks, where p divides m */
    {"rsb<=ar",
     "(2b) Reduce_scatter_block <= Allreduce",
     1,
     1,
     {T(reduce_scatter_block)},
     {T(allreduce)},
     0,
     0,
     1},
    {"rsb<=red+sc",
     "(3b) Reduce_scatter_block <= Reduce + Scatter",
     1,
     2,
     {T(reduce_scatter_block)},
     {T(reduce), T(scatter)},
     0,
     0,
     1},
    {"ar<=rsb+ag",
     "(4b) Allreduce <= Reduce_scatter_block + Allgather",
     1,
     2,
     {T(allreduce)},
     {T(reduce_scatter_block), T(allgather)},
     0,
     0,
     1},
    /* classical guidelines */
    {"bc<=sc+ag",
     "Bcast <= Scatter + Allgather",
     1,
     2,
     {T(bcast)},
     {T(scatter), T(allgather)},
     0,
     0,
     1},
    {"ar<=red+bc",
     "Allreduce <= Reduce + Bcast",
     1,
     2,
     {T(allreduce)},
     {T(reduce), T(bcast)},
     0,
     0,
     0},
    {"ag<=ga+bc",
     "Allgather <= Gather + Bcast",
     1,
     2,
     {T(allgather)},
     {T(gather), T(bcast)},
     0,
     0,
     1},
    {"ga<=ag", "Gather <= Allgather", 1, 1, {T(gather)}, {T(allgather)}, 0, 0, 1},
    {"scan<=exscan+red", "Scan <= Exscan + local reduce", 1, 1, {T(scan)}, {T(exscan)}, 1, 0, 0},
};

const cs_guideline *cs_guidelines(int *n) {
  *n = (int)(sizeof table / sizeof table[0]);
  return table;
}

const char *cs_guideline_desc(const char *id) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(table[i].id, id)) return table[i].desc;
  return id;
}

double cs_gl_sum(const double *t, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (!(t[i] >= 0)) return -1;
    s += t[i];
  }
  return s;
}

int cs_gl_decide(double lhs, double rhs, double tol, int approx, double *ratio) {
  if (!(lhs >= 0) || !(rhs >= 0)) {
    *ratio = NAN;
    return -1;
  }
  *ratio = rhs > 0 ? lhs / rhs : lhs > 0 ? INFINITY : 1.0;
  int v = lhs > rhs * (1 + tol);
  if (approx) v |= rhs > lhs * (1 + tol);
  return v;
}

void cs_gl_add_reps(double *a, const double *b, int n) {
  for (int i = 0; i < n; i++) a[i] += b[i];
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double cs_gl_median(const double *x, int n) {
  if (n <= 0) return -1;
  double *c = malloc(sizeof(double) * (size_t)n);
  if (!c) return -1;
  memcpy(c, x, sizeof(double) * (size_t)n);
  qsort(c, (size_t)n, sizeof(double), cmp_d);
  double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
  free(c);
  return m;
}

typedef struct {
  double v;
  int from_x;
} tagged;

static int cmp_t(const void *a, const void *b) {
  return cmp_d(&((const tagged *)a)->v, &((const tagged *)b)->v);
}

double cs_gl_ranksum_greater(const double *x, int nx, const double *y, int ny, double *z) {
  if (z) *z = 0;
  if (nx <= 0 || ny <= 0) return 1;
  int n = nx + ny;
  tagged *a = malloc(sizeof(tagged) * (size_t)n);
  if (!a) return 1;
  for (int i = 0; i < nx; i++) a[i] = (tagged){x[i], 1};
  for (int i = 0; i < ny; i++) a[nx + i] = (tagged){y[i], 0};
  qsort(a, (size_t)n, sizeof(tagged), cmp_t);
  double rx = 0, ties = 0; /* rank sum of x; sum of t^3 - t over tie groups */
  for (int i = 0; i < n;) {
    int j = i;
    while (j + 1 < n && a[j + 1].v == a[i].v) j++;
    double mid = 0.5 * ((i + 1) + (j + 1)), t = j - i + 1;
    for (int k = i; k <= j; k++)
      if (a[k].from_x) rx += mid;
    ties += t * t * t - t;
    i = j + 1;
  }
  free(a);
  double u = rx - nx * (nx + 1) / 2.0; /* pairs (x_i, y_j) with x_i > y_j, ties 1/2 */
  double mu = nx * (double)ny / 2.0;
  double var = nx * (double)ny / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
  if (var <= 0) return 1;
  double zz = (u - mu - 0.5) / sqrt(var); /* continuity correction towards H0 */
  if (z) *z = zz;
  return gsl_cdf_ugaussian_Q(zz);
}

int cs_gl_decide_samples(const double *lhs, int nl, const double *rhs, int nr, double tol,
                         int approx, double alpha, double *ratio, double *pval) {
  double ml = cs_gl_median(lhs, nl), mr = cs_gl_median(rhs, nr);
  *pval = 1;
  if (nl <= 0 || nr <= 0) {
    *ratio = NAN;
    return -1;
  }
  *ratio = mr > 0 ? ml / mr : ml > 0 ? INFINITY : 1.0;
  double *sl = malloc(sizeof(double) * (size_t)nl), *sr = malloc(sizeof(double) * (size_t)nr);
  if (!sl || !sr) {
    free(sl);
    free(sr);
    return -1;
  }
  for (int i = 0; i < nr; i++) sr[i] = rhs[i] * (1 + tol);
  double level = approx ? alpha / 2 : alpha;
  double p1 = cs_gl_ranksum_greater(lhs, nl, sr, nr, NULL), p2 = 1;
  if (approx) {
    for (int i = 0; i < nl; i++) sl[i] = lhs[i] * (1 + tol);
    p2 = cs_gl_ranksum_greater(rhs, nr, sl, nl, NULL);
  }
  free(sl);
  free(sr);
  *pval = p1 < p2 ? p1 : p2;
  return p1 < level || p2 < level;
}
