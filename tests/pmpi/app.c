/* An ordinary MPI application, knowing nothing of collsim, for the PMPI test
 * (tests/pmpi/run.sh): it calls the collectives collsim has algorithms for
 * (alltoall too, and bcast, scan), with MPI_IN_PLACE, irregular and zero counts, several
 * roots, derived datatypes with gaps, a commutative and a non-commutative
 * user op, a split communicator, an intercommunicator and a wildcard receive
 * pending across a collective, and prints one line per case with a digest of every rank's
 * result (return code and the defined part of the receive buffer). The
 * digests reach rank 0 by point-to-point messages only, so the output is the
 * same, byte for byte, whichever algorithms computed the collectives.
 * All data are integers: results do not depend on the reduction order.
 *
 * Usage: mpirun -np P app [ITERATIONS=2]
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int p, r, iter;
static MPI_Comm digest_comm; /* digests only: no wildcard receive of a case sees them */
static MPI_Datatype vec_t, pair_t, four_t, strided_t;
static MPI_Op vec_op, affine_op;

/* ---- digests ------------------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *buf, size_t n) {
  const unsigned char *b = buf;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
  return h;
}

/* Every rank passes its digest of case `name`; rank 0 prints them in rank
 * order. */
static void report(const char *name, uint64_t h) {
  if (r == 0) {
    printf("%s it=%d:", name, iter);
    printf(" %016llx", (unsigned long long)h);
    for (int i = 1; i < p; i++) {
      uint64_t x;
      MPI_Recv(&x, 1, MPI_UINT64_T, i, 4242, digest_comm, MPI_STATUS_IGNORE);
      printf(" %016llx", (unsigned long long)x);
    }
    printf("\n");
  } else {
    MPI_Send(&h, 1, MPI_UINT64_T, 0, 4242, digest_comm);
  }
}

static uint64_t start(int rc) {
  uint64_t h = 14695981039346656037ULL;
  return fnv(h, &rc, sizeof rc);
}

/* ---- data ---------------------------------------------------------------- */

/* Element i of rank q's input: small integers of both signs. */
static int val(int q, long i) { return (int)((q * 131 + i * 7 + iter * 3) % 1009) - 500; }

static int *ints(long n, int fill) {
  long m = n > 0 ? n : 1;
  int *b = malloc(sizeof(int) * (size_t)m);
  for (long i = 0; i < m; i++) b[i] = fill;
  return b;
}
static int *input(long n) {
  int *b = ints(n, 0);
  for (long i = 0; i < n; i++) b[i] = val(r, i);
  return b;
}

/* vec: {int sum; int max} in 12 bytes (4-byte gap), a commutative user op. */
static void vec_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; i++) {
    int *a = (int *)((char *)in + 12 * (size_t)i), *b = (int *)((char *)inout + 12 * (size_t)i);
    b[0] += a[0];
    if (a[1] > b[1]) b[1] = a[1];
  }
}
/* affine maps x -> a x + b mod 251 composed in rank order: associative, not
 * commutative. */
static void affine_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; i++) {
    int *x = (int *)in + 2 * i, *y = (int *)inout + 2 * i;
    int a = x[0] * y[0] % 251, b = (x[0] * y[1] + x[1]) % 251;
    y[0] = a;
    y[1] = b;
  }
}

/* ---- cases ----------------------------------------------------------------- */

static void allreduce_int(long n, int inplace) {
  int *s = input(n), *d = ints(n, -7);
  if (inplace) memcpy(d, s, sizeof(int) * (size_t)n);
  int rc = MPI_Allreduce(inplace ? MPI_IN_PLACE : s, d, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  char name[64];
  snprintf(name, sizeof name, "allreduce int sum n=%ld%s", n, inplace ? " in-place" : "");
  report(name, fnv(start(rc), d, sizeof(int) * (size_t)n));
  free(s);
  free(d);
}

static void allreduce_long_max(void) {
  long s[37], d[37];
  for (int i = 0; i < 37; i++) s[i] = (long)val(r, i) * 100000L, d[i] = 0;
  int rc = MPI_Allreduce(s, d, 37, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  report("allreduce long max n=37", fnv(start(rc), d, sizeof d));
}

static void allreduce_vec(void) {
  enum { N = 9 };
  char s[12 * N], d[12 * N];
  memset(s, 0x11, sizeof s);
  memset(d, 0x22, sizeof d); /* the gaps must stay 0x22 */
  for (int i = 0; i < N; i++) {
    int a[2] = {val(r, i), val(r, 3 * i + 1)};
    memcpy(s + 12 * i, a, 8);
  }
  int rc = MPI_Allreduce(s, d, N, vec_t, vec_op, MPI_COMM_WORLD);
  report("allreduce vec user-op n=9", fnv(start(rc), d, sizeof d));
}

static void allreduce_noncomm(int inplace) {
  enum { N = 10 };
  int s[2 * N], d[2 * N];
  for (int i = 0; i < N; i++) {
    s[2 * i] = 1 + (r * 17 + i * 5 + iter) % 250;
    s[2 * i + 1] = (r * 29 + i * 11) % 251;
  }
  memcpy(d, s, sizeof d);
  int rc = MPI_Allreduce(inplace ? MPI_IN_PLACE : s, d, N, pair_t, affine_op, MPI_COMM_WORLD);
  report(inplace ? "allreduce noncomm n=10 in-place" : "allreduce noncomm n=10",
         fnv(start(rc), d, sizeof d));
}

static void allreduce_split(void) {
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, r % 2, p - r, &half); /* reversed order */
  int *s = input(100), *d = ints(100, 0);
  int rc = MPI_Allreduce(s, d, 100, MPI_INT, MPI_SUM, half);
  report("allreduce split-comm n=100", fnv(start(rc), d, 400));
  MPI_Comm_free(&half);
  free(s);
  free(d);
}

/* An intercommunicator (p >= 2): the lower and the upper half of the ranks;
 * each side gets the sum over the other side. */
static void allreduce_inter(void) {
#ifdef SMPI_H
  return; /* SMPI 3.32 has no intercommunicators (MPI_Intercomm_create hangs) */
#endif
  if (p < 2) return;
  int low = r < (p + 1) / 2;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, low, r, &local);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? (p + 1) / 2 : 0, 77, &inter);
  int *s = input(20), *d = ints(20, 0);
  int rc = MPI_Allreduce(s, d, 20, MPI_INT, MPI_SUM, inter);
  report("allreduce intercomm n=20", fnv(start(rc), d, 80));
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  free(s);
  free(d);
}

/* A wildcard receive pending on the communicator across a collective must
 * not take any message of the collective. */
static void allreduce_wildcard(void) {
  int got = -1, *s = input(50), *d = ints(50, 0);
  MPI_Request req;
  MPI_Status stt;
  MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
  int rc = MPI_Allreduce(s, d, 50, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int mine = 1000 + r;
  MPI_Send(&mine, 1, MPI_INT, (r + 1) % p, 99, MPI_COMM_WORLD);
  MPI_Wait(&req, &stt);
  uint64_t h = fnv(start(rc), d, 200);
  int meta[3] = {got, stt.MPI_SOURCE, stt.MPI_TAG};
  report("allreduce wildcard-irecv n=50", fnv(h, meta, sizeof meta));
  free(s);
  free(d);
}

static void reduce_int(long n, int root, int inplace) {
  int *s = input(n), *d = r == root ? ints(n, -3) : NULL;
  if (inplace && r == root) memcpy(d, s, sizeof(int) * (size_t)n);
  const void *sb = inplace && r == root ? MPI_IN_PLACE : s;
  int rc = MPI_Reduce(sb, d, (int)n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
  uint64_t h = start(rc);
  if (r == root) h = fnv(h, d, sizeof(int) * (size_t)n);
  char name[64];
  snprintf(name, sizeof name, "reduce int sum n=%ld root=%d%s", n, root,
           inplace ? " in-place" : "");
  report(name, h);
  free(s);
  free(d);
}

static void reduce_noncomm(int root) {
  enum { N = 6 };
  int s[2 * N], d[2 * N];
  for (int i = 0; i < N; i++) {
    s[2 * i] = 1 + (r * 13 + i * 3) % 250;
    s[2 * i + 1] = (r * 7 + i) % 251;
  }
  memset(d, 0, sizeof d);
  int rc = MPI_Reduce(s, d, N, pair_t, affine_op, root, MPI_COMM_WORLD);
  uint64_t h = start(rc);
  if (r == root) h = fnv(h, d, sizeof d);
  report("reduce noncomm n=6", h);
}

static void reduce_scatter_block_int(int n, int inplace) {
  long tot = (long)p * n;
  int *s = input(tot), *d = ints(inplace ? tot : n, -9);
  if (inplace) memcpy(d, s, sizeof(int) * (size_t)tot);
  int rc =
      MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : s, d, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  char name[64];
  snprintf(name, sizeof name, "reduce_scatter_block int sum n=%d%s", n, inplace ? " in-place" : "");
  report(name, fnv(start(rc), d, sizeof(int) * (size_t)n));
  free(s);
  free(d);
}

static void reduce_scatter_int(int inplace) {
  int *c = ints(p, 0);
  long tot = 0;
  for (int i = 0; i < p; i++) tot += c[i] = (i * 5 + 2 + iter) % 4 * 3; /* some zero */
  int *s = input(tot), *d = ints(inplace ? tot : c[r], -9);
  if (inplace) memcpy(d, s, sizeof(int) * (size_t)tot);
  int rc = MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : s, d, c, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  report(inplace ? "reduce_scatter int sum irregular in-place" : "reduce_scatter int sum irregular",
         fnv(start(rc), d, sizeof(int) * (size_t)c[r]));
  free(c);
  free(s);
  free(d);
}

static void allgather_int(int n, int inplace) {
  long tot = (long)p * n;
  int *s = input(n), *d = ints(tot, -1);
  if (inplace) memcpy(d + (long)r * n, s, sizeof(int) * (size_t)n);
  int rc = MPI_Allgather(inplace ? MPI_IN_PLACE : s, n, MPI_INT, d, n, MPI_INT, MPI_COMM_WORLD);
  char name[64];
  snprintf(name, sizeof name, "allgather int n=%d%s", n, inplace ? " in-place" : "");
  report(name, fnv(start(rc), d, sizeof(int) * (size_t)tot));
  free(s);
  free(d);
}

/* 4 MPI_INT sent, received as one four_t, or as 4 strided_t (every other
 * int: the gaps must stay untouched). */
static void allgather_types(void) {
  int s[4] = {val(r, 0), val(r, 1), val(r, 2), val(r, 3)};
  int *d = ints(4L * p, -1);
  int rc = MPI_Allgather(s, 4, MPI_INT, d, 1, four_t, MPI_COMM_WORLD);
  uint64_t h = fnv(start(rc), d, sizeof(int) * 4 * (size_t)p);
  int *e = ints(8L * p, -5);
  rc = MPI_Allgather(s, 4, MPI_INT, e, 4, strided_t, MPI_COMM_WORLD);
  h = fnv(fnv(h, &rc, sizeof rc), e, sizeof(int) * 8 * (size_t)p);
  report("allgather mixed+strided types", h);
  free(d);
  free(e);
}

static void allgatherv_int(int inplace) {
  int *c = ints(p, 0), *dis = ints(p, 0);
  long tot = 0;
  for (int i = 0; i < p; i++) c[i] = (i * 7 + 1 + iter) % 5;           /* some zero */
  for (int i = p - 1; i >= 0; i--) dis[i] = (int)tot, tot += c[i] + 1; /* reversed, holes */
  int *s = input(c[r]), *d = ints(tot, -4);
  if (inplace) memcpy(d + dis[r], s, sizeof(int) * (size_t)c[r]);
  int rc =
      MPI_Allgatherv(inplace ? MPI_IN_PLACE : s, c[r], MPI_INT, d, c, dis, MPI_INT, MPI_COMM_WORLD);
  report(inplace ? "allgatherv int reversed-holes in-place" : "allgatherv int reversed-holes",
         fnv(start(rc), d, sizeof(int) * (size_t)tot));
  free(c);
  free(dis);
  free(s);
  free(d);
}

static void gather_int(int n, int root, int inplace) {
  int *s = input(n), *d = r == root ? ints((long)p * n, -2) : NULL;
  int in = inplace && r == root;
  if (in) memcpy(d + (long)r * n, s, sizeof(int) * (size_t)n);
  int rc = MPI_Gather(in ? MPI_IN_PLACE : s, n, MPI_INT, d, n, MPI_INT, root, MPI_COMM_WORLD);
  uint64_t h = start(rc);
  if (r == root) h = fnv(h, d, sizeof(int) * (size_t)p * (size_t)n);
  char name[64];
  snprintf(name, sizeof name, "gather int n=%d root=%d%s", n, root, inplace ? " in-place" : "");
  report(name, h);
  free(s);
  free(d);
}

static void gatherv_int(int root) {
  int *c = ints(p, 0), *dis = ints(p, 0);
  long tot = 0;
  for (int i = 0; i < p; i++) c[i] = (i * 3 + iter) % 4;
  for (int i = 0; i < p; i++) dis[i] = (int)tot, tot += c[i] + 2;
  int *s = input(c[r]), *d = r == root ? ints(tot, -6) : NULL;
  int rc = MPI_Gatherv(s, c[r], MPI_INT, d, c, dis, MPI_INT, root, MPI_COMM_WORLD);
  uint64_t h = start(rc);
  if (r == root) h = fnv(h, d, sizeof(int) * (size_t)tot);
  report("gatherv int holes", h);
  free(c);
  free(dis);
  free(s);
  free(d);
}

static void scatter_int(int n, int root, int inplace) {
  int *s = r == root ? input((long)p * n) : NULL, *d = ints(n, -8);
  int in = inplace && r == root;
  int rc = MPI_Scatter(s, n, MPI_INT, in ? MPI_IN_PLACE : d, n, MPI_INT, root, MPI_COMM_WORLD);
  uint64_t h = start(rc);
  if (!in) h = fnv(h, d, sizeof(int) * (size_t)n);
  char name[64];
  snprintf(name, sizeof name, "scatter int n=%d root=%d%s", n, root, inplace ? " in-place" : "");
  report(name, h);
  free(s);
  free(d);
}

static void scatterv_int(int root) {
  int *c = ints(p, 0), *dis = ints(p, 0);
  long tot = 0;
  for (int i = 0; i < p; i++) c[i] = (i * 5 + 1 + iter) % 3;
  for (int i = p - 1; i >= 0; i--) dis[i] = (int)tot, tot += c[i] + 1;
  int *s = r == root ? input(tot) : NULL, *d = ints(c[r], -8);
  int rc = MPI_Scatterv(s, c, dis, MPI_INT, d, c[r], MPI_INT, root, MPI_COMM_WORLD);
  report("scatterv int reversed-holes", fnv(start(rc), d, sizeof(int) * (size_t)c[r]));
  free(c);
  free(dis);
  free(s);
  free(d);
}

/* p blocks of n ints each way; in place: the send data in the receive
 * buffer. */
static void alltoall_int(int n, int inplace) {
  long tot = (long)p * n;
  int *s = input(tot), *d = ints(tot, -3);
  if (inplace) memcpy(d, s, sizeof(int) * (size_t)tot);
  int rc = MPI_Alltoall(inplace ? MPI_IN_PLACE : s, n, MPI_INT, d, n, MPI_INT, MPI_COMM_WORLD);
  char name[64];
  snprintf(name, sizeof name, "alltoall int n=%d%s", n, inplace ? " in-place" : "");
  report(name, fnv(start(rc), d, sizeof(int) * (size_t)tot));
  free(s);
  free(d);
}

/* 2 MPI_INT per block sent, received as 2 strided_t (every other int: the
 * gaps must stay untouched). */
static void alltoall_strided(void) {
  int *s = input(2L * p), *e = ints(4L * p, -5);
  int rc = MPI_Alltoall(s, 2, MPI_INT, e, 2, strided_t, MPI_COMM_WORLD);
  report("alltoall strided type", fnv(start(rc), e, sizeof(int) * 4 * (size_t)p));
  free(s);
  free(e);
}

static void bcast_int(int n, int root) {
  int *b = r == root ? input(n) : ints(n, 0);
  int rc = MPI_Bcast(b, n, MPI_INT, root, MPI_COMM_WORLD);
  report("bcast int n=17", fnv(start(rc), b, sizeof(int) * (size_t)n));
  free(b);
}

static void scan_int(void) {
  int s[4] = {val(r, 0), val(r, 1), val(r, 2), val(r, 3)}, d[4] = {0};
  int rc = MPI_Scan(s, d, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  report("scan int sum n=4", fnv(start(rc), d, sizeof d));
}

static void exscan_int(void) {
  int s[4] = {val(r, 0), val(r, 1), val(r, 2), val(r, 3)}, d[4] = {0};
  int rc = MPI_Exscan(s, d, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) memset(d, 0, sizeof d); /* undefined at rank 0 (MPI) */
  report("exscan int sum n=4", fnv(start(rc), d, sizeof d));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* codes go into the digests */
  MPI_Comm_dup(MPI_COMM_WORLD, &digest_comm);
  int iters = argc > 1 ? atoi(argv[1]) : 2;

  MPI_Datatype pair, ints4;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_create_resized(pair, 0, 12, &vec_t);
  MPI_Type_commit(&vec_t);
  MPI_Type_free(&pair);
  MPI_Type_contiguous(2, MPI_INT, &pair_t);
  MPI_Type_commit(&pair_t);
  MPI_Type_contiguous(4, MPI_INT, &four_t);
  MPI_Type_commit(&four_t);
  MPI_Type_create_resized(MPI_INT, 0, 2 * sizeof(int), &ints4);
  strided_t = ints4;
  MPI_Type_commit(&strided_t);
  MPI_Op_create(vec_fn, 1, &vec_op);
  MPI_Op_create(affine_fn, 0, &affine_op);

  int last = p - 1, mid = p / 2, one = 1 % p;
  for (iter = 0; iter < iters; iter++) {
    allreduce_int(0, 0);
    allreduce_int(1, 0);
    allreduce_int(5, 0);
    allreduce_int(1000, 0);
    allreduce_int(1000, 1);
    allreduce_int(1 << 15, 0); /* 128 KiB: above the test's threshold */
    allreduce_long_max();
    allreduce_vec();
    allreduce_noncomm(0);
    allreduce_noncomm(1);
    allreduce_split();
    allreduce_wildcard();
    allreduce_inter();
    reduce_int(33, 0, 0);
    reduce_int(33, last, 0);
    reduce_int(33, mid, 1);
    reduce_int(0, one, 0);
    reduce_noncomm(last);
    reduce_scatter_block_int(3, 0);
    reduce_scatter_block_int(3, 1);
    reduce_scatter_block_int(0, 0);
    reduce_scatter_int(0);
    reduce_scatter_int(1);
    allgather_int(4, 0);
    allgather_int(4, 1);
    allgather_types();
    allgatherv_int(0);
    allgatherv_int(1);
    gather_int(3, mid, 0);
    gather_int(3, last, 1);
    gatherv_int(0);
    scatter_int(2, last, 0);
    scatter_int(2, 0, 1);
    scatterv_int(one);
    bcast_int(17, one);
    scan_int();
    exscan_int();
    alltoall_int(3, 0);
    alltoall_int(3, 1);
    alltoall_int(0, 0);
    alltoall_strided();
  }

  MPI_Op_free(&vec_op);
  MPI_Op_free(&affine_op);
  MPI_Type_free(&vec_t);
  MPI_Type_free(&pair_t);
  MPI_Type_free(&four_t);
  MPI_Type_free(&strided_t);
  MPI_Comm_free(&digest_comm);
  if (r == 0) printf("done p=%d iterations=%d\n", p, iters);
  MPI_Finalize();
  return 0;
}
