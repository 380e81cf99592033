/* collsim app: an SMPI application's time per collective algorithm. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "cli.h"
#include "foreign.h"

static void app_usage(FILE *f) {
  fprintf(
      f,
      "usage: collsim app --platform P --np N [--hostfile H] [--coll C[,C...]]\n"
      "                   [--algos A[,B...]] [--out DIR] [--privatization dlopen|mmap|no]\n"
      "                   -- ./app [args...]\n"
      "Runs an SMPI application linked with build/libcollsim-smpi.o (smpicc app.c\n"
      "build/libcollsim-smpi.o; pmpi/README.md \"Under SMPI\") under smpirun on platform P\n"
      "(a file or a named machine: hydra, irene, theta, vsc3, bluewaters), once with the\n"
      "library's collectives and once per algorithm of each collective, and reports the\n"
      "application's simulated time per choice, its speedup over the library's selector\n"
      "and the share of its time inside collectives.\n"
      "  --coll C        collectives to vary (default allreduce); the others stay the library's\n"
      "  --algos LIST    algorithms (default: every registered one of each collective);\n"
      "                  NAME for every chosen collective that has it, or COLL:NAME\n"
      "  --out DIR       where app.csv (docs/csv.md \"app\"), report.md, app.png and each\n"
      "                  run's log and output go (default results/app)\n"
      "  --privatization SMPI's privatization of the application's globals (default dlopen,\n"
      "                  SMPI's own default; no = smpirun -no-privatize, only for an\n"
      "                  application without mutable globals)\n"
      "The runs use collsim's exact-timing settings (collsim platform --print-flags): the\n"
      "application's computation costs what it charges (smpi_execute_flops, SMPI_SAMPLE_*),\n"
      "collsim's kernels charge their local work as in every collsim simulation.\n"
      "Example:\n"
      "  collsim app --platform theta --np 256 --algos circulant,ceilhalf -- build/sgd-smpi\n");
}

/* Splits a comma-separated list in place into out[]; the count, or -1. */
static int split(char *s, const char **out, int max) {
  int n = 0;
  for (char *save = NULL, *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (n == max) return -1;
    out[n++] = t;
  }
  return n;
}

int cmd_app(int argc, char **argv) {
  const char *platform = NULL, *hostfile = NULL, *np = NULL, *coll = "allreduce", *algos = NULL,
             *out = "results/app", *priv = "dlopen";
  const cs_optval opts[] = {{"--platform", &platform}, {"--hostfile", &hostfile}, {"--np", &np},
                            {"--coll", &coll},         {"--algos", &algos},       {"--out", &out},
                            {"--privatization", &priv}};
  int i = 1;
  for (; i < argc; i++) {
    if (!strcmp(argv[i], "--")) break;
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      app_usage(stdout);
      return 0;
    }
    int k = cs_take_opt("app", argc, argv, &i, opts, sizeof opts / sizeof opts[0]);
    if (k < 0) return 2;
    if (k == 0) {
      fprintf(stderr, "collsim app: unknown option %s (collsim app --help)\n", argv[i]);
      return 2;
    }
  }
  if (i >= argc - 1 || !platform || !np) {
    fprintf(stderr, "collsim app: needs --platform, --np and, after --, the application\n");
    app_usage(stderr);
    return 2;
  }
  static cs_app_req q;
  memset(&q, 0, sizeof q);
  char *end;
  long p = strtol(np, &end, 10);
  if (*end || p < 1 || p > 1 << 24) {
    fprintf(stderr, "collsim app: --np %s: not a process count (1 .. 16777216)\n", np);
    return 2;
  }
  q.np = (int)p;
  if (strcmp(priv, "dlopen") && strcmp(priv, "mmap") && strcmp(priv, "no")) {
    fprintf(stderr, "collsim app: --privatization %s: valid: dlopen, mmap, no\n", priv);
    return 2;
  }
  q.privatization = priv;
  q.out = out;
  if (cs_resolve_platform(platform, hostfile, q.xml, q.hosts, sizeof q.xml)) return 2;
  static char cbuf[1024], abuf[4096];
  snprintf(cbuf, sizeof cbuf, "%s", coll);
  const char *cn[CS_APP_MAX];
  int nc = split(cbuf, cn, CS_APP_MAX);
  for (int k = 0; k < nc; k++) {
    int c = cs_coll_by_name(cn[k]);
    if (c < 0) {
      fprintf(stderr, "collsim app: --coll %s: not a collective (valid:", cn[k]);
      for (int j = 0; j < CS_NCOLL; j++) fprintf(stderr, "%s %s", j ? "," : "", cs_colls[j].name);
      fprintf(stderr, ")\n");
      return 2;
    }
    q.colls[q.ncolls++] = c;
  }
  if (nc <= 0) {
    fprintf(stderr, "collsim app: --coll: give at least one collective\n");
    return 2;
  }
  if (algos) {
    snprintf(abuf, sizeof abuf, "%s", algos);
    q.nalgos = split(abuf, q.algos, CS_APP_MAX);
  } else { /* every registered non-native algorithm of each collective */
    for (int k = 0; k < q.ncolls; k++)
      for (int a = 0; a < cs_nalgos && q.nalgos < CS_APP_MAX; a++)
        if ((int)cs_algos[a].coll == q.colls[k] && !(cs_algos[a].flags & CS_NATIVE)) {
          static char names[CS_APP_MAX][96];
          snprintf(names[q.nalgos], sizeof names[0], "%s:%s", cs_colls[q.colls[k]].name,
                   cs_algos[a].name);
          q.algos[q.nalgos] = names[q.nalgos];
          q.nalgos++;
        }
  }
  if (q.nalgos < 0) {
    fprintf(stderr, "collsim app: --algos: at most %d names\n", CS_APP_MAX);
    return 2;
  }
  q.app = argv + i + 1;
  return cs_app_run(&q);
}
