/* The collsim driver: ONE source, compiled with smpicc for SimGrid/SMPI and
 * with mpicc for a real MPI library. Modes: check (correctness) and bench
 * (timing). */
#ifndef COLLSIM_DRIVER_H
#define COLLSIM_DRIVER_H

#include <mpi.h>

int cs_check_main(int argc, char **argv, MPI_Comm comm);
int cs_bench_main(int argc, char **argv, MPI_Comm comm);
int cs_calibrate_main(int argc, char **argv, MPI_Comm comm);

#endif
