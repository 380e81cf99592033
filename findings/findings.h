/* Findings: what a set of results says, computed from the CSV files (pure C,
 * part of collsim_analysis). The reports (collsim demo's report.md, the
 * guidelines' violations.md) open with these numbers instead of only
 * linking pictures:
 *  - per bench file (one machine, one collective): the winner at a small, a
 *    medium and a large size and by how much (over the runner-up, and the
 *    best of collsim's algorithms over the best library algorithm), the
 *    sizes where the winner changes (crossovers), and anomalies: a time far
 *    off both neighbours in size, times of cases that move 0 bytes;
 *  - per guidelines file: violations per side and the worst of them.
 * Everything is derived from the rows: any set of algorithms or selectors
 * works, sizes are those run. tests/test_findings.c holds the numbers to a
 * CSV written for the test. */
#ifndef COLLSIM_FINDINGS_H
#define COLLSIM_FINDINGS_H

#include <stddef.h>
#include <stdio.h>

#define CS_FIND_MAXALGOS 32
#define CS_FIND_MAXSIZES 64
#define CS_FIND_MAXANOM  64
/* A time is an anomaly when it is more than CS_FIND_SPIKE times both of its
 * neighbours in size (a spike) or less than 1 / CS_FIND_SPIKE of both (a
 * dip): collective times grow with the size, by at most the size ratio. */
#define CS_FIND_SPIKE 2.0

/* A bench CSV as a table: the algorithms in the order of their first row,
 * the sizes (the bytes column: what the case moved) ascending, the median
 * time of each, NAN where a case was not run. */
typedef struct {
  char coll[32];
  int p;
  int nalgos, nsizes;
  char algo[CS_FIND_MAXALGOS][64];
  long bytes[CS_FIND_MAXSIZES];
  double t[CS_FIND_MAXALGOS][CS_FIND_MAXSIZES];
  /* The algorithm that really ran (a library row: the one SMPI's selector
   * chose), from the store's algo_ran column where the file has it; "". */
  char ran[CS_FIND_MAXALGOS][CS_FIND_MAXSIZES][40];
} cs_bench_table;

/* Reads a bench CSV (store/results.h); 0, or -1 with a reason in err. */
int cs_bench_table_read(const char *path, cs_bench_table *tb, char *err, size_t errlen);

typedef struct {
  int size;           /* index into the table's sizes */
  int winner, second; /* algorithm indices; second -1 if one algorithm ran */
  double t_win, t_second;
  int best_ours, best_lib; /* -1 if that side did not run */
  double t_ours, t_lib;    /* their times */
} cs_band;

enum { CS_ANOM_SPIKE = 1, CS_ANOM_DIP, CS_ANOM_ZERO_BYTES };

typedef struct {
  int kind, algo, size;
  int prev, next;           /* the neighbours' size indices (spike, dip), else -1 */
  double t, t_prev, t_next; /* their times */
} cs_anomaly;

typedef struct {
  int nband; /* 3 (small, medium, large), fewer if fewer sizes were run */
  cs_band band[3];
  /* The winner over the sizes, as runs: algorithm win_algo[k] is fastest
   * from size win_from[k] to win_to[k] (indices); a crossover lies between
   * win_to[k] and win_from[k + 1]. */
  int nwin;
  int win_algo[CS_FIND_MAXSIZES], win_from[CS_FIND_MAXSIZES], win_to[CS_FIND_MAXSIZES];
  int nanom;
  cs_anomaly anom[CS_FIND_MAXANOM];
  int first, last; /* the sizes compared: > 0 bytes, two or more algorithms timed */
} cs_bench_findings;

/* The findings of a table. Sizes moving 0 bytes are reported as anomalies and
 * left out of winners and bands. */
void cs_bench_find(const cs_bench_table *tb, cs_bench_findings *f);

/* Writes the findings of one bench file as Markdown: a table of the three
 * bands, a line of crossovers and the anomalies; machine names the platform. */
void cs_findings_bench_md(FILE *md, const char *machine, const cs_bench_table *tb,
                          const cs_bench_findings *f);

/* A guidelines CSV: comparisons and violations per side, the worst
 * violations per side (ratio farthest from 1, either way: "~" guidelines
 * are violated by ratios far below 1 too). */
#define CS_FIND_MAXSIDES 4
#define CS_FIND_WORST    3
typedef struct {
  int nsides;
  char side[CS_FIND_MAXSIDES][64];
  int compared[CS_FIND_MAXSIDES], violated[CS_FIND_MAXSIDES];
  int nworst[CS_FIND_MAXSIDES];
  struct {
    char id[32];
    long bytes;
    double ratio;
  } worst[CS_FIND_MAXSIDES][CS_FIND_WORST];
} cs_gl_findings;
int cs_gl_find(const char *path, cs_gl_findings *g, char *err, size_t errlen);
/* Markdown: one line per side ("lib: 4 of 30 comparisons violated; worst
 * ..."), guidelines named by their description. */
void cs_findings_gl_md(FILE *md, const char *machine, const cs_gl_findings *g);

/* The summary a report opens with: for each bench file (machine[i] names
 * its platform) the findings above, then for each guidelines file its
 * violations; files that cannot be read are named as such. */
void cs_findings_summary_md(FILE *md, const char *const *bench, const char *const *bench_machine,
                            int nbench, const char *const *gl, const char *const *gl_machine,
                            int ngl);

/* The circulant paper's claims about MPI libraries (claims.def, the one
 * place they are written). */
typedef struct {
  const char *figure, *kinds, *config, *libs, *coll, *ours;
  double lo, hi; /* the claimed speedup of ours over the library; hi 0: unbounded */
  const char *quote, *note;
} cs_claim;
extern const cs_claim cs_claims[];
extern const int cs_nclaims;

/* One line per claim: figure, configuration, libraries, collective, the
 * claimed speedup of ours over the library, the quote. */
void cs_claims_print(FILE *f);

/* 1 iff word w is one of the space-separated words of list. */
int cs_word_in(const char *list, const char *w);

/* Writes, for a bench table on a machine of `collsim platform` kind `kind`
 * (e.g. hydra, abg), the speedup of each of collsim's algorithms over each
 * library row at the small, medium and large sizes of f (library time /
 * ours, with the algorithm the library ran), then each claim of the paper
 * made for that kind and collective, with a sentence saying whether the
 * simulation agrees and, where not, at which sizes, which library algorithm
 * ran there and what each side is charged. Nothing when no library row
 * ran. */
void cs_findings_claims_md(FILE *md, const char *machine, const char *kind,
                           const cs_bench_table *tb, const cs_bench_findings *f);

/* "12.3 us", "4.56 ms", "1.23 s". */
const char *cs_fmt_time(double t, char *buf, size_t len);

#endif
