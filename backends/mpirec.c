/* The recording backend (algos/backend.h), linked into the model library
 * (collsim_core) with the kernels compiled against the recording MPI
 * (models/mpirec/mpi.h): each charge is recorded as local work of b bytes of
 * its kind for the evaluator (models/eval.c), temporaries of timing cases
 * are the recorder's shared memory (never copied by a message), and a
 * refused call just returns (the recorder has no error handlers). */
#include "../algos/backend.h"
#include "../algos/kernel.h"

void cs_backend_charge(double bytes, cs_work kind) { csrec_charge(bytes, kind); }

/* Recorded work is not batched: each charge is one record, in order
 * (cs_local_pending stays 0, so this is never called). */
void cs_backend_flush(void) {}

void *cs_backend_shared_tmp(size_t bytes) { return csrec_shared_malloc(bytes); }
void cs_backend_shared_tmp_free(void *p) { csrec_shared_free(p); }

void *cs_shared_scratch(int slot, size_t bytes) {
  (void)slot;
  (void)bytes;
  return NULL;
}

void cs_backend_errhandler(MPI_Comm comm, int rc) {
  (void)comm;
  (void)rc;
}
