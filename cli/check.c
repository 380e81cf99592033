/* collsim check: validates the request, runs one driver job per process
 * count (under smpirun or mpirun), and sums up the driver's verdicts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "files.h"
#include "foreign.h"
#include "launch.h"
#include "lists.h"
#include "registry.h"

static void check_usage(FILE *f) {
  fprintf(f,
          "usage: collsim check [options]\n"
          "  --np LIST        process counts: P, A-B or a list (default 1-12,16,17,31-33)\n"
          "  --coll C[,C..]   collectives (default: all): ");
  cs_print_colls(f);
  fprintf(
      f,
      "\n  --algo A[,A..]   algorithms (default: all of each collective; see collsim list)\n"
      "  --count N[,N..]  elements: per call for allreduce/reduce/bcast/scan, per block for\n"
      "                   reduce_scatter_block/allgather/gather/scatter, in total (spread as\n"
      "                   evenly as possible) for reduce_scatter and the v-collectives;\n"
      "                   p-relative forms p, p-1, p+1, p/2, p*2 are allowed\n"
      "                   (default 0,1,p-1,p,p+1,1009)\n"
      "  --counts c0,c1.. explicit per-rank counts (needs exactly one --np value)\n"
      "  --layout L[,..]  block layouts of the v-collectives: even, one, ramp, rev (default all)\n"
      "  --root R[,R..]   roots of rooted collectives (default: all for p <= 16, else 0,1,p/2,p-1)\n"
      "  --in-place       only MPI_IN_PLACE cases;  --no-in-place: only without\n"
      "  --type T[,T..]   int (sum), double (max), byte (bor), vec (derived type, user op),\n"
      "                   noncomm (non-commutative user op) (default: these five);\n"
      "                   fsum, dsum, dprod (order-dependent float sums with cancellation and\n"
      "                   double products: checked against the error bound of any order and,\n"
      "                   for allreduce, for the same bits on every rank); logical, bitwise\n"
      "                   (MPI_LAND/LOR/LXOR or MPI_BAND/BOR/BXOR on every predefined C type:\n"
      "                   the pairs MPI forbids must be refused with MPI_ERR_OP); overflow\n"
      "                   (MPI_SUM/MPI_PROD on 8- to 64-bit integers that overflow: modulo\n"
      "                   2^bits where the library wraps, else the same bits on every rank\n"
      "                   and MPI_ERR_OP from \"exact op\" algorithms); all\n"
      "  --op O[,O..]     the same cases selected by op: sum, max, bor, user, noncomm\n"
      "  --backend B      smpi (SimGrid, default) or mpi (mpirun with Open MPI, oversubscribed)\n"
      "  --comm K[,K..]   communicators the cases run on: world (default), dup, split (two\n"
      "                   halves, first and second), rev (reversed ranks); each also checks\n"
      "                   that the kernel context sees the nodes of the placement\n"
      "  --ppn N          smpi: N ranks per node on the check platform (one host node<N>\n"
      "                   with N cores per node, a max-rate platform;\n"
      "                   default 1, every rank its own node)\n"
      "  --vnode N        virtual nodes of N consecutive ranks (COLLSIM_VNODE=N, algos/ctx.h);\n"
      "                   the way to get several nodes under --backend mpi\n"
      "  --errors all     instead of the cases: every process makes each kind of erroneous\n"
      "                   call (op: MPI_LAND on MPI_FLOAT, count: negative, root: out of\n"
      "                   range, type: MPI_DATATYPE_NULL, inplace: MPI_IN_PLACE misused) in\n"
      "                   every selected algorithm, which must return Open MPI 4.1's error\n"
      "                   class on every process before any communication\n"
      "  --jobs J         simulations run at once (default 2)\n"
      "Exit status 0 iff every case passed. The last line reads 'N passed, M failed'.\n");
}

typedef struct {
  int show_ctx; /* print the drivers' CTX lines (nodes the kernel context found) */
  long passed, failed, known, crashed;
  int shown, nseen;
  char seen[64][256]; /* distinct messages of collsim's code, shown once */
  char refused[1024]; /* "coll/algo, ...": commutative-only rows that refused
                         the non-commutative op, as the matrix expects */
} summary;

/* A dispatcher refusal of a non-commutative op ("collsim: C/A needs a
 * commutative op; ..."): the check matrix provokes it on purpose and counts
 * it as a pass, so it is gathered into one line at the end instead of one
 * line per algorithm. Returns 1 if line is one. */
static int note_refusal(summary *s, const char *line) {
  const char *tail = strstr(line, " needs a commutative op;");
  if (strncmp(line, "collsim: ", 9) || !tail) return 0;
  char who[256];
  snprintf(who, sizeof who, "%.*s", (int)(tail - line - 9), line + 9);
  size_t n = strlen(s->refused), w = strlen(who);
  for (const char *p = s->refused; (p = strstr(p, who)) != NULL; p += w)
    if ((p == s->refused || p[-1] == ' ') && (p[w] == ',' || p[w] == '\0')) return 1;
  if (n + w + 3 < sizeof s->refused)
    snprintf(s->refused + n, sizeof s->refused - n, "%s%s", n ? ", " : "", who);
  return 1;
}

static void job_done(cs_job *j, void *ctx) {
  summary *s = ctx;
  FILE *f = fopen(j->out, "r");
  char line[2048];
  int got_result = 0;
  while (f && fgets(line, sizeof line, f)) {
    long pa, fa, kn;
    int pp;
    if (sscanf(line, "RESULT p=%d passed=%ld failed=%ld known=%ld", &pp, &pa, &fa, &kn) == 4) {
      s->passed += pa;
      s->failed += fa;
      s->known += kn;
      got_result = 1;
      printf("p=%-5d %ld passed, %ld failed%s", pp, pa, fa, kn ? "" : "\n");
      if (kn) printf(", %ld known library defects\n", kn);
      fflush(stdout);
    } else if (s->show_ctx && !strncmp(line, "CTX ", 4)) {
      fputs(line, stdout);
    } else if (!strncmp(line, "FAIL ", 5) || !strncmp(line, "KNOWN ", 6)) {
      int is_fail = line[0] == 'F';
      /* Show every distinct failure up to a limit; the rest are counted. */
      if (s->shown < 60 && (is_fail || s->shown < 10)) {
        fputs(line, stdout);
        s->shown++;
      }
    }
  }
  if (f) fclose(f);
  /* Messages of collsim's own code on the driver's stderr (distinct ones). */
  FILE *e = fopen(j->err, "r");
  while (e && fgets(line, sizeof line, e)) {
    if (strncmp(line, "collsim", 7) || note_refusal(s, line)) continue;
    int dup = 0;
    for (int k = 0; k < s->nseen && !dup; k++)
      dup = !strncmp(s->seen[k], line, sizeof s->seen[k] - 1);
    if (dup || s->nseen == 64) continue;
    snprintf(s->seen[s->nseen++], sizeof s->seen[0], "%.255s", line);
    fprintf(stderr, "%s", line);
  }
  if (e) fclose(e);
  int ok_exit = WIFEXITED(j->status) && WEXITSTATUS(j->status) == 0;
  if (!got_result || !ok_exit) {
    s->crashed++;
    fprintf(stderr, "CRASH p=%d: the %s job %s without a verdict%s; last lines of its stderr:\n",
            j->np, j->args.v[0], WIFSIGNALED(j->status) ? "was killed" : "ended",
            got_result ? "" : " (cases after the last one reported did not run)");
    cs_print_tail(j->err, 12);
  }
}

int cmd_check(int argc, char **argv) {
  const char *np = "1-12,16,17,31-33", *colls = "all", *algos = "all", *count = NULL,
             *counts = NULL, *layout = NULL, *root = NULL, *type = NULL, *op = NULL,
             *backend = "smpi", *comms = NULL, *errors = NULL;
  int inplace = -1, jobs = 2, ppn = 1, vnode = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
    const cs_optval valued[] = {
        {"--np", &np},         {"--coll", &colls},      {"--algo", &algos}, {"--count", &count},
        {"--counts", &counts}, {"--layout", &layout},   {"--root", &root},  {"--type", &type},
        {"--op", &op},         {"--backend", &backend}, {"--comm", &comms}, {"--errors", &errors}};
    int took = cs_take_opt("check", argc, argv, &i, valued, sizeof valued / sizeof valued[0]);
    if (took < 0) return 2;
    if (took) continue;
    if (!strcmp(a, "--in-place"))
      inplace = 1;
    else if (!strcmp(a, "--no-in-place"))
      inplace = 0;
    else if (!strcmp(a, "--jobs") && val) {
      jobs = atoi(val);
      i++;
    } else if ((!strcmp(a, "--ppn") || !strcmp(a, "--vnode")) && val) {
      char *end;
      long v = strtol(val, &end, 10);
      if (*end || v < 1 || v > 4096) {
        fprintf(stderr, "collsim check: %s '%s': expected a number of ranks per node, 1..4096\n", a,
                val);
        return 2;
      }
      *(!strcmp(a, "--ppn") ? &ppn : &vnode) = (int)v;
      i++;
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      check_usage(stdout);
      return 0;
    } else {
      fprintf(stderr, "collsim check: unknown option '%s'\n", a);
      check_usage(stderr);
      return 2;
    }
  }
  int smpi = !strcmp(backend, "smpi");
  if (!smpi && strcmp(backend, "mpi")) {
    fprintf(stderr, "collsim check: unknown --backend '%s' (valid: smpi, mpi)\n", backend);
    return 2;
  }
  if (!smpi && ppn > 1) {
    fprintf(stderr,
            "collsim check: --ppn sets up the simulated platform; under --backend mpi "
            "use --vnode N (virtual nodes of N consecutive ranks)\n");
    return 2;
  }
  if (comms) {
    char *cb = strdup(comms);
    for (char *t = strtok(cb, ","); t; t = strtok(NULL, ","))
      if (strcmp(t, "world") && strcmp(t, "dup") && strcmp(t, "split") && strcmp(t, "rev")) {
        fprintf(stderr, "collsim check: unknown --comm '%s' (valid: world, dup, split, rev)\n", t);
        free(cb);
        return 2;
      }
    free(cb);
  }
  /* The driver reads COLLSIM_VNODE (algos/ctx.h): check sets it from --vnode
   * only, so that the expected placement is the one the checks assume. */
  if (vnode) {
    char v[16];
    snprintf(v, sizeof v, "%d", vnode);
    setenv("COLLSIM_VNODE", v, 1);
  } else {
    unsetenv("COLLSIM_VNODE");
  }
  int nps[4096];
  int nnp = cs_parse_np_list(np, nps, 4096);
  if (nnp < 0) return 2;
  if (counts && (nnp != 1 || count)) {
    fprintf(stderr, "collsim check: --counts needs exactly one --np value and no --count\n");
    return 2;
  }
  if (counts) {
    int k = 0;
    for (const char *c = counts; *c; k++) {
      char *end;
      long v = strtol(c, &end, 10);
      if (end == c || v < 0 || (*end && *end != ',')) {
        fprintf(stderr, "collsim check: bad --counts '%s' (numbers >= 0, separated by commas)\n",
                counts);
        return 2;
      }
      c = *end ? end + 1 : end;
    }
    if (k != nps[0]) {
      fprintf(stderr, "collsim check: --counts gives %d counts, but p = %d needs one per rank\n", k,
              nps[0]);
      return 2;
    }
  }
  /* Validate collective and algorithm names against the registry. */
  int want[CS_NCOLL] = {0};
  if (!strcmp(colls, "all")) {
    for (int c = 0; c < CS_NCOLL; c++) want[c] = 1;
  } else {
    char *cb = strdup(colls);
    for (char *t = strtok(cb, ","); t; t = strtok(NULL, ",")) {
      int c = cs_coll_by_name(t);
      if (c < 0) {
        fprintf(stderr, "collsim check: unknown collective '%s'. Valid: ", t);
        cs_print_colls(stderr);
        fprintf(stderr, "\n");
        free(cb);
        return 2;
      }
      want[c] = 1;
    }
    free(cb);
  }
  cs_argv cfg;
  cs_argv_init(&cfg);
  if (strcmp(algos, "all")) {
    char *ab = strdup(algos);
    for (char *t = strtok(ab, ","); t; t = strtok(NULL, ",")) {
      int found = 0;
      for (int c = 0; c < CS_NCOLL; c++)
        if (want[c] && cs_algo_find((cs_coll)c, t)) found = 1;
      if (!found) {
        fprintf(stderr, "collsim check: unknown algorithm '%s'.", t);
        for (int c = 0; c < CS_NCOLL; c++)
          if (want[c]) {
            fprintf(stderr, "\n  valid for %s: ", cs_colls[c].name);
            cs_print_algos(stderr, (cs_coll)c);
          }
        fprintf(stderr, "\n");
        free(ab);
        return 2;
      }
      const char *colon = strchr(t, ':');
      if (colon) {
        if (!smpi) {
          fprintf(stderr,
                  "collsim check: %s names an SMPI algorithm; use native with --backend mpi\n", t);
          free(ab);
          return 2;
        }
        for (int c = 0; c < CS_NCOLL; c++)
          if (want[c] && cs_argv_smpi_algo(&cfg, c, t, "check")) {
            free(ab);
            return 2;
          }
      }
    }
    free(ab);
  }
  /* --op names map onto the type/op cases of the driver. */
  char typelist[256] = "";
  if (type) snprintf(typelist, sizeof typelist, "%s", type);
  if (op) {
    char *ob = strdup(op);
    for (char *t = strtok(ob, ","); t; t = strtok(NULL, ",")) {
      const char *map = !strcmp(t, "sum")       ? "int"
                        : !strcmp(t, "max")     ? "double"
                        : !strcmp(t, "bor")     ? "byte"
                        : !strcmp(t, "user")    ? "vec"
                        : !strcmp(t, "noncomm") ? "noncomm"
                                                : NULL;
      if (!map) {
        fprintf(stderr, "collsim check: unknown --op '%s' (valid: sum, max, bor, user, noncomm)\n",
                t);
        free(ob);
        return 2;
      }
      size_t l = strlen(typelist);
      snprintf(typelist + l, sizeof typelist - l, "%s%s", l ? "," : "", map);
    }
    free(ob);
  }
  if (type) {
    char *tb = strdup(type);
    for (char *t = strtok(tb, ","); t; t = strtok(NULL, ","))
      if (strcmp(t, "int") && strcmp(t, "double") && strcmp(t, "byte") && strcmp(t, "vec") &&
          strcmp(t, "noncomm") && strcmp(t, "fsum") && strcmp(t, "dsum") && strcmp(t, "dprod") &&
          strcmp(t, "logical") && strcmp(t, "bitwise") && strcmp(t, "overflow") &&
          strcmp(t, "all")) {
        fprintf(stderr,
                "collsim check: unknown --type '%s' (valid: int, double, byte, vec, noncomm, fsum, "
                "dsum, dprod, logical, bitwise, overflow, all)\n",
                t);
        free(tb);
        return 2;
      }
    free(tb);
  }
  if (count) {
    char *cb = strdup(count);
    for (char *t = strtok(cb, ","); t; t = strtok(NULL, ",")) {
      char *end;
      long v = strtol(t, &end, 10);
      int prel = t[0] == 'p';
      if ((!prel && (*end || end == t)) || (!prel && v < 0)) {
        fprintf(stderr,
                "collsim check: bad --count '%s' (a number >= 0, or p, p-1, p+1, p/2, p*2)\n", t);
        free(cb);
        return 2;
      }
    }
    free(cb);
  }

  char dir[4096];
  if (cs_make_tmpdir(dir, sizeof dir)) {
    perror("collsim check: temporary directory");
    return 2;
  }
  cs_job *js = calloc((size_t)nnp, sizeof(cs_job));
  for (int i = 0; i < nnp; i++) {
    cs_job *j = &js[i];
    int p = nps[i];
    j->np = p;
    snprintf(j->out, sizeof j->out, "%s/p%d.out", dir, p);
    snprintf(j->err, sizeof j->err, "%s/p%d.err", dir, p);
    cs_argv_init(&j->args);
    if (smpi) {
      char xml[4300], hosts[4300];
      if (cs_write_check_platform(dir, p, ppn, xml, hosts, sizeof xml)) return 2;
      cs_argv_smpirun(&j->args, p, xml, hosts, 0);
      for (int k = 0; k < cfg.n; k++) cs_argv_add(&j->args, "%s", cfg.v[k]);
      cs_argv_add(&j->args, "%s/collsim-smpi", cs_self_dir());
    } else {
      cs_argv_mpirun(&j->args, p, NULL);
      if (vnode) {
        cs_argv_add(&j->args, "-x");
        cs_argv_add(&j->args, "COLLSIM_VNODE=%d", vnode);
      }
      cs_argv_add(&j->args, "%s/collsim-mpi", cs_self_dir());
    }
    cs_argv_add(&j->args, "check");
    cs_argv_add(&j->args, "--coll");
    cs_argv_add(&j->args, "%s", colls);
    cs_argv_add(&j->args, "--algo");
    cs_argv_add(&j->args, "%s", algos);
    cs_argv_opt(&j->args, "--count", count);
    cs_argv_opt(&j->args, "--counts", counts);
    cs_argv_opt(&j->args, "--layout", layout);
    cs_argv_opt(&j->args, "--root", root);
    if (inplace >= 0) {
      cs_argv_add(&j->args, "--in-place");
      cs_argv_add(&j->args, "%d", inplace);
    }
    cs_argv_opt(&j->args, "--type", typelist[0] ? typelist : NULL);
    cs_argv_opt(&j->args, "--comm", comms);
    cs_argv_opt(&j->args, "--errors", errors);
    /* Where the driver must find the nodes: world rank w on node w / N
     * (0: every rank of the job on one node, a real machine). */
    cs_argv_add(&j->args, "--ppn");
    cs_argv_add(&j->args, "%d", vnode ? vnode : smpi ? ppn : 0);
  }
  summary s = {0};
  s.show_ctx = ppn > 1 || vnode > 0 || comms != NULL;
  cs_run_jobs(js, nnp, smpi ? jobs : 1, job_done, &s);
  for (int i = 0; i < nnp; i++) cs_argv_free(&js[i].args);
  free(js);
  cs_argv_free(&cfg);
  cs_rm_tree(dir);
  long failed = s.failed + s.crashed;
  if (s.known)
    printf(
        "(%ld cases hit known defects of the MPI library; they are listed as KNOWN and not counted)\n",
        s.known);
  if (s.crashed) printf("(%ld jobs crashed; each counts as one failure)\n", s.crashed);
  if (s.refused[0])
    printf("(refused a non-commutative op, as they must: %s; each refusal counts as a pass)\n",
           s.refused);
  printf("%ld passed, %ld failed\n", s.passed, failed);
  /* A selection that runs nothing proves nothing: a test whose matrix a
   * change emptied must not pass. */
  if (!failed && !s.passed && !s.known) {
    fprintf(stderr, "collsim check: the options selected no case at all (see --help)\n");
    return 1;
  }
  return failed ? 1 : 0;
}
