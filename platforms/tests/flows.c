/*
 * flows.c: an SMPI test program for the generated platforms.
 *
 * usage: flows [--expect SECONDS] [--tol REL] MODE ...
 *   flows SIZE SRC:DST [SRC:DST ...]
 *       Every listed flow sends SIZE bytes from rank SRC to rank DST.  All ranks start at the
 *       same simulated instant T (after a barrier, each rank charges exactly the time left
 *       until T with smpi_execute_benched), post their receives and sends, and wait for all
 *       of them.  A rank's duration is the time from T until its Waitall returns; the
 *       program prints each receiving rank's duration and the largest one.
 *   flows --compute BYTES
 *       Rank 0 calls smpi_execute_flops(BYTES) and prints the simulated time it took.
 *   flows --where
 *       Every rank prints its rank, MPI_Get_processor_name, and its host's node, lane and
 *       local properties (if any).
 * With --expect, rank 0 compares the largest duration (or the computation time) with the
 * expected value and prints "PASS" or "FAIL" with the relative error; the exit status is 1
 * on a failure.
 */
#include <math.h>
#include <mpi.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../tests/assert.h"

/* Leave every rank at the common instant T = (latest clock over all ranks) + 1 ms. */
static double sync_start(void) {
  double now, latest;
  MPI_Barrier(MPI_COMM_WORLD);
  now = MPI_Wtime();
  MPI_Allreduce(&now, &latest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double start = latest + 1e-3;
  smpi_execute_benched(start - MPI_Wtime());
  return start;
}

static int report(int rank, const char *what, double got, double expect, double tol) {
  int fail = 0;
  if (rank != 0) return 0;
  if (expect >= 0) {
    double rel = expect > 0 ? fabs(got - expect) / expect : fabs(got);
    long before = cs_test_failed;
    ASSERT_NEAR(got, expect, tol, "%s", what);
    fail = cs_test_failed > before;
    printf("%s %s: got %.17g s, expected %.17g s, relative error %.3g (tolerance %g)\n",
           fail ? "FAIL" : "PASS", what, got, expect, rel, tol);
  } else {
    printf("%s: %.17g s\n", what, got);
  }
  fflush(stdout);
  return fail;
}

int main(int argc, char **argv) {
  int rank, size, fail = 0;
  double expect = -1, tol = 1e-9;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int a = 1;
  while (a + 1 < argc && (strcmp(argv[a], "--expect") == 0 || strcmp(argv[a], "--tol") == 0)) {
    if (strcmp(argv[a], "--expect") == 0)
      expect = atof(argv[a + 1]);
    else
      tol = atof(argv[a + 1]);
    a += 2;
  }
  if (a >= argc) {
    if (rank == 0)
      fprintf(stderr,
              "usage: flows [--expect S] [--tol REL] SIZE SRC:DST ... | --compute B | --where\n");
    MPI_Finalize();
    return 2;
  }

  if (strcmp(argv[a], "--where") == 0) {
    char name[MPI_MAX_PROCESSOR_NAME];
    int len;
    MPI_Get_processor_name(name, &len);
    const char *node = sg_host_get_property_value(sg_host_self(), "node");
    const char *lane = sg_host_get_property_value(sg_host_self(), "lane");
    const char *local = sg_host_get_property_value(sg_host_self(), "local");
    printf("rank %d host %s node %s lane %s local %s\n", rank, name, node ? node : "-",
           lane ? lane : "-", local ? local : "-");
  } else if (strcmp(argv[a], "--compute") == 0 && a + 1 < argc) {
    double bytes = atof(argv[a + 1]);
    double t0 = sync_start();
    if (rank == 0) smpi_execute_flops(bytes);
    double t = MPI_Wtime() - t0;
    fail = report(rank, "smpi_execute_flops", t, expect, tol);
  } else {
    long bytes = atol(argv[a]);
    int nflows = argc - a - 1;
    int *src = malloc(sizeof(int) * (size_t)(nflows > 0 ? nflows : 1));
    int *dst = malloc(sizeof(int) * (size_t)(nflows > 0 ? nflows : 1));
    for (int f = 0; f < nflows; f++) {
      if (sscanf(argv[a + 1 + f], "%d:%d", &src[f], &dst[f]) != 2 || src[f] < 0 || src[f] >= size ||
          dst[f] < 0 || dst[f] >= size || src[f] == dst[f]) {
        if (rank == 0)
          fprintf(stderr, "bad flow '%s' (need SRC:DST with distinct ranks < %d)\n",
                  argv[a + 1 + f], size);
        MPI_Abort(MPI_COMM_WORLD, 2);
      }
    }
    char *sbuf = calloc((size_t)bytes + 1, 1);
    char *rbuf = calloc((size_t)bytes + 1, (size_t)nflows + 1);
    MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)(2 * nflows + 1));
    int nreq = 0, receives = 0;
    double t0 = sync_start();
    for (int f = 0; f < nflows; f++)
      if (dst[f] == rank) {
        MPI_Irecv(rbuf + (size_t)f * (size_t)bytes, (int)bytes, MPI_BYTE, src[f], f, MPI_COMM_WORLD,
                  &req[nreq++]);
        receives++;
      }
    for (int f = 0; f < nflows; f++)
      if (src[f] == rank)
        MPI_Isend(sbuf, (int)bytes, MPI_BYTE, dst[f], f, MPI_COMM_WORLD, &req[nreq++]);
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    double mine = receives ? MPI_Wtime() - t0 : 0.0;
    double *all = rank == 0 ? malloc(sizeof(double) * (size_t)size) : NULL;
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      double longest = 0, shortest = INFINITY;
      for (int r = 0; r < size; r++)
        if (all[r] > 0) {
          printf("  receiver %d: %.17g s\n", r, all[r]);
          if (all[r] > longest) longest = all[r];
          if (all[r] < shortest) shortest = all[r];
        }
      printf("  shortest %.17g s, longest %.17g s\n", shortest, longest);
      free(all);
      fail = report(rank, "longest flow", longest, expect, tol);
    }
    free(src);
    free(dst);
    free(sbuf);
    free(rbuf);
    free(req);
  }
  MPI_Finalize();
  return fail;
}
