/* Performance guidelines of MPI collectives (Hunold, Carpen-Amarie, Traff):
 * the table of guidelines and the pure arithmetic that decides them (sums
 * of sides, ratios, tolerance, a one-sided Wilcoxon rank-sum test; in
 * guidelines.c, tested by tests/test_guidelines.c), and the plan and
 * evaluation of `collsim guidelines` (evaluate.c). Used by guidelines/guidelines_run.c. */
#ifndef COLLSIM_GUIDELINES_H
#define COLLSIM_GUIDELINES_H

#include <stdio.h>

#include "registry.h"

#define CS_GL_MAXTERMS 3

/* One timed term: a collective on the whole message m; single = for
 * reduce_scatter, all counts 0 but the root's (guideline 6). */
typedef struct {
  cs_coll coll;
  int single;
} cs_gl_term;

typedef struct {
  const char *id;   /* short id, e.g. "rs<=ar" */
  const char *desc; /* what it says */
  int nl, nr;
  cs_gl_term lhs[CS_GL_MAXTERMS], rhs[CS_GL_MAXTERMS];
  int local_reduce;   /* rhs also charges a local reduction: gamma * m */
  int approx;         /* "~": violated if either side exceeds the other */
  int need_divisible; /* evaluated only where p divides m */
} cs_guideline;

/* The table, n entries. */
const cs_guideline *cs_guidelines(int *n);
/* The statement of guideline id ("(5) Reduce <= Allreduce"), for titles;
 * id itself if the table has no such id. */
const char *cs_guideline_desc(const char *id);

/* Sum of n term times; -1 if any is negative (missing). */
double cs_gl_sum(const double *t, int n);

/* Decides lhs <= rhs (or lhs ~ rhs when approx) with a relative tolerance:
 * violated iff lhs > rhs * (1 + tol) (approx: or rhs > lhs * (1 + tol)).
 * *ratio = lhs / rhs (inf if rhs is 0 and lhs > 0, 1 if both are 0).
 * Returns 1 violated, 0 not, -1 if a side is missing (negative). */
int cs_gl_decide(double lhs, double rhs, double tol, int approx, double *ratio);

/* Adds b[i] into a[i] for i < n (rep-by-rep sum of two sides' samples). */
void cs_gl_add_reps(double *a, const double *b, int n);

/* Median of n values (sorts a copy); -1 for n = 0. */
double cs_gl_median(const double *x, int n);

/* One-sided Wilcoxon rank-sum (Mann-Whitney U) test of H1: x is
 * stochastically larger than y. Mid-ranks for ties, the tie-corrected
 * normal approximation with continuity correction. Returns the p-value
 * (1 when a sample is empty or every value is tied); *z gets the z score. */
double cs_gl_ranksum_greater(const double *x, int nx, const double *y, int ny, double *z);

/* The real-MPI decision: violated iff the rank-sum test rejects "lhs is not
 * larger than rhs * (1 + tol)" at level alpha (lhs samples against rhs
 * samples scaled by 1 + tol). For approx both directions are tested with
 * alpha / 2 each. *ratio = median(lhs) / median(rhs), *pval the smallest
 * p-value. */
int cs_gl_decide_samples(const double *lhs, int nl, const double *rhs, int nr, double tol,
                         int approx, double alpha, double *ratio, double *pval);

/* ---- the plan and the evaluation of `collsim guidelines` (evaluate.c) ------------- */

#define CS_GL_MAXALGOS 8

/* One bench file: a collective (and layout) with the algorithms it needs. */
typedef struct {
  cs_coll coll;
  int single;
  const char *algos[CS_GL_MAXALGOS];
  int nalgos;
  char csv[4300], samples[4300]; /* DIR/<coll>[-single].csv and its -samples.csv */
} cs_gl_file;

/* The algorithms of each collective on each side (0: the library's libalgo,
 * 1: our family, the fastest of its algorithms per size, else the first
 * stand-in family of the registry that has the collective, else the library's), and the bench files
 * that time them. */
typedef struct {
  const char *libalgo, *side_name[2];
  const char *algo_of[2][CS_NCOLL][CS_GL_MAXALGOS];
  int nalgo[2][CS_NCOLL];
  int used[CS_NCOLL]; /* collectives some guideline times */
  cs_gl_file files[2 * CS_NCOLL];
  int nf;
} cs_gl_plan;

void cs_gl_plan_make(cs_gl_plan *P, const char *libalgo, const char *ours, const char *dir);

/* How the timed files are judged. */
typedef struct {
  const char *backend, *platform; /* for the report: the platform file or "localhost" */
  int np, smpi;                   /* smpi: medians; else rep-level samples, rank-sum test */
  double tol, alpha, gamma;       /* gamma: the platform's, for the local reduce of Scan */
  const char *command;            /* the command line, for guidelines.csv (NULL: none) */
} cs_gl_eval;

/* Decides every guideline at every size from the plan's bench files: writes
 * guidelines.csv (comment, header, rows; docs/csv.md) to csv and the
 * violations report (Markdown) into md[0..mdlen). Returns the number of
 * (guideline, size) with a time missing (each named on stderr). */
int cs_gl_evaluate(const cs_gl_plan *P, const cs_gl_eval *o, const long *sizes, int nsizes,
                   FILE *csv, char *md, size_t mdlen);

#endif
