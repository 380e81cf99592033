/* ./collsim calibrate: its options, then the run (validate/calibrate_run.c).
 * See docs/calibrate.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate_run.h"
#include "cli.h"
#include "units.h"
#include "launches.h"

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
      "  --max-bytes B    largest message and local-work size, e.g. 4M (default 16 MiB,\n"
      "                   --quick 1 MiB)\n"
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

/* ---- the command ----------------------------------------------------------------- */

int cmd_calibrate(int argc, char **argv) {
  const char *np_s = "2", *hostfile = NULL, *backend = "mpi", *platform = NULL,
             *out = "results/calibrate/platform.xml", *samples_path = NULL, *net = "exchange";
  int quick = 0, reps = 0, do_verify = 1, linear = 0, launches = 0;
  long max_bytes = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    const cs_optval valued[] = {{"--np", &np_s},         {"--hostfile", &hostfile},
                                {"--backend", &backend}, {"--platform", &platform},
                                {"--out", &out},         {"--samples", &samples_path},
                                {"--net", &net}};
    int took = cs_take_opt("calibrate", argc, argv, &i, valued, sizeof valued / sizeof valued[0]);
    if (took < 0) return 2;
    if (took) continue;
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
      char *end = NULL;
      int is_reps = a[2] == 'r';
      double x = -1;
      /* --max-bytes takes a size (1M, 64K: the one size parser) */
      if (val && (is_reps ? (x = (double)strtol(val, &end, 10), end == val || *end)
                          : cs_parse_unit(val, CS_UNIT_BYTES, &x) != 0))
        x = -1;
      long v = (long)x;
      if (!val || (is_reps ? v < 1 || v > 100000 : v < 16 || v > (1L << 30))) {
        fprintf(stderr, "collsim calibrate: %s needs %s\n", a,
                is_reps ? "a number of repetitions 1..100000"
                        : "a byte count 16..1073741824 (suffixes K, M, G: 1M)");
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
  cs_calib_req r = {smpi,     (int)np,   quick,    reps,     launches, do_verify,   linear,
                    pingpong, max_bytes, hostfile, platform, out,      samples_path};
  return cs_calibrate_run(&r);
}
