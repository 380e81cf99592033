/* The model driver: runs a registered kernel on the p ranks of a case under
 * the recording MPI (models/mpirec/) and hands every rank's recorded
 * exchanges and local work to the evaluator. No per-algorithm code: what is
 * priced is what the kernel does.
 *
 * The arguments of each rank are built exactly as the timing driver builds
 * them (sim/bench.c, run_size() and call()) for MPI_BYTE data and MPI_BOR:
 * m bytes mean a vector of m elements (allreduce, reduce, ...), blocks of
 * floor(m / p) elements (reduce_scatter_block, allgather, gather, scatter),
 * or m elements split evenly by cs_split_even (reduce_scatter and the
 * v-collectives). As in simulated timing runs, buffers are shared by all
 * ranks (csrec_shared_malloc, like SMPI_SHARED_MALLOC) and local work is
 * charged but not done (cs_skip_compute).
 */
#define _GNU_SOURCE /* MADV_POPULATE_WRITE */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../algos/collsim.h"
#include "../algos/ctx.h"
#include "../algos/kernel.h"
#include "../algos/sizes.h"
#include "mpirec/mpirec.h"
#include "record.h"

typedef struct {
  const cs_algo_info *a;
  const cs_case *c;
  void *sbuf, *rbuf;
  int *counts, *displs;
  int count;
} drive;

/* Virtual space reserved for one recording's chunks (nothing is committed
 * until used): 2^38 bytes hold 1.7e10 steps. */
#define ARENA_BYTES (1UL << 38)
/* Pages are populated ahead of the chunks handed out, half as many as
 * before (a small case populates little), between these bounds. */
#define POPULATE_MIN (64UL << 10)
#define POPULATE_MAX (8UL << 20)

/* The arena of the last programs freed, kept with its pages for the next:
 * pricing thousands of small cases (test_model_table, sweeps) maps and
 * populates none again. */
static struct {
  char *arena;
  size_t populated;
} spare;

#define BIG_BYTES (4UL << 20)

void *cs_big_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  size_t bytes = n * size;
  if (bytes < BIG_BYTES) return calloc(n ? n : 1, size ? size : 1);
  void *a = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (a == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
  madvise(a, bytes, MADV_HUGEPAGE); /* advice only: without THP, 4 KiB pages */
#endif
  return a;
}

void cs_big_free(void *a, size_t n, size_t size) {
  if (!a) return;
  if (n * size < BIG_BYTES)
    free(a);
  else
    munmap(a, n * size);
}

int cs_prog_init(cs_prog *g, int p) {
  memset(g, 0, sizeof *g);
  g->p = p;
  g->r = cs_big_calloc((size_t)p, sizeof(cs_rprog));
  g->size = ARENA_BYTES;
  if (spare.arena) {
    g->arena = spare.arena;
    g->populated = spare.populated;
    spare.arena = NULL;
  } else {
    void *a = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    g->arena = a == MAP_FAILED ? NULL : a;
#ifdef MADV_HUGEPAGE
    /* Huge pages: the arena is populated ahead in bulk anyway, and a
     * program is read back a step at a time in the evaluator's sweeps. */
    if (g->arena) madvise(g->arena, ARENA_BYTES, MADV_HUGEPAGE);
#endif
  }
  if (!g->r || !g->arena) {
    cs_prog_free(g);
    return -1;
  }
  return 0;
}

void cs_prog_free(cs_prog *g) {
  cs_big_free(g->r, (size_t)g->p, sizeof(cs_rprog));
  free(g->big);
  g->big = NULL;
  g->nbig = g->capbig = 0;
  if (g->arena && !spare.arena) {
    spare.arena = g->arena;
    spare.populated = g->populated;
  } else if (g->arena) {
    munmap(g->arena, g->size);
  }
  g->r = NULL;
  g->arena = NULL;
}

void cs_populate_ahead(char *base, size_t size, size_t *populated, size_t end) {
  if (end <= *populated) return;
  /* Without MADV_POPULATE_WRITE (Linux < 5.14) the pages fault in on use. */
  size_t n = *populated / 2;
  if (n < POPULATE_MIN) n = POPULATE_MIN;
  if (n > POPULATE_MAX) n = POPULATE_MAX;
  if (n < end - *populated) n = end - *populated;
  /* Whole multiples of 64 KiB (so of any page size): madvise refuses a
   * start that is not page-aligned, and populated/2 stopped being one
   * after 8 calls, so that until now every later call failed (EINVAL)
   * and the pages faulted in one at a time. */
  n = (n + POPULATE_MIN - 1) & ~(POPULATE_MIN - 1);
  if (n > size - *populated) n = size - *populated;
#ifdef MADV_POPULATE_WRITE
  madvise(base + *populated, n, MADV_POPULATE_WRITE);
#else
  (void)base;
#endif
  *populated += n;
}

static cs_mop *chunk_new(cs_prog *g) {
  if (g->used + CS_CHUNK > g->size) return NULL;
  cs_populate_ahead(g->arena, g->size, &g->populated, g->used + CS_CHUNK);
  cs_mop *c = (cs_mop *)(void *)(g->arena + g->used);
  g->used += CS_CHUNK;
  return c;
}

void cs_prog_push(cs_prog *g, int r, cs_mop op) {
  cs_rprog *pr = &g->r[r];
  if (g->oom) return;
  if (!pr->tail || pr->n % CS_CHUNK_OPS == 0) {
    cs_mop *c = chunk_new(g);
    if (!c) {
      g->oom = 1;
      return;
    }
    if (pr->tail)
      *(cs_mop **)(void *)pr->tail = c; /* the link slot of the full chunk */
    else
      pr->first = c;
    pr->tail = c;
  }
  *pr->tail++ = op;
  pr->n++;
}

void cs_mop_set_bytes_big(cs_prog *g, cs_mop *o, size_t sb, size_t rb) {
  if (o->sb == CS_MOP_BIG) { /* already escaped: its entry takes the new counts */
    g->big[o->rb] = (cs_mop_big){sb, rb};
    return;
  }
  if (g->nbig == g->capbig) {
    size_t cap = g->capbig ? 2 * g->capbig : 64;
    cs_mop_big *n = cap < UINT32_MAX ? realloc(g->big, cap * sizeof *n) : NULL;
    if (!n) {
      g->oom = 1;
      return;
    }
    g->big = n;
    g->capbig = cap;
  }
  g->big[g->nbig] = (cs_mop_big){sb, rb};
  o->sb = CS_MOP_BIG;
  o->rb = (unsigned)g->nbig++;
}

/* One rank: the arguments of the timed call (cs_args_for_rank), then the kernel. */
static void rank_main(int r, void *arg) {
  const drive *d = arg;
  const cs_case *c = d->c;
  cs_args x;
  int rc = cs_args_for_rank(&x, c->coll, r, c->root, c->inplace, d->sbuf, d->rbuf, d->count,
                            d->counts, d->displs, MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
  /* Setup, free as in the timing driver (sim/bench.c builds the kernel
   * context before the first timed call): the communicators of the context
   * that a node-aware row reads (cs_row_ctx_needs: node and lane, or only
   * node and the root's leaders). Then the priced call: from here on a library
   * collective is priced as the algorithm SMPI runs, and a communicator
   * created inside the call fails the case (models/mpirec/mpi.h). */
  if (rc == MPI_SUCCESS && (d->a->flags & CS_NODE_AWARE))
    rc = cs_ctx_prepare_root(MPI_COMM_WORLD, cs_row_ctx_needs(d->a), c->root);
  csrec_priced(1);
  if (rc == MPI_SUCCESS) rc = cs_run(d->a, &x);
  if (rc != MPI_SUCCESS)
    csrec_fail("model: %s/%s returned MPI error %d at rank %d (p = %d, %ld bytes)",
               cs_colls[c->coll].name, d->a->name, rc, r, c->p, c->bytes);
}

int cs_record_case(const cs_case *c, int ppn, cs_prog *g, char *err, size_t errlen) {
  const cs_algo_info *a = cs_algo_find(c->coll, c->algo);
  if (!a || (a->flags & CS_NATIVE)) {
    snprintf(err, errlen, "no model of %s algorithm '%s' (native algorithms have none)",
             cs_colls[c->coll].name, c->algo);
    return -1;
  }
  int p = c->p;
  cs_coll k = c->coll;
  int block = cs_coll_shape(k) == CS_SHAPE_BLOCKS, split = cs_coll_shape(k) == CS_SHAPE_SPLIT;
  long elems = c->bytes; /* MPI_BYTE */
  long count = block ? elems / p : elems, total = block ? count * p : elems;
  if (total > INT_MAX) {
    snprintf(err, errlen, "model: %ld bytes exceed MPI's int counts", c->bytes);
    return -1;
  }
  drive d = {a, c, NULL, NULL, NULL, NULL, (int)count};
  int rc = -1;
  if (split) {
    d.counts = malloc(sizeof(int) * (size_t)p);
    d.displs = malloc(sizeof(int) * (size_t)p);
    if (!d.counts || !d.displs) {
      snprintf(err, errlen, "model: out of memory for p = %d", p);
      goto out;
    }
    cs_split_even(total, p, d.counts, d.displs);
    cs_layout_declare_even(d.counts, d.displs, p, total);
  }
  d.sbuf = csrec_shared_malloc((size_t)total + 64);
  d.rbuf = csrec_shared_malloc((size_t)total + 64);
  if (!d.sbuf || !d.rbuf) {
    snprintf(err, errlen, "model: no shared memory for %ld bytes", total);
    goto out;
  }
  int skip = cs_skip_compute, shared = cs_shared_buffers;
  cs_skip_compute = 1;
  cs_shared_buffers = 1;
  rc = csrec_run(p, ppn, rank_main, &d, g, err, errlen);
  cs_skip_compute = skip;
  cs_shared_buffers = shared;
out:
  cs_layout_declare_even(NULL, NULL, 0, 0);
  csrec_shared_free(d.sbuf);
  csrec_shared_free(d.rbuf);
  free(d.counts);
  free(d.displs);
  return rc;
}
