/* ./collsim nodeaware: the node-aware allreduce study (run/nodeaware.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nodeaware.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: collsim nodeaware --out DIR [--max-p P] [--cap S] [--quick] [--no-sim]\n"
          "Bienz, Olson and Gropp's node-aware allreduce study (2019, Sec. IV-V, Figs. 10-15):\n"
          "recursive doubling (RD), SMP (the hierarchical row with a tree node reduce and\n"
          "bcast and recursive doubling among the node leaders) and NAP, 16 processes per node\n"
          "on the bluewaters platform (docs/commands.md, nodeaware).\n"
          "  models      eqs. 4-6 for every p = 16 n up to 32768, the exact models of the\n"
          "              kernels at a sample of p (Fig. 10, 8 B) and against the size at\n"
          "              32768 processes (Fig. 11)\n"
          "  simulation  one double against p at a sample of p up to P (Figs. 12-13), cost\n"
          "              and speedup against the size at P (Figs. 14-15), with SMPI's\n"
          "              native:smp_rdb, lib:mpich and lib:mvapich2 beside\n"
          "  --out DIR   where the CSVs (docs/csv.md, \"nodeaware\"), DIR/plots/*.png and\n"
          "              DIR/summary.md go; DIR/sim/ keeps the bench files, so a second run\n"
          "              runs only what is missing\n"
          "  --max-p P   the largest p simulated, a multiple of 16 up to 32768 (default 32768,\n"
          "              the paper's: 21 minutes and 3.6 GB here, 9 of them at 32768 and 3\n"
          "              at p <= 4096; the node-aware allreduce page of docs/ has the figures)\n"
          "  --cap S     a library row whose run took more than S s of wall time is not run at\n"
          "              larger p (default 60)\n"
          "  --quick     models up to 1024 processes, simulations up to 64, two sizes (ctest)\n"
          "  --no-sim    the models only\n"
          "The wall time is printed on stderr and written in the summary.\n");
}

int cmd_nodeaware(int argc, char **argv) {
  cs_nodeaware_req q = {NULL, 0, 0, 0, 0};
  const char *maxp = NULL, *cap = NULL;
  const cs_optval opts[] = {{"--out", &q.dir}, {"--max-p", &maxp}, {"--cap", &cap}};
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--quick")) {
      q.quick = 1;
      continue;
    }
    if (!strcmp(argv[i], "--no-sim")) {
      q.no_sim = 1;
      continue;
    }
    int took = cs_take_opt("nodeaware", argc, argv, &i, opts, sizeof opts / sizeof opts[0]);
    if (took < 0) return 2;
    if (took) continue;
    fprintf(stderr, "collsim nodeaware: unknown argument %s (collsim nodeaware --help)\n", argv[i]);
    return 2;
  }
  if (!q.dir) {
    fprintf(stderr, "collsim nodeaware: --out DIR is needed (collsim nodeaware --help)\n");
    return 2;
  }
  if (maxp) {
    char *end;
    long v = strtol(maxp, &end, 10);
    if (*end || end == maxp || v < 16 || v > 32768 || v % 16) {
      fprintf(stderr, "collsim nodeaware: --max-p %s: a multiple of 16 from 16 to 32768\n", maxp);
      return 2;
    }
    q.max_p = (int)v;
  }
  if (cap) {
    char *end;
    double v = strtod(cap, &end);
    if (*end || end == cap || !(v > 0)) {
      fprintf(stderr, "collsim nodeaware: --cap %s: seconds, a number above 0\n", cap);
      return 2;
    }
    q.cap = v;
  }
  return cs_nodeaware_study(&q);
}
