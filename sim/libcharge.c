/* The library's local reductions, charged as collsim's are (libcharge.h). */
#include "libcharge.h"

#include "../algos/kernel.h"

double cs_lib_reduced_bytes = 0;

/* The operation being wrapped. A user function gets no context argument;
 * every process of a run wraps the same built-in operation. */
static MPI_Op wrapped_op = MPI_OP_NULL;

static void charged_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  int size;
  MPI_Type_size(*dt, &size);
  double bytes = (double)*len * size;
  cs_lib_reduced_bytes += bytes;
  cs_charge_local(bytes);
  /* Timing runs use shared buffers whose contents mean nothing: the work is
   * charged, not done, exactly as in collsim's kernels (cs_reduce_local). */
  if (!cs_skip_compute) MPI_Reduce_local(in, inout, *len, *dt, wrapped_op);
}

int cs_libcharge_wrap(MPI_Op op, MPI_Op *wrapped) {
  int commute = 1;
  int rc = MPI_Op_commutative(op, &commute);
  if (rc != MPI_SUCCESS) return rc;
  wrapped_op = op;
  return MPI_Op_create(charged_op, commute, wrapped);
}

void cs_libcharge_free(MPI_Op *wrapped) {
  if (*wrapped != MPI_OP_NULL) MPI_Op_free(wrapped);
}
