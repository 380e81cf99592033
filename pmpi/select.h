/* The selection and logging code shared by collsim's two application
 * libraries: libcollsim-pmpi.so (pmpi/pmpi.c, preloaded under mpirun) and
 * libcollsim-smpi.o (pmpi/smpi.c, linked into an SMPI application run by
 * smpirun). pmpi/select.c holds everything both do: the MPI_<Coll> wrappers
 * generated from algos/colls.def, the settings (COLLSIM_<COLL>, _MIN_BYTES,
 * _MAX_BYTES, COLLSIM_PMPI_VERBOSE, _LOG, _TIME, COLLSIM_STRICT), the one
 * choice of an algorithm per call (cs_sel_choose), the fallback reasons and
 * their messages, the private communicators and the counters. Both reach the
 * library's own collective as PMPI_<Coll> (SMPI 3.32 defines every PMPI_
 * entry point). What differs is here: where a process keeps its state (one
 * OS process per MPI process under mpirun; under smpirun every simulated
 * process is a coroutine of one OS process, and with -no-privatize they
 * share every global), the clock, and the name the lines start with. */
#ifndef COLLSIM_SELECT_H
#define COLLSIM_SELECT_H

#include "../algos/collsim.h"

/* Per-call reasons for a fallback, each warned about once per process. */
enum { CS_R_NONCOMM, CS_R_INEXACT, CS_R_INVALID, CS_R_INTERCOMM, CS_R_SIZE, CS_R_N };

struct cs_shadow;

/* What one MPI process keeps (counters atomic: under mpirun several threads
 * of one process may call collectives at once). */
typedef struct {
  unsigned long calls[CS_NCOLL], fallback[CS_NCOLL], outside[CS_NCOLL];
  unsigned long all_calls[CS_NCOLL]; /* every call of MPI_<Coll>, whoever served it */
  double seconds[CS_NCOLL];          /* time inside MPI_<Coll> (COLLSIM_PMPI_TIME) */
  double t_init;                     /* the clock when MPI_Init returned */
  int warned[CS_NCOLL][CS_R_N];
  int inited;     /* cs_sel_init done on this process */
  int shadow_key; /* the keyval of the private communicators */
  struct cs_shadow *shadows;
} cs_sel_proc;

/* What one thread of control keeps: > 0 while a kernel runs, while the
 * kernel context is built. */
typedef struct {
  int depth, building;
} cs_sel_thread;

/* ---- provided by each library (pmpi/pmpi.c, pmpi/smpi.c) ---- */
extern const char cs_sel_name[]; /* "collsim-pmpi", "collsim-smpi": lines start with it */
cs_sel_proc *cs_sel_self(void);
cs_sel_thread *cs_sel_thread_self(void);
double cs_sel_clock(void); /* seconds: MPI_Wtime, or SimGrid's simulated clock */
/* Ends the whole job with status 1 (COLLSIM_STRICT): MPI_Abort under
 * mpirun; under smpirun the simulation (SMPI 3.32's MPI_Abort ends the
 * calling process only, and the others then wait forever). */
void cs_sel_abort(void);

#endif
