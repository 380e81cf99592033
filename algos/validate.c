/* Validation of a collective call before any communication (cs_validate),
 * and what an op does on a datatype (cs_op_valid, cs_op_exact).
 *
 * Every kernel call path (the dispatcher cs_run, hence the compositions,
 * the drivers and the models; the PMPI library before it decides to serve a
 * call) checks a call here first, so that no kernel starts communicating on
 * a call that some process will refuse half-way (a local reduction with an
 * op the library does not define on the type used to fail on some ranks
 * only after messages were under way, and their peers waited forever).
 *
 * The checks and their error classes follow Open MPI 4.1's parameter checks
 * (ompi/mpi/c/<collective>.c, in the same order), on this process's
 * arguments only: an error that every process makes (an invalid op/type
 * pair, a negative count everywhere) is found by every process, before
 * anything is sent. An error in arguments that only one process gives
 * (a root or a count that differs between processes) is found by that
 * process only; as with the library, its peers then wait unless the error
 * handler aborts the job (MPI_ERRORS_ARE_FATAL, the default).
 *
 * The op/type table is MPI 4.0 Sec. 6.9.2 (predefined ops x type classes),
 * with two extensions that both libraries collsim runs on make (measured
 * with MPI_Reduce_local on every pair): MPI_CHAR counts as a C integer
 * (Open MPI 4.1 and SMPI 3.32 reduce it with every op but MINLOC/MAXLOC),
 * and the multi-language types MPI_AINT, MPI_OFFSET, MPI_COUNT also take
 * the logical ops. Open MPI 4.1 also reduces MPI_BYTE with MAX, MIN, SUM,
 * PROD, LAND, LOR and LXOR, which MPI (and SMPI) do not allow: the
 * dispatcher refuses those pairs with MPI_ERR_OP, as MPI says; the PMPI
 * library lets the library serve every call this table refuses, so an
 * application sees exactly the library's behaviour there. A predefined op
 * on a derived datatype is refused (MPI_ERR_OP), as both libraries do.
 * NULL buffers are not refused: MPI_BOTTOM is NULL in both libraries, and
 * a derived type with absolute addresses makes it a valid buffer.
 */
#include <stdio.h>
#include <string.h>

#include "collsim.h"
#include "kernel.h"

/* Type classes of MPI 4.0 Sec. 6.9.2 that C programs use (Fortran types
 * are K_NONE: predefined ops on them are refused here, so the PMPI library
 * leaves such calls to the library). */
enum { K_NONE, K_CINT, K_MULTI, K_FLOAT, K_LOGICAL, K_COMPLEX, K_BYTE, K_PAIR };

static int type_class(MPI_Datatype dt) {
#define K(dt_, k_) \
  if (dt == (dt_)) return k_
  K(MPI_INT, K_CINT);
  K(MPI_LONG, K_CINT);
  K(MPI_SHORT, K_CINT);
  K(MPI_UNSIGNED_SHORT, K_CINT);
  K(MPI_UNSIGNED, K_CINT);
  K(MPI_UNSIGNED_LONG, K_CINT);
  K(MPI_LONG_LONG, K_CINT);
  K(MPI_UNSIGNED_LONG_LONG, K_CINT);
  K(MPI_SIGNED_CHAR, K_CINT);
  K(MPI_UNSIGNED_CHAR, K_CINT);
  K(MPI_CHAR, K_CINT); /* an extension of Open MPI and SMPI: see above */
  K(MPI_INT32_T, K_CINT);
  K(MPI_INT64_T, K_CINT);
  K(MPI_UINT32_T, K_CINT);
  K(MPI_UINT64_T, K_CINT);
  K(MPI_FLOAT, K_FLOAT);
  K(MPI_DOUBLE, K_FLOAT);
  K(MPI_AINT, K_MULTI);
  K(MPI_BYTE, K_BYTE);
  K(MPI_INT8_T, K_CINT);
  K(MPI_INT16_T, K_CINT);
  K(MPI_UINT8_T, K_CINT);
  K(MPI_UINT16_T, K_CINT);
  K(MPI_LONG_DOUBLE, K_FLOAT);
  K(MPI_OFFSET, K_MULTI);
  K(MPI_COUNT, K_MULTI);
  K(MPI_C_BOOL, K_LOGICAL);
  K(MPI_C_FLOAT_COMPLEX, K_COMPLEX);
  K(MPI_C_DOUBLE_COMPLEX, K_COMPLEX);
  K(MPI_C_LONG_DOUBLE_COMPLEX, K_COMPLEX);
  K(MPI_2INT, K_PAIR);
  K(MPI_FLOAT_INT, K_PAIR);
  K(MPI_DOUBLE_INT, K_PAIR);
  K(MPI_LONG_INT, K_PAIR);
  K(MPI_SHORT_INT, K_PAIR);
  K(MPI_LONG_DOUBLE_INT, K_PAIR);
#undef K
  return K_NONE;
}

enum { O_USER, O_MAXMIN, O_SUMPROD, O_LOGICAL, O_BITWISE, O_LOC, O_OTHER };

static int op_kind(MPI_Op op) {
  if (op == MPI_MAX || op == MPI_MIN) return O_MAXMIN;
  if (op == MPI_SUM || op == MPI_PROD) return O_SUMPROD;
  if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return O_LOGICAL;
  if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return O_BITWISE;
  if (op == MPI_MAXLOC || op == MPI_MINLOC) return O_LOC;
  if (op == MPI_REPLACE || op == MPI_NO_OP) return O_OTHER; /* one-sided only */
  return O_USER;
}

int cs_op_valid(MPI_Op op, MPI_Datatype dt) {
  if (op == MPI_OP_NULL) return 0;
  int o = op_kind(op), k = type_class(dt);
  switch (o) {
  case O_USER: return 1;
  case O_MAXMIN: return k == K_CINT || k == K_MULTI || k == K_FLOAT;
  case O_SUMPROD: return k == K_CINT || k == K_MULTI || k == K_FLOAT || k == K_COMPLEX;
  case O_LOGICAL: return k == K_CINT || k == K_MULTI || k == K_LOGICAL;
  case O_BITWISE: return k == K_CINT || k == K_MULTI || k == K_BYTE;
  case O_LOC: return k == K_PAIR;
  default: return 0;
  }
}

int cs_op_exact(MPI_Op op, MPI_Datatype dt) {
  int o = op_kind(op), k = type_class(dt);
  if (o == O_USER) return 0; /* collsim cannot see whether a user function is */
  if (o == O_SUMPROD) return k != K_FLOAT && k != K_COMPLEX;
  return 1; /* integers wrap, logical/bitwise/min/max/loc are exact */
}

/* ---- the call ----------------------------------------------------------- */

#define FAIL(cls, ...)                        \
  do {                                        \
    if (why) snprintf(why, len, __VA_ARGS__); \
    return cls;                               \
  } while (0)

static long long tsize(MPI_Datatype dt) {
  int s = 0;
  MPI_Type_size(dt, &s);
  return s;
}

/* Send or receive side: a type and a count (Open MPI's
 * OMPI_CHECK_DATATYPE_FOR_SEND/RECV). */
static int side(MPI_Datatype dt, long long count, const char *what, char *why, size_t len) {
  if (dt == MPI_DATATYPE_NULL) FAIL(MPI_ERR_TYPE, "%s type is MPI_DATATYPE_NULL", what);
  if (count < 0) FAIL(MPI_ERR_COUNT, "%s count %lld is negative", what, count);
  return MPI_SUCCESS;
}

static int counts_ok(const int *counts, int p, const char *what, char *why, size_t len) {
  if (!counts) FAIL(MPI_ERR_COUNT, "%s is NULL", what);
  if (cs_layout_declared(counts, p)) return MPI_SUCCESS; /* an even split: O(1) at 10^6 ranks */
  for (int i = 0; i < p; i++)
    if (counts[i] < 0) FAIL(MPI_ERR_COUNT, "%s[%d] = %d is negative", what, i, counts[i]);
  return MPI_SUCCESS;
}

/* The type signatures of the own block must agree on both sides (a
 * mismatch would fail in a local copy, possibly after messages). */
static int same_bytes(long long sc, MPI_Datatype st, long long rc, MPI_Datatype rt, char *why,
                      size_t len) {
  if (sc * tsize(st) != rc * tsize(rt))
    FAIL(MPI_ERR_TRUNCATE,
         "this process's own block is %lld bytes by its send arguments but %lld bytes by its "
         "receive arguments (the type signatures must match)",
         sc * tsize(st), rc * tsize(rt));
  return MPI_SUCCESS;
}

static const char *op_name(MPI_Op op) {
#define N(o) \
  if (op == o) return #o
  N(MPI_MAX);
  N(MPI_MIN);
  N(MPI_SUM);
  N(MPI_PROD);
  N(MPI_LAND);
  N(MPI_LOR);
  N(MPI_LXOR);
  N(MPI_BAND);
  N(MPI_BOR);
  N(MPI_BXOR);
  N(MPI_MAXLOC);
  N(MPI_MINLOC);
  N(MPI_REPLACE);
  N(MPI_NO_OP);
#undef N
  return "a user op";
}

static int reduction_op(MPI_Op op, MPI_Datatype dt, char *why, size_t len) {
  if (op == MPI_OP_NULL) FAIL(MPI_ERR_OP, "the op is MPI_OP_NULL");
  if (!cs_op_valid(op, dt)) {            /* Open MPI: MPI_ERR_OP for MPI_DATATYPE_NULL too */
    char tn[128] = "a derived datatype"; /* >= MPI_MAX_OBJECT_NAME (64 in both libraries) */
    int n = 0;
    if (type_class(dt) != K_NONE && MPI_MAX_OBJECT_NAME <= (int)sizeof tn)
      MPI_Type_get_name(dt, tn, &n);
    FAIL(MPI_ERR_OP,
         "%s is not defined on %s (MPI 4.0 Sec. 6.9.2: the predefined ops take the predefined "
         "types of their classes only)",
         op_name(op), tn);
  }
  return MPI_SUCCESS;
}

#define CHECK(e)                        \
  do {                                  \
    int rc_ = (e);                      \
    if (rc_ != MPI_SUCCESS) return rc_; \
  } while (0)

/* MPI's checks of each collective, one function per collective reached
 * through a table generated from algos/colls.def (a collective without its
 * function does not compile): validate_<C>(coll, x, p, r, why, len), on
 * this process's arguments; the root's range is checked before them. */
typedef int validate_fn(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len);
#define IP MPI_IN_PLACE

static int validate_allreduce(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll, (void)p, (void)r;
  CHECK(reduction_op(x->op, x->dt, why, len));
  if (x->recvbuf == IP) FAIL(MPI_ERR_BUFFER, "MPI_IN_PLACE as recvbuf");
  if (x->sendbuf == x->recvbuf && x->count > 1)
    FAIL(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
  return side(x->dt, x->count, "the", why, len);
}

static int validate_reduce(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll;
  const int isroot = r == x->root;
  CHECK(reduction_op(x->op, x->dt, why, len));
  if (!isroot && x->sendbuf == IP)
    FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as sendbuf on a process that is not the root");
  if (isroot && x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  if (isroot && x->sendbuf == x->recvbuf && x->count != 0)
    FAIL(MPI_ERR_ARG, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
  CHECK(side(x->dt, x->count, "the", why, len));
  if (x->root < 0 || x->root >= p)
    FAIL(MPI_ERR_ROOT, "root %d is not a rank of the communicator (0 .. %d)", x->root, p - 1);
  return MPI_SUCCESS;
}

static int validate_reduce_scatter_block(cs_coll coll, const cs_args *x, int p, int r, char *why,
                                         size_t len) {
  (void)coll, (void)p, (void)r;
  CHECK(reduction_op(x->op, x->dt, why, len));
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  return side(x->dt, x->count, "the", why, len);
}

static int validate_reduce_scatter(cs_coll coll, const cs_args *x, int p, int r, char *why,
                                   size_t len) {
  (void)coll, (void)r;
  CHECK(reduction_op(x->op, x->dt, why, len));
  if (!x->counts) FAIL(MPI_ERR_COUNT, "recvcounts is NULL");
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  CHECK(counts_ok(x->counts, p, "recvcounts", why, len));
  return side(x->dt, 0, "the", why, len);
}

static int validate_scan(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll, (void)p, (void)r;
  if (x->op == MPI_OP_NULL) FAIL(MPI_ERR_OP, "the op is MPI_OP_NULL");
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  CHECK(reduction_op(x->op, x->dt, why, len));
  return side(x->dt, x->count, "the", why, len);
}

static int validate_exscan(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_scan(coll, x, p, r, why, len);
}

/* allgather and alltoall: the same checks, in Open MPI's order. */
static int validate_allgather(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll, (void)p, (void)r;
  CHECK(side(x->recvtype, x->recvcount, "the receive", why, len));
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  if (x->sendbuf != IP) {
    CHECK(side(x->sendtype, x->sendcount, "the send", why, len));
    CHECK(same_bytes(x->sendcount, x->sendtype, x->recvcount, x->recvtype, why, len));
  }
  return MPI_SUCCESS;
}

static int validate_alltoall(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_allgather(coll, x, p, r, why, len);
}

static int validate_allgatherv(cs_coll coll, const cs_args *x, int p, int r, char *why,
                               size_t len) {
  (void)coll;
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  if (x->recvtype == MPI_DATATYPE_NULL) FAIL(MPI_ERR_TYPE, "the receive type is MPI_DATATYPE_NULL");
  if (x->sendbuf != IP) CHECK(side(x->sendtype, x->sendcount, "the send", why, len));
  CHECK(counts_ok(x->counts, p, "recvcounts", why, len));
  if (!x->displs) FAIL(MPI_ERR_BUFFER, "displs is NULL");
  if (x->sendbuf != IP)
    CHECK(same_bytes(x->sendcount, x->sendtype, x->counts[r], x->recvtype, why, len));
  return MPI_SUCCESS;
}

/* gather(v) and scatter(v): the side every process has (gather: send,
 * scatter: receive) and the root's side, which MPI_IN_PLACE may replace at
 * the root only. */
static int validate_gather(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  const int isroot = r == x->root;
  const int gat = cs_colls[coll].in_place != CS_IP_ROOT_RECV;
  const int vec = cs_colls[coll].shape == CS_SHAPE_SPLIT;
  const void *own = gat ? x->sendbuf : x->recvbuf, *at_root = gat ? x->recvbuf : x->sendbuf;
  MPI_Datatype ot = gat ? x->sendtype : x->recvtype, rt = gat ? x->recvtype : x->sendtype;
  long long oc = gat ? x->sendcount : x->recvcount, rc = gat ? x->recvcount : x->sendcount;
  const char *oname = gat ? "the send" : "the receive", *rname = gat ? "the receive" : "the send";
  if ((!isroot && own == IP) || (isroot && at_root == IP))
    FAIL(MPI_ERR_ARG, "MPI_IN_PLACE %s",
         isroot ? "where the root's data must be" : "on a process that is not the root");
  if (own != IP) CHECK(side(ot, oc, oname, why, len));
  if (!isroot) return MPI_SUCCESS;
  if (vec) {
    if (!x->displs) FAIL(MPI_ERR_ARG, "displs is NULL");
    CHECK(counts_ok(x->counts, p, gat ? "recvcounts" : "sendcounts", why, len));
    CHECK(side(rt, 0, rname, why, len));
    rc = x->counts[r];
  } else {
    CHECK(side(rt, rc, rname, why, len));
  }
  return own != IP ? same_bytes(oc, ot, rc, rt, why, len) : MPI_SUCCESS;
}

static int validate_gatherv(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_gather(coll, x, p, r, why, len);
}
static int validate_scatter(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_gather(coll, x, p, r, why, len);
}
static int validate_scatterv(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_gather(coll, x, p, r, why, len);
}

static int validate_bcast(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll, (void)p, (void)r;
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as the buffer");
  return side(x->dt, x->count, "the", why, len);
}

static validate_fn *const validators[CS_NCOLL] = {
#define CS_COLL(id, Name, reduces, rooted, in_place, shape, size_from, init, call) \
  [CS_##id] = validate_##id,
#include "colls.def"
#undef CS_COLL
};

int cs_validate(cs_coll coll, const cs_args *x, char *why, size_t len) {
  int p, r;
  MPI_Comm_size(x->comm, &p);
  MPI_Comm_rank(x->comm, &r);
  if (why && len) why[0] = '\0';
  if (cs_colls[coll].rooted && (x->root < 0 || x->root >= p) && coll != CS_reduce) {
    /* Open MPI checks the root first for these (after MPI_IN_PLACE, which
     * a root out of range cannot make wrong on a non-root): on the buffer
     * that MPI_IN_PLACE may replace at the root. */
    const int ip = cs_colls[coll].in_place;
    if (ip == CS_IP_ROOT && x->sendbuf == IP)
      FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as sendbuf on a process that is not the root");
    if (ip == CS_IP_ROOT_RECV && x->recvbuf == IP)
      FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf on a process that is not the root");
    if (ip == CS_IP_NONE && x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as the buffer");
    FAIL(MPI_ERR_ROOT, "root %d is not a rank of the communicator (0 .. %d)", x->root, p - 1);
  }
  return validators[coll](coll, x, p, r, why, len);
}
