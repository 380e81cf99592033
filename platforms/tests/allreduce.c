/*
 * allreduce.c: an SMPI smoke test for the generated platforms.
 *
 * usage: allreduce BYTES [REPS]
 * Every rank contributes BYTES / 8 doubles (its rank + index) to MPI_Allreduce(MPI_SUM),
 * REPS times (default 1).  A second, two-element MPI_Allreduce(MPI_MAX) collects whether
 * any rank got a wrong sum and the slowest rank's simulated time of the last call, which
 * rank 0 prints.  The exit status is 1 if a result is wrong.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../tests/assert.h"

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long bytes = argc > 1 ? atol(argv[1]) : 1024;
  int reps = argc > 2 ? atoi(argv[2]) : 1;
  int count = (int)(bytes / 8 > 0 ? bytes / 8 : 1);
  double *in = malloc(sizeof(double) * (size_t)count);
  double *out = malloc(sizeof(double) * (size_t)count);
  for (int i = 0; i < count; i++) in[i] = rank + i;
  double t = 0;
  for (int r = 0; r < reps; r++) {
    double t0 = MPI_Wtime();
    MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    t = MPI_Wtime() - t0;
  }
  double mine[2] = {0, t}, worst[2];
  for (int i = 0; i < count; i++)
    if (out[i] != (double)size * (size - 1) / 2 + (double)size * i) mine[0] = 1;
  MPI_Allreduce(mine, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    ASSERT_DBL_EQ(worst[0], 0.0, "a rank got a wrong sum in an allreduce of %ld bytes",
                  (long)count * 8);
    printf("%s allreduce of %ld bytes on %d ranks: %.9g s simulated (slowest rank)\n",
           worst[0] != 0 ? "FAIL" : "PASS", (long)count * 8, size, worst[1]);
  }
  free(in);
  free(out);
  MPI_Finalize();
  return worst[0] != 0;
}
