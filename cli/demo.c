/* ./collsim demo: its options, then the default study (demo/demo.c). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "demo.h"

static void usage(FILE *f) {
  char lb[256] = "";
  for (size_t i = 0, n = 0; i < CS_DEMO_NLIBS; i++)
    n += (size_t)snprintf(lb + n, sizeof lb - n, "%s%s", i ? ", " : "", cs_demo_libs[i]);
  char rsb[256], more[256];
  cs_demo_names(rsb, sizeof rsb, CS_reduce_scatter_block, NULL, CS_NCOLL, ", ");
  cs_demo_names(more, sizeof more, CS_allreduce, NULL, CS_reduce_scatter_block, ", ");
  fprintf(f,
          "usage: collsim demo [--redo] [--quick] [--out DIR]\n"
          "The default study, written into DIR (results/demo):\n"
          "  1. table1 --np 33: Table I formula, exact model and simulation (table1.csv)\n"
          "  2. bench of reduce_scatter_block and allreduce, 8 B .. 2 MiB (x4), with\n"
          "     %s (and %s) against the selectors of real\n"
          "     libraries as SMPI reproduces them (%s),\n"
          "     on a hydra-like 8 x 4 machine and on an abg machine with p = 33\n"
          "     (SMPI's own lib:default, a naive reduce + scatterv, stands for no library\n"
          "     and is not shown)\n"
          "  3. the performance guidelines on both machines (collsim guidelines --lib ompi)\n"
          "  4. plots of every CSV (collsim plot), 5. report.md linking all of it.\n"
          "A second run reuses finished results (resumable CSVs) unless --redo.\n"
          "  --quick   fewer sizes (8 B, 1 KiB, 1 MiB) and guidelines at one size (for tests)\n",
          rsb, more, lb);
}

int cmd_demo(int argc, char **argv) {
  const char *dir = "results/demo";
  int redo = 0, quick = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(argv[i], "--redo"))
      redo = 1;
    else if (!strcmp(argv[i], "--quick"))
      quick = 1;
    else if (!strcmp(argv[i], "--out") && i + 1 < argc)
      dir = argv[++i];
    else {
      fprintf(stderr, "collsim demo: unknown option %s (valid: --redo, --quick, --out DIR)\n",
              argv[i]);
      return 2;
    }
  }
  return cs_demo_run(dir, redo, quick);
}
