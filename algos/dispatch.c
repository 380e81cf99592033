/* The dispatcher: checks an algorithm's restrictions (registry data) and
 * calls its kernel with the arguments of its collective. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "collsim.h"
#include "kernel.h"

typedef union {
#define CS_COLL(id, Name, reduces, rooted, in_place, shape, size_from, init, call) \
  int(*id) CS_PARAMS_##id;
#include "colls.def"
#undef CS_COLL
} cs_fn;

/* The kernel of every CS_ALGO row, referred to strongly (collsim.h
 * declares them): a row whose kernel does not exist does not link
 * ("undefined reference to `cs_<collective>_<name>'"). CS_COMPOSE rows have
 * none (NULL here) and run the generic composition engine. */
static const cs_fn fns[CS_NALGO] = {
#define CS_ALGO(coll, name, family, flags, formula, ref) \
  [CS_A_##coll##_##name] = {.coll = cs_##coll##_##name},
#define CS_COMPOSE(coll, name, family, flags, formula, parts, ref)
#include "registry.def"
#undef CS_ALGO
#undef CS_COMPOSE
};

/* Once per process, collective and reason: the refusal messages (rank 0 of
 * the communicator prints them; every rank returns the class). */
enum { WHY_INVALID, WHY_COMMUTE, WHY_EXACT, WHY_N };
static unsigned char said[CS_NCOLL][WHY_N];

/* Refuses a call before anything is sent: one line on stderr (see above),
 * then the communicator's error handler, as the library does for an
 * erroneous call (MPI_ERRORS_ARE_FATAL aborts the job; MPI_ERRORS_RETURN
 * returns rc). */
static int refuse(const cs_algo_info *a, const cs_args *x, int rc, int why, const char *msg) {
  int rank;
  MPI_Comm_rank(x->comm, &rank);
  if (rank == 0 && !said[a->coll][why]) {
    said[a->coll][why] = 1;
    fprintf(stderr, "collsim: %s/%s: %s\n", cs_colls[a->coll].name, a->name, msg);
  }
  cs_backend_errhandler(x->comm, rc); /* MPI_Comm_call_errhandler, per backend */
  return rc;
}

/* MPI_SUCCESS if the call may run: valid, and within the row's
 * restrictions; else the refusal's code. Apart from run, so that its
 * buffers are not on the stack while the kernel runs (the models run p
 * ranks on one stack and copy each rank's used part at every block). */
static __attribute__((noinline)) int admit(const cs_algo_info *a, const cs_args *x) {
  char why[320], msg[640];
  /* The library's own collective checks its calls itself (and may differ
   * from MPI's table: sim/check.c reports that as a library deviation). */
  int rc = a->flags & CS_NATIVE ? MPI_SUCCESS : cs_validate(a->coll, x, why, sizeof why);
  if (rc != MPI_SUCCESS) {
    snprintf(msg, sizeof msg, "erroneous call: %s (refused before any communication)", why);
    return refuse(a, x, rc, WHY_INVALID, msg);
  }
  if (a->flags & CS_COMMUTATIVE) {
    int commute = 1;
    MPI_Op_commutative(x->op, &commute);
    if (!commute)
      return refuse(a, x, MPI_ERR_OP, WHY_COMMUTE,
                    "needs a commutative op; this op is not commutative "
                    "(use an algorithm without that restriction, e.g. native)");
  }
  if ((a->flags & CS_ASSOCIATIVE) && !cs_op_exact(x->op, x->dt)) {
    cs_op_inexact_why(x->op, x->dt, why, sizeof why);
    snprintf(msg, sizeof msg,
             "needs an op whose result does not depend on the order of evaluation (each rank "
             "reduces in its own order): %s, so the ranks could get different bits (use an "
             "algorithm of this collective without that restriction: collsim list)",
             why);
    return refuse(a, x, MPI_ERR_OP, WHY_EXACT, msg);
  }
  return MPI_SUCCESS;
}

/* The call of a kernel of collective C with x's arguments: one function
 * per collective, call_<C>, generated from the call column of its colls.def
 * row (MPI's arguments from x, in MPI's order), and their table. */
#define CS_COLL(id, Name, reduces, rooted, in_place, shape, size_from, init, call) \
  static int call_##id(cs_fn f, const cs_args *x, const cs_ctx *ctx) {             \
    return f.id(CS_UNPAREN call, ctx);                                             \
  }
#include "colls.def"
#undef CS_COLL

static int (*const callers[CS_NCOLL])(cs_fn, const cs_args *, const cs_ctx *) = {
#define CS_COLL(id, Name, reduces, rooted, in_place, shape, size_from, init, call) \
  [CS_##id] = call_##id,
#include "colls.def"
#undef CS_COLL
};

static int run(const cs_algo_info *a, const cs_args *x) {
  const cs_fn f = fns[a->index];
  CS_CHECK(admit(a, x));
  /* Only node-aware rows get (and pay for) a context; see CS_NODE_AWARE. */
  const cs_ctx *ctx = x->ctx;
  if (!ctx && (a->flags & CS_NODE_AWARE)) CS_CHECK(cs_ctx_get(x->comm, &ctx));
  if (a->parts[0]) return cs_compose_run(a, x, ctx);
  return callers[a->coll](f, x, ctx);
}

/* Every call of a kernel ends with its local work charged (algos/local.c
 * batches charges until the next message): whatever follows, a timed
 * repetition or a verification, starts with nothing pending. */
int cs_run(const cs_algo_info *a, const cs_args *x) {
  int rc = run(a, x);
  cs_local_flush();
  return rc;
}

int cs_dispatch_verify(FILE *f) { return cs_compose_verify(f); }

int cs_args_for_rank(cs_args *x, cs_coll coll, int r, int root, int inplace, void *sbuf, void *rbuf,
                     long count, const int *counts, const int *displs, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm) {
  memset(x, 0, sizeof *x);
  if (count < 0 || count > INT_MAX) return MPI_ERR_COUNT;
  x->sendbuf = inplace ? MPI_IN_PLACE : sbuf;
  x->recvbuf = rbuf;
  x->dt = x->sendtype = x->recvtype = dt;
  x->op = op;
  x->root = root;
  x->comm = comm;
  x->counts = counts;
  x->displs = displs;
  x->count = x->sendcount = x->recvcount = (int)count;
  /* The own block of a split data-movement collective (allgatherv,
   * gatherv: sent; scatterv: received). */
  const cs_coll_info *ci = &cs_colls[coll];
  if (ci->shape == CS_SHAPE_SPLIT && !ci->reduces) {
    if (ci->in_place == CS_IP_ROOT_RECV)
      x->recvcount = counts[r];
    else
      x->sendcount = counts[r];
  }
  /* Rooted collectives: MPI_IN_PLACE only at the root, where scatter(v)
   * takes it as recvbuf. */
  if (inplace && ci->in_place != CS_IP_ALL && r != root) x->sendbuf = sbuf;
  if (inplace && ci->in_place == CS_IP_ROOT_RECV && r == root) {
    x->sendbuf = sbuf;
    x->recvbuf = MPI_IN_PLACE;
  }
  if (coll == CS_bcast) x->recvbuf = sbuf;
  return MPI_SUCCESS;
}
