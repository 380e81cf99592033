/* The recording MPI (models/mpirec/) on its own: what kernels building node
 * and lane contexts need (host names, MPI_Comm_split, attributes cached on
 * a communicator, setup collectives), that messages on sub-communicators are
 * recorded with world ranks, that setup collectives are not recorded, that
 * private buffers are copied for real, and that an unsupported call fails
 * the run with its name. Compiled against models/mpirec/mpi.h. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert.h"
#include "kernel.h"
#include "mpirec/mpirec.h"
#include "record.h"

static int keyval = MPI_KEYVAL_INVALID, deleted;

static int del_fn(MPI_Comm comm, int kv, void *value, void *extra) {
  (void)comm, (void)kv, (void)extra;
  MPI_Comm node = *(MPI_Comm *)value;
  MPI_Comm_free(&node);
  free(value);
  deleted++;
  return MPI_SUCCESS;
}

/* A node context as a kernel would build it: split by host name, cached. */
static MPI_Comm node_comm(MPI_Comm comm) {
  int flag;
  MPI_Comm *cached;
  if (keyval == MPI_KEYVAL_INVALID)
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, del_fn, &keyval, NULL);
  MPI_Comm_get_attr(comm, keyval, &cached, &flag);
  if (flag) return *cached;
  char name[MPI_MAX_PROCESSOR_NAME];
  int len, node = 0, rank;
  MPI_Get_processor_name(name, &len);
  sscanf(name, "node%d", &node);
  MPI_Comm_rank(comm, &rank);
  cached = malloc(sizeof *cached);
  MPI_Comm_split(comm, node, rank, cached);
  MPI_Comm_set_attr(comm, keyval, cached);
  return *cached;
}

static void body(int r, void *arg) {
  (void)arg;
  MPI_Comm world = MPI_COMM_WORLD, node = node_comm(world);
  ASSERT(node_comm(world) == node, "the cached node communicator is returned again");
  char name[MPI_MAX_PROCESSOR_NAME];
  int len, nr, ns;
  MPI_Get_processor_name(name, &len);
  char want[64];
  snprintf(want, sizeof want, "node%d-%d", r / 4, r % 4);
  ASSERT(!strcmp(name, want), "rank %d: host %s, want %s", r, name, want);
  MPI_Comm_rank(node, &nr);
  MPI_Comm_size(node, &ns);
  ASSERT(nr == r % 4 && ns == 4, "rank %d: node rank %d of %d", r, nr, ns);
  /* Setup collectives on the node, executed for real. */
  int v = r, sum = 0, mx = 0, all[4] = {0};
  MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, node);
  MPI_Allreduce(&v, &mx, 1, MPI_INT, MPI_MAX, world);
  MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, node);
  long b = r == 4 * (r / 4) + 1 ? 1000 + r : -1;
  MPI_Bcast(&b, 1, MPI_LONG, 1, node);
  MPI_Barrier(world);
  int base = 4 * (r / 4);
  ASSERT(sum == 4 * base + 6, "rank %d: node sum %d", r, sum);
  ASSERT(mx == 11, "rank %d: world max %d", r, mx);
  ASSERT(all[0] == base && all[3] == base + 3, "rank %d: allgather %d..%d", r, all[0], all[3]);
  ASSERT(b == 1000 + base + 1, "rank %d: bcast %ld", r, b);
  /* A lane communicator (stride 4) and a message on it: recorded with world
   * ranks; a private buffer arrives for real. */
  MPI_Comm lane, dup;
  MPI_Comm_split(world, r % 4, -r, &lane); /* reversed order by key */
  MPI_Comm_dup(lane, &dup);
  int lr, ls;
  MPI_Comm_rank(dup, &lr);
  MPI_Comm_size(dup, &ls);
  ASSERT(ls == 3 && lr == 2 - r / 4, "rank %d: lane rank %d of %d", r, lr, ls);
  long out = 100 * r, in = -1;
  MPI_Sendrecv(&out, 1, MPI_LONG, (lr + 1) % ls, 5, &in, 1, MPI_LONG, (lr + ls - 1) % ls, 5, dup,
               MPI_STATUS_IGNORE);
  int from_world = (r + 4) % 12; /* lane rank lr - 1 is world rank r + 4 (mod 12) */
  ASSERT(in == 100 * from_world, "rank %d: received %ld, want %d", r, in, 100 * from_world);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&lane);
  ASSERT(lane == MPI_COMM_NULL, "rank %d: MPI_Comm_free sets MPI_COMM_NULL", r);
}

static void bad(int r, void *arg) {
  (void)r, (void)arg;
  int x = 0, y;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

/* Each rank sends its rank right and receives its left neighbour's into
 * a buffer on its stack: rank 0 blocks first, and rank p-1's send writes
 * into rank 0's saved stack (the ranks share one stack). */
static int ring_bad;
static void ring(int r, void *arg) {
  (void)arg;
  int p, left = -1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Sendrecv(&r, 1, MPI_INT, (r + 1) % p, 0, &left, 1, MPI_INT, (r + p - 1) % p, 0,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (left != (r + p - 1) % p) ring_bad++;
}

/* Recursion far deeper than the ranks' stack (64 KiB frames). */
static long deep(int n) {
  volatile char frame[64 << 10];
  frame[0] = (char)n;
  frame[sizeof frame - 1] = (char)n;
  return n == 0 ? frame[0] : deep(n - 1) + frame[sizeof frame - 1];
}
static void overflow(int r, void *arg) {
  (void)arg;
  if (r == 1) csrec_fail("deep returned %ld", deep(1 << 12));
}

/* Receives into the shared arena do not wait (posted like MPI_Irecv) and
 * keep MPI's matching order with a receive that waits: rank 0 posts an
 * arena receive of 16 bytes, then waits for a private int with the same
 * source and tag; rank 1 (which runs after rank 0 blocked) sends 8 arena
 * bytes, then the int. The first message must go to the posted receive
 * (recorded with the 8 bytes it got), the second into the private int. */
static int order_got = -1;
static void posted_order(int r, void *arg) {
  (void)arg;
  char *a = csrec_shared_malloc(64);
  if (r == 0) {
    int x = -1;
    MPI_Recv(a, 16, MPI_BYTE, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&x, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    order_got = x;
  } else {
    int v = 4242;
    MPI_Send(a, 8, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
    MPI_Send(&v, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
  }
  csrec_shared_free(a);
}

/* Posted receives from two senders, posted out of the senders' order:
 * each sender's messages match that sender's receives in the order they
 * were posted, whatever the queue's own order (it is kept by source). */
static void posted_sources(int r, void *arg) {
  (void)arg;
  char *a = csrec_shared_malloc(64);
  if (r == 0) {
    MPI_Recv(a, 16, MPI_BYTE, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(a, 16, MPI_BYTE, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(a, 16, MPI_BYTE, 2, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(a, 16, MPI_BYTE, 1, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (r == 1) {
    MPI_Send(a, 3, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
    MPI_Send(a, 4, MPI_BYTE, 0, 9, MPI_COMM_WORLD);
  } else {
    MPI_Send(a, 5, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
    MPI_Send(a, 6, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
  }
  csrec_shared_free(a);
}

/* An arena receive that no send ever matches: the deadlock MPI would have. */
static void never_matched(int r, void *arg) {
  (void)arg;
  char *a = csrec_shared_malloc(64);
  if (r == 1) MPI_Recv(a, 8, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  csrec_shared_free(a);
}

/* A chain against the ranks' order: rank p-1 sends m bytes to p-2, which
 * then sends to p-3, ... down to rank 0. Priced under ABG it takes
 * exactly (p-1)(alpha + beta (m + 16)), in a few of the evaluator's
 * sweeps (one per link would be p sweeps of p processes). */
enum { CHAIN_P = 100000, CHAIN_M = 100 };
static void chain(int r, void *arg) {
  (void)arg;
  char *a = csrec_shared_malloc(CHAIN_M);
  if (r < CHAIN_P - 1) MPI_Recv(a, CHAIN_M, MPI_BYTE, r + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (r > 0) MPI_Send(a, CHAIN_M, MPI_BYTE, r - 1, 0, MPI_COMM_WORLD);
  csrec_shared_free(a);
}

/* Half duplex (cs_model.half_duplex, a SHARED link per host): a one-way
 * message of m bytes alone costs alpha + beta (m + 16), an exchange of m
 * bytes each way alpha + 2 beta (m + 16) (both flows share both links);
 * full duplex, both cost the one-way time. */
enum { HD_M = 1000 };
static void one_way(int r, void *arg) {
  (void)arg;
  char *a = csrec_shared_malloc(HD_M);
  if (r == 0) MPI_Send(a, HD_M, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
  if (r == 1) MPI_Recv(a, HD_M, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  csrec_shared_free(a);
}
static void exchange(int r, void *arg) {
  (void)arg;
  char *a = csrec_shared_malloc(2 * HD_M);
  MPI_Sendrecv(a, HD_M, MPI_BYTE, 1 - r, 0, a + HD_M, HD_M, MPI_BYTE, 1 - r, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  csrec_shared_free(a);
}
static void test_half_duplex(void) {
  const double alpha = 1e-6, beta = 1e-9;
  void (*body[2])(int, void *) = {one_way, exchange};
  for (int half = 0; half <= 1; half++) {
    for (int k = 0; k < 2; k++) {
      cs_prog g;
      char err[512];
      ASSERT(cs_prog_init(&g, 2) == 0, "no memory for 2 programs");
      int rc = csrec_run(2, 0, body[k], NULL, &g, err, sizeof err);
      cs_model mo = cs_model_abg(alpha, beta, 0);
      mo.half_duplex = half;
      mo.f_beta = half ? 0.5 : 1;
      cs_model_stats st;
      rc = rc ? rc : cs_model_price(&mo, &g, &st, err, sizeof err);
      double want = alpha + (half && k == 1 ? 2 : 1) * beta * (HD_M + 16);
      ASSERT(rc == 0 && fabs(st.time - want) <= 1e-12 * want, "%s duplex, %s: %.12g s, want %.12g",
             half ? "half" : "full", k ? "an exchange" : "a one-way message", rc ? 0 : st.time,
             want);
      if (rc) fprintf(stderr, "%s\n", err);
      cs_prog_free(&g);
    }
  }
}

static void test_posted(void) {
  cs_prog g;
  char err[512];
  ASSERT(cs_prog_init(&g, 2) == 0, "no memory for 2 programs");
  int rc = csrec_run(2, 0, posted_order, NULL, &g, err, sizeof err);
  ASSERT(rc == 0, "posted receives: %s", rc ? err : "");
  ASSERT(order_got == 4242, "the waiting receive got %d, want the second message (4242)",
         order_got);
  ASSERT(g.r[0].n == 2 && g.r[0].first->from == 1 && g.r[0].first->rb == 8,
         "rank 0's first receive recorded %d steps, from %d, %u bytes (want 2 steps, 1, 8)",
         g.r[0].n, g.r[0].n ? g.r[0].first->from : -9, g.r[0].n ? g.r[0].first->rb : 0);
  cs_prog_free(&g);
  ASSERT(cs_prog_init(&g, 3) == 0, "no memory for 3 programs");
  rc = csrec_run(3, 0, posted_sources, NULL, &g, err, sizeof err);
  ASSERT(rc == 0, "posted receives of two senders: %s", rc ? err : "");
  if (rc == 0 && g.r[0].n == 4) {
    unsigned want[4] = {5, 3, 6, 4}, got[4];
    const cs_mop *o = g.r[0].first;
    for (int i = 0; i < 4; i++, o = i < 4 ? cs_mop_next(o) : o) got[i] = o->rb;
    ASSERT(!memcmp(got, want, sizeof want),
           "rank 0's receives recorded %u %u %u %u bytes, want 5 3 6 4", got[0], got[1], got[2],
           got[3]);
  } else {
    ASSERT(0, "rank 0 recorded %d steps, want 4", rc ? -1 : g.r[0].n);
  }
  cs_prog_free(&g);
  ASSERT(cs_prog_init(&g, 2) == 0, "no memory for 2 programs");
  rc = csrec_run(2, 0, never_matched, NULL, &g, err, sizeof err);
  ASSERT(rc != 0 && strstr(err, "never matched"), "an unmatched receive must fail: %s",
         rc ? err : "(no error)");
  cs_prog_free(&g);
  ASSERT(cs_prog_init(&g, CHAIN_P) == 0, "no memory for the chain");
  rc = csrec_run(CHAIN_P, 0, chain, NULL, &g, err, sizeof err);
  ASSERT(rc == 0, "chain: %s", rc ? err : "");
  cs_model mo = cs_model_abg(1e-6, 1e-9, 0);
  cs_model_stats st;
  rc = rc ? rc : cs_model_price(&mo, &g, &st, err, sizeof err);
  double want = (CHAIN_P - 1) * (1e-6 + 1e-9 * (CHAIN_M + 16));
  ASSERT(rc == 0 && fabs(st.time - want) <= 1e-9 * want, "chain priced %s: %.12g s, want %.12g",
         rc ? err : "", rc ? 0 : st.time, want);
  ASSERT(rc == 0 && st.sweeps <= 4, "the chain took %d sweeps of the evaluator, want <= 4",
         rc ? -1 : st.sweeps);
  cs_prog_free(&g);
}

/* cs_lsum (algos/local.c) in O(1) for regular, even and single layouts
 * against the plain sum of counts, wrapped ranges and first outside [0, p)
 * included (the kernels' O(1) offsets rest on it). */
static void test_lsum(void) {
  int counts[24], displs[24];
  for (int p = 1; p <= 23; p++) {
    for (int i = 0, d = 0; i < p; d += counts[i++]) {
      counts[i] = (i * 7) % 5;
      displs[i] = d;
    }
    cs_layout ls[] = {cs_layout_regular(p, 3), cs_layout_even(p, 5 * p + 3),
                      cs_layout_even(p, p / 2), cs_layout_single(p, p / 3, 11),
                      cs_layout_arrays(p, counts, displs)};
    for (int k = 0; k < 5; k++)
      for (int first = -p; first < 2 * p; first++)
        for (int n = 0; n <= p; n++) {
          long want = 0;
          for (int i = 0; i < n; i++) want += cs_lcount(&ls[k], ((first + i) % p + p) % p);
          long got = cs_lsum(&ls[k], first, n);
          ASSERT(got == want, "cs_lsum kind %d p %d first %d n %d: %ld, want %ld", k, p, first, n,
                 got, want);
        }
  }
}

/* A message of 5 GiB (a type of 1 GiB, count 5) from rank 0 to rank 1,
 * then an int back from rank 1's stack into rank 0's: blocking (arg NULL),
 * or nonblocking with rank 0's Irecv posted before rank 1 runs (the data
 * land in a switched-out stack). */
static int nb_got = -1;
static void big(int r, void *arg) {
  MPI_Datatype k256, gib; /* 256 KiB, then 4096 of them (a type map of one segment) */
  MPI_Type_contiguous(1 << 15, MPI_DOUBLE, &k256);
  MPI_Type_contiguous(1 << 12, k256, &gib);
  void *buf = csrec_shared_malloc((size_t)5 << 30);
  MPI_Request q[2];
  if (r == 0) {
    int got = -1;
    if (arg) {
      MPI_Irecv(&got, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, &q[0]);
      MPI_Isend(buf, 5, gib, 1, 0, MPI_COMM_WORLD, &q[1]);
      MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    } else {
      MPI_Send(buf, 5, gib, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(&got, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    nb_got = got;
  } else if (r == 1) {
    int v = 42;
    MPI_Recv(buf, 5, gib, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (arg) {
      MPI_Isend(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, &q[0]);
      MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    } else {
      MPI_Send(&v, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
  }
  csrec_shared_free(buf);
  MPI_Type_free(&gib);
  MPI_Type_free(&k256);
}

/* Rank 0 sends tag 1 then tag 2 to rank 1, which receives tag 2 first:
 * the second message matches before the first, out of the pair's order. */
static void overtake(int r, void *arg) {
  (void)arg;
  void *buf = csrec_shared_malloc(64);
  MPI_Request q[2];
  if (r == 0) {
    MPI_Isend(buf, 8, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Isend(buf, 16, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  } else if (r == 1) {
    MPI_Irecv(buf, 16, MPI_BYTE, 0, 2, MPI_COMM_WORLD, &q[0]);
    MPI_Irecv(buf, 8, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
  }
  csrec_shared_free(buf);
}

/* Sizes above 4 GiB are recorded exactly (record.h's escape) and priced
 * alike by both evaluators; private data of Isend/Irecv arrive. */
static void test_big(void) {
  for (int nb = 0; nb < 2; nb++) {
    cs_prog g;
    char err[512];
    cs_model_stats st;
    ASSERT(cs_prog_init(&g, 2) == 0, "no memory for 2 programs");
    nb_got = -1;
    int rc = csrec_run(2, 0, big, nb ? &g : NULL, &g, err, sizeof err);
    ASSERT(rc == 0, "5 GiB run failed: %s", err);
    ASSERT(nb_got == 42, "Irecv into a stack got %d, want 42", nb_got);
    ASSERT(g.nb == nb, "nonblocking steps recorded: nb = %d, want %d", g.nb, nb);
    const cs_mop *o = g.r[1].first;
    ASSERT(o && cs_mop_rbytes(&g, o) == (size_t)5 << 30, "recorded %zu bytes, want 5 GiB",
           o ? cs_mop_rbytes(&g, o) : 0);
    cs_model mo = cs_model_abg(1e-6, 1e-10, 0);
    rc = cs_model_price(&mo, &g, &st, err, sizeof err);
    /* the 5 GiB message, then the int (both alpha + beta (m + 16)) */
    double want = 2e-6 + 1e-10 * ((double)(5L << 30) + 16 + 4 + 16);
    ASSERT(rc == 0 && fabs(st.time - want) <= 1e-12 * want, "priced %.17g, want %.17g (%s)",
           st.time, want, rc ? err : "ok");
    cs_prog_free(&g);
  }
}

int main(void) {
  test_big();
  {
    cs_prog g;
    char err[512];
    ASSERT(cs_prog_init(&g, 2) == 0, "no memory for 2 programs");
    int rc = csrec_run(2, 0, overtake, NULL, &g, err, sizeof err);
    ASSERT(rc != 0 && strstr(err, "match out of their posting order"),
           "messages that overtake each other must fail the case: %s", rc ? err : "(priced)");
    cs_prog_free(&g);
  }
  test_lsum();
  test_posted();
  test_half_duplex();
  cs_prog g;
  ASSERT(cs_prog_init(&g, 12) == 0, "no memory for 12 programs");
  char err[512];
  int rc = csrec_run(12, 4, body, NULL, &g, err, sizeof err);
  ASSERT(rc == 0, "run failed: %s", err);
  ASSERT(deleted == 12, "the delete callback ran %d times at the end of the run, want 12", deleted);
  for (int r = 0; r < 12; r++) {
    /* Only the lane exchange is recorded: setup collectives cost nothing. */
    ASSERT(g.r[r].n == 1, "rank %d: %d recorded operations, want 1", r, g.r[r].n);
    if (g.r[r].n == 1) {
      cs_mop o = *g.r[r].first;
      ASSERT(o.to == (r + 12 - 4) % 12 && o.from == (r + 4) % 12 && o.sb == 8 && o.rb == 8,
             "rank %d: recorded to %d from %d (%u, %u bytes)", r, o.to, o.from, o.sb, o.rb);
    }
  }
  cs_prog_free(&g);
  ASSERT(cs_prog_init(&g, 3) == 0, "no memory for 3 programs");
  rc = csrec_run(3, 0, bad, NULL, &g, err, sizeof err);
  ASSERT(rc != 0 && strstr(err, "MPI_Allreduce"), "an unsupported call must fail naming it: %s",
         rc ? err : "(no error)");
  cs_prog_free(&g);
  /* A rank that overflows the stack fails the case with a message, and
   * the next case runs. */
  ASSERT(cs_prog_init(&g, 3) == 0, "no memory for 3 programs");
  rc = csrec_run(3, 0, overflow, NULL, &g, err, sizeof err);
  ASSERT(rc != 0 && strstr(err, "world rank 1 overflowed the ranks' stack"),
         "a stack overflow must fail the case saying so: %s", rc ? err : "(no error)");
  cs_prog_free(&g);
  ASSERT(cs_prog_init(&g, 5) == 0, "no memory for 5 programs");
  rc = csrec_run(5, 0, ring, NULL, &g, err, sizeof err);
  ASSERT(rc == 0 && ring_bad == 0, "ring after an overflow: %s, %d wrong", rc ? err : "ran",
         ring_bad);
  cs_prog_free(&g);
  return cs_test_end();
}
