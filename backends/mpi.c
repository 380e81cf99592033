/* The real-MPI backend (algos/backend.h), linked into collsim-mpi and
 * libcollsim-pmpi.so: local work is only done (its time is real), there is
 * no shared scratch memory, and a refused call goes to the communicator's
 * error handler as the library's own refusal would. */
#include "../algos/backend.h"
#include "../algos/kernel.h"

void cs_backend_charge(double bytes, cs_work kind) {
  (void)bytes;
  (void)kind;
}

/* Nothing is batched (cs_local_pending stays 0, so this is never called). */
void cs_backend_flush(void) {}

void *cs_backend_shared_tmp(size_t bytes) {
  (void)bytes;
  return NULL;
}
void cs_backend_shared_tmp_free(void *p) { (void)p; }

void *cs_shared_scratch(int slot, size_t bytes) {
  (void)slot;
  (void)bytes;
  return NULL;
}

void cs_backend_errhandler(MPI_Comm comm, int rc) { MPI_Comm_call_errhandler(comm, rc); }
