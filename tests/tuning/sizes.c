/* An ordinary MPI program (not linked to collsim) for the tuning tests: for
 * every count on the command line, one MPI_Allreduce (MPI_SUM) of that many
 * ints, checked against the formula; prints "ok" per count from rank 0, or
 * "wrong ..." and exits 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, r, bad = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  for (int a = 1; a < argc; a++) {
    int n = atoi(argv[a]);
    int *x = malloc((size_t)(n ? n : 1) * sizeof *x), *y = malloc((size_t)(n ? n : 1) * sizeof *y);
    for (int i = 0; i < n; i++) x[i] = r + i;
    MPI_Allreduce(x, y, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < n && !bad; i++)
      if (y[i] != p * (p - 1) / 2 + p * i) {
        printf("wrong count=%d element %d: %d, expected %d\n", n, i, y[i], p * (p - 1) / 2 + p * i);
        bad = 1;
      }
    if (r == 0 && !bad) printf("ok count=%d bytes=%zu\n", n, (size_t)n * sizeof(int));
    free(x);
    free(y);
  }
  MPI_Finalize();
  return bad;
}
