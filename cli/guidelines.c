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

#include "cli.h"
#include "lists.h"
#include "registry.h"
#include "guidelines_run.h"

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
          "  --lib SEL        SMPI selector of the library side: ompi (default; Open MPI\n"
          "                   4.1's decisions), mpich, mvapich2, impi (real libraries'),\n"
          "                   default (SMPI's own naive selector, no library's), automatic\n"
          "                   (--backend mpi: the library)\n"
          "  --ours FAMILY    our family for the second side (%s); a collective\n"
          "                   without it uses the first family that has it of\n"
          "                   ",
          cs_first_family());
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

int cmd_guidelines(int argc, char **argv) {
  cs_gl_opts o;
  cs_gl_opts_defaults(&o);
  const char *bytes = NULL, *backend = "smpi";
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
                       : !strcmp(a, "--bytes")    ? &bytes
                       : !strcmp(a, "--lib")      ? &o.lib
                       : !strcmp(a, "--ours")     ? &o.ours
                       : !strcmp(a, "--out")      ? &o.out
                       : !strcmp(a, "--backend")  ? &backend
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
  if (strcmp(backend, "smpi") && strcmp(backend, "mpi")) {
    fprintf(stderr, "collsim guidelines: --backend %s unknown (valid: smpi, mpi)\n", backend);
    return 2;
  }
  o.smpi = !strcmp(backend, "smpi");
  if (bytes && (o.nbytes = cs_parse_sizes(bytes, o.bytes, CS_MAX_SIZES)) < 1) return 2;
  return cs_guidelines_run(&o, stdout);
}
