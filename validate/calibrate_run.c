/* ./collsim calibrate as a run: this machine measured with the driver under
 * mpirun (ping-pong, concurrent flows, local reduction and copy) over
 * several launches, the model parameters fitted (validate/calibfit.c), a
 * SimGrid platform written (platforms/platgen.h) and re-measured under
 * smpirun to show that it reproduces the fit. See docs/calibrate.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "calibrate_run.h"
#include "calibration.h"
#include "files.h"
#include "launch.h"
#include "launches.h"
#include "platgen.h"

/* ---- running the driver ------------------------------------------------------- */

typedef struct {
  int smpi, np, quick, reps;
  long max_bytes;
  const char *hostfile, *platform, *samples;
  int launch; /* 0: one launch (no launch argument) */
} run_spec;

static int run_driver(const run_spec *rs, const char *tmpdir, const char *label) {
  cs_job j;
  memset(&j, 0, sizeof j);
  j.np = rs->np;
  snprintf(j.out, sizeof j.out, "%s/%s.out", tmpdir, label);
  snprintf(j.err, sizeof j.err, "%s/%s.err", tmpdir, label);
  cs_argv_init(&j.args);
  if (rs->smpi) {
    cs_argv_smpirun(&j.args, rs->np, rs->platform, rs->hostfile,
                    cs_platform_smpirun_flags_for(rs->platform));
    cs_argv_add(&j.args, "%s/collsim-smpi", cs_self_dir());
  } else {
    cs_argv_mpirun(&j.args, rs->np, rs->hostfile);
    cs_argv_add(&j.args, "%s/collsim-mpi", cs_self_dir());
  }
  cs_argv_add(&j.args, "calibrate");
  cs_argv_add(&j.args, "--samples");
  cs_argv_add(&j.args, "%s", rs->samples);
  if (rs->quick) cs_argv_add(&j.args, "--quick");
  if (rs->reps) cs_argv_add(&j.args, "--reps");
  if (rs->reps) cs_argv_add(&j.args, "%d", rs->reps);
  if (rs->max_bytes) cs_argv_add(&j.args, "--max-bytes");
  if (rs->max_bytes) cs_argv_add(&j.args, "%ld", rs->max_bytes);
  if (rs->launch) cs_argv_add(&j.args, "--launch");
  if (rs->launch) cs_argv_add(&j.args, "%d", rs->launch);
  int rc = cs_run_jobs(&j, 1, 1, NULL, NULL);
  int ok = rc == 0 && WIFEXITED(j.status) && WEXITSTATUS(j.status) == 0;
  if (!ok) {
    fprintf(stderr, "collsim calibrate: the %s run (%s) %s; last lines of its stderr:\n", label,
            j.args.v[0], WIFSIGNALED(j.status) ? "was killed" : "failed");
    cs_print_tail(j.err, 12);
  }
  cs_argv_free(&j.args);
  return ok ? 0 : -1;
}

/* ---- several launches (launches.h) --------------------------------------------- */

typedef struct {
  run_spec rs;
  const char *tmpdir;
} launch_ctx;

static int one_launch(void *vc, int launch, const char *path) {
  launch_ctx *c = vc;
  run_spec rs = c->rs;
  char label[32];
  snprintf(label, sizeof label, "measure-L%d", launch);
  rs.samples = path;
  rs.launch = launch;
  return run_driver(&rs, c->tmpdir, label);
}

/* Appends the rows of a launch's samples file (not its comments and header) to out. */
static int append_rows(FILE *out, const char *path) {
  FILE *in = fopen(path, "r");
  if (!in) return -1;
  char line[4096];
  int header_seen = 0;
  while (fgets(line, sizeof line, in)) {
    if (line[0] == '#') continue;
    if (!header_seen) {
      header_seen = 1;
      continue;
    }
    fputs(line, out);
  }
  fclose(in);
  return 0;
}

/* Measures over n launches into stem-L<k>.csv and joins them (the first whole,
 * the others' rows; each row has its launch) into samp; one launch writes samp
 * itself. */
static int measure_launches(const run_spec *rs, int n, const char *samp, const char *tmpdir) {
  if (n == 1) return run_driver(rs, tmpdir, "measure");
  char stem[4200];
  size_t l = strlen(samp);
  snprintf(stem, sizeof stem, "%.*s", (int)(l > 4 && !strcmp(samp + l - 4, ".csv") ? l - 4 : l),
           samp);
  launch_ctx c = {*rs, tmpdir};
  if (cs_launches_run("calibrate", stem, ".csv", n, one_launch, &c)) return -1;
  FILE *out = fopen(samp, "w");
  if (!out) {
    fprintf(stderr, "collsim calibrate: cannot write %s: %s\n", samp, strerror(errno));
    return -1;
  }
  int rc = 0;
  for (int k = 1; k <= n && !rc; k++) {
    char path[4400];
    cs_launch_path(path, sizeof path, stem, k, ".csv");
    if (k == 1) {
      FILE *in = fopen(path, "r");
      char buf[65536];
      size_t got;
      rc = in ? 0 : -1;
      while (in && (got = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, got, out) != got) rc = -1;
      if (in) fclose(in);
    } else {
      rc = append_rows(out, path);
    }
    if (rc) fprintf(stderr, "collsim calibrate: cannot join %s into %s\n", path, samp);
  }
  if (fclose(out)) rc = -1;
  return rc;
}

/* ---- output files -------------------------------------------------------------- */

static int mkdir_parent(const char *file) {
  char buf[4096];
  if ((size_t)snprintf(buf, sizeof buf, "%s", file) >= sizeof buf) return -1; /* path too long */
  char *slash = strrchr(buf, '/');
  if (!slash || slash == buf) return 0;
  *slash = '\0';
  return cs_mkdir_p(buf);
}

/* ---- verification: the written platform, measured under smpirun ------------------ */

/* Re-measures the written platform with the same driver under smpirun and
 * compares the fitted figures with the platform's parameters. Returns the
 * largest relative difference, or -1 if the run failed. */
static double verify(const char *xml, const char *hostfile, const cs_platform *pl, int quick,
                     long max_bytes, const char *tmpdir) {
  char spath[4300];
  snprintf(spath, sizeof spath, "%s/verify-samples.csv", tmpdir);
  /* Segments are checked at every size the calibration measured (one repetition:
   * the simulated clock is exact); one line at the --quick sizes. */
  int full = (pl->net.n > 0 || pl->local.n > 0 || pl->copy.n > 0) && !quick;
  run_spec rs = {1, pl->np, !full, full, full ? max_bytes : 0, hostfile, xml, spath, 0};
  if (run_driver(&rs, tmpdir, "verify")) return -1;
  return cs_calib_verify(stdout, spath, xml, pl);
}

int cs_calibrate_run(const cs_calib_req *r) {
  int smpi = r->smpi, quick = r->quick, reps = r->reps, launches = r->launches;
  long np = r->np, max_bytes = r->max_bytes;
  const char *hostfile = r->hostfile, *platform = r->platform, *out = r->out;
  size_t ol = strlen(out);
  char stem[4096], hf_out[4200], samp[4200];
  snprintf(stem, sizeof stem, "%.*s", (int)(ol - 4), out);
  snprintf(hf_out, sizeof hf_out, "%s.hostfile", stem);
  if (r->samples)
    snprintf(samp, sizeof samp, "%s", r->samples);
  else
    snprintf(samp, sizeof samp, "%s-samples.csv", stem);
  if (mkdir_parent(out) || mkdir_parent(samp)) {
    fprintf(stderr, "collsim calibrate: cannot create the directory of %s or %s: %s\n", out, samp,
            strerror(errno));
    return 1;
  }
  char tmp[4096];
  if (cs_make_tmpdir(tmp, sizeof tmp)) {
    perror("collsim calibrate: temporary directory");
    return 1;
  }

  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (!smpi && !hostfile && cores > 0 && np > cores)
    printf(
        "collsim calibrate: WARNING: %ld ranks on %ld cores without a hostfile: the ranks\n"
        "  share cores (oversubscribed) and the fits describe time-sharing, not the machine;\n"
        "  use --np <= %ld here, or a hostfile spreading the ranks over nodes.\n",
        np, cores, cores);
  printf("collsim calibrate: measuring with %d ranks (%s%s%s)", (int)np,
         smpi ? "smpirun, " : "mpirun", smpi ? "platform " : "", smpi ? platform : "");
  if (launches > 1)
    printf(", %d launches (each size: the median of the launches' medians)", launches);
  printf("...\n");
  fflush(stdout);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  run_spec rs = {smpi, (int)np, quick, reps, max_bytes, hostfile, platform, samp, 0};
  int rc = 1;
  cs_calib_samples S;
  memset(&S, 0, sizeof S);
  if (measure_launches(&rs, launches, samp, tmp)) goto done;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  if (cs_calib_read_samples(samp, &S)) goto done;
  printf("measured %d ranks on %d node%s (node 0: %s, %d ranks), %s, in %.1f s: %ld samples\n",
         S.np, S.nodes, S.nodes == 1 ? "" : "s", S.node_host[0], S.node_ranks[0], S.library, secs,
         S.rows);
  cs_calib_analysis A;
  cs_calib_analyze(&S, &A);
  cs_calib_print_analysis(stdout, &S, &A);
  double load = -1;
  if (getloadavg(&load, 1) != 1) load = -1;
  cs_calib_spread_warnings(stderr, &A, launches, load, (int)cores);
  cs_calib_platform C;
  if (cs_calib_choose_platform(&S, &A, r->linear, r->pingpong, &C)) goto done;
  if (!smpi && !hostfile && cores > 0 && np > cores) {
    /* Said in the platform's comment too, so that validate's report quotes it. */
    size_t nl = strlen(C.note);
    snprintf(C.note + nl, sizeof C.note - nl,
             "WARNING: measured with %ld ranks on %ld cores (oversubscribed).\n", np, cores);
  }
  if (cs_calib_write_platform(out, hf_out, &S, &A, &C, samp, secs)) goto done;
  printf("platform: %s", C.note);
  if (C.pl.kind == CS_PLAT_ABG)
    printf("  written: abg, %d ranks (one per host): alpha %.4g s, beta %.4g s/B, gamma %.4g s/B\n",
           C.pl.np, C.pl.alpha, C.pl.beta, C.pl.gamma);
  else
    printf(
        "  written: %s, %d nodes x %d ranks: alpha %.4g s, Rb %.4g B/s, RN %.4g B/s (beta %.4g s/B),\n"
        "           alpha_l %.4g s, beta_l %.4g s/B, gamma %.4g s/B\n",
        cs_platform_kind_name(C.pl.kind), C.pl.nodes, C.pl.ppn, C.pl.alpha, C.pl.Rb, C.pl.RN,
        C.pl.beta, C.pl.alpha_l, C.pl.beta_l, C.pl.gamma);
  rc = 0;
  if (r->do_verify) {
    double worst = verify(out, hf_out, &C.pl, quick, max_bytes, tmp);
    if (worst < 0) {
      printf("verify: FAILED (smpirun could not run the written platform)\n");
      rc = 1;
    } else if (worst > 0.01) {
      printf("verify: FAILED (largest relative difference %.3g > 1%%)\n", worst);
      rc = 1;
    } else {
      printf(
          "verify: ok (smpirun loads the platform and reproduces the fit; largest rel. diff %.2g)\n",
          worst);
    }
  }
  printf("files:\n  platform  %s\n  hostfile  %s\n  samples   %s\n", out, hf_out, samp);
  printf("use: smpirun -np %d -platform %s -hostfile %s -no-privatize %s PROGRAM\n", C.pl.np, out,
         hf_out, cs_platform_smpirun_flags_for(out));
done:
  cs_calib_samples_free(&S);
  cs_rm_tree(tmp);
  return rc;
}
