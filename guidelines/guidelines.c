/* Performance guidelines: the table, the arithmetic, the plan of what to time
 * and the evaluation of the timed files (guidelines/guidelines.h). */
#include "guidelines.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "results.h"

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

/* ---- the plan: which algorithms each side times, in which bench files ---------- */

/* Our algorithms for coll: all of the family's (the fastest is used per
 * size), else ceilhalf's, else butterfly's; 0 if none. */
static int ours_for(cs_coll coll, const char *family, const char **out, int max) {
  const char *order[] = {family, "ceilhalf", "butterfly"};
  for (int i = 0; i < 3; i++) {
    int n = 0;
    for (int k = 0; k < cs_nalgos; k++)
      if (cs_algos[k].coll == coll && !strcmp(cs_algos[k].family, order[i]) &&
          !(cs_algos[k].flags & CS_NATIVE) && n < max)
        out[n++] = cs_algos[k].name;
    if (n) return n;
  }
  return 0;
}

static cs_gl_file *file_for(cs_gl_file *files, int *nf, cs_coll coll, int single) {
  for (int i = 0; i < *nf; i++)
    if (files[i].coll == coll && files[i].single == single) return &files[i];
  cs_gl_file *f = &files[(*nf)++];
  memset(f, 0, sizeof *f);
  f->coll = coll;
  f->single = single;
  return f;
}

static void file_add(cs_gl_file *f, const char *algo) {
  for (int i = 0; i < f->nalgos; i++)
    if (!strcmp(f->algos[i], algo)) return;
  if (f->nalgos < CS_GL_MAXALGOS) f->algos[f->nalgos++] = algo;
}

static void term_name(char *buf, size_t len, const cs_gl_term *t, int n, const char **algo,
                      int local) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && k < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s%s%s:%s", i ? "+" : "", cs_colls[t[i].coll].name,
                          t[i].single ? "(single)" : "", algo[i]);
  if (local && k < len) snprintf(buf + k, len - k, "+local_reduce");
}

/* The plan's bench file of (coll, single); every term of the table has one. */
static const cs_gl_file *file_at(const cs_gl_plan *P, cs_coll coll, int single) {
  for (int i = 0; i < P->nf; i++)
    if (P->files[i].coll == coll && P->files[i].single == single) return &P->files[i];
  return NULL;
}

void cs_gl_plan_make(cs_gl_plan *P, const char *libalgo, const char *ours, const char *dir) {
  memset(P, 0, sizeof *P);
  P->libalgo = libalgo;
  P->side_name[0] = "lib";
  P->side_name[1] = ours;
  for (int c = 0; c < CS_NCOLL; c++) {
    P->algo_of[0][c][0] = P->libalgo;
    P->nalgo[0][c] = 1;
    P->nalgo[1][c] = ours_for((cs_coll)c, ours, P->algo_of[1][c], CS_GL_MAXALGOS - 1);
    if (!P->nalgo[1][c]) P->algo_of[1][c][P->nalgo[1][c]++] = P->libalgo;
  }
  int ng;
  const cs_guideline *gl = cs_guidelines(&ng);
  for (int g = 0; g < ng; g++)
    for (int s = 0; s < 2; s++) {
      const cs_gl_term *t[2] = {gl[g].lhs, gl[g].rhs};
      int n[2] = {gl[g].nl, gl[g].nr};
      for (int k = 0; k < 2; k++)
        for (int i = 0; i < n[k]; i++) {
          P->used[t[k][i].coll] = 1;
          for (int a = 0; a < P->nalgo[s][t[k][i].coll]; a++)
            file_add(file_for(P->files, &P->nf, t[k][i].coll, t[k][i].single),
                     P->algo_of[s][t[k][i].coll][a]);
        }
    }
  for (int i = 0; i < P->nf; i++) {
    cs_gl_file *f = &P->files[i];
    snprintf(f->csv, sizeof f->csv, "%s/%s%s.csv", dir, cs_colls[f->coll].name,
             f->single ? "-single" : "");
    snprintf(f->samples, sizeof f->samples, "%s/%s%s-samples.csv", dir, cs_colls[f->coll].name,
             f->single ? "-single" : "");
  }
}

/* ---- the evaluation of the timed files --------------------------------------------- */

int cs_gl_evaluate(const cs_gl_plan *P, const cs_gl_eval *o, const long *sizes, int nsizes,
                   FILE *csv, char *mdbuf, size_t mdlen) {
  int ng;
  const cs_guideline *gl = cs_guidelines(&ng);
  cs_csv_guidelines_comment(csv, o->backend, o->platform, o->np, P->libalgo, P->side_name[1],
                            o->tol, !o->smpi);
  cs_csv_write_header(csv, CS_CSV_GUIDELINES);
  size_t ml = 0;
  ml += (size_t)snprintf(mdbuf + ml, mdlen - ml,
                         "# Guideline violations: %s, p = %d, tolerance %g%s\n\n", o->platform,
                         o->np, o->tol, o->smpi ? "" : ", one-sided Wilcoxon rank-sum test");
  ml += (size_t)snprintf(mdbuf + ml, mdlen - ml,
                         "| side | guideline | bytes | lhs | rhs | lhs_s | rhs_s | ratio |%s\n"
                         "|---|---|---|---|---|---|---|---|%s\n",
                         o->smpi ? "" : " p-value |", o->smpi ? "" : "---|");
  int nviol = 0, nmiss = 0;
  for (int s = 0; s < 2; s++)
    for (int g = 0; g < ng; g++)
      for (int k = 0; k < nsizes; k++) {
        long m = sizes[k];
        if (gl[g].need_divisible && m % o->np) continue;
        if (s == 1) { /* no term of ours: the same row as the library's */
          int own = 0;
          for (int i = 0; i < gl[g].nl; i++)
            own |= strcmp(P->algo_of[1][gl[g].lhs[i].coll][0], P->libalgo) != 0;
          for (int i = 0; i < gl[g].nr; i++)
            own |= strcmp(P->algo_of[1][gl[g].rhs[i].coll][0], P->libalgo) != 0;
          if (!own) continue;
        }
        const cs_gl_term *t[2] = {gl[g].lhs, gl[g].rhs};
        int n[2] = {gl[g].nl, gl[g].nr};
        const char *al[2][CS_GL_MAXTERMS];
        double side_s[2];
        double *reps[2] = {NULL, NULL};
        int nrep[2] = {0, 0};
        for (int h = 0; h < 2; h++) {
          double tt[CS_GL_MAXTERMS];
          for (int i = 0; i < n[h]; i++) {
            cs_coll c = t[h][i].coll;
            const cs_gl_file *f = file_at(P, c, t[h][i].single);
            long eff = cs_case_bytes(c, o->np, m);
            /* the fastest (median) of the side's algorithms for c */
            al[h][i] = P->algo_of[s][c][0];
            tt[i] = -1;
            for (int a = 0; a < P->nalgo[s][c]; a++) {
              double x = cs_bench_lookup(f->csv, P->algo_of[s][c][a], eff);
              if (x >= 0 && (tt[i] < 0 || x < tt[i])) {
                tt[i] = x;
                al[h][i] = P->algo_of[s][c][a];
              }
            }
            if (!o->smpi) {
              static double buf[4096];
              int got =
                  cs_bench_read_samples(f->samples, cs_colls[c].name, al[h][i], eff, buf, 4096);
              if (i == 0) {
                reps[h] = malloc(sizeof(double) * (size_t)(got ? got : 1));
                if (reps[h]) memcpy(reps[h], buf, sizeof(double) * (size_t)got);
                nrep[h] = reps[h] ? got : 0;
              } else {
                if (got < nrep[h]) nrep[h] = got; /* rep by rep, as far as both go */
                if (reps[h]) cs_gl_add_reps(reps[h], buf, nrep[h]);
              }
            }
          }
          side_s[h] = cs_gl_sum(tt, n[h]);
          if (h == 1 && gl[g].local_reduce && side_s[h] >= 0) {
            side_s[h] += o->gamma * (double)m;
            for (int i = 0; i < nrep[h]; i++) reps[h][i] += o->gamma * (double)m;
          }
        }
        double ratio, pval = NAN;
        int v;
        if (o->smpi)
          v = cs_gl_decide(side_s[0], side_s[1], o->tol, gl[g].approx, &ratio);
        else
          v = cs_gl_decide_samples(reps[0], nrep[0], reps[1], nrep[1], o->tol, gl[g].approx,
                                   o->alpha, &ratio, &pval);
        free(reps[0]);
        free(reps[1]);
        char ln[1024], rn[1024];
        term_name(ln, sizeof ln, t[0], n[0], al[0], 0);
        term_name(rn, sizeof rn, t[1], n[1], al[1], gl[g].local_reduce);
        if (v < 0) {
          nmiss++;
          fprintf(stderr, "collsim guidelines: %s at %ld bytes: a time is missing\n", gl[g].id, m);
          continue;
        }
        cs_csv_guidelines_row(csv, gl[g].id, ln, rn, o->np, m, side_s[0], side_s[1], ratio, o->tol,
                              v, P->side_name[s]);
        if (v) {
          nviol++;
          if (ml < mdlen - 2048) {
            ml += (size_t)snprintf(
                mdbuf + ml, mdlen - ml, "| %s | %s | %ld | %s | %s | %.4g | %.4g | %.3f |",
                P->side_name[s], gl[g].desc, m, ln, rn, side_s[0], side_s[1], ratio);
            if (!o->smpi) ml += (size_t)snprintf(mdbuf + ml, mdlen - ml, " %.3g |", pval);
            ml += (size_t)snprintf(mdbuf + ml, mdlen - ml, "\n");
          }
        }
      }
  if (!nviol)
    ml += (size_t)snprintf(mdbuf + ml, mdlen - ml, "\nnone\n");
  else
    ml += (size_t)snprintf(mdbuf + ml, mdlen - ml, "\n%d violation%s\n", nviol,
                           nviol == 1 ? "" : "s");
  return nmiss;
}
