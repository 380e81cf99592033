/* The simulation side of tests/model_nb.sh: times a test kernel (testk.h)
 * under SMPI as the bench driver times a row (sim/bench.c): setup first,
 * then all ranks leave a SimGrid barrier at one simulated instant (the
 * common start, no message) and each measures to its own end; the time is
 * the slowest rank's. Run with -no-privatize (the ranks share the globals).
 *   smpirun ... collsim-testk-smpi KERNEL PPN BYTES...
 * prints "BYTES TIME" per size (TIME with 17 significant digits). */
#include <simgrid/barrier.h>
#include <stdio.h>
#include <stdlib.h>

#include "testk.h"

static sg_bar_t bar;
static double slowest;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  testk_fn fn = argc > 3 ? testk_find(argv[1]) : NULL;
  if (!fn) {
    if (r == 0)
      fprintf(stderr, "usage: collsim-testk-smpi KERNEL PPN BYTES... (kernels: %s)\n",
              testk_names());
    MPI_Finalize();
    return 2;
  }
  if (r == 0) bar = sg_barrier_init((unsigned)p);
  MPI_Barrier(MPI_COMM_WORLD); /* bar exists before anyone waits on it */
  testk_args a;
  int rc = testk_setup(&a, atoi(argv[2]));
  for (int i = 3; i < argc && rc == MPI_SUCCESS; i++) {
    a.bytes = atoi(argv[i]);
    size_t n = (size_t)(a.bytes + 16) * (size_t)(p + 70);
    a.sbuf = malloc(n);
    a.rbuf = malloc(n);
    sg_barrier_wait(bar);
    if (r == 0) slowest = 0;
    sg_barrier_wait(bar);
    double t0 = MPI_Wtime();
    rc = fn(&a);
    double t = MPI_Wtime() - t0;
    sg_barrier_wait(bar); /* no simulated time: a SimGrid barrier */
    if (t > slowest) slowest = t;
    sg_barrier_wait(bar);
    if (r == 0) printf("%d %.17g\n", a.bytes, slowest);
    free(a.sbuf);
    free(a.rbuf);
  }
  if (rc != MPI_SUCCESS) fprintf(stderr, "rank %d: kernel %s returned %d\n", r, argv[1], rc);
  MPI_Finalize();
  return rc == MPI_SUCCESS ? 0 : 1;
}
