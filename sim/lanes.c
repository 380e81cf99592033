/* The driver's lanes mode: Traff and Hunold's two multi-lane benchmarks
 * (multilane-collectives-traff-hunold-2020, Sec. II), one source for SMPI and
 * a real MPI, on the node and lane communicators of algos/ctx.h.
 *
 *   collsim-driver lanes --pattern k-lane|multi --counts C1,C2,... --k K1,K2,...
 *                        [--reps R] [--warmup W] [--inner I] [--out FILE]
 *
 * lane:  c MPI_INTs per node, split over the first k processes of every node
 *        (c / k each, the first c mod k of them one more), each sending to the
 *        process with its local rank on the next node and receiving from the
 *        previous one ((i + n) mod p, (i - n) mod p on a regular communicator)
 *        with blocking MPI_Sendrecv on its lane communicator, I times in a row
 *        without barriers.
 * multi: the first k lane communicators (local ranks 0 .. k-1) each run
 *        MPI_Alltoall with c MPI_INTs per process (c / N per block), I times.
 *
 * Timing: each repetition starts at a common start (common_start below:
 * the paper separates repetitions by MPI_Barrier, whose exit skew a
 * simulation would show as time); its time is the slowest process's from
 * that start (MPI_Reduce MAX) divided by I, i.e. the time of one
 * exchange (one alltoall) of a pipelined sequence. W repetitions are
 * discarded; the row gives mean, min and max over R. Under SMPI the run is
 * deterministic (default R = 1, W = 0, I = 4); on a real MPI R = 20, W = 2,
 * I = 20 by default. k larger than the processes per node is refused.
 * Default k: 1, 2, 4, ... and n.
 * Rank 0 appends rows (store/results.h, CS_CSV_LANES) to FILE (default stdout).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SMPI_HELPERS_H
#include <simgrid/actor.h>
#endif

#include "../algos/ctx.h"
#include "../algos/kernel.h"
#include "../store/results.h"
#include "driver.h"

#define MAXV 128

static int parse_list(const char *s, long *out, int max) {
  int n = 0;
  const char *q = s;
  while (*q) {
    char *end;
    long a = strtol(q, &end, 10);
    if (end == q || a < 0) return -1;
    long b = a;
    if (*end == '-') {
      q = end + 1;
      b = strtol(q, &end, 10);
      if (end == q || b < a) return -1;
    }
    for (long v = a; v <= b; v++) {
      if (n == max) return -1;
      out[n++] = v;
    }
    q = end;
    if (*q == ',')
      q++;
    else if (*q)
      return -1;
  }
  return n;
}

/* A common start for all processes of comm (as sim/bench.c times): they
 * agree on the latest clock after a barrier plus *window and wait for that
 * instant: in simulation by sleeping in simulated time until it (the
 * simulated clock is global), on a real MPI by cs_window_start (one clock:
 * all processes on one host, as collsim runs mpirun). Returns the start;
 * *late = 1 on some process if one got there after it (the caller redoes
 * the repetition with a wider window). Without it, the slowest process's
 * time would include the skew of the barrier's exit: 0.8 us on a 16-rank
 * lanes platform, as much as a small message. */
static double common_start(MPI_Comm comm, double *window, int *late) {
#ifdef SMPI_HELPERS_H
  MPI_Barrier(comm);
  double t = cs_now(), t1;
  MPI_Allreduce(&t, &t1, 1, MPI_DOUBLE, MPI_MAX, comm);
  double start = t1 + *window;
  int me = cs_now() > start;
  MPI_Allreduce(&me, late, 1, MPI_INT, MPI_MAX, comm);
  /* the agreement itself is not timed: it ends before start, or the caller redoes */
  if (!*late) sg_actor_sleep_until(start);
  return start;
#else
  int me = 0;
  double start = cs_window_start(comm, window, &me);
  MPI_Allreduce(&me, late, 1, MPI_INT, MPI_MAX, comm);
  return start;
#endif
}

static const char *optval(int argc, char **argv, int *i, const char *name) {
  size_t l = strlen(name);
  if (strncmp(argv[*i], name, l)) return NULL;
  if (argv[*i][l] == '=') return argv[*i] + l + 1;
  if (argv[*i][l] == '\0' && *i + 1 < argc) return argv[++*i];
  return NULL;
}

int cs_lanes_main(int argc, char **argv, MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
#ifdef SMPI_HELPERS_H
  int reps = 1, warmup = 0, inner = 4;
#else
  int reps = 20, warmup = 2, inner = 20;
#endif
  const char *pattern = NULL, *out = NULL;
  long counts[MAXV], ks[MAXV];
  int nc = 0, nk = 0, bad = 0;
  for (int i = 1; i < argc && !bad; i++) {
    const char *v;
    if ((v = optval(argc, argv, &i, "--pattern")))
      pattern = v;
    else if ((v = optval(argc, argv, &i, "--counts")))
      bad = (nc = parse_list(v, counts, MAXV)) <= 0;
    else if ((v = optval(argc, argv, &i, "--k")))
      bad = (nk = parse_list(v, ks, MAXV)) <= 0;
    else if ((v = optval(argc, argv, &i, "--reps")))
      bad = (reps = atoi(v)) < 1;
    else if ((v = optval(argc, argv, &i, "--warmup")))
      bad = (warmup = atoi(v)) < 0;
    else if ((v = optval(argc, argv, &i, "--inner")))
      bad = (inner = atoi(v)) < 1;
    else if ((v = optval(argc, argv, &i, "--out")))
      out = v;
    else
      bad = 1;
  }
  int multi = pattern && !strcmp(pattern, "multi");
  if (bad || !pattern || (!multi && strcmp(pattern, "k-lane")) || !nc) {
    if (rank == 0)
      fprintf(stderr,
              "collsim-driver lanes: usage: --pattern k-lane|multi --counts LIST --k LIST "
              "[--reps R] [--warmup W] [--inner I] [--out FILE]\n");
    return 2;
  }
  /* The node and lane communicators, made before anything is timed. */
  const cs_ctx *ctx;
  MPI_Comm lanecomm;
  if (cs_ctx_get(comm, &ctx) || cs_ctx_prepare(comm, CS_CTX_NODES | CS_CTX_LANES) ||
      cs_ctx_lanecomm(ctx, &lanecomm))
    return 1;
  int n = ctx->ppn, N = ctx->nnodes;
  if (!nk) { /* default: 1, 2, 4, ... below n, and n */
    for (long k = 1; k < n; k *= 2) ks[nk++] = k;
    ks[nk++] = n;
  }
  for (int i = 0; i < nk; i++)
    if (ks[i] < 1 || ks[i] > n) {
      if (rank == 0)
        fprintf(stderr, "collsim-driver lanes: k = %ld: valid are 1 .. %d (processes per node%s)\n",
                ks[i], n, ctx->regular ? "" : "; the communicator is not regular");
      return 2;
    }
  long maxc = 0;
  for (int i = 0; i < nc; i++)
    if (counts[i] > maxc) maxc = counts[i];
      /* lane: at most c / 1 ints per process; multi: c ints each way. */
      /* Simulation: the contents mean nothing, and one mapping serves every
       * process (cs_shared_scratch, as bench's buffers): one SMPI_SHARED_MALLOC
       * per process mapped 2 x 46 MB for each of 1152 ranks, and the library's
       * local copies (alltoall's own block) faulted in every process's pages:
       * most of the multi benchmark's wall time on hydra. */
#ifdef SMPI_HELPERS_H
#define BUF_ALLOC(slot, n) cs_shared_scratch(slot, n)
#define BUF_FREE(b)
#else
#define BUF_ALLOC(slot, n) malloc(n)
#define BUF_FREE(b)        free(b)
#endif
  int *sbuf = BUF_ALLOC(CS_SCRATCH_SEND, (size_t)(maxc + 1) * sizeof(int)),
      *rbuf = BUF_ALLOC(CS_SCRATCH_RECV, (size_t)(maxc + 1) * sizeof(int));
  if (!sbuf || !rbuf) {
    fprintf(stderr, "collsim-driver lanes: %ld ints: out of memory\n", maxc);
    return 1;
  }
#ifndef SMPI_HELPERS_H
  for (long j = 0; j <= maxc; j++) sbuf[j] = rank + (int)j;
#endif
  FILE *f = stdout;
  if (rank == 0 && out && !(f = fopen(out, "a"))) {
    perror(out);
    f = stdout;
  }
  int next = (ctx->node + 1) % N, prev = (ctx->node + N - 1) % N;
  double window = 1e-3; /* raised by cs_window_start on a real MPI, x10 when late */
  double *t = malloc((size_t)(reps + warmup) * sizeof(double));
  for (int ci = 0; ci < nc; ci++)
    for (int ki = 0; ki < nk; ki++) {
      long c = counts[ci];
      int k = (int)ks[ki], active = ctx->local < k;
      int mine = 0, block = 0;
      if (multi)
        block = (int)(c / N);
      else
        mine = (int)(c / k + (ctx->local < c % k));
      double sum = 0, lo = 0, hi = 0;
      for (int r = 0; r < reps + warmup; r++) {
        int late = 0;
        double t0 = common_start(comm, &window, &late);
        if (late) {
          window *= 10;
          r--;
          continue;
        }
        for (int it = 0; it < inner && active; it++) {
          if (multi)
            MPI_Alltoall(sbuf, block, MPI_INT, rbuf, block, MPI_INT, lanecomm);
          else
            MPI_Sendrecv(sbuf, mine, MPI_INT, next, 0, rbuf, mine, MPI_INT, prev, 0, lanecomm,
                         MPI_STATUS_IGNORE);
        }
        double mytime = (cs_now() - t0) / inner, slow = 0;
        MPI_Reduce(&mytime, &slow, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
        t[r] = slow;
      }
      if (rank == 0) {
        lo = hi = t[warmup];
        for (int r = warmup; r < reps + warmup; r++) {
          sum += t[r];
          if (t[r] < lo) lo = t[r];
          if (t[r] > hi) hi = t[r];
        }
        cs_csv_lanes_row(f, multi ? "multi" : "k-lane", size, N, n, k, c, reps, sum / reps, lo, hi);
        fflush(f);
      }
    }
  if (rank == 0 && f != stdout) fclose(f);
  free(t);
  BUF_FREE(sbuf);
  BUF_FREE(rbuf);
  return 0;
}
