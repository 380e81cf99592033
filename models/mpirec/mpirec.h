/* The engine of collsim's recording MPI (models/mpirec/mpi.h): runs the p
 * ranks of a case as coroutines of this process and records, per world
 * rank, the program that the evaluator (models/eval.c) prices. Used by
 * models/record.c only. */
#ifndef CS_MPIREC_ENGINE_H
#define CS_MPIREC_ENGINE_H

#include <stddef.h>

#include "../record.h"

/* The body of one rank: called on the coroutine of world rank `rank` with
 * MPI_COMM_WORLD of size p. It reports a failure with csrec_fail. */
typedef void (*csrec_main_fn)(int rank, void *arg);

/* Runs main on p coroutines until all return, recording into g (which has
 * p empty programs). ppn: ranks per node for MPI_Get_processor_name
 * ("node<N>-<L>"), or 0 for one host per rank ("node<r>", as platgen names
 * the hosts of an abg platform).
 * Returns 0, or -1 with a message in err (deadlock, an unsupported MPI
 * call, a kernel's error, no memory). */
int csrec_run(int p, int ppn, csrec_main_fn main, void *arg, cs_prog *g, char *err, size_t errlen);

/* Makes the running case fail with this message (the first one wins). */
void csrec_fail(const char *fmt, ...);

/* Setup and the priced call. A rank starts in setup, where collectives are
 * executed among the ranks and recorded as nothing (the kernel context's
 * communicators and agreements, built before the call as the timing
 * driver builds them before timing); csrec_priced(1) starts its priced
 * call, where a library collective is priced as the algorithm SMPI runs
 * for it (libcoll.c) and creating a communicator fails the case. */
void csrec_priced(int on);
int csrec_in_priced(void);
/* The SMPI collective selector whose choices the priced library
 * collectives follow (sim/libalgo.c; NULL or "": SMPI's default, what
 * collsim's timing runs use); kept for the runs that follow. */
void csrec_set_selector(const char *sel);

#endif
