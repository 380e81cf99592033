/* ./collsim guidelines: times both sides of the performance guidelines of
 * MPI collectives (guidelines/guidelines.h) with the library's algorithms and
 * with one of our families, and reports the violations. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "guidelines.h"
#include "platgen.h"
#include "registry.h"

#define GL_MAXALGOS 8

typedef struct {
  const char *platform, *hostfile, *bytes, *lib, *ours, *out, *backend;
  int np, reps, redo, quiet;
  double tol, alpha;
} gl_opts;

/* One bench file: a collective (and layout) with the algorithms it needs. */
typedef struct {
  cs_coll coll;
  int single;
  const char *algos[GL_MAXALGOS];
  int nalgos;
  char csv[4300], samples[4300];
} gl_file;

static void usage(FILE *f) {
  fprintf(f,
          "usage: collsim guidelines --platform F --np P --bytes LIST [options]\n"
          "Times both sides of the performance guidelines of MPI collectives (Hunold et al.)\n"
          "with the library's algorithms (side \"lib\") and with our family (side FAMILY):\n"
          "  (2) Reduce_scatter <= Allreduce      (3) Reduce_scatter <= Reduce + Scatterv\n"
          "  (4) Allreduce <= Reduce_scatter + Allgatherv   (5) Reduce <= Allreduce\n"
          "  (6) Reduce ~ Reduce_scatter with the root's block only\n"
          "  their _block forms where p divides m, and Bcast <= Scatter + Allgather,\n"
          "  Allreduce <= Reduce + Bcast, Allgather <= Gather + Bcast, Gather <= Allgather,\n"
          "  Scan <= Exscan + local reduce (gamma * m, gamma of the platform).\n"
          "Writes DIR/guidelines.csv (docs/csv.md), DIR/violations.md (also printed) and one\n"
          "resumable bench CSV per collective in DIR.\n"
          "  --platform F     SimGrid platform (F.hostfile beside it) or a named machine\n"
          "  --np P           number of ranks\n"
          "  --bytes LIST     total message sizes m (8,1K,1M or 1K-1M:x4)\n"
          "  --lib SEL        SMPI selector of the library side: default (default), ompi,\n"
          "                   mpich, mvapich2, impi, automatic (--backend mpi: the library)\n"
          "  --ours FAMILY    our family for the second side (circulant); a collective\n"
          "                   without it uses ceilhalf, then butterfly, then the library\n"
          "  --tolerance T    relative tolerance (0.05): violated iff lhs > rhs * (1 + T)\n"
          "  --out DIR        (results/guidelines/<platform>-p<P>)\n"
          "  --backend B      smpi (default) or mpi: then each side is repeated (--reps,\n"
          "                   30) and a violation needs a one-sided Wilcoxon rank-sum test\n"
          "                   of lhs > rhs * (1 + T) at level --alpha (0.05); ratio is of medians\n"
          "  --hostfile H, --reps R, --alpha A, --redo, --quiet\n");
}

/* Our algorithms for coll: all of the family's (the fastest is used per
 * size), else ceilhalf's, else butterfly's; 0 if none. */
static int ours_for(cs_coll coll, const char *family, const char **out, int max) {
  const char *order[] = {family, "ceilhalf", "butterfly"};
  for (int i = 0; i < 3; i++) {
    int n = 0;
    for (int k = 0; k < cs_nalgos; k++)
      if (cs_algos[k].coll == coll && !strcmp(cs_algos[k].family, order[i]) &&
          !(cs_algos[k].flags & CS_NATIVE) && n < max)
        out[n++] = cs_algos[k].name;
    if (n) return n;
  }
  return 0;
}

static gl_file *file_for(gl_file *files, int *nf, cs_coll coll, int single) {
  for (int i = 0; i < *nf; i++)
    if (files[i].coll == coll && files[i].single == single) return &files[i];
  gl_file *f = &files[(*nf)++];
  memset(f, 0, sizeof *f);
  f->coll = coll;
  f->single = single;
  return f;
}

static void file_add(gl_file *f, const char *algo) {
  for (int i = 0; i < f->nalgos; i++)
    if (!strcmp(f->algos[i], algo)) return;
  if (f->nalgos < GL_MAXALGOS) f->algos[f->nalgos++] = algo;
}

static void term_name(char *buf, size_t len, const cs_gl_term *t, int n, const char **algo,
                      int local) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && k < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s%s%s:%s", i ? "+" : "", cs_colls[t[i].coll].name,
                          t[i].single ? "(single)" : "", algo[i]);
  if (local && k < len) snprintf(buf + k, len - k, "+local_reduce");
}

int cmd_guidelines(int argc, char **argv) {
  gl_opts o = {0};
  o.lib = "default";
  o.ours = "circulant";
  o.backend = "smpi";
  o.tol = 0.05;
  o.alpha = 0.05;
  o.reps = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--redo")) {
      o.redo = 1;
      continue;
    }
    if (!strcmp(a, "--quiet")) {
      o.quiet = 1;
      continue;
    }
    const char **dst = !strcmp(a, "--platform")   ? &o.platform
                       : !strcmp(a, "--hostfile") ? &o.hostfile
                       : !strcmp(a, "--bytes")    ? &o.bytes
                       : !strcmp(a, "--lib")      ? &o.lib
                       : !strcmp(a, "--ours")     ? &o.ours
                       : !strcmp(a, "--out")      ? &o.out
                       : !strcmp(a, "--backend")  ? &o.backend
                                                  : NULL;
    int num = !strcmp(a, "--np") || !strcmp(a, "--reps") || !strcmp(a, "--tolerance") ||
              !strcmp(a, "--alpha");
    if (!dst && !num) {
      fprintf(stderr,
              "collsim guidelines: unknown option %s (valid: --platform, --np, --bytes, --lib, "
              "--ours, --tolerance, --out, --backend, --hostfile, --reps, --alpha, --redo, "
              "--quiet)\n",
              a);
      return 2;
    }
    if (!v) {
      fprintf(stderr, "collsim guidelines: %s needs a value\n", a);
      return 2;
    }
    i++;
    if (dst) {
      *dst = v;
      continue;
    }
    char *e;
    double x = strtod(v, &e);
    if (*e || x < 0 || (!strcmp(a, "--np") && x < 1) || (!strcmp(a, "--alpha") && x >= 1)) {
      fprintf(stderr, "collsim guidelines: %s %s: expected a number%s\n", a, v,
              !strcmp(a, "--np") ? " >= 1" : " >= 0");
      return 2;
    }
    if (!strcmp(a, "--np"))
      o.np = (int)x;
    else if (!strcmp(a, "--reps"))
      o.reps = (int)x;
    else if (!strcmp(a, "--tolerance"))
      o.tol = x;
    else
      o.alpha = x;
  }
  int smpi = !strcmp(o.backend, "smpi");
  if (!smpi && strcmp(o.backend, "mpi")) {
    fprintf(stderr, "collsim guidelines: --backend %s unknown (valid: smpi, mpi)\n", o.backend);
    return 2;
  }
  if (!o.np || !o.bytes || (smpi && !o.platform)) {
    fprintf(stderr, "collsim guidelines: --np, --bytes%s are required (see --help)\n",
            smpi ? " and --platform" : "");
    return 2;
  }
  static char libalgo[64];
  snprintf(libalgo, sizeof libalgo, "lib:%s", o.lib);
  if (smpi) {
    const char *one[] = {libalgo};
    if (cs_check_algos(CS_allreduce, one, 1)) return 2;
  } else {
    snprintf(libalgo, sizeof libalgo, "native");
  }
  int fam_ok = 0;
  for (int c = 0; c < CS_NCOLL; c++) fam_ok |= cs_algo_find((cs_coll)c, o.ours) != NULL;
  if (!fam_ok || !strcmp(o.ours, "native")) {
    fprintf(stderr,
            "collsim guidelines: --ours %s: no such family (valid: circulant, ceilhalf, "
            "butterfly, bruck)\n",
            o.ours);
    return 2;
  }
  long sizes[CS_MAX_SIZES];
  int nsizes = cs_parse_sizes(o.bytes, sizes, CS_MAX_SIZES);
  if (nsizes < 1) return 2;

  cs_bench_req base;
  cs_bench_defaults(&base);
  base.backend = o.backend;
  base.hostfile = o.hostfile;
  base.np = o.np;
  base.reps = o.reps;
  base.quiet = o.quiet;
  double gamma = 0;
  if (o.platform) {
    if (cs_resolve_platform(o.platform, o.hostfile, base.xml, base.hosts, sizeof base.xml))
      return 2;
    cs_platform pl;
    char err[512];
    if (cs_platform_read(base.xml, &pl, err, sizeof err)) {
      fprintf(stderr, "collsim guidelines: %s: %s\n", base.xml, err);
      return 2;
    }
    gamma = pl.gamma;
  } else {
    fprintf(stderr,
            "collsim guidelines: no --platform: the local reduce of Scan <= Exscan + "
            "local reduce is charged 0\n");
  }
  char dir[4000];
  if (o.out)
    snprintf(dir, sizeof dir, "%s", o.out);
  else {
    const char *b = o.platform ? strrchr(base.xml, '/') : NULL;
    char name[3800];
    snprintf(name, sizeof name, "%.3700s", o.platform ? (b ? b + 1 : base.xml) : "localhost");
    char *dot = strrchr(name, '.');
    if (dot && !strcmp(dot, ".xml")) *dot = '\0';
    snprintf(dir, sizeof dir, "results/guidelines/%.3700s-p%d", name, o.np);
  }
  if (cs_mkdir_p(dir)) {
    fprintf(stderr, "collsim guidelines: cannot create %s\n", dir);
    return 1;
  }

  /* The algorithm of each collective on each side. */
  const char *side_name[2] = {"lib", o.ours};
  const char *algo_of[2][CS_NCOLL][GL_MAXALGOS];
  int nalgo[2][CS_NCOLL];
  for (int c = 0; c < CS_NCOLL; c++) {
    algo_of[0][c][0] = libalgo;
    nalgo[0][c] = 1;
    nalgo[1][c] = ours_for((cs_coll)c, o.ours, algo_of[1][c], GL_MAXALGOS - 1);
    if (!nalgo[1][c]) algo_of[1][c][nalgo[1][c]++] = libalgo;
  }
  int ng;
  const cs_guideline *gl = cs_guidelines(&ng);
  int used[CS_NCOLL] = {0};
  gl_file files[2 * CS_NCOLL];
  int nf = 0;
  for (int g = 0; g < ng; g++)
    for (int s = 0; s < 2; s++) {
      const cs_gl_term *t[2] = {gl[g].lhs, gl[g].rhs};
      int n[2] = {gl[g].nl, gl[g].nr};
      for (int k = 0; k < 2; k++)
        for (int i = 0; i < n[k]; i++) {
          used[t[k][i].coll] = 1;
          for (int a = 0; a < nalgo[s][t[k][i].coll]; a++)
            file_add(file_for(files, &nf, t[k][i].coll, t[k][i].single),
                     algo_of[s][t[k][i].coll][a]);
        }
    }
  if (!o.quiet) {
    fprintf(stderr, "collsim guidelines: side %s uses:", o.ours);
    for (int c = 0; c < CS_NCOLL; c++)
      if (used[c])
        for (int a = 0; a < nalgo[1][c]; a++)
          fprintf(stderr, "%s%s:%s", a ? "|" : " ", cs_colls[c].name, algo_of[1][c][a]);
    fprintf(stderr, "\n  (a|b: the faster of the two at each size)");
    fprintf(stderr, "\n");
  }

  /* Time what is missing (resumable). */
  for (int i = 0; i < nf; i++) {
    gl_file *f = &files[i];
    snprintf(f->csv, sizeof f->csv, "%s/%s%s.csv", dir, cs_colls[f->coll].name,
             f->single ? "-single" : "");
    snprintf(f->samples, sizeof f->samples, "%s/%s%s-samples.csv", dir, cs_colls[f->coll].name,
             f->single ? "-single" : "");
    cs_bench_req q = base;
    q.coll = f->coll;
    q.layout = f->single ? "single" : NULL;
    q.samples = smpi ? NULL : f->samples;
    q.out = f->csv;
    q.redo = o.redo;
    if (o.redo && q.samples) unlink(q.samples);
    for (int k = 0; k < f->nalgos; k++) q.algos[k] = f->algos[k];
    q.nalgos = f->nalgos;
    q.nbytes = 0;
    for (int k = 0; k < nsizes; k++) q.bytes[q.nbytes++] = sizes[k];
    int rc = cs_bench_run(&q);
    if (rc) return rc;
  }

  /* Evaluate. */
  char path[4300];
  snprintf(path, sizeof path, "%s/guidelines.csv", dir);
  FILE *csv = fopen(path, "w");
  snprintf(path, sizeof path, "%s/violations.md", dir);
  FILE *md = fopen(path, "w");
  if (!csv || !md) {
    fprintf(stderr, "collsim guidelines: cannot write into %s\n", dir);
    if (csv) fclose(csv);
    if (md) fclose(md);
    return 1;
  }
  cs_csv_guidelines_comment(csv, o.backend, o.platform ? base.xml : "localhost", o.np, libalgo,
                            o.ours, o.tol, !smpi);
  cs_csv_write_header(csv, CS_CSV_GUIDELINES);
  char mdbuf[1 << 16];
  size_t ml = 0;
  ml += (size_t)snprintf(mdbuf + ml, sizeof mdbuf - ml,
                         "# Guideline violations: %s, p = %d, tolerance %g%s\n\n",
                         o.platform ? base.xml : "localhost", o.np, o.tol,
                         smpi ? "" : ", one-sided Wilcoxon rank-sum test");
  ml += (size_t)snprintf(mdbuf + ml, sizeof mdbuf - ml,
                         "| side | guideline | bytes | lhs | rhs | lhs_s | rhs_s | ratio |%s\n"
                         "|---|---|---|---|---|---|---|---|%s\n",
                         smpi ? "" : " p-value |", smpi ? "" : "---|");
  int nviol = 0, nmiss = 0;
  for (int s = 0; s < 2; s++)
    for (int g = 0; g < ng; g++)
      for (int k = 0; k < nsizes; k++) {
        long m = sizes[k];
        if (gl[g].need_divisible && m % o.np) continue;
        if (s == 1) { /* no term of ours: the same row as the library's */
          int own = 0;
          for (int i = 0; i < gl[g].nl; i++)
            own |= strcmp(algo_of[1][gl[g].lhs[i].coll][0], libalgo) != 0;
          for (int i = 0; i < gl[g].nr; i++)
            own |= strcmp(algo_of[1][gl[g].rhs[i].coll][0], libalgo) != 0;
          if (!own) continue;
        }
        const cs_gl_term *t[2] = {gl[g].lhs, gl[g].rhs};
        int n[2] = {gl[g].nl, gl[g].nr};
        const char *al[2][CS_GL_MAXTERMS];
        double side_s[2];
        double *reps[2] = {NULL, NULL};
        int nrep[2] = {0, 0};
        for (int h = 0; h < 2; h++) {
          double tt[CS_GL_MAXTERMS];
          for (int i = 0; i < n[h]; i++) {
            cs_coll c = t[h][i].coll;
            gl_file *f = file_for(files, &nf, c, t[h][i].single);
            long eff = cs_effective_bytes(c, o.np, m, 1);
            /* the fastest (median) of the side's algorithms for c */
            al[h][i] = algo_of[s][c][0];
            tt[i] = -1;
            for (int a = 0; a < nalgo[s][c]; a++) {
              double x = cs_bench_lookup(f->csv, algo_of[s][c][a], eff);
              if (x >= 0 && (tt[i] < 0 || x < tt[i])) {
                tt[i] = x;
                al[h][i] = algo_of[s][c][a];
              }
            }
            if (!smpi) {
              static double buf[4096];
              int got =
                  cs_bench_read_samples(f->samples, cs_colls[c].name, al[h][i], eff, buf, 4096);
              if (i == 0) {
                reps[h] = malloc(sizeof(double) * (size_t)(got ? got : 1));
                if (reps[h]) memcpy(reps[h], buf, sizeof(double) * (size_t)got);
                nrep[h] = reps[h] ? got : 0;
              } else {
                if (got < nrep[h]) nrep[h] = got; /* rep by rep, as far as both go */
                if (reps[h]) cs_gl_add_reps(reps[h], buf, nrep[h]);
              }
            }
          }
          side_s[h] = cs_gl_sum(tt, n[h]);
          if (h == 1 && gl[g].local_reduce && side_s[h] >= 0) {
            side_s[h] += gamma * (double)m;
            for (int i = 0; i < nrep[h]; i++) reps[h][i] += gamma * (double)m;
          }
        }
        double ratio, pval = NAN;
        int v;
        if (smpi)
          v = cs_gl_decide(side_s[0], side_s[1], o.tol, gl[g].approx, &ratio);
        else
          v = cs_gl_decide_samples(reps[0], nrep[0], reps[1], nrep[1], o.tol, gl[g].approx, o.alpha,
                                   &ratio, &pval);
        free(reps[0]);
        free(reps[1]);
        char ln[1024], rn[1024];
        term_name(ln, sizeof ln, t[0], n[0], al[0], 0);
        term_name(rn, sizeof rn, t[1], n[1], al[1], gl[g].local_reduce);
        if (v < 0) {
          nmiss++;
          fprintf(stderr, "collsim guidelines: %s at %ld bytes: a time is missing\n", gl[g].id, m);
          continue;
        }
        cs_csv_guidelines_row(csv, gl[g].id, ln, rn, o.np, m, side_s[0], side_s[1], ratio, o.tol, v,
                              side_name[s]);
        if (v) {
          nviol++;
          if (ml < sizeof mdbuf - 2048) {
            ml += (size_t)snprintf(mdbuf + ml, sizeof mdbuf - ml,
                                   "| %s | %s | %ld | %s | %s | %.4g | %.4g | %.3f |", side_name[s],
                                   gl[g].desc, m, ln, rn, side_s[0], side_s[1], ratio);
            if (!smpi) ml += (size_t)snprintf(mdbuf + ml, sizeof mdbuf - ml, " %.3g |", pval);
            ml += (size_t)snprintf(mdbuf + ml, sizeof mdbuf - ml, "\n");
          }
        }
      }
  if (!nviol)
    ml += (size_t)snprintf(mdbuf + ml, sizeof mdbuf - ml, "\nnone\n");
  else
    ml += (size_t)snprintf(mdbuf + ml, sizeof mdbuf - ml, "\n%d violation%s\n", nviol,
                           nviol == 1 ? "" : "s");
  fputs(mdbuf, md);
  fputs(mdbuf, stdout);
  fclose(csv);
  fclose(md);
  if (!o.quiet)
    fprintf(stderr, "collsim guidelines: %s/guidelines.csv, %s/violations.md\n", dir, dir);
  return nmiss ? 1 : 0;
}
