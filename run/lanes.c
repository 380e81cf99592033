/* ./collsim lanes: the run (run/lanes.h). */
#include "lanes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "files.h"
#include "foreign.h"
#include "launch.h"
#include "plot.h"
#include "bench.h"
#include "results.h"
#include "sizes.h"

int cs_lanes_plot(const char *csv, const char *pattern, const char *dir, const char *title) {
  if (cs_mkdir_p(dir)) {
    fprintf(stderr, "collsim lanes: cannot create %s: %s\n", dir, strerror(errno));
    return 1;
  }
  /* The counts of the pattern's rows, in file order. */
  cs_csv_reader r;
  if (cs_csv_open(&r, csv)) return 1;
  char counts[4096] = "";
  int kind;
  while ((kind = cs_csv_next(&r)) > 0) {
    if (kind != 1) continue;
    int pc = cs_csv_col(&r, "pattern"), cc = cs_csv_col(&r, "count");
    if (pc < 0 || cc < 0 || strcmp(r.fld[pc], pattern)) continue;
    char w[64];
    snprintf(w, sizeof w, " %s ", r.fld[cc]);
    char padded[4200];
    snprintf(padded, sizeof padded, " %s ", counts);
    if (!strstr(padded, w) && strlen(counts) + strlen(w) < sizeof counts)
      snprintf(counts + strlen(counts), sizeof counts - strlen(counts), "%s%s", *counts ? " " : "",
               r.fld[cc]);
  }
  cs_csv_close(&r);
  if (!*counts) {
    fprintf(stderr, "collsim lanes: %s has no %s rows to draw\n", csv, pattern);
    return 2;
  }
  char assign[16384], png[4300], ratio[4300];
  snprintf(png, sizeof png, "%s/lanes-%s-time.png", dir, pattern);
  snprintf(ratio, sizeof ratio, "%s/lanes-%s-ratio.png", dir, pattern);
  snprintf(assign, sizeof assign,
           "csv='%s'; pattern='%s'; counts='%s'; ttl='%s'; outpng='%s'; outratio='%s'", csv,
           pattern, counts, title, png, ratio);
  if (cs_gnuplot_script("collsim lanes", "lanes.gp", assign)) return 1;
  printf("%s\n%s\n", png, ratio);
  return 0;
}

int cs_lanes_run(const cs_lanes_req *q) {
  if (!q->pattern || (strcmp(q->pattern, "k-lane") && strcmp(q->pattern, "multi"))) {
    fprintf(stderr, "collsim lanes: --pattern: lane or multi\n");
    return 2;
  }
  if (!q->counts) {
    fprintf(stderr, "collsim lanes: --counts LIST (MPI_INTs, e.g. 1152,115200,11520000)\n");
    return 2;
  }
  char xml[4096] = "", hosts[4096] = "", flags[4096] = "", digest[64] = "", note[4096] = "";
  cs_platform_file pf;
  memset(&pf, 0, sizeof pf);
  int np = q->np;
  if (q->smpi) {
    if (!q->platform) {
      fprintf(stderr, "collsim lanes: --platform F (a SimGrid file or hydra, vsc3, ...)\n");
      return 2;
    }
    if (cs_resolve_platform(q->platform, q->hostfile, xml, hosts, sizeof xml)) return 2;
    cs_platform_load(&pf, xml);
    if (np <= 0) np = pf.model.np;
    if (np <= 0) {
      fprintf(stderr, "collsim lanes: --np P: %s has no collsim-model line to take it from\n", xml);
      return 2;
    }
    if (cs_place_ranks("lanes", &pf, hosts, sizeof hosts, np, q->quiet, note, sizeof note, digest,
                       sizeof digest))
      return 2;
    cs_timing_flags(&pf, 0, flags, sizeof flags);
  } else if (np <= 0) {
    fprintf(stderr, "collsim lanes: --np P is needed with --backend mpi\n");
    return 2;
  }
  char tmp[4200] = "", outpath[4300];
  if (cs_make_tmpdir(tmp, sizeof tmp)) return 1;
  snprintf(outpath, sizeof outpath, "%s/rows.csv", tmp);
  cs_job j;
  memset(&j, 0, sizeof j);
  cs_argv_init(&j.args);
  j.np = np;
  snprintf(j.out, sizeof j.out, "%s/job.out", tmp);
  snprintf(j.err, sizeof j.err, "%s/job.err", tmp);
  if (q->smpi) {
    cs_argv_smpirun(&j.args, np, xml, hosts, flags);
    if (np > 2048) cs_argv_add(&j.args, "--cfg=contexts/guard-size:0");
    cs_argv_add(&j.args, "%s/collsim-smpi", cs_self_dir());
  } else {
    cs_argv_mpirun(&j.args, np, q->hostfile);
    cs_argv_add(&j.args, "%s/collsim-mpi", cs_self_dir());
  }
  cs_argv_add(&j.args, "lanes");
  cs_argv_add(&j.args, "--pattern=%s", q->pattern);
  cs_argv_add(&j.args, "--counts=%s", q->counts);
  if (q->ks) cs_argv_add(&j.args, "--k=%s", q->ks);
  if (q->reps > 0) cs_argv_add(&j.args, "--reps=%d", q->reps);
  if (q->warmup >= 0) cs_argv_add(&j.args, "--warmup=%d", q->warmup);
  if (q->inner > 0) cs_argv_add(&j.args, "--inner=%d", q->inner);
  cs_argv_add(&j.args, "--out=%s", outpath);
  char vn[32];
  if (q->vnode > 0) {
    snprintf(vn, sizeof vn, "%d", q->vnode);
    setenv("COLLSIM_VNODE", vn, 1);
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  cs_catch_interrupts(1);
  cs_run_jobs(&j, 1, 1, NULL, NULL);
  cs_catch_interrupts(0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  int rc = 0;
  if (j.status != 0) {
    fprintf(stderr, "collsim lanes: the run failed (status %d); its last lines:\n", j.status);
    cs_print_tail(j.err, 15);
    rc = 1;
  } else {
    FILE *f = q->out ? fopen(q->out, "w") : stdout, *in = fopen(outpath, "r");
    if (!f || !in) {
      fprintf(stderr, "collsim lanes: %s: %s\n", f ? outpath : q->out, strerror(errno));
      rc = 1;
    } else {
      fprintf(f,
              "# collsim lanes backend=%s platform=%s placement=%s np=%d "
              "pattern=%s vnode=%d\n",
              q->smpi ? "smpi" : "mpi", q->smpi ? xml : "",
              q->smpi ? digest : (q->hostfile ? q->hostfile : "localhost"), np, q->pattern,
              q->vnode);
      if (q->smpi) cs_csv_smpi_cfg(f, flags);
      cs_csv_command(f, cs_command());
      fprintf(f, "# wall: %.1f s\n", wall);
      cs_csv_write_header(f, CS_CSV_LANES);
      char line[1024];
      while (fgets(line, sizeof line, in)) fputs(line, f);
    }
    if (in) fclose(in);
    if (f && f != stdout) fclose(f);
  }
  if (!q->quiet)
    fprintf(stderr, "collsim lanes: %s on %d ranks: wall %.1f s\n", q->pattern, np, wall);
  if (!rc && q->plot && q->out) {
    char title[512];
    snprintf(title, sizeof title, "%s benchmark, %s, %d ranks",
             strcmp(q->pattern, "k-lane") ? "multi-collective (alltoall)" : "lane pattern",
             q->smpi ? q->platform : "mpirun", np);
    rc = cs_lanes_plot(q->out, q->pattern, q->plot, title);
  }
  cs_argv_free(&j.args);
  cs_platform_file_free(&pf);
  cs_rm_tree(tmp);
  return rc;
}

/* ---- the hydra study (issue 27 item 5) ------------------------------------ */

/* The rows of coll the study compares with the library: the registry's
 * node-aware rows (CS_NODE_AWARE: the full-lane and hierarchical
 * decompositions, and NAP for allreduce). */
static int study_rows(cs_coll coll, const cs_algo_info **out, int max) {
  int n = 0;
  for (int i = 0; i < cs_nalgos && n < max; i++) {
    const cs_algo_info *a = &cs_algos[i];
    if (a->coll != coll) continue;
    if (a->flags & CS_NODE_AWARE) out[n++] = a;
  }
  return n;
}

/* The name bench times row r under against library lib ("lib:ompi"): a row
 * that calls collectives inside (CS_INNER) calls that library's, as the
 * paper's decompositions call the library they are compared with
 * (ROW@lib:SEL); any other row is itself. */
static const char *paired(const cs_algo_info *r, const char *lib, char *buf, size_t len) {
  if (!(r->flags & CS_INNER)) return r->name;
  snprintf(buf, len, "%s@%s", r->name, lib);
  return buf;
}

/* Whether SMPI runs the same algorithm for coll under every selector: it has
 * one algorithm for it and no setting (algos/smpi.def). */
static int one_library(cs_coll coll) { return cs_smpi_cfg_key(coll) == NULL; }

static double lanes_time(const char *csv, const char *pattern, long count, int k) {
  cs_csv_reader r;
  double t = -1;
  if (cs_csv_open(&r, csv)) return -1;
  int kind;
  while ((kind = cs_csv_next(&r)) > 0) {
    if (kind != 1) continue;
    const char *p = cs_csv_get(&r, cs_csv_col(&r, "pattern")),
               *c = cs_csv_get(&r, cs_csv_col(&r, "count")),
               *kk = cs_csv_get(&r, cs_csv_col(&r, "k")),
               *m = cs_csv_get(&r, cs_csv_col(&r, "mean_s"));
    if (p && c && kk && m && !strcmp(p, pattern) && atol(c) == count && atoi(kk) == k) t = atof(m);
  }
  cs_csv_close(&r);
  return t;
}

static void ratio_cell(FILE *f, double num, double den) {
  if (num > 0 && den > 0)
    fprintf(f, " %.2f |", num / den);
  else
    fputs(" - |", f);
}

int cs_lanes_study(const char *dir, const char *platform, int quick, int full_scan) {
  static const char *const colls[] = {"bcast", "allgather", "allreduce", "scan"};
  /* The paper's counts (MPI_INT): bcast, allreduce, scan c = 1152 .. 11 520 000
   * per process; allgather block counts c = 1 .. 100 000 (Figs. 5-7). The
   * default samples them so that the study ends in 10 minutes here. */
  static const long full_vec[] = {1152, 115200, 11520000}, quick_vec[] = {1152, 115200},
                    full_blk[] = {1, 100, 1000}, quick_blk[] = {1, 100};
  const long *vec = quick ? quick_vec : full_vec, *blk = quick ? quick_blk : full_blk;
  int nvec = quick ? 2 : 3, nblk = quick ? 2 : 3;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (cs_mkdir_p(dir)) {
    fprintf(stderr, "collsim lanes: cannot create %s: %s\n", dir, strerror(errno));
    return 1;
  }
  char path[4300], plots[4300], counts[256] = "";
  snprintf(plots, sizeof plots, "%s/plots", dir);
  for (int i = 0; i < nvec; i++)
    snprintf(counts + strlen(counts), sizeof counts - strlen(counts), "%s%ld", i ? "," : "",
             vec[i]);
  /* 1. The two benchmarks (Figs. 1-2). */
  for (int pat = 0; pat < 2; pat++) {
    cs_lanes_req q = {1,  platform, NULL, 0,     0, pat ? "multi" : "k-lane", counts, NULL, -1,
                      -1, -1,       NULL, plots, 1};
    snprintf(path, sizeof path, "%s/lanes-%s.csv", dir, q.pattern);
    q.out = path;
    fprintf(stderr, "collsim lanes --study: %s benchmark\n", q.pattern);
    if (cs_lanes_run(&q)) return 1;
  }
  /* 2. The collectives, native (Open MPI's and MPICH's selectors) against the
   * registry's lane and hier rows (Figs. 5-7). */
  static const char *const libs[2] = {"lib:ompi", "lib:mpich"};
  const cs_algo_info *rows[CS_MAX_ALGOS];
  static char names[CS_MAX_ALGOS][64];
  int np[4] = {0}, nodes = 0;
  for (int c = 0; c < 4; c++) {
    cs_bench_req q;
    cs_bench_defaults(&q);
    q.smpi = 1;
    if (cs_resolve_platform(platform, NULL, q.xml, q.hosts, sizeof q.xml)) return 2;
    cs_platform_file pf;
    cs_platform_load(&pf, q.xml);
    q.np = np[c] = pf.model.np;
    q.coll = (cs_coll)cs_coll_by_name(colls[c]);
    /* SMPI 3.32 has one scan (linear, smpi_coll.cpp) under every selector,
     * and at 1152 ranks one call of it costs about 7 minutes of wall time
     * (its waits grow as p^3: docs/multilane.md "Cost"): scan runs on the
     * first quarter of the nodes (64 times cheaper), on all with full_scan. */
    if (one_library(q.coll) && !full_scan && pf.model.nodes > 8) {
      nodes = (pf.model.nodes + 3) / 4;
      q.np = np[c] = nodes * pf.model.ppn;
    }
    cs_platform_file_free(&pf);
    if (np[c] <= 0) {
      fprintf(stderr, "collsim lanes --study: %s has no collsim-model line (np)\n", q.xml);
      return 2;
    }
    /* one row of the library's scan: the summary's lib:mpich column of scan
     * is lib:ompi's */
    int nlib = one_library(q.coll) ? 1 : 2;
    q.algos[0] = libs[0];
    q.algos[1] = libs[1];
    q.nalgos = nlib;
    int n = study_rows(q.coll, rows, CS_MAX_ALGOS / 2 - 1);
    for (int i = 0; i < n; i++)
      for (int l = 0; l < 2; l++) {
        const char *name = paired(rows[i], libs[l], names[q.nalgos], sizeof names[0]);
        if (l == 0 || strcmp(name, q.algos[q.nalgos - 1])) q.algos[q.nalgos++] = name;
      }
    q.type = CS_BENCH_INT;
    int blocked = !strcmp(colls[c], "allgather");
    q.nbytes = blocked ? nblk : nvec;
    for (int i = 0; i < q.nbytes; i++)
      q.bytes[i] = blocked ? cs_size_from_block(q.coll, q.np, 4 * blk[i]) : 4 * vec[i];
    snprintf(path, sizeof path, "%s/%s.csv", dir, colls[c]);
    q.out = path;
    q.quiet = 1;
    q.redo_foreign = 1;
    q.verify = 1; /* the library's results; collsim's rows are proven by check */
    q.stage = "study";
    fprintf(stderr, "collsim lanes --study: %s (%d algorithms)\n", colls[c], q.nalgos);
    if (cs_bench_run(&q)) return 1;
    const char *one[1] = {path};
    if (cs_plot_files(one, 1, plots, 1, 0, stdout)) return 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  /* 3. The summary. */
  snprintf(path, sizeof path, "%s/summary.md", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "collsim lanes: %s: %s\n", path, strerror(errno));
    return 1;
  }
  char lane[4300], multi[4300];
  snprintf(lane, sizeof lane, "%s/lanes-k-lane.csv", dir);
  snprintf(multi, sizeof multi, "%s/lanes-multi.csv", dir);
  fprintf(f,
          "# Multi-lane study on %s (Traff and Hunold 2020)\n\n"
          "Made by `%s` in %.0f s of wall time. Times are simulated (SMPI), MPI_INT data;\n"
          "ratios above 1 mean the second-named is faster. The pictures are in plots/.\n\n"
          "## The benchmarks (Figs. 1-3)\n\n"
          "| count c | lane: t(k=1)/t(k=2) | lane: t(k=1)/t(k=8) | multi: t(k=2)/t(k=1) | "
          "multi: t(k=8)/t(k=1) |\n|---|---|---|---|---|\n",
          platform, cs_command(), wall);
  for (int i = 0; i < nvec; i++) {
    fprintf(f, "| %ld |", vec[i]);
    ratio_cell(f, lanes_time(lane, "k-lane", vec[i], 1), lanes_time(lane, "k-lane", vec[i], 2));
    ratio_cell(f, lanes_time(lane, "k-lane", vec[i], 1), lanes_time(lane, "k-lane", vec[i], 8));
    ratio_cell(f, lanes_time(multi, "multi", vec[i], 2), lanes_time(multi, "multi", vec[i], 1));
    ratio_cell(f, lanes_time(multi, "multi", vec[i], 8), lanes_time(multi, "multi", vec[i], 1));
    fputc('\n', f);
  }
  fprintf(f,
          "\nThe paper: the lane pattern ~2x faster for k >= 2 at large c and no penalty at\n"
          "small c; >= 2 concurrent alltoalls sustained (t(k=2)/t(k=1) about 1).\n\n"
          "## The collectives against the library (Figs. 5-7)\n\n"
          "Each ratio pairs a library with itself: lib:ompi against the row calling\n"
          "lib:ompi's collectives inside (ROW@lib:ompi), lib:mpich against ROW@lib:mpich,\n"
          "as the paper's decompositions call the library they are compared with (a row\n"
          "that calls no collective inside is compared as it is).\n\n"
          "| collective | count c | row | lib:ompi / row@lib:ompi | lib:mpich / row@lib:mpich | "
          "the paper |\n"
          "|---|---|---|---|---|---|\n");
  for (int c = 0; c < 4; c++) {
    snprintf(path, sizeof path, "%s/%s.csv", dir, colls[c]);
    cs_coll coll = (cs_coll)cs_coll_by_name(colls[c]);
    int n = study_rows(coll, rows, CS_MAX_ALGOS / 2 - 1), blocked = !strcmp(colls[c], "allgather");
    const char *claim = !strcmp(colls[c], "bcast")       ? "lane ~3x over native at large c"
                        : !strcmp(colls[c], "allreduce") ? "lane ~2x over MPICH"
                        : !strcmp(colls[c], "scan")      ? "lane 10-20x over native"
                                                         : "lane >3x over native at c = 100";
    if (!n) fprintf(f, "| %s | - | (no lane or hier row yet) | - | - | %s |\n", colls[c], claim);
    for (int r = 0; r < n; r++)
      for (int i = 0; i < (blocked ? nblk : nvec); i++) {
        long cnt = blocked ? blk[i] : vec[i];
        long m = blocked ? cs_size_from_block(coll, np[c], 4 * cnt) : 4 * cnt;
        char b0[64], b1[64];
        double t0 = cs_bench_lookup(path, paired(rows[r], libs[0], b0, sizeof b0), m),
               t1 = cs_bench_lookup(path, paired(rows[r], libs[1], b1, sizeof b1), m);
        fprintf(f, "| %s | %ld | %s |", colls[c], cnt, rows[r]->name);
        ratio_cell(f, cs_bench_lookup(path, libs[0], m), t0);
        ratio_cell(f, cs_bench_lookup(path, one_library(coll) ? libs[0] : libs[1], m), t1);
        fprintf(f, " %s |\n", claim);
      }
  }
  fprintf(f,
          "\nscan: SMPI 3.32 runs one linear scan under every selector, so lib:ompi and\n"
          "lib:mpich are one row, timed once as lib:ompi: each rank waits p - 1 times with\n"
          "Request::waitany over its p - 1 requests, p^3 / 2 request registrations,\n"
          "about 7 minutes of wall time per call at 1152 ranks (docs/multilane.md \"Cost\").\n"
          "%s: %d processes%s.\n",
          nodes ? "So this run's scan ran on the first quarter of the nodes"
                : "This run's scan ran on all the nodes",
          np[3], nodes ? " (--full-scan runs it on all of them: 7 minutes per call)" : "");
  fprintf(f,
          "\nSee docs/multilane.md for where the simulation agrees with the paper, where not,\n"
          "and why.\n");
  fclose(f);
  printf("%s/summary.md\n", dir);
  fprintf(stderr, "collsim lanes --study: wall %.1f s\n", wall);
  return 0;
}
