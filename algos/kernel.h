/* What every collsim kernel may use besides MPI point-to-point: the one
 * local-work helper (reductions and copies, which charge gamma per byte in
 * simulation), temporary buffers, and views of block ranges in user buffers.
 * Nothing here tells a kernel whether it runs under SMPI or a real MPI.
 */
#ifndef COLLSIM_KERNEL_H
#define COLLSIM_KERNEL_H

#include <mpi.h>

#include "ctx.h"
#include "pwcost.h"
#include "sched.h"

/* Counts. Inside kernels element counts and byte totals are long (or
 * MPI_Aint); every helper that hands a count to MPI, which takes an int
 * (cs_view_*, cs_sendrecv, cs_copy, cs_reduce_local), refuses a count above
 * INT_MAX with MPI_ERR_COUNT and one line on stderr naming it, instead of
 * truncating it. cs_count_ok is that check; what names the operation. */
int cs_count_ok(long count, const char *what);
/* Set by tests that provoke the refusal on purpose: no message. */
extern int cs_count_quiet;

/* Message tag of all collsim kernels (one collective at a time per
 * communicator, as MPI requires for blocking collectives). */
#define CS_TAG 7411

#define CS_CHECK(call)                        \
  do {                                        \
    int cs_rc_ = (call);                      \
    if (cs_rc_ != MPI_SUCCESS) return cs_rc_; \
  } while (0)

/* Run-time switches of the local-work helper, set by the driver:
 * skip_compute: charge the cost of local work but do not do it (timing runs
 * whose data are not checked); shared_buffers: temporary buffers come from
 * the backend's shared memory (algos/backend.h: SMPI_SHARED_MALLOC in
 * simulation, the recorder's in the models; no effect on real MPI). */
extern int cs_skip_compute;
extern int cs_shared_buffers;

/* Counters of the local work done by this process (bytes), for tests and
 * for holding the models against the kernels. */
extern double cs_reduced_bytes, cs_copied_bytes;

/* inout[i] = in[i] op inout[i] for count elements (MPI_Reduce_local). */
int cs_reduce_local(const void *in, void *inout, long count, MPI_Datatype dt, MPI_Op op);

/* The same for many small blocks in a row: the gamma charge of the bytes is
 * added to *pending and charged at once by cs_charge_pending (in
 * simulation one charge is one simulator call, and thousands of 128-byte
 * blocks per rank made the charges dominate the wall time). */
int cs_reduce_local_deferred(const void *in, void *inout, long count, MPI_Datatype dt, MPI_Op op,
                             double *pending);
void cs_charge_pending(double *pending);

/* Charges local work of `bytes` bytes of a kind (cs_work of pwcost.h: a
 * reduction or a copy) as every kernel's work of that kind is charged (gamma
 * per byte in simulation, or the platform's segments), at once; for work done
 * elsewhere: the MPI library's reductions (a charged operation) and copies
 * (its Datatype::copy), sim/libcharge.h. */
void cs_charge_local(double bytes, cs_work kind);
/* In simulation, charges are batched per process (backends/smpi.c): this
 * charges what is pending. Called before every communication of a kernel
 * (cs_sendrecv does it; a kernel that calls MPI point-to-point directly
 * calls it first) and by whoever calls a kernel, when it returns. Inline: a
 * test of cs_local_pending, the number of processes with work pending
 * (always 0 on the backends that do not batch: the recorder, real MPI), so
 * that a message pays no call where there is nothing to flush (the models:
 * 2% of their instructions at 131072 ranks, callgrind). */
extern int cs_local_pending;
void cs_backend_flush(void); /* algos/backend.h */
static inline void cs_local_flush(void) {
  if (cs_local_pending) cs_backend_flush();
}
/* rc = cs_flushed(MPI_Send(...)): charges what is pending, then calls. */
#define cs_flushed(call) (cs_local_flush(), (call))

/* 1 iff elements of dt lie back to back with no gaps and no lower bound,
 * so that count elements are count * size plain bytes. */
int cs_type_contiguous(MPI_Datatype dt);

/* Type-correct local copy of scount elements of stype into rcount elements
 * of rtype (type signatures must match, as for a message). */
int cs_copy(const void *src, long scount, MPI_Datatype stype, void *dst, long rcount,
            MPI_Datatype rtype);

/* A temporary buffer that can hold count elements of dt laid out as in a
 * user buffer (extent apart). buf may be used as an MPI buffer. */
typedef struct {
  char *buf;
  void *base;
  int shared;
} cs_tmp;
int cs_tmp_alloc(cs_tmp *t, long count, MPI_Datatype dt);
/* A buffer of at least `bytes` whose contents mean nothing, one per slot for
 * all processes and calls, never freed: SMPI_SHARED_MALLOC in simulation
 * (backends/smpi.c); NULL on the other backends (they have no such memory). */
enum { CS_SCRATCH_TMP, CS_SCRATCH_SEND, CS_SCRATCH_RECV, CS_SCRATCH_SLOTS };
void *cs_shared_scratch(int slot, size_t bytes);
void cs_tmp_free(cs_tmp *t);

/* The layout of p blocks in a user buffer: block b has count(b) elements
 * at element displacement displ(b). Regular and evenly split layouts need
 * no O(p) arrays (8192-rank simulations keep every process small). */
enum { CS_LAYOUT_REGULAR, CS_LAYOUT_EVEN, CS_LAYOUT_SINGLE, CS_LAYOUT_ARRAYS };
typedef struct {
  int kind, p;
  long n;     /* REGULAR: elements per block; EVEN: total; SINGLE: count of block `single` */
  int single; /* SINGLE: the only non-empty block, at displacement 0 */
  const int *counts, *displs; /* ARRAYS */
  long base, extra;           /* EVEN: n / p and n % p, computed once (cs_layout_even): the
                                 models' recorder asks for block sizes millions of times */
} cs_layout;

cs_layout cs_layout_regular(int p, long n);
cs_layout cs_layout_even(int p, long total);
cs_layout cs_layout_single(int p, int block, long n);
/* Blocks given by arrays (counts and displs of MPI's v-collectives). If
 * the arrays are the ones a driver declared an even split
 * (cs_layout_declare_even), the even layout, whose sums are O(1), with
 * displs NULL allowed: the model driver at 10^6 ranks would otherwise sum
 * O(p) counts per block range, O(p^2) in all. */
cs_layout cs_layout_arrays(int p, const int counts[], const int displs[]);
/* Declares counts and displs (of p entries, cs_split_even(total, p)) as
 * an even split until declared otherwise (counts NULL: nothing declared).
 * The caller keeps them unchanged meanwhile. */
void cs_layout_declare_even(const int counts[], const int displs[], int p, long total);
/* Whether counts (of p entries) are declared so (then none is negative). */
int cs_layout_declared(const int counts[], int p);
long cs_lcount(const cs_layout *l, int b);
long cs_ldispl(const cs_layout *l, int b);
/* Sum of count((first + i) mod p) for i in [0, n). */
long cs_lsum(const cs_layout *l, int first, int n);
/* True iff blocks first .. first+n-1 (no wrap) lie back to back in order. */
int cs_lpacked(const cs_layout *l, int first, int n);

/* A message description (buf, count, type) of a list of blocks of a user
 * buffer. Blocks that lie back to back are described by the element type
 * itself; others by an hindexed derived type (no copy). */
typedef struct {
  void *buf;
  int count;
  MPI_Datatype type;
  int derived;
} cs_view;
/* n blocks first, first+1, ... (indices mod p). */
int cs_view_range(cs_view *v, void *base, MPI_Datatype dt, const cs_layout *l, int first, int n);
/* n blocks given by a list. */
int cs_view_list(cs_view *v, void *base, MPI_Datatype dt, const cs_layout *l, const int blocks[],
                 int n);
void cs_view_free(cs_view *v);

/* Exchange with MPI_Sendrecv; a zero-sized side talks to MPI_PROC_NULL so
 * that no message is sent at all. */
int cs_sendrecv(const void *sbuf, long scount, MPI_Datatype stype, int dest, void *rbuf,
                long rcount, MPI_Datatype rtype, int src, MPI_Comm comm);
int cs_sendrecv_views(const cs_view *s, int dest, const cs_view *r, int src, MPI_Comm comm);

/* The butterfly allreduce (algos/butterfly/allreduce.c), in place, among
 * the first g ranks of comm (the others return at once). */
int cs_allreduce_butterfly_first(void *buf, int count, MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                                 int g);

/* Circulant gather to root (algos/circulant/rooted.c); block: bytes per
 * block, -1 (sizes in header messages) or -2 (layout l known everywhere);
 * prepacked (non-roots, may be NULL): a malloc'ed buffer already holding the
 * own block packed, which the gather takes over (no copy). */
int cs_gather_core(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                   const cs_layout *l, MPI_Datatype rtype, int root, MPI_Comm comm, long block,
                   void *prepacked);
/* ceilhalf = 0: circulant allgather; 1: ceil-halving allgather. */
int cs_allgather_core(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                      const cs_layout *l, MPI_Datatype dt, MPI_Comm comm, int ceilhalf);

/* ---- Pieces: what compositions are made of (algos/compose/compose.c) ----
 * A piece is a collective on a cs_layout that every process knows, with one
 * signature per kind, so that a composition can take any registered
 * algorithm of that kind. The piece of registry row (C, name) is the function
 * cs_piece_C_name; compose.c finds them through a table generated from
 * registry.def (rows without a piece have NULL there).
 *
 * reduce_scatter: reduces the input vector in (laid out by l) over all
 *   processes; this process's block (count(r) elements) lands at out. in may
 *   be out's buffer (inplace = 1, MPI_IN_PLACE): the input is read before out
 *   is written. Commutative ops only.
 * allgatherv: every process's block goes to its place in recvbuf (layout l);
 *   sendbuf (scount elements of stype) is the own block, or MPI_IN_PLACE when
 *   it is already in place.
 * gatherv: as allgatherv, to root only; prepacked (non-roots, may be NULL): a
 *   malloc'ed buffer already holding the own block packed (MPI_PACKED bytes
 *   of scount elements of stype), which the piece takes over and frees. */
typedef int (*cs_piece_rs_fn)(const void *in, void *out, const cs_layout *l, MPI_Datatype dt,
                              MPI_Op op, MPI_Comm comm, int inplace, const cs_ctx *ctx);
typedef int (*cs_piece_ag_fn)(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                              const cs_layout *l, MPI_Datatype dt, MPI_Comm comm,
                              const cs_ctx *ctx);
typedef int (*cs_piece_gv_fn)(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                              const cs_layout *l, MPI_Datatype rtype, int root, MPI_Comm comm,
                              void *prepacked, const cs_ctx *ctx);
/* The public entry of a reduce-scatter kernel from its piece: regular blocks of
 * recvcount elements (recvcounts NULL: reduce_scatter_block) or recvcounts[]
 * laid out back to back (reduce_scatter); MPI_IN_PLACE as the MPI standard
 * says. Every reduce-scatter family's two entries are this one function. */
int cs_piece_rs_entry(cs_piece_rs_fn piece, const void *sendbuf, void *recvbuf, int recvcount,
                      const int recvcounts[], MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                      const cs_ctx *ctx);
/* Defines a family's cs_reduce_scatter_block_FAM and cs_reduce_scatter_FAM
 * from its piece cs_piece_reduce_scatter_FAM. */
#define CS_RS_ENTRIES(fam)                                                                         \
  int cs_reduce_scatter_block_##fam(const void *sendbuf, void *recvbuf, int recvcount,             \
                                    MPI_Datatype dt, MPI_Op op, MPI_Comm comm,                     \
                                    const cs_ctx *ctx) {                                           \
    return cs_piece_rs_entry(cs_piece_reduce_scatter_##fam, sendbuf, recvbuf, recvcount, NULL, dt, \
                             op, comm, ctx);                                                       \
  }                                                                                                \
  int cs_reduce_scatter_##fam(const void *sendbuf, void *recvbuf, const int recvcounts[],          \
                              MPI_Datatype dt, MPI_Op op, MPI_Comm comm, const cs_ctx *ctx) {      \
    return cs_piece_rs_entry(cs_piece_reduce_scatter_##fam, sendbuf, recvbuf, 0, recvcounts, dt,   \
                             op, comm, ctx);                                                       \
  }
#define CS_PIECE_PARAMS_reduce_scatter                                                       \
  (const void *in, void *out, const cs_layout *l, MPI_Datatype dt, MPI_Op op, MPI_Comm comm, \
   int inplace, const cs_ctx *ctx)
#define CS_PIECE_PARAMS_allgatherv                                                         \
  (const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, const cs_layout *l, \
   MPI_Datatype dt, MPI_Comm comm, const cs_ctx *ctx)
#define CS_PIECE_PARAMS_gatherv                                                            \
  (const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, const cs_layout *l, \
   MPI_Datatype rtype, int root, MPI_Comm comm, void *prepacked, const cs_ctx *ctx)
int cs_piece_reduce_scatter_circulant CS_PIECE_PARAMS_reduce_scatter;
int cs_piece_reduce_scatter_ceilhalf CS_PIECE_PARAMS_reduce_scatter;
int cs_piece_reduce_scatter_butterfly CS_PIECE_PARAMS_reduce_scatter;
int cs_piece_reduce_scatter_pairring CS_PIECE_PARAMS_reduce_scatter;
int cs_piece_allgatherv_circulant CS_PIECE_PARAMS_allgatherv;
int cs_piece_allgatherv_ceilhalf CS_PIECE_PARAMS_allgatherv;
int cs_piece_allgatherv_butterfly CS_PIECE_PARAMS_allgatherv;
int cs_piece_allgatherv_pairring CS_PIECE_PARAMS_allgatherv;
int cs_piece_gatherv_circulant CS_PIECE_PARAMS_gatherv;
int cs_piece_gatherv_toroot CS_PIECE_PARAMS_gatherv;

static inline MPI_Aint cs_extent(MPI_Datatype dt) {
  MPI_Aint lb, ext;
  MPI_Type_get_extent(dt, &lb, &ext);
  return ext;
}

static inline int cs_mod(long a, int p) {
  long r = a % p;
  return (int)(r < 0 ? r + p : r);
}

#endif
