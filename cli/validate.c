/* ./collsim validate: predict each case with the analytic model and with
 * SMPI on a (calibrated) platform, measure it with mpirun, and report the
 * relative error of each prediction (docs/csv.md "validate"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "launches.h"
#include "validate_run.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: collsim validate --coll C[,C2...] --algos A,B --np P --bytes LIST\n"
          "                        (--algo: the same as --algos)\n"
          "                        [--platform F] [--out DIR] [--hostfile H] [--reps R]\n"
          "                        [--launches N] [--type T] [--redo]\n"
          "Predicts every (algorithm, size) with collsim's model and with SMPI on platform F\n"
          "(default results/calibrate/platform.xml, written by `collsim calibrate`), measures\n"
          "it on this MPI library with mpirun (median of R repetitions after warm-up, 95%%\n"
          "confidence interval of the median), and writes DIR/validate-COLL-pP-TYPE.csv, .md\n"
          "(median and worst relative errors, overall and for m >= 64 KiB) and .png (predicted\n"
          "against measured; default DIR results/validate); one report per collective, p and\n"
          "type, each stating the calibration used, the datatype, the machine's load, every\n"
          "median's interval and the cases whose interval is wider than the error (unstable).\n"
          "Measurements are taken in N mpirun launches (--launches, default %d): within\n"
          "a launch the algorithms of a size run in rounds; a case's time is the median of\n"
          "the launches' medians, and the report gives the launch-to-launch spread and\n"
          "flags cases whose spread is wider than the error. --launches 1: one launch.\n"
          "Each launch also re-measures a few of calibrate's own probes between the sizes\n"
          "(drift probes, DIR/probes-COLL-pP-TYPE-L<k>.csv), priced on the platform: the\n"
          "report says whether the machine is still in the state it was calibrated in.\n"
          "On a 2-core machine use --np 2 for timing (more ranks than cores is warned\n"
          "about); on a cluster give --hostfile. Measurements already in DIR are reused\n"
          "(resumable, per launch: DIR/measured-COLL-pP-TYPE-L<k>.csv; more launches add to\n"
          "them) when they were made the same way (platform, placement, reps, ...: the\n"
          "files' first lines); a run that differs is refused, naming what differs.\n"
          "  --type T         byte (MPI_BOR; default), int (MPI_SUM) or double (MPI_MAX);\n"
          "                   each type has files of its own\n"
          "  --redo           measure and simulate again (the files of this collective, p and\n"
          "                   type start over)\n"
          "  --reps R, --warmup W, --time-limit S, --root R, --in-place, --cfg, --layout,\n"
          "  --block-bytes, --lib-charge, --verify, --smpi-network, --samples, --stats,\n"
          "  --quiet, --format, --backend: as in collsim bench (the simulated and the\n"
          "                   measured runs are bench runs)\n",
          CS_DEFAULT_LAUNCHES);
}

static int validate_one(int argc, char **argv) {
  cs_bench_req q;
  cs_bench_defaults(&q);
  char platform[4096];
  const char *dir = "results/validate";
  int launches = CS_DEFAULT_LAUNCHES;
  /* --out is a directory here, --launches validate's own: take them before the
   * shared parser. */
  char **av = malloc(sizeof(char *) * (size_t)(argc + 1));
  int ac = 0;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      dir = argv[++i];
      continue;
    }
    if (!strcmp(argv[i], "--launches")) {
      if ((launches = cs_launches_parse("validate", i + 1 < argc ? argv[i + 1] : NULL)) < 0) {
        free(av);
        return 2;
      }
      i++;
      continue;
    }
    av[ac++] = argv[i];
  }
  av[ac] = NULL;
  int rc = cs_bench_parse(ac, av, &q, "validate", NULL, NULL, platform, sizeof platform);
  free(av);
  if (rc == 1) {
    usage(stdout);
    return 0;
  }
  if (rc) return rc;
  if (!q.nalgos || !q.nbytes) {
    fprintf(stderr, "collsim validate: --algos and --bytes are required (see --help)\n");
    return 2;
  }
  for (int a = 0; a < q.nalgos; a++)
    if (!strncmp(q.algos[a], "lib:", 4) || !strncmp(q.algos[a], "native:", 7)) {
      fprintf(stderr, "collsim validate: %s is an SMPI algorithm; measure the library as native\n",
              q.algos[a]);
      return 2;
    }
  if (!platform[0]) snprintf(platform, sizeof platform, "results/calibrate/platform.xml");
  return cs_validate_run(&q, platform, dir, launches);
}

/* --coll takes a list: each collective is validated in turn (its own CSVs and
 * report), with the other options unchanged. */
int cmd_validate(int argc, char **argv) {
  int ci = -1;
  for (int i = 0; i + 1 < argc; i++)
    if (!strcmp(argv[i], "--coll")) ci = i + 1;
  if (ci < 0 || !strchr(argv[ci], ',')) return validate_one(argc, argv);
  char *list = strdup(argv[ci]), *save = NULL;
  char **av = malloc(sizeof(char *) * (size_t)(argc + 1));
  if (!list || !av) {
    free(list);
    free(av);
    return 1;
  }
  memcpy(av, argv, sizeof(char *) * (size_t)argc);
  av[argc] = NULL;
  int rc = 0;
  for (char *c = strtok_r(list, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
    av[ci] = c;
    int r = validate_one(argc, av);
    if (r) rc = r;
    if (r == 2) break; /* bad usage: the same for every collective */
  }
  free(list);
  free(av);
  return rc;
}
