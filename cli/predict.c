/* ./collsim predict and ./collsim table1: the paper's formula, collsim's
 * exact model and SMPI's simulated time side by side. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lists.h"
#include "predict_run.h"
#include "units.h"

typedef struct {
  const char *model; /* NULL or "abg" */
  double alpha, beta, gamma;
  int nosim;
} pred_opts;

static int pred_extra(int argc, char **argv, int i, void *ctx) {
  pred_opts *o = ctx;
  const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
  if (!strcmp(a, "--no-sim")) {
    o->nosim = 1;
    return 1;
  }
  double *dst = !strcmp(a, "--alpha")   ? &o->alpha
                : !strcmp(a, "--beta")  ? &o->beta
                : !strcmp(a, "--gamma") ? &o->gamma
                                        : NULL;
  if (dst || !strcmp(a, "--model")) {
    if (!v) {
      fprintf(stderr, "collsim: %s needs a value\n", a);
      return -1;
    }
    if (!dst) {
      if (strcmp(v, "abg") && strcmp(v, "routes")) {
        fprintf(stderr,
                "collsim: --model %s: valid are abg (takes parameters here) and routes (the "
                "fluid evaluator on the platform's own routes); for max-rate or k-lane models "
                "give a platform written by `collsim platform maxrate|lanes ...`\n",
                v);
        return -1;
      }
      o->model = v;
      return 2;
    }
    char dim = dst == &o->alpha ? CS_UNIT_TIME : CS_UNIT_INVRATE;
    if (cs_parse_unit(v, dim, dst)) {
      fprintf(stderr, "collsim: %s %s: expected %s\n", a, v, cs_unit_help(dim));
      return -1;
    }
    return 2;
  }
  return 0;
}

static void predict_usage(FILE *f) {
  fprintf(f,
          "usage: collsim predict --coll C --algo A[,B...] --np P --bytes LIST   (or --algos)\n"
          "                       [--platform F] [--model abg --alpha S --beta S/B --gamma S/B]\n"
          "                       [--platform F --model routes]\n"
          "                       [--no-sim] [--out FILE] [--root R] [--in-place]\n"
          "                       [--hostfile H] [--type T] [--block-bytes LIST]\n"
          "Prints CSV: coll,algo,p,bytes,table1_s,model_s,sim_s,rel_err,model_kind\n"
          "  table1_s  the paper's formula (Table I; empty if it has none)\n"
          "  model_s   collsim's model of the implementation (the kernel itself, recorded)\n"
          "  sim_s     SMPI's time on the platform (skipped with --no-sim)\n"
          "  rel_err   |sim_s - model_s| / model_s\n"
          "  model_kind  what priced model_s: abg, abg-segments, maxrate, lanes (closed-form\n"
          "            platform lines), fluid-abg (nonblocking steps or half duplex on abg),\n"
          "            fluid-routes (any other platform: flows on SimGrid's own routes);\n"
          "            -approx when the model is not the platform's (--model abg on a\n"
          "            platform), which a first line '# model: ...' says (docs/csv.md)\n"
          "The model's parameters come from the platform file's collsim-model line, or from\n"
          "--model abg (defaults alpha 1e-6 s, beta 1e-10 s/B, gamma 2.5e-10 s/B). With\n"
          "--model alone an abg platform with those parameters is generated for SMPI; with\n"
          "--platform too (any SimGrid file, docs/byo-platform.md) the simulation runs on\n"
          "that platform and a first line '# model: ...' says so. With --platform F --model\n"
          "routes every row is priced on F's own routes (fluid-routes), also where F is an\n"
          "abg, maxrate or lanes line that has a closed-form model. Every message carries\n"
          "SMPI's 16-byte envelope in the model and in Table I.\n"
          "  --alpha S        seconds, or with a SimGrid unit: 4us, 0.5ms, 200ns\n"
          "  --beta S/B, --gamma S/B  seconds per byte, or a rate whose inverse they are:\n"
          "                   10GBps (= 1e-10 s/byte), 100Gbps\n"
          "  --hostfile H     places the simulated ranks (as collsim bench)\n"
          "  --bytes LIST, --block-bytes LIST, --type T, --root R, --in-place, --out FILE,\n"
          "  --reps, --warmup, --time-limit, --cfg, --layout, --lib-charge, --verify,\n"
          "  --smpi-network, --samples, --stats, --quiet, --redo, --format, --backend:\n"
          "                   as in collsim bench (the simulation is a bench run), but\n"
          "                   --lib-charge is off unless given: the model prices the\n"
          "                   library's collectives inside lane and hier rows as SMPI\n"
          "                   runs them, their reductions and copies free\n");
}

int cmd_predict(int argc, char **argv) {
  cs_bench_req q;
  cs_bench_defaults(&q);
  pred_opts po = {NULL, 1e-6, 1e-10, 2.5e-10, 0};
  char platform[4096];
  /* The recording MPI prices the library's collectives inside a decomposition
   * as SMPI runs them, their local work free (models/mpirec/libcoll.c): the
   * simulation does the same unless --lib-charge on is given. */
  q.lib_free = -1;
  int rc = cs_bench_parse(argc, argv, &q, "predict", pred_extra, &po, platform, sizeof platform);
  if (rc == 1) {
    predict_usage(stdout);
    return 0;
  }
  if (rc) return rc;
  if (q.lib_free < 0) q.lib_free = 1;
  if (!q.nalgos || !q.nbytes) {
    fprintf(stderr,
            "collsim predict: --algo and --bytes are required (see collsim predict --help)\n");
    return 2;
  }
  int routes = po.model && !strcmp(po.model, "routes");
  if (routes && !platform[0]) {
    fprintf(stderr,
            "collsim predict: --model routes needs --platform F (whose routes price the "
            "rows)\n");
    return 2;
  }
  cs_predict_model pm = {
      po.model != NULL && !routes, po.alpha, po.beta, po.gamma, po.nosim, routes};
  return cs_predict_run(&q, platform, &pm);
}

/* ---- table1 --------------------------------------------------------------- */

static void table1_usage(FILE *f) {
  fprintf(f,
          "usage: collsim table1 --np P [--bytes LIST] [--alpha S --beta S/B --gamma S/B]\n"
          "                      [--no-sim] [--csv FILE]\n"
          "Reproduces Table I of Traff et al. 2023 for P processes: for allreduce, reduce,\n"
          "reduce_scatter_block and allgather, the paper's formula, collsim's exact model\n"
          "and the SMPI simulation on an abg platform, for every algorithm of the registry\n"
          "that names a formula (collsim list). Defaults: --bytes 1K,64K,1M, alpha 1e-6 s,\n"
          "beta 1e-10 s/B (10 GB/s),\n"
          "gamma 2.5e-10 s/B. Every message carries SMPI's 16-byte envelope.\n"
          "  --alpha 4us, --beta 10GBps, --gamma 4GBps: SimGrid's units, as predict\n"
          "  --no-sim         formula and model only\n"
          "  --csv FILE       also write the table as CSV\n");
}

int cmd_table1(int argc, char **argv) {
  cs_table1_req t;
  cs_table1_defaults(&t);
  pred_opts po = {NULL, t.alpha, t.beta, t.gamma, 0};
  int np = 0;
  const char *bytes = NULL, *csv = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      table1_usage(stdout);
      return 0;
    }
    int used = pred_extra(argc, argv, i, &po);
    if (used < 0) return 2;
    if (used > 0) {
      i += used - 1;
      continue;
    }
    if (!v || (strcmp(a, "--np") && strcmp(a, "--bytes") && strcmp(a, "--csv"))) {
      fprintf(stderr, "collsim table1: unknown option or missing value: %s (see --help)\n", a);
      return 2;
    }
    i++;
    if (!strcmp(a, "--np")) {
      char *e;
      np = (int)strtol(v, &e, 10);
      if (*e || e == v) np = 0;
    } else if (!strcmp(a, "--bytes"))
      bytes = v;
    else
      csv = v;
  }
  if (np < 1) {
    fprintf(stderr, "collsim table1: --np P (>= 1) is required\n");
    return 2;
  }
  cs_table1_req r = t;
  r.np = np;
  r.csv = csv;
  r.alpha = po.alpha, r.beta = po.beta, r.gamma = po.gamma;
  r.nosim = po.nosim;
  if (bytes && (r.nbytes = cs_parse_sizes(bytes, r.bytes, CS_MAX_SIZES)) < 0) return 2;
  return cs_table1_run(&r, stdout);
}
