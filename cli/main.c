/* ./collsim: the one front door. */
#include <stdio.h>
#include <string.h>

#include <xbt/base.h>
#include <simgrid/version.h>

#include "cli.h"
#include "files.h"
#include "findings.h"
#include "platgen.h"
#include "registry.h"

typedef struct {
  const char *name;
  int (*fn)(int, char **);
  const char *help;
} command;

static const command commands[] = {
    {"list", cmd_list, "print the algorithm registry (--csv for machines)"},
    {"check", cmd_check, "run algorithms against formulas and report (see check --help)"},
    {"platform", cs_platform_main, "write a SimGrid platform file (see platform --help)"},
    {"plot", cmd_plot, "draw PNG/SVG plots from collsim CSV files (see plot --help)"},
    {"bench", cmd_bench, "time algorithms on a platform or a real MPI, CSV out (see bench --help)"},
    {"predict", cmd_predict,
     "Table I formula, exact model and simulation side by side (predict --help)"},
    {"validate", cmd_validate,
     "predict (model, SMPI) and measure (mpirun), with errors (validate --help)"},
    {"table1", cmd_table1,
     "reproduce Table I of Traff et al. 2023 for p processes (table1 --help)"},
    {"guidelines", cmd_guidelines,
     "time both sides of the MPI performance guidelines, report violations (guidelines --help)"},
    {"demo", cmd_demo, "the default study: table1, bench, guidelines, plots, report (demo --help)"},
    {"app", cmd_app,
     "an SMPI application's time per collective algorithm, CSV and a picture (app --help)"},
    {"lanes", cmd_lanes, "the lane pattern and multi-collective benchmarks (lanes --help)"},
    {"nodeaware", cmd_nodeaware, "the node-aware allreduce study, RD, SMP, NAP (nodeaware --help)"},
    {"map", cmd_map, "the fastest algorithm per (p, size), from models or simulation (map --help)"},
    {"calibrate", cmd_calibrate,
     "measure this machine and write a platform file (see calibrate --help)"},
    {"compare", cmd_compare,
     "two results files side by side: ratio per common row, table, CSV, picture (compare "
     "--help)"},
    {"tune", cmd_tune, "write a map's winners as tuning files for MPI libraries (tune --help)"},
};

static void usage(FILE *f) {
  fprintf(f,
          "usage: collsim COMMAND [options]   (collsim --version, collsim COMMAND --help)\n\n"
          "commands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
}

int cmd_list(int argc, char **argv) {
  int csv = 0, smpi = 0, claims = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--csv"))
      csv = 1;
    else if (!strcmp(argv[i], "--smpi"))
      smpi = 1;
    else if (!strcmp(argv[i], "--claims"))
      claims = 1;
    else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf(
          "usage: collsim list [--csv] [--smpi] [--claims]\n"
          "Prints the algorithm registry (algos/registry.def): collective, algorithm,\n"
          "family, restrictions, reference; these are the names --algos takes.\n"
          "  --csv    the same as CSV\n"
          "  --smpi   SMPI's own algorithms per collective (--algos native:NAME) and its\n"
          "           selectors (--algos lib:NAME), as SimGrid 3.32 names them\n"
          "  --claims the claims of Traeff et al. 2023 about MPI libraries that the demo's\n"
          "           report and benchmarks/paper_library.sh compare with (findings/claims.def)\n");
      return 0;
    } else {
      fprintf(stderr, "collsim list: unknown option %s (valid: --csv, --smpi, --claims, --help)\n",
              argv[i]);
      return 2;
    }
  }
  if (claims)
    cs_claims_print(stdout);
  else if (smpi)
    cs_smpi_print_list(stdout);
  else
    cs_registry_print(stdout, csv);
  return 0;
}

int cs_take_opt(const char *cmd, int argc, char **argv, int *i, const cs_optval *opts, size_t n) {
  for (size_t k = 0; k < n; k++) {
    if (strcmp(argv[*i], opts[k].name)) continue;
    if (*i + 1 >= argc) {
      fprintf(stderr, "collsim %s: %s needs a value\n", cmd, opts[k].name);
      return -1;
    }
    *opts[k].var = argv[++*i];
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
    printf("collsim %s; built with %s\n", COLLSIM_VERSION, SIMGRID_VERSION_STRING);
    return 0;
  }
  if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
      !strcmp(argv[1], "help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  cs_set_command(argc, argv);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "collsim: unknown command '%s'. Valid commands:", argv[1]);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(stderr, "%s %s", i ? "," : "", commands[i].name);
  fprintf(stderr, "\n");
  return 2;
}
