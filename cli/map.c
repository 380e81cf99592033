/* ./collsim map: the fastest algorithm of a collective over a grid of
 * process counts and sizes (run/map.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lists.h"
#include "map.h"
#include "tuning.h"

static void map_usage(FILE *f) {
  fprintf(f,
          "usage: collsim map --coll C --np LIST --bytes LIST [--algos A,B,...]\n"
          "                   [--platform F [--hostfile H]] [--alpha S --beta S/B --gamma S/B]\n"
          "                   [--sim] [--shard K/N] [--out DIR] [--baseline A] [--set A,B]\n"
          "                   [--root R] [--in-place] [--jobs N] [--redo] [--no-plots] [--quiet]\n"
          "                   [--emit KIND:FILE ...]\n"
          "       collsim map --merge DIR|FILE[,...] [--out DIR] [--baseline A] [--set A,B]\n"
          "                   [--emit KIND:FILE ...]\n"
          "The fastest algorithm of collective C at every (p, m) of the grid: every p of\n"
          "--np (e.g. 2-512) x every size of --bytes (e.g. 8-8M, docs/commands.md).\n"
          "  --algos     the candidates: collsim algorithms of C (collsim list); with --sim\n"
          "              also SMPI's native:NAME and lib:SELECTOR (collsim list --smpi).\n"
          "              Default: every collsim algorithm of C (not native; on a model\n"
          "              machine of one process per node not the node-aware rows, which\n"
          "              are their inner algorithm there: a note names them)\n"
          "  source      the models (default), as predict prices --platform F: the abg,\n"
          "              maxrate and lanes lines by their closed form, any other SimGrid\n"
          "              file (the named machines too) on its own routes; or without\n"
          "              --platform an abg machine of --alpha (1e-6 s), --beta (1e-10 s/B),\n"
          "              --gamma (2.5e-10 s/B); --jobs worker processes (default 2).\n"
          "              --sim: SMPI on --platform F (any SimGrid file), one bench run per p\n"
          "              into DIR/sim-C/pP.csv: a killed run keeps finished cells and the same\n"
          "              command resumes; a file of another configuration is refused (--redo\n"
          "              starts over)\n"
          "  --shard K/N only part K of N of the grid (consecutive cells of about equal\n"
          "              cost): writes DIR/map-C-raw.K-of-N.csv (N processes, or the tasks of a\n"
          "              Slurm array with K = $SLURM_ARRAY_TASK_ID + 1, share DIR or not)\n"
          "  --merge     merges the shard files of one map (files, or directories holding\n"
          "              map-C-raw.K-of-N.csv): every shard once, same configuration and grid;\n"
          "              writes what an unsharded run writes, in --out (default: the first;\n"
          "              --redo to replace a map of another configuration there)\n"
          "Writes in --out DIR (default results/map; docs/csv.md):\n"
          "  map-C-raw.csv       every candidate's time per (p, bytes), notes where none\n"
          "  map-C-winners.csv   coll,p,bytes,winner,winner_s,runner_up,runner_up_s,ratio\n"
          "  map-C-fastest.png/svg  colour = fastest candidate, p up, size on a log x axis\n"
          "  map-C-ratio.png/svg    bands of time(--baseline) / best time of --set (default:\n"
          "              the registry's baseline row of C, or the first candidate; the set:\n"
          "              every other candidate)\n"
          "  --emit KIND:FILE  also the winners as a tuning file (repeatable; the same as\n"
          "              collsim tune --from map-C-winners.csv): collsim (the PMPI library's\n"
          "              COLLSIM_TUNING), ompi-rules (Open MPI 4.1's dynamic rules), ompi-json\n"
          "              (Open MPI 6.0), mpich-json (MPICH's selection JSON); docs/tuning.md\n");
}

int cmd_map(int argc, char **argv) {
  static cs_map_req q;
  cs_map_defaults(&q);
  const char *coll = NULL, *np = NULL, *bytes = NULL, *algos = NULL, *shard = NULL, *merge = NULL,
             *set = NULL, *out = NULL, *alpha = NULL, *beta = NULL, *gamma = NULL, *root = NULL,
             *jobs = NULL;
  const cs_optval opts[] = {{"--coll", &coll},
                            {"--np", &np},
                            {"--bytes", &bytes},
                            {"--algos", &algos},
                            {"--platform", &q.platform},
                            {"--hostfile", &q.hostfile},
                            {"--shard", &shard},
                            {"--merge", &merge},
                            {"--out", &out},
                            {"--baseline", &q.baseline},
                            {"--set", &set},
                            {"--alpha", &alpha},
                            {"--beta", &beta},
                            {"--gamma", &gamma},
                            {"--root", &root},
                            {"--jobs", &jobs}};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      map_usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--sim"))
      q.sim = 1;
    else if (!strcmp(a, "--in-place"))
      q.inplace = 1;
    else if (!strcmp(a, "--redo"))
      q.redo = 1;
    else if (!strcmp(a, "--quiet"))
      q.quiet = 1;
    else if (!strcmp(a, "--no-plots"))
      q.nopics = 1;
    else if (!strcmp(a, "--emit")) {
      char err[512];
      if (i + 1 >= argc) {
        fprintf(stderr, "collsim map: --emit needs KIND:FILE (see collsim map --help)\n");
        return 2;
      }
      if (cs_tuning_spec_check(argv[++i], err, sizeof err)) {
        fprintf(stderr, "collsim map: %s\n", err);
        return 2;
      }
      if (q.nemit == CS_MAP_MAX_EMIT) {
        fprintf(stderr, "collsim map: at most %d --emit\n", CS_MAP_MAX_EMIT);
        return 2;
      }
      q.emit[q.nemit++] = argv[i];
    } else {
      int r = cs_take_opt("map", argc, argv, &i, opts, sizeof opts / sizeof opts[0]);
      if (r < 0) return 2;
      if (r == 0) {
        fprintf(stderr, "collsim map: unknown option %s (see collsim map --help)\n", a);
        return 2;
      }
    }
  }
  if (out) q.out = out;
  if (merge) {
    if (coll || np || bytes || algos || shard || q.sim || q.platform) {
      fprintf(stderr,
              "collsim map: --merge takes the grid, the candidates and the source from "
              "the shard files; give only --out, --baseline, --set, --emit, --no-plots, --quiet\n");
      return 2;
    }
    if ((q.nmerge = cs_split_list(strdup(merge), q.merge, CS_MAP_MAX_MERGE)) < 1) {
      fprintf(stderr, "collsim map: --merge %s: expected up to %d files or directories\n", merge,
              CS_MAP_MAX_MERGE);
      return 2;
    }
    if (!out) q.out = q.merge[0]; /* a directory of shards; a file: its directory */
  } else {
    if (!coll || !np || !bytes) {
      fprintf(stderr,
              "collsim map: --coll, --np and --bytes are required (see collsim map "
              "--help)\n");
      return 2;
    }
    int c = cs_coll_by_name(coll);
    if (c < 0) {
      fprintf(stderr, "collsim map: unknown collective '%s'. Valid:", coll);
      for (int k = 0; k < CS_NCOLL; k++) fprintf(stderr, "%s %s", k ? "," : "", cs_colls[k].name);
      fprintf(stderr, "\n");
      return 2;
    }
    q.coll = (cs_coll)c;
    if ((q.nnp = cs_parse_np_list(np, q.np, CS_MAP_MAX_NP)) < 0) return 2;
    if ((q.nbytes = cs_parse_sizes(bytes, q.bytes, CS_MAX_SIZES)) < 0) return 2;
    if (algos && (q.nalgos = cs_split_list(strdup(algos), q.algos, CS_MAX_ALGOS)) < 1) {
      fprintf(stderr, "collsim map: --algos %s: expected 1 to %d names\n", algos, CS_MAX_ALGOS);
      return 2;
    }
  }
  if (set && (q.nset = cs_split_list(strdup(set), q.set, CS_MAX_ALGOS)) < 1) {
    fprintf(stderr, "collsim map: --set %s: expected 1 to %d names\n", set, CS_MAX_ALGOS);
    return 2;
  }
  if (shard) {
    char *e;
    long k = strtol(shard, &e, 10), n = *e == '/' ? strtol(e + 1, &e, 10) : 0;
    if (*e || n < 1 || n > CS_MAP_MAX_SHARDS || k < 1 || k > n) {
      fprintf(stderr,
              "collsim map: --shard %s: expected K/N with 1 <= K <= N <= %d (e.g. --shard 1/4 "
              "... --shard 4/4)\n",
              shard, CS_MAP_MAX_SHARDS);
      return 2;
    }
    q.shard_k = (int)k;
    q.shard_n = (int)n;
  }
  const char *nums[] = {alpha, beta, gamma};
  double *dst[] = {&q.alpha, &q.beta, &q.gamma};
  const char *names[] = {"--alpha", "--beta", "--gamma"};
  for (int k = 0; k < 3; k++) {
    if (!nums[k]) continue;
    char *e;
    *dst[k] = strtod(nums[k], &e);
    if (*e || *dst[k] < 0) {
      fprintf(stderr, "collsim map: %s %s: expected a number >= 0 (SI units)\n", names[k], nums[k]);
      return 2;
    }
    q.abg_given = 1;
  }
  if (root) {
    char *e;
    q.root = (int)strtol(root, &e, 10);
    if (*e || q.root < 0) {
      fprintf(stderr, "collsim map: --root %s: expected a rank >= 0\n", root);
      return 2;
    }
  }
  if (jobs) {
    char *e;
    q.jobs = (int)strtol(jobs, &e, 10);
    if (*e || q.jobs < 1 || q.jobs > 64) {
      fprintf(stderr, "collsim map: --jobs %s: expected 1 to 64 worker processes\n", jobs);
      return 2;
    }
  }
  return cs_map_run(&q);
}
