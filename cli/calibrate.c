/* collsim calibrate: measures this machine with the driver under mpirun
 * (ping-pong, concurrent flows, local reduction and copy), fits the model
 * parameters (validate/calibfit.c) and writes a SimGrid platform that smpirun
 * can load (platforms/platgen.h), then re-measures that platform under
 * smpirun to show that it reproduces the fit. See docs/calibrate.md. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "calibration.h"
#include "cli.h"
#include "launches.h"
#include "platgen.h"

static void cal_usage(FILE *f) {
  fprintf(
      f,
      "usage: collsim calibrate [options]\n"
      "Measures the machine it runs on (ping-pong over 0 B .. 16 MiB, intra- and inter-node;\n"
      "concurrent flows; MPI_Reduce_local and memcpy), fits alpha, beta, alpha_l, beta_l, Rb,\n"
      "RN, gamma, and writes a SimGrid platform (abg on one node, maxrate on several) with its\n"
      "hostfile, then re-measures that platform under smpirun as a check. The abg platform\n"
      "(one node, or one rank per node) carries segmented fits (breakpoints found from the\n"
      "data) of the ping-pong (smpi/lat-factor, smpi/bw-factor) and of the local reduction.\n"
      "  --np N           processes (default 2)\n"
      "  --hostfile F     hostfile for mpirun (several nodes: inter-node pairs and flows)\n"
      "  --backend B      mpi (mpirun with Open MPI, default) or smpi (measure a simulated\n"
      "                   machine given by --platform, e.g. to test the fits)\n"
      "  --platform X     with --backend smpi: the platform file to measure\n"
      "  --out FILE.xml   platform to write (default results/calibrate/platform.xml);\n"
      "                   its hostfile goes next to it (FILE.hostfile)\n"
      "  --samples FILE   raw samples, CSV (default FILE-samples.csv next to the XML)\n"
      "  --quick          fewer sizes (up to 1 MiB) and repetitions, for tests\n"
      "  --reps N         repetitions per size (default: ping-pong 100/40/20 by size, flows 20,\n"
      "                   local work 20; --quick 10/5/5), after 5 (--quick 2) warm-ups\n"
      "  --max-bytes B    largest message and local-work size (default 16 MiB, --quick 1 MiB)\n"
      "  --net W          the measurement an abg platform's network is fitted to: exchange\n"
      "                   (MPI_Sendrecv both ways at once, as the kernels do; default) or\n"
      "                   pingpong (one direction at a time)\n"
      "  --launches N     mpirun launches to measure over (default %d; 1 with --backend smpi\n"
      "                   or --quick): each size's time is the median of the launches'\n"
      "                   medians, and the launch-to-launch spread is printed; the\n"
      "                   launches' samples are kept (FILE-samples-L<k>.csv) and joined\n"
      "  --no-verify      skip the smpirun re-measurement of the written platform\n"
      "  --linear         one alpha-beta line and one gamma (no segments: the platform runs\n"
      "                   under CM02 like `collsim platform abg`)\n"
      "Exit status: 0 done, 1 a measurement, fit, write or the verification failed, 2 bad usage.\n",
      CS_DEFAULT_LAUNCHES);
}

/* ---- running the driver ------------------------------------------------------- */

typedef struct {
  int smpi, np, quick, reps;
  long max_bytes;
  const char *hostfile, *platform, *samples;
  int launch; /* 0: one launch (no launch argument) */
} run_spec;

static int run_driver(const run_spec *rs, const char *tmpdir, const char *label) {
  job_t j;
  memset(&j, 0, sizeof j);
  j.np = rs->np;
  snprintf(j.out, sizeof j.out, "%s/%s.out", tmpdir, label);
  snprintf(j.err, sizeof j.err, "%s/%s.err", tmpdir, label);
  argv_init(&j.args);
  if (rs->smpi) {
    cs_argv_smpirun(&j.args, rs->np, rs->platform, rs->hostfile, 1);
    argv_add(&j.args, "%s/collsim-smpi", cs_self_dir());
  } else {
    cs_argv_mpirun(&j.args, rs->np, rs->hostfile);
    argv_add(&j.args, "%s/collsim-mpi", cs_self_dir());
  }
  argv_add(&j.args, "calibrate");
  argv_add(&j.args, "--samples");
  argv_add(&j.args, "%s", rs->samples);
  if (rs->quick) argv_add(&j.args, "--quick");
  if (rs->reps) argv_add(&j.args, "--reps");
  if (rs->reps) argv_add(&j.args, "%d", rs->reps);
  if (rs->max_bytes) argv_add(&j.args, "--max-bytes");
  if (rs->max_bytes) argv_add(&j.args, "%ld", rs->max_bytes);
  if (rs->launch) argv_add(&j.args, "--launch");
  if (rs->launch) argv_add(&j.args, "%d", rs->launch);
  int rc = cs_run_jobs(&j, 1, 1, NULL, NULL);
  int ok = rc == 0 && WIFEXITED(j.status) && WEXITSTATUS(j.status) == 0;
  if (!ok) {
    fprintf(stderr, "collsim calibrate: the %s run (%s) %s; last lines of its stderr:\n", label,
            j.args.v[0], WIFSIGNALED(j.status) ? "was killed" : "failed");
    cs_print_tail(j.err, 12);
  }
  argv_free(&j.args);
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

/* ---- the command ----------------------------------------------------------------- */

int cmd_calibrate(int argc, char **argv) {
  const char *np_s = "2", *hostfile = NULL, *backend = "mpi", *platform = NULL,
             *out = "results/calibrate/platform.xml", *samples_path = NULL, *net = "exchange";
  int quick = 0, reps = 0, do_verify = 1, linear = 0, launches = 0;
  long max_bytes = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
// clang-format off
#define OPT(name, var) CS_OPT("calibrate", name, var)
    OPT("--np", np_s)
    OPT("--hostfile", hostfile)
    OPT("--backend", backend)
    OPT("--platform", platform)
    OPT("--out", out)
    OPT("--samples", samples_path)
    OPT("--net", net)
#undef OPT
    // clang-format on
    if (!strcmp(a, "--quick"))
      quick = 1;
    else if (!strcmp(a, "--no-verify"))
      do_verify = 0;
    else if (!strcmp(a, "--linear"))
      linear = 1;
    else if (!strcmp(a, "--launches")) {
      if ((launches = cs_launches_parse("calibrate", val)) < 0) return 2;
      i++;
    } else if (!strcmp(a, "--reps") || !strcmp(a, "--max-bytes")) {
      char *end;
      long v = val ? strtol(val, &end, 10) : 0;
      int is_reps = a[2] == 'r';
      if (!val || *end || end == val ||
          (is_reps ? v < 1 || v > 100000 : v < 16 || v > (1L << 30))) {
        fprintf(stderr, "collsim calibrate: %s needs %s\n", a,
                is_reps ? "a number of repetitions 1..100000" : "a byte count 16..1073741824");
        return 2;
      }
      if (is_reps)
        reps = (int)v;
      else
        max_bytes = v;
      i++;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      cal_usage(stdout);
      return 0;
    } else {
      fprintf(
          stderr,
          "collsim calibrate: unknown option '%s' (valid: --np, --hostfile, --backend, --platform, "
          "--out, --samples, --net, --quick, --reps, --max-bytes, --launches, --no-verify, --linear, "
          "--help)\n",
          a);
      return 2;
    }
  }
  int pingpong = !strcmp(net, "pingpong");
  if (!pingpong && strcmp(net, "exchange")) {
    fprintf(stderr, "collsim calibrate: unknown --net '%s' (valid: exchange, pingpong)\n", net);
    return 2;
  }
  int smpi = !strcmp(backend, "smpi");
  if (!smpi && strcmp(backend, "mpi")) {
    fprintf(stderr, "collsim calibrate: unknown --backend '%s' (valid: mpi, smpi)\n", backend);
    return 2;
  }
  /* A simulated machine repeats itself exactly; --quick is for tests. */
  if (!launches) launches = smpi || quick ? 1 : CS_DEFAULT_LAUNCHES;
  if (smpi != (platform != NULL)) {
    fprintf(stderr, "collsim calibrate: %s\n",
            smpi ? "--backend smpi needs --platform FILE.xml (the simulated machine to measure)"
                 : "--platform goes with --backend smpi only");
    return 2;
  }
  char *end;
  long np = strtol(np_s, &end, 10);
  if (*end || end == np_s || np < 2 || np > 100000) {
    fprintf(
        stderr,
        "collsim calibrate: --np '%s': needs a number of processes >= 2 (ping-pong needs a pair)\n",
        np_s);
    return 2;
  }
  size_t ol = strlen(out);
  if (ol < 5 || strcmp(out + ol - 4, ".xml")) {
    fprintf(stderr, "collsim calibrate: --out '%s': the platform file name must end in .xml\n",
            out);
    return 2;
  }
  const char *inputs[2] = {hostfile, platform};
  for (int i = 0; i < 2; i++)
    if (inputs[i] && access(inputs[i], R_OK)) {
      fprintf(stderr, "collsim calibrate: cannot read %s: %s\n", inputs[i], strerror(errno));
      return 2;
    }
  char stem[4096], hf_out[4200], samp[4200];
  snprintf(stem, sizeof stem, "%.*s", (int)(ol - 4), out);
  snprintf(hf_out, sizeof hf_out, "%s.hostfile", stem);
  if (samples_path)
    snprintf(samp, sizeof samp, "%s", samples_path);
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
  cs_calib_platform C;
  if (cs_calib_choose_platform(&S, &A, linear, pingpong, &C)) goto done;
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
  if (do_verify) {
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
