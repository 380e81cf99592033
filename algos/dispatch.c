/* The dispatcher: checks an algorithm's restrictions (registry data) and
 * calls its kernel with the arguments of its collective. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "collsim.h"
#include "kernel.h"

typedef union {
#define CS_COLL(id, mpi, reduces, rooted, inplace) int(*id) CS_PARAMS_##id;
#include "colls.def"
#undef CS_COLL
} cs_fn;

/* The kernel of every row; a composition row has none (weak references
 * resolve to NULL) and runs the generic composition instead. */
#define CS_ALGO(coll, name, family, flags, formula, parts, ref) \
  int cs_##coll##_##name CS_PARAMS_##coll __attribute__((weak));
#include "registry.def"
#undef CS_ALGO

static const cs_fn fns[] = {
#define CS_ALGO(coll, name, family, flags, formula, parts, ref) {.coll = cs_##coll##_##name},
#include "registry.def"
#undef CS_ALGO
};

/* Once per process, collective and reason: the refusal messages (rank 0 of
 * the communicator prints them; every rank returns the class). */
enum { WHY_INVALID, WHY_COMMUTE, WHY_EXACT, WHY_N };
static unsigned char said[CS_NCOLL][WHY_N];

/* MPI_Comm_call_errhandler(comm, rc). SMPI 3.32's crashes (SIGSEGV) for
 * the predefined handlers, so there they are done here: MPI_ERRORS_RETURN
 * returns, MPI_ERRORS_ARE_FATAL aborts the job (MPI_Abort, as the handler
 * would), a user handler is called by SMPI. The models' recording MPI has
 * no error handlers: errors just return. */
static void call_errhandler(MPI_Comm comm, int rc) {
#if defined(CS_MPIREC_H)
  (void)comm;
  (void)rc;
#elif defined(SMPI_H)
  MPI_Errhandler eh;
  if (MPI_Comm_get_errhandler(comm, &eh) != MPI_SUCCESS) return;
  if (eh == MPI_ERRORS_RETURN) return;
  if (eh == MPI_ERRORS_ARE_FATAL) {
    char s[MPI_MAX_ERROR_STRING] = "";
    int n = 0, rank = 0;
    MPI_Error_string(rc, s, &n);
    MPI_Comm_rank(comm, &rank);
    fprintf(stderr, "collsim: rank %d: %s: MPI_ERRORS_ARE_FATAL: aborting the job\n", rank, s);
    MPI_Abort(comm, rc);
    return;
  }
  MPI_Comm_call_errhandler(comm, rc);
#else
  MPI_Comm_call_errhandler(comm, rc);
#endif
}

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
  call_errhandler(x->comm, rc);
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

static int run(const cs_algo_info *a, const cs_args *x) {
  const cs_fn f = fns[a->index];
  CS_CHECK(admit(a, x));
  /* Only node-aware rows get (and pay for) a context; see CS_NODE_AWARE. */
  const cs_ctx *ctx = x->ctx;
  if (!ctx && (a->flags & CS_NODE_AWARE)) CS_CHECK(cs_ctx_get(x->comm, &ctx));
  if (a->parts[0]) {
    if (a->coll == CS_allreduce)
      return cs_compose_allreduce(a, x->sendbuf, x->recvbuf, x->count, x->dt, x->op, x->comm, ctx);
    if (a->coll == CS_reduce)
      return cs_compose_reduce(a, x->sendbuf, x->recvbuf, x->count, x->dt, x->op, x->root, x->comm,
                               ctx);
  }
  if (!f.allreduce) { /* any member: they share the pointer */
    int rank;
    MPI_Comm_rank(x->comm, &rank);
    if (rank == 0)
      fprintf(stderr, "collsim: %s/%s has neither a kernel nor parts with a composition\n",
              cs_colls[a->coll].name, a->name);
    return MPI_ERR_ARG;
  }
  switch (a->coll) {
  case CS_allreduce:
    return f.allreduce(x->sendbuf, x->recvbuf, x->count, x->dt, x->op, x->comm, ctx);
  case CS_reduce:
    return f.reduce(x->sendbuf, x->recvbuf, x->count, x->dt, x->op, x->root, x->comm, ctx);
  case CS_reduce_scatter_block:
    return f.reduce_scatter_block(x->sendbuf, x->recvbuf, x->count, x->dt, x->op, x->comm, ctx);
  case CS_reduce_scatter:
    return f.reduce_scatter(x->sendbuf, x->recvbuf, x->counts, x->dt, x->op, x->comm, ctx);
  case CS_allgather:
    return f.allgather(x->sendbuf, x->sendcount, x->sendtype, x->recvbuf, x->recvcount, x->recvtype,
                       x->comm, ctx);
  case CS_allgatherv:
    return f.allgatherv(x->sendbuf, x->sendcount, x->sendtype, x->recvbuf, x->counts, x->displs,
                        x->recvtype, x->comm, ctx);
  case CS_gather:
    return f.gather(x->sendbuf, x->sendcount, x->sendtype, x->recvbuf, x->recvcount, x->recvtype,
                    x->root, x->comm, ctx);
  case CS_gatherv:
    return f.gatherv(x->sendbuf, x->sendcount, x->sendtype, x->recvbuf, x->counts, x->displs,
                     x->recvtype, x->root, x->comm, ctx);
  case CS_scatter:
    return f.scatter(x->sendbuf, x->sendcount, x->sendtype, x->recvbuf, x->recvcount, x->recvtype,
                     x->root, x->comm, ctx);
  case CS_scatterv:
    return f.scatterv(x->sendbuf, x->counts, x->displs, x->sendtype, x->recvbuf, x->recvcount,
                      x->recvtype, x->root, x->comm, ctx);
  case CS_bcast: return f.bcast(x->recvbuf, x->count, x->dt, x->root, x->comm, ctx);
  case CS_scan: return f.scan(x->sendbuf, x->recvbuf, x->count, x->dt, x->op, x->comm, ctx);
  case CS_exscan: return f.exscan(x->sendbuf, x->recvbuf, x->count, x->dt, x->op, x->comm, ctx);
  default: return MPI_ERR_ARG;
  }
}

/* Every call of a kernel ends with its local work charged (algos/local.c
 * batches charges until the next message): whatever follows, a timed
 * repetition or a verification, starts with nothing pending. */
int cs_run(const cs_algo_info *a, const cs_args *x) {
  int rc = run(a, x);
  cs_local_flush();
  return rc;
}

int cs_dispatch_verify(FILE *f) {
  int bad = cs_compose_verify(f);
  for (int i = 0; i < cs_nalgos; i++)
    if (!cs_algos[i].parts[0] && !fns[i].allreduce) {
      if (f)
        fprintf(f, "collsim: registry row %s/%s has no kernel cs_%s_%s and no parts\n",
                cs_colls[cs_algos[i].coll].name, cs_algos[i].name, cs_colls[cs_algos[i].coll].name,
                cs_algos[i].name);
      bad++;
    }
  return bad;
}

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
  switch (coll) {
  case CS_allgatherv:
  case CS_gatherv: x->sendcount = counts[r]; break;
  case CS_scatterv: x->recvcount = counts[r]; break;
  default: break;
  }
  /* Rooted collectives: MPI_IN_PLACE only at the root, where scatter(v)
   * takes it as recvbuf. */
  if (inplace && cs_colls[coll].in_place == 2 && r != root) x->sendbuf = sbuf;
  if (inplace && (coll == CS_scatter || coll == CS_scatterv) && r == root) {
    x->sendbuf = sbuf;
    x->recvbuf = MPI_IN_PLACE;
  }
  if (coll == CS_bcast) x->recvbuf = sbuf;
  return MPI_SUCCESS;
}
