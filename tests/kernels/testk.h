/* Test-only kernels for the models of nonblocking messages and library
 * collectives (tests/model_nb.sh): pure MPI, compiled against SMPI
 * (collsim-testk-smpi) and against the recording MPI (test_model_nb), never
 * registered (collsim list does not show them). */
#ifndef COLLSIM_TESTK_H
#define COLLSIM_TESTK_H

#include <mpi.h>

/* What a kernel gets: its buffers (>= 4 * size * bytes each), the size
 * of its messages, and the node communicator made in setup (consecutive
 * ranks, ppn per node). */
typedef struct {
  void *sbuf, *rbuf;
  int bytes, ppn;
  MPI_Comm world, node;
} testk_args;

typedef int (*testk_fn)(const testk_args *a);

/* The kernel called name, or NULL. */
testk_fn testk_find(const char *name);
/* Setup before the priced or timed call: the node communicator. */
int testk_setup(testk_args *a, int ppn);
/* The names, comma-separated, for messages. */
const char *testk_names(void);

#endif
