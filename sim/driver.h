/* The collsim driver, run under SimGrid/SMPI AND on a real MPI library
 * (sim/README.md): ONE source, compiled with SMPI's headers and with mpicc.
 * Modes: check (correctness), bench (timing), calibrate (measurements). */
#ifndef COLLSIM_DRIVER_H
#define COLLSIM_DRIVER_H

#include <mpi.h>

int cs_check_main(int argc, char **argv, MPI_Comm comm);
int cs_bench_main(int argc, char **argv, MPI_Comm comm);
int cs_calibrate_main(int argc, char **argv, MPI_Comm comm);

#endif
