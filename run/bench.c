/* Timing runs of the driver (sim/) on a platform (SMPI) or a real MPI
 * library: one launch per algorithm for the sizes its CSV still lacks
 * (run/bench.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "files.h"
#include "foreign.h"
#include "launch.h"
#include "progress.h"
#include "registry.h"
#include "results.h"
#include "sizes.h"
#include "topo.h"

typedef struct {
  const char *algo;
  long *done;
  int ndone;
} done_ctx;

static void collect(const char *algo, long bytes, void *c) {
  done_ctx *d = c;
  if (strcmp(algo, d->algo) == 0 && d->ndone < CS_MAX_SIZES) d->done[d->ndone++] = bytes;
}

/* ---- bench --------------------------------------------------------------- */

/* The sizes of q (as given, comma-separated into sizes) that the file at
 * outpath has no row (or verify line) of for algo; returns their number.
 * first (may be NULL): the effective size of the first of them, -1 if none. */
static int lacking_sizes(const cs_bench_req *q, const char *header, const char *outpath,
                         const char *algo, char *sizes, size_t len, long *first) {
  long done[CS_MAX_SIZES];
  done_ctx d = {algo, done, 0};
  cs_bench_scan_rows(outpath, header, collect, &d);
  size_t sl = 0;
  int todo = 0;
  sizes[0] = '\0';
  if (first) *first = -1;
  for (int i = 0; i < q->nbytes; i++) {
    long eff = cs_req_bytes(q, i);
    int have = cs_req_dup(q, i);
    for (int k = 0; k < d.ndone; k++) have |= done[k] == eff;
    if (have) continue;
    if (first && !todo) *first = eff;
    sl += (size_t)snprintf(sizes + sl, len > sl ? len - sl : 0, "%s%ld", todo ? "," : "",
                           q->bytes[i]);
    todo++;
  }
  return todo;
}

/* The last non-empty line of file path, trimmed, into buf ("" if none). */
static void last_line(const char *path, char *buf, size_t len) {
  buf[0] = '\0';
  FILE *f = fopen(path, "r");
  char line[1024];
  while (f && fgets(line, sizeof line, f)) {
    size_t n = strcspn(line, "\n");
    line[n] = '\0';
    const char *t = line;
    while (*t == ' ') t++;
    if (*t) snprintf(buf, len, "%s", t);
  }
  if (f) fclose(f);
}

/* Replaces the argument after `name` in a with value; 0, or -1 if absent. */
static int set_arg_after(cs_argv *a, const char *name, const char *value) {
  for (int k = 0; k + 1 < a->n; k++)
    if (!strcmp(a->v[k], name)) {
      char *v = strdup(value);
      if (!v) return -1;
      free(a->v[k + 1]);
      a->v[k + 1] = v;
      return 0;
    }
  return -1;
}

/* "name value" for the driver, unless value is the driver's default dflt. */
static void driver_opt(cs_argv *a, const char *name, double value, double dflt) {
  if (value == dflt) return;
  cs_argv_add(a, "%s", name);
  cs_argv_add(a, "%.17g", value);
}

const char *const cs_bench_verify_name[3] = {"all", "library", "none"};
const char *const cs_bench_type_name[CS_BENCH_NTYPES] = {"byte", "int", "double"};

void cs_bench_defaults(cs_bench_req *q) {
  memset(q, 0, sizeof *q);
  q->smpi = 1;
  q->type = CS_BENCH_BYTE;
  q->reps = -1;
  q->warmup = -1;
  q->time_limit = -1;
  q->jobs = 1;
}

static int type_size(cs_bench_type t) {
  static const int size[CS_BENCH_NTYPES] = {1, 4, 8};
  return size[t];
}

long cs_req_bytes(const cs_bench_req *q, int i) {
  return cs_size_bytes(q->coll, q->np, q->bytes[i], type_size(q->type));
}

int cs_req_dup(const cs_bench_req *q, int i) {
  long eff = cs_req_bytes(q, i);
  for (int k = 0; k < i; k++)
    if (cs_req_bytes(q, k) == eff) return 1;
  return 0;
}

/* Adds each space-separated word of words to a, prefixed. */
static void argv_add_words(cs_argv *a, const char *prefix, const char *words) {
  char w[1024];
  snprintf(w, sizeof w, "%s", words);
  for (char *s = NULL, *t = strtok_r(w, " ", &s); t; t = strtok_r(NULL, " ", &s))
    cs_argv_add(a, "%s%s", prefix, t);
}

const char *const cs_bench_op_name[CS_BENCH_NTYPES] = {"bor", "sum", "max"};

/* The first line of a bench CSV (what the run depends on): placement is the
 * placement's digest (smpi: cs_place_ranks; mpi: the hostfile's bytes, or
 * "localhost"), gamma the platform's (< 0: none). */
static void bench_header(const cs_bench_req *q, const char *placement, double gamma, char *buf,
                         size_t len) {
  char pd[32] = "";
  if (q->smpi) {
    int ok;
    uint64_t h = cs_digest_file(q->xml, &ok);
    if (ok) cs_digest_hex(h, pd, sizeof pd);
  }
  cs_bench_meta m = {q->smpi ? "smpi" : "mpi",
                     q->smpi ? q->xml : (q->hostfile ? q->hostfile : "localhost"),
                     cs_colls[q->coll].name,
                     cs_bench_type_name[q->type],
                     q->cfg,
                     q->single ? "single" : NULL,
                     q->np,
                     q->root,
                     q->inplace,
                     q->reps,
                     q->warmup,
                     q->keep_network ? "smpi" : NULL,
                     q->smpi && !q->lib_free,
                     cs_bench_op_name[q->type],
                     pd[0] ? pd : NULL,
                     placement,
                     gamma};
  cs_csv_bench_comment(buf, len, &m);
}

/* The rows of the run's algorithms in the OSU micro-benchmarks' layout, one
 * table per algorithm: "# Size  Avg Latency(us)" (and Min, Max,
 * Iterations with osu-full). OSU's Size is per process for the
 * collectives that gather or scatter blocks (osu_allgather, osu_gather,
 * ...): Size there is m / p, said in a comment line; elsewhere it is m. */
static void bench_print_osu(const cs_bench_req *q, const char *path, FILE *out) {
  int perproc = !cs_colls[q->coll].reduces && cs_coll_shape(q->coll) != CS_SHAPE_VECTOR;
  for (int a = 0; a < q->nalgos; a++) {
    cs_csv_reader r;
    if (cs_csv_open(&r, path)) return;
    fprintf(out, "# collsim bench (OSU layout): %s, %s, %d processes%s\n",
            cs_colls[q->coll].mpi_name, q->algos[a], q->np, q->smpi ? ", simulated by SMPI" : "");
    if (perproc)
      fprintf(out, "# Size is per process, as OSU's: collsim's total m is Size x %d\n", q->np);
    if (q->osu > 1)
      fprintf(out, "%-10s %18s %18s %18s %12s\n", "# Size", "Avg Latency(us)", "Min Latency(us)",
              "Max Latency(us)", "Iterations");
    else
      fprintf(out, "%-10s %18s\n", "# Size", "Avg Latency(us)");
    int k, c[CS_BENCH_NCOL] = {0}, have = 0;
    while ((k = cs_csv_next(&r)) != 0) {
      if (k != 1) continue;
      if (!have) cs_csv_cols(&r, CS_CSV_BENCH, c);
      have = 1;
      const char *al = cs_csv_get(&r, c[CS_BENCH_ALGO]), *b = cs_csv_get(&r, c[CS_BENCH_BYTES]);
      if (!al || !b || strcmp(al, q->algos[a])) continue;
      long m = atol(b);
      double mean = atof(cs_csv_get(&r, c[CS_BENCH_MEAN]) ? cs_csv_get(&r, c[CS_BENCH_MEAN]) : "0");
      fprintf(out, "%-10ld %18.2f", perproc ? m / q->np : m, mean * 1e6);
      if (q->osu > 1) {
        const char *mn = cs_csv_get(&r, c[CS_BENCH_MIN]), *mx = cs_csv_get(&r, c[CS_BENCH_MAX]),
                   *rp = cs_csv_get(&r, c[CS_BENCH_REPS]);
        fprintf(out, " %18.2f %18.2f %12s", mn ? atof(mn) * 1e6 : 0, mx ? atof(mx) * 1e6 : 0,
                rp ? rp : "");
      }
      fprintf(out, "\n");
    }
    cs_csv_close(&r);
    if (a + 1 < q->nalgos) fprintf(out, "\n");
  }
}

/* The comment lines that state what a simulated run applied: the smpirun
 * settings (collsim's exact-timing flags or, with --smpi-network, SMPI's own
 * network model, then --cfg), the placement when collsim chose it, and the
 * gamma of local work. */
static void bench_settings(FILE *f, const cs_bench_req *q, const cs_platform_file *pf,
                           const char *placement, double gamma) {
  char flags[2048];
  cs_timing_flags(pf, q->keep_network, flags, sizeof flags);
  if (q->cfg) {
    size_t n = strlen(flags);
    snprintf(flags + n, sizeof flags - n, " %s", q->cfg);
  }
  cs_csv_smpi_cfg(f, flags);
  if (placement[0]) cs_csv_note(f, "placement", placement);
  cs_csv_command(f, cs_command());
  if (gamma >= 0) {
    char g[64];
    snprintf(g, sizeof g, "%.6g s/byte", gamma);
    cs_csv_note(f, "gamma", g);
  }
}

static void count_row(const char *algo, long bytes, void *c) {
  (void)algo;
  (void)bytes;
  ++*(int *)c;
}

/* After an interrupt: drops a row cut short (the file stays a valid CSV),
 * says in one line what is kept, and returns the exit status. */
static int bench_interrupted(const char *outpath, const char *header, int kept) {
  int rows = 0;
  cs_bench_scan_rows(outpath, header, count_row, &rows);
  if (kept)
    fprintf(stderr,
            "collsim bench: interrupted; %d finished rows kept in %s (the same command "
            "resumes)\n",
            rows, outpath);
  else
    fprintf(stderr, "collsim bench: interrupted after %d finished rows (printed below)\n", rows);
  return CS_EXIT_INTERRUPTED;
}

/* Says which cases of the file were found wrong before timing (never timed,
 * no row) or could not be verified (sim/bench.c bench_verify). */
static void report_verify(const cs_bench_req *q, const char *path) {
  for (int a = 0; a < q->nalgos; a++)
    for (int i = 0; i < q->nbytes; i++) {
      char st[32], why[1024];
      long eff = cs_req_bytes(q, i);
      if (cs_req_dup(q, i) ||
          !cs_bench_lookup_verify(path, q->algos[a], eff, st, sizeof st, why, sizeof why))
        continue;
      if (!strcmp(st, "unverified"))
        fprintf(stderr, "collsim bench: note: %s at %ld bytes was timed but %s\n", q->algos[a], eff,
                why);
      else if (!strcmp(st, "failed"))
        fprintf(stderr, "collsim bench: %s at %ld bytes: not timed: %s\n", q->algos[a], eff, why);
      else
        fprintf(stderr, "collsim bench: %s at %ld bytes: WRONG RESULT (%s), not timed: %s\n",
                q->algos[a], eff, st, why);
    }
}

/* 1 iff the first np hosts of hostfile put ranks of one node on different
 * SimGrid hosts (node<N>-<j>: one host per rank, algos/topo.h). SMPI groups
 * ranks into nodes by host (Comm::init_smp), so its node-aware algorithms
 * (smp_*, mvapich2_two_level, the selectors' SMP paths) then see one-rank
 * nodes and run flat. */
int cs_library_sees_flat_nodes(const char *hostfile, int np) {
  FILE *f = fopen(hostfile, "r");
  if (!f) return 0;
  char line[512];
  int flat = 0, prev_node = -1, prev_local = -1;
  for (int r = 0; r < np && !flat && fgets(line, sizeof line, f); r++) {
    line[strcspn(line, ":\r\n")] = '\0';
    int node, local;
    if (cs_topo_parse_host(line, &node, &local)) continue;
    flat = local >= 0 && node == prev_node && local != prev_local;
    prev_node = node;
    prev_local = local;
  }
  fclose(f);
  return flat;
}

/* Every size of q within what one call can take: the driver gives the
 * whole collective's elements as one MPI int count (sim/bench.c), so a size
 * whose elements exceed INT_MAX is refused here, before anything is written
 * or launched. 0, or -1 with a message naming the limit. */
static int check_counts(const cs_bench_req *q) {
  int size = type_size(q->type);
  for (int i = 0; i < q->nbytes; i++) {
    long elems = cs_size_elems(q->coll, q->np, q->bytes[i], size);
    if (elems > INT_MAX) {
      char b[64];
      fprintf(stderr,
              "collsim bench: --bytes %s (%ld bytes) is %ld elements of %s, above MPI's int "
              "count limit of %d elements per call; %s sizes up to %ld bytes are within it\n",
              cs_size_str((double)q->bytes[i], b, sizeof b), q->bytes[i], elems,
              cs_bench_type_name[q->type], INT_MAX, cs_colls[q->coll].name, (long)INT_MAX * size);
      return -1;
    }
  }
  return 0;
}

/* The progress of a run (run/progress.h): a case's work is its bytes plus
 * 64 KiB (a small case still costs a launch's share and a latency). */
#define CASE_FLOOR 65536.0
typedef struct {
  cs_progress p;
  const char *path;
  double done0;
  int cases;
  long rows0;
} bench_progress;

static void bench_tick(void *c) {
  bench_progress *b = c;
  double work;
  long rows = cs_bench_count_done(b->path, CASE_FLOOR, &work);
  if (rows < 0) return;
  char detail[96];
  snprintf(detail, sizeof detail, "%ld of %d cases", rows - b->rows0, b->cases);
  cs_progress_update(&b->p, work - b->done0, detail);
}

/* Simulated runs of collsim's rows share one simulation per set of lacking
 * sizes: the driver times them one after the other from an exact common
 * start (sim/bench.c), so a row's time is its own up to the rounding of
 * the simulated clock's later origin (relative 1e-14 at most in practice,
 * where each launch costs a fixed 0.2-0.5 s of start-up: most of a small
 * bench's time). The library's rows (native, native:NAME, lib:SEL) keep a
 * simulation each: they are selected by SimGrid settings of the launch, and
 * some of SMPI's algorithms crash or stall. --stats keeps one launch per
 * algorithm, whose wall time and memory it reports. */
static int sim_groups(const cs_bench_req *q) { return q->smpi && !q->stats; }

/* The selector a ROW@lib:SEL name runs its inner collectives under, or "". */
static const char *at_selector(const char *name) {
  const char *sel = cs_algo_selector(name);
  return sel ? sel : "";
}

/* A job of its own for algorithm name (one of q->algos) at the sizes left,
 * made from the shared job src: after a shared simulation that ended with
 * rows missing, each algorithm lacking them runs alone, where the existing
 * handling of a stopped or failed run applies to it. */
static int split_job(cs_job *dst, const cs_job *src, const char *name, const char *left,
                     const char *dir, int index) {
  cs_argv_init(&dst->args);
  for (int k = 0; k < src->args.n; k++) cs_argv_add(&dst->args, "%s", src->args.v[k]);
  dst->np = src->np;
  snprintf(dst->out, sizeof dst->out, "%s/job%d.out", dir, index);
  snprintf(dst->err, sizeof dst->err, "%s/job%d.err", dir, index);
  if (set_arg_after(&dst->args, "--algos", name) || set_arg_after(&dst->args, "--bytes", left)) {
    cs_argv_free(&dst->args);
    return -1;
  }
  return 0;
}

int cs_bench_run(cs_bench_req *q) {
  int rc = 0, lockfd = -1, nj = 0;
  char tmpdir[4096] = "", tmp2[4096] = "", outpath[4200], header[8192], flags[2048] = "";
  cs_job *jobs = NULL;
  cs_platform_file own = {0}, *pf = q->pf ? q->pf : &own;
  if (q->reps < 0) q->reps = q->smpi ? 1 : 30;
  if (q->warmup < 0) q->warmup = q->smpi ? 0 : 3;
  if (q->time_limit < 0) q->time_limit = q->smpi ? 0 : 10;
  char placement[4400] = "", digest[64] = "localhost";
  double gamma = -1;
  if (check_counts(q)) {
    rc = 2;
    goto out;
  }
  if (q->smpi) {
    /* The platform is read once here; everything below takes it from pf.
     * Before anything is written or launched: the hosts exist, enough ranks. */
    if (!q->pf) cs_platform_load(&own, q->xml);
    char given[4096];
    snprintf(given, sizeof given, "%s", q->hosts);
    if (cs_place_ranks("bench", pf, q->hosts, sizeof q->hosts, q->np, q->quiet, placement,
                       sizeof placement, digest, sizeof digest)) {
      rc = 2;
      goto out;
    }
    if (given[0]) snprintf(placement, sizeof placement, "hostfile %s", given);
    gamma = cs_platform_gamma("bench", pf, q->quiet);
    cs_timing_flags(pf, q->keep_network, flags, sizeof flags);
  } else if (q->hostfile) {
    int ok;
    uint64_t h = cs_digest_file(q->hostfile, &ok);
    if (!ok) {
      fprintf(stderr, "collsim bench: cannot read the hostfile %s: %s\n", q->hostfile,
              strerror(errno));
      rc = 2;
      goto out;
    }
    cs_digest_hex(h, digest, sizeof digest);
  }

  int lib = 0;
  for (int a = 0; a < q->nalgos; a++)
    lib |= !strncmp(q->algos[a], "native", 6) || !strncmp(q->algos[a], "lib:", 4);
  if (q->smpi && lib && !q->quiet && cs_library_sees_flat_nodes(q->hosts, q->np))
    fprintf(stderr,
            "collsim bench: note: %s gives every rank its own SimGrid host (node<N>-<j>), and "
            "SMPI groups ranks into nodes by host: the library's node-aware algorithms "
            "(smp_*, mvapich2_two_level, the selectors' SMP paths) see one-rank nodes here and "
            "run flat. collsim's platforms keep one host per rank only where a node has more "
            "than one lane (lanes, hydra and vsc3 with ppn > 1: a rank's host ties it to its "
            "lane's NIC); with one lane (maxrate, bluewaters, hydra/vsc3 at ppn 1) and on "
            "irene and theta a node is one host and the library runs as it would "
            "(docs: sim/README.md)\n",
            q->xml);
  if (cs_colls[q->coll].rooted && (q->root < 0 || q->root >= q->np)) {
    fprintf(stderr, "collsim bench: --root %d out of range 0..%d\n", q->root, q->np - 1);
    rc = 2;
    goto out;
  }
  if (q->single && q->coll != CS_reduce_scatter) {
    fprintf(stderr,
            "collsim bench: --layout single: valid: even, or single (reduce_scatter only)\n");
    rc = 2;
    goto out;
  }
  if (q->inplace && !cs_colls[q->coll].in_place) {
    fprintf(stderr, "collsim bench: %s has no MPI_IN_PLACE form\n", cs_colls[q->coll].name);
    rc = 2;
    goto out;
  }
  bench_header(q, digest, gamma, header, sizeof header);
  /* Output: the file, or a temporary one copied to stdout at the end. */
  if (q->out)
    snprintf(outpath, sizeof outpath, "%s", q->out);
  else {
    if (cs_make_tmpdir(tmpdir, sizeof tmpdir)) {
      perror("collsim: temporary directory");
      tmpdir[0] = '\0';
      rc = 1;
      goto out;
    }
    snprintf(outpath, sizeof outpath, "%s/bench.csv", tmpdir);
  }
  /* One writer at a time: a second run on the same file would write its
   * rows twice. The lock is held until the end of this function. */
  lockfd = cs_lock_output("bench", outpath);
  if (lockfd < 0) {
    rc = 2;
    goto out;
  }
  /* --redo starts the file over; so does a file of another configuration
   * when the caller owns its files (redo_foreign), and otherwise it is
   * refused. The samples file (--samples) is appended to either way: its
   * owner (guidelines) removes it when it starts over. */
  struct stat st;
  int fresh = stat(outpath, &st) != 0 || st.st_size == 0, start_over = q->redo;
  if (!fresh && !start_over) {
    done_ctx probe = {"", NULL, 0};
    if (cs_bench_scan_rows(outpath, header, collect, &probe) < 0) {
      cs_prov have, want;
      char why[4096] = "its first line is not collsim's";
      int lib_differs = 0;
      if (cs_prov_read(outpath, &have) == 0 && cs_prov_parse(header, &want) == 0) {
        cs_prov_diff(&have, &want, cs_prov_bench_option, why, sizeof why);
        const char *a = cs_prov_get(&have, "lib_charge"), *b = cs_prov_get(&want, "lib_charge");
        lib_differs = (a == NULL) != (b == NULL) || (a && b && strcmp(a, b));
      }
      fprintf(
          stderr, "collsim bench: %s holds results of another configuration: %s; %s\n", outpath,
          why,
          q->redo_foreign ? "starting it over" : "give another --out, or --redo to start it over");
      if (!q->redo_foreign) {
        if (q->smpi && !q->lib_free && lib_differs)
          fprintf(stderr,
                  "collsim bench: (a file made without lib_charge has the library's "
                  "reductions and copies free, as SMPI runs them: resume it with --lib-charge "
                  "off; one with lib_charge=gamma charged its reductions only: start it over)\n");
        rc = 2;
        goto out;
      }
      start_over = 1;
    }
  }
  if (start_over) {
    if (ftruncate(lockfd, 0) != 0) {
      fprintf(stderr, "collsim bench: cannot empty %s: %s\n", outpath, strerror(errno));
      rc = 1;
      goto out;
    }
    fresh = 1;
  }
  if (fresh) {
    FILE *f = fopen(outpath, "w");
    if (!f) {
      fprintf(stderr, "collsim bench: cannot write %s: %s\n", outpath, strerror(errno));
      rc = 1;
      goto out;
    }
    fputs(header, f);
    if (q->smpi)
      bench_settings(f, q, pf, placement, gamma);
    else {
      if (q->hostfile) cs_csv_note(f, "placement", q->hostfile);
      cs_csv_command(f, cs_command());
    }
    if (q->smpi) cs_csv_bench_lib_note(f, !q->lib_free);
    cs_csv_write_header(f, CS_CSV_BENCH);
    fclose(f);
  }
  /* One job per algorithm, with the sizes it still lacks; in simulation,
   * collsim's own rows lacking the same sizes share one (sim_groups). Room
   * for twice the algorithms: a shared simulation that ends with rows
   * missing is run again one algorithm per job. */
  jobs = calloc((size_t)q->nalgos * 2, sizeof(cs_job));
  const char *jobname[2 * CS_MAX_ALGOS];
  if (!jobs || cs_make_tmpdir(tmp2, sizeof tmp2)) {
    tmp2[0] = '\0';
    rc = 1;
    goto out;
  }
  /* --interleave on a real MPI: algorithms lacking the same sizes share one job,
   * which runs them in rounds (sim/bench.c). In simulation (sim_groups),
   * collsim's rows lacking the same sizes share one, one after the other. */
  static char jsizes[2 * CS_MAX_ALGOS][CS_MAX_SIZES * 12], jalgos[2 * CS_MAX_ALGOS][2048];
  for (int a = 0; a < q->nalgos; a++) {
    char sizes[CS_MAX_SIZES * 12];
    int todo = lacking_sizes(q, header, outpath, q->algos[a], sizes, sizeof sizes, NULL);
    if (!todo) continue;
    int g = -1;
    for (int k = 0; k < nj && (q->interleave || sim_groups(q)); k++)
      if (!strcmp(jsizes[k], sizes) &&
          (!q->smpi || (!cs_algo_is_library(q->algos[a]) && !cs_algo_is_library(jobname[k]) &&
                        !strcmp(at_selector(q->algos[a]), at_selector(jobname[k])))))
        g = k;
    size_t used = g >= 0 ? strlen(jalgos[g]) : 0;
    if (g >= 0 && used + strlen(q->algos[a]) + 2 < sizeof jalgos[g]) {
      snprintf(jalgos[g] + used, sizeof jalgos[g] - used, ",%s", q->algos[a]);
      if (set_arg_after(&jobs[g].args, "--algos", jalgos[g]) == 0) continue;
      jalgos[g][used] = '\0';
    }
    snprintf(jsizes[nj], sizeof jsizes[nj], "%s", sizes);
    snprintf(jalgos[nj], sizeof jalgos[nj], "%s", q->algos[a]);
    jobname[nj] = q->algos[a];
    cs_job *j = &jobs[nj++];
    cs_argv_init(&j->args);
    j->np = q->np;
    snprintf(j->out, sizeof j->out, "%s/job%d.out", tmp2, a);
    snprintf(j->err, sizeof j->err, "%s/job%d.err", tmp2, a);
    const char *name = q->algos[a];
    if (q->smpi) {
      cs_argv_smpirun(&j->args, q->np, q->xml, q->hosts, flags);
      /* Every actor's stack guard page is one more memory map; thousands of
       * ranks with shared buffers run into vm.max_map_count without this. */
      if (q->np > 2048) cs_argv_add(&j->args, "--cfg=contexts/guard-size:0");
      if (q->cfg && strstr(q->cfg, "smpi/coll-selector") && cs_algo_selector(name)) {
        fprintf(stderr,
                "collsim bench: %s names SMPI's selector and --cfg sets smpi/coll-selector "
                "too; name it once\n",
                name);
        rc = 2;
        nj--;
        cs_argv_free(&j->args);
        break;
      }
      if (cs_argv_smpi_algo(&j->args, q->coll, name, "bench")) {
        rc = 2;
        nj--;
        cs_argv_free(&j->args);
        break;
      }
      if (q->cfg) argv_add_words(&j->args, "", q->cfg);
      cs_argv_add(&j->args, "%s/collsim-smpi", cs_self_dir());
    } else {
      if (!strncmp(name, "native:", 7) || cs_algo_selector(name)) {
        fprintf(stderr, "collsim bench: %s selects an SMPI algorithm; with --backend mpi use %s\n",
                name,
                cs_algo_at_lib(name, NULL) ? "the row alone (it calls the real library inside)"
                                           : "native");
        rc = 2;
        nj--;
        cs_argv_free(&j->args);
        break;
      }
      cs_argv_mpirun(&j->args, q->np, q->hostfile);
      cs_argv_add(&j->args, "%s/collsim-mpi", cs_self_dir());
    }
    cs_argv_add(&j->args, "bench");
    cs_argv_add(&j->args, "--coll");
    cs_argv_add(&j->args, "%s", cs_colls[q->coll].name);
    cs_argv_add(&j->args, "--algos");
    cs_argv_add(&j->args, "%s", name);
    cs_argv_add(&j->args, "--bytes");
    cs_argv_add(&j->args, "%s", sizes);
    cs_argv_add(&j->args, "--out");
    cs_argv_add(&j->args, "%s", outpath);
    /* Options at the driver's defaults are left out (sim/bench.c parse_opts):
     * SMPI copies the arguments into every simulated process (8192 ranks, 22
     * arguments: 2400 more pages faulted in than with 10), and parsing a
     * time limit ran strtod, whose frame reached a stack page more. */
    if (q->type != CS_BENCH_BYTE) {
      cs_argv_add(&j->args, "--type");
      cs_argv_add(&j->args, "%s", cs_bench_type_name[q->type]);
    }
    driver_opt(&j->args, "--root", q->root, 0);
    driver_opt(&j->args, "--in-place", q->inplace, 0);
    driver_opt(&j->args, "--reps", q->reps, 1);
    driver_opt(&j->args, "--warmup", q->warmup, 0);
    driver_opt(&j->args, "--time-limit", q->time_limit, 0);
    if (q->single) cs_argv_add(&j->args, "--layout=single");
    if (q->smpi && !q->lib_free) cs_argv_add(&j->args, "--lib-charge=1");
    /* one argument per option: smpirun splits arguments at spaces */
    if (q->cfg) argv_add_words(&j->args, "--lib-cfg=", q->cfg);
    if (q->samples) cs_argv_add(&j->args, "--samples=%s", q->samples);
    if (q->verify) cs_argv_add(&j->args, "--verify=%s", cs_bench_verify_name[q->verify]);
    if (q->probes && q->probes_out && !q->smpi) {
      cs_argv_add(&j->args, "--probes=%s", q->probes);
      cs_argv_add(&j->args, "--probes-out=%s", q->probes_out);
      cs_argv_add(&j->args, "--launch=%d", q->launch > 0 ? q->launch : 1);
    }
  }
  /* Progress over the whole run: the cases still lacking, weighted. */
  static bench_progress bp;
  {
    double total = 0;
    int cases = 0;
    for (int a = 0; a < q->nalgos; a++) {
      char sizes[CS_MAX_SIZES * 12];
      if (!lacking_sizes(q, header, outpath, q->algos[a], sizes, sizeof sizes, NULL)) continue;
      for (char *s = NULL, *t = strtok_r(sizes, ",", &s); t; t = strtok_r(NULL, ",", &s)) {
        total += (double)atol(t) + CASE_FLOOR;
        cases++;
      }
    }
    char what[256];
    snprintf(what, sizeof what, "collsim bench: %s%s%s", q->stage ? q->stage : "",
             q->stage ? ": " : "", cs_colls[q->coll].name);
    cs_progress_start(&bp.p, what, total > 0 ? total : 1, q->quiet);
    bp.path = outpath;
    bp.cases = cases;
    bp.rows0 = cs_bench_count_done(outpath, CASE_FLOOR, &bp.done0);
    if (bp.rows0 < 0) bp.rows0 = 0, bp.done0 = 0;
  }
  cs_catch_interrupts(1);
  for (int i = 0; i < nj && rc == 0 && !cs_interrupted(); i++) {
    if (!q->quiet)
      fprintf(stderr, "collsim bench: %s %s on %d ranks (%d/%d)\n", cs_colls[q->coll].name,
              jalgos[i], q->np, i + 1, nj);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cs_run_jobs_tick(&jobs[i], 1, 1, NULL, NULL, bench_tick, &bp);
    bench_tick(&bp);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (q->stats) {
      /* ru_maxrss of waited-for children: the largest process so far (the
       * simulation), so run one bench per figure wanted. */
      struct rusage ru;
      getrusage(RUSAGE_CHILDREN, &ru);
      fprintf(stderr, "collsim bench: %s %s np=%d wall_s=%.2f peak_rss_mib=%.0f\n",
              cs_colls[q->coll].name, jobname[i], q->np,
              (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
              (double)ru.ru_maxrss / 1024.0);
    }
    if (cs_interrupted()) break;
    if (q->smpi && strchr(jalgos[i], ',')) {
      /* A shared simulation: every algorithm that still lacks sizes (it
       * failed or stopped) runs again alone. */
      int failed = !WIFEXITED(jobs[i].status) || WEXITSTATUS(jobs[i].status) != 0, split = 0;
      char names[sizeof jalgos[i]];
      snprintf(names, sizeof names, "%s", jalgos[i]);
      for (char *sv = NULL, *name = strtok_r(names, ",", &sv); name && rc == 0;
           name = strtok_r(NULL, ",", &sv)) {
        char left[CS_MAX_SIZES * 12];
        if (!lacking_sizes(q, header, outpath, name, left, sizeof left, NULL)) continue;
        const char *own = NULL;
        for (int a = 0; a < q->nalgos && !own; a++)
          if (!strcmp(q->algos[a], name)) own = q->algos[a];
        if (!own || nj >= 2 * q->nalgos ||
            split_job(&jobs[nj], &jobs[i], own, left, tmp2, q->nalgos + nj)) {
          fprintf(stderr, "collsim bench: cannot run %s again alone\n", name);
          rc = 1;
          break;
        }
        snprintf(jsizes[nj], sizeof jsizes[nj], "%s", left);
        snprintf(jalgos[nj], sizeof jalgos[nj], "%s", own);
        jobname[nj++] = own;
        split++;
      }
      if (split)
        fprintf(stderr,
                "collsim bench: the shared simulation of %s %s; %d of them run again alone\n",
                jalgos[i], failed ? "failed" : "ended with rows missing", split);
      if (split || !failed || rc) continue;
      /* failed with every row written: said as for any run */
    }
    if (!WIFEXITED(jobs[i].status) || WEXITSTATUS(jobs[i].status) != 0) {
      fprintf(stderr, "collsim bench: the run failed:");
      for (int k = 0; k < jobs[i].args.n; k++) fprintf(stderr, " %s", jobs[i].args.v[k]);
      fprintf(stderr, "\n");
      cs_print_tail(jobs[i].err, 15);
      char cmd[8400];
      snprintf(cmd, sizeof cmd, "grep -q 'Could not map folded virtual memory' '%s'", jobs[i].err);
      if (system(cmd) == 0)
        fprintf(stderr,
                "collsim bench: SMPI ran out of memory maps (each shared buffer and each rank's "
                "stack is one); raise the limit, as root: sysctl -w vm.max_map_count=1048576\n");
      rc = 1;
    } else {
      /* A simulation can end without finishing (SMPI 3.32's impi allreduce
       * deadlocks: "Stalling SMPI instance", exit status 0): no silent gap. */
      char left[CS_MAX_SIZES * 12];
      long eff;
      int lacking = lacking_sizes(q, header, outpath, jobname[i], left, sizeof left, &eff);
      if (lacking) {
        /* The size it stopped at is the first one lacking (sizes run in
         * order): a "failed" verify line marks it done, so that it is not
         * retried, and the job runs again for the sizes after it. */
        char why[1024];
        last_line(jobs[i].err, why, sizeof why);
        fprintf(stderr,
                "collsim bench: %s at %ld bytes: the simulation stopped there (SMPI: %s); no "
                "row, the sizes after it run again\n",
                jobname[i], eff, why);
        FILE *f = fopen(outpath, "a");
        if (f) {
          char msg[1100];
          snprintf(msg, sizeof msg, "the simulation stopped at this size: %s", why);
          cs_csv_bench_verify(f, jobname[i], eff, q->np, "failed", msg);
          fclose(f);
        }
        int now = lacking_sizes(q, header, outpath, jobname[i], left, sizeof left, NULL);
        if (now >= lacking) { /* the failed line did not count: give up, as before */
          fprintf(stderr, "collsim bench: the run of %s ended without rows for sizes %s\n",
                  jobname[i], left);
          rc = 1;
        } else if (now > 0 && set_arg_after(&jobs[i].args, "--bytes", left) == 0) {
          i--; /* the same job again, for the sizes left */
          continue;
        } else if (now > 0)
          rc = 1;
      }
    }
  }
  cs_progress_end(&bp.p);
  cs_catch_interrupts(0);
  if (!q->quiet) report_verify(q, outpath);
  if (cs_interrupted()) rc = bench_interrupted(outpath, header, q->out != NULL);
  if (rc == 0 && q->osu) bench_print_osu(q, outpath, stdout);
  if (!q->out && !q->osu) {
    FILE *f = fopen(outpath, "r");
    char buf[4096];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stdout);
    if (f) fclose(f);
  }
  if (q->out && !q->quiet && rc == 0) fprintf(stderr, "collsim bench: results in %s\n", outpath);
out:
  for (int i = 0; i < nj; i++) cs_argv_free(&jobs[i].args);
  free(jobs);
  if (tmp2[0]) cs_rm_tree(tmp2);
  if (tmpdir[0]) cs_rm_tree(tmpdir);
  if (lockfd >= 0) close(lockfd);
  cs_platform_file_free(&own);
  return rc;
}

/* ROW@lib:SEL: ROW a row that calls collectives inside (CS_INNER), SEL one
 * of SMPI's selectors. 0, or -1 with a message. */
static int check_at_lib(cs_coll coll, const char *a) {
  const char *sel = cs_algo_selector(a);
  const cs_algo_info *r = cs_algo_find_at_lib(coll, a);
  if (!r || !(r->flags & CS_INNER)) {
    fprintf(stderr, "collsim: %s: ROW@lib:SEL needs a row of %s that calls collectives inside (", a,
            cs_colls[coll].name);
    int k = 0;
    for (int i = 0; i < cs_nalgos; i++)
      if (cs_algos[i].coll == coll && (cs_algos[i].flags & CS_INNER))
        fprintf(stderr, "%s%s", k++ ? ", " : "", cs_algos[i].name);
    fprintf(stderr, "%s)\n", k ? "" : "none");
    return -1;
  }
  if (!cs_smpi_selector_valid(sel)) {
    fprintf(stderr, "collsim: %s: unknown SMPI selector '%s' (valid: ", a, sel);
    cs_print_smpi_selectors(stderr, "", ", ");
    fprintf(stderr, ")\n");
    return -1;
  }
  return 0;
}

int cs_check_algos(cs_coll coll, const char **algos, int n) {
  for (int i = 0; i < n; i++) {
    const char *a = algos[i];
    if (cs_algo_at_lib(a, NULL)) {
      if (check_at_lib(coll, a)) return -1;
      continue;
    }
    if (!strncmp(a, "lib:", 4)) {
      if (cs_smpi_check_name(stderr, coll, a)) return -1;
      continue;
    }
    if (!cs_algo_find(coll, a)) {
      fprintf(stderr, "collsim: unknown %s algorithm '%s'. Valid: ", cs_colls[coll].name, a);
      cs_print_algos(stderr, coll);
      fprintf(stderr, ", lib:SELECTOR (collsim list --smpi), ROW@lib:SELECTOR\n");
      return -1;
    }
    if (cs_smpi_check_name(stderr, coll, a)) return -1;
  }
  return 0;
}
