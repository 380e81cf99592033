/* ./collsim tune: a map's winners written as tuning files (tuning/tuning.h,
 * docs/tuning.md). */
#include "cli.h"
#include "tuning.h"

static void tune_usage(FILE *f) {
  fprintf(f,
          "usage: collsim tune --from WINNERS.csv --emit KIND:FILE [--emit KIND:FILE ...]\n"
          "  --from   the winners CSV of a map (coll,p,bytes,winner,...; docs/tuning.md)\n"
          "  --emit   KIND is one of\n"
          "             collsim     collsim's table for libcollsim-pmpi.so (COLLSIM_TUNING=FILE)\n"
          "             ompi-rules  Open MPI's dynamic rules, classic format (Open MPI 4.1)\n"
          "             ompi-json   Open MPI's dynamic rules, JSON version 3 (Open MPI 6.0)\n"
          "             mpich-json  MPICH's collective selection JSON\n"
          "Grid points become ranges: a size or process count between two grid points goes\n"
          "to the nearer one in log scale. A winner the target cannot run is an error that\n"
          "names it and the candidates that map.\n");
}

int cmd_tune(int argc, char **argv) {
  const char *from = NULL, *emit[16];
  int nemit = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      tune_usage(stdout);
      return 0;
    }
    const char *val = NULL;
    cs_optval opts[] = {{"--from", &from}, {"--emit", &val}};
    int k = cs_take_opt("tune", argc, argv, &i, opts, 2);
    if (k < 0) return 2;
    if (k == 0) {
      fprintf(stderr, "collsim tune: unknown option %s (valid: --from, --emit, --help)\n", argv[i]);
      return 2;
    }
    if (val) {
      if (nemit == 16) {
        fprintf(stderr, "collsim tune: at most 16 --emit\n");
        return 2;
      }
      emit[nemit++] = val;
    }
  }
  if (!from || !nemit) {
    fprintf(stderr, "collsim tune: --from and --emit are needed\n");
    tune_usage(stderr);
    return 2;
  }
  for (int i = 0; i < nemit; i++) {
    char err[2048];
    if (cs_tuning_emit(from, emit[i], err, sizeof err)) {
      fprintf(stderr, "collsim tune: %s\n", err);
      return 1;
    }
    fprintf(stderr, "collsim tune: wrote %s\n", strchr(emit[i], ':') + 1);
  }
  return 0;
}
