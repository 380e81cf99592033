/* The winners of a fastest-algorithm map as tuning files (tuning.h,
 * docs/tuning.md): collsim's table, Open MPI's dynamic rules (classic and
 * JSON) and MPICH's selection JSON. Every format is written from the same
 * ranges (cs_tuning_ranges), so all of them choose the same algorithm for
 * every (p, m); tests/test_tuning.c evaluates each file the way its library
 * does and holds them to that. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../store/results.h"
#include "tuning.h"

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, len, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- the targets' names (targets.def) ------------------------------------- */

typedef struct {
  cs_coll coll;
  int id;
  const char *json;
  int per_process;
} ompi_coll;
static const ompi_coll ompi_colls[] = {
#define CS_OMPI_COLL(c, id, json, pp) {CS_##c, id, json, pp},
#include "targets.def"
#undef CS_OMPI_COLL
};
typedef struct {
  cs_coll coll;
  const char *winner;
  int id;
  const char *name;
} ompi_alg;
static const ompi_alg ompi_algs[] = {
#define CS_OMPI(c, w, id, name) {CS_##c, w, id, name},
#include "targets.def"
#undef CS_OMPI
};
typedef struct {
  cs_coll coll;
  const char *size_key, *inter;
} mpich_coll;
static const mpich_coll mpich_colls[] = {
#define CS_MPICH_COLL(c, key, inter) {CS_##c, key, inter},
#include "targets.def"
#undef CS_MPICH_COLL
};
typedef struct {
  cs_coll coll;
  const char *winner, *name;
} mpich_alg;
static const mpich_alg mpich_algs[] = {
#define CS_MPICH(c, w, name) {CS_##c, w, name},
#include "targets.def"
#undef CS_MPICH
};
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

int cs_tuning_ompi_alg(cs_coll c, const char *winner) {
  for (int i = 0; i < N(ompi_algs); i++)
    if (ompi_algs[i].coll == c && !strcmp(ompi_algs[i].winner, winner)) return ompi_algs[i].id;
  return -1;
}

const char *cs_tuning_mpich_alg(cs_coll c, const char *winner) {
  for (int i = 0; i < N(mpich_algs); i++)
    if (mpich_algs[i].coll == c && !strcmp(mpich_algs[i].winner, winner)) return mpich_algs[i].name;
  return NULL;
}

int cs_tuning_ompi_coll(cs_coll c, const char **json, int *per_process) {
  for (int i = 0; i < N(ompi_colls); i++)
    if (ompi_colls[i].coll == c) {
      *json = ompi_colls[i].json;
      *per_process = ompi_colls[i].per_process;
      return ompi_colls[i].id;
    }
  return -1;
}

/* ---- winners -> ranges ------------------------------------------------------ */

typedef struct {
  int coll;
  long long p, bytes;
  char winner[64];
  long line;
} point;

static int cmp_point(const void *a, const void *b) {
  const point *x = a, *y = b;
  if (x->coll != y->coll) return x->coll < y->coll ? -1 : 1;
  if (x->p != y->p) return x->p < y->p ? -1 : 1;
  if (x->bytes != y->bytes) return x->bytes < y->bytes ? -1 : 1;
  return 0;
}

/* Where the range of grid point a ends and that of the next grid point b >
 * a begins: the geometric midpoint, the smallest x > a with x^2 >= a b (a
 * size between two grid points goes to the nearer one in log scale). */
static long long boundary(long long a, long long b) {
  unsigned __int128 ab = (unsigned __int128)a * (unsigned __int128)b;
  long long lo = a + 1, hi = b; /* x in [a+1, b]: hi*hi >= ab always */
  while (lo < hi) {
    long long mid = lo + (hi - lo) / 2;
    if ((unsigned __int128)mid * (unsigned __int128)mid >= ab)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/* A number field of the winners file: a non-negative integer. */
static int int_field(const char *s, long long *v) {
  double x;
  if (!s || cs_csv_number(s, CS_COL_INT, &x) || x > 9e18) return -1;
  *v = (long long)x;
  return 0;
}

/* The byte segments of one p: [seg_lo[k], next seg_lo - 1] won by seg_w[k]. */
typedef struct {
  int n;
  long long *lo;
  const char **w;
} segs;

static int segs_equal(const segs *a, const segs *b) {
  if (a->n != b->n) return 0;
  for (int k = 0; k < a->n; k++)
    if (a->lo[k] != b->lo[k] || strcmp(a->w[k], b->w[k])) return 0;
  return 1;
}

int cs_tuning_ranges(const char *winners_csv, cs_tuning_rule **out, char *err, size_t errlen) {
  *out = NULL;
  cs_csv_reader *r = calloc(1, sizeof *r);
  if (!r) return fail(err, errlen, "out of memory");
  if (cs_csv_open(r, winners_csv)) {
    free(r);
    return fail(err, errlen, "%s: cannot read: %s", winners_csv, strerror(errno));
  }
  point *pts = NULL;
  int npts = 0, cap = 0, rc = 0;
  int ccoll = -1, cp = -1, cb = -1, cw = -1;
  int kind;
  while (rc == 0 && (kind = cs_csv_next(r)) != 0) {
    if (kind != 1) continue;
    if (ccoll < 0) {
      ccoll = cs_csv_col(r, "coll");
      cp = cs_csv_col(r, "p");
      cb = cs_csv_col(r, "bytes");
      cw = cs_csv_col(r, "winner");
      if (ccoll < 0 || cp < 0 || cb < 0 || cw < 0) {
        rc = fail(err, errlen,
                  "%s: not a winners file: its header '%s' lacks coll, p, bytes or winner (the "
                  "map's winners CSV: coll,p,bytes,winner,winner_s,runner_up,runner_up_s,ratio)",
                  winners_csv, r->hdrline);
        break;
      }
    }
    if (npts == cap) {
      cap = cap ? 2 * cap : 256;
      point *np = realloc(pts, (size_t)cap * sizeof *np);
      if (!np) {
        rc = fail(err, errlen, "out of memory");
        break;
      }
      pts = np;
    }
    point *pt = &pts[npts];
    pt->line = r->lineno;
    const char *cs = cs_csv_get(r, ccoll), *ws = cs_csv_get(r, cw);
    pt->coll = cs ? cs_coll_by_name(cs) : -1;
    if (pt->coll < 0) {
      rc = fail(err, errlen, "%s:%ld: unknown collective '%s'", winners_csv, r->lineno,
                cs ? cs : "");
    } else if (int_field(cs_csv_get(r, cp), &pt->p) || pt->p < 1) {
      rc = fail(err, errlen, "%s:%ld: p '%s' is not a process count (an integer >= 1)", winners_csv,
                r->lineno, cs_csv_get(r, cp) ? cs_csv_get(r, cp) : "");
    } else if (int_field(cs_csv_get(r, cb), &pt->bytes)) {
      rc = fail(err, errlen, "%s:%ld: bytes '%s' is not a size in bytes (an integer >= 0)",
                winners_csv, r->lineno, cs_csv_get(r, cb) ? cs_csv_get(r, cb) : "");
    } else if (!ws || !*ws || strlen(ws) >= sizeof pt->winner) {
      rc = fail(err, errlen, "%s:%ld: no winner (or a name longer than %d characters)", winners_csv,
                r->lineno, (int)sizeof pt->winner - 1);
    } else {
      snprintf(pt->winner, sizeof pt->winner, "%s", ws);
      npts++;
    }
  }
  cs_csv_close(r);
  free(r);
  if (rc == 0 && npts == 0)
    rc =
        fail(err, errlen, "%s: no winners (a header and at least one row are needed)", winners_csv);
  if (rc) {
    free(pts);
    return -1;
  }
  qsort(pts, (size_t)npts, sizeof *pts, cmp_point);
  for (int i = 1; i < npts; i++)
    if (!cmp_point(&pts[i - 1], &pts[i])) {
      fail(err, errlen, "%s:%ld: a second row for %s p=%lld bytes=%lld (line %ld)", winners_csv,
           pts[i].line, cs_colls[pts[i].coll].name, pts[i].p, pts[i].bytes, pts[i - 1].line);
      free(pts);
      return -1;
    }

  /* Per collective, per p: segments; then p ranges with equal segments
   * merged. At most npts segments and npts rules in all. */
  cs_tuning_rule *rules = calloc((size_t)npts, sizeof *rules);
  long long *lo = calloc((size_t)npts, sizeof *lo);
  const char **w = calloc((size_t)npts, sizeof *w);
  segs *ps = calloc((size_t)npts, sizeof *ps);
  long long *pv = calloc((size_t)npts, sizeof *pv);
  int nrules = 0;
  if (!rules || !lo || !w || !ps || !pv) {
    rc = fail(err, errlen, "out of memory");
    goto done;
  }
  for (int i = 0; i < npts;) {
    int c = pts[i].coll, np = 0, used = 0;
    while (i < npts && pts[i].coll == c) { /* one p */
      int j = i;
      segs *s = &ps[np];
      s->lo = lo + used;
      s->w = w + used;
      s->n = 0;
      pv[np] = pts[i].p;
      for (; j < npts && pts[j].coll == c && pts[j].p == pts[i].p; j++) {
        long long start = j == i ? 0 : boundary(pts[j - 1].bytes, pts[j].bytes);
        if (s->n && !strcmp(s->w[s->n - 1], pts[j].winner)) continue;
        s->lo[s->n] = start;
        s->w[s->n] = pts[j].winner;
        s->n++;
      }
      used += s->n;
      np++;
      i = j;
    }
    for (int a = 0; a < np;) {
      int b = a + 1;
      while (b < np && segs_equal(&ps[a], &ps[b])) b++;
      long long p_lo = a == 0 ? 1 : boundary(pv[a - 1], pv[a]);
      long long p_hi = b == np ? CS_TUNING_INF : boundary(pv[b - 1], pv[b]) - 1;
      for (int k = 0; k < ps[a].n; k++) {
        cs_tuning_rule *ru = &rules[nrules++];
        ru->coll = (cs_coll)c;
        ru->p_lo = p_lo;
        ru->p_hi = p_hi;
        ru->b_lo = ps[a].lo[k];
        ru->b_hi = k + 1 < ps[a].n ? ps[a].lo[k + 1] - 1 : CS_TUNING_INF;
        snprintf(ru->algo, sizeof ru->algo, "%s", ps[a].w[k]);
      }
      a = b;
    }
  }
done:
  free(lo);
  free(w);
  free(ps);
  free(pv);
  free(pts);
  if (rc) {
    free(rules);
    return -1;
  }
  *out = rules;
  return nrules;
}

/* ---- writing ------------------------------------------------------------------ */

static void range_txt(char *buf, size_t len, long long lo, long long hi) {
  if (hi == CS_TUNING_INF)
    snprintf(buf, len, ">= %lld", lo);
  else
    snprintf(buf, len, "%lld..%lld", lo, hi);
}

/* The error for a winner the target cannot run: names it and what maps. */
static int no_counterpart(char *err, size_t errlen, const cs_tuning_rule *ru, const char *target,
                          int ompi) {
  char ok[1024] = "", pr[64], br[64];
  int n = ompi ? N(ompi_algs) : N(mpich_algs);
  for (int i = 0; i < n; i++) {
    cs_coll c = ompi ? ompi_algs[i].coll : mpich_algs[i].coll;
    if (c != ru->coll) continue;
    size_t l = strlen(ok);
    snprintf(ok + l, sizeof ok - l, "%s%s", l ? ", " : "",
             ompi ? ompi_algs[i].winner : mpich_algs[i].winner);
  }
  range_txt(pr, sizeof pr, ru->p_lo, ru->p_hi);
  range_txt(br, sizeof br, ru->b_lo, ru->b_hi);
  return fail(err, errlen,
              "%s: the winner '%s' of %s at p %s, bytes %s has no %s counterpart (candidates "
              "that map: %s; docs/tuning.md); map only those candidates for this target",
              target, ru->algo, cs_colls[ru->coll].name, pr, br, target,
              *ok ? ok : "none: the target has no rules for this collective");
}

static const ompi_coll *ompi_coll_of(cs_coll c) {
  for (int i = 0; i < N(ompi_colls); i++)
    if (ompi_colls[i].coll == c) return &ompi_colls[i];
  return NULL;
}
static const ompi_alg *ompi_alg_of(const cs_tuning_rule *ru) {
  for (int i = 0; i < N(ompi_algs); i++)
    if (ompi_algs[i].coll == ru->coll && !strcmp(ompi_algs[i].winner, ru->algo))
      return &ompi_algs[i];
  return NULL;
}
static const mpich_coll *mpich_coll_of(cs_coll c) {
  for (int i = 0; i < N(mpich_colls); i++)
    if (mpich_colls[i].coll == c) return &mpich_colls[i];
  return NULL;
}
static const char *mpich_alg_of(const cs_tuning_rule *ru) {
  return cs_tuning_mpich_alg(ru->coll, ru->algo);
}

/* Open MPI's message size threshold for a range starting at b_lo (bytes m)
 * of a p range starting at p_lo: m, or m / p rounded up where coll/tuned
 * sizes per process (allgatherv; exact only for a range of one p, which
 * check_ompi demands). */
static long long ompi_size(const ompi_coll *oc, long long b, long long p) {
  return oc->per_process ? (b + p - 1) / p : b;
}

/* Checks that every rule maps to Open MPI; the per-process sizing of
 * allgatherv holds a threshold for one p only. */
static int check_ompi(const cs_tuning_rule *ru, int n, char *err, size_t errlen) {
  for (int i = 0; i < n; i++) {
    const ompi_coll *oc = ompi_coll_of(ru[i].coll);
    if (!oc) return no_counterpart(err, errlen, &ru[i], "Open MPI", 1);
    if (!ompi_alg_of(&ru[i])) return no_counterpart(err, errlen, &ru[i], "Open MPI", 1);
    if (oc->per_process && ru[i].b_lo > 0 && ru[i].p_hi != ru[i].p_lo)
      return fail(err, errlen,
                  "Open MPI: %s has a size threshold (%lld bytes) over a range of process "
                  "counts (p >= %lld), but coll/tuned compares m / p for %s, so one threshold "
                  "holds for one p only; map %s at the process counts you run",
                  cs_colls[ru[i].coll].name, ru[i].b_lo, ru[i].p_lo, cs_colls[ru[i].coll].name,
                  cs_colls[ru[i].coll].name);
  }
  return 0;
}

static void header(FILE *f, const char *lead, const char *winners, const char *what) {
  fprintf(f,
          "%s %s, written by collsim from the winners in %s (docs/tuning.md).\n"
          "%s A size between two grid points of the map goes to the nearer one in log scale\n"
          "%s (threshold: the geometric midpoint); below the first point and above the last,\n"
          "%s the first and last point's winner holds.\n",
          lead, what, winners, lead, lead, lead);
}

static void write_collsim(FILE *f, const char *winners, const cs_tuning_rule *ru, int n) {
  header(f, "#", winners, "collsim tuning table: COLLSIM_TUNING=FILE for libcollsim-pmpi.so");
  fprintf(f, "collsim-tuning 1\n# collective p_min p_max bytes_min bytes_max algorithm\n");
  for (int i = 0; i < n; i++) {
    const char *a = ru[i].algo;
    int lib = !strcmp(a, "native") || !strncmp(a, "lib:", 4);
    fprintf(f, "%s %lld ", cs_colls[ru[i].coll].name, ru[i].p_lo);
    ru[i].p_hi == CS_TUNING_INF ? fprintf(f, "inf ") : fprintf(f, "%lld ", ru[i].p_hi);
    fprintf(f, "%lld ", ru[i].b_lo);
    ru[i].b_hi == CS_TUNING_INF ? fprintf(f, "inf ") : fprintf(f, "%lld ", ru[i].b_hi);
    if (lib)
      fprintf(f, "native  # the map's winner: %s (the library's own)\n", a);
    else
      fprintf(f, "%s\n", a);
  }
}

static int check_collsim(const cs_tuning_rule *ru, int n, char *err, size_t errlen) {
  for (int i = 0; i < n; i++) {
    const char *a = ru[i].algo;
    if (!strcmp(a, "native") || !strncmp(a, "lib:", 4)) continue;
    const cs_algo_info *info = cs_algo_find(ru[i].coll, a);
    if (!info || strchr(a, ':') ||
        (cs_colls[ru[i].coll].size_from == CS_SZ_ROOT &&
         (ru[i].b_lo || ru[i].b_hi != CS_TUNING_INF))) {
      char pr[64], br[64];
      range_txt(pr, sizeof pr, ru[i].p_lo, ru[i].p_hi);
      range_txt(br, sizeof br, ru[i].b_lo, ru[i].b_hi);
      if (info && !strchr(a, ':'))
        return fail(err, errlen,
                    "collsim: %s has size thresholds, but only the root knows the size of a %s "
                    "call, so the processes could not agree; map one size for %s",
                    cs_colls[ru[i].coll].name, cs_colls[ru[i].coll].name,
                    cs_colls[ru[i].coll].name);
      return fail(err, errlen,
                  "collsim: the winner '%s' of %s at p %s, bytes %s is not an algorithm the "
                  "PMPI library can run (collsim's registry names, native and lib:SEL for the "
                  "library's own; native:NAME is an SMPI algorithm: emit ompi-rules or "
                  "mpich-json for it)",
                  a, cs_colls[ru[i].coll].name, pr, br);
    }
  }
  return 0;
}

static void write_ompi_rules(FILE *f, const char *winners, const cs_tuning_rule *ru, int n) {
  header(f, "#", winners,
         "Open MPI coll/tuned dynamic rules, classic format (Open MPI 4.1; 5.x and 6.0 read it "
         "too)");
  fprintf(f,
          "# use: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca "
          "coll_tuned_dynamic_rules_filename FILE\n"
          "# Open MPI reads numbers only; '#' starts a comment. Per collective: its id, the\n"
          "# number of communicator sizes; per size: the smallest p it holds, the number of\n"
          "# message sizes; per message size: the smallest size (Open MPI's convention), the\n"
          "# algorithm id, fan-in/out and segment size (0: the algorithm's default).\n");
  int ncoll = 0;
  for (int i = 0; i < n; i++) ncoll += i == 0 || ru[i].coll != ru[i - 1].coll;
  fprintf(f, "%d # collectives\n", ncoll);
  for (int i = 0; i < n;) {
    const ompi_coll *oc = ompi_coll_of(ru[i].coll);
    int end = i, ncs = 0;
    while (end < n && ru[end].coll == ru[i].coll) {
      ncs += end == i || ru[end].p_lo != ru[end - 1].p_lo;
      end++;
    }
    fprintf(f, "%d # collective id: %s\n%d # communicator sizes\n", oc->id,
            cs_colls[ru[i].coll].name, ncs);
    for (int a = i; a < end;) {
      int b = a;
      while (b < end && ru[b].p_lo == ru[a].p_lo) b++;
      char pr[64];
      range_txt(pr, sizeof pr, ru[a].p_lo, ru[a].p_hi);
      fprintf(f, "%lld # comm size: p %s\n%d # message sizes\n", ru[a].p_lo, pr, b - a);
      for (int k = a; k < b; k++) {
        const ompi_alg *al = ompi_alg_of(&ru[k]);
        char br[64];
        range_txt(br, sizeof br, ru[k].b_lo, ru[k].b_hi);
        fprintf(f, "%lld %d 0 0 # bytes %s%s: %s (%s)\n", ompi_size(oc, ru[k].b_lo, ru[a].p_lo),
                al->id, br, oc->per_process ? " (Open MPI compares bytes / p)" : "", al->name,
                ru[k].algo);
      }
      a = b;
    }
    i = end;
  }
}

static void write_ompi_json(FILE *f, const cs_tuning_rule *ru, int n) {
  fprintf(f, "{\n  \"rule_file_version\": 3,\n  \"module\": \"tuned\",\n  \"collectives\": {");
  for (int i = 0; i < n;) {
    const ompi_coll *oc = ompi_coll_of(ru[i].coll);
    int end = i;
    while (end < n && ru[end].coll == ru[i].coll) end++;
    fprintf(f, "%s\n    \"%s\": [", i ? "," : "", oc->json);
    for (int a = i; a < end;) {
      int b = a;
      while (b < end && ru[b].p_lo == ru[a].p_lo) b++;
      fprintf(f, "%s\n      {\n        \"comm_size_min\": %lld,\n", a > i ? "," : "", ru[a].p_lo);
      if (ru[a].p_hi == CS_TUNING_INF)
        fprintf(f, "        \"comm_size_max\": \"inf\",\n");
      else
        fprintf(f, "        \"comm_size_max\": %lld,\n", ru[a].p_hi);
      fprintf(f, "        \"rules\": [");
      for (int k = a; k < b; k++) {
        fprintf(f, "%s\n          { \"msg_size_min\": %lld, \"msg_size_max\": ", k > a ? "," : "",
                ompi_size(oc, ru[k].b_lo, ru[a].p_lo));
        if (ru[k].b_hi == CS_TUNING_INF)
          fprintf(f, "\"inf\"");
        else
          fprintf(f, "%lld", ompi_size(oc, ru[k].b_hi + 1, ru[a].p_lo) - 1);
        fprintf(f, ", \"alg\": %d }", ompi_alg_of(&ru[k])->id);
      }
      fprintf(f, "\n        ]\n      }");
      a = b;
    }
    fprintf(f, "\n    ]");
    i = end;
  }
  fprintf(f, "\n  }\n}\n");
}

static int check_mpich(const cs_tuning_rule *ru, int n, char *err, size_t errlen) {
  for (int i = 0; i < n; i++) {
    if (!mpich_coll_of(ru[i].coll) || !mpich_alg_of(&ru[i]))
      return no_counterpart(err, errlen, &ru[i], "MPICH", 0);
    if ((ru[i].p_hi != CS_TUNING_INF && ru[i].p_hi > INT_MAX) ||
        (ru[i].b_hi != CS_TUNING_INF && ru[i].b_hi > INT_MAX))
      return fail(err, errlen, "MPICH: a threshold of %s above %d (MPICH compares sizes as int)",
                  cs_colls[ru[i].coll].name, INT_MAX);
  }
  return 0;
}

static void write_mpich_json(FILE *f, const cs_tuning_rule *ru, int n) {
  fprintf(f, "{");
  for (int i = 0; i < n;) {
    const mpich_coll *mc = mpich_coll_of(ru[i].coll);
    int end = i;
    while (end < n && ru[end].coll == ru[i].coll) end++;
    fprintf(f, "%s\n    \"collective=%s\":\n    {\n        \"comm_type=intra\":\n        {",
            i ? "," : "", cs_colls[ru[i].coll].name);
    for (int a = i; a < end;) {
      int b = a;
      while (b < end && ru[b].p_lo == ru[a].p_lo) b++;
      if (ru[a].p_hi == CS_TUNING_INF)
        fprintf(f, "%s\n            \"comm_size=any\":\n            {", a > i ? "," : "");
      else
        fprintf(f, "%s\n            \"comm_size<=%lld\":\n            {", a > i ? "," : "",
                ru[a].p_hi);
      for (int k = a; k < b; k++) {
        if (ru[k].b_hi == CS_TUNING_INF)
          fprintf(f, "%s\n                \"%s=any\":", k > a ? "," : "", mc->size_key);
        else
          fprintf(f, "%s\n                \"%s<=%lld\":", k > a ? "," : "", mc->size_key,
                  ru[k].b_hi);
        fprintf(f,
                "\n                {\n                    \"algorithm=%s\":{}\n                }",
                mpich_alg_of(&ru[k]));
      }
      fprintf(f, "\n            }");
      a = b;
    }
    fprintf(f,
            "\n        },\n        \"comm_type=inter\":\n        {\n            "
            "\"algorithm=%s\":{}\n        }\n    }",
            mc->inter);
    i = end;
  }
  fprintf(f, "\n}\n");
}

/* The kind of spec (0 collsim, 1 ompi-rules, 2 ompi-json, 3 mpich-json),
 * or -1 with err. */
static int spec_kind(const char *spec, char *err, size_t errlen) {
  static const char *const kinds[] = {"collsim", "ompi-rules", "ompi-json", "mpich-json"};
  const char *colon = strchr(spec, ':');
  int kind = -1;
  for (int k = 0; colon && k < 4; k++)
    if ((size_t)(colon - spec) == strlen(kinds[k]) && !strncmp(spec, kinds[k], strlen(kinds[k])))
      kind = k;
  if (kind < 0 || !colon[1])
    return fail(err, errlen,
                "--emit '%s': expected KIND:FILE with KIND one of collsim, ompi-rules, "
                "ompi-json, mpich-json (e.g. ompi-rules:rules.conf)",
                spec);
  return kind;
}

int cs_tuning_spec_check(const char *spec, char *err, size_t errlen) {
  return spec_kind(spec, err, errlen) < 0 ? -1 : 0;
}

int cs_tuning_emit(const char *winners_csv, const char *spec, char *err, size_t errlen) {
  int kind = spec_kind(spec, err, errlen);
  if (kind < 0) return -1;
  const char *path = strchr(spec, ':') + 1;
  cs_tuning_rule *ru;
  int n = cs_tuning_ranges(winners_csv, &ru, err, errlen);
  if (n < 0) return -1;
  int rc = kind == 0   ? check_collsim(ru, n, err, errlen)
           : kind == 3 ? check_mpich(ru, n, err, errlen)
                       : check_ompi(ru, n, err, errlen);
  if (rc == 0) {
    /* Written to a temporary file and renamed: a half-written table is never
     * read by a library. */
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
      rc = fail(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
    } else {
      if (kind == 0) write_collsim(f, winners_csv, ru, n);
      if (kind == 1) write_ompi_rules(f, winners_csv, ru, n);
      if (kind == 2) write_ompi_json(f, ru, n);
      if (kind == 3) write_mpich_json(f, ru, n);
      if (fclose(f) != 0 || rename(tmp, path) != 0) {
        rc = fail(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
      }
    }
  }
  free(ru);
  return rc;
}
