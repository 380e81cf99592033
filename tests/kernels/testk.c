/* Test-only kernels (testk.h). Each states what its model must price.
 *
 * Accepts: any p >= 1, any message size >= 0 (MPI_BYTE).
 * Schedule, cost and memory: per kernel below; the models of
 * tests/model_nb.sh must equal SMPI's simulated time to 1e-9. */
#include "testk.h"

#include <stddef.h>
#include <string.h>

#define TAG 7

/* fan: every rank sends to its next 3 ranks and receives from its
 * previous 3 at once (Isend/Irecv, Waitall): three flows share each link
 * up and each link down; then one blocking ring exchange. */
static int fan(const testk_args *a) {
  int r, p, k = 0;
  MPI_Comm_rank(a->world, &r);
  MPI_Comm_size(a->world, &p);
  MPI_Request q[6];
  char *rb = a->rbuf;
  for (int d = 1; d <= 3 && d < p; d++) {
    MPI_Irecv(rb + (size_t)d * a->bytes, a->bytes, MPI_BYTE, (r - d + p) % p, TAG, a->world,
              &q[k++]);
    MPI_Isend(a->sbuf, a->bytes, MPI_BYTE, (r + d) % p, TAG, a->world, &q[k++]);
  }
  int rc = MPI_Waitall(k, q, MPI_STATUSES_IGNORE);
  if (rc == MPI_SUCCESS && p > 1)
    rc = MPI_Sendrecv(a->sbuf, a->bytes, MPI_BYTE, (r + 1) % p, TAG, a->rbuf, a->bytes, MPI_BYTE,
                      (r - 1 + p) % p, TAG, a->world, MPI_STATUS_IGNORE);
  return rc;
}

/* star: rank 0 sends to every other rank at once, of growing sizes (flows
 * that end one after the other and leave their share to the rest), while
 * the others wait for it with a blocking receive, then send a quarter
 * back with Isend and wait; rank 0 receives them with Irecv and waits
 * for each in turn. */
static int star(const testk_args *a) {
  int r, p, rc = MPI_SUCCESS;
  MPI_Comm_rank(a->world, &r);
  MPI_Comm_size(a->world, &p);
  if (p == 1) return MPI_SUCCESS;
  if (r == 0) {
    MPI_Request q[2 * 64];
    int n = p - 1 < 64 ? p - 1 : 64, k = 0;
    for (int i = 1; i <= n; i++)
      MPI_Isend(a->sbuf, a->bytes * i / n, MPI_BYTE, i, TAG, a->world, &q[k++]);
    for (int i = 1; i <= n; i++)
      MPI_Irecv((char *)a->rbuf + (size_t)i * a->bytes, a->bytes / 4, MPI_BYTE, i, TAG, a->world,
                &q[k++]);
    for (int i = 0; i < k && rc == MPI_SUCCESS; i++) rc = MPI_Wait(&q[i], MPI_STATUS_IGNORE);
    return rc;
  }
  if (r > 64) return MPI_SUCCESS;
  int n = p - 1 < 64 ? p - 1 : 64;
  rc = MPI_Recv(a->rbuf, a->bytes * r / n, MPI_BYTE, 0, TAG, a->world, MPI_STATUS_IGNORE);
  MPI_Request q;
  if (rc == MPI_SUCCESS) rc = MPI_Isend(a->sbuf, a->bytes / 4, MPI_BYTE, 0, TAG, a->world, &q);
  return rc == MPI_SUCCESS ? MPI_Wait(&q, MPI_STATUS_IGNORE) : rc;
}

/* nodecoll: the library on the node communicator: MPI_Bcast from the
 * node's last rank, MPI_Allreduce, then node leaders exchange with a ring
 * (blocking) and the node bcasts again from its first rank. */
static int nodecoll(const testk_args *a) {
  int r, n, nr, rc;
  MPI_Comm_rank(a->world, &r);
  MPI_Comm_rank(a->node, &nr);
  MPI_Comm_size(a->node, &n);
  rc = MPI_Bcast(a->rbuf, a->bytes, MPI_BYTE, n - 1, a->node);
  if (rc == MPI_SUCCESS) rc = MPI_Allreduce(a->sbuf, a->rbuf, a->bytes, MPI_BYTE, MPI_BOR, a->node);
  int p;
  MPI_Comm_size(a->world, &p);
  if (rc == MPI_SUCCESS && nr == 0 && n < p) {
    int last = (p - 1) / a->ppn * a->ppn; /* the last node's leader */
    int next = r == last ? 0 : r + a->ppn, prev = r == 0 ? last : r - a->ppn;
    rc = MPI_Sendrecv(a->sbuf, a->bytes, MPI_BYTE, next, TAG, a->rbuf, a->bytes, MPI_BYTE, prev,
                      TAG, a->world, MPI_STATUS_IGNORE);
  }
  if (rc == MPI_SUCCESS) rc = MPI_Bcast(a->rbuf, a->bytes, MPI_BYTE, 0, a->node);
  return rc;
}

/* nodeall: every other collective of the library on the node
 * communicator, in SMPI's default algorithms: barrier, reduce, gather,
 * scatter, allgather, reduce_scatter_block, scan, exscan. */
static int nodeall(const testk_args *a) {
  int n, rc;
  MPI_Comm_size(a->node, &n);
  int b = a->bytes / (n > 0 ? n : 1);
  rc = MPI_Barrier(a->node);
  if (!rc) rc = MPI_Reduce(a->sbuf, a->rbuf, a->bytes, MPI_BYTE, MPI_BOR, n / 2, a->node);
  if (!rc) rc = MPI_Gather(a->sbuf, b, MPI_BYTE, a->rbuf, b, MPI_BYTE, 0, a->node);
  if (!rc) rc = MPI_Scatter(a->sbuf, b, MPI_BYTE, a->rbuf, b, MPI_BYTE, n - 1, a->node);
  if (!rc) rc = MPI_Allgather(a->sbuf, b, MPI_BYTE, a->rbuf, b, MPI_BYTE, a->node);
  if (!rc) rc = MPI_Reduce_scatter_block(a->sbuf, a->rbuf, b, MPI_BYTE, MPI_BOR, a->node);
  if (!rc) rc = MPI_Scan(a->sbuf, a->rbuf, a->bytes, MPI_BYTE, MPI_BOR, a->node);
  if (!rc) rc = MPI_Exscan(a->sbuf, a->rbuf, a->bytes, MPI_BYTE, MPI_BOR, a->node);
  return rc;
}

/* allred: MPI_Allreduce on the node communicator only (for selectors
 * whose other choices the models do not reproduce). */
static int allred(const testk_args *a) {
  return MPI_Allreduce(a->sbuf, a->rbuf, a->bytes, MPI_BYTE, MPI_BOR, a->node);
}

/* allgat: MPI_Allgather of bytes / (node size) per rank on the node
 * communicator only (ompi's selector: recursive doubling there). */
static int allgat(const testk_args *a) {
  int n;
  MPI_Comm_size(a->node, &n);
  int b = a->bytes / n;
  return MPI_Allgather(a->sbuf, b, MPI_BYTE, a->rbuf, b, MPI_BYTE, a->node);
}

/* rooted: MPI_Gather to the node's last rank and MPI_Scatter from its
 * middle one (mpich's selector: the in-order binomial trees). */
static int rooted(const testk_args *a) {
  int n;
  MPI_Comm_size(a->node, &n);
  int b = a->bytes / n;
  int rc = MPI_Gather(a->sbuf, b, MPI_BYTE, a->rbuf, b, MPI_BYTE, n - 1, a->node);
  return rc ? rc : MPI_Scatter(a->sbuf, b, MPI_BYTE, a->rbuf, b, MPI_BYTE, n / 2, a->node);
}

/* bcasts: MPI_Bcast on the node communicator from its last rank, then
 * from its first (mpich's selector: SMP_binomial). */
static int bcasts(const testk_args *a) {
  int n;
  MPI_Comm_size(a->node, &n);
  int rc = MPI_Bcast(a->rbuf, a->bytes, MPI_BYTE, n - 1, a->node);
  return rc ? rc : MPI_Bcast(a->rbuf, a->bytes, MPI_BYTE, 0, a->node);
}

/* splitcall: makes a communicator inside the call: the model must fail
 * and name MPI_Comm_split (never price it as free). */
static int splitcall(const testk_args *a) {
  int r;
  MPI_Comm c;
  MPI_Comm_rank(a->world, &r);
  int rc = MPI_Comm_split(a->world, r % 2, r, &c);
  if (rc == MPI_SUCCESS) rc = MPI_Comm_free(&c);
  return rc;
}

static const struct {
  const char *name;
  testk_fn fn;
} kernels[] = {{"fan", fan},         {"star", star},     {"nodecoll", nodecoll},
               {"nodeall", nodeall}, {"allred", allred}, {"allgat", allgat},
               {"rooted", rooted},   {"bcasts", bcasts}, {"splitcall", splitcall}};

testk_fn testk_find(const char *name) {
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
    if (!strcmp(kernels[i].name, name)) return kernels[i].fn;
  return NULL;
}

const char *testk_names(void) {
  return "fan, star, nodecoll, nodeall, allred, allgat, rooted, bcasts, splitcall";
}

int testk_setup(testk_args *a, int ppn) {
  int r;
  a->world = MPI_COMM_WORLD;
  a->ppn = ppn > 0 ? ppn : 1;
  MPI_Comm_rank(a->world, &r);
  return MPI_Comm_split(a->world, r / a->ppn, r, &a->node);
}
