/* The kernel context (see ctx.h): node and lane structure of a communicator,
 * computed once and cached on the communicator. */
#include "ctx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topo.h"

/* The tag of the context's own messages. */
#define CTX_TAG 7412

/* One keyval for all communicators. Under smpirun -no-privatize all
 * simulated processes share it; they run one at a time, so the first one
 * creates it. */
static int ctx_key = MPI_KEYVAL_INVALID;

/* SMPI 3.32 keeps ONE attribute table for MPI_COMM_WORLD, shared by all
 * simulated processes (measured: what the last process set is what every
 * process gets), while the attributes of every other communicator are
 * private to the process. So on MPI_COMM_WORLD the attribute holds a table
 * of contexts indexed by rank (on a real MPI library each process has its
 * own table, of which it uses its own slot); it lives until MPI_Finalize. */
static int world_key = MPI_KEYVAL_INVALID;

static int ctx_delete(MPI_Comm comm, int key, void *val, void *extra) {
  (void)comm, (void)key, (void)extra;
  cs_ctx *c = val;
  if (c->lanecomm != MPI_COMM_NULL) MPI_Comm_free(&c->lanecomm);
  if (c->leaderscomm != MPI_COMM_NULL) MPI_Comm_free(&c->leaderscomm);
  if (c->nodecomm != MPI_COMM_NULL && c->nodecomm != MPI_COMM_SELF) MPI_Comm_free(&c->nodecomm);
  free(c);
  return MPI_SUCCESS;
}

/* The node key of this process and a check value that must agree on all
 * processes with that key. */
static int node_key(cs_ctx *c, int *key, int *check) {
  int vn = cs_topo_vnode_env();
  if (vn > 0) {
    int w;
    int rc = MPI_Comm_rank(MPI_COMM_WORLD, &w);
    if (rc != MPI_SUCCESS) return rc;
    c->vnode = vn;
    *key = *check = w / vn;
    return MPI_SUCCESS;
  }
  char name[MPI_MAX_PROCESSOR_NAME + 1];
  int len = 0;
  memset(name, 0, sizeof name);
  int rc = MPI_Get_processor_name(name, &len);
  if (rc != MPI_SUCCESS) return rc;
  name[len < 0 ? 0 : len > MPI_MAX_PROCESSOR_NAME ? MPI_MAX_PROCESSOR_NAME : len] = '\0';
  *key = cs_topo_node_key(name);
  *check = cs_topo_name_check(name);
  return MPI_SUCCESS;
}

#ifndef CS_MPIREC_H
/* The minimum of v[0 .. 1] over comm: a binomial reduce to rank 0 and a
 * binomial broadcast from it, 2 (p - 1) messages of two ints in all (a
 * butterfly or dissemination would send p log2 p, and SMPI simulates each
 * message). Not a kernel: drivers skip the arithmetic of kernels
 * (cs_skip_compute) in timing runs. */
static int ctx_min(const cs_ctx *c, int v[2]) {
  const int r = c->rank, p = c->size;
  int rc = MPI_SUCCESS, mask = 1;
  for (; mask < p && rc == MPI_SUCCESS; mask <<= 1) {
    if (r & mask) {
      rc = MPI_Send(v, 2, MPI_INT, r - mask, CTX_TAG, c->comm);
      break;
    }
    int got[2];
    if (r + mask < p) {
      rc = MPI_Recv(got, 2, MPI_INT, r + mask, CTX_TAG, c->comm, MPI_STATUS_IGNORE);
      for (int i = 0; i < 2 && rc == MPI_SUCCESS; i++)
        if (got[i] < v[i]) v[i] = got[i];
    }
  }
  /* mask: the lowest set bit of r (rank 0: a power of two >= p) */
  if (r > 0 && rc == MPI_SUCCESS)
    rc = MPI_Recv(v, 2, MPI_INT, r - mask, CTX_TAG, c->comm, MPI_STATUS_IGNORE);
  for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
    if (r + mask < p) rc = MPI_Send(v, 2, MPI_INT, r + mask, CTX_TAG, c->comm);
  return rc;
}

/* The usual placement, found with O(log p) messages per process: nodes are
 * blocks of n consecutive ranks whose keys increase from block to block
 * (collsim's hosts node<N> in rank order, virtual nodes of MPI_COMM_WORLD).
 * Each process gets its left neighbour's key and name check (one
 * exchange); the smallest rank > 0 that starts a block is n; one more
 * minimum agrees that the blocks start exactly at the multiples of n, that
 * n divides p, that the names agree within a block and that the keys
 * increase. Increasing keys are distinct, so the blocks are exactly the
 * classes of equal keys: what MPI_Comm_split finds (ctx_create), which
 * costs SMPI 3.32 time quadratic in p (its root gathers with a linear
 * gather and waits on the p requests by a waitany per completion), as does
 * the library's MPI_Allreduce under SMPI's default selector (a linear
 * reduce); at 16384 ranks on bluewaters these were a third of a NAP run's
 * wall time. *n: the block size if the placement is such, else 0. */
static int ctx_blocks(const cs_ctx *c, int key, int check, int *n) {
  const int r = c->rank, p = c->size;
  int mine[2] = {key, check}, left[2] = {key, check};
  *n = 0;
  int rc =
      MPI_Sendrecv(mine, 2, MPI_INT, r + 1 < p ? r + 1 : MPI_PROC_NULL, CTX_TAG, left, 2, MPI_INT,
                   r > 0 ? r - 1 : MPI_PROC_NULL, CTX_TAG, c->comm, MPI_STATUS_IGNORE);
  int start = r == 0 || left[0] != key;
  int v[2] = {start && r > 0 ? r : p, 1};
  if (rc == MPI_SUCCESS) rc = ctx_min(c, v);
  if (rc != MPI_SUCCESS) return rc;
  const int b = v[0];
  int w[2] = {
      p % b == 0 && start == (r % b == 0) && (start ? r == 0 || left[0] < key : left[1] == check),
      1};
  rc = ctx_min(c, w);
  if (rc == MPI_SUCCESS && w[0]) *n = b;
  return rc;
}
#endif

static int ctx_create(MPI_Comm comm, cs_ctx **out) {
  cs_ctx *c = calloc(1, sizeof *c);
  if (!c) return MPI_ERR_NO_MEM;
  c->comm = comm;
  c->nodecomm = MPI_COMM_NULL;
  c->lanecomm = MPI_COMM_NULL;
  c->leaderscomm = MPI_COMM_NULL;
  c->leaders_of = -1;
  MPI_Comm split = MPI_COMM_NULL;
  MPI_Comm_size(comm, &c->size);
  MPI_Comm_rank(comm, &c->rank);
  int key = 0, check = 0, rc = node_key(c, &key, &check), blocks = 0;
#ifndef CS_MPIREC_H /* the models' recording MPI prices messages, not MPI_Comm_split */
  if (rc == MPI_SUCCESS) rc = ctx_blocks(c, key, check, &blocks);
#endif
  if (rc == MPI_SUCCESS && blocks > 0) {
    c->regular = 1;
    c->min_ppn = c->max_ppn = c->ppn = blocks;
    c->nnodes = c->found_nodes = c->size / blocks;
    c->node = c->rank / blocks;
    c->local = c->rank % blocks;
    *out = c;
    return MPI_SUCCESS;
  }
  /* The processes of my node, in rank order. This communicator only serves
   * to learn the topology and is freed below: under SMPI every communicator
   * costs each process memory proportional to the number of processes of
   * the job, so nodecomm is made again only when a kernel asks for it. */
  if (rc == MPI_SUCCESS) rc = MPI_Comm_split(comm, key, c->rank, &split);
  int n = 1, local = 0;
  if (rc == MPI_SUCCESS) {
    MPI_Comm_size(split, &n);
    MPI_Comm_rank(split, &local);
  }
  /* On the node: do all names agree (no hash collision), and which rank
   * comes first (the node is consecutive iff each process sits at
   * first + local)? */
  int in[3] = {check, -check, -c->rank}, nodewide[3] = {0, 0, 0};
  if (rc == MPI_SUCCESS) rc = MPI_Allreduce(in, nodewide, 3, MPI_INT, MPI_MAX, split);
  int collision = nodewide[0] != -nodewide[1];
  int consecutive = c->rank - local == -nodewide[2];
  /* Over comm: the largest and smallest node size, any collision, any
   * node that is not consecutive. */
  int mine[4] = {n, -n, collision, !consecutive}, all[4] = {0, 0, 0, 0};
  if (rc == MPI_SUCCESS) rc = MPI_Allreduce(mine, all, 4, MPI_INT, MPI_MAX, comm);
  c->max_ppn = all[0];
  c->min_ppn = -all[1];
  c->regular = all[0] == -all[1] && !all[2] && !all[3];
  if (rc == MPI_SUCCESS && c->regular) {
    c->found_nodes = c->size / n;
  } else if (rc == MPI_SUCCESS) {
    int first = local == 0;
    rc = MPI_Allreduce(&first, &c->found_nodes, 1, MPI_INT, MPI_SUM, comm);
  }
  if (split != MPI_COMM_NULL) MPI_Comm_free(&split);
  if (rc != MPI_SUCCESS) {
    free(c);
    return rc;
  }
  if (c->regular) {
    c->ppn = n;
    c->nnodes = c->size / n;
    c->node = c->rank / n;
    c->local = local;
  } else {
    /* Every decomposition stays correct: one process per "node". */
    c->nodecomm = MPI_COMM_SELF;
    c->ppn = 1;
    c->nnodes = c->size;
    c->node = c->rank;
    c->local = 0;
  }
  *out = c;
  return MPI_SUCCESS;
}

/* The attribute on MPI_COMM_WORLD: the contexts by rank. */
typedef struct {
  int p;
  cs_ctx *ctx[];
} world_table;

/* Frees the table and the contexts in it, without an MPI call: SMPI may
 * delete MPI_COMM_WORLD's attributes once, outside any simulated process,
 * when the simulation ends, and the recording MPI of the models deletes
 * each rank's own table when the rank ends (which pricing thousands of
 * cases leaked until now: p tables of p slots per case). The node and lane
 * communicators a context made are left to the end of the run. */
static int world_delete(MPI_Comm comm, int key, void *val, void *extra) {
  (void)comm, (void)key, (void)extra;
  world_table *t = val;
  for (int r = 0; t && r < t->p; r++) free(t->ctx[r]);
  free(t);
  return MPI_SUCCESS;
}

static int world_get(const cs_ctx **ctx) {
  int rc, p, r;
  if (world_key == MPI_KEYVAL_INVALID) {
    rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, world_delete, &world_key, NULL);
    if (rc != MPI_SUCCESS) return rc;
  }
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  world_table *table = NULL;
  int flag = 0;
  rc = MPI_Comm_get_attr(MPI_COMM_WORLD, world_key, &table, &flag);
  if (rc != MPI_SUCCESS) return rc;
  if (!flag) {
    table = calloc(1, sizeof *table + (size_t)p * sizeof table->ctx[0]);
    if (!table) return MPI_ERR_NO_MEM;
    table->p = p;
    rc = MPI_Comm_set_attr(MPI_COMM_WORLD, world_key, table);
    if (rc != MPI_SUCCESS) {
      free(table);
      return rc;
    }
  }
  if (!table->ctx[r]) {
    rc = ctx_create(MPI_COMM_WORLD, &table->ctx[r]);
    if (rc != MPI_SUCCESS) return rc;
  }
  *ctx = table->ctx[r];
  return MPI_SUCCESS;
}

int cs_ctx_get(MPI_Comm comm, const cs_ctx **ctx) {
  int rc;
  if (comm == MPI_COMM_WORLD) return world_get(ctx);
  if (ctx_key == MPI_KEYVAL_INVALID) {
    rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, ctx_delete, &ctx_key, NULL);
    if (rc != MPI_SUCCESS) return rc;
  }
  void *val = NULL;
  int flag = 0;
  rc = MPI_Comm_get_attr(comm, ctx_key, &val, &flag);
  if (rc != MPI_SUCCESS) return rc;
  if (flag) {
    *ctx = val;
    return MPI_SUCCESS;
  }
  cs_ctx *c;
  rc = ctx_create(comm, &c);
  if (rc != MPI_SUCCESS) return rc;
  rc = MPI_Comm_set_attr(comm, ctx_key, c);
  if (rc != MPI_SUCCESS) {
    ctx_delete(comm, ctx_key, c, NULL);
    return rc;
  }
  *ctx = c;
  return MPI_SUCCESS;
}

/* The communicator of the count processes first, first + stride, ... of
 * c->comm (a node or a lane of a regular context), which is MPI_Comm_split's
 * with (color, key) = (the class, the order within it), on its members;
 * MPI_COMM_NULL on the others, which call too (member = 0). Made by the
 * group's members alone (MPI_Comm_create_group; the others return at once):
 * SMPI 3.32 then sends nothing but the new communicator's id on it, where
 * its MPI_Comm_split gathers every process's color on one and costs time
 * quadratic in the size of c->comm (ctx_blocks). The models' recording MPI
 * has no groups: it splits, the others with MPI_UNDEFINED. */
static int ctx_comm_range(const cs_ctx *c, int first, int count, int stride, int member, int color,
                          int key, MPI_Comm *out) {
#ifdef CS_MPIREC_H
  (void)first, (void)count, (void)stride;
  return MPI_Comm_split(c->comm, member ? color : MPI_UNDEFINED, key, out);
#else
  (void)color, (void)key;
  *out = MPI_COMM_NULL;
  if (!member) return MPI_SUCCESS;
  MPI_Group all, sub = MPI_GROUP_NULL;
  int range[1][3] = {{first, first + (count - 1) * stride, stride}};
  int rc = MPI_Comm_group(c->comm, &all);
  if (rc != MPI_SUCCESS) return rc;
  rc = MPI_Group_range_incl(all, 1, range, &sub);
  MPI_Group_free(&all);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_create_group(c->comm, sub, CTX_TAG, out);
  if (sub != MPI_GROUP_NULL) MPI_Group_free(&sub);
  return rc;
#endif
}

int cs_ctx_nodecomm(const cs_ctx *ctx, MPI_Comm *nodecomm) {
  /* The context lives in memory the attribute owns; only the cached
   * communicators change after creation. */
  cs_ctx *c = (cs_ctx *)ctx;
  if (c->nodecomm == MPI_COMM_NULL) {
    int rc = ctx_comm_range(c, c->node * c->ppn, c->ppn, 1, 1, c->node, c->local, &c->nodecomm);
    if (rc != MPI_SUCCESS) {
      c->nodecomm = MPI_COMM_NULL;
      return rc;
    }
  }
  *nodecomm = c->nodecomm;
  return MPI_SUCCESS;
}

int cs_ctx_lanecomm(const cs_ctx *ctx, MPI_Comm *lanecomm) {
  /* The context lives in memory the attribute owns; only this cache field
   * changes after creation. */
  cs_ctx *c = (cs_ctx *)ctx;
  if (c->lanecomm == MPI_COMM_NULL) {
    int rc = c->regular ? ctx_comm_range(c, c->local, c->nnodes, c->ppn, 1, c->local, c->node,
                                         &c->lanecomm)
                        : MPI_Comm_dup(c->comm, &c->lanecomm);
    if (rc != MPI_SUCCESS) {
      c->lanecomm = MPI_COMM_NULL;
      return rc;
    }
  }
  *lanecomm = c->lanecomm;
  return MPI_SUCCESS;
}

int cs_ctx_leaderscomm(const cs_ctx *ctx, int root, MPI_Comm *leaders) {
  cs_ctx *c = (cs_ctx *)ctx; /* only the cached communicators change */
  const int lead = c->regular ? root % c->ppn : 0, member = c->local == lead;
  *leaders = MPI_COMM_NULL;
  /* The lane communicator, where made, is made on every process (its cache
   * state is the same on all of them, as the split below needs). */
  if (c->lanecomm != MPI_COMM_NULL) {
    if (member) *leaders = c->lanecomm;
    return MPI_SUCCESS;
  }
  if (c->leaders_of != lead) {
    if (c->leaderscomm != MPI_COMM_NULL) MPI_Comm_free(&c->leaderscomm);
    int rc = c->regular ? ctx_comm_range(c, lead, c->nnodes, c->ppn, member, lead, c->node,
                                         &c->leaderscomm)
                        : MPI_Comm_dup(c->comm, &c->leaderscomm);
    if (rc != MPI_SUCCESS) {
      c->leaderscomm = MPI_COMM_NULL;
      c->leaders_of = -1;
      return rc;
    }
    c->leaders_of = lead;
  }
  *leaders = c->leaderscomm;
  return MPI_SUCCESS;
}

int cs_ctx_prepare_root(MPI_Comm comm, int what, int root) {
  const cs_ctx *c;
  int rc = cs_ctx_get(comm, &c);
  MPI_Comm nc, lc, ld;
  if (rc == MPI_SUCCESS && (what & CS_CTX_NODES)) rc = cs_ctx_nodecomm(c, &nc);
  if (rc == MPI_SUCCESS && (what & CS_CTX_LANES)) rc = cs_ctx_lanecomm(c, &lc);
  if (rc == MPI_SUCCESS && (what & CS_CTX_LEADERS) && !(what & CS_CTX_LANES))
    rc = cs_ctx_leaderscomm(c, root, &ld);
  return rc;
}

int cs_ctx_prepare(MPI_Comm comm, int what) { return cs_ctx_prepare_root(comm, what, 0); }
