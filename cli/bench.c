/* ./collsim bench: its options (shared by predict and validate) parsed
 * into a cs_bench_req, then the run (run/bench.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "foreign.h"
#include "registry.h"
#include "sizes.h"
#include "util.h"

/* ---- option parsing shared by bench, predict, table1 ---------------------- */

static int split_list(char *s, const char **out, int max) {
  int n = 0;
  for (char *save = NULL, *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (n == max) return -1;
    out[n++] = t;
  }
  return n;
}

static void bench_usage(FILE *f) {
  fprintf(f,
          "usage: collsim bench --platform F --np P --coll C --algos A,B,... --bytes LIST\n"
          "                     [--out FILE] [options]\n"
          "Times collective C with each algorithm for each size, as the slowest process\n"
          "from a common start, and writes CSV (docs/csv.md). A killed run resumes: rows\n"
          "already in FILE are kept and not run again (--redo starts over). Ctrl-C (SIGINT)\n"
          "or SIGTERM ends the run with status 130, keeping the finished rows.\n"
          "  --platform F     any SimGrid platform file, or a named machine: hydra, irene,\n"
          "                   theta, vsc3, bluewaters. Ranks are placed by --hostfile, else\n"
          "                   F.hostfile beside it, else by default: each host's cores in\n"
          "                   turn, hosts in natural name order (node-2 before node-10)\n"
          "  --np P           number of ranks\n"
          "  --coll C         collective (see collsim list)\n"
          "  --algos LIST     registry names (collsim list) or all (every row of C, the\n"
          "                   library's native included), native (the library),\n"
          "                   native:NAME (an SMPI algorithm), lib:SEL (SMPI's selector:\n"
          "                   ompi, mpich, mvapich2, impi: real libraries' decisions;\n"
          "                   default: SMPI's own naive one; automatic)\n"
          "  --bytes LIST     total message sizes m: 8,1K,16M or ranges 1-16M:x2, 0-4K:+512\n"
          "  --block-bytes LIST  sizes per process b instead (block and split collectives,\n"
          "                   the papers' x axis): m = P b; the CSV gives m\n"
          "  --out FILE       append rows to FILE (default: print the CSV); one run at a\n"
          "                   time may write FILE (a second one is refused: it is locked)\n"
          "  --format F       what is printed: csv (default), osu (OSU micro-benchmarks'\n"
          "                   table: Size, Avg Latency(us); Size per process for allgather,\n"
          "                   gather, scatter and their v forms, as OSU's), osu-full (also\n"
          "                   Min, Max Latency(us) and Iterations = reps)\n"
          "  --backend B      smpi (default) or mpi (mpirun on this machine)\n"
          "  --hostfile H     hostfile (smpi: lines 'host' or 'host:N' (N ranks), names\n"
          "                   checked against F before launch; mpi: passed to mpirun)\n"
          "  --reps R         measured repetitions (smpi: 1, deterministic; mpi: 30)\n"
          "  --warmup W       discarded repetitions (smpi: 0; mpi: 3)\n"
          "  --time-limit S   stop repeating an (algorithm, size) after S s (mpi: 10)\n"
          "  --type T         byte (MPI_BOR; default), int (MPI_SUM) or double (MPI_MAX)\n"
          "  --root R         root of rooted collectives (0)\n"
          "  --in-place       use MPI_IN_PLACE\n"
          "  --cfg \"...\"      extra smpirun options, e.g. \"--cfg=smpi/allreduce:rab\"\n"
          "  --smpi-network   keep SMPI's own network model (smpirun's default) instead of\n"
          "                   collsim's exact-timing settings (collsim platform --print-flags;\n"
          "                   docs/byo-platform.md); the CSV's '# smpi-cfg:' line records\n"
          "                   what was applied\n"
          "  --layout L       reduce_scatter blocks: even (default) or single (all counts\n"
          "                   0 but the root's, which is m)\n"
          "  --samples S      append every repetition's time to S (coll,algo,p,bytes,rep,time_s)\n"
          "  --lib-charge on|off  smpi: charge the library's (native, native:NAME, lib:SEL)\n"
          "                   local reductions and copies as collsim's kernels' are (on,\n"
          "                   default), or not (off: SMPI's behaviour); the CSV's first line\n"
          "                   says lib_charge=reductions,copies when on (docs/library.md)\n"
          "  --verify all|library|none  check each (algorithm, size) once on real buffers\n"
          "                   before timing it (all, default; library: native, native:NAME and\n"
          "                   lib:SEL rows only; none: no check, each case gets a verify line\n"
          "                   'unverified' in the CSV). A wrong result is never timed. The\n"
          "                   check costs CPU at scale (theta, 8192 ranks, 1 KiB: about 4x)\n"
          "  --redo           discard FILE's rows and run everything again\n"
          "  --stats          print wall seconds and peak memory of each run on stderr\n");
}

/* --block-bytes LIST: sizes per process b (the papers' x axis for block
 * collectives), converted by algos/sizes.c into the total sizes m = p b that
 * everything else takes. */
static int bench_block_sizes(cs_bench_req *q, const char *list, const char *cmd) {
  if (cs_coll_shape(q->coll) == CS_SHAPE_VECTOR) {
    fprintf(stderr,
            "collsim %s: --block-bytes: %s has no blocks; give --bytes (the vector size m); "
            "--block-bytes takes reduce_scatter(_block), allgather(v), gather(v), scatter(v)\n",
            cmd, cs_colls[q->coll].name);
    return -1;
  }
  q->nbytes = cs_parse_sizes(list, q->bytes, CS_MAX_SIZES);
  if (q->nbytes < 0) return -1;
  for (int i = 0; i < q->nbytes; i++) {
    long m = cs_size_from_block(q->coll, q->np, q->bytes[i]);
    if (m < 0) {
      fprintf(stderr, "collsim %s: --block-bytes %ld x %d processes overflows\n", cmd, q->bytes[i],
              q->np);
      return -1;
    }
    q->bytes[i] = m;
  }
  return 0;
}

/* Parses the options common to bench and predict into q. Returns 0, 1 for
 * --help, 2 for an error. Unknown options are errors unless extra() takes
 * them (returns the number of arguments consumed, 0 if not its option). */
int cs_bench_parse(int argc, char **argv, cs_bench_req *q, const char *cmd,
                   int (*extra)(int, char **, int, void *), void *ctx, char *platform,
                   size_t platlen) {
  static char algobuf[4096];
  const char *coll = NULL, *algos = NULL, *bytes = NULL, *block_bytes = NULL;
  platform[0] = '\0';
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--help") || !strcmp(o, "-h")) return 1;
    if (!strcmp(o, "--in-place")) {
      q->inplace = 1;
      continue;
    }
    if (!strcmp(o, "--redo")) {
      q->redo = 1;
      continue;
    }
    if (!strcmp(o, "--quiet")) {
      q->quiet = 1;
      continue;
    }
    if (!strcmp(o, "--stats")) {
      q->stats = 1;
      continue;
    }
    if (!strcmp(o, "--smpi-network")) {
      q->keep_network = 1;
      continue;
    }
    if (extra) {
      int used = extra(argc, argv, i, ctx);
      if (used < 0) return 2;
      if (used > 0) {
        i += used - 1;
        continue;
      }
    }
    static const char *valued[] = {
        "--platform",    "--np",         "--coll",     "--algos",  "--algo",    "--bytes",
        "--out",         "--backend",    "--hostfile", "--reps",   "--warmup",  "--time-limit",
        "--type",        "--root",       "--cfg",      "--layout", "--samples", "--format",
        "--block-bytes", "--lib-charge", "--verify"};
    int known = 0;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++) known |= !strcmp(o, valued[k]);
    if (!known) {
      fprintf(stderr, "collsim %s: unknown option %s (see collsim %s --help)\n", cmd, o, cmd);
      return 2;
    }
    if (!v) {
      fprintf(stderr, "collsim %s: %s needs a value\n", cmd, o);
      return 2;
    }
    i++;
    if (!strcmp(o, "--platform"))
      snprintf(platform, platlen, "%s", v);
    else if (!strcmp(o, "--np")) {
      char *e;
      q->np = (int)strtol(v, &e, 10);
      if (*e || q->np < 1) {
        fprintf(stderr, "collsim %s: --np %s: expected a number >= 1\n", cmd, v);
        return 2;
      }
    } else if (!strcmp(o, "--coll"))
      coll = v;
    else if (!strcmp(o, "--algos") || !strcmp(o, "--algo"))
      algos = v;
    else if (!strcmp(o, "--bytes"))
      bytes = v;
    else if (!strcmp(o, "--block-bytes"))
      block_bytes = v;
    else if (!strcmp(o, "--out"))
      q->out = v;
    else if (!strcmp(o, "--backend")) {
      if (strcmp(v, "smpi") && strcmp(v, "mpi")) {
        fprintf(stderr, "collsim bench: --backend %s unknown (valid: smpi, mpi)\n", v);
        return 2;
      }
      q->smpi = !strcmp(v, "smpi");
    } else if (!strcmp(o, "--hostfile"))
      q->hostfile = v;
    else if (!strcmp(o, "--reps"))
      q->reps = atoi(v);
    else if (!strcmp(o, "--warmup"))
      q->warmup = atoi(v);
    else if (!strcmp(o, "--time-limit"))
      q->time_limit = atof(v);
    else if (!strcmp(o, "--type")) {
      int t = 0;
      while (t < CS_BENCH_NTYPES && strcmp(v, cs_bench_type_name[t])) t++;
      if (t == CS_BENCH_NTYPES) {
        fprintf(stderr, "collsim bench: --type %s unknown (valid: byte, int, double)\n", v);
        return 2;
      }
      q->type = (cs_bench_type)t;
    } else if (!strcmp(o, "--root"))
      q->root = atoi(v);
    else if (!strcmp(o, "--cfg"))
      q->cfg = v;
    else if (!strcmp(o, "--layout")) {
      if (strcmp(v, "even") && strcmp(v, "single")) {
        fprintf(stderr,
                "collsim bench: --layout %s: valid: even, or single (reduce_scatter only)\n", v);
        return 2;
      }
      q->single = !strcmp(v, "single");
    } else if (!strcmp(o, "--samples"))
      q->samples = v;
    else if (!strcmp(o, "--format")) {
      if (!strcmp(v, "csv") || !strcmp(v, "osu") || !strcmp(v, "osu-full"))
        q->osu = !strcmp(v, "osu") ? 1 : !strcmp(v, "osu-full") ? 2 : 0;
      else {
        fprintf(stderr, "collsim %s: --format %s unknown (valid: csv, osu, osu-full)\n", cmd, v);
        return 2;
      }
    } else if (!strcmp(o, "--lib-charge")) {
      if (strcmp(v, "on") && strcmp(v, "off")) {
        fprintf(stderr, "collsim %s: --lib-charge %s: valid: on (default), off\n", cmd, v);
        return 2;
      }
      q->lib_free = !strcmp(v, "off");
    } else if (!strcmp(o, "--verify")) {
      int m = 0;
      while (m < 3 && strcmp(v, cs_bench_verify_name[m])) m++;
      if (m == 3) {
        fprintf(stderr, "collsim %s: --verify %s: valid: all (default), library, none\n", cmd, v);
        return 2;
      }
      q->verify = m;
    }
  }
  if (!coll || !q->np) {
    fprintf(stderr, "collsim %s: --coll and --np are required (see collsim %s --help)\n", cmd, cmd);
    return 2;
  }
  int c = cs_coll_by_name(coll);
  if (c < 0) {
    fprintf(stderr, "collsim %s: unknown collective '%s'. Valid: ", cmd, coll);
    cs_print_colls(stderr);
    fprintf(stderr, "\n");
    return 2;
  }
  q->coll = (cs_coll)c;
  if (algos) {
    if (!strcmp(algos, "all")) { /* every registry row of the collective, as check's default */
      size_t n = 0;
      algobuf[0] = 0;
      for (int i = 0; i < cs_nalgos; i++)
        if (cs_algos[i].coll == q->coll && n < sizeof algobuf)
          n += (size_t)snprintf(algobuf + n, sizeof algobuf - n, "%s%s", n ? "," : "",
                                cs_algos[i].name);
    } else
      snprintf(algobuf, sizeof algobuf, "%s", algos);
    q->nalgos = split_list(algobuf, q->algos, CS_MAX_ALGOS);
    if (q->nalgos < 1 || cs_check_algos(q->coll, q->algos, q->nalgos)) return 2;
  }
  if (bytes && block_bytes) {
    fprintf(stderr, "collsim %s: give --bytes (total m) or --block-bytes (per process), not both\n",
            cmd);
    return 2;
  }
  if (bytes) {
    q->nbytes = cs_parse_sizes(bytes, q->bytes, CS_MAX_SIZES);
    if (q->nbytes < 0) return 2;
  }
  if (block_bytes && bench_block_sizes(q, block_bytes, cmd)) return 2;
  return 0;
}

int cmd_bench(int argc, char **argv) {
  cs_bench_req q;
  cs_bench_defaults(&q);
  char platform[4096];
  int rc = cs_bench_parse(argc, argv, &q, "bench", NULL, NULL, platform, sizeof platform);
  if (rc == 1) {
    bench_usage(stdout);
    return 0;
  }
  if (rc) return rc;
  if (!q.nalgos || !q.nbytes) {
    fprintf(stderr, "collsim bench: --algos and --bytes are required (see collsim bench --help)\n");
    return 2;
  }
  if (q.smpi) {
    if (!platform[0]) {
      fprintf(stderr, "collsim bench: --platform is required with --backend smpi\n");
      return 2;
    }
    if (cs_resolve_platform(platform, q.hostfile, q.xml, q.hosts, sizeof q.xml)) return 2;
  }
  return cs_bench_run(&q);
}
