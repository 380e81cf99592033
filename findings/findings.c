/* Findings computed from result CSVs (findings.h). */
#include "findings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "guidelines.h"
#include "sizes.h"
#include "results.h"

const char *cs_fmt_time(double t, char *buf, size_t len) {
  if (t < 1e-3)
    snprintf(buf, len, "%.3g us", t * 1e6);
  else if (t < 1)
    snprintf(buf, len, "%.3g ms", t * 1e3);
  else
    snprintf(buf, len, "%.3g s", t);
  return buf;
}

/* ---- bench files ------------------------------------------------------------------ */

static int index_of_size(cs_bench_table *tb, long b) {
  for (int i = 0; i < tb->nsizes; i++)
    if (tb->bytes[i] == b) return i;
  if (tb->nsizes == CS_FIND_MAXSIZES) return -1;
  int i = tb->nsizes++;
  while (i > 0 && tb->bytes[i - 1] > b) { /* keep ascending: shift the larger ones */
    tb->bytes[i] = tb->bytes[i - 1];
    for (int a = 0; a < CS_FIND_MAXALGOS; a++) {
      tb->t[a][i] = tb->t[a][i - 1];
      memcpy(tb->ran[a][i], tb->ran[a][i - 1], sizeof tb->ran[a][i]);
    }
    i--;
  }
  tb->bytes[i] = b;
  for (int a = 0; a < CS_FIND_MAXALGOS; a++) {
    tb->t[a][i] = NAN;
    tb->ran[a][i][0] = '\0';
  }
  return i;
}

static int index_of_algo(cs_bench_table *tb, const char *name) {
  for (int a = 0; a < tb->nalgos; a++)
    if (!strcmp(tb->algo[a], name)) return a;
  if (tb->nalgos == CS_FIND_MAXALGOS) return -1;
  int a = tb->nalgos++;
  snprintf(tb->algo[a], sizeof tb->algo[a], "%s", name);
  for (int i = 0; i < CS_FIND_MAXSIZES; i++) tb->t[a][i] = NAN;
  return a;
}

int cs_bench_table_read(const char *path, cs_bench_table *tb, char *err, size_t errlen) {
  memset(tb, 0, sizeof *tb);
  cs_csv_reader r;
  if (cs_csv_open(&r, path)) {
    snprintf(err, errlen, "cannot read %s", path);
    return -1;
  }
  int k, col[CS_BENCH_NCOL], have = 0, rows = 0;
  while ((k = cs_csv_next(&r)) != 0) {
    if (k != 1) continue;
    if (!have) {
      cs_csv_cols(&r, CS_CSV_BENCH, col);
      if (col[CS_BENCH_ALGO] < 0 || col[CS_BENCH_BYTES] < 0 || col[CS_BENCH_MEDIAN] < 0) {
        snprintf(err, errlen, "%s is not a bench CSV (no algo, bytes, median_s columns)", path);
        cs_csv_close(&r);
        return -1;
      }
      have = 1;
    }
    const char *c = cs_csv_get(&r, col[CS_BENCH_COLL]), *a = cs_csv_get(&r, col[CS_BENCH_ALGO]),
               *p = cs_csv_get(&r, col[CS_BENCH_P]), *b = cs_csv_get(&r, col[CS_BENCH_BYTES]),
               *m = cs_csv_get(&r, col[CS_BENCH_MEDIAN]);
    double bv, mv;
    if (!a || !b || !m || cs_csv_number(b, CS_COL_INT, &bv) || cs_csv_number(m, 0, &mv)) continue;
    if (c && !tb->coll[0]) snprintf(tb->coll, sizeof tb->coll, "%s", c);
    if (p && !tb->p) tb->p = atoi(p);
    int ai = index_of_algo(tb, a), si = index_of_size(tb, (long)bv);
    if (ai < 0 || si < 0) continue;
    tb->t[ai][si] = mv; /* a later row of the same case replaces an earlier one */
    const char *ran = cs_csv_get(&r, col[CS_BENCH_RAN]);
    snprintf(tb->ran[ai][si], sizeof tb->ran[ai][si], "%s", ran ? ran : "");
    rows++;
  }
  cs_csv_close(&r);
  if (!rows) {
    snprintf(err, errlen, "%s has no rows", path);
    return -1;
  }
  return 0;
}

/* Fastest and second fastest at size i; the best of each side. */
static void rank_at(const cs_bench_table *tb, int i, cs_band *b) {
  b->size = i;
  b->winner = b->second = b->best_ours = b->best_lib = -1;
  for (int a = 0; a < tb->nalgos; a++) {
    double t = tb->t[a][i];
    if (isnan(t)) continue;
    if (b->winner < 0 || t < tb->t[b->winner][i]) {
      b->second = b->winner;
      b->winner = a;
    } else if (b->second < 0 || t < tb->t[b->second][i]) {
      b->second = a;
    }
    int *best = cs_algo_is_library(tb->algo[a]) ? &b->best_lib : &b->best_ours;
    if (*best < 0 || t < tb->t[*best][i]) *best = a;
  }
  b->t_win = b->winner >= 0 ? tb->t[b->winner][i] : NAN;
  b->t_second = b->second >= 0 ? tb->t[b->second][i] : NAN;
  b->t_ours = b->best_ours >= 0 ? tb->t[b->best_ours][i] : NAN;
  b->t_lib = b->best_lib >= 0 ? tb->t[b->best_lib][i] : NAN;
}

static int timed_count(const cs_bench_table *tb, int i) {
  int n = 0;
  for (int a = 0; a < tb->nalgos; a++) n += !isnan(tb->t[a][i]);
  return n;
}

static void add_anom(cs_bench_findings *f, int kind, int a, int i, int prev, int next,
                     const cs_bench_table *tb) {
  if (f->nanom == CS_FIND_MAXANOM) return;
  cs_anomaly x = {kind, a, i, prev, next, tb->t[a][i], NAN, NAN};
  if (prev >= 0) x.t_prev = tb->t[a][prev];
  if (next >= 0) x.t_next = tb->t[a][next];
  f->anom[f->nanom++] = x;
}

void cs_bench_find(const cs_bench_table *tb, cs_bench_findings *f) {
  memset(f, 0, sizeof *f);
  f->first = f->last = -1;
  for (int i = 0; i < tb->nsizes; i++) {
    if (tb->bytes[i] <= 0 || timed_count(tb, i) < 2) continue;
    if (f->first < 0) f->first = i;
    f->last = i;
  }
  /* Bands: the smallest and largest sizes compared, and the one nearest
   * their geometric mean. */
  if (f->first >= 0) {
    rank_at(tb, f->first, &f->band[f->nband++]);
    if (f->last != f->first) {
      double mid = 0.5 * (log((double)tb->bytes[f->first]) + log((double)tb->bytes[f->last]));
      int best = -1;
      for (int i = f->first + 1; i < f->last; i++) {
        if (tb->bytes[i] <= 0 || timed_count(tb, i) < 2) continue;
        if (best < 0 ||
            fabs(log((double)tb->bytes[i]) - mid) < fabs(log((double)tb->bytes[best]) - mid))
          best = i;
      }
      if (best >= 0) rank_at(tb, best, &f->band[f->nband++]);
      rank_at(tb, f->last, &f->band[f->nband++]);
    }
    /* Winner runs over the sizes compared. */
    for (int i = f->first; i <= f->last; i++) {
      if (tb->bytes[i] <= 0 || timed_count(tb, i) < 2) continue;
      cs_band b;
      rank_at(tb, i, &b);
      if (f->nwin && f->win_algo[f->nwin - 1] == b.winner) {
        f->win_to[f->nwin - 1] = i;
      } else {
        f->win_algo[f->nwin] = b.winner;
        f->win_from[f->nwin] = f->win_to[f->nwin] = i;
        f->nwin++;
      }
    }
  }
  /* Anomalies: cases moving 0 bytes; times far off both neighbours. */
  for (int a = 0; a < tb->nalgos; a++) {
    int prev = -1;
    for (int i = 0; i < tb->nsizes; i++) {
      double t = tb->t[a][i];
      if (isnan(t)) continue;
      if (tb->bytes[i] <= 0) {
        add_anom(f, CS_ANOM_ZERO_BYTES, a, i, -1, -1, tb);
        continue;
      }
      int next = -1;
      for (int j = i + 1; j < tb->nsizes && next < 0; j++)
        if (!isnan(tb->t[a][j])) next = j;
      if (prev >= 0 && next >= 0) {
        double tp = tb->t[a][prev], tn = tb->t[a][next];
        if (t > CS_FIND_SPIKE * tp && t > CS_FIND_SPIKE * tn)
          add_anom(f, CS_ANOM_SPIKE, a, i, prev, next, tb);
        else if (t * CS_FIND_SPIKE < tp && t * CS_FIND_SPIKE < tn)
          add_anom(f, CS_ANOM_DIP, a, i, prev, next, tb);
      }
      prev = i;
    }
  }
}

/* The name of size band k of f: small, medium, large (small, large of two). */
static const char *band_name(const cs_bench_findings *f, int k) {
  static const char *const names[3] = {"small", "medium", "large"};
  return f->nband == 3 ? names[k] : k == 0 ? "small" : "large";
}

void cs_findings_bench_md(FILE *md, const char *machine, const cs_bench_table *tb,
                          const cs_bench_findings *f) {
  char b1[32], b2[32], t1[32], t2[32];
  fprintf(md, "**%s, %s, p = %d** (%d algorithms, %d sizes run: %s .. %s)\n\n", machine, tb->coll,
          tb->p, tb->nalgos, tb->nsizes, cs_size_str((double)tb->bytes[0], b1, sizeof b1),
          cs_size_str((double)tb->bytes[tb->nsizes - 1], b2, sizeof b2));
  if (!f->nband) {
    fprintf(md, "No size has two algorithms timed: nothing to compare.\n\n");
  } else {
    fprintf(md,
            "| size | m | winner | time | runner-up | its time / winner's | best of ours / "
            "best library |\n|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < f->nband; k++) {
      const cs_band *b = &f->band[k];
      fprintf(md, "| %s | %s | %s | %s | ", band_name(f, k),
              cs_size_str((double)tb->bytes[b->size], b1, sizeof b1), tb->algo[b->winner],
              cs_fmt_time(b->t_win, t1, sizeof t1));
      if (b->second >= 0)
        fprintf(md, "%s | %.2fx | ", tb->algo[b->second], b->t_second / b->t_win);
      else
        fprintf(md, "- | - | ");
      if (b->best_ours >= 0 && b->best_lib >= 0)
        fprintf(md, "%s %s, %s %s: %s |\n", tb->algo[b->best_ours],
                cs_fmt_time(b->t_ours, t1, sizeof t1), tb->algo[b->best_lib],
                cs_fmt_time(b->t_lib, t2, sizeof t2),
                b->t_ours <= b->t_lib
                    ? (snprintf(b2, sizeof b2, "ours %.2fx faster", b->t_lib / b->t_ours), b2)
                    : (snprintf(b2, sizeof b2, "library %.2fx faster", b->t_ours / b->t_lib), b2));
      else
        fprintf(md, "- |\n");
    }
    fprintf(md, "\nFastest by size: ");
    for (int k = 0; k < f->nwin; k++) {
      fprintf(md, "%s%s ", k ? "; " : "", tb->algo[f->win_algo[k]]);
      if (f->win_from[k] == f->win_to[k])
        fprintf(md, "at %s", cs_size_str((double)tb->bytes[f->win_from[k]], b1, sizeof b1));
      else
        fprintf(md, "from %s to %s", cs_size_str((double)tb->bytes[f->win_from[k]], b1, sizeof b1),
                cs_size_str((double)tb->bytes[f->win_to[k]], b2, sizeof b2));
    }
    if (f->nwin > 1)
      fprintf(md, " (%d crossover%s).\n\n", f->nwin - 1, f->nwin > 2 ? "s" : "");
    else
      fprintf(md, " (no crossover).\n\n");
  }
  int zero = 0;
  for (int k = 0; k < f->nanom; k++) {
    const cs_anomaly *x = &f->anom[k];
    if (x->kind == CS_ANOM_ZERO_BYTES) {
      zero++;
      continue;
    }
    const char *rp = tb->ran[x->algo][x->prev], *rh = tb->ran[x->algo][x->size],
               *rn = tb->ran[x->algo][x->next];
    /* Explained only when the point's own algorithm is the odd one out: a
     * switch on one side only ("X, against X before") explains nothing. */
    if (rh[0] && rp[0] && rn[0] && strcmp(rh, rp) && strcmp(rh, rn)) {
      fprintf(md,
              "- Anomaly, explained: %s at %s takes %s (%s before, %s after): the algorithm "
              "that ran there is %s, against %s before and %s after.\n",
              tb->algo[x->algo], cs_size_str((double)tb->bytes[x->size], b1, sizeof b1),
              cs_fmt_time(x->t, t1, sizeof t1), cs_fmt_time(x->t_prev, t2, sizeof t2),
              cs_fmt_time(x->t_next, b2, sizeof b2), rh, rp[0] ? rp : "?", rn[0] ? rn : "?");
      continue;
    }
    /* What the reader cannot see in the table: whether the library's choice
     * changed here. Unchanged on the jump's side, the jump is inside the
     * algorithm that ran (its segments or protocol), not the selector's. */
    char why[512];
    if (rh[0] && (!strcmp(rh, rp) || !strcmp(rh, rn)))
      snprintf(why, sizeof why,
               "the library ran %s here and at the size %s too, so its selector's choice "
               "does not explain it: the jump is inside %s (a change of segment size or "
               "protocol with m), or a measurement artefact",
               rh,
               !strcmp(rh, rp) && !strcmp(rh, rn) ? "before and after"
               : !strcmp(rh, rp)                  ? "before"
                                                  : "after",
               rh);
    else
      snprintf(why, sizeof why,
               "times grow with size, so this point is suspect (a change of algorithm or "
               "protocol inside the library, or a measurement artefact)");
    fprintf(md,
            "- Anomaly: %s at %s takes %s, %.1fx %s its neighbours (%s before, %s after); "
            "%s.\n",
            tb->algo[x->algo], cs_size_str((double)tb->bytes[x->size], b1, sizeof b1),
            cs_fmt_time(x->t, t1, sizeof t1),
            x->kind == CS_ANOM_SPIKE ? x->t / fmax(x->t_prev, x->t_next)
                                     : fmin(x->t_prev, x->t_next) / x->t,
            x->kind == CS_ANOM_SPIKE ? "above" : "below", cs_fmt_time(x->t_prev, t2, sizeof t2),
            cs_fmt_time(x->t_next, b2, sizeof b2), why);
  }
  if (zero)
    fprintf(md,
            "- %d case%s moved 0 bytes (block collectives use p blocks of floor(m/p) bytes: "
            "m < p gives empty blocks); their times only measure synchronisation and are left "
            "out of the comparison above.\n",
            zero, zero > 1 ? "s" : "");
  if (zero || f->nanom > zero) fprintf(md, "\n");
}

/* ---- guidelines files ------------------------------------------------------------- */

static double gl_severity(double ratio) { return ratio > 0 && ratio < 1 ? 1 / ratio : ratio; }

int cs_gl_find(const char *path, cs_gl_findings *g, char *err, size_t errlen) {
  memset(g, 0, sizeof *g);
  cs_csv_reader r;
  if (cs_csv_open(&r, path)) {
    snprintf(err, errlen, "cannot read %s", path);
    return -1;
  }
  int k, col[CS_GUIDE_NCOL], have = 0;
  while ((k = cs_csv_next(&r)) != 0) {
    if (k != 1) continue;
    if (!have) cs_csv_cols(&r, CS_CSV_GUIDELINES, col);
    have = 1;
    const char *id = cs_csv_get(&r, col[CS_GUIDE_ID]), *side = cs_csv_get(&r, col[CS_GUIDE_SIDE]),
               *v = cs_csv_get(&r, col[CS_GUIDE_VIOLATED]),
               *ra = cs_csv_get(&r, col[CS_GUIDE_RATIO]), *b = cs_csv_get(&r, col[CS_GUIDE_BYTES]);
    if (!id || !v || !ra || !b) continue;
    if (!side) side = "";
    int s = 0;
    while (s < g->nsides && strcmp(g->side[s], side)) s++;
    if (s == g->nsides) {
      if (g->nsides == CS_FIND_MAXSIDES) continue;
      snprintf(g->side[g->nsides++], sizeof g->side[0], "%s", side);
    }
    g->compared[s]++;
    if (atoi(v) != 1) continue;
    g->violated[s]++;
    double ratio = atof(ra);
    /* Keep the CS_FIND_WORST worst, worst first: the ratio's distance from
     * 1 either way (an approximate guideline "~" is violated by a ratio far
     * below 1 too). */
    int n = g->nworst[s], at = n;
    while (at > 0 && gl_severity(g->worst[s][at - 1].ratio) < gl_severity(ratio)) at--;
    if (at >= CS_FIND_WORST) continue;
    if (n < CS_FIND_WORST) g->nworst[s]++;
    for (int j = g->nworst[s] - 1; j > at; j--) g->worst[s][j] = g->worst[s][j - 1];
    snprintf(g->worst[s][at].id, sizeof g->worst[s][at].id, "%s", id);
    g->worst[s][at].bytes = atol(b);
    g->worst[s][at].ratio = ratio;
  }
  cs_csv_close(&r);
  if (!have) {
    snprintf(err, errlen, "%s has no rows", path);
    return -1;
  }
  return 0;
}

void cs_findings_gl_md(FILE *md, const char *machine, const cs_gl_findings *g) {
  char b[32];
  for (int s = 0; s < g->nsides; s++) {
    fprintf(md, "- %s%s%s: %d of %d comparisons violated", machine ? machine : "",
            machine ? ", side " : "side ", g->side[s], g->violated[s], g->compared[s]);
    for (int k = 0; k < g->nworst[s]; k++)
      fprintf(md, "%s%s at %s (ratio %.2f)",
              k ? "; " : "; worst: ", cs_guideline_desc(g->worst[s][k].id),
              cs_size_str((double)g->worst[s][k].bytes, b, sizeof b), g->worst[s][k].ratio);
    fprintf(md, "\n");
  }
}

void cs_findings_summary_md(FILE *md, const char *const *bench, const char *const *bench_machine,
                            int nbench, const char *const *gl, const char *const *gl_machine,
                            int ngl) {
  static cs_bench_table tb;
  static cs_bench_findings fi;
  char err[4400];
  fprintf(md,
          "## Summary\n\nComputed from the CSV files below (median times; \"ours\" are "
          "collsim's algorithms, \"library\" native, native:NAME and lib:SELECTOR). Small, "
          "medium and large are the smallest size compared, the one nearest their geometric "
          "mean and the largest.\n\n");
  for (int i = 0; i < nbench; i++) {
    if (cs_bench_table_read(bench[i], &tb, err, sizeof err)) {
      fprintf(md, "- %s: %s\n\n", bench_machine[i], err);
      continue;
    }
    cs_bench_find(&tb, &fi);
    cs_findings_bench_md(md, bench_machine[i], &tb, &fi);
  }
  if (ngl) fprintf(md, "Performance guidelines (tolerance as in each file):\n\n");
  for (int i = 0; i < ngl; i++) {
    cs_gl_findings g;
    if (cs_gl_find(gl[i], &g, err, sizeof err))
      fprintf(md, "- %s: %s\n", gl_machine[i], err);
    else
      cs_findings_gl_md(md, gl_machine[i], &g);
  }
  if (ngl) fprintf(md, "\n");
}

/* ---- the paper's claims ---------------------------------------------------------- */

const cs_claim cs_claims[] = {
#define CS_CLAIM(fig, kinds, config, libs, coll, ours, lo, hi, quote, note) \
  {fig, kinds, config, libs, coll, ours, lo, hi, quote, note},
#include "claims.def"
#undef CS_CLAIM
};
const int cs_nclaims = sizeof cs_claims / sizeof cs_claims[0];

/* "circulant 1.2 .. 2x faster" or "circulant 1x faster or more", then end. */
static void claim_range(FILE *f, const cs_claim *cl, const char *end) {
  fprintf(f, "%s %.3g", cl->ours, cl->lo);
  if (cl->hi > 0)
    fprintf(f, " .. %.3gx faster%s", cl->hi, end);
  else
    fprintf(f, "x faster or more%s", end);
}

void cs_claims_print(FILE *f) {
  for (int c = 0; c < cs_nclaims; c++) {
    const cs_claim *cl = &cs_claims[c];
    fprintf(f, "%s, %s, %s, %s: ", cl->figure, cl->config, cl->libs, cl->coll);
    claim_range(f, cl, "");
    fprintf(f, ": \"%s\"\n", cl->quote);
  }
}

int cs_word_in(const char *list, const char *w) {
  size_t n = strlen(w);
  for (const char *s = list; (s = strstr(s, w)); s += n)
    if ((s == list || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0')) return 1;
  return 0;
}

void cs_findings_claims_md(FILE *md, const char *machine, const char *kind,
                           const cs_bench_table *tb, const cs_bench_findings *f) {
  int lib[CS_FIND_MAXALGOS], ours[CS_FIND_MAXALGOS], nl = 0, no = 0;
  for (int a = 0; a < tb->nalgos; a++) {
    if (cs_algo_is_library(tb->algo[a]))
      lib[nl++] = a;
    else
      ours[no++] = a;
  }
  if (!nl || !no || !f->nband) return;
  char b1[32];
  fprintf(md,
          "**%s, %s, p = %d: our algorithms against each library selector** (speedup = "
          "library time / ours; > 1: ours faster)\n\n| library | size | m | algorithm it ran |",
          machine, tb->coll, tb->p);
  for (int o = 0; o < no; o++) fprintf(md, " %s |", tb->algo[ours[o]]);
  fprintf(md, "\n|---|---|---|---|");
  for (int o = 0; o < no; o++) fprintf(md, "---|");
  fprintf(md, "\n");
  for (int l = 0; l < nl; l++)
    for (int k = 0; k < f->nband; k++) {
      int i = f->band[k].size, a = lib[l];
      fprintf(md, "| %s | %s | %s | %s |", tb->algo[a], band_name(f, k),
              cs_size_str((double)tb->bytes[i], b1, sizeof b1),
              tb->ran[a][i][0] ? tb->ran[a][i] : "not named");
      for (int o = 0; o < no; o++) {
        double s = tb->t[a][i] / tb->t[ours[o]][i];
        if (isnan(s))
          fprintf(md, " - |");
        else
          fprintf(md, " %.2fx |", s);
      }
      fprintf(md, "\n");
    }
  fprintf(md, "\n");
  int any = 0, differs = 0;
  for (int c = 0; c < cs_nclaims; c++) {
    const cs_claim *cl = &cs_claims[c];
    if (!cs_word_in(cl->kinds, kind) || strcmp(cl->coll, tb->coll)) continue;
    int us = -1;
    for (int o = 0; o < no; o++)
      if (!strcmp(tb->algo[ours[o]], cl->ours)) us = ours[o];
    any = 1;
    fprintf(md, "- Paper, %s (%s; %s): \"%s\" Read as: ", cl->figure, cl->config, cl->libs,
            cl->quote);
    claim_range(md, cl, ".");
    fprintf(md, " Here: %s, p = %d (%s).\n", machine, tb->p, cl->note);
    if (us < 0) {
      fprintf(md, "  - %s was not run here: nothing to compare.\n", cl->ours);
      continue;
    }
    for (int l = 0; l < nl; l++) {
      int a = lib[l];
      if (!cs_word_in(cl->libs, tb->algo[a])) continue;
      double lo = INFINITY, hi = 0;
      int off = 0, n = 0;
      char why[1024] = "";
      size_t w = 0;
      for (int k = 0; k < f->nband; k++) {
        int i = f->band[k].size;
        double s = tb->t[a][i] / tb->t[us][i];
        if (isnan(s)) continue;
        n++;
        lo = fmin(lo, s);
        hi = fmax(hi, s);
        if (s < cl->lo || (cl->hi > 0 && s > cl->hi)) {
          off++;
          if (w < sizeof why)
            w += (size_t)snprintf(why + w, sizeof why - w, "%s%s (%s) %.2fx with %s", w ? "; " : "",
                                  band_name(f, k), cs_size_str((double)tb->bytes[i], b1, sizeof b1),
                                  s, tb->ran[a][i][0] ? tb->ran[a][i] : "an unnamed algorithm");
        }
      }
      if (!n) continue;
      fprintf(md, "  - %s: %s is %.2f .. %.2fx faster over the %d sizes: %s", tb->algo[a], cl->ours,
              lo, hi, n,
              !off       ? "the simulation agrees.\n"
              : off == n ? "the simulation does not agree"
                         : "the simulation agrees in part");
      if (off) fprintf(md, " (outside the claim: %s).\n", why);
      differs += off > 0;
    }
  }
  if (differs)
    fprintf(md,
            "- Why the simulation differs where it does: the simulated library runs the algorithm "
            "named beside each size (SMPI 3.32's reproduction of the library's rules, not the "
            "library the paper measured); its reductions are charged gamma per byte as ours are, "
            "but its copies are neither charged nor counted (SMPI makes them inside the call), "
            "while ours pay gamma per byte for every copy; and this platform is a model of the "
            "machine, not the machine.\n");
  if (!any)
    fprintf(md, "- The paper makes no claim about %s on a machine like %s (%s).\n", tb->coll,
            machine, kind);
  fprintf(md, "\n");
}
