/* The library's temporaries in shared memory in the driver's calls on
 * shared buffers (sim/README.md "SMPI 3.32 facts").
 *
 * SMPI 3.32's collectives take their temporaries from
 * smpi_get_tmp_sendbuffer and smpi_get_tmp_recvbuffer (a `new unsigned
 * char[size]` outside trace replay) and return them with
 * smpi_free_tmp_buffer (a `delete[]`). In a timing run those temporaries
 * hold data that means nothing (the user buffers are SMPI_SHARED_MALLOC,
 * their contents garbage), yet they are real memory: SMPI's
 * mvapich2_two_level allreduce at 11 520 000 ints takes 46 MB per process,
 * 53 GB at 1152 ranks, and every message into or out of one is copied.
 *
 * The three functions are hidden in libsimgrid (no symbol, no PLT slot),
 * but the two getters end in a tail call of operator new[] through
 * libsimgrid's PLT, and the collectives free inline through its
 * operator delete[]. With the hooks installed, libsimgrid's GOT entries of
 * those two operators (got.h) reach the driver: a new[] whose return
 * address follows a call of one of the two getters (found once in
 * libsimgrid's code by their instructions), made by a process inside a call
 * on shared buffers (cs_libtmp_shared), gets a range of the shared mapping
 * that collsim's own kernel temporaries use (cs_backend_shared_tmp: no
 * resident memory, distinct addresses within a process, and SMPI skips the
 * payload copies of messages into or out of it); its delete[] releases the
 * range. Likewise libsimgrid's malloc and free: a malloc called from
 * Request::init_buffer (a derived-type message's packed copy) or
 * Datatype::copy, by such a process, gets a shared range. Everything else
 * (every other new[] or malloc, any temporary of a call whose
 * result is checked: bench's verification, check) is libstdc++'s or libc's.
 * Simulated times do not depend on buffer contents or addresses beyond
 * their distinctness, so timed rows are bit-identical
 * (tests/library_nodes.sh compares with COLLSIM_LIB_TMP=real, which keeps
 * SMPI's temporaries). x86-64 and SimGrid 3.32's code shape only: elsewhere
 * the hooks are not installed and the temporaries stay real. */
#ifndef CS_LIBTMP_H
#define CS_LIBTMP_H

#include <mpi.h>
#include <stddef.h>

#ifdef SMPI_H
/* Installs the hooks (once for all processes). 0, or -1 with the reason in
 * why (nothing changes then). COLLSIM_LIB_TMP=real: not installed. */
int cs_libtmp_install(char *why, size_t len);
/* The calling process enters (on = 1) or leaves (0) a call on shared buffers. */
void cs_libtmp_shared(int on);
/* Temporaries handed out shared so far (all processes). */
long cs_libtmp_count(void);
#endif

#endif
