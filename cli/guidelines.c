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
#include "findings.h"
#include "guidelines.h"
#include "platgen.h"
#include "registry.h"

/* The registry's first family: the default of --ours. */
static const char *first_family(void) {
  const char *fam[1] = {""};
  cs_families(fam, 1);
  return fam[0];
}

/* The stand-in families of ours_for, separated by ", ". */
static void print_standins(FILE *f) {
  const char *fam[64];
  int nfam = cs_families(fam, 64), n = 0;
  for (int i = 1; i < nfam && i < 64; i++)
    if (cs_family_is_ours(fam[i])) fprintf(f, "%s%s", n++ ? ", " : "", fam[i]);
}

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
          "  --platform F     any SimGrid platform (ranks placed as by collsim bench: F.hostfile\n"
          "                   beside it, --hostfile, or each host's cores in turn) or a\n"
          "                   named machine\n"
          "  --np P           number of ranks\n"
          "  --bytes LIST     total message sizes m (8,1K,1M or 1K-1M:x4)\n"
          "  --lib SEL        SMPI selector of the library side: default (default; SMPI's\n"
          "                   own naive selector, no real library's), ompi, mpich,\n"
          "                   mvapich2, impi (real libraries' decisions), automatic\n"
          "                   (--backend mpi: the library)\n"
          "  --ours FAMILY    our family for the second side (%s); a collective\n"
          "                   without it uses the first family that has it of\n"
          "                   ",
          first_family());
  print_standins(f);
  fprintf(f,
          ", then the library\n"
          "  --tolerance T    relative tolerance (0.05): violated iff lhs > rhs * (1 + T)\n"
          "  --out DIR        (results/guidelines/<platform>-p<P>)\n"
          "  --backend B      smpi (default) or mpi: then each side is repeated (--reps,\n"
          "                   30) and a violation needs a one-sided Wilcoxon rank-sum test\n"
          "                   of lhs > rhs * (1 + T) at level --alpha (0.05); ratio is of medians\n"
          "  --hostfile H, --reps R, --alpha A, --redo, --quiet\n");
}

void cs_gl_opts_defaults(cs_gl_opts *o) {
  memset(o, 0, sizeof *o);
  o->lib = "default";
  o->ours = first_family();
  o->backend = "smpi";
  o->tol = 0.05;
  o->alpha = 0.05;
  o->reps = -1;
}

int cmd_guidelines(int argc, char **argv) {
  cs_gl_opts o;
  cs_gl_opts_defaults(&o);
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
  return cs_guidelines_run(&o, stdout);
}

/* The summary violations.md opens with, after its title (findings/
 * findings.h): violations per side and the worst, computed from the
 * guidelines.csv just written. */
static void gl_summary(FILE *md, const char *dir) {
  char path[4300];
  snprintf(path, sizeof path, "%.4200s/guidelines.csv", dir);
  cs_gl_findings g;
  char err[4400];
  fprintf(md, "## Summary\n\n");
  if (cs_gl_find(path, &g, err, sizeof err))
    fprintf(md, "(%s)\n\n", err);
  else {
    cs_findings_gl_md(md, NULL, &g);
    fprintf(md, "\n");
  }
}

int cs_guidelines_run(const cs_gl_opts *o, FILE *out) {
  int smpi = !strcmp(o->backend, "smpi");
  if (!smpi && strcmp(o->backend, "mpi")) {
    fprintf(stderr, "collsim guidelines: --backend %s unknown (valid: smpi, mpi)\n", o->backend);
    return 2;
  }
  if (!o->np || !o->bytes || (smpi && !o->platform)) {
    fprintf(stderr, "collsim guidelines: --np, --bytes%s are required (see --help)\n",
            smpi ? " and --platform" : "");
    return 2;
  }
  static char libalgo[64];
  snprintf(libalgo, sizeof libalgo, "lib:%s", o->lib);
  if (smpi) {
    const char *one[] = {libalgo};
    if (cs_check_algos(CS_allreduce, one, 1)) return 2;
  } else {
    snprintf(libalgo, sizeof libalgo, "native");
  }
  if (cs_family_index(o->ours) < 0 || !cs_family_is_ours(o->ours)) {
    fprintf(stderr, "collsim guidelines: --ours %s: no such family (valid: ", o->ours);
    cs_print_families(stderr, 0);
    fprintf(stderr, ")\n");
    return 2;
  }
  long sizes[CS_MAX_SIZES];
  int nsizes = cs_parse_sizes(o->bytes, sizes, CS_MAX_SIZES);
  if (nsizes < 1) return 2;

  cs_bench_req base;
  cs_bench_defaults(&base);
  base.backend = o->backend;
  base.hostfile = o->hostfile;
  base.np = o->np;
  base.reps = o->reps;
  base.quiet = o->quiet;
  double gamma = 0;
  if (o->platform) {
    if (cs_resolve_platform(o->platform, o->hostfile, base.xml, base.hosts, sizeof base.xml))
      return 2;
    /* Any SimGrid platform: a foreign one's gamma is what its host speed
     * implies (said on stderr). */
    gamma = cs_platform_gamma("guidelines", base.xml, o->quiet);
    if (gamma < 0) return 2;
  } else {
    fprintf(stderr,
            "collsim guidelines: no --platform: the local reduce of Scan <= Exscan + "
            "local reduce is charged 0\n");
  }
  char dir[4000];
  if (o->out)
    snprintf(dir, sizeof dir, "%s", o->out);
  else {
    const char *b = o->platform ? strrchr(base.xml, '/') : NULL;
    char name[3800];
    snprintf(name, sizeof name, "%.3700s", o->platform ? (b ? b + 1 : base.xml) : "localhost");
    char *dot = strrchr(name, '.');
    if (dot && !strcmp(dot, ".xml")) *dot = '\0';
    snprintf(dir, sizeof dir, "results/guidelines/%.3700s-p%d", name, o->np);
  }
  if (cs_mkdir_p(dir)) {
    fprintf(stderr, "collsim guidelines: cannot create %s: %s\n", dir, strerror(errno));
    return 1;
  }

  /* The algorithm of each collective on each side, and the bench files. */
  static cs_gl_plan plan;
  cs_gl_plan_make(&plan, libalgo, o->ours, dir);
  const int *used = plan.used;
  if (!o->quiet) {
    fprintf(stderr, "collsim guidelines: side %s uses:", o->ours);
    for (int c = 0; c < CS_NCOLL; c++)
      if (used[c])
        for (int a = 0; a < plan.nalgo[1][c]; a++)
          fprintf(stderr, "%s%s:%s", a ? "|" : " ", cs_colls[c].name, plan.algo_of[1][c][a]);
    fprintf(stderr, "\n  (a|b: the faster of the two at each size)");
    fprintf(stderr, "\n");
  }

  /* Time what is missing (resumable). */
  for (int i = 0; i < plan.nf; i++) {
    const cs_gl_file *f = &plan.files[i];
    cs_bench_req q = base;
    q.coll = f->coll;
    q.layout = f->single ? "single" : NULL;
    q.samples = smpi ? NULL : f->samples;
    q.out = f->csv;
    q.redo = o->redo;
    q.redo_foreign = o->redo_foreign;
    if (o->redo && q.samples) unlink(q.samples);
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
    fprintf(stderr, "collsim guidelines: cannot write into %s: %s\n", dir, strerror(errno));
    if (csv) fclose(csv);
    if (md) fclose(md);
    return 1;
  }
  cs_gl_eval ev = {o->backend, o->platform ? base.xml : "localhost", o->np, smpi, o->tol, o->alpha,
                   gamma};
  static char mdbuf[1 << 16];
  int nmiss = cs_gl_evaluate(&plan, &ev, sizes, nsizes, csv, mdbuf, sizeof mdbuf);
  fclose(csv);
  /* The report's title line, then the summary, then the violations: the
   * same text in the file and on out. */
  size_t title = strcspn(mdbuf, "\n");
  if (mdbuf[title]) title++;
  for (int k = 0; k < 2; k++) {
    FILE *to = k ? out : md;
    fwrite(mdbuf, 1, title, to);
    fputs("\n", to);
    gl_summary(to, dir);
    fputs(mdbuf + title + (mdbuf[title] == '\n'), to);
  }
  fclose(md);
  if (!o->quiet)
    fprintf(stderr, "collsim guidelines: %s/guidelines.csv, %s/violations.md\n", dir, dir);
  return nmiss ? 1 : 0;
}
