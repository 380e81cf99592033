/* libcollsim-pmpi.so: collsim's registered algorithms under an unmodified MPI
 * application, through the MPI profiling interface (PMPI).
 *
 * Usage (Open MPI; see pmpi/README.md for all details):
 *
 *   COLLSIM_ALLREDUCE=circulant COLLSIM_REDUCE_SCATTER_BLOCK=ceilhalf \
 *   COLLSIM_PMPI_VERBOSE=1 \
 *     mpirun -np 8 -x LD_PRELOAD=/path/to/build/libcollsim-pmpi.so ./app
 *
 * The wrappers, the settings and the choice of an algorithm per call are
 * pmpi/select.c, shared with libcollsim-smpi.o (pmpi/smpi.c); this file is
 * what differs under a real MPI library: one OS process is one MPI process,
 * so its state is a static (threads share it: the counters are atomic), a
 * kernel's nesting depth is per thread, and the clock is MPI_Wtime. The
 * library's own collectives are PMPI_<Coll>.
 */
#include "select.h"

const char cs_sel_name[] = "collsim-pmpi";

cs_sel_proc *cs_sel_self(void) {
  static cs_sel_proc me;
  return &me;
}

cs_sel_thread *cs_sel_thread_self(void) {
  static __thread cs_sel_thread t;
  return &t;
}

double cs_sel_clock(void) { return PMPI_Wtime(); }

void cs_sel_abort(void) { PMPI_Abort(MPI_COMM_WORLD, 1); }
