/* The library's local reductions, charged as collsim's are (libcharge.h). */
#include "libcharge.h"

#include "../algos/kernel.h"

double cs_lib_reduced_bytes = 0;

/* A user function gets no context argument, so each wrapped operation has
 * a function of its own: slot i's trampoline applies original[i]. All
 * simulated processes share these (one OS process under -no-privatize) and
 * wrap the same operations, so a slot means the same everywhere. */
#define NSLOT 8
static MPI_Op original[NSLOT];
static int nslot = 0;

static void apply(int slot, void *in, void *inout, int *len, MPI_Datatype *dt) {
  int size;
  MPI_Type_size(*dt, &size);
  double bytes = (double)*len * size;
  cs_lib_reduced_bytes += bytes;
  cs_charge_local(bytes);
  /* Timing runs use shared buffers whose contents mean nothing: the work is
   * charged, not done, exactly as in collsim's kernels (cs_reduce_local). */
  if (!cs_skip_compute) MPI_Reduce_local(in, inout, *len, *dt, original[slot]);
}

#define TRAMPOLINE(i)                                                       \
  static void tramp##i(void *in, void *inout, int *len, MPI_Datatype *dt) { \
    apply(i, in, inout, len, dt);                                           \
  }
TRAMPOLINE(0)
TRAMPOLINE(1)
TRAMPOLINE(2)
TRAMPOLINE(3)
TRAMPOLINE(4)
TRAMPOLINE(5)
TRAMPOLINE(6)
TRAMPOLINE(7)
static MPI_User_function *const tramp[NSLOT] = {tramp0, tramp1, tramp2, tramp3,
                                                tramp4, tramp5, tramp6, tramp7};

int cs_libcharge_wrap(MPI_Op op, MPI_Op *wrapped) {
  int commute = 1;
  int rc = MPI_Op_commutative(op, &commute);
  if (rc != MPI_SUCCESS) return rc;
  int slot = 0;
  while (slot < nslot && original[slot] != op) slot++;
  if (slot == NSLOT) return MPI_ERR_OP; /* more distinct operations than slots */
  if (slot == nslot) original[nslot++] = op;
  return MPI_Op_create(tramp[slot], commute, wrapped);
}

void cs_libcharge_free(MPI_Op *wrapped) {
  if (*wrapped != MPI_OP_NULL) MPI_Op_free(wrapped);
}
