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

/* Bytes reduced through wrapped operations so far, summed over all simulated
 * processes (they share this OS process's memory under -no-privatize). */
extern double cs_lib_reduced_bytes;

/* Creates *wrapped, doing op's arithmetic and charging it. Up to 8
 * distinct original operations per run (MPI_ERR_OP beyond). */
int cs_libcharge_wrap(MPI_Op op, MPI_Op *wrapped);
void cs_libcharge_free(MPI_Op *wrapped);

#endif
