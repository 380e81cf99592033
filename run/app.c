/* collsim app (run/app.h): one smpirun per choice, through run/launch.c and
 * the platform layer (platforms/foreign.c), the numbers read from the lines
 * libcollsim-smpi.o writes with COLLSIM_PMPI_TIME=1 (pmpi/select.c), the
 * rows written through the results store (CS_CSV_APP). */
#define _GNU_SOURCE
#include "app.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "foreign.h"
#include "launch.h"
#include "registry.h"
#include "results.h"

typedef struct {
  int coll;         /* -1: the baseline (nothing set) */
  const char *algo; /* "native" for the baseline */
  cs_job job;
  char log[4200];
  /* read from the log */
  int ok;
  double app_s, all_s, share, coll_s[CS_NCOLL];
  long calls[CS_NCOLL], served, fallback;
} app_run;

static void upper(const char *s, char *out, size_t n) {
  size_t k = 0;
  for (; *s && k + 1 < n; s++) out[k++] = (char)(*s >= 'a' && *s <= 'z' ? *s - 32 : *s);
  out[k] = '\0';
}

/* Reads the time and counter lines of a run's log. */
static void read_log(app_run *r) {
  FILE *f = fopen(r->log, "r");
  char line[1024], name[64], algo[128];
  int got = 0;
  if (!f) return;
  while (fgets(line, sizeof line, f)) {
    double s, a, sh;
    long n, fb;
    if (sscanf(line, "collsim-smpi: time app seconds=%lf collectives=%lf share=%lf", &s, &a, &sh) ==
        3) {
      r->app_s = s, r->all_s = a, r->share = sh;
      got = 1;
    } else if (sscanf(line, "collsim-smpi: time %63s seconds=%lf calls=%ld", name, &s, &n) == 3) {
      int c = cs_coll_by_name(name);
      if (c >= 0) r->coll_s[c] = s, r->calls[c] = n;
    } else if (r->coll >= 0 &&
               sscanf(line, "collsim-smpi: %63s %127s calls=%ld fallback=%ld", name, algo, &n,
                      &fb) == 4 &&
               cs_coll_by_name(name) == r->coll) {
      r->served = n, r->fallback = fb;
    }
  }
  fclose(f);
  r->ok = got && WIFEXITED(r->job.status) && WEXITSTATUS(r->job.status) == 0;
}

/* The picture: the application's time per choice, split into the time in
 * collectives and the rest (gnuplot; a note if it is missing). */
static void draw(const char *dir, const cs_app_req *q, app_run *runs, int n) {
  char dat[4200], gp[4200];
  snprintf(dat, sizeof dat, "%s/app.dat", dir);
  snprintf(gp, sizeof gp, "%s/app.gp", dir);
  FILE *f = fopen(dat, "w"), *g = fopen(gp, "w");
  if (!f || !g) {
    if (f) fclose(f);
    if (g) fclose(g);
    return;
  }
  double base = runs[0].ok ? runs[0].app_s : 0;
  for (int i = 0; i < n; i++)
    if (runs[i].ok)
      fprintf(f, "\"%s%s%s (%.2fx)\" %.17g %.17g\n",
              runs[i].coll >= 0 ? cs_colls[runs[i].coll].name : "", runs[i].coll >= 0 ? " " : "",
              runs[i].coll >= 0 ? runs[i].algo : "library", base > 0 ? base / runs[i].app_s : 0,
              runs[i].all_s, runs[i].app_s - runs[i].all_s);
  fclose(f);
  fprintf(g,
          "set terminal pngcairo size 900,500\nset output '%s/app.png'\n"
          "set title '%s: simulated time per algorithm, %d processes (speedup over the library)' "
          "noenhanced\n"
          "set ylabel 'seconds'\nset style data histograms\nset style histogram rowstacked\n"
          "set style fill solid 0.8 border -1\nset boxwidth 0.6\nset key outside\n"
          "set xtics rotate by -30 noenhanced\nset yrange [0:*]\n"
          "plot '%s' using 2:xtic(1) title 'in collectives', '' using 3 title 'elsewhere'\n",
          dir, q->app[0], q->np, dat);
  fclose(g);
  cs_job j = {0};
  cs_argv_init(&j.args);
  const char *gnuplot = getenv("COLLSIM_GNUPLOT");
  cs_argv_add(&j.args, "%s", gnuplot && *gnuplot ? gnuplot : "gnuplot");
  cs_argv_add(&j.args, "%s", gp);
  snprintf(j.out, sizeof j.out, "%s/gnuplot.out", dir);
  snprintf(j.err, sizeof j.err, "%s/gnuplot.log", dir);
  cs_run_jobs(&j, 1, 1, NULL, NULL);
  if (!WIFEXITED(j.status) || WEXITSTATUS(j.status) != 0)
    fprintf(stderr, "collsim app: no picture (gnuplot failed: %s/gnuplot.log)\n", dir);
  cs_argv_free(&j.args);
}

int cs_app_run(cs_app_req *q) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  /* The runs: the library first, then every (collective, algorithm). */
  app_run *runs = calloc(1 + (size_t)q->ncolls * (size_t)q->nalgos, sizeof *runs);
  if (!runs) return 2;
  int n = 0;
  runs[n++] = (app_run){.coll = -1, .algo = "native"};
  for (int a = 0; a < q->nalgos; a++) {
    const char *name = q->algos[a], *colon = strchr(name, ':');
    int any = 0;
    for (int k = 0; k < q->ncolls; k++) {
      int c = q->colls[k];
      const char *algo = name;
      if (colon) {
        if ((int)(colon - name) != (int)strlen(cs_colls[c].name) ||
            strncmp(name, cs_colls[c].name, (size_t)(colon - name)))
          continue;
        algo = colon + 1;
      }
      if (!strcmp(algo, "native")) {
        any = 1; /* the baseline */
        continue;
      }
      const cs_algo_info *ai = cs_algo_find((cs_coll)c, algo);
      if (!ai || (ai->flags & CS_NATIVE)) continue;
      runs[n++] = (app_run){.coll = c, .algo = algo};
      any = 1;
    }
    if (!any) {
      fprintf(stderr,
              "collsim app: --algos %s: not an algorithm of the chosen collective(s) "
              "(collsim list shows each collective's algorithms)\n",
              name);
      free(runs);
      return 2;
    }
  }

  cs_platform_file pf = {0};
  char note[512] = "", flags[2048], digest[32];
  cs_platform_load(&pf, q->xml);
  if (cs_place_ranks("app", &pf, q->hosts, sizeof q->hosts, q->np, 0, note, sizeof note, digest,
                     sizeof digest)) {
    cs_platform_file_free(&pf);
    free(runs);
    return 2;
  }
  if (*note) fprintf(stderr, "collsim app: %s\n", note);
  cs_timing_flags(&pf, 0, flags, sizeof flags);
  if (mkdir(q->out, 0755) && errno != EEXIST) {
    fprintf(stderr, "collsim app: cannot create %s: %s\n", q->out, strerror(errno));
    cs_platform_file_free(&pf);
    free(runs);
    return 2;
  }
  /* The other collectives stay the library's in every run. */
  for (int c = 0; c < CS_NCOLL; c++) {
    char var[80], up[64];
    upper(cs_colls[c].name, up, sizeof up);
    snprintf(var, sizeof var, "COLLSIM_%s", up);
    unsetenv(var);
  }
  for (int i = 0; i < n; i++) {
    app_run *r = &runs[i];
    cs_job *j = &r->job;
    snprintf(r->log, sizeof r->log, "%s/run%d.log", q->out, i);
    snprintf(j->out, sizeof j->out, "%s/run%d.out", q->out, i);
    snprintf(j->err, sizeof j->err, "%s/run%d.err", q->out, i);
    remove(r->log);
    cs_argv_init(&j->args);
    cs_argv_add(&j->args, "env");
    cs_argv_add(&j->args, "COLLSIM_PMPI_TIME=1");
    cs_argv_add(&j->args, "COLLSIM_PMPI_LOG=%s", r->log);
    if (r->coll >= 0) {
      char up[64];
      upper(cs_colls[r->coll].name, up, sizeof up);
      cs_argv_add(&j->args, "COLLSIM_%s=%s", up, r->algo);
    }
    cs_argv_smpirun(&j->args, q->np, q->xml, *q->hosts ? q->hosts : NULL, flags);
    /* After -no-privatize (cs_argv_smpirun's), which it overrides: the last
     * setting wins. */
    cs_argv_add(&j->args, "--cfg=smpi/privatization:%s", q->privatization);
    if (q->np > 2048) cs_argv_add(&j->args, "--cfg=contexts/guard-size:0");
    for (char **a = q->app; *a; a++) cs_argv_add(&j->args, "%s", *a);
    j->np = q->np;
  }
  cs_catch_interrupts(1);
  for (int i = 0; i < n && !cs_interrupted(); i++) {
    fprintf(stderr, "collsim app: %s %s (%d/%d)\n",
            runs[i].coll >= 0 ? cs_colls[runs[i].coll].name : "every collective",
            runs[i].coll >= 0 ? runs[i].algo : "the library's", i + 1, n);
    cs_run_jobs(&runs[i].job, 1, 1, NULL, NULL);
    read_log(&runs[i]);
    int st = runs[i].job.status;
    if (!runs[i].ok && WIFEXITED(st) && WEXITSTATUS(st) == 0)
      fprintf(stderr,
              "collsim app: run %d ended well but %s has no collsim-smpi time line: is %s linked "
              "with build/libcollsim-smpi.o (smpicc app.c build/libcollsim-smpi.o)?\n",
              i + 1, runs[i].log, q->app[0]);
    else if (!runs[i].ok) {
      fprintf(stderr, "collsim app: run %d failed (%s, %s):\n", i + 1, runs[i].job.err,
              runs[i].log);
      cs_print_tail(runs[i].job.err, 5);
    }
  }
  cs_catch_interrupts(0);

  /* The CSV, the report, the picture. */
  char path[4200];
  snprintf(path, sizeof path, "%s/app.csv", q->out);
  FILE *f = fopen(path, "w");
  snprintf(path, sizeof path, "%s/report.md", q->out);
  FILE *md = fopen(path, "w");
  int failed = 0;
  if (!f || !md) {
    fprintf(stderr, "collsim app: cannot write into %s\n", q->out);
    if (f) fclose(f);
    if (md) fclose(md);
    cs_platform_file_free(&pf);
    free(runs);
    return 2;
  }
  fprintf(f, "# collsim app platform=%s np=%d privatization=%s app=", q->xml, q->np,
          q->privatization);
  fprintf(md, "# collsim app\n\nApplication:");
  for (char **a = q->app; *a; a++) {
    fprintf(f, "%s%s", a == q->app ? "" : " ", *a);
    fprintf(md, " %s", *a);
  }
  fprintf(f, "\n");
  cs_csv_smpi_cfg(f, flags);
  cs_csv_write_header(f, CS_CSV_APP);
  fprintf(
      md,
      "  \nPlatform: %s, %d processes, privatization %s. Times are simulated seconds "
      "(SMPI, collsim's exact-timing settings): app = MPI_Init to MPI_Finalize, in "
      "collectives = inside MPI collectives, each the largest over processes.\n\n"
      "| collective | algorithm | app (s) | speedup over the library | in this collective (s) "
      "| calls (served / fallback) | in collectives (s) | share |\n|---|---|---|---|---|---|---|---|\n",
      q->xml, q->np, q->privatization);
  printf("%-22s %-16s %14s %8s %14s %7s\n", "collective", "algorithm", "app_s", "speedup", "coll_s",
         "share");
  double base = runs[0].ok ? runs[0].app_s : 0;
  for (int i = 0; i < n; i++) {
    app_run *r = &runs[i];
    if (!r->ok) {
      failed = 1;
      fprintf(md, "| %s | %s | failed (%s) | | | | | |\n",
              r->coll >= 0 ? cs_colls[r->coll].name : "all", r->algo, r->job.err);
      continue;
    }
    for (int k = 0; k < q->ncolls; k++) {
      int c = q->colls[k];
      if (r->coll >= 0 && r->coll != c) continue;
      double sp = base > 0 && r->app_s > 0 ? base / r->app_s : 0;
      long served = r->coll >= 0 ? r->served : 0, fb = r->coll >= 0 ? r->fallback : 0;
      cs_csv_app_row(f, cs_colls[c].name, r->algo, q->np, r->app_s, sp, r->coll_s[c], r->calls[c],
                     served, fb, r->all_s, r->share);
      fprintf(md, "| %s | %s | %.9g | %.4f | %.9g | %ld (%ld / %ld) | %.9g | %.1f%% |\n",
              cs_colls[c].name, r->algo, r->app_s, sp, r->coll_s[c], r->calls[c], served, fb,
              r->all_s, 100 * r->share);
      printf("%-22s %-16s %14.9g %8.4f %14.9g %6.1f%%\n", cs_colls[c].name, r->algo, r->app_s, sp,
             r->coll_s[c], 100 * r->share);
      if (fb > 0)
        fprintf(stderr,
                "collsim app: %s %s: %ld calls were the library's (fallback; %s says why)\n",
                cs_colls[c].name, r->algo, fb, r->log);
    }
  }
  fclose(f);
  int any_ok = 0;
  for (int i = 0; i < n; i++) any_ok |= runs[i].ok;
  if (any_ok) draw(q->out, q, runs, n);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  fprintf(
      md,
      "\nFiles: app.csv (docs/csv.md \"app\"), app.png (time in collectives and elsewhere per "
      "run), runN.log / .out / .err (each run's library lines and output).\n\nWall time: %.1f s "
      "for %d runs.\n",
      wall, n);
  fclose(md);
  printf("collsim app: %d runs in %.1f s of wall time; report in %s/report.md, %s/app.csv%s%s%s\n",
         n, wall, q->out, q->out, any_ok ? ", " : "", any_ok ? q->out : "",
         any_ok ? "/app.png" : "");
  cs_platform_file_free(&pf);
  for (int i = 0; i < n; i++) cs_argv_free(&runs[i].job.args);
  free(runs);
  return failed || cs_interrupted() ? 1 : 0;
}
