/* sgd: data-parallel training of a sparse linear model, the example
 * application of collsim's application libraries (apps/README.md).
 *
 * Every process trains the same model w (--params N weights) on batches of
 * its own synthetic samples (--batch B per step, --nnz K features each,
 * targets y = w_true . x); a step computes the process's gradient, sums the
 * gradients of all processes with ONE MPI_Allreduce of N 64-bit integers
 * (fixed point: every contribution rounded to 2^-FRAC, so the sum is exact
 * and the same whatever the order of the additions, as in deterministic
 * training), and applies it. So every allreduce moves N x 8 bytes, and any
 * correct allreduce algorithm gives every process the same bits.
 *
 * Its own check (PASS/FAIL on stdout, status 0/1): all processes end with
 * the same weights (MPI_MIN and MPI_MAX of a hash of w), those weights are
 * bit for bit what one process computes replaying the whole training alone,
 * and the loss on samples no step trained on fell.
 *
 * One source for both backends: smpicc (SMPI_H defined: the computation of
 * a step is charged as flops, deterministically, smpi_execute_flops) and
 * mpicc. Usage:
 *   sgd [--params N] [--steps S] [--batch B] [--nnz K]
 * Defaults: N = 32768, S = 10, B = 64, K = 8. No global variables: it runs
 * under every SMPI privatization mode, -no-privatize included. */
#include <mpi.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FRAC 24 /* fixed-point fraction bits of the gradients */

typedef struct {
  long n;      /* weights */
  int steps;   /* training steps */
  int batch;   /* samples per process and step */
  int nnz;     /* features per sample */
  double rate; /* learning rate */
} config;

static uint64_t mix(uint64_t x) { /* splitmix64 */
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

static double w_true(long j) { return sin(0.001 * (double)j) + 0.5; }

/* Feature f of sample s of process r at step t: index and value. */
static void feature(const config *c, int t, int r, int s, int f, long *j, double *v) {
  uint64_t h = mix(((uint64_t)t << 44) ^ ((uint64_t)r << 24) ^ ((uint64_t)s << 8) ^ (uint64_t)f);
  *j = (long)(h % (uint64_t)c->n);
  *v = (double)(h >> 40) / (double)(1ULL << 24) * 2.0 - 1.0;
}

/* Adds the fixed-point gradient of process r's batch at step t to g (if
 * not NULL) and returns its fixed-point squared error. */
static int64_t batch_gradient(const config *c, const double *w, int t, int r, int64_t *g) {
  int64_t loss = 0;
  for (int s = 0; s < c->batch; s++) {
    long j[64];
    double v[64], pred = 0, y = 0;
    for (int f = 0; f < c->nnz; f++) {
      feature(c, t, r, s, f, &j[f], &v[f]);
      pred += w[j[f]] * v[f];
      y += w_true(j[f]) * v[f];
    }
    double err = pred - y;
    loss += llround(err * err * (double)(1 << FRAC));
    for (int f = 0; g && f < c->nnz; f++) g[j[f]] += llround(err * v[f] * (double)(1 << FRAC));
  }
  return loss;
}

/* w -= step * G: a step of rate / |x|^2 per sample (|x|^2 = nnz / 3 on
 * average), divided by the number of samples that share a weight when they
 * overlap. The same operations in the same order on every process. */
static void apply(const config *c, double *w, const int64_t *g, int p) {
  double share = (double)c->batch * p * c->nnz / (double)c->n;
  double scale = c->rate * 3.0 / c->nnz / (share > 1 ? share : 1) / (double)(1 << FRAC);
  for (long j = 0; j < c->n; j++) w[j] -= scale * (double)g[j];
}

static uint64_t hash(const double *w, long n) {
  uint64_t h = 1469598103934665603ULL;
  for (long j = 0; j < n; j++) {
    uint64_t b;
    memcpy(&b, &w[j], 8);
    h = mix(h ^ b);
  }
  return h;
}

/* The work of one step on one process, charged in simulation (the training
 * itself is not what a study of collectives times: a deterministic charge
 * keeps runs reproducible); nothing on a real machine, where it takes what
 * it takes. */
static void charge_step(const config *c) {
#ifdef SMPI_H
  smpi_execute_flops(8.0 * c->batch * c->nnz + 2.0 * (double)c->n);
#else
  (void)c;
#endif
}

static int parse(int argc, char **argv, config *c) {
  for (int i = 1; i < argc; i++) {
    long v = i + 1 < argc ? atol(argv[i + 1]) : 0;
    if (!strcmp(argv[i], "--params") && v > 0)
      c->n = v;
    else if (!strcmp(argv[i], "--steps") && v > 0)
      c->steps = (int)v;
    else if (!strcmp(argv[i], "--batch") && v > 0)
      c->batch = (int)v;
    else if (!strcmp(argv[i], "--nnz") && v > 0 && v <= 64)
      c->nnz = (int)v;
    else {
      fprintf(stderr,
              "sgd: bad argument '%s' (valid: --params N, --steps S, --batch B, "
              "--nnz K with 1 <= K <= 64, all positive)\n",
              argv[i]);
      return -1;
    }
    i++;
  }
  return 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  config c = {32768, 10, 64, 8, 0.5};
  if (parse(argc, argv, &c)) MPI_Abort(MPI_COMM_WORLD, 2);
  double *w = calloc((size_t)c.n, sizeof *w);
  int64_t *g = malloc((size_t)c.n * sizeof *g), *sum = malloc((size_t)c.n * sizeof *sum);
  if (!w || !g || !sum) MPI_Abort(MPI_COMM_WORLD, 3);
  /* The loss on samples never trained on (those of step "steps"), before. */
  int64_t first = batch_gradient(&c, w, c.steps, r, NULL), last;
  for (int t = 0; t < c.steps; t++) {
    memset(g, 0, (size_t)c.n * sizeof *g);
    batch_gradient(&c, w, t, r, g);
    charge_step(&c);
    MPI_Allreduce(g, sum, (int)c.n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    apply(&c, w, sum, p);
  }

  /* The check, after the training. */
  last = batch_gradient(&c, w, c.steps, r, NULL);
  int64_t losses[2] = {first, last}, total[2];
  MPI_Allreduce(losses, total, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  uint64_t h = hash(w, c.n), lo, hi;
  MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  int ok = 1;
  if (r == 0) {
    double *ws = calloc((size_t)c.n, sizeof *ws);
    if (!ws) MPI_Abort(MPI_COMM_WORLD, 3);
    for (int t = 0; t < c.steps; t++) { /* the whole training on one process */
      memset(g, 0, (size_t)c.n * sizeof *g);
      for (int q = 0; q < p; q++) batch_gradient(&c, ws, t, q, g);
      apply(&c, ws, g, p);
    }
    int same = hash(ws, c.n) == h && !memcmp(ws, w, (size_t)c.n * sizeof *w);
    int fell = total[1] < total[0];
    ok = same && lo == hi && fell;
    printf(
        "sgd: p=%d params=%ld steps=%d batch=%d nnz=%d allreduce_bytes=%ld test loss %.6g -> %.6g\n",
        p, c.n, c.steps, c.batch, c.nnz, c.n * 8L, (double)total[0] / (1 << FRAC),
        (double)total[1] / (1 << FRAC));
    printf("sgd: %s (processes agree: %s; equal to one process's replay: %s; loss fell: %s)\n",
           ok ? "PASS" : "FAIL", lo == hi ? "yes" : "no", same ? "yes" : "no", fell ? "yes" : "no");
    free(ws);
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(w);
  free(g);
  free(sum);
  MPI_Finalize();
  return ok ? 0 : 1;
}
