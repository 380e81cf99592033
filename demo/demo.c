/* ./collsim demo: the default study in one command. Table I at p = 33,
 * timing runs on a hydra-like 8 x 4 machine and on an abg machine with
 * p = 33, the performance guidelines on both, the plots, and a report
 * linking them (results/demo/report.md). Resumes what a previous run
 * finished unless --redo. */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "demo.h"
#include "files.h"
#include "findings.h"
#include "foreign.h"
#include "guidelines_run.h"
#include "lists.h"
#include "platgen.h"
#include "plot.h"
#include "predict_run.h"
#include "registry.h"
#include "sizes.h"

/* The names the demo's text gives algorithms, all from the registry: the
 * non-native rows of coll in registry order, only those of family (NULL:
 * any) and only those that collective `unless` has no row of (CS_NCOLL: no
 * such test), joined by sep. */
void cs_demo_names(char *buf, size_t len, cs_coll coll, const char *family, cs_coll unless,
                   const char *sep) {
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < cs_nalgos && n < len; i++) {
    const cs_algo_info *a = &cs_algos[i];
    if (a->coll != coll || (a->flags & CS_NATIVE)) continue;
    if (family && strcmp(a->family, family)) continue;
    const cs_algo_info *o = unless < CS_NCOLL ? cs_algo_find(unless, a->name) : NULL;
    if (o && !(o->flags & CS_NATIVE)) continue;
    n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? sep : "", a->name);
  }
}

/* The library side of the demo: the selectors SMPI reproduces from real
 * libraries. SMPI's "default" selector is no library's (reduce to rank 0 +
 * scatterv for reduce-scatter, far slower than any library at large sizes),
 * so it is not shown beside them. */
const char *const cs_demo_libs[CS_DEMO_NLIBS] = {"lib:ompi", "lib:mpich", "lib:mvapich2",
                                                 "lib:impi"};

static double t0;
static double elapsed(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec - t0;
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && st.st_size > 0;
}

/* Writes the command line a step stands for into the log, as "$ collsim ...". */
static void log_cmd(FILE *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void log_cmd(FILE *log, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(log, "$ collsim ");
  vfprintf(log, fmt, ap);
  fprintf(log, "\n");
  va_end(ap);
  fflush(log);
}

/* The console, copied into demo.log: stderr (the demo's, and every child's:
 * smpirun, gnuplot) goes through a pipe to a process that writes each line to
 * the log and to the terminal. Lines of the library's failures under SMPI
 * (the driver's "FAIL ... algo=lib:" and "KNOWN" lines, SMPI's deadlock
 * report) go to the log only; the terminal gets one line saying so, naming
 * the library (each bench CSV keeps them as `# verify:` lines, and the report
 * lists them). */
static int tee_saved = -1;
static pid_t tee_pid = -1;

static int library_line(const char *l) {
  if (!strncmp(l, "collsim", 7)) return 0; /* collsim's own words */
  return ((strstr(l, "algo=lib:") || strstr(l, "algo=native")) &&
          (!strncmp(l, "FAIL ", 5) || !strncmp(l, "KNOWN ", 6))) ||
         strstr(l, "Deadlock detected") || strstr(l, "Stalling SMPI instance");
}

static void tee_child(int in, int term, int logfd) {
  FILE *r = fdopen(in, "r");
  char line[8192];
  int told = 0;
  while (r && fgets(line, sizeof line, r)) {
    size_t n = strlen(line);
    if (write(logfd, line, n) < 0) {}
    if (library_line(line)) {
      if (!told) {
        static const char msg[] =
            "collsim demo: the library (SMPI's reproduction of a real library's selector) "
            "failed a check or stalled under SMPI; its lines are in demo.log, and the report "
            "names them (not collsim's failures)\n";
        if (write(term, msg, sizeof msg - 1) < 0) {}
        told = 1;
      }
      continue;
    }
    if (write(term, line, n) < 0) {}
  }
  _exit(0);
}

static void tee_start(const char *logpath) {
  int fd[2];
  fflush(stderr);
  int logfd = open(logpath, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (logfd < 0 || pipe(fd)) {
    if (logfd >= 0) close(logfd);
    return;
  }
  tee_saved = dup(2);
  tee_pid = fork();
  if (tee_pid == 0) {
    close(fd[1]);
    tee_child(fd[0], tee_saved, logfd);
  }
  close(fd[0]);
  close(logfd);
  if (tee_pid < 0) {
    close(fd[1]);
    close(tee_saved);
    tee_saved = -1;
    return;
  }
  dup2(fd[1], 2);
  close(fd[1]);
}

static void tee_stop(void) {
  if (tee_saved < 0) return;
  fflush(stderr);
  dup2(tee_saved, 2);
  close(tee_saved);
  tee_saved = -1;
  while (waitpid(tee_pid, NULL, 0) < 0 && errno == EINTR) {}
}

typedef struct {
  const char *name, *kind;
  int np;
  char xml[4096], hosts[4096];
  int flat;        /* one SimGrid host per rank: the library's node-aware algorithms run flat */
  char label[160]; /* its name in the report, with that caveat */
} demo_plat;

/* The report's summary (findings/findings.h): every bench CSV, labelled by
 * its machine (the file names bench-<machine>-<collective>.csv), and each
 * machine's guidelines. */
static void demo_summary(FILE *md, const demo_plat *plats, int nplats, char (*csvs)[4300], int ncsv,
                         char (*gdir)[4300]) {
  const char *bench[16], *bm[16], *gl[8], *gm[8];
  static char gcsv[8][4400];
  int n = 0, ng = 0;
  for (int i = 0; i < ncsv && n < 16; i++) {
    bench[n] = csvs[i];
    bm[n] = "?";
    for (int k = 0; k < nplats; k++) {
      char key[128];
      snprintf(key, sizeof key, "/bench-%s-", plats[k].name);
      if (strstr(csvs[i], key)) bm[n] = plats[k].label;
    }
    n++;
  }
  for (int k = 0; k < nplats && ng < 8; k++) {
    snprintf(gcsv[ng], sizeof gcsv[ng], "%.4300s/guidelines.csv", gdir[k]);
    gl[ng] = gcsv[ng];
    gm[ng++] = plats[k].label;
  }
  cs_findings_summary_md(md, bench, bm, n, gl, gm, ng);
}

/* The report's comparison with the paper (findings/claims.def): per bench
 * CSV, our algorithms' speedup over each library selector per size band,
 * next to the paper's claims for that kind of machine. */
static void demo_claims(FILE *md, const demo_plat *plats, int nplats, char (*csvs)[4300],
                        int ncsv) {
  static cs_bench_table tb;
  static cs_bench_findings f;
  fprintf(md,
          "## Against the paper's claims\n\n"
          "Each library selector's time over each of ours at the small, medium and large "
          "sizes above, the algorithm the library ran there (`algo_ran`), and the "
          "claims of Traeff et al. 2023 for that kind of machine (findings/claims.def) with "
          "whether this simulation agrees.\n\n");
  for (int i = 0; i < ncsv; i++)
    for (int k = 0; k < nplats; k++) {
      char key[128], err[4400];
      snprintf(key, sizeof key, "/bench-%s-", plats[k].name);
      if (!strstr(csvs[i], key)) continue;
      if (cs_bench_table_read(csvs[i], &tb, err, sizeof err)) {
        fprintf(md, "- %s: cannot read (%s)\n\n", csvs[i], err);
        continue;
      }
      cs_bench_find(&tb, &f);
      cs_findings_claims_md(md, plats[k].label, plats[k].kind, &tb, &f);
    }
}

/* "8 B .. 2 MiB, 9 sizes": the sizes a bench CSV holds, as run. */
static void demo_sizes_run(const char *csv, char *buf, size_t len) {
  static cs_bench_table tb;
  char err[4400], a[32], b[32];
  if (cs_bench_table_read(csv, &tb, err, sizeof err)) {
    snprintf(buf, len, "(no sizes: %.100s)", err);
    return;
  }
  snprintf(buf, len, "%s .. %s, %d sizes (as run; the bytes column)",
           cs_size_str((double)tb.bytes[0], a, sizeof a),
           cs_size_str((double)tb.bytes[tb.nsizes - 1], b, sizeof b), tb.nsizes);
}

/* The library on a machine with one rank per SimGrid host (flat: its
 * node-aware algorithms see one-rank nodes) beside the same library on the
 * same machine with one host per node: per collective, selector and size,
 * both times and what ran. */
static void demo_nodes_md(FILE *md, const char *flatname, const char *flatcsv,
                          const char *nodesname, const char *nodescsv) {
  static cs_bench_table a, b;
  char err[4400], s1[32], t1[32], t2[32];
  if (cs_bench_table_read(flatcsv, &a, err, sizeof err) ||
      cs_bench_table_read(nodescsv, &b, err, sizeof err)) {
    fprintf(md, "(no comparison: %s)\n\n", err);
    return;
  }
  const char *fb = strrchr(flatcsv, '/'), *nb = strrchr(nodescsv, '/');
  fprintf(md,
          "**%s, p = %d: the library flat ([%s](%s)) and with one host per node "
          "([%s](%s))**\n\n| selector | m | %s (flat) | ran | %s (nodes) | ran | flat / nodes "
          "|\n|---|---|---|---|---|---|---|\n",
          a.coll, a.p, fb + 1, fb + 1, nb + 1, nb + 1, flatname, nodesname);
  for (int i = 0; i < a.nalgos; i++) {
    if (!cs_algo_is_library(a.algo[i])) continue;
    int j = 0;
    while (j < b.nalgos && strcmp(a.algo[i], b.algo[j])) j++;
    if (j == b.nalgos) continue;
    for (int x = 0; x < a.nsizes; x++) {
      int y = 0;
      while (y < b.nsizes && b.bytes[y] != a.bytes[x]) y++;
      if (y == b.nsizes || !(a.t[i][x] > 0) || !(b.t[j][y] > 0)) continue;
      fprintf(md, "| %s | %s | %s | %s | %s | %s | %.2f |\n", a.algo[i],
              cs_size_str((double)a.bytes[x], s1, sizeof s1), cs_fmt_time(a.t[i][x], t1, sizeof t1),
              a.ran[i][x][0] ? a.ran[i][x] : "-", cs_fmt_time(b.t[j][y], t2, sizeof t2),
              b.ran[j][y][0] ? b.ran[j][y] : "-", a.t[i][x] / b.t[j][y]);
    }
  }
  fprintf(md, "\n");
}

/* The library's failures under SMPI the runs recorded (`# verify:` lines of
 * every CSV of the demo), once each, with the file. */
static void demo_failures_md(FILE *md, const char *dir) {
  char cmd[4600];
  snprintf(cmd, sizeof cmd,
           "cd '%s' && grep -H '^# verify:' *.csv guidelines-*/*.csv 2>/dev/null | sort -u", dir);
  FILE *g = popen(cmd, "r");
  char line[4096];
  int n = 0;
  while (g && fgets(line, sizeof line, g)) {
    line[strcspn(line, "\n")] = '\0';
    char *c = strstr(line, ":# verify: ");
    if (!c) continue;
    *c = '\0';
    fprintf(md, "%s- [%s](%s): `%s`\n",
            n ? ""
              : "- The library's failures under SMPI 3.32 (a selector of SMPI's "
                "reproduction picked an algorithm that gave a wrong result or stalled; "
                "these sizes have no row for it, the comparison above leaves them out; "
                "not collsim's failures: every kernel of ours was checked):\n",
            line, line, c + 11);
    n++;
  }
  if (g) pclose(g);
  if (!n) fprintf(md, "- No library run failed under SMPI (no `# verify:` line in the CSVs).\n");
}

int cs_demo_run(const char *dir, int redo, int quick) {
  t0 = 0;
  t0 = elapsed();
  if (cs_mkdir_p(dir)) {
    fprintf(stderr, "collsim demo: cannot create %s: %s\n", dir, strerror(errno));
    return 1;
  }
  char path[4300], logpath[4300];
  snprintf(logpath, sizeof logpath, "%s/demo.log", dir);
  /* The log of this run only (a rerun starts it over): the steps' commands
   * and output, and the whole console (tee_start). */
  FILE *log = fopen(logpath, "w");
  if (!log) {
    fprintf(stderr, "collsim demo: cannot write %s: %s\n", logpath, strerror(errno));
    return 1;
  }
  setvbuf(log, NULL, _IOLBF, 0);
  fclose(log);
  log = fopen(logpath, "a");
  if (!log) return 1;
  setvbuf(log, NULL, _IOLBF, 0);
  tee_start(logpath);
  int rc = 0;

  /* 1. Table I at p = 33 */
  char t1[4300];
  snprintf(t1, sizeof t1, "%s/table1.csv", dir);
  if (redo || !exists(t1)) {
    fprintf(stderr, "[demo %5.1fs] 1/5 table1 --np 33 -> %s\n", elapsed(), t1);
    cs_table1_req t;
    cs_table1_defaults(&t);
    t.np = 33;
    t.csv = t1;
    log_cmd(log, "table1 --np %d --csv %s", t.np, t1);
    rc = cs_table1_run(&t, log);
    if (rc) {
      unlink(t1);
      goto done;
    }
  } else {
    fprintf(stderr, "[demo %5.1fs] 1/5 table1: reusing %s\n", elapsed(), t1);
  }

  /* 2. the platforms and the timing runs */
  /* plats[2]: hydra8x4 with one host per node (its lanes merged), where the
   * library's node-aware algorithms see the nodes (cs_platform_one_host_per_node);
   * only the library is timed there, to set beside its flat runs on hydra8x4. */
  demo_plat plats[3] = {{"hydra8x4", "hydra", 32, "", "", 0, ""},
                        {"abg33", "abg", 33, "", "", 0, ""},
                        {"hydra8x4nodes", "hydra", 32, "", "", 0, ""}};
  for (int k = 0; k < 3; k++) {
    demo_plat *p = &plats[k];
    snprintf(p->xml, sizeof p->xml, "%s/%s.xml", dir, p->name);
    snprintf(p->hosts, sizeof p->hosts, "%s/%s.hostfile", dir, p->name);
    {
      cs_platform pl;
      char err[512];
      if (!cs_platform_init(p->kind, &pl, err, sizeof err)) {
        if (k != 1)
          pl.nodes = 8, pl.ppn = 4;
        else
          pl.np = p->np;
        p->flat =
            k != 2 && !cs_platform_check(&pl, err, sizeof err) && cs_platform_hosts_per_rank(&pl);
      }
      snprintf(p->label, sizeof p->label, "%s%s", p->name,
               p->flat
                   ? " (one SimGrid host per rank: the library's node-aware algorithms ran flat; "
                     "see Caveats)"
                   : "");
    }
    if (!exists(p->xml) || !exists(p->hosts)) {
      cs_platform pl;
      char err[512];
      rc = cs_platform_init(p->kind, &pl, err, sizeof err);
      if (k != 1) {
        pl.nodes = 8;
        pl.ppn = 4;
        log_cmd(log, "platform %s --nodes %d --ppn %d%s --out %s --hostfile %s", p->kind, pl.nodes,
                pl.ppn, k == 2 ? " --one-host-per-node" : "", p->xml, p->hosts);
      } else {
        pl.np = p->np;
        log_cmd(log, "platform %s --np %d --out %s --hostfile %s", p->kind, pl.np, p->xml,
                p->hosts);
      }
      if (!rc) rc = cs_platform_check(&pl, err, sizeof err);
      if (!rc && k == 2) {
        cs_platform whole = pl;
        rc = cs_platform_one_host_per_node(&whole, &pl, err, sizeof err);
      }
      if (!rc) rc = cs_write_platform_files(&pl, p->xml, p->hosts);
      if (rc) {
        fprintf(stderr, "collsim demo: could not write %s\n", p->xml);
        goto done;
      }
    }
  }
  const char *sizes = quick ? "8,1K,1M" : "8-4M:x4";
  /* Each timed collective runs all of its registered algorithms (registry
   * order) against libs. */
  static const cs_coll runs[] = {CS_reduce_scatter_block, CS_allreduce};
  char csvs[8][4300];
  int ncsv = 0;
  for (int k = 0; k < 2; k++)
    for (int r = 0; r < 2; r++) {
      demo_plat *p = &plats[k];
      cs_bench_req q;
      cs_bench_defaults(&q);
      snprintf(q.xml, sizeof q.xml, "%s", p->xml);
      snprintf(q.hosts, sizeof q.hosts, "%s", p->hosts);
      q.np = p->np;
      q.coll = runs[r];
      q.nalgos = cs_algo_names(q.coll, q.algos, CS_MAX_ALGOS - CS_DEMO_NLIBS);
      if (q.nalgos > CS_MAX_ALGOS - CS_DEMO_NLIBS) q.nalgos = CS_MAX_ALGOS - CS_DEMO_NLIBS;
      for (int l = 0; l < CS_DEMO_NLIBS; l++) q.algos[q.nalgos++] = cs_demo_libs[l];
      q.nbytes = cs_parse_sizes(sizes, q.bytes, CS_MAX_SIZES);
      snprintf(csvs[ncsv], sizeof csvs[ncsv], "%s/bench-%s-%s.csv", dir, p->name,
               cs_colls[q.coll].name);
      q.out = csvs[ncsv++];
      q.redo = redo;
      q.redo_foreign = 1; /* the demo's own files: an older collsim's are run again */
      q.quiet = 1;
      fprintf(stderr, "[demo %5.1fs] 2/5 bench %s on %s (p = %d) -> %s\n", elapsed(),
              cs_colls[q.coll].name, p->name, p->np, q.out);
      rc = cs_bench_run(&q);
      if (rc) goto done;
    }
  /* The library alone on hydra8x4 with one host per node. */
  char nodecsvs[2][4300];
  for (int r = 0; r < 2; r++) {
    demo_plat *p = &plats[2];
    cs_bench_req q;
    cs_bench_defaults(&q);
    snprintf(q.xml, sizeof q.xml, "%s", p->xml);
    snprintf(q.hosts, sizeof q.hosts, "%s", p->hosts);
    q.np = p->np;
    q.coll = runs[r];
    q.nalgos = 0;
    for (int l = 0; l < CS_DEMO_NLIBS; l++) q.algos[q.nalgos++] = cs_demo_libs[l];
    q.nbytes = cs_parse_sizes(sizes, q.bytes, CS_MAX_SIZES);
    snprintf(nodecsvs[r], sizeof nodecsvs[r], "%s/bench-%s-%s.csv", dir, p->name,
             cs_colls[q.coll].name);
    q.out = nodecsvs[r];
    q.redo = redo;
    q.redo_foreign = 1;
    q.quiet = 1;
    fprintf(stderr,
            "[demo %5.1fs] 2/5 bench %s, the library only, on %s (one host per node) -> %s\n",
            elapsed(), cs_colls[q.coll].name, p->name, q.out);
    rc = cs_bench_run(&q);
    if (rc) goto done;
  }

  /* 3. the guidelines, at sizes p divides (so the _block forms count too) */
  char gdir[2][4300];
  for (int k = 0; k < 2; k++) {
    demo_plat *p = &plats[k];
    char bytes[128];
    if (quick)
      snprintf(bytes, sizeof bytes, "%d", p->np * 2048);
    else
      snprintf(bytes, sizeof bytes, "%d,%d,%d", p->np * 32, p->np * 2048, p->np * 32768);
    snprintf(gdir[k], sizeof gdir[k], "%s/guidelines-%s", dir, p->name);
    fprintf(stderr, "[demo %5.1fs] 3/5 guidelines on %s, m = %s -> %s\n", elapsed(), p->name, bytes,
            gdir[k]);
    cs_gl_opts g;
    cs_gl_opts_defaults(&g);
    g.platform = p->xml;
    g.np = p->np;
    g.lib = "ompi"; /* a real library's decisions, not SMPI's naive default */
    g.nbytes = cs_parse_sizes(bytes, g.bytes, CS_MAX_SIZES);
    g.out = gdir[k];
    g.quiet = 1;
    g.redo = redo;
    g.redo_foreign = 1;
    log_cmd(log, "guidelines --platform %s --np %d --bytes %s --lib %s --out %s --quiet%s",
            g.platform, g.np, bytes, g.lib, g.out, redo ? " --redo" : "");
    rc = cs_guidelines_run(&g, log);
    if (rc) goto done;
  }

  /* 4. plots */
  char plotdir[4300];
  snprintf(plotdir, sizeof plotdir, "%s/plots", dir);
  fprintf(stderr, "[demo %5.1fs] 4/5 plots -> %s\n", elapsed(), plotdir);
  {
    char gcsv[2][4400], cmdline[8 * 4400] = "";
    const char *a[16];
    int n = 0;
    a[n++] = t1;
    for (int i = 0; i < ncsv; i++) a[n++] = csvs[i];
    for (int k = 0; k < 2; k++) {
      snprintf(gcsv[k], sizeof gcsv[k], "%s/guidelines.csv", gdir[k]);
      a[n++] = gcsv[k];
    }
    for (int i = 0, l = 0; i < n; i++)
      l += snprintf(cmdline + l, sizeof cmdline - (size_t)l, " %s", a[i]);
    log_cmd(log, "plot%s --out %s --format png", cmdline, plotdir);
    int prc = cs_plot_files(a, n, plotdir, 1, 0, log);
    if (prc)
      fprintf(stderr, "collsim demo: plot exited %d (see %s); the report lists no pictures\n", prc,
              logpath);
  }

  /* 5. the report */
  snprintf(path, sizeof path, "%s/report.md", dir);
  fprintf(stderr, "[demo %5.1fs] 5/5 report -> %s\n", elapsed(), path);
  FILE *md = fopen(path, "w");
  if (!md) {
    rc = 1;
    goto done;
  }
  fprintf(md,
          "# collsim demo\n\n"
          "Written by `collsim demo%s` (the log of every step: [demo.log](demo.log)).\n\n",
          quick ? " --quick" : "");
  demo_summary(md, plats, 2, csvs, ncsv, gdir);
  demo_claims(md, plats, 2, csvs, ncsv);
  /* The algorithms the text names, from the registry. The allreduce rows
   * that reduce_scatter_block lacks are described with their parts, e.g.
   * "X = reduce_scatter + allgatherv" for a composition. */
  char rsb[256], more[512] = "", ours_ar[256];
  cs_demo_names(rsb, sizeof rsb, CS_reduce_scatter_block, NULL, CS_NCOLL, ", ");
  cs_demo_names(ours_ar, sizeof ours_ar, CS_allreduce, cs_first_family(), CS_NCOLL, " and ");
  {
    size_t n = 0;
    for (int i = 0; i < cs_nalgos && n < sizeof more; i++) {
      const cs_algo_info *a = &cs_algos[i];
      const cs_algo_info *o = cs_algo_find(CS_reduce_scatter_block, a->name);
      if (a->coll != CS_allreduce || (a->flags & CS_NATIVE) || (o && !(o->flags & CS_NATIVE)))
        continue;
      n += (size_t)snprintf(more + n, sizeof more - n, ", and %s", a->name);
      char pb[256];
      snprintf(pb, sizeof pb, "%s", a->parts);
      const char *sep = " = ";
      for (char *sv = NULL, *w = strtok_r(pb, " ", &sv); w && n < sizeof more;
           w = strtok_r(NULL, " ", &sv), sep = " + ") {
        w[strcspn(w, ":")] = '\0'; /* "reduce_scatter:x" -> "reduce_scatter" */
        n += (size_t)snprintf(more + n, sizeof more - n, "%s%s", sep, w);
      }
    }
  }
  char sizes_run[128];
  demo_sizes_run(csvs[0], sizes_run, sizeof sizes_run);
  const cs_algo_info *base = cs_algo_baseline(CS_allreduce);
  fprintf(md,
          "## 1. Table I at p = 33\n\n[table1.csv](table1.csv): for each algorithm of the "
          "%s paper's Table I, the paper's formula (`table1_s`), collsim's exact "
          "round-by-round model (`model_s`) and SMPI's simulated time (`sim_s`) on an "
          "alpha-beta-gamma machine (1 us, 10 GB/s, gamma 2.5e-10 s/byte) and their relative "
          "error.\n\n",
          cs_first_family());
  fprintf(md,
          "## 2. Timing runs\n\nTwo machines: [hydra8x4.xml](hydra8x4.xml) (hydra-like: 8 "
          "nodes x 4 ranks, two lanes per node) and [abg33.xml](abg33.xml) (contention-free "
          "alpha-beta-gamma, p = 33, not a power of two). Each CSV times our algorithms "
          "(%s%s "
          "for allreduce) against the selectors of real libraries as SMPI 3.32 reproduces "
          "them: lib:ompi (Open MPI 4.1's decisions), lib:mpich, lib:mvapich2 and lib:impi, "
          "m = %s. SMPI's own `default` selector is not shown: it is no library's (its "
          "reduce-scatter is a reduce to rank 0 and a scatterv). Every (algorithm, size) was "
          "checked against the check harness's formulas before it was timed; a wrong result "
          "is a `# verify:` line of the CSV instead of a row:\n\n",
          rsb, more, sizes_run);
  for (int i = 0; i < ncsv; i++) {
    const char *b = strrchr(csvs[i], '/');
    fprintf(md, "- [%s](%s)\n", b + 1, b + 1);
  }
  fprintf(md,
          "\nWhat each side pays (docs/library.md): our kernels pay gamma per byte for every "
          "local reduction and copy; the library's reductions and copies are charged the "
          "same (each CSV's first line says `lib_charge=reductions,copies`; columns "
          "`reduced_bytes` and `copied_bytes` give the bytes of one call). Column "
          "`algo_ran` names the algorithm SMPI ran for each library row (collsim reproduces "
          "SMPI 3.32's selector decisions; mvapich2's two-level choices read "
          "`ALGORITHM inter:X intra:Y`, from its reproduced rule only; "
          "`automatic: chosen at run time` for SMPI's automatic selector, which runs every "
          "algorithm in turn); the pictures' legends show where it changes.\n");
  fprintf(md, "\n### Caveats\n\n");
  for (int k = 0; k < 2; k++) {
    if (!plats[k].flat) continue;
    fprintf(md,
            "- %s gives every rank its own SimGrid host (its nodes have two lanes, and a rank's "
            "host ties it to its lane's NIC), and SMPI groups ranks into nodes by host: the "
            "library's node-aware algorithms (smp_*, mvapich2_two_level, the selectors' SMP "
            "paths) saw one-rank nodes there and ran flat, so every library row of %s above "
            "is the library without its node awareness. The same machine with one host per "
            "node ([%s.xml](%s.xml): 4 cores per host, the two lanes merged into one NIC of "
            "twice the rate; `collsim platform hydra --nodes 8 --ppn 4 --one-host-per-node`) "
            "lets it see the real nodes; the library's times on both:\n\n",
            plats[k].name, plats[k].name, plats[2].name, plats[2].name);
    for (int r = 0; r < 2; r++) /* csvs: machine k's collective r at 2 k + r */
      demo_nodes_md(md, plats[k].name, csvs[2 * k + r], plats[2].name, nodecsvs[r]);
  }
  demo_failures_md(md, dir);
  fprintf(md,
          "- No machine drift: every time here is simulated (SMPI is deterministic; a rerun "
          "gives the same times). Runs on a real machine (`--backend mpi`) carry their own "
          "spread.\n");
  fprintf(md,
          "\n## 3. Performance guidelines\n\nEach guideline (e.g. Reduce_scatter <= "
          "Allreduce) timed on both sides, once with the library (lib:ompi) and once "
          "with our %s algorithms (the faster of %s for "
          "allreduce), tolerance 5%%. Violations:\n\n",
          cs_first_family(), ours_ar);
  for (int k = 0; k < 2; k++) {
    fprintf(md,
            "- %s: [violations.md](guidelines-%s/violations.md), all comparisons in "
            "[guidelines.csv](guidelines-%s/guidelines.csv)\n",
            plats[k].name, plats[k].name, plats[k].name);
  }
  /* The pictures, grouped by what they show, each group with a line saying
   * what to look at (plots/README.md names every kind). */
  static const struct {
    const char *glob, *title, *caption;
  } groups[] = {
      {"model-*", "Table I: formula, model and simulation",
       "the exact model's line should pass through the simulated points; the Table I line is "
       "the paper's closed formula (the lower panel: the model's relative error)."},
      {"time-*", "Time against message size",
       "where our algorithms' lines cross the library's; a library line's legend names what "
       "its selector ran at each size."},
      {"normalized-*", "Time relative to the baseline",
       "below 1 is faster than the baseline; lines that meet are algorithms whose times "
       "coincide."},
      {"speedup-*", "Speedup over each library selector",
       "above 1 ours is faster than that library at that size."},
      {"guideline-*", "Performance guidelines",
       "the ratio of the guideline's two sides: above the line at 1 (plus tolerance) the "
       "guideline is violated (circled)."},
  };
  fprintf(md, "\n## 4. Pictures\n\n");
  int anypic = 0;
  for (size_t gi = 0; gi < sizeof groups / sizeof groups[0]; gi++) {
    char cmd[8800];
    snprintf(cmd, sizeof cmd, "cd '%s' && ls plots/%s.png 2>/dev/null", dir, groups[gi].glob);
    FILE *ls = popen(cmd, "r");
    char line[4096];
    int any = 0;
    while (ls && fgets(line, sizeof line, ls)) {
      line[strcspn(line, "\n")] = '\0';
      if (!any)
        fprintf(md, "### %s\n\nWhat to look at: %s%s%s%s\n\n", groups[gi].title, groups[gi].caption,
                gi == 2 ? " The baseline is " : "", gi == 2 ? (base ? base->name : "none") : "",
                gi == 2 ? "." : "");
      fprintf(md, "![%s](%s)\n\n", line + 6, line);
      any = anypic = 1;
    }
    if (ls) pclose(ls);
  }
  if (!anypic) fprintf(md, "(no pictures: is gnuplot installed? see demo.log)\n");
  fclose(md);
  printf("%s\n", path);
done:
  fprintf(stderr, "[demo %5.1fs] %s\n", elapsed(), rc ? "failed (see the log)" : "done");
  tee_stop();
  fclose(log);
  return rc;
}
