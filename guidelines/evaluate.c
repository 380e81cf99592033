/* `collsim guidelines` beyond its options: which algorithms each side times in
 * which bench files, and the evaluation of the timed files into guidelines.csv
 * and the violations report (guidelines/guidelines.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guidelines.h"
#include "model.h"
#include "results.h"
#include "sizes.h"

/* ---- the plan: which algorithms each side times, in which bench files ---------- */

/* Our algorithms for coll: all of the family's (the fastest is used per
 * size), else those of the first stand-in family that has some, else none
 * (0). The stand-ins are the registry's families after its first one, in
 * registry order, never the library's own: the first family is the paper's
 * own algorithms, which side with nobody but themselves. */
static int ours_for(cs_coll coll, const char *family, const char **out, int max) {
  const char *fam[64];
  int nfam = cs_families(fam, 64);
  if (nfam > 64) nfam = 64;
  for (int i = 0; i < nfam; i++) {
    const char *f = i == 0 ? family : fam[i];
    int n = 0;
    for (int k = 0; k < cs_nalgos; k++)
      if (cs_algos[k].coll == coll && !strcmp(cs_algos[k].family, f) &&
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
  /* The library side is named by its selector (lib:ompi) so that every
   * summary says which library it was; "lib" when the backend's own MPI. */
  P->side_name[0] = strncmp(libalgo, "lib:", 4) ? "lib" : libalgo;
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
  /* The placement the bench files were timed with (their first lines). */
  cs_prov bp;
  const char *placement =
      P->nf > 0 && cs_prov_read(P->files[0].csv, &bp) == 0 ? cs_prov_get(&bp, "placement") : NULL;
  cs_csv_guidelines_comment(csv, o->backend, o->platform, o->np, P->libalgo, P->side_name[1],
                            o->tol, !o->smpi, placement, o->smpi ? o->gamma : -1);
  cs_csv_command(csv, o->command);
  cs_csv_write_header(csv, CS_CSV_GUIDELINES);
  size_t ml = 0;
  ml += (size_t)snprintf(mdbuf + ml, mdlen - ml,
                         "# Guideline violations: %s, p = %d, tolerance %g%s\n\n", o->platform,
                         o->np, o->tol, o->smpi ? "" : ", one-sided Wilcoxon rank-sum test");
  ml += (size_t)snprintf(mdbuf + ml, mdlen - ml,
                         "| side | guideline | bytes | lhs | rhs | lhs_s | rhs_s | ratio |%s\n"
                         "|---|---|---|---|---|---|---|---|%s\n",
                         o->smpi ? "" : " p-value |", o->smpi ? "" : "---|");
  int nviol = 0, nmiss = 0, nwrong = 0;
  char wrong[8192] = ""; /* the guidelines not decided: a term's result was wrong */
  size_t wl = 0;
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
        char why[1400] = ""; /* a term whose every algorithm gave a wrong result */
        for (int h = 0; h < 2; h++) {
          double tt[CS_GL_MAXTERMS];
          for (int i = 0; i < n[h]; i++) {
            cs_coll c = t[h][i].coll;
            const cs_gl_file *f = file_at(P, c, t[h][i].single);
            long eff = cs_size_bytes(c, o->np, m, 1);
            /* the fastest (median) of the side's algorithms for c */
            al[h][i] = P->algo_of[s][c][0];
            tt[i] = -1;
            for (int a = 0; a < P->nalgo[s][c]; a++) {
              char st[32], w[1024];
              if (cs_bench_lookup_verify(f->csv, P->algo_of[s][c][a], eff, st, sizeof st, w,
                                         sizeof w) &&
                  strcmp(st, "unverified")) {
                if (!why[0])
                  snprintf(why, sizeof why, "%s:%s at %ld bytes gave a wrong result (%s): %s",
                           cs_colls[c].name, P->algo_of[s][c][a], eff, st, w);
                continue; /* never timed: not a candidate */
              }
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
        if ((side_s[0] < 0 || side_s[1] < 0) && why[0]) {
          free(reps[0]);
          free(reps[1]);
          nwrong++;
          fprintf(stderr, "collsim guidelines: %s (%s side) at %ld bytes not decided: %s\n",
                  gl[g].id, P->side_name[s], m, why);
          if (wl < sizeof wrong - 1600)
            wl += (size_t)snprintf(wrong + wl, sizeof wrong - wl, "| %s | %s | %ld | %s |\n",
                                   P->side_name[s], gl[g].desc, m, why);
          continue;
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
  if (nwrong && ml < mdlen)
    ml += (size_t)snprintf(mdbuf + ml, mdlen - ml,
                           "\n## Not decided: wrong results\n\nEvery timed case was first "
                           "checked against the check harness's formulas; these gave wrong "
                           "results, so they were not timed and decide nothing:\n\n"
                           "| side | guideline | bytes | wrong result |\n|---|---|---|---|\n%s",
                           wrong);
  return nmiss;
}
