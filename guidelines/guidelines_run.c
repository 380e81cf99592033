/* ./collsim guidelines: both sides of every performance guideline of MPI
 * collectives (guidelines.h) timed by bench runs (run/bench.h), resumably,
 * then evaluated into guidelines.csv and violations.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "files.h"
#include "findings.h"
#include "foreign.h"
#include "guidelines.h"
#include "registry.h"
#include "guidelines_run.h"

const char *cs_first_family(void) {
  const char *fam[1] = {""};
  cs_families(fam, 1);
  return fam[0];
}

void cs_gl_opts_defaults(cs_gl_opts *o) {
  memset(o, 0, sizeof *o);
  o->lib = "ompi"; /* a real library's decisions (SMPI's "default" is no library's) */
  o->ours = cs_first_family();
  o->smpi = 1;
  o->tol = 0.05;
  o->alpha = 0.05;
  o->reps = -1;
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

/* What qualifies the library side's numbers, after the summary: it ran
 * flat (one SimGrid host per rank), and its failures under SMPI (the bench
 * files' `# verify:` lines: no time, so those comparisons are missing). */
static void gl_caveats(FILE *md, const cs_gl_opts *o, const cs_gl_plan *P, const char *hosts) {
  int flat = o->smpi && cs_library_sees_flat_nodes(hosts, o->np), n = 0;
  if (flat)
    fprintf(md,
            "## Caveats\n\n- Every rank has its own SimGrid host here, and SMPI groups ranks "
            "into nodes by host: the library's node-aware algorithms (smp_*, "
            "mvapich2_two_level, the selectors' SMP paths) ran flat, so side %s is the "
            "library without its node awareness (`collsim platform ... --one-host-per-node` "
            "writes the machine with one host per node).\n",
            P->libalgo);
  for (int i = 0; i < P->nf; i++) {
    FILE *f = fopen(P->files[i].csv, "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
      if (strncmp(line, "# verify: ", 10) || !cs_algo_is_library(line + 15)) continue;
      line[strcspn(line, "\n")] = '\0';
      fprintf(md, "%s- %s: `%s` (the library's failure under SMPI, not collsim's)\n",
              !flat && !n ? "## Caveats\n\n" : "", P->files[i].csv, line + 10);
      n++;
    }
    if (f) fclose(f);
  }
  if (flat || n) fprintf(md, "\n");
}

/* The bench runs of both sides of every guideline (base: what they share),
 * then the evaluation: guidelines.csv, violations.md and the report on out. */
static int gl_time_evaluate(const cs_gl_opts *o, const cs_bench_req *req, const char *libalgo,
                            double gamma, FILE *out) {
  const cs_bench_req base = *req;
  int smpi = o->smpi;
  const long *sizes = o->bytes;
  int nsizes = o->nbytes;
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
    q.single = f->single;
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
  cs_gl_eval ev = {smpi ? "smpi" : "mpi",
                   o->platform ? base.xml : "localhost",
                   o->np,
                   smpi,
                   o->tol,
                   o->alpha,
                   gamma,
                   cs_command()};
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
    gl_caveats(to, o, &plan, base.hosts);
    fputs(mdbuf + title + (mdbuf[title] == '\n'), to);
  }
  fclose(md);
  if (!o->quiet)
    fprintf(stderr, "collsim guidelines: %s/guidelines.csv, %s/violations.md\n", dir, dir);
  return nmiss ? 1 : 0;
}

int cs_guidelines_run(const cs_gl_opts *o, FILE *out) {
  int smpi = o->smpi;
  if (!o->np || !o->nbytes || (smpi && !o->platform)) {
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

  cs_bench_req base;
  cs_bench_defaults(&base);
  base.smpi = smpi;
  base.hostfile = o->hostfile;
  base.np = o->np;
  base.reps = o->reps;
  base.quiet = o->quiet;
  double gamma = 0;
  /* The platform, read once for every bench run below. */
  cs_platform_file pf = {0};
  if (o->platform) {
    if (cs_resolve_platform(o->platform, o->hostfile, base.xml, base.hosts, sizeof base.xml))
      return 2;
    /* Any SimGrid platform: a foreign one's gamma is what its host speed
     * implies (said on stderr). */
    cs_platform_load(&pf, base.xml);
    base.pf = &pf;
    gamma = cs_platform_gamma("guidelines", &pf, o->quiet);
    if (gamma < 0) {
      cs_platform_file_free(&pf);
      return 2;
    }
  } else {
    fprintf(stderr,
            "collsim guidelines: no --platform: the local reduce of Scan <= Exscan + "
            "local reduce is charged 0\n");
  }
  int rc = gl_time_evaluate(o, &base, libalgo, gamma, out);
  cs_platform_file_free(&pf);
  return rc;
}
