/* The collsim driver, run under SimGrid/SMPI AND on a real MPI library
 * (sim/README.md): ONE source, compiled with SMPI's headers and with mpicc.
 * Modes: check (correctness), bench (timing), calibrate (measurements),
 * lanes (the multi-lane benchmarks). */
#ifndef COLLSIM_DRIVER_H
#define COLLSIM_DRIVER_H

#include <mpi.h>

int cs_check_main(int argc, char **argv, MPI_Comm comm);
int cs_bench_main(int argc, char **argv, MPI_Comm comm);
int cs_calibrate_main(int argc, char **argv, MPI_Comm comm);
int cs_lanes_main(int argc, char **argv, MPI_Comm comm); /* sim/lanes.c */

#include "../algos/registry.h"

/* Drift probes (sim/calibrate.c): a few of calibrate's own measurements,
 * taken by the same code (ping-pong and exchange of rank 0 with its partner
 * in node 0 or on node 1, the kernels' local reduction and copy on rank 0),
 * interleaved by bench with the collectives it times, so that validate can
 * tell a machine that changed since its calibration from a wrong model
 * (docs/calibrate.md, "Drift probes"). spec: "KIND:BYTES,...;KIND:..." with
 * the kinds of a calibration samples file; rank 0 appends the samples to
 * path in that file's format (with its header if the file is empty), with
 * launch in the launch column. Collective; NULL on every rank on failure
 * (rank 0 says why). */
typedef struct cs_probes cs_probes;
cs_probes *cs_probes_open(MPI_Comm comm, const char *spec, const char *path, int launch);
/* One sample of every probe, in the spec's order (timed 0: a warm-up, not
 * written); ends with a barrier that sleeps. Collective. */
void cs_probes_round(cs_probes *P, MPI_Comm comm, int timed);
void cs_probes_close(cs_probes *P);

/* Real MPI with one clock for all processes of comm (sim/bench.c): the
 * ReproMPI-style common start. The processes agree on a start time
 * max(now) + *window (*window raised to 4x the time of one agreement, and
 * never lowered), wait for it, and return it; *late is 1 if this process got
 * there after the start (the caller redoes the repetition with *window x 10
 * if any process was late). Used by bench for collectives and by calibrate
 * for exchanges, so that both are timed the same way. */
double cs_window_start(MPI_Comm comm, double *window, int *late);
/* The driver's clock (seconds): CLOCK_MONOTONIC on a real MPI (one clock per
 * host; not MPI_Wtime, whose origin is per process in Open MPI 4.1), the
 * simulated clock under SMPI. */
double cs_now(void);

/* Verification of timing runs (sim/check.c): one call of the collective with
 * algorithm a (name: as --algos gives it) on real buffers, checked against
 * the check harness's formulas. count is the call's count (vector, block,
 * or the total of a split collective), counts the p block counts of a split
 * collective (NULL: the even split). Returns the same on every rank, in
 * increasing severity; rank 0's what says why (the first failure line of
 * the check harness, or why nothing was checked). */
enum {
  CS_VERIFY_OK = 0,
  CS_VERIFY_SKIPPED = 1, /* too large to check (memory, folds), or no formula */
  CS_VERIFY_KNOWN = 2,   /* wrong: a KNOWN defect of the library (sim/check.c) */
  CS_VERIFY_WRONG = 3    /* wrong */
};
#define CS_VERIFY_MAX_BYTES 4e9
int cs_check_verify(cs_coll coll, const cs_algo_info *a, const char *name, long count,
                    const int *counts, int root, int inplace, MPI_Datatype dt, MPI_Comm comm,
                    char *what, size_t len);

#endif
