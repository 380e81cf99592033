/* Charging the MPI library's local reductions in simulation (docs/library.md).
 *
 * SMPI runs the work inside its collectives at zero simulated time, while
 * collsim's kernels pay gamma per byte for every reduction (algos/local.c).
 * For a fair comparison the driver hands the library a user-defined
 * operation that does the same arithmetic as the original one (it calls
 * MPI_Reduce_local with it: bit-exact by construction), is commutative when
 * the original is (so SMPI's selectors take the same branch as for the
 * built-in operation), and charges len x size bytes through the charging
 * function of collsim's kernels (cs_charge_local). SMPI applies operations
 * inside the collective, in the calling process's context, so the charge
 * advances that process's simulated clock like a kernel's. */
#ifndef CS_LIBCHARGE_H
#define CS_LIBCHARGE_H

#include <mpi.h>

/* Bytes reduced through wrapped operations, and copied by the library
 * inside timed calls (cs_libcharge_timed), so far, summed over all simulated
 * processes (they share this OS process's memory under -no-privatize). */
extern double cs_lib_reduced_bytes, cs_lib_copied_bytes;

/* Creates *wrapped, doing op's arithmetic and charging it. Up to 8
 * distinct original operations per run (MPI_ERR_OP beyond). */
int cs_libcharge_wrap(MPI_Op op, MPI_Op *wrapped);
void cs_libcharge_free(MPI_Op *wrapped);

#ifdef SMPI_H
/* The library's local copies (SMPI's Datatype::copy): from the first call
 * on, every copy the library makes while its process is inside a timed call
 * (cs_libcharge_timed) is counted (cs_lib_copied_bytes) and charged as
 * collsim's kernels' copies are (cs_charge_local, CS_WORK_COPY). Returns 0,
 * or -1 with the reason in why (nothing is then counted). Under
 * -no-privatize only (one copy of the driver serves every process). */
int cs_libcharge_copies(char *why, size_t len);
/* The calling process enters (on = 1) or leaves (0) a timed library call
 * (after cs_libcharge_copies succeeded; before it, nothing to do). */
void cs_libcharge_timed(int on);
#endif

#endif
