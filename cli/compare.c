/* ./collsim compare A.csv B.csv: two runs side by side (run/compare_run.c). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "compare_run.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: collsim compare A.csv B.csv [--out DIR] [--col NAME] [--keys K1,K2,...]\n"
          "                       [--labels LA,LB] [--quiet]\n"
          "Compares two results files of one kind (bench, predict, validate, guidelines,\n"
          "samples, calibrate) row by row: the rows they have in common by their key columns\n"
          "(bench: coll,algo,p,bytes), each with its value in A and in B and the ratio B / A.\n"
          "Prints the table and the geometric mean of the ratios, says how the two runs were\n"
          "made differently (their first lines, key by key), and writes DIR/compare.csv and\n"
          "the picture DIR/compare.png and .svg (B / A against the size, one curve per\n"
          "series). Exits 1 when the files have no row in common.\n"
          "  --out DIR        where compare.csv and the picture go (results/compare)\n"
          "  --col NAME       the column compared (bench: median_s; predict: sim_s;\n"
          "                   validate: measured_s; guidelines: ratio; samples: time_s)\n"
          "  --keys LIST      the key columns (default: the kind's leading name and\n"
          "                   integer columns, e.g. coll,algo,p,bytes)\n"
          "  --labels LA,LB   what to call A and B in the table and the picture (their\n"
          "                   file names)\n"
          "  --quiet          no notes on stderr\n");
}

int cmd_compare(int argc, char **argv) {
  cs_compare_req r = {NULL, NULL, NULL, NULL, "results/compare", NULL, NULL, 0};
  const char *labels = NULL;
  const cs_optval opts[] = {
      {"--out", &r.dir}, {"--col", &r.col}, {"--keys", &r.keys}, {"--labels", &labels}};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--quiet")) {
      r.quiet = 1;
      continue;
    }
    int took = cs_take_opt("compare", argc, argv, &i, opts, sizeof opts / sizeof opts[0]);
    if (took < 0) return 2;
    if (took) continue;
    if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr,
              "collsim compare: unknown option %s (valid: --out, --col, --keys, --labels, "
              "--quiet, --help)\n",
              argv[i]);
      return 2;
    }
    if (!r.a)
      r.a = argv[i];
    else if (!r.b)
      r.b = argv[i];
    else {
      fprintf(stderr, "collsim compare: give two files, not more (%s)\n", argv[i]);
      return 2;
    }
  }
  if (!r.b) {
    fprintf(stderr, "collsim compare: give two files: collsim compare A.csv B.csv (see --help)\n");
    return 2;
  }
  static char la[256], lb[256];
  if (labels) {
    const char *c = strchr(labels, ',');
    if (!c) {
      fprintf(stderr, "collsim compare: --labels %s: expected LA,LB\n", labels);
      return 2;
    }
    snprintf(la, sizeof la, "%.*s", (int)(c - labels), labels);
    snprintf(lb, sizeof lb, "%s", c + 1);
    r.la = la;
    r.lb = lb;
  }
  return cs_compare_run(&r, stdout);
}
