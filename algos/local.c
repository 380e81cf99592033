/* The local-work helper and buffer utilities shared by all kernels.
 *
 * Every reduction and copy is counted here (cs_reduced_bytes,
 * cs_copied_bytes) and charged to the backend the kernels are linked with
 * (algos/backend.h): in simulation it costs gamma per byte of simulated
 * time (backends/smpi.c), in the models' recording build it is recorded as
 * local work of b bytes of its kind (backends/mpirec.c), on a real MPI
 * library it is only done (backends/mpi.c). Local work has a kind,
 * reduction or copy (cs_work), because a copy may cost less than a
 * reduction.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "kernel.h"

int cs_skip_compute = 0;
int cs_local_pending = 0;
int cs_shared_buffers = 0;
double cs_reduced_bytes = 0, cs_copied_bytes = 0;
int cs_count_quiet = 0;

int cs_count_ok(long count, const char *what) {
  if (count <= INT_MAX) return 1;
  if (!cs_count_quiet)
    fprintf(stderr,
            "collsim: %s of %ld elements exceeds the int count MPI takes (INT_MAX = %d); refused "
            "with MPI_ERR_COUNT\n",
            what, count, INT_MAX);
  return 0;
}

/* MPI_Type_size, without asking the library for the types benches and tests
 * use most (SMPI: about 100 instructions per call, a few calls per message). */
static int type_size(MPI_Datatype dt) {
  if (dt == MPI_BYTE || dt == MPI_CHAR || dt == MPI_UNSIGNED_CHAR) return 1;
  if (dt == MPI_INT) return (int)sizeof(int);
  if (dt == MPI_DOUBLE) return (int)sizeof(double);
  int size;
  MPI_Type_size(dt, &size);
  return size;
}

int cs_reduce_local(const void *in, void *inout, long count, MPI_Datatype dt, MPI_Op op) {
  if (count <= 0) return MPI_SUCCESS;
  if (!cs_count_ok(count, "a local reduction")) return MPI_ERR_COUNT;
  double bytes = (double)count * type_size(dt);
  cs_reduced_bytes += bytes;
  cs_backend_charge(bytes, CS_WORK_REDUCE);
  if (cs_skip_compute) return MPI_SUCCESS;
  return MPI_Reduce_local(in, inout, (int)count, dt, op);
}

int cs_reduce_local_deferred(const void *in, void *inout, long count, MPI_Datatype dt, MPI_Op op,
                             double *pending) {
  if (count <= 0) return MPI_SUCCESS;
  if (!cs_count_ok(count, "a local reduction")) return MPI_ERR_COUNT;
  double bytes = (double)count * type_size(dt);
  cs_reduced_bytes += bytes;
  *pending += bytes;
  if (cs_skip_compute) return MPI_SUCCESS;
  return MPI_Reduce_local(in, inout, (int)count, dt, op);
}

/* Work done inside the library (its reductions, through a charged
 * operation; its copies, sim/libcharge.c) is charged at once: no kernel
 * flushes between the library's own messages. */
void cs_charge_local(double bytes, cs_work kind) {
  cs_backend_charge(bytes, kind);
  cs_local_flush();
}

void cs_charge_pending(double *pending) {
  cs_backend_charge(*pending, CS_WORK_REDUCE);
  *pending = 0;
}

int cs_type_contiguous(MPI_Datatype dt) {
  MPI_Aint lb, ext, tlb, text;
  int size;
  MPI_Type_get_extent(dt, &lb, &ext);
  MPI_Type_get_true_extent(dt, &tlb, &text);
  MPI_Type_size(dt, &size);
  return lb == 0 && tlb == 0 && (MPI_Aint)size == ext && ext == text;
}

int cs_copy(const void *src, long scount, MPI_Datatype stype, void *dst, long rcount,
            MPI_Datatype rtype) {
  if (!cs_count_ok(scount > rcount ? scount : rcount, "a local copy")) return MPI_ERR_COUNT;
  long bytes = (long)scount * type_size(stype);
  if (bytes != (long)rcount * type_size(rtype)) return MPI_ERR_TRUNCATE;
  if (bytes == 0 || src == dst) return MPI_SUCCESS;
  cs_copied_bytes += (double)bytes;
  cs_backend_charge((double)bytes, CS_WORK_COPY);
  if (cs_skip_compute) return MPI_SUCCESS;
  if (stype == rtype && cs_type_contiguous(stype)) {
    memmove(dst, src, (size_t)bytes);
    return MPI_SUCCESS;
  }
  /* Type-correct copy through the MPI type engine: pack, then unpack. */
  int packsize, pos = 0;
  MPI_Pack_size((int)scount, stype, MPI_COMM_SELF, &packsize);
  void *pack = malloc((size_t)packsize + 1);
  if (!pack) return MPI_ERR_NO_MEM;
  int rc = MPI_Pack(src, (int)scount, stype, pack, packsize, &pos, MPI_COMM_SELF);
  if (rc == MPI_SUCCESS) {
    int upos = 0;
    rc = MPI_Unpack(pack, pos, &upos, dst, (int)rcount, rtype, MPI_COMM_SELF);
  }
  free(pack);
  return rc;
}

int cs_tmp_alloc(cs_tmp *t, long count, MPI_Datatype dt) {
  MPI_Aint lb, ext, tlb, text;
  MPI_Type_get_extent(dt, &lb, &ext);
  MPI_Type_get_true_extent(dt, &tlb, &text);
  size_t bytes = count > 0 ? (size_t)((count - 1) * ext + text) : 0;
  /* Timing runs: the backend's shared memory, where it has some. */
  t->base = cs_shared_buffers && bytes > 0 ? cs_backend_shared_tmp(bytes) : NULL;
  t->shared = t->base != NULL;
  if (!t->shared) t->base = malloc(bytes + 1);
  if (!t->base) return MPI_ERR_NO_MEM;
  t->buf = (char *)t->base - tlb;
  return MPI_SUCCESS;
}

void cs_tmp_free(cs_tmp *t) {
  if (!t->base) return;
  if (t->shared)
    cs_backend_shared_tmp_free(t->base);
  else
    free(t->base);
  t->base = NULL;
}

cs_layout cs_layout_regular(int p, long n) {
  cs_layout l = {CS_LAYOUT_REGULAR, p, n, -1, NULL, NULL, 0, 0};
  return l;
}
cs_layout cs_layout_even(int p, long total) {
  cs_layout l = {CS_LAYOUT_EVEN,       p, total, -1, NULL, NULL, p > 0 ? total / p : 0,
                 p > 0 ? total % p : 0};
  return l;
}
cs_layout cs_layout_single(int p, int block, long n) {
  cs_layout l = {CS_LAYOUT_SINGLE, p, n, block, NULL, NULL, 0, 0};
  return l;
}
static struct {
  const int *counts, *displs;
  int p;
  long total;
} declared;

void cs_layout_declare_even(const int counts[], const int displs[], int p, long total) {
  declared.counts = counts;
  declared.displs = displs;
  declared.p = p;
  declared.total = total;
}

int cs_layout_declared(const int counts[], int p) {
  return counts && counts == declared.counts && p == declared.p;
}

cs_layout cs_layout_arrays(int p, const int counts[], const int displs[]) {
  if (cs_layout_declared(counts, p) && (!displs || displs == declared.displs))
    return cs_layout_even(p, declared.total);
  cs_layout l = {CS_LAYOUT_ARRAYS, p, 0, -1, counts, displs, 0, 0};
  return l;
}

long cs_lcount(const cs_layout *l, int b) {
  switch (l->kind) {
  case CS_LAYOUT_REGULAR: return l->n;
  case CS_LAYOUT_EVEN: return l->base + (b < l->extra ? 1 : 0);
  case CS_LAYOUT_SINGLE: return b == l->single ? l->n : 0;
  default: return l->counts[b];
  }
}

long cs_ldispl(const cs_layout *l, int b) {
  switch (l->kind) {
  case CS_LAYOUT_REGULAR: return (long)b * l->n;
  case CS_LAYOUT_EVEN: return (long)b * l->base + (b < l->extra ? b : l->extra);
  case CS_LAYOUT_SINGLE: return 0;
  default: return l->displs[b];
  }
}

long cs_lsum(const cs_layout *l, int first, int n) {
  int p = l->p;
  if (n <= 0) return 0;
  if (l->kind == CS_LAYOUT_REGULAR) return (long)n * l->n;
  first = cs_mod(first, p);
  if (l->kind == CS_LAYOUT_EVEN) { /* displ(p) = total: at most two runs */
    if (first + n <= p) return cs_ldispl(l, first + n) - cs_ldispl(l, first);
    return l->n - cs_ldispl(l, first) + cs_ldispl(l, first + n - p);
  }
  if (l->kind == CS_LAYOUT_SINGLE) {
    int in = l->single >= first ? l->single - first < n : l->single + p - first < n;
    return in ? l->n : 0;
  }
  long s = 0;
  for (int i = 0; i < n; i++) s += cs_lcount(l, (first + i) % p);
  return s;
}

int cs_lpacked(const cs_layout *l, int first, int n) {
  if (l->kind != CS_LAYOUT_ARRAYS) return first + n <= l->p;
  long end = -1;
  for (int i = 0; i < n; i++) {
    int b = first + i;
    if (b >= l->p) return 0;
    if (l->counts[b] == 0) continue;
    if (end >= 0 && l->displs[b] != end) return 0;
    end = (long)l->displs[b] + l->counts[b];
  }
  return 1;
}

int cs_view_list(cs_view *v, void *base, MPI_Datatype dt, const cs_layout *l, const int blocks[],
                 int n) {
  MPI_Aint ext = cs_extent(dt);
  long total = 0, start = -1, end = 0;
  int contiguous = 1, m = 0;
  /* m counts pieces: blocks that follow each other in memory merge. */
  for (int i = 0; i < n; i++) {
    long c = cs_lcount(l, blocks[i]), d = cs_ldispl(l, blocks[i]);
    if (c == 0) continue;
    if (start < 0) {
      start = d;
      m++;
    } else if (d != end) {
      contiguous = 0;
      m++;
    }
    end = d + c;
    total += c;
  }
  v->derived = 0;
  v->type = dt;
  v->buf = base;
  v->count = 0;
  if (total == 0) return MPI_SUCCESS;
  if (!cs_count_ok(total, "a message (a view of blocks)")) return MPI_ERR_COUNT;
  if (contiguous) {
    v->buf = (char *)base + start * ext;
    v->count = (int)total;
    return MPI_SUCCESS;
  }
  if (cs_skip_compute) {
    /* Timing run, data not checked: the same number of bytes from the start
     * of the buffer (which holds all blocks) costs the same in simulation
     * and spares SMPI packing thousands of pieces into real memory. */
    v->buf = base;
    v->count = (int)total;
    return MPI_SUCCESS;
  }
  int *lens = malloc(sizeof(int) * (size_t)m);
  MPI_Aint *disp = malloc(sizeof(MPI_Aint) * (size_t)m);
  if (!lens || !disp) {
    free(lens);
    free(disp);
    return MPI_ERR_NO_MEM;
  }
  m = 0;
  end = -1;
  for (int i = 0; i < n; i++) {
    long c = cs_lcount(l, blocks[i]), d = cs_ldispl(l, blocks[i]);
    if (c == 0) continue;
    if (m > 0 && d == end) {
      lens[m - 1] += (int)c;
    } else {
      lens[m] = (int)c;
      disp[m] = (MPI_Aint)d * ext;
      m++;
    }
    end = d + c;
  }
  int rc = MPI_Type_create_hindexed(m, lens, disp, dt, &v->type);
  if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&v->type);
  free(lens);
  free(disp);
  v->count = 1;
  v->derived = (rc == MPI_SUCCESS);
  return rc;
}

int cs_view_range(cs_view *v, void *base, MPI_Datatype dt, const cs_layout *l, int first, int n) {
  int p = l->p;
  first = cs_mod(first, p);
  /* Back-to-back ranges (the common case) need no block list. */
  if (first + n <= p && cs_lpacked(l, first, n)) {
    long total = cs_lsum(l, first, n);
    if (!cs_count_ok(total, "a message (a view of blocks)")) return MPI_ERR_COUNT;
    v->derived = 0;
    v->type = dt;
    v->buf = base;
    v->count = (int)total;
    if (total > 0) {
      int b = first;
      while (cs_lcount(l, b) == 0) b++;
      v->buf = (char *)base + cs_ldispl(l, b) * cs_extent(dt);
    }
    return MPI_SUCCESS;
  }
  if (l->kind != CS_LAYOUT_ARRAYS && n <= p) {
    /* A wrapped range of a layout whose blocks lie back to back: two runs,
     * [first, p) and [0, rest), the pieces cs_view_list would find, in
     * O(1) instead of a list of n blocks (O(p) per rank and round made the
     * models of 131072 ranks quadratic). */
    int n1 = p - first;
    long t1 = cs_lsum(l, first, n1), t2 = cs_lsum(l, 0, n - n1);
    if (!cs_count_ok(t1 + t2, "a message (a view of blocks)")) return MPI_ERR_COUNT;
    MPI_Aint ext = cs_extent(dt);
    v->derived = 0;
    v->type = dt;
    v->buf = (char *)base + (t1 > 0 ? cs_ldispl(l, first) * ext : 0);
    v->count = (int)(t1 + t2);
    if (t1 == 0 || t2 == 0) return MPI_SUCCESS;
    if (cs_skip_compute) { /* as cs_view_list: the bytes from the start */
      v->buf = base;
      return MPI_SUCCESS;
    }
    int lens[2] = {(int)t1, (int)t2};
    MPI_Aint disp[2] = {cs_ldispl(l, first) * ext, 0};
    int rc = MPI_Type_create_hindexed(2, lens, disp, dt, &v->type);
    if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&v->type);
    v->buf = base;
    v->count = 1;
    v->derived = (rc == MPI_SUCCESS);
    return rc;
  }
  int *blocks = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  if (!blocks) return MPI_ERR_NO_MEM;
  for (int i = 0; i < n; i++) blocks[i] = (first + i) % p;
  int rc = cs_view_list(v, base, dt, l, blocks, n);
  free(blocks);
  return rc;
}

void cs_view_free(cs_view *v) {
  if (v->derived) MPI_Type_free(&v->type);
  v->derived = 0;
}

/* The exchange after flushing pending local work: apart from cs_sendrecv
 * (and never inlined) so that a message with nothing to flush, every message
 * of the backends that do not batch, runs without the stack frame a call
 * before MPI_Sendrecv needs (the models: 1% of their instructions at 131072
 * ranks, callgrind). */
__attribute__((noinline)) static int sendrecv_flushed(const void *sbuf, int scount,
                                                      MPI_Datatype stype, int dest, void *rbuf,
                                                      int rcount, MPI_Datatype rtype, int src,
                                                      MPI_Comm comm) {
  cs_local_flush();
  return MPI_Sendrecv(sbuf, scount, stype, dest, CS_TAG, rbuf, rcount, rtype, src, CS_TAG, comm,
                      MPI_STATUS_IGNORE);
}

int cs_sendrecv(const void *sbuf, long scount, MPI_Datatype stype, int dest, void *rbuf,
                long rcount, MPI_Datatype rtype, int src, MPI_Comm comm) {
  if (!cs_count_ok(scount > rcount ? scount : rcount, "a message")) return MPI_ERR_COUNT;
  if (scount == 0) dest = MPI_PROC_NULL;
  if (rcount == 0) src = MPI_PROC_NULL;
  if (dest == MPI_PROC_NULL && src == MPI_PROC_NULL) return MPI_SUCCESS;
  if (cs_local_pending)
    return sendrecv_flushed(sbuf, (int)scount, stype, dest, rbuf, (int)rcount, rtype, src, comm);
  return MPI_Sendrecv(sbuf, (int)scount, stype, dest, CS_TAG, rbuf, (int)rcount, rtype, src, CS_TAG,
                      comm, MPI_STATUS_IGNORE);
}

int cs_sendrecv_views(const cs_view *s, int dest, const cs_view *r, int src, MPI_Comm comm) {
  return cs_sendrecv(s->buf, s->count, s->type, dest, r->buf, r->count, r->type, src, comm);
}
