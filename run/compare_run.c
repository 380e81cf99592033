/* ./collsim compare as a run (run/compare_run.h). */
#include "compare_run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "files.h"
#include "launch.h"

/* The base name of a path. */
static const char *base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* The picture: one data file per series (x, ratio), then gnuplot draws
 * compare.png and compare.svg in dir. 0, or -1 (said on stderr). */
static int draw(const cs_cmp *C, const char *dir, const char *la, const char *lb) {
  char tmp[4096];
  if (cs_make_tmpdir(tmp, sizeof tmp)) return -1;
  /* series in order of first appearance */
  int ns = 0, *sid = malloc(sizeof(int) * (size_t)(C->n ? C->n : 1));
  const char **names = malloc(sizeof(char *) * (size_t)(C->n ? C->n : 1));
  int rc = -1;
  if (!sid || !names) goto out;
  for (int i = 0; i < C->n; i++) {
    int s = 0;
    while (s < ns && strcmp(names[s], C->rows[i].series)) s++;
    if (s == ns) names[ns++] = C->rows[i].series;
    sid[i] = s;
  }
  for (int s = 0; s < ns; s++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/s%d.dat", tmp, s + 1);
    FILE *f = fopen(path, "w");
    if (!f) goto out;
    for (int i = 0; i < C->n; i++)
      if (sid[i] == s && C->rows[i].a != 0)
        fprintf(f, "%.17g %.17g\n", C->rows[i].x, C->rows[i].b / C->rows[i].a);
    fclose(f);
  }
  char gp[4200];
  snprintf(gp, sizeof gp, "%s/compare.gp", tmp);
  FILE *g = fopen(gp, "w");
  if (!g) goto out;
  int logx = C->xkey >= 0;
  for (int i = 0; i < C->n && logx; i++) logx = C->rows[i].x > 0;
  for (int k = 0; k < 2; k++) {
    if (k == 0)
      fprintf(g, "set terminal pngcairo size 900,%d enhanced font 'DejaVu Sans,11'\n",
              600 + 18 * (ns / 3));
    else
      fprintf(g, "set terminal svg size 900,%d dynamic enhanced font 'DejaVu Sans,12'\n",
              600 + 18 * (ns / 3));
    fprintf(g, "set output '%s/compare.%s'\n", dir, k ? "svg" : "png");
    fprintf(g,
            "set title \"%s: %s of %s / %s\" noenhanced\n"
            "set xlabel '%s' noenhanced\nset ylabel 'ratio B / A'\n"
            "set key outside below maxcols 3 noenhanced\nset grid\n%s\n",
            C->kind, C->col, lb, la,
            logx           ? "bytes"
            : C->xkey >= 0 ? "bytes"
                           : "row of A",
            logx ? "set logscale x 2\nset format x '2^{%L}'" : "");
    fprintf(g, "plot 1 with lines lc rgb 'gray' dt 2 notitle");
    for (int s = 0; s < ns; s++)
      fprintf(g, ", '%s/s%d.dat' using 1:2 with linespoints lw 1.5 title '%s'", tmp, s + 1,
              names[s][0] ? names[s] : C->col);
    fprintf(g, "\nunset output\n");
  }
  fclose(g);
  char cmd[8800], log[4200];
  snprintf(log, sizeof log, "%s/gnuplot.log", tmp);
  snprintf(cmd, sizeof cmd, "gnuplot '%s' >'%s' 2>&1", gp, log);
  int st = system(cmd);
  if (st != 0) {
    fprintf(stderr, "collsim compare: gnuplot failed drawing %s/compare.png:\n", dir);
    cs_print_tail(log, 10);
    goto out;
  }
  rc = 0;
out:
  free(sid);
  free(names);
  cs_rm_tree(tmp);
  return rc;
}

int cs_compare_run(const cs_compare_req *r, FILE *out) {
  static cs_cmp C; /* two first lines of ~27 KB each */
  char err[4400];
  if (cs_compare_read(r->a, r->b, r->col, r->keys, &C, err, sizeof err)) {
    fprintf(stderr, "collsim compare: %s\n", err);
    return 2;
  }
  const char *la = r->la ? r->la : base(r->a), *lb = r->lb ? r->lb : base(r->b);
  char keys[600];
  size_t kn = 0;
  keys[0] = '\0';
  for (int i = 0; i < C.nkeys; i++)
    kn += (size_t)snprintf(keys + kn, kn < sizeof keys ? sizeof keys - kn : 0, "%s%s", i ? "," : "",
                           C.keys[i]);
  if (C.n == 0) {
    fprintf(stderr,
            "collsim compare: %s and %s have no row in common by %s (%s: %ld rows, the first "
            "%s; %s: %ld rows, the first %s); compare runs of the same cases, or choose the "
            "key columns with --keys\n",
            r->a, r->b, keys, la, C.na, C.na ? C.a_first : "-", lb, C.nb, C.nb ? C.b_first : "-");
    cs_compare_free(&C);
    return 1;
  }
  /* How the two runs differ: their first lines, key by key. */
  if (C.pa.kind[0] && C.pb.kind[0] && !r->quiet) {
    char why[4096];
    if (cs_prov_diff_as(&C.pa, &C.pb, cs_prov_bench_option, "A has", "B", why, sizeof why))
      fprintf(stderr, "collsim compare: the runs differ in: %s\n", why);
    else
      fprintf(stderr,
              "collsim compare: the runs were made the same way (their first lines "
              "agree)\n");
  }
  fprintf(out, "A = %s, B = %s: %s, %d rows in common (A has %ld, B %ld)\n", r->a, r->b, C.col, C.n,
          C.na, C.nb);
  cs_compare_table(out, &C, la, lb);
  double lr = 0, lo = INFINITY, hi = -INFINITY;
  int nr = 0;
  for (int i = 0; i < C.n; i++)
    if (C.rows[i].a > 0 && C.rows[i].b > 0) {
      double q = C.rows[i].b / C.rows[i].a;
      lr += log(q), nr++;
      lo = fmin(lo, q), hi = fmax(hi, q);
    }
  if (nr)
    fprintf(out, "B / A: geometric mean %.3f, from %.3f to %.3f over %d rows\n", exp(lr / nr), lo,
            hi, nr);
  int rc = 0;
  if (cs_mkdir_p(r->dir)) {
    fprintf(stderr, "collsim compare: cannot create %s: %s\n", r->dir, strerror(errno));
    rc = 2;
  } else {
    char path[4200];
    snprintf(path, sizeof path, "%s/compare.csv", r->dir);
    FILE *f = fopen(path, "w");
    if (!f) {
      fprintf(stderr, "collsim compare: cannot write %s: %s\n", path, strerror(errno));
      rc = 2;
    } else {
      cs_compare_csv(f, &C, r->a, r->b, cs_command());
      fclose(f);
      int drawn = draw(&C, r->dir, la, lb) == 0;
      if (!r->quiet)
        fprintf(stderr, "collsim compare: %s%s\n", path,
                drawn ? ", the picture compare.png and compare.svg beside it" : "");
    }
  }
  cs_compare_free(&C);
  return rc;
}
