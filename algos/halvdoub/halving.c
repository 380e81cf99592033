/* Rabenseifner's recursive halving and doubling and binary blocks
 * (Rabenseifner 2004, Secs. 2.5 and 2.6, Figs. 1 and 2): the engine of the
 * halvdoub and binblocks kernels of allreduce (algos/halvdoub/allreduce.c)
 * and reduce (algos/halvdoub/reduce.c), whose headers give Accepts, Schedule,
 * Cost and Memory per collective.
 *
 * Vector split: recursive bisection of [0, n) elements (halving.h, hd_seg),
 * so counts 0, < p and not divisible by p need no special case (empty
 * nodes send nothing). Element ranges are contiguous in a user buffer of
 * any type (offset = element * extent), so derived types need no views.
 * Every element of the result is reduced at exactly one process and copied
 * from there, so all ranks of an allreduce get the same bits (commutative
 * ops; no promise beyond MPI's for non-associative ones such as float sums:
 * the bits equal those of the one reduction order this schedule uses).
 */
#include "halving.h"

#include "../collsim.h"
#include "../kernel.h"

static char *at(const hd_call *c, const void *buf, long e) { return (char *)buf + e * c->ext; }

int hd_rank(const hd_group *g, int j) {
  if (j == g->alias) return g->alias_rank;
  if (j < g->rem) return g->base + 2 * j + (j == g->swap);
  return g->base + j + g->rem;
}

void hd_seg(long lo, long hi, int j, int d, long *a, long *b) {
  for (int i = 0; i < d; i++) {
    long mid = lo + (hi - lo) / 2;
    if (j >> i & 1)
      lo = mid;
    else
      hi = mid;
  }
  *a = lo;
  *b = hi;
}

int hd_send(const hd_call *c, const char *buf, long lo, long hi, int to) {
  return cs_sendrecv(at(c, buf, lo), hi - lo, c->dt, to, NULL, 0, c->dt, MPI_PROC_NULL, c->comm);
}

int hd_recv(const hd_call *c, char *buf, long lo, long hi, int from) {
  return cs_sendrecv(NULL, 0, c->dt, MPI_PROC_NULL, at(c, buf, lo), hi - lo, c->dt, from, c->comm);
}

int hd_recv_reduce(const hd_call *c, char *W, long lo, long hi, int from) {
  if (hi <= lo) return MPI_SUCCESS;
  CS_CHECK(hd_recv(c, c->T, 0, hi - lo, from));
  return cs_reduce_local(c->T, at(c, W, lo), hi - lo, c->dt, c->op);
}

/* One exchange of halving: keep [klo, khi), send [slo, shi) of *src to and
 * receive [klo, khi) from peer, reduce into W. */
static int exchange_reduce(const hd_call *c, const char **src, char *W, long klo, long khi,
                           long slo, long shi, int peer) {
  int first = *src != W; /* input not in W yet: receive into W, add the input */
  char *rb = first ? at(c, W, klo) : c->T;
  CS_CHECK(
      cs_sendrecv(at(c, *src, slo), shi - slo, c->dt, peer, rb, khi - klo, c->dt, peer, c->comm));
  if (khi > klo)
    CS_CHECK(
        cs_reduce_local(first ? at(c, *src, klo) : c->T, at(c, W, klo), khi - klo, c->dt, c->op));
  *src = W;
  return MPI_SUCCESS;
}

int hd_halve(const hd_call *c, const char **src, char *W, const hd_group *g, int j, int lg,
             long n) {
  long lo = 0, hi = n;
  for (int i = 0; i < lg; i++) {
    long mid = lo + (hi - lo) / 2;
    int upper = j >> i & 1;
    long klo = upper ? mid : lo, khi = upper ? hi : mid;
    long slo = upper ? lo : mid, shi = upper ? mid : hi;
    CS_CHECK(exchange_reduce(c, src, W, klo, khi, slo, shi, hd_rank(g, j ^ 1 << i)));
    lo = klo;
    hi = khi;
  }
  return MPI_SUCCESS;
}

int hd_double(const hd_call *c, char *W, const hd_group *g, int j, int lg, long n) {
  for (int i = lg - 1; i >= 0; i--) {
    int peer = j ^ 1 << i;
    long a, b, pa, pb;
    hd_seg(0, n, j, i + 1, &a, &b);
    hd_seg(0, n, peer, i + 1, &pa, &pb);
    int to = hd_rank(g, peer);
    CS_CHECK(cs_sendrecv(at(c, W, a), b - a, c->dt, to, at(c, W, pa), pb - pa, c->dt, to, c->comm));
  }
  return MPI_SUCCESS;
}

int hd_gather(const hd_call *c, char *W, const hd_group *g, int j, int jr, int lg, long n) {
  for (int i = lg - 1; i >= 0; i--) {
    int peer = j ^ 1 << i;
    long a, b;
    if ((j ^ jr) >> i & 1) { /* my bit differs from the root's: send, done */
      hd_seg(0, n, j, i + 1, &a, &b);
      return hd_send(c, W, a, b, hd_rank(g, peer));
    }
    hd_seg(0, n, peer, i + 1, &a, &b);
    CS_CHECK(hd_recv(c, W, a, b, hd_rank(g, peer)));
  }
  return MPI_SUCCESS;
}

/* What both protocols set up: the input, W (recvbuf where the result goes,
 * else a temporary vector) and T. */
typedef struct {
  hd_call c;
  const char *in;
  char *W;
  cs_tmp Wt, Tt;
} hd_bufs;

static int bufs_init(hd_bufs *b, const void *sendbuf, void *recvbuf, long n, MPI_Datatype dt,
                     MPI_Op op, MPI_Comm comm, int result_here, int need_w) {
  b->c.dt = dt;
  b->c.ext = cs_extent(dt);
  b->c.op = op;
  b->c.comm = comm;
  b->Wt.base = b->Tt.base = NULL;
  b->in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  b->W = result_here ? recvbuf : NULL;
  if (!b->W && need_w) {
    CS_CHECK(cs_tmp_alloc(&b->Wt, n, dt));
    b->W = b->Wt.buf;
  }
  CS_CHECK(cs_tmp_alloc(&b->Tt, (n + 1) / 2, dt));
  b->c.T = b->Tt.buf;
  return MPI_SUCCESS;
}

static void bufs_free(hd_bufs *b) {
  cs_tmp_free(&b->Wt);
  cs_tmp_free(&b->Tt);
}

/* p = 1 or count = 0: only the copy of a result that has a place. */
static int trivial(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, int here) {
  return here && sendbuf != MPI_IN_PLACE ? cs_copy(sendbuf, count, dt, recvbuf, count, dt)
                                         : MPI_SUCCESS;
}

/* p >= 2, n >= 1; here: the result goes to recvbuf on this process. */
static int halvdoub(const void *sendbuf, void *recvbuf, long n, MPI_Datatype dt, MPI_Op op,
                    int root, MPI_Comm comm, int p, int r, int here) {
  cs_bfly bf;
  cs_bfly_init(&bf, p);
  /* The root among the removed (odd ranks < 2 rem) swaps roles with its
   * even partner after the first reduction. */
  hd_group g = {0, bf.rem, -1, -1, 0};
  if (root >= 0 && root < 2 * bf.rem && root & 1) g.swap = root / 2;
  hd_bufs b;
  int rc = bufs_init(&b, sendbuf, recvbuf, n, dt, op, comm, here, 1);
  const hd_call *c = &b.c;
  const char *src = b.in;
  int j = r - bf.rem; /* local index among the p2 survivors, -1 removed */
  if (rc == MPI_SUCCESS && r < 2 * bf.rem) {
    /* First step: the even rank keeps the first half, the odd one the
     * second; both reduce theirs, and the removed one hands it over. */
    int odd = r & 1, partner = odd ? r - 1 : r + 1;
    int survives = odd == (r / 2 == g.swap);
    long h = n / 2;
    long klo = odd ? h : 0, khi = odd ? n : h, slo = odd ? 0 : h, shi = odd ? h : n;
    rc = exchange_reduce(c, &src, b.W, klo, khi, slo, shi, partner);
    if (rc == MPI_SUCCESS)
      rc = survives ? hd_recv(c, b.W, slo, shi, partner) : hd_send(c, b.W, klo, khi, partner);
    j = survives ? r / 2 : -1;
  }
  if (rc == MPI_SUCCESS && j >= 0) rc = hd_halve(c, &src, b.W, &g, j, bf.lg, n);
  if (rc == MPI_SUCCESS && root < 0) {
    /* Allreduce: recursive doubling of the vector, then the removed get
     * the whole result from their partners. */
    if (j >= 0) rc = hd_double(c, b.W, &g, j, bf.lg, n);
    if (rc == MPI_SUCCESS && r < 2 * bf.rem)
      rc = j >= 0 ? hd_send(c, b.W, 0, n, r ^ 1) : hd_recv(c, b.W, 0, n, r ^ 1);
  } else if (rc == MPI_SUCCESS && j >= 0) {
    int jr = root < 2 * bf.rem ? root / 2 : root - bf.rem;
    rc = hd_gather(c, b.W, &g, j, jr, bf.lg, n);
  }
  bufs_free(&b);
  return rc;
}

/* Binary blocks: p = 2^k[0] + 2^k[1] + ..., k[0] > k[1] > ..., block i
 * holds ranks base[i] .. base[i] + 2^k[i] - 1 (the largest first). */
typedef struct {
  int nb, k[CS_MAX_ROUNDS], base[CS_MAX_ROUNDS + 1];
} hd_blocks;

static void blocks_init(hd_blocks *bl, int p) {
  bl->nb = 0;
  bl->base[0] = 0;
  for (int k = CS_MAX_ROUNDS - 1; k >= 0; k--)
    if (p >> k & 1) {
      bl->k[bl->nb] = k;
      bl->base[bl->nb + 1] = bl->base[bl->nb] + (1 << k);
      bl->nb++;
    }
}

static int block_of(const hd_blocks *bl, int r) {
  int i = 0;
  while (r >= bl->base[i + 1]) i++;
  return i;
}

static int binblocks(const void *sendbuf, void *recvbuf, long n, MPI_Datatype dt, MPI_Op op,
                     int root, MPI_Comm comm, int p, int r, int here) {
  hd_blocks bl;
  blocks_init(&bl, p);
  int i = block_of(&bl, r), k = bl.k[i], j = r - bl.base[i];
  hd_group g = {bl.base[i], 0, -1, -1, 0};
  hd_bufs b;
  /* A one-process block sends its input as it is: it needs no W unless the
   * result goes there. */
  int rc = bufs_init(&b, sendbuf, recvbuf, n, dt, op, comm, here, k > 0);
  const hd_call *c = &b.c;
  const char *src = b.in;
  long lo, hi;
  hd_seg(0, n, j, k, &lo, &hi);
  /* Reduce-scatter inside the block, then the partial results flow from
   * the smallest block to the largest: a process adds the nodes its smaller
   * neighbour block sends, then hands the pieces of its node to the
   * 2^(k[i-1] - k[i]) processes of the next larger block below it. */
  if (rc == MPI_SUCCESS) rc = hd_halve(c, &src, b.W, &g, j, k, n);
  if (rc == MPI_SUCCESS && i + 1 < bl.nb) /* k > 0: src is W */
    rc = hd_recv_reduce(c, b.W, lo, hi, bl.base[i + 1] + (j & ((1 << bl.k[i + 1]) - 1)));
  int d = i > 0 ? bl.k[i - 1] - k : 0;
  for (int m = 0; i > 0 && m < 1 << d && rc == MPI_SUCCESS; m++) {
    int j2 = j + (m << k);
    long a, e;
    hd_seg(0, n, j2, bl.k[i - 1], &a, &e);
    rc = hd_send(c, src, a, e, bl.base[i - 1] + j2);
  }
  if (rc == MPI_SUCCESS && root < 0) {
    /* Allreduce: the final nodes flow back from the largest block to the
     * smallest (each process gets its node from the 2^d processes it fed),
     * and every block doubles its vector inside. */
    for (int m = 0; i > 0 && m < 1 << d && rc == MPI_SUCCESS; m++) {
      int j2 = j + (m << k);
      long a, e;
      hd_seg(0, n, j2, bl.k[i - 1], &a, &e);
      rc = hd_recv(c, b.W, a, e, bl.base[i - 1] + j2);
    }
    if (rc == MPI_SUCCESS && i + 1 < bl.nb)
      rc = hd_send(c, b.W, lo, hi, bl.base[i + 1] + (j & ((1 << bl.k[i + 1]) - 1)));
    if (rc == MPI_SUCCESS) rc = hd_double(c, b.W, &g, j, k, n);
  } else if (rc == MPI_SUCCESS) {
    /* Reduce: block 0 gathers to the root by a binomial tree; a root outside
     * block 0 receives rank 0's node and plays rank 0 in the gather. */
    hd_group g0 = {0, 0, -1, -1, 0};
    int jr = root;
    if (root >= bl.base[1]) {
      g0.alias = 0;
      g0.alias_rank = root;
      jr = 0;
      if (r == 0) rc = hd_send(c, b.W, lo, hi, root);
      if (r == root) {
        long a, e;
        hd_seg(0, n, 0, bl.k[0], &a, &e);
        rc = hd_recv(c, b.W, a, e, 0);
        if (rc == MPI_SUCCESS) rc = hd_gather(c, b.W, &g0, 0, 0, bl.k[0], n);
      }
    }
    if (rc == MPI_SUCCESS && i == 0 && !(r == 0 && jr != root))
      rc = hd_gather(c, b.W, &g0, j, jr, bl.k[0], n);
  }
  bufs_free(&b);
  return rc;
}

int hd_run(int blocks, const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
           int root, MPI_Comm comm) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  long n = count;
  int here = root < 0 || r == root;
  if (p == 1 || n == 0) return trivial(sendbuf, recvbuf, count, dt, here);
  return (blocks ? binblocks : halvdoub)(sendbuf, recvbuf, count, dt, op, root, comm, p, r, here);
}
