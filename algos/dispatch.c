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

int cs_run(const cs_algo_info *a, const cs_args *x) {
  const cs_fn f = fns[a->index];
  /* Only node-aware rows get (and pay for) a context; see CS_NODE_AWARE. */
  const cs_ctx *ctx = x->ctx;
  if (!ctx && (a->flags & CS_NODE_AWARE)) CS_CHECK(cs_ctx_get(x->comm, &ctx));
  if (a->flags & CS_COMMUTATIVE) {
    int commute = 1;
    MPI_Op_commutative(x->op, &commute);
    if (!commute) {
      int rank;
      MPI_Comm_rank(x->comm, &rank);
      if (rank == 0)
        fprintf(stderr,
                "collsim: %s/%s needs a commutative op; this op is not commutative "
                "(use an algorithm without that restriction, e.g. native)\n",
                cs_colls[a->coll].name, a->name);
      return MPI_ERR_OP;
    }
  }
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
