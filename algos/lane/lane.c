/* The shared part of the full-lane and hierarchical kernels (lane.h). */
#include "lane.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int cs_lanes_get(cs_lanes *L, const cs_ctx *ctx, MPI_Comm comm, cs_coll coll, const char *name,
                 const cs_coll colls[], int k, MPI_Op op, MPI_Datatype dt) {
  char err[768] = "";
  int rc = MPI_SUCCESS;
  memset(L, 0, sizeof *L);
  /* ROW@lib:SEL and the lists of rows that call collectives inside read
   * CS_INNER: a kernel that asks for inner rows must carry it. */
  const cs_algo_info *self = cs_algo_find(coll, name);
  if (!self || !(self->flags & CS_INNER)) {
    snprintf(err, sizeof err, "the row does not carry CS_INNER (registry.def)");
    rc = MPI_ERR_ARG;
  }
  for (int i = 0; i < k && rc == MPI_SUCCESS; i++) {
    if (cs_inner_row(colls[i], &L->row[colls[i]], err, sizeof err))
      rc = MPI_ERR_ARG;
    else if (cs_inner_usable(L->row[colls[i]], op, dt, err, sizeof err))
      rc = MPI_ERR_OP;
  }
  if (rc != MPI_SUCCESS) {
    int r;
    MPI_Comm_rank(comm, &r);
    if (r == 0)
      fprintf(stderr, "collsim: %s/%s is not supported: %s\n", cs_colls[coll].name, name, err);
    return rc;
  }
  if (!ctx) return MPI_ERR_ARG; /* the dispatcher gives node-aware rows a context */
  CS_CHECK(cs_ctx_nodecomm(ctx, &L->node));
  CS_CHECK(cs_ctx_lanecomm(ctx, &L->lane));
  L->n = ctx->ppn;
  L->nn = ctx->nnodes;
  L->me = ctx->local;
  L->my = ctx->node;
  return MPI_SUCCESS;
}

cs_args cs_lanes_args(MPI_Comm c, MPI_Datatype t) {
  cs_args y;
  memset(&y, 0, sizeof y);
  y.comm = c;
  y.dt = y.sendtype = y.recvtype = t;
  y.op = MPI_OP_NULL;
  return y;
}

int cs_lane_inner_run(const cs_lanes *L, cs_coll coll, cs_args *y) {
  y->ctx = NULL;
  return cs_run(L->row[coll], y);
}

int cs_lanes_vec(const cs_lanes *L, cs_coll coll, MPI_Comm on, int root, const void *sendbuf,
                 void *recvbuf, long count, MPI_Datatype dt, MPI_Op op) {
  if (!cs_count_ok(count, "a lane collective's vector")) return MPI_ERR_COUNT;
  cs_args y = cs_lanes_args(on, dt);
  y.op = op;
  y.root = root;
  y.sendbuf = sendbuf;
  y.recvbuf = recvbuf;
  y.count = (int)count;
  return cs_lane_inner_run(L, coll, &y);
}

int cs_lanes_strided(int nb, long count, long stride, long step, MPI_Datatype dt,
                     MPI_Datatype *out) {
  MPI_Datatype v;
  *out = MPI_DATATYPE_NULL;
  if (count > INT_MAX || stride > INT_MAX || (long)nb * stride > INT_MAX) {
    cs_count_ok(INT_MAX + 1L, "a lane block type"); /* prints why */
    return MPI_ERR_COUNT;
  }
  /* hindexed, not vector: the recording MPI of the models has hindexed. */
  int *lens = malloc(sizeof(int) * (size_t)(nb > 0 ? nb : 1));
  MPI_Aint *displs = malloc(sizeof(MPI_Aint) * (size_t)(nb > 0 ? nb : 1));
  int rc = lens && displs ? MPI_SUCCESS : MPI_ERR_NO_MEM;
  for (int i = 0; i < nb && rc == MPI_SUCCESS; i++) {
    lens[i] = (int)count;
    displs[i] = (MPI_Aint)i * stride * cs_extent(dt);
  }
  if (rc == MPI_SUCCESS) rc = MPI_Type_create_hindexed(nb, lens, displs, dt, &v);
  free(lens);
  free(displs);
  if (rc != MPI_SUCCESS) return rc;
  rc = MPI_Type_create_resized(v, 0, (MPI_Aint)step * cs_extent(dt), out);
  MPI_Type_free(&v);
  if (rc == MPI_SUCCESS) rc = MPI_Type_commit(out);
  return rc;
}

int cs_lanes_contig(long count, MPI_Datatype dt, MPI_Datatype *out) {
  *out = MPI_DATATYPE_NULL;
  if (!cs_count_ok(count, "a lane block type")) return MPI_ERR_COUNT;
  CS_CHECK(MPI_Type_contiguous((int)count, dt, out));
  return MPI_Type_commit(out);
}

void cs_lanes_free_type(MPI_Datatype *t) {
  if (*t != MPI_DATATYPE_NULL) MPI_Type_free(t);
}

int cs_lanes_rooted_init(cs_lanes_rooted *s, const cs_lanes *L, int root, const void *buf, long c,
                         MPI_Datatype dt, int hier) {
  int rl = root % L->n, rn = root / L->n;
  memset(s, 0, sizeof *s);
  s->place_type = s->near_type = MPI_DATATYPE_NULL;
  s->dt = dt;
  s->isroot = L->my == rn && L->me == rl;
  s->far = hier ? L->node : L->lane;
  s->far_root = hier ? rl : rn;
  s->near = hier ? L->lane : L->node;
  s->near_root = hier ? rn : rl;
  s->mid = hier ? L->me == rl : L->my == rn;
  s->near_runs = (hier ? L->nn : L->n) > 1;
  s->nb = hier ? L->n : L->nn;
  if (!s->isroot) return MPI_SUCCESS;
  MPI_Aint ext = cs_extent(dt);
  if (!hier) {
    s->place = (char *)buf + (MPI_Aint)rl * c * ext;
    s->place_count = 1;
    CS_CHECK(cs_lanes_strided(1, c, c, (long)L->n * c, dt, &s->place_type));
    return cs_lanes_strided(L->nn, c, (long)L->n * c, c, dt, &s->near_type);
  }
  s->place = (char *)buf + (MPI_Aint)rn * L->n * c * ext;
  s->place_count = (int)c;
  s->place_type = dt;
  return cs_lanes_contig((long)L->n * c, dt, &s->near_type);
}

void cs_lanes_rooted_free(cs_lanes_rooted *s) {
  if (s->place_type != s->dt) cs_lanes_free_type(&s->place_type);
  cs_lanes_free_type(&s->near_type);
}

int cs_lanes_rooted_empty(int root, MPI_Comm comm, int rootcount, int count, MPI_Datatype type) {
  int r, sz = 0;
  MPI_Comm_rank(comm, &r);
  if (r == root) return rootcount == 0;
  MPI_Type_size(type, &sz);
  return (long)count * sz == 0;
}

int cs_lanes_pack(const void *src, int nb, MPI_Aint sstep, MPI_Datatype s, void *dst,
                  MPI_Aint dstep, long dcount, MPI_Datatype dt) {
  int err = MPI_SUCCESS;
  for (int j = 0; j < nb && err == MPI_SUCCESS; j++)
    err = cs_copy((const char *)src + (MPI_Aint)j * sstep, 1, s, (char *)dst + (MPI_Aint)j * dstep,
                  dcount, dt);
  return err;
}
