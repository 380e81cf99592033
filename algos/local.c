/* The local-work helper and buffer utilities shared by all kernels.
 *
 * In simulation (SMPI's mpi.h defines SMPI_H) every reduction and copy of b
 * bytes charges b flops (execute below): the platform gives each host a speed
 * of 1/gamma flop/s, so local work costs exactly gamma seconds per byte, run
 * after run (a calibrated platform's segments instead: local_flops). Local
 * work has a kind, reduction or copy (cs_work), because a copy may cost less
 * than a reduction. In the models' recording build (models/mpirec/mpi.h
 * defines CS_MPIREC_H) each charge is recorded as local work of b bytes of
 * its kind for the evaluator. On a real MPI library the helper only does the
 * work.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "pwcost.h"

#ifdef SMPI_H
#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
#include <xbt/config.h>
#include <xbt/dynar.h>
#endif

int cs_skip_compute = 0;
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

#ifdef SMPI_H
/* ---- calibrated local work (issue 10) ----------------------------------------
 * A platform written by `collsim calibrate` gives its hosts the property
 * CS_LOCAL_PROP: a reduction of b bytes costs cs_pw_eval(segments, b) seconds,
 * charged as that many seconds' worth of flops at the host's speed; and
 * CS_LOCAL_COPY_PROP, the same for a copy. Without a copy property a copy costs
 * what a reduction costs; without either (every other platform) b bytes are b
 * flops: gamma = 1 / speed per byte. The models price the same segments
 * (models/eval.c). Read once: every host of a collsim platform carries the same
 * values. */
static void read_pw(const char *prop, cs_pw *pw) {
  const char *v = sg_host_get_property_value(sg_host_self(), prop);
  if (v == NULL || cs_pw_parse(v, pw) != 0) pw->n = 0;
}
static double local_flops(double bytes, cs_work kind) {
  static int read;
  static cs_pw reduce, copy;
  if (!read) {
    read_pw(CS_LOCAL_PROP, &reduce);
    read_pw(CS_LOCAL_COPY_PROP, &copy);
    read = 1;
  }
  const cs_pw *pw = kind == CS_WORK_COPY && copy.n > 0 ? &copy : &reduce;
  return pw->n > 0 ? cs_pw_eval(pw, bytes) * sg_host_get_speed(sg_host_self()) : bytes;
}
#endif

/* ---- Batched charges (simulation only) -------------------------------------
 * One smpi_execute_flops call costs the simulator about as much as a message,
 * so charges are not made one by one: each process adds the flops of its
 * local work (local_flops) to its pending sum, and cs_local_flush charges the sum at once,
 * before the process's next communication (cs_sendrecv and every other
 * point-to-point call of a kernel) and when a kernel returns (the caller of
 * cs_run). Work between two communications runs back to back anyway, so the
 * simulated time is the same (byte counts are integers, summed exactly on
 * uncalibrated platforms; only the rounding of the clock's additions can differ, far below 1e-12
 * relative). The sums live in one array indexed by SimGrid actor id, grown
 * by whichever process needs more (simulated processes are coroutines of
 * one OS process and run one at a time, and nobody keeps an entry's address
 * across a yield; with SMPI's privatization each would make its own array).
 * Not the MPI rank: an MPI_Comm_rank costs SMPI about 480 instructions, and
 * this is asked twice per message (callgrind, 1024 ranks: 1.1k instructions
 * per message of 45k); the actor id is a read of the running context. */
#ifdef SMPI_H
static struct pending {
  double flops; /* the pending sum */
  int alone;    /* 1: the host has a core for each of its processes, 2: not, 0: unknown */
} * pending_of;
static size_t pending_n;

static struct pending *my_pending(void) {
  aid_t id = sg_actor_self_get_pid();
  if (id < 0) return NULL;
  if ((size_t)id >= pending_n) {
    int p = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    size_t n = pending_n * 2 > (size_t)p + 16 ? pending_n * 2 : (size_t)p + 16;
    if (n <= (size_t)id) n = (size_t)id + 1;
    struct pending *v = realloc(pending_of, n * sizeof *v);
    if (!v) return NULL;
    memset(v + pending_n, 0, (n - pending_n) * sizeof *v);
    pending_of = v;
    pending_n = n;
  }
  return &pending_of[id];
}

/* Charges f flops of local work to the calling process. smpi_execute_flops
 * runs an execution on the host's CPU model; where that execution cannot be
 * slowed (the host has at least as many cores as processes, so each gets a
 * whole core, and its speed is not reduced by an availability profile at the
 * moment) it lasts exactly f / speed, and a sleep of f / speed gives the same
 * end instant at about a third of the simulator's cost (measured: 14 us of
 * CPU per execution, 5 us per sleep, at 1024 ranks on theta). SimGrid
 * lengthens a sleep shorter than surf/precision to that precision, while an
 * execution that short ends at once: those (gamma = 0 makes every charge
 * about 1e-27 s) stay executions. alone caches the core count check per
 * process (processes do not move), and the host's user data per host: the
 * check lists the host's actors, O(processes per host) for each process (64
 * at 1024 ranks on theta: 0.8k instructions per message, callgrind). The
 * first check of a host is the one kept: processes only leave a host, so a
 * host with a core for each of its processes then always has one, and one
 * without runs executions, exact in every case. The sleep does not switch
 * SMPI's privatized data segments, which collsim never uses (-no-privatize). */
static const char host_alone[2] = {1, 2}; /* host user data: &host_alone[alone - 1] */
static int host_alone_of(sg_host_t h) {
  const void *d = sg_host_get_data(h);
  if (d == &host_alone[0] || d == &host_alone[1]) return *(const char *)d;
  xbt_dynar_t list = xbt_dynar_new(sizeof(sg_actor_t), NULL);
  sg_host_get_actor_list(h, list);
  int alone = (unsigned long)sg_host_core_count(h) >= xbt_dynar_length(list) ? 1 : 2;
  xbt_dynar_free(&list);
  if (d == NULL) sg_host_set_data(h, (void *)&host_alone[alone - 1]); /* else not ours */
  return alone;
}
static void execute(struct pending *pd, double f) {
  sg_host_t h = sg_host_self();
  if (pd && pd->alone == 0) pd->alone = host_alone_of(h);
  static double precision = -1;
  if (precision < 0) precision = sg_cfg_get_double("surf/precision");
  double t =
      pd && pd->alone == 1 && sg_host_get_available_speed(h) == 1.0 ? f / sg_host_get_speed(h) : 0;
  if (t >= precision)
    sg_actor_sleep_for(t);
  else
    smpi_execute_flops(f);
}
#endif

void cs_local_flush(void) {
#ifdef SMPI_H
  struct pending *pd = my_pending();
  if (pd && pd->flops > 0) {
    double f = pd->flops;
    pd->flops = 0;
    execute(pd, f);
  }
#endif
}

static void charge(double bytes, cs_work kind) {
#ifdef SMPI_H
  if (bytes <= 0) return;
  struct pending *pd = my_pending();
  if (pd)
    pd->flops += local_flops(bytes, kind); /* a sum of per-charge costs, as the models price them */
  else
    execute(NULL, local_flops(bytes, kind)); /* no memory for the sums: charge now */
#elif defined(CS_MPIREC_H)
  csrec_charge(bytes, kind);
#else
  (void)bytes;
  (void)kind;
#endif
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
  charge(bytes, CS_WORK_REDUCE);
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
  charge(bytes, kind);
  cs_local_flush();
}

void cs_charge_pending(double *pending) {
  charge(*pending, CS_WORK_REDUCE);
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
  charge((double)bytes, CS_WORK_COPY);
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

#ifdef SMPI_H
/* Shared buffers of simulated timing runs: their contents mean nothing
 * (SMPI_SHARED_MALLOC maps the same pages for every process and call), so
 * one mapping per slot serves every process and call: the kernels'
 * temporaries (CS_SCRATCH_TMP) and the harness's send and receive buffers.
 * Mapping one per call made the kernel's page-table work (MAP_POPULATE) up
 * to a third of the CPU at 1 MiB; mapping the harness's buffers once per
 * process cost three mmap calls, a populated MiB and an munmap per rank.
 * A slot grows by doubling and an outgrown mapping is kept (another process
 * may still be inside a kernel that uses it), so at most twice the largest
 * buffer is ever mapped. */
void *cs_shared_scratch(int slot, size_t bytes) {
  static struct {
    void *base;
    size_t size;
  } s[CS_SCRATCH_SLOTS];
  if (bytes > s[slot].size) {
    size_t size = s[slot].size ? s[slot].size : 4096;
    while (size < bytes) size *= 2;
    void *b = SMPI_SHARED_MALLOC(size);
    if (!b) return NULL;
    s[slot].base = b;
    s[slot].size = size;
  }
  return s[slot].base;
}
#endif

int cs_tmp_alloc(cs_tmp *t, long count, MPI_Datatype dt) {
  MPI_Aint lb, ext, tlb, text;
  MPI_Type_get_extent(dt, &lb, &ext);
  MPI_Type_get_true_extent(dt, &tlb, &text);
  size_t bytes = count > 0 ? (size_t)((count - 1) * ext + text) : 0;
  t->shared = 0;
#ifdef SMPI_H
  if (cs_shared_buffers && bytes > 0) {
    t->base = cs_shared_scratch(CS_SCRATCH_TMP, bytes);
    t->shared = 2; /* the one mapping: never freed */
  } else
#elif defined(CS_MPIREC_H)
  if (cs_shared_buffers && bytes > 0) {
    t->base = csrec_shared_malloc(bytes);
    t->shared = 1;
  } else
#endif
    t->base = malloc(bytes + 1);
  if (!t->base) return MPI_ERR_NO_MEM;
  t->buf = (char *)t->base - tlb;
  return MPI_SUCCESS;
}

void cs_tmp_free(cs_tmp *t) {
  if (!t->base) return;
#ifdef SMPI_H
  if (t->shared) {
    t->base = NULL;
    return;
  }
#elif defined(CS_MPIREC_H)
  if (t->shared) {
    csrec_shared_free(t->base);
    t->base = NULL;
    return;
  }
#endif
  free(t->base);
  t->base = NULL;
}

cs_layout cs_layout_regular(int p, long n) {
  cs_layout l = {CS_LAYOUT_REGULAR, p, n, -1, NULL, NULL};
  return l;
}
cs_layout cs_layout_even(int p, long total) {
  cs_layout l = {CS_LAYOUT_EVEN, p, total, -1, NULL, NULL};
  return l;
}
cs_layout cs_layout_single(int p, int block, long n) {
  cs_layout l = {CS_LAYOUT_SINGLE, p, n, block, NULL, NULL};
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
  cs_layout l = {CS_LAYOUT_ARRAYS, p, 0, -1, counts, displs};
  return l;
}

long cs_lcount(const cs_layout *l, int b) {
  switch (l->kind) {
  case CS_LAYOUT_REGULAR: return l->n;
  case CS_LAYOUT_EVEN: return l->n / l->p + (b < l->n % l->p ? 1 : 0);
  case CS_LAYOUT_SINGLE: return b == l->single ? l->n : 0;
  default: return l->counts[b];
  }
}

long cs_ldispl(const cs_layout *l, int b) {
  switch (l->kind) {
  case CS_LAYOUT_REGULAR: return (long)b * l->n;
  case CS_LAYOUT_EVEN: {
    long base = l->n / l->p, extra = l->n % l->p;
    return (long)b * base + (b < extra ? b : extra);
  }
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

int cs_sendrecv(const void *sbuf, long scount, MPI_Datatype stype, int dest, void *rbuf,
                long rcount, MPI_Datatype rtype, int src, MPI_Comm comm) {
  if (!cs_count_ok(scount > rcount ? scount : rcount, "a message")) return MPI_ERR_COUNT;
  if (scount == 0) dest = MPI_PROC_NULL;
  if (rcount == 0) src = MPI_PROC_NULL;
  if (dest == MPI_PROC_NULL && src == MPI_PROC_NULL) return MPI_SUCCESS;
  cs_local_flush();
  return MPI_Sendrecv(sbuf, (int)scount, stype, dest, CS_TAG, rbuf, (int)rcount, rtype, src, CS_TAG,
                      comm, MPI_STATUS_IGNORE);
}

int cs_sendrecv_views(const cs_view *s, int dest, const cs_view *r, int src, MPI_Comm comm) {
  return cs_sendrecv(s->buf, s->count, s->type, dest, r->buf, r->count, r->type, src, comm);
}
