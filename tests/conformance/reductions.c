/* Conformance: the reducing collectives the way applications call them.
 * MPI_Allreduce, MPI_Reduce (every root), MPI_Reduce_scatter_block,
 * MPI_Reduce_scatter (irregular counts with zeros), MPI_Scan, MPI_Exscan;
 * in place and not; counts 0, 1, p+1, 1000; int, long, unsigned, double,
 * C bool and a resized pair type with a non-zero lower bound; predefined
 * ops and user ops created with both commutativity flags (a commutative
 * function declared commutative, the same declared non-commutative, a
 * non-commutative one); on WORLD, a duplicate, two halves and reversed
 * ranks; ITERS calls in a row with changing data. Prints digests of every
 * rank's result (conf.h). Floating-point sums with cancellation cannot be
 * compared with the library bit for bit (the order of evaluation differs
 * between algorithms): for them each rank prints whether its result has
 * rank 0's bits and lies within the error bound of any order.
 *
 *   mpirun -np P reductions [ITERS]
 */
#include <float.h>
#include <math.h>
#include <stdbool.h>

#include "../assert.h"
#include "conf.h"

static void pair_comm(void *in, void *io, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; i++) {
    int *a = conf_pair(in, i), *b = conf_pair(io, i);
    b[0] += a[0];
    if (a[1] > b[1]) b[1] = a[1];
  }
}
/* Affine maps x -> a x + b (mod 251) composed in rank order. */
static void pair_affine(void *in, void *io, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; i++) {
    int *x = conf_pair(in, i), *y = conf_pair(io, i);
    int a = x[0] * y[0] % 251, b = (x[0] * y[1] + x[1]) % 251;
    y[0] = a, y[1] = b;
  }
}

static int fill_int(long i, int r, int it) {
  return (int)((r * 131L + i * 7 + it * 13) % 1999) - 999;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int iters = argc > 1 ? atoi(argv[1]) : 2;
  MPI_Datatype pair = conf_pair_type();
  MPI_Op ops[3];
  MPI_Op_create(pair_comm, 1, &ops[0]);
  MPI_Op_create(pair_comm, 0, &ops[1]);
  MPI_Op_create(pair_affine, 0, &ops[2]);
  const char *opn[3] = {"user-comm", "user-comm-declared-noncomm", "user-noncomm"};
  MPI_Comm comm;
  const char *cname;
  char label[200];
  int p, r;
  for (int k = 0; conf_comm(k, &comm, &cname, &p, &r); k++) {
    const int counts[4] = {0, 1, p + 1, 1000};
    for (int it = 0; it < iters; it++)
      for (int ci = 0; ci < 4; ci++) {
        int n = counts[ci];
        size_t big = (size_t)(n * p + 16);
        int *s = malloc(big * sizeof(int)), *d = malloc(big * sizeof(int));
        long *ls = malloc(big * sizeof(long)), *ld = malloc(big * sizeof(long));
        double *fs = malloc(big * sizeof(double)), *fd = malloc(big * sizeof(double));
        char *ps = calloc(big, 16), *pd = calloc(big, 16);
        for (int ip = 0; ip < 2; ip++) {
#define LBL(what) \
  snprintf(label, sizeof label, "%s comm=%s n=%d it=%d in_place=%d", what, cname, n, it, ip)
          /* int sum, long min, unsigned bxor, double max, bool lor */
          for (size_t i = 0; i < big; i++) {
            s[i] = fill_int((long)i, r, it);
            ls[i] = -fill_int((long)i, r, it) * 1000003L;
            fs[i] = fill_int((long)i, r, it) * 0.5;
          }
          struct {
            const char *name;
            void *sb, *rb;
            MPI_Datatype dt;
            MPI_Op op;
            size_t sz;
          } v[] = {{"allreduce int sum", s, d, MPI_INT, MPI_SUM, sizeof(int)},
                   {"allreduce long min", ls, ld, MPI_LONG, MPI_MIN, sizeof(long)},
                   {"allreduce unsigned bxor", s, d, MPI_UNSIGNED, MPI_BXOR, sizeof(int)},
                   {"allreduce double max", fs, fd, MPI_DOUBLE, MPI_MAX, sizeof(double)},
                   {"allreduce byte bor", s, d, MPI_BYTE, MPI_BOR, 1}};
          for (size_t t = 0; t < sizeof v / sizeof v[0]; t++) {
            memcpy(v[t].rb, v[t].sb, (size_t)n * v[t].sz);
            int rc = MPI_Allreduce(ip ? MPI_IN_PLACE : v[t].sb, v[t].rb, n, v[t].dt, v[t].op, comm);
            LBL(v[t].name);
            conf_digest(label, rc, v[t].rb, n, v[t].dt);
          }
          bool *bs = malloc(big), *bd = malloc(big);
          for (size_t i = 0; i < big; i++) bs[i] = bd[i] = (fill_int((long)i, r, it) % 3) == 0;
          int rc = MPI_Allreduce(ip ? MPI_IN_PLACE : bs, bd, n, MPI_C_BOOL, MPI_LOR, comm);
          LBL("allreduce c_bool lor");
          conf_digest(label, rc, bd, n, MPI_C_BOOL);
          free(bs), free(bd);
          /* user ops on the resized pair type */
          for (int o = 0; o < 3; o++) {
            for (long i = 0; i < n; i++) {
              conf_pair(ps, i)[0] = conf_pair(pd, i)[0] = 1 + (int)((r + i + it) % 250);
              conf_pair(ps, i)[1] = conf_pair(pd, i)[1] = (int)((r * 7 + i) % 251);
            }
            rc = MPI_Allreduce(ip ? MPI_IN_PLACE : ps, pd, n, pair, ops[o], comm);
            snprintf(label, sizeof label, "allreduce pair %s comm=%s n=%d it=%d in_place=%d",
                     opn[o], cname, n, it, ip);
            conf_digest(label, rc, pd, n, pair);
            for (int root = 0; root < p; root++) {
              for (long i = 0; i < n; i++)
                conf_pair(pd, i)[0] = conf_pair(ps, i)[0],
                              conf_pair(pd, i)[1] = conf_pair(ps, i)[1];
              rc = MPI_Reduce(ip && r == root ? MPI_IN_PLACE : ps, pd, n, pair, ops[o], root, comm);
              snprintf(label, sizeof label, "reduce pair %s root=%d comm=%s n=%d it=%d in_place=%d",
                       opn[o], root, cname, n, it, ip);
              conf_digest(label, rc, r == root ? pd : NULL, n, pair);
            }
          }
          /* reduce, every root, int sum */
          for (int root = 0; root < p; root++) {
            memcpy(d, s, (size_t)n * sizeof(int));
            rc = MPI_Reduce(ip && r == root ? MPI_IN_PLACE : s, d, n, MPI_INT, MPI_SUM, root, comm);
            snprintf(label, sizeof label, "reduce int sum root=%d comm=%s n=%d it=%d in_place=%d",
                     root, cname, n, it, ip);
            conf_digest(label, rc, r == root ? d : NULL, n, MPI_INT);
          }
          /* reduce_scatter_block: n per block */
          memcpy(d, s, (size_t)n * p * sizeof(int));
          rc = MPI_Reduce_scatter_block(ip ? MPI_IN_PLACE : s, d, n, MPI_INT, MPI_SUM, comm);
          LBL("reduce_scatter_block int sum");
          conf_digest(label, rc, d, n, MPI_INT);
          /* reduce_scatter: irregular counts with zeros (block i: (i*n) % 3) */
          int *rc_counts = malloc(sizeof(int) * (size_t)p), tot = 0;
          for (int i = 0; i < p; i++) tot += rc_counts[i] = (i * n + it) % 3 == 1 ? 0 : (i * n) % 5;
          memcpy(ld, ls, (size_t)tot * sizeof(long));
          rc = MPI_Reduce_scatter(ip ? MPI_IN_PLACE : ls, ld, rc_counts, MPI_LONG, MPI_MAX, comm);
          LBL("reduce_scatter long max");
          conf_digest(label, rc, ld, rc_counts[r], MPI_LONG);
          free(rc_counts);
          /* scan, exscan */
          memcpy(d, s, (size_t)n * sizeof(int));
          rc = MPI_Scan(ip ? MPI_IN_PLACE : s, d, n, MPI_INT, MPI_SUM, comm);
          LBL("scan int sum");
          conf_digest(label, rc, d, n, MPI_INT);
          memcpy(d, s, (size_t)n * sizeof(int));
          rc = MPI_Exscan(ip ? MPI_IN_PLACE : s, d, n, MPI_INT, MPI_SUM, comm);
          LBL("exscan int sum");
          conf_digest(label, rc, r > 0 ? d : NULL, n, MPI_INT);
          /* float and double sums with cancellation, double products: the
           * same bits on every rank, within the bound of any order */
          for (int t = 0; t < 3; t++) {
            float *f = (float *)fs;
            double bigv = t == 0 ? 1e6 : 1e16, mag = 0, exact = t == 2 ? 1 : 0;
            int ok = 1;
            for (int i = 0; i < n; i++) {
              int a = i % p, b = p > 1 ? (a + 1) % p : -1;
              double x = t == 2   ? 1.0 + ((r * 7 + i * 3 + it) % 19 - 9) / 97.0
                         : r == a ? bigv
                         : r == b ? -bigv
                                  : (t == 0 ? 1e-2 : 1.0) * (1 + (r + i) % 5);
              if (t == 0)
                f[i] = (float)x;
              else
                fs[i] = x;
            }
            void *buf = t == 0 ? (void *)f : (void *)fs;
            MPI_Datatype dt = t == 0 ? MPI_FLOAT : MPI_DOUBLE;
            double *res = fd;
            float *fres = (float *)fd;
            memcpy(res, buf, (size_t)n * (t == 0 ? 4 : 8));
            rc = MPI_Allreduce(ip ? MPI_IN_PLACE : buf, res, n, dt, t == 2 ? MPI_PROD : MPI_SUM,
                               comm);
            /* rank 0's bits to every rank, point to point */
            char *mine = malloc((size_t)n * 8 + 1), *r0 = malloc((size_t)n * 8 + 1);
            size_t nb = (size_t)n * (t == 0 ? 4 : 8);
            memcpy(mine, res, nb);
            if (r == 0)
              for (int q = 1; q < p; q++) MPI_Send(mine, (int)nb, MPI_BYTE, q, CONF_TAG, comm);
            else
              MPI_Recv(r0, (int)nb, MPI_BYTE, 0, CONF_TAG, comm, MPI_STATUS_IGNORE);
            int same = r == 0 || memcmp(mine, r0, nb) == 0;
            /* the bound of any order: gather nothing, recompute the inputs */
            for (int i = 0; i < n && ok; i++) {
              exact = t == 2 ? 1 : 0, mag = 0;
              for (int q = 0; q < p; q++) {
                int a = i % p, b = p > 1 ? (a + 1) % p : -1;
                double x = t == 2   ? 1.0 + ((q * 7 + i * 3 + it) % 19 - 9) / 97.0
                           : q == a ? bigv
                           : q == b ? -bigv
                                    : (t == 0 ? (double)(float)(1e-2 * (1 + (q + i) % 5))
                                              : 1.0 * (1 + (q + i) % 5));
                if (t == 2)
                  exact *= x;
                else
                  exact += x, mag += fabs(x);
              }
              if (t == 2) mag = fabs(exact) * 1.01;
              double got = t == 0 ? fres[i] : res[i];
              ok = fabs(got - exact) <= p * (t == 0 ? FLT_EPSILON : DBL_EPSILON) * mag;
            }
            free(mine), free(r0);
            char line[64];
            snprintf(line, sizeof line, "rc=%d same_bits_as_rank0=%d within_bound=%d", rc, same,
                     ok);
            snprintf(label, sizeof label, "allreduce %s comm=%s n=%d it=%d in_place=%d",
                     t == 0   ? "float sum cancellation"
                     : t == 1 ? "double sum cancellation"
                              : "double prod",
                     cname, n, it, ip);
            conf_report(label, line);
            /* the output is compared with the library's; these hold for both */
            ASSERT_EQ(rc, MPI_SUCCESS, "%s", label);
            ASSERT(same, "%s: rank %d's bits differ from rank 0's", label, r);
            ASSERT(ok, "%s: outside the error bound of any order", label);
          }
        }
        free(s), free(d), free(ls), free(ld), free(fs), free(fd), free(ps), free(pd);
      }
    conf_comm_free(&comm);
  }
  for (int o = 0; o < 3; o++) MPI_Op_free(&ops[o]);
  MPI_Type_free(&pair);
  conf_finish();
  MPI_Finalize();
  return cs_test_failed ? 1 : 0; /* each failure is on stderr; stdout stays comparable */
}
