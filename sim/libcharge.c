/* The library's local reductions and copies, charged as collsim's are
 * (libcharge.h). */
#include "libcharge.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/kernel.h"
#include "got.h"

double cs_lib_reduced_bytes = 0, cs_lib_copied_bytes = 0;

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
  cs_charge_local(bytes, CS_WORK_REDUCE);
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

/* ---- copies ------------------------------------------------------------------
 * SMPI 3.32's collectives copy through one function, the static member
 * simgrid::smpi::Datatype::copy of libsimgrid (123 call sites in the library,
 * every one through its PLT; SimGrid's src/smpi/colls call it for their
 * local copies, Request::sendrecv for a message to oneself, the bindings for
 * MPI_IN_PLACE). smpirun dlopens the driver with RTLD_LOCAL
 * (smpi_global.cpp) and libsimgrid is linked with BIND_NOW, so a definition
 * in the driver cannot interpose it: libsimgrid's PLT slot is bound to its
 * own definition before the driver is loaded. The driver therefore rewrites
 * that slot (libsimgrid's GOT entry of the symbol, got.h) to copy_hook,
 * which forwards every call to the original. MPI_Datatype is
 * simgrid::smpi::Datatype* in SMPI's C mpi.h, so the C prototype below is
 * the member's. */
#define COPY_SYM "_ZN7simgrid4smpi8Datatype4copyEPKviPS1_PviS4_"
#ifdef SMPI_H
extern int smpi_datatype_copy(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount,
                              MPI_Datatype recvtype) __asm__(COPY_SYM);

/* Per world rank: 1 while the process is inside a timed library call; ntimed
 * counts those (the hook does nothing else while it is 0). */
static unsigned char *timed;
static int ntimed;

void cs_libcharge_timed(int on) {
  if (!timed) return; /* cs_libcharge_copies was not called or failed: nothing is charged */
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (timed[r] != (on != 0)) {
    timed[r] = on != 0;
    ntimed += on ? 1 : -1;
  }
}

/* What Datatype::copy copies (smpi_datatype.cpp): min(send, receive) bytes,
 * nothing when recvcount is 0 or the buffers are the same; counted whether
 * or not SMPI then skips the memcpy for shared (SMPI_SHARED_MALLOC) buffers,
 * as collsim's kernels are charged in timing runs whose buffers hold no
 * data. */
static int copy_hook(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype) {
  if (ntimed > 0 && recvcount > 0 && recvbuf != sendbuf) {
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    if (timed[r]) {
      int ss, rs;
      MPI_Type_size(sendtype, &ss);
      MPI_Type_size(recvtype, &rs);
      double sb = (double)sendcount * ss, rb = (double)recvcount * rs;
      double bytes = sb < rb ? sb : rb;
      if (bytes > 0) {
        cs_lib_copied_bytes += bytes;
        cs_charge_local(bytes, CS_WORK_COPY);
      }
    }
  }
  return smpi_datatype_copy(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype);
}

int cs_libcharge_copies(char *why, size_t len) {
  static int done; /* one OS process: every simulated process shares the slot */
  if (!timed) {
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    timed = calloc((size_t)p, 1);
    if (!timed) {
      snprintf(why, len, "out of memory");
      return -1;
    }
  }
  if (done) return 0;
  if (cs_got_patch(COPY_SYM, (void *)smpi_datatype_copy, (void *)copy_hook, why, len)) return -1;
  done = 1;
  return 0;
}
#endif
