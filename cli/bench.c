/* ./collsim bench: its options (shared by predict and validate) parsed
 * into a cs_bench_req, then the run (run/bench.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "foreign.h"
#include "lists.h"
#include "registry.h"
#include "sizes.h"

/* ---- option parsing shared by bench, predict, table1 ---------------------- */

int cs_split_list(char *s, const char **out, int max) {
  int n = 0;
  for (char *save = NULL, *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (n == max) return -1;
    out[n++] = t;
  }
  return n;
}

static void bench_usage(FILE *f) {
  fprintf(
      f,
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
      "  --algos LIST     (or --algo) registry names (collsim list) or all (every row of C, the\n"
      "                   library's native included), native (the library),\n"
      "                   native:NAME (an SMPI algorithm), lib:SEL (SMPI's selector:\n"
      "                   ompi, mpich, mvapich2, impi: real libraries' decisions;\n"
      "                   default: SMPI's own naive one; automatic), ROW@lib:SEL (a\n"
      "                   row that calls collectives inside, lane or hier, with\n"
      "                   selector SEL's inside; the plain row: SMPI's default's)\n"
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
      "  --lib-charge on|off  smpi: charge the library's (native, native:NAME, lib:SEL,\n"
      "                   and inside lane and hier rows) local reductions and copies as\n"
      "                   collsim's kernels' are (on, default), or not (off: SMPI's\n"
      "                   behaviour); the CSV's first line says\n"
      "                   lib_charge=reductions,copies when on (docs/library.md)\n"
      "  --verify all|library|none  check each (algorithm, size) once on real buffers\n"
      "                   before timing it (all, default; library: native, native:NAME and\n"
      "                   lib:SEL rows only; none: no check, each case gets a verify line\n"
      "                   'unverified' in the CSV). A wrong result is never timed. The\n"
      "                   check costs CPU at scale (theta, 8192 ranks, 1 KiB: about 4x)\n"
      "  --redo           discard FILE's rows and run everything again\n"
      "  --stats          print wall seconds and peak memory of each run on stderr\n"
      "                   (one simulation per algorithm; without it collsim's rows\n"
      "                   lacking the same sizes share one)\n"
      "  --quiet          no notes on stderr (placement, gamma, progress)\n");
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

/* An option of bench that names one of a few choices: the index of the
 * choice goes into *index; a name that is none of them is refused with
 * "collsim WHO: NAME VALUE" and the rest of the message, valid. */
typedef struct {
  const char *name;
  const char *const *choices;
  int n;
  int *index;
  const char *who; /* the command the message names (NULL: the caller's) */
  const char *valid;
  int deferred; /* checked once every option is read (as the run did before) */
} bench_choice;

static int set_choice(const bench_choice *c, const char *cmd, const char *v) {
  for (int k = 0; k < c->n; k++)
    if (!strcmp(v, c->choices[k])) {
      *c->index = k;
      return 0;
    }
  fprintf(stderr, "collsim %s: %s %s%s\n", c->who ? c->who : cmd, c->name, v, c->valid);
  return -1;
}

/* The numbers among bench's options, taken as soon as they are read: o with
 * value v into q; 0, or -1 after a message. Other options: 0. */
static int set_number(cs_bench_req *q, const char *cmd, const char *o, const char *v) {
  if (!strcmp(o, "--np")) {
    char *e;
    q->np = (int)strtol(v, &e, 10);
    if (*e || q->np < 1) {
      fprintf(stderr, "collsim %s: --np %s: expected a number >= 1\n", cmd, v);
      return -1;
    }
  } else if (!strcmp(o, "--reps"))
    q->reps = atoi(v);
  else if (!strcmp(o, "--warmup"))
    q->warmup = atoi(v);
  else if (!strcmp(o, "--time-limit"))
    q->time_limit = atof(v);
  else if (!strcmp(o, "--root"))
    q->root = atoi(v);
  return 0;
}

/* --algos: a list of names, or all (every registry row of the collective, as
 * check's default); 0, or -1 after a message. */
static int set_algos(cs_bench_req *q, const char *algos) {
  static char algobuf[4096];
  if (!strcmp(algos, "all")) {
    size_t n = 0;
    algobuf[0] = 0;
    for (int i = 0; i < cs_nalgos; i++)
      if (cs_algos[i].coll == q->coll && n < sizeof algobuf)
        n += (size_t)snprintf(algobuf + n, sizeof algobuf - n, "%s%s", n ? "," : "",
                              cs_algos[i].name);
  } else
    snprintf(algobuf, sizeof algobuf, "%s", algos);
  q->nalgos = cs_split_list(algobuf, q->algos, CS_MAX_ALGOS);
  return q->nalgos < 1 || cs_check_algos(q->coll, q->algos, q->nalgos) ? -1 : 0;
}

int cs_bench_parse(int argc, char **argv, cs_bench_req *q, const char *cmd,
                   int (*extra)(int, char **, int, void *), void *ctx, char *platform,
                   size_t platlen) {
  const char *coll = NULL, *algos = NULL, *bytes = NULL, *block_bytes = NULL, *plat = NULL,
             *number = NULL;
  int type = (int)q->type, rc = 0;
  static const char *const backends[] = {"mpi", "smpi"}, *const layouts[] = {"even", "single"},
                           *const formats[] = {"csv", "osu", "osu-full"},
                           *const charges[] = {"on", "off"};
  /* --type, --backend and --layout are checked once every option is read
   * (deferred), the others as they come. */
  const bench_choice choices[] = {
      {"--type", cs_bench_type_name, CS_BENCH_NTYPES, &type, "bench",
       " unknown (valid: byte, int, double)", 1},
      {"--backend", backends, 2, &q->smpi, "bench", " unknown (valid: smpi, mpi)", 1},
      {"--layout", layouts, 2, &q->single, "bench",
       ": valid: even, or single (reduce_scatter only)", 1},
      {"--format", formats, 3, &q->osu, NULL, " unknown (valid: csv, osu, osu-full)", 0},
      {"--lib-charge", charges, 2, &q->lib_free, NULL, ": valid: on (default), off", 0},
      {"--verify", cs_bench_verify_name, 3, &q->verify, NULL,
       ": valid: all (default), library, none", 0}};
  const char *later[3] = {NULL, NULL, NULL}; /* the deferred choices' values */
  const struct {
    const char *name;
    int *on;
  } flags[] = {{"--in-place", &q->inplace},
               {"--redo", &q->redo},
               {"--quiet", &q->quiet},
               {"--stats", &q->stats},
               {"--smpi-network", &q->keep_network}};
  const cs_optval words[] = {{"--platform", &plat}, {"--coll", &coll},
                             {"--algos", &algos},   {"--algo", &algos},
                             {"--bytes", &bytes},   {"--block-bytes", &block_bytes},
                             {"--out", &q->out},    {"--hostfile", &q->hostfile},
                             {"--cfg", &q->cfg},    {"--samples", &q->samples},
                             {"--np", &number},     {"--reps", &number},
                             {"--warmup", &number}, {"--time-limit", &number},
                             {"--root", &number}};
  const size_t nchoices = sizeof choices / sizeof choices[0],
               nflags = sizeof flags / sizeof flags[0];
  for (int i = 1; i < argc && rc == 0; i++) {
    const char *o = argv[i];
    if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
      rc = 1;
      break;
    }
    size_t f = 0;
    while (f < nflags && strcmp(o, flags[f].name)) f++;
    if (f < nflags) {
      *flags[f].on = 1;
      continue;
    }
    int used = extra ? extra(argc, argv, i, ctx) : 0;
    if (used) {
      if (used < 0) rc = 2;
      i += used - 1;
      continue;
    }
    size_t c = 0;
    while (c < nchoices && strcmp(o, choices[c].name)) c++;
    int took = cs_take_opt(cmd, argc, argv, &i, words, sizeof words / sizeof words[0]);
    if (!took && c == nchoices) {
      fprintf(stderr, "collsim %s: unknown option %s (see collsim %s --help)\n", cmd, o, cmd);
      rc = 2;
    } else if (took < 0) {
      rc = 2;
    } else if (took) {
      rc = set_number(q, cmd, o, argv[i]) ? 2 : 0;
    } else if (i + 1 >= argc) {
      fprintf(stderr, "collsim %s: %s needs a value\n", cmd, o);
      rc = 2;
    } else if (choices[c].deferred) {
      later[c] = argv[++i];
    } else {
      rc = set_choice(&choices[c], cmd, argv[++i]) ? 2 : 0;
    }
  }
  if (rc == 0 && (!coll || !q->np)) {
    fprintf(stderr, "collsim %s: --coll and --np are required (see collsim %s --help)\n", cmd, cmd);
    rc = 2;
  }
  int c = rc == 0 ? cs_coll_by_name(coll) : 0;
  if (c < 0) {
    fprintf(stderr, "collsim %s: unknown collective '%s'. Valid: ", cmd, coll);
    cs_print_colls(stderr);
    fprintf(stderr, "\n");
    rc = 2;
  }
  q->coll = (cs_coll)c;
  if (rc == 0 && algos && set_algos(q, algos)) rc = 2;
  if (rc == 0 && bytes && block_bytes) {
    fprintf(stderr, "collsim %s: give --bytes (total m) or --block-bytes (per process), not both\n",
            cmd);
    rc = 2;
  }
  if (rc == 0 && bytes && (q->nbytes = cs_parse_sizes(bytes, q->bytes, CS_MAX_SIZES)) < 0) rc = 2;
  if (rc == 0 && block_bytes && bench_block_sizes(q, block_bytes, cmd)) rc = 2;
  for (int k = 0; k < 3 && rc == 0; k++)
    if (later[k] && set_choice(&choices[k], cmd, later[k])) rc = 2;
  q->type = (cs_bench_type)type;
  snprintf(platform, platlen, "%s", plat ? plat : "");
  return rc;
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
  if (rc == 0 && (!q.nalgos || !q.nbytes)) {
    fprintf(stderr, "collsim bench: --algos and --bytes are required (see collsim bench --help)\n");
    rc = 2;
  } else if (rc == 0 && q.smpi && !platform[0]) {
    fprintf(stderr, "collsim bench: --platform is required with --backend smpi\n");
    rc = 2;
  } else if (rc == 0 && q.smpi &&
             cs_resolve_platform(platform, q.hostfile, q.xml, q.hosts, sizeof q.xml)) {
    rc = 2;
  }
  return rc ? rc : cs_bench_run(&q);
}
