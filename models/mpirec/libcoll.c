/* The library's collectives inside a priced call (mpi.h): each runs the
 * algorithm that SMPI 3.32 would run for that call, as its messages.
 *
 * Which algorithm: the selector's choice as collsim reproduces it
 * (sim/libalgo.c, cs_lib_algo), under the selector of the case
 * (csrec_set_selector; SMPI's default unless a model says otherwise).
 * How: each reproduction below sends, receives, posts and waits as the
 * SMPI source does (src/smpi/colls/, read at release 3.32; written anew
 * here from its description, in the recording MPI's calls), on the
 * communicator's library context (csrec_lib_comm), so that the recording
 * prices exactly those messages: blocking sends and receives as blocking
 * steps, Isend/Irecv/Waitall as nonblocking ones. SMPI charges no time for
 * a library call's local work, so nothing is charged here: predict's
 * simulation runs without --lib-charge (bench charges the library's work
 * wherever it runs, inside decompositions too, unless --lib-charge off);
 * data move only between private buffers (the shared arena holds no data).
 *
 * A collective whose chosen algorithm is not in the table fails the case
 * with a message naming the collective, the algorithm and the selector.
 * Adding one is a function and a row of `algos` below (MPI_Alltoall: its
 * SMPI default is alltoall__ompi, which selects by size).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../sim/libalgo.h"
#include "mpi.h"
#include "mpirec.h"

/* The SMPI tags differ per collective; one tag serves here, since the
 * library context holds only one collective at a time per rank pair. */
#define LIB_TAG 1

/* The arguments of any collective, as the rank called it. */
typedef struct {
  const char *call; /* MPI name, for messages */
  const void *sbuf;
  void *rbuf;
  int scount, rcount;
  MPI_Datatype st, rt;
  const int *scounts, *sdispls, *rcounts, *rdispls;
  MPI_Op op;
  int root;
  MPI_Comm cc; /* the library context */
  int rank, size;
} largs;

typedef int (*lib_fn)(const largs *a);
static int tsize(MPI_Datatype dt);

static MPI_Aint extent_of(MPI_Datatype dt) {
  MPI_Aint lb, ext;
  MPI_Type_get_extent(dt, &lb, &ext);
  return ext;
}

static int waitall(int n, MPI_Request *q) { return MPI_Waitall(n, q, MPI_STATUSES_IGNORE); }

/* A temporary of count dt: in the arena when the data are (no data then),
 * else real memory. */
static void *tmp_alloc(const void *like, long count, MPI_Datatype dt, int *shared) {
  size_t bytes = (size_t)(count > 0 ? count : 1) * (size_t)extent_of(dt);
  *shared = like == NULL || csrec_in_arena(like);
  return *shared ? csrec_shared_malloc(bytes) : malloc(bytes);
}
static void tmp_free(void *t, int shared) {
  if (shared)
    csrec_shared_free(t);
  else
    free(t);
}

/* ---- SMPI's default selector's algorithms --------------------------------- */

/* bcast__binomial_tree: receive from the parent (relative rank with its
 * lowest set bit cleared), then send to the children, farthest first. */
static int bcast_binomial_tree(const largs *a) {
  int rel = (a->rank - a->root + a->size) % a->size, mask = 1, rc = MPI_SUCCESS;
  for (; mask < a->size; mask <<= 1)
    if (rel & mask) {
      rc = MPI_Recv(a->rbuf, a->rcount, a->rt, (a->rank - mask + a->size) % a->size, LIB_TAG, a->cc,
                    MPI_STATUS_IGNORE);
      break;
    }
  for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
    if (rel + mask < a->size)
      rc = MPI_Send(a->rbuf, a->rcount, a->rt, (a->rank + mask) % a->size, LIB_TAG, a->cc);
  return rc;
}

/* barrier__ompi_basic_linear: every rank sends an empty message to rank 0
 * and waits for one back; rank 0 posts all receives, waits, then posts all
 * sends and waits. */
static int barrier_linear(const largs *a) {
  if (a->rank > 0) {
    int rc = MPI_Send(NULL, 0, MPI_BYTE, 0, LIB_TAG, a->cc);
    return rc ? rc : MPI_Recv(NULL, 0, MPI_BYTE, 0, LIB_TAG, a->cc, MPI_STATUS_IGNORE);
  }
  MPI_Request *q = malloc(sizeof *q * (size_t)a->size);
  if (!q) return MPI_ERR_NO_MEM;
  int rc = MPI_SUCCESS;
  for (int i = 1; i < a->size && !rc; i++)
    rc = MPI_Irecv(NULL, 0, MPI_BYTE, i, LIB_TAG, a->cc, &q[i]);
  if (!rc) rc = waitall(a->size - 1, q + 1);
  for (int i = 1; i < a->size && !rc; i++)
    rc = MPI_Isend(NULL, 0, MPI_BYTE, i, LIB_TAG, a->cc, &q[i]);
  if (!rc) rc = waitall(a->size - 1, q + 1);
  free(q);
  return rc;
}

/* The linear nonblocking pattern of SMPI's default gather(v), scatter(v)
 * (colls::igather, iscatter, igatherv, iscatterv): the root posts one
 * receive (gather) or send (scatter) per other rank, the others one send
 * or receive, and all wait. counts/displs: per rank (v forms), else count. */
static int linear_rooted(const largs *a, int gather) {
  int n = a->rank == a->root ? a->size - 1 : 1, k = 0, rc = MPI_SUCCESS;
  MPI_Request *q = malloc(sizeof *q * (size_t)(n > 0 ? n : 1));
  if (!q) return MPI_ERR_NO_MEM;
  if (a->rank != a->root) {
    rc = gather ? MPI_Isend(a->sbuf, a->scount, a->st, a->root, LIB_TAG, a->cc, &q[k++])
                : MPI_Irecv(a->rbuf, a->rcount, a->rt, a->root, LIB_TAG, a->cc, &q[k++]);
  } else {
    MPI_Datatype t = gather ? a->rt : a->st;
    MPI_Aint ext = extent_of(t);
    for (int i = 0; i < a->size && !rc; i++) {
      const int *cn = gather ? a->rcounts : a->scounts, *ds = gather ? a->rdispls : a->sdispls;
      int c = cn ? cn[i] : (gather ? a->rcount : a->scount);
      long at = (ds ? ds[i] : (long)i * c) * ext;
      if (i == a->root) { /* the root's own block: a local copy */
        if (gather && a->sbuf != MPI_IN_PLACE)
          csrec_copy_data(a->sbuf, a->scount, a->st, (char *)a->rbuf + at, c, t);
        if (!gather && a->rbuf != MPI_IN_PLACE)
          csrec_copy_data((const char *)a->sbuf + at, c, t, a->rbuf, a->rcount, a->rt);
        continue;
      }
      rc = gather ? MPI_Irecv((char *)a->rbuf + at, c, t, i, LIB_TAG, a->cc, &q[k++])
                  : MPI_Isend((const char *)a->sbuf + at, c, t, i, LIB_TAG, a->cc, &q[k++]);
    }
  }
  if (!rc) rc = waitall(k, q);
  free(q);
  return rc;
}
static int gather_default(const largs *a) { return linear_rooted(a, 1); }
static int scatter_default(const largs *a) { return linear_rooted(a, 0); }

/* colls::iallgather(v): every rank posts, for each other rank in rank
 * order, a send of its block and a receive of the other's, then waits. */
static int allgather_default(const largs *a) {
  MPI_Request *q = malloc(sizeof *q * (size_t)(2 * a->size));
  if (!q) return MPI_ERR_NO_MEM;
  MPI_Aint ext = extent_of(a->rt);
  const void *sb = a->sbuf;
  int sc = a->scount, k = 0, rc = MPI_SUCCESS;
  MPI_Datatype st = a->st;
  long own = (a->rdispls ? a->rdispls[a->rank] : (long)a->rank * a->rcount) * ext;
  int owncount = a->rcounts ? a->rcounts[a->rank] : a->rcount;
  if (sb == MPI_IN_PLACE) {
    sb = (const char *)a->rbuf + own;
    sc = owncount;
    st = a->rt;
  } else {
    csrec_copy_data(sb, sc, st, (char *)a->rbuf + own, owncount, a->rt);
  }
  for (int i = 0; i < a->size && !rc; i++) {
    if (i == a->rank) continue;
    int c = a->rcounts ? a->rcounts[i] : a->rcount;
    long at = (a->rdispls ? a->rdispls[i] : (long)i * c) * ext;
    rc = MPI_Isend(sb, sc, st, i, LIB_TAG, a->cc, &q[k++]);
    if (!rc) rc = MPI_Irecv((char *)a->rbuf + at, c, a->rt, i, LIB_TAG, a->cc, &q[k++]);
  }
  if (!rc) rc = waitall(k, q);
  free(q);
  return rc;
}

/* reduce__default (commutative operation, predefined type: colls::ireduce):
 * the others send their vector to the root, which posts a receive per
 * other rank into temporaries, waits, and reduces (free in SMPI). */
static int reduce_default(const largs *a) {
  const void *in = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
  if (a->rank != a->root) {
    MPI_Request q;
    int rc = MPI_Isend(in, a->scount, a->st, a->root, LIB_TAG, a->cc, &q);
    return rc ? rc : MPI_Wait(&q, MPI_STATUS_IGNORE);
  }
  int n = a->size - 1, rc = MPI_SUCCESS, shared;
  MPI_Request *q = malloc(sizeof *q * (size_t)(n > 0 ? n : 1));
  char *t = tmp_alloc(a->rbuf, (long)a->scount * (n > 0 ? n : 1), a->st, &shared);
  if (!q || !t) {
    free(q);
    if (t) tmp_free(t, shared);
    return MPI_ERR_NO_MEM;
  }
  MPI_Aint ext = extent_of(a->st);
  csrec_copy_data(in, a->scount, a->st, a->rbuf, a->scount, a->st);
  for (int i = 0, k = 0; i < a->size && !rc; i++)
    if (i != a->root) {
      rc = MPI_Irecv(t + (long)k * a->scount * ext, a->scount, a->st, i, LIB_TAG, a->cc, &q[k]);
      k++;
    }
  if (!rc) rc = waitall(n, q);
  if (!rc && !shared && !csrec_in_arena(a->rbuf))
    for (int k = 0; k < n && !rc; k++)
      rc = MPI_Reduce_local(t + (long)k * a->scount * ext, a->rbuf, a->scount, a->st, a->op);
  tmp_free(t, shared);
  free(q);
  return rc;
}

/* allreduce__default: reduce__default to rank 0, then bcast__default
 * (binomial_tree) from rank 0. */
static int allreduce_default(const largs *a) {
  largs r = *a;
  r.root = 0;
  int rc = reduce_default(&r);
  if (rc) return rc;
  r.rcount = a->scount;
  r.rt = a->st;
  return bcast_binomial_tree(&r);
}

/* reduce_scatter__default with equal blocks (and reduce_scatter_block,
 * which SMPI serves with it): reduce__default of the whole vector to rank
 * 0 into a temporary, then scatterv__default of the blocks. */
static int reduce_scatter_default(const largs *a) {
  long total = 0;
  int *displs = malloc(sizeof(int) * (size_t)a->size), shared, rc;
  if (!displs) return MPI_ERR_NO_MEM;
  for (int i = 0; i < a->size; i++) {
    displs[i] = (int)total; /* < INT_MAX: checked below before use */
    total += a->rcounts[i];
  }
  if (total > INT_MAX) {
    free(displs);
    csrec_fail(
        "recording MPI: %s of %ld elements in all: SMPI's reduce of the whole vector "
        "takes an int count",
        a->call, total);
    return MPI_ERR_COUNT;
  }
  void *t = tmp_alloc(a->rbuf, total, a->st, &shared);
  if (!t) {
    free(displs);
    return MPI_ERR_NO_MEM;
  }
  largs r = *a;
  r.root = 0;
  r.rbuf = t;
  r.scount = (int)total;
  rc = reduce_default(&r);
  if (!rc) {
    largs s = *a;
    s.root = 0;
    s.sbuf = t;
    s.st = a->st;
    s.scounts = a->rcounts;
    s.sdispls = displs;
    s.rcount = a->rcounts[a->rank];
    s.rt = a->st;
    rc = scatter_default(&s);
  }
  tmp_free(t, shared);
  free(displs);
  return rc;
}

/* colls::scan and colls::exscan (SMPI's only ones): a receive from every
 * lower rank and a send to every higher one, all posted, then all waited. */
static int scan_linear(const largs *a) {
  int n = a->size - 1, rc = MPI_SUCCESS, k = 0, shared;
  MPI_Request *q = malloc(sizeof *q * (size_t)(n > 0 ? n : 1));
  char *t = tmp_alloc(a->rbuf, (long)a->scount * (a->rank > 0 ? a->rank : 1), a->st, &shared);
  if (!q || !t) {
    free(q);
    if (t) tmp_free(t, shared);
    return MPI_ERR_NO_MEM;
  }
  const void *in = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
  MPI_Aint ext = extent_of(a->st);
  for (int i = 0; i < a->rank && !rc; i++, k++)
    rc = MPI_Irecv(t + (long)i * a->scount * ext, a->scount, a->st, i, LIB_TAG, a->cc, &q[k]);
  for (int i = a->rank + 1; i < a->size && !rc; i++, k++)
    rc = MPI_Isend(in, a->scount, a->st, i, LIB_TAG, a->cc, &q[k]);
  if (!rc) rc = waitall(k, q);
  /* The result, when private: the own vector (scan) reduced with those of
   * the lower ranks (free in SMPI). */
  if (!rc && !shared && !csrec_in_arena(a->rbuf)) {
    int ex = !strcmp(a->call, "MPI_Exscan");
    if (!ex) csrec_copy_data(in, a->scount, a->st, a->rbuf, a->scount, a->st);
    for (int i = 0; i < a->rank && !rc; i++) {
      char *ti = t + (long)i * a->scount * ext;
      if (ex && i == 0)
        csrec_copy_data(ti, a->scount, a->st, a->rbuf, a->scount, a->st);
      else
        rc = MPI_Reduce_local(ti, a->rbuf, a->scount, a->st, a->op);
    }
  }
  tmp_free(t, shared);
  free(q);
  return rc;
}

/* ---- algorithms other selectors choose ------------------------------------ */

/* allreduce__rdb (recursive doubling; ompi's choice for small vectors on
 * small communicators): with pof2 the largest power of two <= p and
 * rem = p - pof2, the even ranks below 2 rem send their vector to the next
 * rank and sit out; the others exchange the whole vector with the rank
 * whose new rank differs in one bit, for each bit; then the odd ranks
 * below 2 rem send the result back. SMPI's sendrecvs to oneself are
 * local copies, not messages. */
static int allreduce_rdb(const largs *a) {
  int p = a->size, r = a->rank, pof2 = 1, rc = MPI_SUCCESS, shared;
  while (pof2 <= p) pof2 <<= 1;
  pof2 >>= 1;
  int rem = p - pof2, newrank;
  char *t = tmp_alloc(a->rbuf, a->scount, a->st, &shared);
  if (!t) return MPI_ERR_NO_MEM;
  int data = !shared && !csrec_in_arena(a->rbuf);
  if (a->sbuf != MPI_IN_PLACE)
    csrec_copy_data(a->sbuf, a->scount, a->st, a->rbuf, a->scount, a->st);
  if (r < 2 * rem) {
    if (r % 2 == 0) {
      rc = MPI_Send(a->rbuf, a->scount, a->st, r + 1, LIB_TAG, a->cc);
      newrank = -1;
    } else {
      rc = MPI_Recv(t, a->scount, a->st, r - 1, LIB_TAG, a->cc, MPI_STATUS_IGNORE);
      if (!rc && data) rc = MPI_Reduce_local(t, a->rbuf, a->scount, a->st, a->op);
      newrank = r / 2;
    }
  } else {
    newrank = r - rem;
  }
  for (int mask = 1; newrank >= 0 && mask < pof2 && !rc; mask <<= 1) {
    int nd = newrank ^ mask, dst = nd < rem ? nd * 2 + 1 : nd + rem;
    rc = MPI_Sendrecv(a->rbuf, a->scount, a->st, dst, LIB_TAG, t, a->scount, a->st, dst, LIB_TAG,
                      a->cc, MPI_STATUS_IGNORE);
    if (!rc && data) rc = MPI_Reduce_local(t, a->rbuf, a->scount, a->st, a->op);
  }
  if (!rc && r < 2 * rem)
    rc = r % 2 ? MPI_Send(a->rbuf, a->scount, a->st, r - 1, LIB_TAG, a->cc)
               : MPI_Recv(a->rbuf, a->scount, a->st, r + 1, LIB_TAG, a->cc, MPI_STATUS_IGNORE);
  tmp_free(t, shared);
  return rc;
}

/* allgather__rdb (recursive doubling; ompi's choice below 32 ranks, mpich's
 * on powers of two): in round i each rank exchanges all it has with the
 * rank whose rank differs in bit i, the sizes read from the statuses; a
 * subtree that lacks a partner (p not a power of two) gets the missing
 * blocks from within, down a binary tree. Unsigned arithmetic as SMPI's. */
static int allgather_rdb(const largs *a) {
  unsigned p = (unsigned)a->size, rank = (unsigned)a->rank, mask = 1, i = 0;
  int ts = tsize(a->rt), curr = a->rcount, last = 0, rc = MPI_SUCCESS;
  MPI_Aint chunk = extent_of(a->rt) * a->rcount;
  char *rb = a->rbuf;
  MPI_Status st;
  if (a->sbuf != MPI_IN_PLACE)
    csrec_copy_data(a->sbuf, a->scount, a->st, rb + rank * chunk, a->rcount, a->rt);
  for (; mask < p && !rc; mask <<= 1, i++) {
    unsigned dst = rank ^ mask, dtr = dst >> i << i, rtr = rank >> i << i;
    if (dst < p) {
      rc = MPI_Sendrecv(rb + rtr * chunk, curr, a->rt, (int)dst, LIB_TAG, rb + dtr * chunk,
                        (int)mask * a->rcount, a->rt, (int)dst, LIB_TAG, a->cc, &st);
      last = ts > 0 ? (int)(st.bytes / ts) : 0;
      curr += last;
    }
    if (dtr + mask > p) {
      int done = (int)(p - rtr - mask);
      unsigned j = mask, k = 0;
      for (; j; j >>= 1) k++;
      k--;
      MPI_Aint off = chunk * (MPI_Aint)(rtr + mask);
      for (unsigned tm = mask >> 1; tm && !rc; tm >>= 1, k--) {
        unsigned d = rank ^ tm, tr = rank >> k << k;
        if (d > rank && rank < tr + (unsigned)done && d >= tr + (unsigned)done) {
          rc = MPI_Send(rb + off, last, a->rt, (int)d, LIB_TAG, a->cc);
        } else if (d < rank && d < tr + (unsigned)done && rank >= tr + (unsigned)done) {
          rc = MPI_Recv(rb + off, a->rcount * done, a->rt, (int)d, LIB_TAG, a->cc, &st);
          last = ts > 0 ? (int)(st.bytes / ts) : 0;
          curr += last;
        }
      }
    }
  }
  return rc;
}

/* bcast__SMP_binomial (mpich's choice when every host holds as many ranks
 * of the communicator): a root other than 0 first sends to 0; then a
 * binomial tree from 0 over the hosts' first ranks, then one within each
 * host. On collsim's platforms every rank is a host of its own (csrec_ppn),
 * so the second step is empty and the root receives again from its parent
 * in the first, as SMPI's code does. */
static int bcast_smp_binomial(const largs *a) {
  int p = a->size, r = a->rank, rc = MPI_SUCCESS, mask = 1;
  if (csrec_ppn() != 1) {
    csrec_fail("recording MPI: %s: bcast SMP_binomial with %d ranks per host is not reproduced",
               a->call, csrec_ppn());
    return MPI_ERR_UNSUPPORTED_OPERATION;
  }
  if (a->root != 0 && r == a->root) rc = MPI_Send(a->rbuf, a->rcount, a->rt, 0, LIB_TAG, a->cc);
  if (a->root != 0 && r == 0)
    rc = MPI_Recv(a->rbuf, a->rcount, a->rt, a->root, LIB_TAG, a->cc, MPI_STATUS_IGNORE);
  for (; mask < p && !rc; mask <<= 1)
    if (r & mask) {
      rc = MPI_Recv(a->rbuf, a->rcount, a->rt, r - mask, LIB_TAG, a->cc, MPI_STATUS_IGNORE);
      break;
    }
  for (mask >>= 1; mask > 0 && !rc; mask >>= 1)
    if (r + mask < p) rc = MPI_Send(a->rbuf, a->rcount, a->rt, r + mask, LIB_TAG, a->cc);
  return rc;
}

/* The in-order binomial tree of Open MPI's tuned collectives (SMPI's
 * coll_tuned_topo.cpp): with v = (rank - root) mod p, the parent is v with
 * its lowest set bit cleared, the children v + 2^i for the bits below it,
 * nearest first. Writes the children's vranks into kids, returns their
 * number; *parent is the parent's rank (root: -1). */
static int bmtree(int p, int root, int rank, int *parent, int kids[32]) {
  int v = (rank - root + p) % p, n = 0;
  *parent = -1;
  for (int mask = 1; mask < p; mask <<= 1) {
    int remote = v ^ mask;
    if (remote < v) {
      *parent = (remote + root) % p;
      break;
    }
    if (remote < p) kids[n++] = remote;
  }
  return n;
}

/* gather__ompi_binomial and scatter__ompi_binomial (ompi's choice from 8
 * to 255 ranks, mpich's always): up (gather) or down (scatter) the
 * in-order binomial tree, each child's subtree of min(vkid - v, p - vkid)
 * blocks in one blocking message, the children in tree order; the root's
 * blocks rotated so that vrank order is rank order. */
static int binomial_rooted(const largs *a, int gather) {
  int p = a->size, v = (a->rank - a->root + p) % p, parent, kids[32];
  int nk = bmtree(p, a->root, a->rank, &parent, kids), rc = MPI_SUCCESS, shared = 1;
  MPI_Datatype t = a->rank == a->root ? (gather ? a->rt : a->st) : (gather ? a->st : a->rt);
  int c = a->rank == a->root ? (gather ? a->rcount : a->scount) : (gather ? a->scount : a->rcount);
  MPI_Aint ext = extent_of(t);
  const void *user = gather ? a->sbuf : a->rbuf; /* the rank's own block */
  int inplace = user == MPI_IN_PLACE;
  char *tmp = NULL;
  if (nk > 0 || a->rank == a->root) {
    tmp = tmp_alloc(a->rank == a->root ? (gather ? a->rbuf : a->sbuf) : user, (long)c * p, t,
                    &shared);
    if (!tmp) return MPI_ERR_NO_MEM;
  }
  char *root_buf = a->rank == a->root ? (gather ? a->rbuf : (char *)a->sbuf) : NULL;
  if (!gather && a->rank == a->root) { /* rotate the root's blocks into vrank order */
    csrec_copy_data(root_buf + (long)a->root * c * ext, c * (p - a->root), t, tmp,
                    c * (p - a->root), t);
    csrec_copy_data(root_buf, c * a->root, t, tmp + (long)(p - a->root) * c * ext, c * a->root, t);
  }
  if (gather && tmp && !inplace) csrec_copy_data(user, c, t, tmp, c, t);
  if (gather && tmp && inplace)
    csrec_copy_data(root_buf + (long)a->root * c * ext, c, t, tmp, c, t);
  long have = c; /* gather: blocks (in elements) held; scatter: sent */
  if (!gather && parent >= 0) {
    rc = nk > 0 ? MPI_Recv(tmp, c * p, t, parent, LIB_TAG, a->cc, MPI_STATUS_IGNORE)
                : MPI_Recv(a->rbuf, c, t, parent, LIB_TAG, a->cc, MPI_STATUS_IGNORE);
    if (!rc && nk > 0) csrec_copy_data(tmp, c, t, a->rbuf, c, t);
  } else if (!gather && !inplace) {
    csrec_copy_data(tmp, c, t, a->rbuf, c, t);
  }
  for (int i = 0; i < nk && !rc; i++) {
    int vk = kids[i], n = vk - v < p - vk ? vk - v : p - vk, kid = (vk + a->root) % p;
    rc = gather ? MPI_Recv(tmp + have * ext, n * c, t, kid, LIB_TAG, a->cc, MPI_STATUS_IGNORE)
                : MPI_Send(tmp + have * ext, n * c, t, kid, LIB_TAG, a->cc);
    have += (long)n * c;
  }
  if (!rc && gather && parent >= 0)
    rc = MPI_Send(tmp ? tmp : user, (int)have, t, parent, LIB_TAG, a->cc);
  if (!rc && gather && a->rank == a->root) { /* rotate back into rank order */
    csrec_copy_data(tmp, c * (p - a->root), t, root_buf + (long)a->root * c * ext,
                    c * (p - a->root), t);
    csrec_copy_data(tmp + (long)(p - a->root) * c * ext, c * a->root, t, root_buf, c * a->root, t);
  }
  if (tmp) tmp_free(tmp, shared);
  return rc;
}
static int gather_binomial(const largs *a) { return binomial_rooted(a, 1); }
static int scatter_binomial(const largs *a) { return binomial_rooted(a, 0); }

/* ---- the table ------------------------------------------------------------ */

static const struct {
  const char *coll, *algo; /* as sim/libalgo.c and --cfg=smpi/<coll>:NAME name them */
  lib_fn fn;
} algos[] = {
    {"barrier", "ompi_basic_linear", barrier_linear},
    {"bcast", "default", bcast_binomial_tree}, /* bcast__default calls binomial_tree */
    {"bcast", "binomial_tree", bcast_binomial_tree},
    {"bcast", "SMP_binomial", bcast_smp_binomial},
    {"reduce", "default", reduce_default},
    {"allreduce", "default", allreduce_default},
    {"allreduce", "rdb", allreduce_rdb},
    {"allgather", "default", allgather_default},
    {"allgather", "rdb", allgather_rdb},
    {"allgatherv", "default", allgather_default},
    {"gather", "default", gather_default},
    {"gather", "ompi_binomial", gather_binomial},
    {"gatherv", "default", gather_default},
    {"scatter", "default", scatter_default},
    {"scatter", "ompi_binomial", scatter_binomial},
    {"scatterv", "default", scatter_default},
    {"reduce_scatter", "default", reduce_scatter_default},
    {"reduce_scatter_block", "default", reduce_scatter_default},
    {"scan", "default", scan_linear},
    {"exscan", "default", scan_linear},
};

/* Runs collective coll (a cs_coll name, or "barrier") with the arguments a
 * on comm as the selector's algorithm; elems/size/regular/commutative as
 * cs_lib_algo takes them. */
static int run(const char *coll, largs *a, MPI_Comm comm, long elems, int size, int regular,
               int commutative, int derived) {
  if (comm == MPI_COMM_NULL) {
    csrec_fail("recording MPI: %s on MPI_COMM_NULL", a->call);
    return MPI_ERR_COMM;
  }
  int rc = MPI_Comm_rank(comm, &a->rank);
  if (rc) return rc;
  MPI_Comm_size(comm, &a->size);
  if (a->root < 0 || a->root >= a->size) {
    csrec_fail("recording MPI: %s with root %d on a communicator of %d ranks", a->call, a->root,
               a->size);
    return MPI_ERR_ROOT;
  }
  const char *sel = csrec_selector(), *name = NULL;
  if (!strcmp(coll, "barrier")) {
    name = !strcmp(sel, "default") ? "ompi_basic_linear" : NULL;
  } else {
    int k = -1;
    for (int i = 0; i < CS_NCOLL; i++)
      if (!strcmp(cs_colls[i].name, coll)) k = i;
    name = k < 0 ? NULL
                 : cs_lib_algo(sel, (cs_coll)k, a->size, elems, size, regular, commutative,
                               csrec_ppn());
    /* SMPI's default reduce (also inside its allreduce and reduce-scatter)
     * leaves derived datatypes and non-commutative operations to
     * ompi_basic_linear, its allreduce derived datatypes to allreduce__ompi. */
    if (name && !strcmp(sel, "default") && (derived || !commutative)) {
      if (!strcmp(coll, "reduce")) name = "ompi_basic_linear";
      if (!strcmp(coll, "allreduce"))
        name = derived ? "ompi" : "default (its reduce: ompi_basic_linear)";
      if (!strncmp(coll, "reduce_scatter", 14)) name = "default (its reduce: ompi_basic_linear)";
    }
  }
  if (!name) {
    csrec_fail(
        "recording MPI: %s inside the priced call: the algorithm that SMPI's '%s' selector "
        "runs is not reproduced by sim/libalgo.c, so the model cannot price it",
        a->call, sel);
    return MPI_ERR_UNSUPPORTED_OPERATION;
  }
  for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++)
    if (!strcmp(algos[i].coll, coll) && !strcmp(algos[i].algo, name)) {
      a->cc = csrec_lib_comm(comm);
      if (a->size == 1) { /* no messages: the local copy only */
        if (a->sbuf != MPI_IN_PLACE && a->rbuf && a->sbuf)
          csrec_copy_data(a->sbuf, a->scount, a->st, a->rbuf, a->rcount, a->rt);
        return MPI_SUCCESS;
      }
      return algos[i].fn(a);
    }
  csrec_fail(
      "recording MPI: %s inside the priced call runs SMPI's %s algorithm '%s' (selector "
      "'%s'), which the recording MPI does not reproduce (models/mpirec/libcoll.c): the "
      "model cannot price it",
      a->call, coll, name, sel);
  return MPI_ERR_UNSUPPORTED_OPERATION;
}

static int commutes(MPI_Op op) {
  int c = 1;
  MPI_Op_commutative(op, &c);
  return c;
}
static int tsize(MPI_Datatype dt) {
  int s = 0;
  MPI_Type_size(dt, &s);
  return s;
}
static long sum(const int n[], int p) {
  long s = 0;
  for (int i = 0; i < p; i++) s += n[i];
  return s;
}
static int all_equal(const int n[], int p) {
  for (int i = 1; i < p; i++)
    if (n[i] != n[0]) return 0;
  return 1;
}
/* Outside the priced call the collectives below are not setup collectives. */
static int setup_only(const char *call) {
  csrec_fail(
      "recording MPI: %s before the priced call: the setup of the kernel context uses "
      "MPI_Barrier, MPI_Bcast, MPI_Allreduce and MPI_Allgather only",
      call);
  return MPI_ERR_UNSUPPORTED_OPERATION;
}
static int comm_size(MPI_Comm c) {
  int p = 1;
  if (c != MPI_COMM_NULL) MPI_Comm_size(c, &p);
  return p;
}

/* ---- the entry points ---------------------------------------------------- */

int csrec_lib_barrier(MPI_Comm comm) {
  largs a = {.call = "MPI_Barrier"};
  return run("barrier", &a, comm, 0, 1, 1, 1, 0);
}
int csrec_lib_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
  largs a = {.call = "MPI_Bcast", .rbuf = buf, .rcount = count, .rt = dt, .root = root};
  return run("bcast", &a, comm, count, tsize(dt), 1, 1, 0);
}
int csrec_lib_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                        MPI_Comm comm) {
  largs a = {.call = "MPI_Allreduce",
             .sbuf = sbuf,
             .rbuf = rbuf,
             .scount = count,
             .st = dt,
             .rcount = count,
             .rt = dt,
             .op = op};
  return run("allreduce", &a, comm, count, tsize(dt), 1, commutes(op), !csrec_type_builtin(dt));
}
int csrec_lib_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, MPI_Comm comm) {
  largs a = {.call = "MPI_Allgather",
             .sbuf = sbuf,
             .rbuf = rbuf,
             .scount = scount,
             .st = stype,
             .rcount = rcount,
             .rt = rtype};
  return run("allgather", &a, comm, (long)rcount * comm_size(comm), tsize(rtype), 1, 1, 0);
}
int csrec_reduce(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Reduce");
  largs a = {.call = "MPI_Reduce",
             .sbuf = s,
             .rbuf = r,
             .scount = n,
             .st = dt,
             .rcount = n,
             .rt = dt,
             .op = op,
             .root = root};
  return run("reduce", &a, c, n, tsize(dt), 1, commutes(op), !csrec_type_builtin(dt));
}
int csrec_reduce_scatter(const void *s, void *r, const int n[], MPI_Datatype dt, MPI_Op op,
                         MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Reduce_scatter");
  int p = comm_size(c);
  largs a = {.call = "MPI_Reduce_scatter",
             .sbuf = s,
             .rbuf = r,
             .st = dt,
             .rt = dt,
             .rcounts = n,
             .op = op};
  return run("reduce_scatter", &a, c, sum(n, p), tsize(dt), all_equal(n, p), commutes(op),
             !csrec_type_builtin(dt));
}
int csrec_reduce_scatter_block(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op,
                               MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Reduce_scatter_block");
  int p = comm_size(c);
  int *counts = malloc(sizeof(int) * (size_t)p);
  if (!counts) return MPI_ERR_NO_MEM;
  for (int i = 0; i < p; i++) counts[i] = n;
  largs a = {.call = "MPI_Reduce_scatter_block",
             .sbuf = s,
             .rbuf = r,
             .st = dt,
             .rt = dt,
             .rcounts = counts,
             .op = op};
  int rc = run("reduce_scatter_block", &a, c, (long)n * p, tsize(dt), 1, commutes(op),
               !csrec_type_builtin(dt));
  free(counts);
  return rc;
}
int csrec_allgatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[], const int d[],
                     MPI_Datatype rt, MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Allgatherv");
  int p = comm_size(c);
  largs a = {.call = "MPI_Allgatherv",
             .sbuf = s,
             .rbuf = r,
             .scount = sn,
             .st = st,
             .rcounts = rn,
             .rdispls = d,
             .rt = rt};
  return run("allgatherv", &a, c, sum(rn, p), tsize(rt), all_equal(rn, p), 1, 0);
}
int csrec_gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
                 MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Gather");
  largs a = {.call = "MPI_Gather",
             .sbuf = s,
             .rbuf = r,
             .scount = sn,
             .st = st,
             .rcount = rn,
             .rt = rt,
             .root = root};
  return run("gather", &a, c, (long)sn * comm_size(c), tsize(st), 1, 1, 0);
}
int csrec_gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[], const int d[],
                  MPI_Datatype rt, int root, MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Gatherv");
  largs a = {.call = "MPI_Gatherv",
             .sbuf = s,
             .rbuf = r,
             .scount = sn,
             .st = st,
             .rcounts = rn,
             .rdispls = d,
             .rt = rt,
             .root = root};
  return run("gatherv", &a, c, 0, tsize(st), 1, 1, 0);
}
int csrec_scatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  int root, MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Scatter");
  largs a = {.call = "MPI_Scatter",
             .sbuf = s,
             .rbuf = r,
             .scount = sn,
             .st = st,
             .rcount = rn,
             .rt = rt,
             .root = root};
  return run("scatter", &a, c, (long)rn * comm_size(c), tsize(rt), 1, 1, 0);
}
int csrec_scatterv(const void *s, const int sn[], const int d[], MPI_Datatype st, void *r, int rn,
                   MPI_Datatype rt, int root, MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Scatterv");
  largs a = {.call = "MPI_Scatterv",
             .sbuf = s,
             .rbuf = r,
             .scounts = sn,
             .sdispls = d,
             .st = st,
             .rcount = rn,
             .rt = rt,
             .root = root};
  return run("scatterv", &a, c, 0, tsize(rt), 1, 1, 0);
}
int csrec_scan(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op, MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Scan");
  largs a = {.call = "MPI_Scan",
             .sbuf = s,
             .rbuf = r,
             .scount = n,
             .st = dt,
             .rcount = n,
             .rt = dt,
             .op = op};
  return run("scan", &a, c, n, tsize(dt), 1, commutes(op), 0);
}
int csrec_exscan(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op, MPI_Comm c) {
  if (!csrec_in_priced()) return setup_only("MPI_Exscan");
  largs a = {.call = "MPI_Exscan",
             .sbuf = s,
             .rbuf = r,
             .scount = n,
             .st = dt,
             .rcount = n,
             .rt = dt,
             .op = op};
  return run("exscan", &a, c, n, tsize(dt), 1, commutes(op), 0);
}
