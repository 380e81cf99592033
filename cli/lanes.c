/* ./collsim lanes: the multi-lane benchmarks (run/lanes.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lanes.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: collsim lanes --pattern k-lane|multi --counts LIST [--platform F] [--np P]\n"
          "                     [--k LIST] [--backend smpi|mpi] [--vnode N] [--hostfile H]\n"
          "                     [--reps R] [--warmup W] [--inner I] [--out FILE] [--plot DIR]\n"
          "Traff and Hunold's multi-lane benchmarks (2020, Sec. II) on the node and lane\n"
          "communicators collsim's kernels use (algos/ctx.h); CSV (docs/csv.md, \"lanes\").\n"
          "  --pattern k-lane   c MPI_INTs per node sent and received by the first k processes\n"
          "                   of every node (c/k each, to the same local rank on the next\n"
          "                   node: rank i to (i + n) mod p), blocking MPI_Sendrecv repeated\n"
          "                   I times without barriers\n"
          "  --pattern multi  k concurrent MPI_Alltoall on the first k lane communicators,\n"
          "                   c MPI_INTs per process (c / N per block), I times in a row\n"
          "  --counts LIST    the counts c (MPI_INT), e.g. 1152,115200,11520000\n"
          "  --k LIST         virtual lanes, e.g. 1-8 or 1,2,4 (default 1, 2, 4, ... and n)\n"
          "  --platform F     smpi: a SimGrid file or a named machine (hydra, vsc3, ...);\n"
          "                   a lanes platform: collsim platform lanes --lanes 2 ...\n"
          "  --np P           ranks (smpi default: the platform's np; required with mpi)\n"
          "  --backend B      smpi (default) or mpi (mpirun on this machine)\n"
          "  --vnode N        COLLSIM_VNODE=N: nodes of N consecutive ranks (mpi on one machine)\n"
          "  --reps, --warmup measured and discarded repetitions, each after a barrier\n"
          "                   (smpi: 1 and 0, deterministic; mpi: 20 and 2)\n"
          "  --inner I        exchanges per repetition, without barriers (smpi 4, mpi 20);\n"
          "                   the times are per exchange (per alltoall)\n"
          "  --out FILE       the CSV (rewritten; default: printed)\n"
          "  --plot DIR       also draw DIR/lanes-PATTERN-time.png and -ratio.png (Figs. 1-3)\n"
          "       collsim lanes --study DIR [--platform hydra] [--quick] [--full-scan]\n"
          "  the multi-lane study (docs/multilane.md): both benchmarks, then bcast,\n"
          "  allgather, allreduce and scan with lib:ompi and lib:mpich against the\n"
          "  registry's lane and hier rows calling the same library inside\n"
          "  (ROW@lib:ompi, ROW@lib:mpich) at 36 x 32, pictures in DIR/plots,\n"
          "  DIR/summary.md with each ratio beside the paper's claim (--quick: two\n"
          "  counts, not three). Scan runs on the first quarter of the nodes: SMPI's\n"
          "  one linear scan costs about 7 minutes per call at 1152 ranks (--full-scan:\n"
          "  on all of them)\n"
          "The wall time of the run is printed on stderr and recorded in the CSV.\n");
}

int cmd_lanes(int argc, char **argv) {
  cs_lanes_req q = {1, NULL, NULL, 0, 0, NULL, NULL, NULL, -1, -1, -1, NULL, NULL, 0};
  const char *study = NULL, *np = NULL, *vnode = NULL, *backend = NULL, *reps = NULL,
             *warmup = NULL, *inner = NULL;
  const cs_optval opts[] = {{"--pattern", &q.pattern},
                            {"--counts", &q.counts},
                            {"--platform", &q.platform},
                            {"--np", &np},
                            {"--k", &q.ks},
                            {"--backend", &backend},
                            {"--vnode", &vnode},
                            {"--hostfile", &q.hostfile},
                            {"--reps", &reps},
                            {"--warmup", &warmup},
                            {"--inner", &inner},
                            {"--out", &q.out},
                            {"--plot", &q.plot},
                            {"--study", &study}};
  int quick = 0, full_scan = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--quiet")) {
      q.quiet = 1;
      continue;
    }
    if (!strcmp(argv[i], "--quick")) {
      quick = 1;
      continue;
    }
    if (!strcmp(argv[i], "--full-scan")) {
      full_scan = 1;
      continue;
    }
    int took = cs_take_opt("lanes", argc, argv, &i, opts, sizeof opts / sizeof opts[0]);
    if (took < 0) return 2;
    if (took) continue;
    fprintf(stderr, "collsim lanes: unknown argument %s (collsim lanes --help)\n", argv[i]);
    return 2;
  }
  if (study) return cs_lanes_study(study, q.platform ? q.platform : "hydra", quick, full_scan);
  if (backend && strcmp(backend, "smpi") && strcmp(backend, "mpi")) {
    fprintf(stderr, "collsim lanes: --backend %s: valid are smpi, mpi\n", backend);
    return 2;
  }
  q.smpi = !backend || !strcmp(backend, "smpi");
  struct {
    const char *s, *name;
    int *v, min;
  } nums[] = {{np, "--np", &q.np, 1},
              {vnode, "--vnode", &q.vnode, 1},
              {reps, "--reps", &q.reps, 1},
              {warmup, "--warmup", &q.warmup, 0},
              {inner, "--inner", &q.inner, 1}};
  for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
    if (!nums[i].s) continue;
    char *end;
    long v = strtol(nums[i].s, &end, 10);
    if (*end || end == nums[i].s || v < nums[i].min || v > 1000000) {
      fprintf(stderr, "collsim lanes: %s %s: a whole number from %d\n", nums[i].name, nums[i].s,
              nums[i].min);
      return 2;
    }
    *nums[i].v = (int)v;
  }
  return cs_lanes_run(&q);
}
