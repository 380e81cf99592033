/* libcollsim-smpi.o: collsim's registered algorithms under an SMPI
 * application, linked into it (smpicc app.c build/libcollsim-smpi.o) and
 * run by smpirun on any platform; pmpi/README.md "Under SMPI".
 *
 * The wrappers, the settings and the choice of an algorithm per call are
 * pmpi/select.c, shared with libcollsim-pmpi.so (pmpi/pmpi.c); the kernels'
 * local work is charged as collsim's own simulations charge it
 * (backends/smpi.c: gamma per byte, b flops on hosts of speed 1/gamma, or a
 * calibrated platform's segments). This file is what differs under SMPI 3.32:
 *
 * - State per simulated process. Every MPI process is a coroutine of one OS
 *   process; with -no-privatize (smpi/privatization:no) they share every
 *   global, with mmap privatization they share thread-local variables and
 *   the heap. So a process's state is found by its SimGrid actor id (one
 *   heap block per process, whose address never changes: a kernel keeps it
 *   across the yields of its messages), which is right in every mode.
 * - The clock: SimGrid's simulated clock (simgrid_get_clock: MPI_Wtime
 *   would add smpi/wtime's cost to the application's time).
 * - The wrappers bind inside the application. smpirun loads the application
 *   with dlopen: with dlopen privatization (RTLD_DEEPBIND) its own
 *   definitions come first, with mmap or none libsimgrid's MPI_Allreduce
 *   would. Marking them protected makes the application's calls bind to
 *   them in every mode (measured with SMPI 3.32, pmpi/README.md); the most
 *   constraining visibility among the objects linked wins, so the
 *   directives below apply to select.c's definitions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "select.h"

const char cs_sel_name[] = "collsim-smpi";

typedef struct {
  cs_sel_proc proc;
  cs_sel_thread thread;
} per_process;

static per_process **of_actor; /* by actor id; grown as needed */
static size_t n_actor;

static per_process *self(void) {
  static per_process none; /* outside any actor: not expected */
  aid_t id = sg_actor_self_get_pid();
  if (id < 0) return &none;
  if ((size_t)id >= n_actor) {
    size_t n = n_actor ? n_actor : 64;
    while (n <= (size_t)id) n *= 2;
    per_process **v = realloc(of_actor, n * sizeof *v);
    if (!v) abort();
    for (size_t i = n_actor; i < n; i++) v[i] = NULL;
    of_actor = v;
    n_actor = n;
  }
  if (!of_actor[id] && !(of_actor[id] = calloc(1, sizeof(per_process)))) abort();
  return of_actor[id];
}

cs_sel_proc *cs_sel_self(void) { return &self()->proc; }
cs_sel_thread *cs_sel_thread_self(void) { return &self()->thread; }
double cs_sel_clock(void) { return simgrid_get_clock(); }

/* SMPI 3.32's MPI_Abort ends the calling simulated process only (the others
 * then wait for it forever, and smpirun reports a deadlock with status 0):
 * end the simulation, and smpirun, with status 1. */
void cs_sel_abort(void) {
  fflush(NULL);
  _exit(1);
}

#define CS_COLL(id, Name, ...) __asm__(".protected MPI_" #Name);
#include "../algos/colls.def"
#undef CS_COLL
__asm__(".protected MPI_Init");
__asm__(".protected MPI_Init_thread");
__asm__(".protected MPI_Finalize");
