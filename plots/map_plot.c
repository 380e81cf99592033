/* The pictures of ./collsim map (map_plot.h): one data file per series
 * (a candidate that wins somewhere, or a ratio band) holding a box per cell,
 * drawn by plots/map.gp as PNG and SVG. */
#include "map_plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files.h"
#include "plot.h"
#include "registry.h"
#include "sizes.h"

const double cs_map_band_lo[CS_MAP_NBANDS + 1] = {0, 1, 1.1, 1.25, 1.5, 2, 3, INFINITY};

int cs_map_band(double r) {
  int b = 0;
  while (b + 1 < CS_MAP_NBANDS && r >= cs_map_band_lo[b + 1]) b++;
  return b;
}

/* gnuplot -e text, grown as needed. */
typedef struct {
  char *s;
  size_t n, cap;
} text;

static void add(text *t, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s ? t->s + t->n : NULL, t->s ? t->cap - t->n : 0, fmt, ap);
    va_end(ap);
    if (k >= 0 && t->s && t->n + (size_t)k < t->cap) {
      t->n += (size_t)k;
      return;
    }
    size_t cap = t->cap ? 2 * t->cap : 4096;
    while (cap < t->n + (size_t)k + 1) cap *= 2;
    char *s = realloc(t->s, cap);
    if (!s) abort();
    t->s = s;
    t->cap = cap;
  }
}

/* name='value' with gnuplot's quoting ('' inside single quotes). */
static void add_str(text *t, const char *name, const char *v) {
  add(t, "%s='", name);
  for (; *v; v++) add(t, *v == '\'' ? "''" : "%c", *v);
  add(t, "';");
}

/* The directory of the gnuplot scripts (plots/): COLLSIM_PLOTS_DIR, or beside the program. */
static int scripts(char *dir, size_t len) {
  const char *env = getenv("COLLSIM_PLOTS_DIR");
  char f[4400];
  if (env && *env)
    snprintf(dir, len, "%s", env);
  else
    snprintf(dir, len, "%s/../plots", cs_self_dir());
  snprintf(f, sizeof f, "%s/map.gp", dir);
  if (access(f, R_OK) == 0) return 0;
#ifdef COLLSIM_PLOTS_DIR
  if (!(env && *env)) {
    snprintf(dir, len, "%s", COLLSIM_PLOTS_DIR);
    snprintf(f, sizeof f, "%s/map.gp", dir);
    if (access(f, R_OK) == 0) return 0;
  }
#endif
  fprintf(stderr, "collsim map: cannot find %s (set COLLSIM_PLOTS_DIR to plots/)\n", f);
  return -1;
}

/* The box of every cell: x between the geometric middles to its neighbours
 * of the same p, y between the middles to the neighbouring p. */
static void boxes(const cs_map_pics *m, double *box) {
  for (int c = 0; c < m->ncells; c++) {
    double b = (double)m->bytes[c], *x = box + 6 * (size_t)c;
    int prev = c > 0 && m->p[c - 1] == m->p[c] && m->bytes[c - 1] > 0;
    int next = c + 1 < m->ncells && m->p[c + 1] == m->p[c];
    double lo = prev ? sqrt(b * (double)m->bytes[c - 1]) : 0;
    double hi = next ? sqrt(b * (double)m->bytes[c + 1]) : 0;
    if (!prev) lo = next ? b * b / hi : b / sqrt(2);
    if (!next) hi = prev ? b * b / lo : b * sqrt(2);
    /* the neighbouring process counts */
    int pp = -1, pn = -1;
    for (int k = c - 1; k >= 0 && pp < 0; k--)
      if (m->p[k] != m->p[c]) pp = m->p[k];
    for (int k = c + 1; k < m->ncells && pn < 0; k++)
      if (m->p[k] != m->p[c]) pn = m->p[k];
    double ylo = pp > 0 ? (pp + m->p[c]) / 2.0 : m->p[c] - (pn > 0 ? (pn - m->p[c]) / 2.0 : 0.5);
    double yhi = pn > 0 ? (pn + m->p[c]) / 2.0 : m->p[c] + (pp > 0 ? (m->p[c] - pp) / 2.0 : 0.5);
    x[0] = b, x[1] = m->p[c], x[2] = lo, x[3] = hi, x[4] = ylo, x[5] = yhi;
  }
}

/* Boxes of one series ordered by column (x), then p. */
static const double *sort_box;
static int cmp_box(const void *a, const void *b) {
  const double *x = sort_box + 6 * (size_t) * (const int *)a,
               *y = sort_box + 6 * (size_t) * (const int *)b;
  if (x[2] != y[2]) return x[2] < y[2] ? -1 : 1;
  return (x[4] > y[4]) - (x[4] < y[4]);
}

/* Draws one picture: series[c] is the series (0..nseries-1) of cell c, -1
 * none; titles and styles per series. */
static int draw(const cs_map_pics *m, const double *box, const int *series, int nseries,
                const char *const *titles, const int *styles, const char *name, const char *mt,
                const char *mt2, const char *gpdir) {
  char dir[4096];
  if (cs_make_tmpdir(dir, sizeof dir)) return 1;
  int rc = 0, n = 0, *map = calloc((size_t)nseries, sizeof(int));
  int *idx = malloc(sizeof(int) * (size_t)(m->ncells ? m->ncells : 1));
  double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = -INFINITY;
  text t = {0};
  for (int s = 0; s < nseries && map && idx; s++) {
    char f[4200];
    FILE *out = NULL;
    int k = 0;
    for (int c = 0; c < m->ncells; c++)
      if (series[c] == s && m->bytes[c] > 0) idx[k++] = c;
    /* A column's cells of one series in consecutive p are one box: at
     * hundreds of p a row is less than a pixel high, and boxes drawn row by
     * row show antialiased stripes. */
    sort_box = box;
    qsort(idx, (size_t)k, sizeof idx[0], cmp_box);
    for (int i = 0; i < k;) {
      const double *x = box + 6 * (size_t)idx[i];
      double yhi = x[5];
      int j = i + 1;
      for (; j < k; j++) {
        const double *y = box + 6 * (size_t)idx[j];
        if (y[2] != x[2] || y[3] != x[3] || y[4] > yhi + 1e-9) break;
        yhi = y[5];
      }
      if (!out) {
        snprintf(f, sizeof f, "%s/s%d.dat", dir, n + 1);
        if (!(out = fopen(f, "w"))) break;
      }
      fprintf(out, "%.17g %.17g %.17g %.17g %.17g %.17g\n", x[0], (x[4] + yhi) / 2, x[2], x[3],
              x[4], yhi);
      if (x[0] < xmin) xmin = x[0];
      if (x[0] > xmax) xmax = x[0];
      i = j;
    }
    if (!out) continue;
    fclose(out);
    n++;
    char v[16];
    snprintf(v, sizeof v, "t%d", n);
    add_str(&t, v, titles[s]);
    add(&t, "s%d=%d;", n, styles[s]);
  }
  for (int c = 0; c < m->ncells; c++) {
    const double *x = box + 6 * (size_t)c;
    if (x[4] < ymin) ymin = x[4];
    if (x[5] > ymax) ymax = x[5];
  }
  char png[4400], svg[4400];
  snprintf(png, sizeof png, "%s/%s-%s.png", m->outdir, m->stem, name);
  snprintf(svg, sizeof svg, "%s/%s-%s.svg", m->outdir, m->stem, name);
  if (n == 0) {
    fprintf(stderr, "collsim map: %s: no cell to draw; picture not written\n", name);
    rc = 1;
    goto out;
  }
  add(&t, "n=%d;xmin=%.17g;xmax=%.17g;ylo=%.17g;yhi=%.17g;", n, xmin, xmax, ymin, ymax);
  add_str(&t, "fmts", "png svg");
  add_str(&t, "outpng", png);
  add_str(&t, "outsvg", svg);
  add_str(&t, "dir", dir);
  add_str(&t, "mt", mt);
  add_str(&t, "mt2", mt2);
  char script[4200], log[4200];
  snprintf(script, sizeof script, "%s/map.gp", gpdir);
  snprintf(log, sizeof log, "%s/gnuplot.log", dir);
  const char *g = getenv("COLLSIM_GNUPLOT");
  if (!g || !*g) g = "gnuplot";
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    FILE *l = freopen(log, "w", stderr);
    (void)l;
    execlp(g, "gnuplot", "-e", t.s, script, (char *)NULL);
    fprintf(stderr, "cannot run %s: %s\n", g, strerror(errno));
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr,
            "collsim map: %s: gnuplot failed%s (install gnuplot-nox or set COLLSIM_GNUPLOT):\n",
            name, WIFEXITED(st) && WEXITSTATUS(st) == 127 ? " to start" : "");
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "tail -n 5 '%s' >&2", log);
    if (system(cmd)) {}
    rc = 1;
    goto out;
  }
  struct stat sp, ss;
  if (stat(png, &sp) || stat(svg, &ss) || sp.st_size == 0 || ss.st_size == 0) {
    fprintf(stderr, "collsim map: %s: gnuplot wrote no picture\n", name);
    rc = 1;
  } else if (m->printed) {
    fprintf(m->printed, "collsim map: %s\ncollsim map: %s\n", png, svg);
  }
out:
  free(map);
  free(idx);
  free(t.s);
  cs_rm_tree(dir);
  return rc;
}

int cs_map_plot(const cs_map_pics *m) {
  char gpdir[4200];
  if (scripts(gpdir, sizeof gpdir)) return 1;
  double *box = malloc(sizeof(double) * 6 * (size_t)(m->ncells ? m->ncells : 1));
  int *series = malloc(sizeof(int) * (size_t)(m->ncells ? m->ncells : 1));
  int *wins = calloc((size_t)m->ncand + 1, sizeof(int));
  int styles[64], other = 0, rc = 0;
  char titles[64][300];
  const char *tp[64];
  if (!box || !series || !wins || m->ncand > 64) {
    rc = 1;
    goto out;
  }
  boxes(m, box);
  const char *mpi = cs_colls[cs_coll_by_name(m->coll) >= 0 ? cs_coll_by_name(m->coll) : 0].mpi_name;
  /* 1. The fastest candidate per cell. */
  for (int c = 0; c < m->ncells; c++) {
    series[c] = m->winner[c];
    if (m->winner[c] >= 0) wins[m->winner[c]]++;
  }
  for (int a = 0; a < m->ncand; a++) {
    styles[a] = cs_plot_style(m->cand[a], &other);
    snprintf(titles[a], sizeof titles[a], "%s (%d cell%s)", m->cand[a], wins[a],
             wins[a] == 1 ? "" : "s");
    tp[a] = titles[a];
  }
  char mt[1600];
  snprintf(mt, sizeof mt, "the fastest %s algorithm per (p, m)", mpi);
  rc = draw(m, box, series, m->ncand, tp, styles, "fastest", mt, m->source, gpdir);
  /* 2. Bands of baseline / best of the set. */
  if (m->ratio) {
    for (int c = 0; c < m->ncells; c++)
      series[c] = isnan(m->ratio[c]) ? -1 : cs_map_band(m->ratio[c]);
    for (int b = 0; b < CS_MAP_NBANDS; b++) {
      styles[b] = 41 + b;
      if (b == 0)
        snprintf(titles[b], sizeof titles[b], "< 1 (%s faster)", m->baseline);
      else if (b + 1 == CS_MAP_NBANDS)
        snprintf(titles[b], sizeof titles[b], ">= %g (the set faster)", cs_map_band_lo[b]);
      else
        snprintf(titles[b], sizeof titles[b], "%g - %g", cs_map_band_lo[b], cs_map_band_lo[b + 1]);
      tp[b] = titles[b];
    }
    snprintf(mt, sizeof mt, "%s: time of %s / time of the best of {%.600s}", mpi, m->baseline,
             m->setname);
    rc |= draw(m, box, series, CS_MAP_NBANDS, tp, styles, "ratio", mt, m->source, gpdir);
  }
out:
  free(box);
  free(series);
  free(wins);
  return rc;
}
