/* ./collsim bench, predict and table1: timing runs of the driver on a
 * platform (SMPI) or a real MPI library, and the models beside them. */
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
#include "cli.h"
#include "model.h"
#include "platgen.h"
#include "registry.h"
#include "sizes.h"

#ifndef COLLSIM_SOURCE_DIR
#define COLLSIM_SOURCE_DIR "."
#endif

/* ---- platforms --------------------------------------------------------- */

int cs_resolve_platform(const char *arg, const char *hostfile, char *xml, char *hosts, size_t len) {
  struct stat st;
  if (stat(arg, &st) == 0 && S_ISREG(st.st_mode)) {
    snprintf(xml, len, "%s", arg);
  } else {
    cs_platform pl;
    char err[512];
    if (strchr(arg, '/') == NULL && cs_platform_named(arg, &pl, err, sizeof err) == 0) {
      snprintf(xml, len, "%s/platforms/%s.xml", COLLSIM_SOURCE_DIR, arg);
    } else {
      fprintf(stderr,
              "collsim: platform '%s' is neither a file nor a named machine (hydra, irene, "
              "theta, vsc3, bluewaters); write one with `collsim platform KIND --out F.xml "
              "--hostfile F.hostfile`\n",
              arg);
      return -1;
    }
  }
  if (hostfile) {
    snprintf(hosts, len, "%s", hostfile);
  } else {
    size_t n = strlen(xml);
    if (n > 4 && !strcmp(xml + n - 4, ".xml"))
      snprintf(hosts, len, "%.*s.hostfile", (int)(n - 4), xml);
    else
      snprintf(hosts, len, "%s.hostfile", xml);
  }
  if (stat(hosts, &st) != 0) {
    fprintf(stderr, "collsim: no hostfile %s for platform %s (give --hostfile FILE)\n", hosts, xml);
    return -1;
  }
  return 0;
}

static int count_lines(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int n = 0, c, last = '\n';
  while ((c = fgetc(f)) != EOF) {
    if (c == '\n') n++;
    last = c;
  }
  if (last != '\n') n++;
  fclose(f);
  return n;
}

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

void cs_bench_defaults(cs_bench_req *q) {
  memset(q, 0, sizeof *q);
  q->backend = "smpi";
  q->type = "byte";
  q->reps = -1;
  q->warmup = -1;
  q->time_limit = -1;
  q->jobs = 1;
}

static int type_size(const char *t) {
  return !strcmp(t, "byte") ? 1 : !strcmp(t, "int") ? 4 : !strcmp(t, "double") ? 8 : 0;
}

/* Whether the run uses a non-default block layout (--layout single). */
static int bench_single(const cs_bench_req *q) { return q->layout && strcmp(q->layout, "even"); }

long cs_req_bytes(const cs_bench_req *q, int i) {
  return cs_size_bytes(q->coll, q->np, q->bytes[i], type_size(q->type));
}

int cs_req_dup(const cs_bench_req *q, int i) {
  long eff = cs_req_bytes(q, i);
  for (int k = 0; k < i; k++)
    if (cs_req_bytes(q, k) == eff) return 1;
  return 0;
}

/* The first line of a bench CSV (what the run depends on). */
static void bench_header(const cs_bench_req *q, char *buf, size_t len) {
  cs_bench_meta m = {q->backend,
                     q->smpi ? q->xml : (q->hostfile ? q->hostfile : "localhost"),
                     cs_colls[q->coll].name,
                     q->type,
                     q->cfg,
                     bench_single(q) ? q->layout : NULL,
                     q->np,
                     q->root,
                     q->inplace,
                     q->reps,
                     q->warmup};
  cs_csv_bench_comment(buf, len, &m);
}

int cs_bench_run(cs_bench_req *q) {
  int size = type_size(q->type);
  if (!size) {
    fprintf(stderr, "collsim bench: --type %s unknown (valid: byte, int, double)\n", q->type);
    return 2;
  }
  q->smpi = !strcmp(q->backend, "smpi");
  if (!q->smpi && strcmp(q->backend, "mpi")) {
    fprintf(stderr, "collsim bench: --backend %s unknown (valid: smpi, mpi)\n", q->backend);
    return 2;
  }
  if (q->reps < 0) q->reps = q->smpi ? 1 : 30;
  if (q->warmup < 0) q->warmup = q->smpi ? 0 : 3;
  if (q->time_limit < 0) q->time_limit = q->smpi ? 0 : 10;
  if (q->smpi) {
    int hosts = count_lines(q->hosts);
    if (hosts < q->np) {
      fprintf(stderr,
              "collsim bench: %s places %d ranks, --np %d asks for more (SMPI would wrap "
              "ranks onto hosts; generate a larger platform)\n",
              q->hosts, hosts, q->np);
      return 2;
    }
  }
  if (cs_colls[q->coll].rooted && (q->root < 0 || q->root >= q->np)) {
    fprintf(stderr, "collsim bench: --root %d out of range 0..%d\n", q->root, q->np - 1);
    return 2;
  }
  if (bench_single(q) && (strcmp(q->layout, "single") || q->coll != CS_reduce_scatter)) {
    fprintf(stderr, "collsim bench: --layout %s: valid: even, or single (reduce_scatter only)\n",
            q->layout);
    return 2;
  }
  if (q->inplace && !cs_colls[q->coll].in_place) {
    fprintf(stderr, "collsim bench: %s has no MPI_IN_PLACE form\n", cs_colls[q->coll].name);
    return 2;
  }
  char header[8192];
  bench_header(q, header, sizeof header);
  /* Output: the file, or a temporary one copied to stdout at the end. */
  char tmpdir[4096] = "", outpath[4200];
  if (q->out)
    snprintf(outpath, sizeof outpath, "%s", q->out);
  else {
    if (cs_make_tmpdir(tmpdir, sizeof tmpdir)) {
      perror("collsim: temporary directory");
      return 1;
    }
    snprintf(outpath, sizeof outpath, "%s/bench.csv", tmpdir);
  }
  if (q->redo) unlink(outpath);
  struct stat st;
  int fresh = stat(outpath, &st) != 0 || st.st_size == 0;
  if (!fresh) {
    done_ctx probe = {"", NULL, 0};
    if (cs_bench_scan_rows(outpath, header, collect, &probe) < 0) {
      fprintf(stderr,
              "collsim bench: %s holds results of another configuration (its first line "
              "differs from:\n  %s); use another --out, or --redo to start it over\n",
              outpath, header);
      return 2;
    }
  } else {
    FILE *f = fopen(outpath, "w");
    if (!f) {
      fprintf(stderr, "collsim bench: cannot write %s\n", outpath);
      return 1;
    }
    fputs(header, f);
    if (q->smpi) cs_csv_smpi_cfg(f, cs_platform_smpirun_flags());
    cs_csv_write_header(f, CS_CSV_BENCH);
    fclose(f);
  }
  /* One job per algorithm, with the sizes it still lacks. */
  job_t *jobs = calloc((size_t)q->nalgos, sizeof(job_t));
  const char *jobname[CS_MAX_ALGOS];
  int nj = 0, rc = 0;
  char tmp2[4096];
  if (!jobs || cs_make_tmpdir(tmp2, sizeof tmp2)) return 1;
  long done[CS_MAX_SIZES];
  for (int a = 0; a < q->nalgos; a++) {
    done_ctx d = {q->algos[a], done, 0};
    cs_bench_scan_rows(outpath, header, collect, &d);
    char sizes[CS_MAX_SIZES * 12] = "";
    size_t sl = 0;
    int todo = 0;
    for (int i = 0; i < q->nbytes; i++) {
      long eff = cs_req_bytes(q, i);
      int have = cs_req_dup(q, i);
      for (int k = 0; k < d.ndone; k++) have |= done[k] == eff;
      if (have) continue;
      sl += (size_t)snprintf(sizes + sl, sizeof sizes - sl, "%s%ld", todo ? "," : "", q->bytes[i]);
      todo++;
    }
    if (!todo) continue;
    jobname[nj] = q->algos[a];
    job_t *j = &jobs[nj++];
    argv_init(&j->args);
    j->np = q->np;
    snprintf(j->out, sizeof j->out, "%s/job%d.out", tmp2, a);
    snprintf(j->err, sizeof j->err, "%s/job%d.err", tmp2, a);
    const char *name = q->algos[a];
    if (q->smpi) {
      cs_argv_smpirun(&j->args, q->np, q->xml, q->hosts, 1);
      /* Every actor's stack guard page is one more memory map; thousands of
       * ranks with shared buffers run into vm.max_map_count without this. */
      if (q->np > 2048) argv_add(&j->args, "--cfg=contexts/guard-size:0");
      if (!strncmp(name, "native:", 7))
        argv_add(&j->args, "--cfg=smpi/%s:%s", cs_colls[q->coll].name, name + 7);
      if (!strncmp(name, "lib:", 4)) argv_add(&j->args, "--cfg=smpi/coll-selector:%s", name + 4);
      if (q->cfg) {
        char extra[1024];
        snprintf(extra, sizeof extra, "%s", q->cfg);
        for (char *s = NULL, *t = strtok_r(extra, " ", &s); t; t = strtok_r(NULL, " ", &s))
          argv_add(&j->args, "%s", t);
      }
      argv_add(&j->args, "%s/collsim-smpi", cs_self_dir());
    } else {
      if (!strncmp(name, "native:", 7) || !strncmp(name, "lib:", 4)) {
        fprintf(stderr,
                "collsim bench: %s selects an SMPI algorithm; with --backend mpi use native\n",
                name);
        rc = 2;
        nj--;
        argv_free(&j->args);
        break;
      }
      cs_argv_mpirun(&j->args, q->np, q->hostfile);
      argv_add(&j->args, "%s/collsim-mpi", cs_self_dir());
    }
    argv_add(&j->args, "bench");
    argv_add(&j->args, "--coll");
    argv_add(&j->args, "%s", cs_colls[q->coll].name);
    argv_add(&j->args, "--algos");
    argv_add(&j->args, "%s", name);
    argv_add(&j->args, "--bytes");
    argv_add(&j->args, "%s", sizes);
    argv_add(&j->args, "--out");
    argv_add(&j->args, "%s", outpath);
    argv_add(&j->args, "--type");
    argv_add(&j->args, "%s", q->type);
    argv_add(&j->args, "--root");
    argv_add(&j->args, "%d", q->root);
    argv_add(&j->args, "--in-place");
    argv_add(&j->args, "%d", q->inplace);
    argv_add(&j->args, "--reps");
    argv_add(&j->args, "%d", q->reps);
    argv_add(&j->args, "--warmup");
    argv_add(&j->args, "%d", q->warmup);
    argv_add(&j->args, "--time-limit");
    argv_add(&j->args, "%g", q->time_limit);
    if (bench_single(q)) argv_add(&j->args, "--layout=%s", q->layout);
    if (q->samples) argv_add(&j->args, "--samples=%s", q->samples);
  }
  for (int i = 0; i < nj && rc == 0; i++) {
    if (!q->quiet)
      fprintf(stderr, "collsim bench: %s %s on %d ranks (%d/%d)\n", cs_colls[q->coll].name,
              jobname[i], q->np, i + 1, nj);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cs_run_jobs(&jobs[i], 1, 1, NULL, NULL);
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
    }
  }
  for (int i = 0; i < nj; i++) argv_free(&jobs[i].args);
  free(jobs);
  cs_rm_tree(tmp2);
  if (!q->out) {
    FILE *f = fopen(outpath, "r");
    char buf[4096];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, stdout);
    if (f) fclose(f);
    cs_rm_tree(tmpdir);
  } else if (!q->quiet && rc == 0) {
    fprintf(stderr, "collsim bench: results in %s\n", outpath);
  }
  return rc;
}

/* ---- option parsing shared by bench, predict, table1 ---------------------- */

static int split_list(char *s, const char **out, int max) {
  int n = 0;
  for (char *save = NULL, *t = strtok_r(s, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (n == max) return -1;
    out[n++] = t;
  }
  return n;
}

int cs_check_algos(cs_coll coll, const char **algos, int n) {
  for (int i = 0; i < n; i++) {
    const char *a = algos[i];
    if (!strncmp(a, "lib:", 4)) {
      static const char *sel[] = {"default", "ompi", "mpich", "mvapich2", "impi", "automatic"};
      int ok = 0;
      for (int k = 0; k < 6; k++) ok |= !strcmp(a + 4, sel[k]);
      if (!ok) {
        fprintf(stderr,
                "collsim: %s: unknown SMPI selector (valid: lib:default, lib:ompi, lib:mpich, "
                "lib:mvapich2, lib:impi, lib:automatic)\n",
                a);
        return -1;
      }
      continue;
    }
    if (!cs_algo_find(coll, a)) {
      fprintf(stderr, "collsim: unknown %s algorithm '%s'. Valid: ", cs_colls[coll].name, a);
      cs_print_algos(stderr, coll);
      fprintf(stderr, ", native:SMPI_NAME, lib:SELECTOR\n");
      return -1;
    }
  }
  return 0;
}

static void bench_usage(FILE *f) {
  fprintf(f,
          "usage: collsim bench --platform F --np P --coll C --algos A,B,... --bytes LIST\n"
          "                     [--out FILE] [options]\n"
          "Times collective C with each algorithm for each size, as the slowest process\n"
          "from a common start, and writes CSV (docs/csv.md). A killed run resumes: rows\n"
          "already in FILE are kept and not run again (--redo starts over).\n"
          "  --platform F     SimGrid platform file (F.hostfile beside it places the ranks)\n"
          "                   or a named machine: hydra, irene, theta, vsc3, bluewaters\n"
          "  --np P           number of ranks\n"
          "  --coll C         collective (see collsim list)\n"
          "  --algos LIST     registry names (collsim list), native (the library),\n"
          "                   native:NAME (an SMPI algorithm), lib:SEL (SMPI's selector:\n"
          "                   default, ompi, mpich, mvapich2, impi, automatic)\n"
          "  --bytes LIST     total message sizes m: 8,1K,16M or ranges 1-16M:x2, 0-4K:+512\n"
          "  --out FILE       append rows to FILE (default: print the CSV)\n"
          "  --backend B      smpi (default) or mpi (mpirun on this machine)\n"
          "  --hostfile H     hostfile (smpi: default F.hostfile; mpi: passed to mpirun)\n"
          "  --reps R         measured repetitions (smpi: 1, deterministic; mpi: 30)\n"
          "  --warmup W       discarded repetitions (smpi: 0; mpi: 3)\n"
          "  --time-limit S   stop repeating an (algorithm, size) after S s (mpi: 10)\n"
          "  --type T         byte (MPI_BOR; default), int (MPI_SUM) or double (MPI_MAX)\n"
          "  --root R         root of rooted collectives (0)\n"
          "  --in-place       use MPI_IN_PLACE\n"
          "  --cfg \"...\"      extra smpirun options, e.g. \"--cfg=smpi/allreduce:rab\"\n"
          "  --layout L       reduce_scatter blocks: even (default) or single (all counts\n"
          "                   0 but the root's, which is m)\n"
          "  --samples S      append every repetition's time to S (coll,algo,p,bytes,rep,time_s)\n"
          "  --redo           discard FILE's rows and run everything again\n"
          "  --stats          print wall seconds and peak memory of each run on stderr\n");
}

/* Parses the options common to bench and predict into q. Returns 0, 1 for
 * --help, 2 for an error. Unknown options are errors unless extra() takes
 * them (returns the number of arguments consumed, 0 if not its option). */
int cs_bench_parse(int argc, char **argv, cs_bench_req *q, const char *cmd,
                   int (*extra)(int, char **, int, void *), void *ctx, char *platform,
                   size_t platlen) {
  static char algobuf[4096];
  const char *coll = NULL, *algos = NULL, *bytes = NULL;
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
    if (extra) {
      int used = extra(argc, argv, i, ctx);
      if (used < 0) return 2;
      if (used > 0) {
        i += used - 1;
        continue;
      }
    }
    static const char *valued[] = {
        "--platform", "--np",      "--coll",     "--algos",  "--algo",   "--bytes",
        "--out",      "--backend", "--hostfile", "--reps",   "--warmup", "--time-limit",
        "--type",     "--root",    "--cfg",      "--layout", "--samples"};
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
    else if (!strcmp(o, "--out"))
      q->out = v;
    else if (!strcmp(o, "--backend"))
      q->backend = v;
    else if (!strcmp(o, "--hostfile"))
      q->hostfile = v;
    else if (!strcmp(o, "--reps"))
      q->reps = atoi(v);
    else if (!strcmp(o, "--warmup"))
      q->warmup = atoi(v);
    else if (!strcmp(o, "--time-limit"))
      q->time_limit = atof(v);
    else if (!strcmp(o, "--type"))
      q->type = v;
    else if (!strcmp(o, "--root"))
      q->root = atoi(v);
    else if (!strcmp(o, "--cfg"))
      q->cfg = v;
    else if (!strcmp(o, "--layout"))
      q->layout = v;
    else if (!strcmp(o, "--samples"))
      q->samples = v;
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
    snprintf(algobuf, sizeof algobuf, "%s", algos);
    q->nalgos = split_list(algobuf, q->algos, CS_MAX_ALGOS);
    if (q->nalgos < 1 || cs_check_algos(q->coll, q->algos, q->nalgos)) return 2;
  }
  if (bytes) {
    q->nbytes = cs_parse_sizes(bytes, q->bytes, CS_MAX_SIZES);
    if (q->nbytes < 0) return 2;
  }
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
  if (!strcmp(q.backend, "smpi")) {
    if (!platform[0]) {
      fprintf(stderr, "collsim bench: --platform is required with --backend smpi\n");
      return 2;
    }
    if (cs_resolve_platform(platform, q.hostfile, q.xml, q.hosts, sizeof q.xml)) return 2;
  }
  return cs_bench_run(&q);
}
