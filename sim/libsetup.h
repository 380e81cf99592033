/* SMPI's set-up of a communicator's node structure, done without simulated
 * messages in the driver's untimed calls (docs/scale.md "The library's node set-up").
 *
 * The first call of one of SMPI's node-aware paths on a communicator (the
 * mpich, mvapich2 and impi selectors, smp_* and mvapich2_two_level
 * algorithms) runs Comm::init_smp, which learns every process's node
 * leader with allgather__ring on the communicator (p - 1 steps, p^2
 * messages) and the node sizes with another on the leaders (one per rank on
 * platforms with one host per rank, such as hydra). Those messages happen
 * in bench's untimed warm-up or verification call, and their simulated time
 * is never measured, but at 1152 ranks they cost minutes of wall time (about
 * 25 us per simulated message), at 4096 ranks 17 million messages.
 *
 * With the hooks installed, an allgather__ring that init_smp makes on the
 * driver's communicator or on its leaders' communicator, outside a timed
 * call, gathers through the memory the simulated processes share (one OS
 * process) and a SimGrid barrier: the same bytes in every process's receive
 * buffer, so the same node structure and the same algorithm decisions, in
 * zero simulated time and O(p) work. Everything else (the other calls of
 * allgather__ring, including the library's own allgather rows and their
 * verification, and any set-up inside a timed call) runs SMPI's code
 * unchanged. COLLSIM_LIB_SETUP=smpi in the environment keeps SMPI's
 * messages everywhere (tests/library_nodes.sh compares the two). */
#ifndef CS_LIBSETUP_H
#define CS_LIBSETUP_H

#include <mpi.h>

#ifdef SMPI_H
/* Installs the hooks for comm (the run's communicator, shared by all its
 * processes). 0, or -1 with the reason in why (nothing changes then).
 * Called by every process; the first installs. */
int cs_libsetup_fast(MPI_Comm comm, char *why, size_t len);
/* The calling process enters (on = 1) or leaves (0) a timed call. */
void cs_libsetup_timed(int on);
#endif

#endif
