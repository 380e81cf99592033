#define _GNU_SOURCE
/* collsim plot: reads collsim's CSV files (docs/csv.md), checks every row,
 * splits the data into one small data file per series and has the gnuplot
 * scripts in plots/ draw PNG and SVG pictures from them.
 *
 * Nothing is drawn unless every input file was read without error: all files
 * are parsed and checked, all pictures are planned (data files written into a
 * temporary directory), and only then is gnuplot started. Each picture is
 * written under a hidden name and renamed once gnuplot succeeded and the file
 * looks like a PNG / SVG. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files.h"
#include "plot.h"
#include "registry.h"
#include "guidelines.h"
#include "csvtable.h"
#include "results.h"
#include "sizes.h"

/* ---- the CSV kinds (their schemas are the results store's) ------------------ */

enum {
  K_BENCH = CS_CSV_BENCH,
  K_PREDICT = CS_CSV_PREDICT,
  K_VALIDATE = CS_CSV_VALIDATE,
  K_GUIDE = CS_CSV_GUIDELINES,
  NKIND = 4
};

static const char *kind_name(int k) { return cs_csv_schema_of((cs_csv_kind)k)->name; }

/* The rows of every file read (store/csvtable.h). */
static cs_csv_table T;

#define PATHLEN 4096 /* --out, --data and the temporary directory are shorter */

/* ---- ordering ----------------------------------------------------------- */

static int coll_rank(const char *c) {
  int i = cs_coll_by_name(c);
  return i >= 0 ? i : 1000;
}
/* Registry order for collsim's algorithms, then native, native:*, lib:*,
 * then anything else (by name). */
static int algo_rank(const char *coll, const char *a) {
  if (!a) return 0;
  if (!strcmp(a, "native")) return 2000;
  if (!strncmp(a, "native:", 7)) return 3000;
  if (!strncmp(a, "lib:", 4)) return 4000;
  int c = cs_coll_by_name(coll);
  if (c >= 0 && !strchr(a, ':')) {
    const cs_algo_info *ai = cs_algo_find((cs_coll)c, a);
    if (ai) return ai->index; /* registry order */
  }
  return 5000;
}
static int cmp_str(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

static int cmp_group(const cs_csv_rec *a, const cs_csv_rec *b, int with_p) {
  if (a->kind != b->kind) return a->kind - b->kind;
  int c = strcmp(T.files[a->file].platform, T.files[b->file].platform);
  if (c) return c;
  int ra = coll_rank(a->s[0]), rb = coll_rank(b->s[0]);
  if (ra != rb) return ra - rb;
  if ((c = cmp_str(a->s[0], b->s[0]))) return c;
  if (with_p && a->p != b->p) return a->p < b->p ? -1 : 1;
  return 0;
}
/* A guideline's series is one side (the library, or our family), whose
 * algorithms may differ by size (the faster of two at each size): one line per
 * side, not isolated points per pairing. Files without a side column: one
 * series per pairing. */
static int same_side_series(const cs_csv_rec *a, const cs_csv_rec *b) {
  return a->kind == K_GUIDE && b->kind == K_GUIDE && a->s[3] && b->s[3];
}
static int cmp_series(const cs_csv_rec *a, const cs_csv_rec *b) {
  if (same_side_series(a, b)) return cmp_str(a->s[3], b->s[3]);
  int ra = algo_rank(a->s[0], a->s[1]), rb = algo_rank(b->s[0], b->s[1]);
  if (ra != rb) return ra - rb;
  int c = cmp_str(a->s[1], b->s[1]);
  return c ? c : cmp_str(a->s[2], b->s[2]);
}
static int cmp_rec(const void *x, const void *y) {
  const cs_csv_rec *a = x, *b = y;
  int c = cmp_group(a, b, 1);
  if (c) return c;
  if ((c = cmp_series(a, b))) return c;
  if (a->bytes != b->bytes) return a->bytes < b->bytes ? -1 : 1;
  if (a->file != b->file) return a->file - b->file;
  return a->line < b->line ? -1 : a->line > b->line;
}
static int same_series(const cs_csv_rec *a, const cs_csv_rec *b) { return !cmp_series(a, b); }

/* ---- options ------------------------------------------------------------ */

enum {
  P_TIME = CS_PLOT_TIME,
  P_NORM = CS_PLOT_NORM,
  P_MODEL = CS_PLOT_MODEL,
  P_SPEEDUP = CS_PLOT_SPEEDUP,
  P_VALIDATE = CS_PLOT_VALIDATE,
  P_GUIDE = CS_PLOT_GUIDE,
  NPIC = CS_PLOT_NKINDS
};
const char *const cs_plot_kind_name[CS_PLOT_NKINDS] = {"time",    "normalized", "model",
                                                       "speedup", "validate",   "guidelines"};
static const int pic_input[NPIC] = {K_BENCH, K_BENCH, K_PREDICT, K_BENCH, K_VALIDATE, K_GUIDE};

static cs_plot_opts opt;

/* Writes the registry's default baselines, e.g. "X for allreduce". */
void cs_plot_print_baselines(FILE *f) {
  int n = 0;
  for (int c = 0; c < CS_NCOLL; c++) {
    const cs_algo_info *b = cs_algo_baseline((cs_coll)c);
    if (b) fprintf(f, "%s%s for %s", n++ ? ", " : "", b->name, cs_colls[c].name);
  }
}

/* ---- planning the pictures ---------------------------------------------- */

typedef struct {
  char name[512];
  const char *script;
  char *assign; /* gnuplot -e text */
  size_t alen, acap;
  char dir[PATHLEN + 600];
} picture;

static picture *pics;
static int npics;
static char dataroot[PATHLEN];

static void pa(picture *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pa(picture *p, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(p->assign + p->alen, p->acap - p->alen, fmt, ap);
    va_end(ap);
    if (n < 0) exit(2);
    if ((size_t)n < p->acap - p->alen) {
      p->alen += n;
      return;
    }
    p->acap = (p->acap + n + 1) * 2;
    p->assign = cs_csv_xrealloc(p->assign, p->acap);
  }
}
/* name='value' with gnuplot's quoting ('' inside single quotes). */
static void pa_str(picture *p, const char *name, const char *val) {
  pa(p, "%s='", name);
  for (const char *c = val; *c; c++) pa(p, *c == '\'' ? "''" : "%c", *c);
  pa(p, "'; ");
}
static void pa_num(picture *p, const char *name, double v) { pa(p, "%s=%.17g; ", name, v); }

static void sanitize(char *dst, size_t len, const char *src) {
  size_t n = 0;
  for (const char *c = src; *c && n + 4 < len; c++) {
    const char *rep = NULL;
    char one[2] = {0, 0};
    if (isalnum((unsigned char)*c) || *c == '.' || *c == '_' || *c == '-' || *c == '+')
      one[0] = *c, rep = one;
    else if (c[0] == '<' && c[1] == '=')
      rep = "-le-", c++;
    else if (c[0] == '>' && c[1] == '=')
      rep = "-ge-", c++;
    else if (*c == '<')
      rep = "-lt-";
    else if (*c == '>')
      rep = "-gt-";
    else if (*c == '=')
      rep = "-eq-";
    else if (*c == ':')
      rep = "-";
    else
      rep = "_";
    for (; *rep && n + 1 < len; rep++) dst[n++] = *rep;
  }
  dst[n] = '\0';
}

/* Starts a picture: a unique name, its data directory, the common variables. */
static picture *pic_begin(const char *script, const char *ttl, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static picture *pic_begin(const char *script, const char *ttl, const char *fmt, ...) {
  char raw[512], name[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  sanitize(name, sizeof name - 8, raw);
  char uniq[512];
  snprintf(uniq, sizeof uniq, "%s", name);
  for (int k = 2;; k++) {
    int clash = 0;
    for (int i = 0; i < npics; i++) clash |= !strcmp(pics[i].name, uniq);
    if (!clash) break;
    snprintf(uniq, sizeof uniq, "%.500s-%d", name, k);
  }
  pics = cs_csv_xrealloc(pics, (npics + 1) * sizeof *pics);
  picture *p = &pics[npics++];
  memset(p, 0, sizeof *p);
  snprintf(p->name, sizeof p->name, "%s", uniq);
  p->script = script;
  snprintf(p->dir, sizeof p->dir, "%s/%s", dataroot, p->name);
  if (mkdir(p->dir, 0755) && errno != EEXIST) {
    fprintf(stderr, "collsim plot: cannot create %s: %s\n", p->dir, strerror(errno));
    exit(2);
  }
  pa_str(p, "dir", p->dir);
  pa_str(p, "ttl", ttl);
  return p;
}

static FILE *pic_series(picture *p, int i) {
  char path[sizeof p->dir + 32];
  snprintf(path, sizeof path, "%s/s%d.dat", p->dir, i);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "collsim plot: cannot write %s: %s\n", path, strerror(errno));
    exit(2);
  }
  return f;
}
static void pic_close_series(FILE *f) {
  if (fclose(f)) {
    fprintf(stderr, "collsim plot: writing a data file failed\n");
    exit(2);
  }
}

/* Series style: one colour per algorithm name, the same in every picture.
 * plots/common.gp has 30 line styles (1-18, 22-33); 6 is the library's own
 * (native); the names of the registry's other rows take 23 of the rest, in registry order
 * (cs_algo_colour), so a new row gets a colour of its own; anything else
 * (lib:*, native:*, unknown names) takes styles 13..18 in turn (so that the selectors never share a
 * style with a registry name). */
int cs_plot_style(const char *algo, int *other) {
  static const int free_styles[] = {1,  2,  3,  4,  5,  7,  8,  9,  10, 11, 12, 22,
                                    23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33};
  const int nfree = (int)(sizeof free_styles / sizeof free_styles[0]);
  int c = algo ? cs_algo_colour(algo) : -1;
  if (c == 0) return 6;
  if (c > 0) return free_styles[(c - 1) % nfree];
  return 13 + (*other)++ % 6; /* common.gp's styles 13..18 */
}

/* The legend title of series [s0, s1) (bytes ascending): its name, and
 * for a library series whose rows name the algorithm that ran (algo_ran),
 * which one ran over which sizes, so that a reader sees where the selector
 * switches: "lib:ompi: rdb 8 B-4 KiB, rab_rdb 8 KiB-4 MiB". */
static const char *series_title(long s0, long s1, char *buf, size_t len) {
  const char *a = T.recs[s0].s[1];
  snprintf(buf, len, "%s", a);
  if (!cs_algo_is_library(a)) return buf;
  while (s0 < s1 && !(T.recs[s0].bytes > 0)) s0++; /* not drawn (log axis) */
  size_t n = strlen(buf);
  for (long i = s0; i < s1 && n < len;) {
    const char *ran = T.recs[i].ran;
    long j = i + 1;
    while (j < s1 && !cmp_str(ran, T.recs[j].ran)) j++;
    char lo[32], hi[32];
    cs_size_str(T.recs[i].bytes, lo, sizeof lo);
    cs_size_str(T.recs[j - 1].bytes, hi, sizeof hi);
    if (i == s0 && j == s1 && ran && *ran)
      n += (size_t)snprintf(buf + n, len - n, " = %s", ran);
    else if (ran && *ran)
      n += (size_t)snprintf(buf + n, len - n, "%s %s %s%s%s", i == s0 ? ":" : ",", ran, lo,
                            j - 1 > i ? "-" : "", j - 1 > i ? hi : "");
    i = j;
  }
  return buf;
}

static const char *mpi_name(const char *coll) {
  int c = cs_coll_by_name(coll);
  return c >= 0 ? cs_colls[c].mpi_name : coll;
}
static void title_of(char *t, size_t len, const cs_csv_rec *r, const char *what) {
  const char *pl = T.files[r->file].platform;
  snprintf(t, len, "%s%s%s, p = %ld%s%s", mpi_name(r->s[0]), pl[0] ? " on " : "", pl, r->p,
           what ? ": " : "", what ? what : "");
}
static void name_suffix(char *s, size_t len, const cs_csv_rec *r) {
  const char *pl = T.files[r->file].platform;
  snprintf(s, len, "%s%s", pl[0] ? "-" : "", pl);
}
static const char *log_yfmt(double lo, double hi) {
  return lo >= 0.01 && hi < 1e5 ? "%g" : "10^{%L}";
}
static void note(const char *pic, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const char *pic, const char *fmt, ...) {
  fprintf(stderr, "collsim plot: note: %s: ", pic);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

/* The rows [g0, g1) of one group are sorted by series then bytes; calls
 * fn for each series [s0, s1). Returns the number of series. */
static int next_series(long g1, long *s0, long *s1) {
  if (*s1 >= g1) return 0;
  *s0 = *s1;
  long e = *s0 + 1;
  while (e < g1 && same_series(&T.recs[*s0], &T.recs[e])) e++;
  *s1 = e;
  return 1;
}
static long find_row(long s0, long s1, double bytes) {
  for (long i = s0; i < s1; i++)
    if (T.recs[i].bytes == bytes) return i;
  return -1;
}

/* The sizes drawn: when they are a few powers of two (as a bench over
 * 8-16M:x8), the bytes axis labels exactly those. */
typedef struct {
  double v[11];
  int n, many;
} xset;
static void xs_add(xset *s, double x) {
  for (int i = 0; i < s->n; i++)
    if (s->v[i] == x) return;
  if (s->n == 11)
    s->many = 1;
  else
    s->v[s->n++] = x;
}
static void xs_pass(picture *p, const xset *s) {
  if (s->many || s->n < 3) return;
  char l[200] = "";
  for (int i = 0; i < s->n; i++) {
    int e;
    if (frexp(s->v[i], &e) != 0.5) return; /* not a power of two */
    size_t n = strlen(l);
    snprintf(l + n, sizeof l - n, "%s%d", n ? " " : "", e - 1);
  }
  pa_str(p, "xk", l);
}

/* time: one picture per (platform, coll, p) of bench rows. */
static void plan_time(long g0, long g1) {
  const cs_csv_rec *r0 = &T.recs[g0];
  char ttl[600], suf[300];
  title_of(ttl, sizeof ttl, r0, NULL);
  name_suffix(suf, sizeof suf, r0);
  /* Error bars: min..max (or the CI) where a series was repeated. */
  int lo_slot = opt.errorbars == 1 ? CS_V_CILO : CS_V_MIN,
      hi_slot = opt.errorbars == 1 ? CS_V_CIHI : CS_V_MAX;
  int have_bars = opt.errorbars != 2, repeated = 0;
  for (int pass = 0; pass < 2 && opt.errorbars == 0; pass++) {
    int all = 1;
    for (long i = g0; i < g1; i++)
      all &= !isnan(T.recs[i].v[lo_slot]) && !isnan(T.recs[i].v[hi_slot]);
    if (all) break;
    lo_slot = CS_V_CILO, hi_slot = CS_V_CIHI; /* no min/max columns: try the CI */
    if (pass == 1) have_bars = 0;
  }
  for (long i = g0; i < g1 && have_bars; i++)
    have_bars &= !isnan(T.recs[i].v[lo_slot]) && !isnan(T.recs[i].v[hi_slot]);
  for (long i = g0; i < g1; i++) {
    const cs_csv_rec *r = &T.recs[i];
    if (isnan(r->v[CS_V_REPS]) ? r->v[hi_slot] > r->v[lo_slot] : r->v[CS_V_REPS] > 1) repeated = 1;
  }
  int eb = have_bars && repeated;

  picture *p = NULL;
  int n = 0, other = 0;
  long dropped = 0, s0 = g0, s1 = g0;
  xset xs = {{0}, 0, 0};
  double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
  char tmp[64];
  while (next_series(g1, &s0, &s1)) {
    long k = 0;
    for (long i = s0; i < s1; i++) k += T.recs[i].bytes > 0 && T.recs[i].v[CS_V_MEDIAN] > 0;
    dropped += (s1 - s0) - k;
    if (!k) continue;
    if (!p) p = pic_begin("time.gp", ttl, "time-%s-p%ld%s", r0->s[0], r0->p, suf);
    FILE *f = pic_series(p, ++n);
    for (long i = s0; i < s1; i++) {
      const cs_csv_rec *r = &T.recs[i];
      if (!(r->bytes > 0 && r->v[CS_V_MEDIAN] > 0)) continue;
      double med = r->v[CS_V_MEDIAN] * 1e6, lo = med, hi = med;
      if (eb) {
        lo = r->v[lo_slot] * 1e6, hi = r->v[hi_slot] * 1e6;
        if (!(lo > 0)) lo = med;
      }
      fprintf(f, "%.17g %.9g %.9g %.9g\n", r->bytes, med, lo, hi);
      xmin = fmin(xmin, r->bytes), xmax = fmax(xmax, r->bytes), xs_add(&xs, r->bytes);
      ymin = fmin(ymin, lo), ymax = fmax(ymax, hi);
    }
    pic_close_series(f);
    char lt[600];
    snprintf(tmp, sizeof tmp, "t%d", n);
    pa_str(p, tmp, series_title(s0, s1, lt, sizeof lt));
    snprintf(tmp, sizeof tmp, "s%d", n);
    pa_num(p, tmp, cs_plot_style(T.recs[s0].s[1], &other));
  }
  char nm[600];
  snprintf(nm, sizeof nm, "time-%s-p%ld%s", r0->s[0], r0->p, suf);
  if (!p) {
    note(nm, "nothing to draw (all %ld rows have bytes = 0 or time = 0; log scale)", g1 - g0);
    return;
  }
  if (dropped) note(p->name, "%ld rows with bytes = 0 or time = 0 left out (log scale)", dropped);
  pa_num(p, "n", n);
  pa_num(p, "xmin", xmin);
  pa_num(p, "xmax", xmax);
  xs_pass(p, &xs);
  pa_num(p, "eb", eb);
  pa_str(p, "ebl", lo_slot == CS_V_MIN ? "min..max" : "95% CI of the median");
  pa_str(p, "yfmt", log_yfmt(ymin, ymax));
}

/* normalized (ref = NULL: time(algo) / time(baseline)) and speedup
 * (time(lib) / time(algo)) pictures of one group. Returns the number planned. */
static int plan_ratio(long g0, long g1, int speedup, const char *ref) {
  const cs_csv_rec *r0 = &T.recs[g0];
  long b0 = -1, b1 = -1, s0 = g0, s1 = g0;
  while (next_series(g1, &s0, &s1))
    if (!strcmp(T.recs[s0].s[1], ref)) b0 = s0, b1 = s1;
  if (b0 < 0) return 0;
  char ttl[600], suf[300], what[300], nm[600], tmp[64];
  name_suffix(suf, sizeof suf, r0);
  if (speedup) {
    snprintf(what, sizeof what, "speedup over %s", ref);
    snprintf(nm, sizeof nm, "speedup-%s-p%ld-vs-%s%s", r0->s[0], r0->p, ref, suf);
  } else {
    snprintf(what, sizeof what, "normalized to %s", ref);
    snprintf(nm, sizeof nm, "normalized-%s-p%ld%s", r0->s[0], r0->p, suf);
  }
  title_of(ttl, sizeof ttl, r0, what);
  picture *p = NULL;
  int n = 0, other = 0;
  long missing = 0;
  xset xs = {{0}, 0, 0};
  double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
  s0 = s1 = g0;
  const char *ref_sel = speedup ? cs_algo_selector(ref) : NULL;
  while (next_series(g1, &s0, &s1)) {
    const char *a = T.recs[s0].s[1], *sel;
    if (s0 == b0 || (speedup && cs_algo_is_library(a))) continue;
    /* over lib:S, a decomposition with a library inside only with S's
     * (ROW@lib:S): each library against itself, as the paper pairs them */
    if (ref_sel && cs_algo_at_lib(a, &sel) && strcmp(sel, ref_sel)) continue;
    long k = 0;
    for (int pass = 0; pass < 2; pass++) {
      FILE *f = NULL;
      if (pass == 1) {
        if (!k) break;
        if (!p) p = pic_begin("ratio.gp", ttl, "%s", nm);
        f = pic_series(p, ++n);
      }
      for (long i = s0; i < s1; i++) {
        const cs_csv_rec *r = &T.recs[i];
        if (!(r->bytes > 0)) continue;
        long j = find_row(b0, b1, r->bytes);
        double t = r->v[CS_V_MEDIAN], tb = j >= 0 ? T.recs[j].v[CS_V_MEDIAN] : NAN;
        if (!(t > 0 && tb > 0)) {
          missing += pass == 0;
          continue;
        }
        double q = speedup ? tb / t : t / tb;
        if (pass == 0) {
          k++;
          continue;
        }
        fprintf(f, "%.17g %.9g\n", r->bytes, q);
        xmin = fmin(xmin, r->bytes), xmax = fmax(xmax, r->bytes), xs_add(&xs, r->bytes);
        ymin = fmin(ymin, q), ymax = fmax(ymax, q);
      }
      if (f) pic_close_series(f);
    }
    if (!k) continue;
    char lt[600];
    snprintf(tmp, sizeof tmp, "t%d", n);
    pa_str(p, tmp, series_title(s0, s1, lt, sizeof lt));
    snprintf(tmp, sizeof tmp, "s%d", n);
    pa_num(p, tmp, cs_plot_style(a, &other));
  }
  if (!p) {
    note(nm, "nothing to draw (no algorithm with times > 0 at the sizes of %s)", ref);
    return 0;
  }
  if (missing)
    note(p->name, "%ld rows left out (bytes = 0, a time of 0, or no %s row of the same size)",
         missing, ref);
  char ylab[300], reflab[700];
  if (speedup)
    snprintf(ylab, sizeof ylab, "speedup  time(%s) / time(algorithm)", ref);
  else
    snprintf(ylab, sizeof ylab, "time / time(%s)", ref);
  char rt[600];
  snprintf(reflab, sizeof reflab, "%s (= 1)", series_title(b0, b1, rt, sizeof rt));
  pa_num(p, "n", n);
  pa_num(p, "xmin", xmin);
  pa_num(p, "xmax", xmax);
  xs_pass(p, &xs);
  pa_str(p, "ylab", ylab);
  pa_str(p, "reflab", reflab);
  pa_num(p, "ylog", ymax / ymin > 16);
  return 1;
}

static void list_append(char *l, size_t len, int i) {
  size_t n = strlen(l);
  snprintf(l + n, len - n, "%s%d", n ? " " : "", i);
}

/* model: one picture per (platform, coll, p) of predict rows. */
static void plan_model(long g0, long g1) {
  const cs_csv_rec *r0 = &T.recs[g0];
  char ttl[600], suf[300], tl[2000] = "", sl[2000] = "", tmp[64];
  int anysim = 0;
  for (long i = g0; i < g1; i++) anysim |= !isnan(T.recs[i].v[CS_V_SIM]);
  title_of(ttl, sizeof ttl, r0, anysim ? "models vs simulation" : "models");
  name_suffix(suf, sizeof suf, r0);
  picture *p = NULL;
  int n = 0, other = 0;
  long dropped = 0, s0 = g0, s1 = g0;
  xset xs = {{0}, 0, 0};
  double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0, emax = 0;
  while (next_series(g1, &s0, &s1)) {
    long k = 0;
    int has_t = 0, has_s = 0;
    for (long i = s0; i < s1; i++) {
      const cs_csv_rec *r = &T.recs[i];
      if (!(r->bytes > 0 && r->v[CS_V_MODEL] > 0)) continue;
      k++;
      has_t |= r->v[CS_V_TABLE1] > 0;
      has_s |= r->v[CS_V_SIM] > 0;
    }
    dropped += (s1 - s0) - k;
    if (!k) continue;
    if (!p) p = pic_begin("model.gp", ttl, "model-%s-p%ld%s", r0->s[0], r0->p, suf);
    FILE *f = pic_series(p, ++n);
    for (long i = s0; i < s1; i++) {
      const cs_csv_rec *r = &T.recs[i];
      if (!(r->bytes > 0 && r->v[CS_V_MODEL] > 0)) continue;
      double t1 = r->v[CS_V_TABLE1], m = r->v[CS_V_MODEL], s = r->v[CS_V_SIM];
      fprintf(f, "%.17g ", r->bytes);
      if (t1 > 0)
        fprintf(f, "%.9g ", t1 * 1e6), ymin = fmin(ymin, t1 * 1e6), ymax = fmax(ymax, t1 * 1e6);
      else
        fprintf(f, "? ");
      fprintf(f, "%.9g ", m * 1e6);
      ymin = fmin(ymin, m * 1e6), ymax = fmax(ymax, m * 1e6);
      if (s > 0) {
        double e = isnan(r->v[CS_V_RELERR]) ? fabs(s - m) / m : r->v[CS_V_RELERR];
        fprintf(f, "%.9g %.9g\n", s * 1e6, e * 100);
        ymin = fmin(ymin, s * 1e6), ymax = fmax(ymax, s * 1e6), emax = fmax(emax, e * 100);
      } else {
        fprintf(f, "? ?\n");
      }
      xmin = fmin(xmin, r->bytes), xmax = fmax(xmax, r->bytes), xs_add(&xs, r->bytes);
    }
    pic_close_series(f);
    if (has_t) list_append(tl, sizeof tl, n);
    if (has_s) list_append(sl, sizeof sl, n);
    snprintf(tmp, sizeof tmp, "t%d", n);
    pa_str(p, tmp, T.recs[s0].s[1]);
    snprintf(tmp, sizeof tmp, "s%d", n);
    pa_num(p, tmp, cs_plot_style(T.recs[s0].s[1], &other));
  }
  if (!p) {
    char nm[600];
    snprintf(nm, sizeof nm, "model-%s-p%ld%s", r0->s[0], r0->p, suf);
    note(nm, "nothing to draw (all rows have bytes = 0 or model_s = 0; log scale)");
    return;
  }
  if (dropped)
    note(p->name, "%ld rows with bytes = 0 or model_s = 0 left out (log scale)", dropped);
  pa_num(p, "n", n);
  pa_num(p, "xmin", xmin);
  pa_num(p, "xmax", xmax);
  xs_pass(p, &xs);
  pa_str(p, "tl", tl);
  pa_str(p, "sl", sl);
  pa_num(p, "emax", emax > 0 ? emax : 1);
  pa_str(p, "yfmt", log_yfmt(ymin, ymax));
}

/* validate: one picture per (platform, coll), every p and algorithm. */
static void plan_validate(long g0, long g1) {
  const cs_csv_rec *r0 = &T.recs[g0];
  /* Series by algorithm across p: collect the distinct names in rank order. */
  long *order = cs_csv_xrealloc(NULL, (g1 - g0) * sizeof *order);
  long no = 0;
  for (long i = g0; i < g1; i++) {
    int seen = 0;
    for (long j = 0; j < no && !seen; j++) seen = !strcmp(T.recs[order[j]].s[1], T.recs[i].s[1]);
    if (!seen) order[no++] = i;
  }
  for (long a = 1; a < no; a++) /* insertion sort by rank */
    for (long b = a; b > 0 && cmp_series(&T.recs[order[b - 1]], &T.recs[order[b]]) > 0; b--) {
      long t = order[b];
      order[b] = order[b - 1];
      order[b - 1] = t;
    }
  long ps[8];
  int nps = 0, manyp = 0;
  long pmin = r0->p, pmax = r0->p;
  for (long i = g0; i < g1; i++) {
    long pp = T.recs[i].p;
    pmin = pp < pmin ? pp : pmin, pmax = pp > pmax ? pp : pmax;
    int seen = 0;
    for (int j = 0; j < nps; j++) seen |= ps[j] == pp;
    if (!seen) {
      if (nps < 6)
        ps[nps++] = pp;
      else
        manyp = 1;
    }
  }
  char ttl[800], pl[300], suf[300], ml[2000] = "", sl[2000] = "", tmp[64], plist[200] = "";
  if (manyp)
    snprintf(plist, sizeof plist, "p = %ld..%ld", pmin, pmax);
  else {
    for (int a = 1; a < nps; a++)
      for (int b = a; b > 0 && ps[b - 1] > ps[b]; b--) {
        long t = ps[b];
        ps[b] = ps[b - 1];
        ps[b - 1] = t;
      }
    snprintf(plist, sizeof plist, "p = ");
    for (int j = 0; j < nps; j++) {
      size_t l = strlen(plist);
      snprintf(plist + l, sizeof plist - l, "%s%ld", j ? ", " : "", ps[j]);
    }
  }
  snprintf(pl, sizeof pl, "%s", T.files[r0->file].platform);
  snprintf(ttl, sizeof ttl, "%s%s%s, %s: predicted vs measured", mpi_name(r0->s[0]),
           pl[0] ? " on " : "", pl, plist);
  name_suffix(suf, sizeof suf, r0);
  int xerr = 1;
  for (long i = g0; i < g1; i++)
    xerr &= !isnan(T.recs[i].v[CS_V_MLO]) && !isnan(T.recs[i].v[CS_V_MHI]);
  picture *p = NULL;
  int n = 0, other = 0;
  long dropped = 0;
  double lo = INFINITY, hi = 0;
  for (long a = 0; a < no; a++) {
    const char *algo = T.recs[order[a]].s[1];
    long k = 0;
    int has_m = 0, has_s = 0;
    for (long i = g0; i < g1; i++) {
      const cs_csv_rec *r = &T.recs[i];
      if (strcmp(r->s[1], algo)) continue;
      if (r->v[CS_V_MEAS] > 0 && (r->v[CS_V_MODEL] > 0 || r->v[CS_V_SIM] > 0)) {
        k++;
        has_m |= r->v[CS_V_MODEL] > 0;
        has_s |= r->v[CS_V_SIM] > 0;
      } else {
        dropped++;
      }
    }
    if (!k) continue;
    if (!p) p = pic_begin("validate.gp", ttl, "validate-%s%s", r0->s[0], suf);
    FILE *f = pic_series(p, ++n);
    for (long i = g0; i < g1; i++) {
      const cs_csv_rec *r = &T.recs[i];
      if (strcmp(r->s[1], algo) ||
          !(r->v[CS_V_MEAS] > 0 && (r->v[CS_V_MODEL] > 0 || r->v[CS_V_SIM] > 0)))
        continue;
      double me = r->v[CS_V_MEAS] * 1e6, mlo = me, mhi = me;
      if (xerr && r->v[CS_V_MLO] > 0) mlo = r->v[CS_V_MLO] * 1e6, mhi = r->v[CS_V_MHI] * 1e6;
      fprintf(f, "%.9g %.9g %.9g", me, mlo, mhi);
      lo = fmin(lo, mlo), hi = fmax(hi, mhi);
      for (int s = 0; s < 2; s++) {
        double v = r->v[s ? CS_V_SIM : CS_V_MODEL];
        if (v > 0)
          fprintf(f, " %.9g", v * 1e6), lo = fmin(lo, v * 1e6), hi = fmax(hi, v * 1e6);
        else
          fprintf(f, " ?");
      }
      fprintf(f, "\n");
    }
    pic_close_series(f);
    if (has_m) list_append(ml, sizeof ml, n);
    if (has_s) list_append(sl, sizeof sl, n);
    snprintf(tmp, sizeof tmp, "t%d", n);
    pa_str(p, tmp, algo);
    snprintf(tmp, sizeof tmp, "s%d", n);
    pa_num(p, tmp, cs_plot_style(algo, &other));
  }
  free(order);
  if (!p) {
    char nm[600];
    snprintf(nm, sizeof nm, "validate-%s%s", r0->s[0], suf);
    note(nm, "nothing to draw (no row with a measured and a predicted time > 0)");
    return;
  }
  if (dropped)
    note(p->name, "%ld rows without a measured and a predicted time > 0 left out", dropped);
  /* Both axes the same decades. */
  double dlo = pow(10, floor(log10(lo))), dhi = pow(10, ceil(log10(hi)));
  if (dhi <= dlo) dhi = dlo * 10;
  pa_num(p, "n", n);
  pa_str(p, "ml", ml);
  pa_str(p, "sl", sl);
  pa_num(p, "lo", dlo);
  pa_num(p, "hi", dhi);
  pa_num(p, "xerr", xerr);
  pa_str(p, "yfmt", log_yfmt(dlo, dhi));
}

/* A series' legend: "lhs / rhs", led by the side when the file has one; a
 * side whose pairing changes with the size says how many it has. */
static void guide_series_title(char *t, size_t len, long s0, long s1) {
  const cs_csv_rec *r = &T.recs[s0];
  int pairs = 1;
  for (long i = s0 + 1; i < s1; i++) {
    int seen = 0;
    for (long k = s0; k < i && !seen; k++)
      seen = !cmp_str(T.recs[k].s[1], T.recs[i].s[1]) && !cmp_str(T.recs[k].s[2], T.recs[i].s[2]);
    pairs += !seen;
  }
  if (!r->s[3])
    snprintf(t, len, "%s / %s", r->s[1], r->s[2]);
  else if (pairs == 1)
    snprintf(t, len, "%s: %s / %s", r->s[3], r->s[1], r->s[2]);
  else
    snprintf(t, len, "%s: the faster of %d pairings at each size", r->s[3], pairs);
}

/* guidelines: one picture per (platform, guideline, p). */
static void plan_guide(long g0, long g1) {
  const cs_csv_rec *r0 = &T.recs[g0];
  char ttl[800], suf[300], vl[2000] = "", tmp[64];
  const char *pl = T.files[r0->file].platform;
  snprintf(ttl, sizeof ttl, "%s%s%s, p = %ld", cs_guideline_desc(r0->s[0]), pl[0] ? " on " : "", pl,
           r0->p);
  name_suffix(suf, sizeof suf, r0);
  picture *p = NULL;
  int n = 0;
  long dropped = 0, dropped_viol = 0, nviol = 0, s0 = g0, s1 = g0;
  xset xs = {{0}, 0, 0};
  double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0, tol = r0->v[CS_V_TOL];
  for (long i = g0; i < g1; i++)
    if (T.recs[i].v[CS_V_TOL] != tol) tol = -1;
  while (next_series(g1, &s0, &s1)) {
    long k = 0, kv = 0;
    for (long i = s0; i < s1; i++) {
      const cs_csv_rec *r = &T.recs[i];
      if (r->bytes > 0 && r->v[CS_V_RATIO] > 0)
        k++, kv += r->v[CS_V_VIOL] > 0;
      else
        dropped++, dropped_viol += r->v[CS_V_VIOL] > 0;
    }
    if (!k) continue;
    if (!p) p = pic_begin("guidelines.gp", ttl, "guideline-%s-p%ld%s", r0->s[0], r0->p, suf);
    FILE *f = pic_series(p, ++n);
    for (long i = s0; i < s1; i++) {
      const cs_csv_rec *r = &T.recs[i];
      if (!(r->bytes > 0 && r->v[CS_V_RATIO] > 0)) continue;
      fprintf(f, "%.17g %.9g %d\n", r->bytes, r->v[CS_V_RATIO], r->v[CS_V_VIOL] > 0);
      xmin = fmin(xmin, r->bytes), xmax = fmax(xmax, r->bytes), xs_add(&xs, r->bytes);
      ymin = fmin(ymin, r->v[CS_V_RATIO]), ymax = fmax(ymax, r->v[CS_V_RATIO]);
    }
    pic_close_series(f);
    nviol += kv;
    if (kv) list_append(vl, sizeof vl, n);
    char t[1200];
    guide_series_title(t, sizeof t, s0, s1);
    snprintf(tmp, sizeof tmp, "t%d", n);
    pa_str(p, tmp, t);
    snprintf(tmp, sizeof tmp, "s%d", n);
    pa_num(p, tmp, (n - 1) % 12 + 1);
  }
  if (!p) {
    char nm[600];
    snprintf(nm, sizeof nm, "guideline-%s-p%ld%s", r0->s[0], r0->p, suf);
    note(nm, "nothing to draw (all rows have bytes = 0 or ratio = 0)");
    return;
  }
  if (dropped)
    note(p->name, "%ld rows with bytes = 0 or ratio = 0 left out (%ld of them violated)", dropped,
         dropped_viol);
  if (tol >= 0) ymax = fmax(ymax, 1 + tol);
  pa_num(p, "n", n);
  pa_num(p, "xmin", xmin);
  pa_num(p, "xmax", xmax);
  xs_pass(p, &xs);
  pa_num(p, "tol", tol);
  pa_num(p, "nviol", nviol);
  pa_str(p, "vl", vl);
  pa_num(p, "ylog", ymax / fmin(ymin, 1) > 16);
}

/* ---- drawing -------------------------------------------------------------- */

static int find_exe(const char *name, char *out, size_t len) {
  if (strchr(name, '/')) {
    snprintf(out, len, "%s", name);
    return access(out, X_OK) == 0 ? 0 : -1;
  }
  const char *path = getenv("PATH");
  if (!path) path = "/usr/bin:/bin";
  char *dup = cs_csv_xstrdup(path), *save = NULL;
  int rc = -1;
  for (char *d = strtok_r(dup, ":", &save); d && rc; d = strtok_r(NULL, ":", &save)) {
    snprintf(out, len, "%s/%s", *d ? d : ".", name);
    struct stat st;
    if (!stat(out, &st) && S_ISREG(st.st_mode) && !access(out, X_OK)) rc = 0;
  }
  free(dup);
  return rc;
}

/* Does the file look like what gnuplot should have written? */
static const char *check_output(const char *path, int svg) {
  FILE *f = fopen(path, "rb");
  if (!f) return "missing";
  unsigned char b[4096];
  size_t n = fread(b, 1, sizeof b - 1, f);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  const char *why = NULL;
  if (size <= 0)
    why = "empty";
  else if (!svg && (n < 8 || memcmp(b, "\x89PNG\r\n\x1a\n", 8)))
    why = "not a PNG file";
  else if (svg) {
    b[n] = '\0';
    if (!strstr((char *)b, "<svg"))
      why = "not an SVG file";
    else {
      char tail[64] = {0};
      long off = size > 40 ? size - 40 : 0;
      fseek(f, off, SEEK_SET);
      size_t m = fread(tail, 1, sizeof tail - 1, f);
      tail[m] = '\0';
      if (!strstr(tail, "</svg>")) why = "an unfinished SVG file";
    }
  }
  fclose(f);
  return why;
}

static int draw(const picture *p, const char *gnuplot, const char *gpdir) {
  char script[4400], log[sizeof p->dir + 32], part[2][PATHLEN + 600], final[2][PATHLEN + 600];
  snprintf(script, sizeof script, "%s/%s", gpdir, p->script);
  snprintf(log, sizeof log, "%s/gnuplot.log", p->dir);
  const char *ext[2] = {"png", "svg"};
  int on[2] = {opt.png, opt.svg};
  size_t base = p->alen;
  picture q = *p;
  q.assign = cs_csv_xstrdup(p->assign);
  q.acap = base + 1;
  char fmts[16] = "";
  for (int k = 0; k < 2; k++) {
    snprintf(final[k], sizeof final[k], "%s/%s.%s", opt.out, p->name, ext[k]);
    snprintf(part[k], sizeof part[k], "%s/.%s.%s.part", opt.out, p->name, ext[k]);
    pa_str(&q, k ? "outsvg" : "outpng", part[k]);
    if (on[k])
      snprintf(fmts + strlen(fmts), sizeof fmts - strlen(fmts), "%s%s", fmts[0] ? " " : "", ext[k]);
    unlink(part[k]);
  }
  pa_str(&q, "fmts", fmts);

  pid_t pid = fork();
  if (pid < 0) {
    perror("collsim plot: fork");
    free(q.assign);
    return -1;
  }
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
    }
    execl(gnuplot, "gnuplot", "-e", q.assign, script, (char *)NULL);
    fprintf(stderr, "cannot run %s: %s\n", gnuplot, strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  free(q.assign);

  /* gnuplot's messages: shown; a series that vanished is an error. */
  int failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0), vanished = 0;
  FILE *lf = fopen(log, "r");
  char line[2048];
  while (lf && fgets(line, sizeof line, lf)) {
    if (!line[0] || line[0] == '\n') continue;
    if (strstr(line, "no valid points")) vanished = 1;
    fprintf(stderr, "collsim plot: %s: gnuplot: %s%s", p->name, line,
            strchr(line, '\n') ? "" : "\n");
  }
  if (lf) fclose(lf);
  if (failed || vanished) {
    fprintf(
        stderr, "collsim plot: %s: gnuplot %s (script %s); picture not written\n", p->name,
        failed ? (WIFEXITED(status) ? "failed" : "was killed") : "found a series without points",
        script);
    for (int k = 0; k < 2; k++) unlink(part[k]);
    return -1;
  }
  int rc = 0;
  for (int k = 0; k < 2; k++) {
    if (!on[k]) continue;
    const char *why = check_output(part[k], k);
    if (why) {
      fprintf(stderr, "collsim plot: %s: gnuplot wrote %s: %s\n", p->name, why, part[k]);
      rc = -1;
    }
  }
  for (int k = 0; k < 2; k++) {
    if (!on[k]) continue;
    if (rc) {
      unlink(part[k]);
    } else if (rename(part[k], final[k])) {
      fprintf(stderr, "collsim plot: cannot rename %s to %s: %s\n", part[k], final[k],
              strerror(errno));
      unlink(part[k]);
      rc = -1;
    } else {
      fprintf(opt.printed, "%s\n", final[k]);
    }
  }
  fflush(opt.printed);
  return rc;
}

static const char *scripts_dir(void) {
  static char dir[4200];
  const char *cands[3] = {getenv("COLLSIM_PLOTS_DIR"), NULL, NULL};
#ifdef COLLSIM_PLOTS_DIR
  cands[1] = COLLSIM_PLOTS_DIR;
#endif
  char rel[4200];
  snprintf(rel, sizeof rel, "%s/../plots", cs_self_dir());
  cands[2] = rel;
  for (int i = 0; i < 3; i++) {
    if (!cands[i] || !*cands[i]) continue;
    char f[4300];
    snprintf(f, sizeof f, "%s/common.gp", cands[i]);
    if (!access(f, R_OK)) {
      snprintf(dir, sizeof dir, "%s", cands[i]);
      return dir;
    }
    if (i == 0) {
      fprintf(stderr, "collsim plot: COLLSIM_PLOTS_DIR=%s has no common.gp\n", cands[0]);
      return NULL;
    }
  }
  fprintf(stderr,
          "collsim plot: cannot find the gnuplot scripts (plots/*.gp); set COLLSIM_PLOTS_DIR\n");
  return NULL;
}

const char *cs_plot_scripts_dir(void) { return scripts_dir(); }

int cs_gnuplot_script(const char *cmd, const char *script, const char *assign) {
  const char *gp = cs_plot_scripts_dir();
  if (!gp) return 1;
  char path[4300];
  snprintf(path, sizeof path, "%s/%s", gp, script);
  pid_t pid = fork();
  if (pid == 0) {
    const char *g = getenv("COLLSIM_GNUPLOT");
    execlp(g && *g ? g : "gnuplot", "gnuplot", "-e", assign, path, (char *)NULL);
    fprintf(stderr, "%s: cannot run gnuplot: %s\n", cmd, strerror(errno));
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
    fprintf(stderr, "%s: gnuplot failed (script %s)\n", cmd, path);
    return 1;
  }
  return 0;
}

static void free_all(void) {
  cs_csv_table_free(&T);
  for (int i = 0; i < npics; i++) free(pics[i].assign);
  free(pics);
  pics = NULL;
  npics = 0;
}

void cs_plot_defaults(cs_plot_opts *o) {
  memset(o, 0, sizeof *o);
  o->out = "results/plots";
  o->png = o->svg = 1;
  o->printed = stdout;
  for (int k = 0; k < NPIC; k++) o->want[k] = 2;
}

int cs_plot_files(const char *const *csv, int ncsv, const char *outdir, int png, int svg,
                  FILE *out) {
  cs_plot_opts o;
  cs_plot_defaults(&o);
  o.out = outdir;
  o.png = png, o.svg = svg;
  o.printed = out;
  return cs_plot_run(&o, csv, ncsv);
}

int cs_plot_run(const cs_plot_opts *o, const char *const *csv, int ncsv) {
  opt = *o;
  /* 1. Read and check everything. */
  for (int i = 0; i < ncsv; i++) cs_csv_table_read(&T, csv[i]);
  cs_csv_table_check(&T);
  qsort(T.recs, T.nrecs, sizeof *T.recs, cmp_rec);
  for (long i = 1; i < T.nrecs; i++) {
    const cs_csv_rec *a = &T.recs[i - 1], *b = &T.recs[i];
    if (!cmp_group(a, b, 1) && same_series(a, b) && a->bytes == b->bytes)
      cs_csv_bad(
          &T, T.files[b->file].path, b->line,
          "the same %s as %s:%ld (%s, %s%s%s, p = %ld, bytes = %.17g%s%s): one row per point",
          a->kind == K_GUIDE ? "guideline, sides, p and bytes" : "coll, algo, p and bytes",
          T.files[a->file].path, a->line, a->s[0], a->s[1], a->s[2] ? ", " : "",
          a->s[2] ? a->s[2] : "", a->p, a->bytes, T.files[a->file].platform[0] ? ", platform " : "",
          T.files[a->file].platform);
  }
  if (T.nerrors) {
    if (T.nerrors > 20) fprintf(stderr, "collsim plot: ... %d errors in all\n", T.nerrors);
    fprintf(stderr, "collsim plot: nothing drawn: fix the input first\n");
    free_all();
    return 2;
  }

  /* 2. Which pictures: an explicit --kind must fit some input. */
  int have[NKIND] = {0};
  for (int i = 0; i < T.nfiles; i++) have[T.files[i].kind] = 1;
  for (int k = 0; k < NPIC; k++)
    if (opt.want[k] == 1 && !have[pic_input[k]]) {
      char kh[1024];
      fprintf(stderr,
              "collsim plot: --kind %s needs a %s CSV (header %s); given:", cs_plot_kind_name[k],
              kind_name(pic_input[k]), cs_csv_header((cs_csv_kind)pic_input[k], kh, sizeof kh));
      for (int i = 0; i < T.nfiles; i++)
        fprintf(stderr, "%s %s (%s)", i ? "," : "", T.files[i].path, kind_name(T.files[i].kind));
      fprintf(stderr, "\n");
      free_all();
      return 2;
    }
  for (int i = 0; i < T.nfiles; i++) {
    int used = 0;
    for (int k = 0; k < NPIC; k++) used |= opt.want[k] && pic_input[k] == T.files[i].kind;
    if (!used)
      fprintf(stderr, "collsim plot: note: %s: a %s CSV, nothing to draw for the --kind given\n",
              T.files[i].path, kind_name(T.files[i].kind));
  }

  /* 3. Plan: data files and gnuplot variables of every picture. */
  char tmpdir[4200] = "";
  if (opt.data) {
    if (cs_mkdir_p(opt.data)) {
      fprintf(stderr, "collsim plot: cannot create the directory %s: %s\n", opt.data,
              strerror(errno));
      free_all();
      return 2;
    }
    snprintf(dataroot, sizeof dataroot, "%s", opt.data);
  } else {
    if (cs_make_tmpdir(tmpdir, sizeof tmpdir) || strlen(tmpdir) > 3000) {
      fprintf(stderr, "collsim plot: cannot create a temporary directory: %s\n", strerror(errno));
      free_all();
      return 2;
    }
    snprintf(dataroot, sizeof dataroot, "%s", tmpdir);
  }
  int nbase = 0, nlib = 0, rc = 0;
  for (long g0 = 0, g1; g0 < T.nrecs; g0 = g1) {
    int kind = T.recs[g0].kind, with_p = kind != K_VALIDATE;
    g1 = g0 + 1;
    while (g1 < T.nrecs && !cmp_group(&T.recs[g0], &T.recs[g1], with_p)) g1++;
    if (kind == K_BENCH) {
      if (opt.want[P_TIME]) plan_time(g0, g1);
      if (opt.want[P_NORM]) {
        int gc = cs_coll_by_name(T.recs[g0].s[0]);
        const cs_algo_info *ba = gc >= 0 ? cs_algo_baseline((cs_coll)gc) : NULL;
        const char *b = opt.baseline ? opt.baseline : ba ? ba->name : NULL;
        if (b) nbase += plan_ratio(g0, g1, 0, b);
      }
      if (opt.want[P_SPEEDUP]) {
        /* Speedup over each library variant of the group. */
        long s0 = g0, s1 = g0;
        while (next_series(g1, &s0, &s1))
          if (cs_algo_is_library(T.recs[s0].s[1])) nlib += plan_ratio(g0, g1, 1, T.recs[s0].s[1]);
      }
    } else if (kind == K_PREDICT && opt.want[P_MODEL]) {
      plan_model(g0, g1);
    } else if (kind == K_VALIDATE && opt.want[P_VALIDATE]) {
      plan_validate(g0, g1);
    } else if (kind == K_GUIDE && opt.want[P_GUIDE]) {
      plan_guide(g0, g1);
    }
  }
  if (opt.want[P_NORM] == 1 && !nbase) {
    if (opt.baseline)
      fprintf(
          stderr,
          "collsim plot: --kind normalized: the baseline '%s' is in no (collective, p) of the bench CSVs\n",
          opt.baseline);
    else {
      fprintf(stderr, "collsim plot: --kind normalized: no baseline; ");
      cs_plot_print_baselines(stderr);
      fprintf(stderr, " when the CSV has it, otherwise give --baseline ALGO\n");
    }
    rc = 2;
  }
  if (opt.want[P_SPEEDUP] == 1 && !nlib) {
    fprintf(
        stderr,
        "collsim plot: --kind speedup: needs a library algorithm (native, native:NAME or lib:NAME) "
        "and another algorithm in the same (collective, p) of a bench CSV\n");
    rc = 2;
  }
  if (!rc && npics == 0) {
    fprintf(stderr, "collsim plot: nothing to draw\n");
    rc = 2;
  }

  /* 4. Draw. */
  const char *gpdir = NULL;
  char gnuplot[4200];
  if (!rc) {
    const char *g = getenv("COLLSIM_GNUPLOT");
    if (!g || !*g) g = "gnuplot";
    if (find_exe(g, gnuplot, sizeof gnuplot)) {
      fprintf(
          stderr,
          "collsim plot: gnuplot not found ('%s'); install it (Debian: apt-get install gnuplot-nox) or set "
          "COLLSIM_GNUPLOT to its path\n",
          g);
      rc = 1;
    } else if (!(gpdir = scripts_dir())) {
      rc = 1;
    } else if (cs_mkdir_p(opt.out)) {
      fprintf(stderr, "collsim plot: cannot create the output directory %s: %s\n", opt.out,
              strerror(errno));
      rc = 2;
    }
  }
  int drawn = 0, failed = 0;
  for (int i = 0; i < npics && !rc; i++) {
    if (draw(&pics[i], gnuplot, gpdir))
      failed++;
    else
      drawn++;
  }
  if (!rc) {
    fprintf(stderr, "collsim plot: %d picture%s drawn in %s%s", drawn, drawn == 1 ? "" : "s",
            opt.out, failed ? "" : "\n");
    if (failed) fprintf(stderr, ", %d failed\n", failed);
    if (opt.data) fprintf(stderr, "collsim plot: data T.files in %s/<picture>/\n", opt.data);
    rc = failed ? 1 : 0;
  }
  if (tmpdir[0]) cs_rm_tree(tmpdir);
  free_all();
  return rc;
}
