/* The collsim kernel library: one C function per registered algorithm, with
 * the MPI signature of its collective and a trailing kernel context (the
 * node and lane structure of the communicator, algos/ctx.h; non-NULL only
 * for rows flagged CS_NODE_AWARE), and the dispatcher that checks an
 * algorithm's restrictions (from the registry) before calling it. */
#ifndef COLLSIM_H
#define COLLSIM_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#include "ctx.h"
#include "registry.h"

/* The kernel signature of collective C, CS_PARAMS_<C> (MPI's parameters of
 * MPI_<Name> and a trailing const cs_ctx *ctx), is defined with the
 * collective's row in colls.def (included by registry.h above). */

/* A parenthesized list without its parentheses (colls.def's init and call
 * columns). */
#define CS_UNPAREN(...) __VA_ARGS__

/* Prototypes of all kernels, from the registry's CS_ALGO rows. The
 * CS_COMPOSE rows have no function of their own: the dispatcher runs the
 * generic composition engine (algos/compose/compose.c) for them. */
#define CS_ALGO(coll, name, family, flags, formula, ref) int cs_##coll##_##name CS_PARAMS_##coll;
#define CS_COMPOSE(coll, name, family, flags, formula, parts, ref)
#include "registry.def"
#undef CS_ALGO
#undef CS_COMPOSE

/* Arguments of any collective call; unused fields are ignored. */
typedef struct {
  const void *sendbuf;
  void *recvbuf;
  int count;                /* allreduce, reduce, reduce_scatter_block, bcast, scan, exscan */
  int sendcount, recvcount; /* allgather(v), gather(v), scatter(v), alltoall */
  MPI_Datatype dt, sendtype, recvtype;
  const int *counts, *displs; /* reduce_scatter, allgatherv, gatherv, scatterv */
  MPI_Op op;
  int root;
  MPI_Comm comm;
  /* The kernel context of comm; NULL: cs_run takes the one cached on comm
   * (creating it, collectively, on first use). */
  const cs_ctx *ctx;
} cs_args;

/* Calls algorithm a with x after checking the call (cs_validate) and the
 * algorithm's restrictions, before anything is sent. Returns the kernel's
 * MPI error code, the class cs_validate found, or MPI_ERR_OP for an op the
 * row's flags refuse (CS_COMMUTATIVE, CS_ASSOCIATIVE); a refused call goes
 * through x->comm's error handler (MPI_Comm_call_errhandler, as the library
 * does: fatal by default) and rank 0 of x->comm prints one line saying why
 * (once per collective and reason per process). */
int cs_run(const cs_algo_info *a, const cs_args *x);

/* The checks MPI (as Open MPI 4.1 implements them) makes on a call of coll
 * before any communication, on this process's arguments x (x->comm gives
 * p and the rank): MPI_SUCCESS, or the error class for the first problem
 * found (MPI_ERR_OP, _COUNT, _ROOT, _TYPE, _ARG, _BUFFER, _TRUNCATE) with a
 * sentence in why (if not NULL). algos/validate.c says what is checked. */
int cs_validate(cs_coll coll, const cs_args *x, char *why, size_t len);
/* 1 iff op may reduce dt: a user op, or a predefined op whose table (MPI
 * 4.0 Sec. 6.9.2, every predefined type of MPI 4.0 the library defines;
 * MPI_CHAR as a C integer) contains dt's class. */
int cs_op_valid(MPI_Op op, MPI_Datatype dt);
/* 1 iff op on dt is a predefined op whose result does not depend on the
 * order of evaluation with the reduction that runs (MPI_Reduce_local):
 * logical and bitwise ops, MIN/MAX, MINLOC/MAXLOC, and integer SUM/PROD
 * where the library computes them modulo 2^bits (probed once per type and
 * op: Open MPI 4.1's op/avx saturates 8- and 16-bit sums); 0 for
 * floating-point and complex SUM/PROD and for every user op (collsim
 * cannot see whether a user function is exactly associative). What
 * CS_ASSOCIATIVE rows need. algos/validate.c says how it is decided. */
int cs_op_exact(MPI_Op op, MPI_Datatype dt);
/* A sentence saying why op on dt is not exact (for refusals). */
void cs_op_inexact_why(MPI_Op op, MPI_Datatype dt, char *why, size_t len);
/* Every process of a real MPI job must decide cs_op_exact alike: the
 * real-MPI driver and the PMPI library call cs_exact_probe_all (this
 * process's probes of every integer type's SUM and PROD, as bits) at
 * MPI_Init, AND the bits over MPI_COMM_WORLD and give the result to
 * cs_exact_agree, which fixes every decision to it. Without it each pair is
 * probed at its first use (enough under SMPI and in the recorder, where all
 * processes run one reduction code). */
#define CS_EXACT_WORDS 2
void cs_exact_probe_all(uint64_t bits[CS_EXACT_WORDS]);
void cs_exact_agree(const uint64_t bits[CS_EXACT_WORDS]);

/* The arguments of rank r of a collective call on buffers prepared the way
 * collsim's drivers prepare them: sbuf and rbuf, count elements of dt (per
 * call, or per block for the block collectives), counts/displs for the
 * v-collectives and reduce_scatter; MPI_IN_PLACE where MPI allows it (on
 * every rank, or at the root of a rooted collective, where scatter(v) puts
 * it in recvbuf); bcast works on sbuf. The timing driver (sim/bench.c) and
 * the models (models/record.c) build their calls with it, so the models
 * price exactly the call that is timed. Returns MPI_ERR_COUNT if count
 * does not fit the int of the MPI signature. */
int cs_args_for_rank(cs_args *x, cs_coll coll, int r, int root, int inplace, void *sbuf, void *rbuf,
                     long count, const int *counts, const int *displs, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm);

/* The composition engine (algos/compose/compose.c): runs the parts of
 * CS_COMPOSE row a on the call x (ctx: the context of x->comm, needed iff
 * the row is CS_NODE_AWARE). */
int cs_compose_run(const cs_algo_info *a, const cs_args *x, const cs_ctx *ctx);
/* The inner algorithm of collective coll in a decomposition (a part
 * COLL:inner of a composition row, or an inner collective of a lane or hier
 * kernel): the row COLLSIM_INNER names for coll ("allreduce:circulant,
 * reduce_scatter:pairring": COLLECTIVE:ALGORITHM items separated by commas;
 * one mechanism that the drivers, the PMPI library and the models all read,
 * since they all run the kernels), else the library's own (native). Returns
 * 0, or -1 with a sentence in err naming what is valid. */
int cs_inner_row(cs_coll coll, const cs_algo_info **row, char *err, size_t len);
/* The operation the library's collectives are handed (the native rows, on
 * their own or as the inner parts of a decomposition): NULL, the caller's;
 * the simulated bench driver sets it to one that maps its operation to a
 * copy that charges the library's reductions (sim/libcharge.h), so that the
 * library's work is charged wherever the library runs. */
extern MPI_Op (*cs_native_op)(MPI_Op op);
/* Whether inner row r serves op on dt (its CS_COMMUTATIVE and CS_ASSOCIATIVE;
 * op MPI_OP_NULL: not a reduction): 0, or -1 with a sentence in err. */
int cs_inner_usable(const cs_algo_info *r, MPI_Op op, MPI_Datatype dt, char *err, size_t len);
/* Whether row a's parts follow the rules of compose.c's header: 0, or -1
 * with a sentence in err that names the part and what is valid. */
int cs_compose_check(const cs_algo_info *a, char *err, size_t len);
/* The communicators of the kernel context (CS_CTX_NODES, CS_CTX_LANES,
 * CS_CTX_LEADERS: the lane of the call's root's local rank only, algos/ctx.h)
 * that row a reads, which a driver prepares before timing it: none for a row
 * without a context, the node's for a CS_NODES_ONLY kernel, node and lane for
 * any other node-aware kernel, and for a composition what its parts run on
 * (and what the rows of its parts on comm read). */
int cs_row_ctx_needs(const cs_algo_info *a);
/* cs_compose_check on every CS_COMPOSE row; prints one line per bad row to
 * f (if not NULL) and returns their number. */
int cs_compose_verify(FILE *f);
/* What the registry can only get wrong at run time, checked at start: the
 * composition rows (a kernel row without its kernel does not link). */
int cs_dispatch_verify(FILE *f);

#endif
