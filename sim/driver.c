/* Entry point of the driver: `collsim-driver check|bench [options]`, started
 * by ./collsim under smpirun or mpirun. */
#include <stdio.h>
#include <string.h>

#include "driver.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rc = 2;
  if (argc >= 2 && !strcmp(argv[1], "check"))
    rc = cs_check_main(argc - 1, argv + 1, MPI_COMM_WORLD);
  else if (argc >= 2 && !strcmp(argv[1], "bench"))
    rc = cs_bench_main(argc - 1, argv + 1, MPI_COMM_WORLD);
  else if (argc >= 2 && !strcmp(argv[1], "calibrate"))
    rc = cs_calibrate_main(argc - 1, argv + 1, MPI_COMM_WORLD);
  else
    fprintf(stderr,
            "usage: collsim-driver check|bench [options] (normally started by ./collsim)\n");
  MPI_Finalize();
  return rc;
}
