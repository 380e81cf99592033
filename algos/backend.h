/* The backend: what the place the kernels run in provides to the local-work
 * helper (algos/local.c) and to the dispatcher, and nothing else.
 *
 * The kernel sources are compiled three times, against three MPIs: SMPI's
 * (SimGrid), the models' recording MPI (models/mpirec) and a real MPI
 * library. What differs between those places beyond MPI itself (how local
 * work is charged, where meaningless scratch memory comes from, how a
 * refused call reaches the error handler) is implemented once per place in
 * backends/ and chosen by the link, not by the preprocessor:
 *   backends/smpi.c    collsim-smpi (simulated time, SMPI_SHARED_MALLOC)
 *   backends/mpirec.c  the model library collsim_core (recorded work)
 *   backends/mpi.c     collsim-mpi, libcollsim-pmpi.so (real work only)
 * Every backend defines every function below, and cs_shared_scratch of
 * algos/kernel.h; nothing in algos/ knows which one it is linked with. */
#ifndef COLLSIM_BACKEND_H
#define COLLSIM_BACKEND_H

#include <mpi.h>
#include <stddef.h>

#include "pwcost.h"

/* Local work of `bytes` bytes of a kind done by the calling process
 * (cs_work of pwcost.h; nothing for bytes <= 0). A backend may batch it:
 * then it counts the processes with work pending in cs_local_pending
 * (algos/kernel.h), and cs_backend_flush, called by cs_local_flush only
 * while that count is not 0, charges the calling process's pending work. */
void cs_backend_charge(double bytes, cs_work kind);
void cs_backend_flush(void);

/* A temporary buffer of at least `bytes` bytes (> 0) whose contents mean
 * nothing (algos/local.c asks only when cs_shared_buffers is set), or NULL
 * where the backend has no such memory (the caller then uses malloc).
 * Released by cs_backend_shared_tmp_free. */
void *cs_backend_shared_tmp(size_t bytes);
void cs_backend_shared_tmp_free(void *p);

/* What MPI_Comm_call_errhandler(comm, rc) does on this backend for a call
 * the dispatcher refuses (algos/dispatch.c). */
void cs_backend_errhandler(MPI_Comm comm, int rc);

#endif
