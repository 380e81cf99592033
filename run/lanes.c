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
#include "results.h"

int cs_lanes_plot(const char *csv, const char *pattern, const char *dir, const char *title) {
  const char *gp = cs_plot_scripts_dir();
  if (!gp) return 1;
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
  char assign[16384], script[4300], png[4300], ratio[4300];
  snprintf(script, sizeof script, "%s/lanes.gp", gp);
  snprintf(png, sizeof png, "%s/lanes-%s-time.png", dir, pattern);
  snprintf(ratio, sizeof ratio, "%s/lanes-%s-ratio.png", dir, pattern);
  snprintf(assign, sizeof assign,
           "csv='%s'; pattern='%s'; counts='%s'; ttl='%s'; outpng='%s'; outratio='%s'", csv,
           pattern, counts, title, png, ratio);
  pid_t pid = fork();
  if (pid == 0) {
    const char *g = getenv("COLLSIM_GNUPLOT");
    execlp(g && *g ? g : "gnuplot", "gnuplot", "-e", assign, script, (char *)NULL);
    fprintf(stderr, "collsim lanes: cannot run gnuplot: %s\n", strerror(errno));
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
    fprintf(stderr, "collsim lanes: gnuplot failed (script %s)\n", script);
    return 1;
  }
  printf("%s\n%s\n", png, ratio);
  return 0;
}

int cs_lanes_run(const cs_lanes_req *q) {
  if (!q->pattern || (strcmp(q->pattern, "lane") && strcmp(q->pattern, "multi"))) {
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
             strcmp(q->pattern, "lane") ? "multi-collective (alltoall)" : "lane pattern",
             q->smpi ? q->platform : "mpirun", np);
    rc = cs_lanes_plot(q->out, q->pattern, q->plot, title);
  }
  cs_argv_free(&j.args);
  cs_platform_file_free(&pf);
  cs_rm_tree(tmp);
  return rc;
}
