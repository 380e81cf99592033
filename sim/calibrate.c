/* Calibration mode of the driver:
 *
 *   collsim-driver calibrate --samples FILE [--quick] [--reps N] [--max-bytes B] [--launch K]
 *
 * started by `./collsim calibrate` under mpirun (or smpirun, to calibrate a
 * simulated machine). It measures, and rank 0 writes every kept sample to
 * FILE (CSV, see docs/calibrate.md):
 *
 *   pp_intra, pp_inter  ping-pong of rank 0 with the first other rank of its own
 *                       node and with the first rank of the next node; one sample
 *                       per repetition = half the round-trip time
 *   xchg_intra, xchg_inter  the same pairs exchange m bytes both ways at once
 *                       (MPI_Sendrecv, as every exchange of the kernels); one
 *                       sample = one exchange from a common start to the later
 *                       end, timed as bench times a collective
 *   flow_inter          k = 1..ppn ranks of node 0 each ping-pong with a partner
 *                       on node 1 at the same time; one sample per repetition =
 *                       the slowest pair's half round trip (>= 2 nodes only)
 *   flow_intra          the same with k = 1..ppn/2 pairs inside the node (1 node only)
 *   reduce, memcpy      the kernels' own local reduction (cs_reduce_local: MPI_Reduce_local,
 *                       MPI_DOUBLE, MPI_SUM) and copy (cs_copy of contiguous doubles: a
 *                       memmove) of m bytes on rank 0, averaged over a batch of calls
 *
 * Sizes are interleaved (each repetition round runs every size once), every timed
 * operation follows an untimed one of the same size, and whole warm-up rounds are
 * run first and discarded. Node identity: under a real MPI
 * library the ranks that share MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) form
 * a node; under SMPI (where that gives one node per host) the processor name
 * as the topology module reads it (algos/topo.h: collsim's "node<N>-<j>" and
 * "node<N>" host names are node N).
 *
 * No writable file-scope state: under smpirun -no-privatize all ranks share
 * the globals of this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../algos/kernel.h"
#include "../algos/topo.h"
#include "../store/results.h"
#include "driver.h"

#ifdef SMPI_H
#include <smpi/smpi.h>
#endif

#define CAL_TAG   7301
#define MAX_SIZES 128

typedef struct {
  int quick, reps; /* reps > 0 overrides the defaults */
  long max_bytes;
  int launch; /* the launch column of every sample (launches.h) */
  const char *samples;
} cal_opts;

/* Where every rank runs: nodes numbered by their lowest rank; members[off[n]
 * .. off[n+1]) are the ranks of node n in increasing order. */
typedef struct {
  int rank, size, nnodes;
  int *node_of, *members, *off;
  char *names; /* size x MPI_MAX_PROCESSOR_NAME */
} cal_layout;

static void layout_free(cal_layout *L) {
  free(L->node_of);
  free(L->members);
  free(L->off);
  free(L->names);
}

static int layout_init(MPI_Comm comm, cal_layout *L) {
  memset(L, 0, sizeof *L);
  MPI_Comm_rank(comm, &L->rank);
  MPI_Comm_size(comm, &L->size);
  int n = L->size;
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  memset(name, 0, sizeof name);
  MPI_Get_processor_name(name, &len);
  /* Only rank 0 keeps the names (for the samples file). */
  L->names = calloc(L->rank == 0 ? (size_t)n : 1, MPI_MAX_PROCESSOR_NAME);
  int *leader_of = malloc(sizeof(int) * (size_t)n);
  L->node_of = malloc(sizeof(int) * (size_t)n);
  L->members = malloc(sizeof(int) * (size_t)n);
  L->off = malloc(sizeof(int) * (size_t)(n + 1));
  if (!L->names || !leader_of || !L->node_of || !L->members || !L->off) return -1;
  MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, L->names, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
             comm);
  /* The processes of my node: under SMPI those whose processor names the
   * topology module (algos/topo.h) puts on one node, as the kernel context
   * does; on a real machine those that share memory. A node's leader is its
   * lowest rank. */
  int leader = L->rank;
  MPI_Comm node;
#ifdef SMPI_H
  MPI_Comm_split(comm, cs_topo_node_key(name), L->rank, &node);
#else
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
#endif
  MPI_Allreduce(&L->rank, &leader, 1, MPI_INT, MPI_MIN, node);
  MPI_Comm_free(&node);
  MPI_Allgather(&leader, 1, MPI_INT, leader_of, 1, MPI_INT, comm);
  /* A node's leader is its lowest rank, so it is met before its members. */
  int nn = 0;
  for (int r = 0; r < n; r++) L->node_of[r] = leader_of[r] == r ? nn++ : L->node_of[leader_of[r]];
  L->nnodes = nn;
  int k = 0;
  for (int d = 0; d < nn; d++) {
    L->off[d] = k;
    for (int r = 0; r < n; r++)
      if (L->node_of[r] == d) L->members[k++] = r;
  }
  L->off[nn] = k;
  free(leader_of);
  return 0;
}

static int node_ranks(const cal_layout *L, int d) { return L->off[d + 1] - L->off[d]; }

/* ---- sizes and repetitions ---------------------------------------------- */

/* Ping-pong: 0 and every power of two up to max, with 1.5 x 2^k in between;
 * --quick: 0 and the powers of 16. */
static int sizes_pingpong(const cal_opts *o, long *s) {
  int n = 0;
  s[n++] = 0;
  for (long m = 1; m <= o->max_bytes && n < MAX_SIZES - 1; m *= o->quick ? 16 : 2) {
    s[n++] = m;
    if (!o->quick && m >= 2 && m + m / 2 <= o->max_bytes) s[n++] = m + m / 2;
  }
  return n;
}

/* Concurrent flows: large messages only (their rate is what is fitted). */
static int sizes_flows(const cal_opts *o, long *s) {
  int n = 0;
  for (long m = 16384; m <= o->max_bytes; m *= 4)
    if (!o->quick || m >= 65536) s[n++] = m;
  if (n == 0) s[n++] = o->max_bytes;
  return n;
}

/* Local work: multiples of 8 bytes (doubles) from 16 bytes up. */
static int sizes_local(const cal_opts *o, long *s) {
  int n = 0;
  for (long m = 16; m <= o->max_bytes && n < MAX_SIZES - 1; m *= o->quick ? 8 : 2) {
    s[n++] = m;
    if (!o->quick && m + m / 2 <= o->max_bytes) s[n++] = m + m / 2;
  }
  return n;
}

static int reps_pingpong(const cal_opts *o, long m) {
  if (o->reps > 0) return o->reps;
  if (o->quick) return m <= 65536 ? 10 : 5;
  return m <= 65536 ? 100 : m <= (1L << 20) ? 40 : 20;
}
static int reps_flows(const cal_opts *o) { return o->reps > 0 ? o->reps : o->quick ? 5 : 20; }
static int reps_local(const cal_opts *o) { return o->reps > 0 ? o->reps : o->quick ? 5 : 20; }
static int warmup(const cal_opts *o) { return o->quick ? 2 : 5; }

/* ---- measurements --------------------------------------------------------- */

/* A barrier for ranks that have nothing to do while others measure: it sleeps
 * between tests instead of polling, so that on an oversubscribed node the idle
 * ranks leave the cores to the measured ones. (SMPI: a plain barrier.) */
static void quiet_barrier(MPI_Comm comm) {
#ifdef SMPI_H
  MPI_Barrier(comm);
#else
  MPI_Request req;
  int done = 0;
  MPI_Ibarrier(comm, &req);
  for (;;) {
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done) break;
    struct timespec ts = {0, 50000};
    nanosleep(&ts, NULL);
  }
#endif
}

/* One round trip of m bytes between me and peer; returns half its time on
 * the initiating side (0 on the other). */
static double pingpong(MPI_Comm comm, int peer, int initiator, char *sbuf, char *rbuf, long m) {
  double t0 = MPI_Wtime();
  if (initiator) {
    MPI_Send(sbuf, (int)m, MPI_BYTE, peer, CAL_TAG, comm);
    MPI_Recv(rbuf, (int)m, MPI_BYTE, peer, CAL_TAG, comm, MPI_STATUS_IGNORE);
    return (MPI_Wtime() - t0) / 2;
  }
  MPI_Recv(rbuf, (int)m, MPI_BYTE, peer, CAL_TAG, comm, MPI_STATUS_IGNORE);
  MPI_Send(sbuf, (int)m, MPI_BYTE, peer, CAL_TAG, comm);
  return 0;
}

static void row(const cal_opts *o, FILE *f, const char *kind, const char *pair, int k, long m,
                int rep, double t) {
  if (f) cs_csv_calib_row(f, kind, pair, k, m, rep, t, o->launch);
}

/* One exchange of m bytes both ways (MPI_Sendrecv) between the two processes
 * of pair, timed as bench times a collective: from a common start
 * (cs_window_start) to the later end; returns that on both. Under SMPI the
 * preceding untimed exchange ends at one simulated instant on both sides,
 * the start. Timed alone right after another exchange, an exchange is
 * biased low when the partner is ahead (rank 0 also writes the samples):
 * its message is already there and only the local copy is timed (0.43 us
 * at 1 KiB here, against 1.1 us after a barrier). A pair on two nodes (no
 * common clock) starts after a barrier. */
static double exchange_once(MPI_Comm pair, int global, char *sbuf, char *rbuf, long m) {
  int me, late = 0;
  MPI_Comm_rank(pair, &me);
  double window = 0;
  for (;;) {
    double t0;
#ifdef SMPI_H
    (void)global;
    t0 = cs_now();
#else
    if (global) {
      t0 = cs_window_start(pair, &window, &late);
    } else {
      MPI_Barrier(pair);
      t0 = cs_now();
    }
#endif
    MPI_Sendrecv(sbuf, (int)m, MPI_BYTE, 1 - me, CAL_TAG, rbuf, (int)m, MPI_BYTE, 1 - me, CAL_TAG,
                 pair, MPI_STATUS_IGNORE);
    double v[2] = {cs_now() - t0, late}, all[2];
    MPI_Allreduce(v, all, 2, MPI_DOUBLE, MPI_MAX, pair);
    if (all[1] == 0) return all[0];
    window *= 10; /* somebody was late: again, with a wider window */
  }
}

/* Ping-pong (or exchange) of rank 0 with rank q; every rank calls this. */
static void measure_pair(MPI_Comm comm, const cal_layout *L, const cal_opts *o, int q, int exchange,
                         const char *kind, FILE *f, char *sbuf, char *rbuf) {
  long sizes[MAX_SIZES];
  int ns = sizes_pingpong(o, sizes);
  char pair[32];
  snprintf(pair, sizeof pair, "0-%d", q);
  MPI_Comm pc = MPI_COMM_NULL; /* ranks 0 and q, as 0 and 1 */
  if (exchange)
    MPI_Comm_split(comm, L->rank == 0 || L->rank == q ? 0 : MPI_UNDEFINED, L->rank, &pc);
  int global = L->node_of[0] == L->node_of[q]; /* cs_now: one clock per host */
  if (L->rank == 0 || L->rank == q) {
    int maxreps = 0, w = warmup(o);
    for (int i = 0; i < ns; i++)
      if (reps_pingpong(o, sizes[i]) > maxreps) maxreps = reps_pingpong(o, sizes[i]);
    for (int r = -w; r < maxreps; r++) {
      for (int i = 0; i < ns; i++) {
        if (r >= reps_pingpong(o, sizes[i])) continue;
        int peer = L->rank == 0 ? q : 0;
        double t;
        if (exchange) {
          exchange_once(pc, global, sbuf, rbuf, sizes[i]); /* warms caches */
          t = exchange_once(pc, global, sbuf, rbuf, sizes[i]);
        } else {
          pingpong(comm, peer, L->rank == 0, sbuf, rbuf, sizes[i]); /* warms caches */
          t = pingpong(comm, peer, L->rank == 0, sbuf, rbuf, sizes[i]);
        }
        if (r >= 0) row(o, f, kind, pair, 1, sizes[i], r, t);
      }
      if (f) fflush(f);
    }
  }
  if (pc != MPI_COMM_NULL) MPI_Comm_free(&pc);
  quiet_barrier(comm);
}

/* k pairs (senders[j], receivers[j]) ping-pong at once after a barrier of the
 * 2k ranks involved; the sample is the slowest pair's half round trip. The other
 * ranks wait in a quiet barrier. */
static void measure_flows(MPI_Comm comm, const cal_layout *L, const cal_opts *o, const int *senders,
                          const int *receivers, int kmax, const char *kind, FILE *f, char *sbuf,
                          char *rbuf) {
  long sizes[MAX_SIZES];
  int ns = sizes_flows(o, sizes);
  char pair[32];
  snprintf(pair, sizeof pair, "%d-%d", senders[0], receivers[0]);
  for (int k = 1; k <= kmax; k++) {
    int peer = -1, initiator = 0;
    for (int j = 0; j < k; j++) {
      if (senders[j] == L->rank) peer = receivers[j], initiator = 1;
      if (receivers[j] == L->rank) peer = senders[j];
    }
    /* Rank 0 (sender 0, the lowest rank) is rank 0 of sub. */
    MPI_Comm sub;
    MPI_Comm_split(comm, peer >= 0 ? 0 : MPI_UNDEFINED, L->rank, &sub);
    if (peer >= 0) {
      for (int r = -warmup(o); r < reps_flows(o); r++) {
        for (int i = 0; i < ns; i++) {
          pingpong(comm, peer, initiator, sbuf, rbuf, sizes[i]); /* warms caches */
          MPI_Barrier(sub);
          double t = pingpong(comm, peer, initiator, sbuf, rbuf, sizes[i]), tmax = 0;
          MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, sub);
          if (r >= 0) row(o, f, kind, pair, k, sizes[i], r, tmax);
        }
        if (f) fflush(f);
      }
      MPI_Comm_free(&sub);
    }
    quiet_barrier(comm);
  }
}

/* The kernels' local reduction (doubles, sum) and copy on rank 0, through the
 * kernels' own calls (algos/local.c), so that under SMPI each is charged as a
 * kernel's is: m flops at the host's speed, or a calibrated platform's
 * segments of its kind (cs_local_flush: charges are batched until the next
 * message, so now). A sample is the mean time of one call over a batch of
 * calls that moves at least 1 MiB (one call under SMPI, whose clock is
 * exact). */
static void measure_local(const cal_opts *o, FILE *f, long maxb) {
  long sizes[MAX_SIZES];
  int ns = sizes_local(o, sizes);
  double *in = malloc((size_t)maxb), *inout = malloc((size_t)maxb);
  char *src = malloc((size_t)maxb), *dst = malloc((size_t)maxb);
  if (!in || !inout || !src || !dst) {
    fprintf(stderr, "collsim calibrate: out of memory for %ld-byte buffers\n", maxb);
    free(in), free(inout), free(src), free(dst);
    return;
  }
  for (long i = 0; i < maxb / 8; i++) in[i] = 1.0, inout[i] = 1.0;
  memset(src, 1, (size_t)maxb);
  memset(dst, 2, (size_t)maxb);
  volatile char sink = 0;
  double t0 = 0;
  for (int kind = 0; kind < 2; kind++) {
    for (int r = -warmup(o); r < reps_local(o); r++) {
      for (int i = 0; i < ns; i++) {
        long m = sizes[i];
#ifdef SMPI_H
        long batch = 1;
#else
        long batch = ((1L << 20) + m - 1) / m;
        if (batch > 100000) batch = 100000;
#endif
        for (long b = -1; b < batch; b++) { /* b = -1: one untimed call warms the caches */
          if (b == 0) t0 = MPI_Wtime();
          if (kind == 0) {
            cs_reduce_local(in, inout, m / 8, MPI_DOUBLE, MPI_SUM);
          } else {
            cs_copy(src, m / 8, MPI_DOUBLE, dst, m / 8, MPI_DOUBLE);
            __asm__ __volatile__("" : : "r"(dst) : "memory");
          }
          cs_local_flush(); /* the warm-up's (b = -1) before t0 is read */
        }
        double t = (MPI_Wtime() - t0) / (double)batch;
        sink ^= dst[m - 1];
        if (kind == 0)
          for (long e = 0; e < m / 8; e += 4096) inout[e] = 1.0; /* keep values small */
        if (r >= 0)
          row(o, f, cs_csv_calib_kind(kind == 0 ? CS_CALIB_REDUCE : CS_CALIB_MEMCPY), "0", 1, m, r,
              t);
      }
      if (f) fflush(f);
    }
  }
  (void)sink;
  free(in), free(inout), free(src), free(dst);
}

/* ---- entry ------------------------------------------------------------------ */

static void usage(FILE *f) {
  fprintf(f,
          "usage: collsim-driver calibrate --samples FILE [--quick] [--reps N] [--max-bytes B]\n"
          "                                 [--launch K]\n"
          "(normally started by ./collsim calibrate)\n");
}

int cs_calibrate_main(int argc, char **argv, MPI_Comm comm) {
  cal_opts o = {0, 0, 0, 1, NULL};
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--quick"))
      o.quick = 1;
    else if (!strcmp(a, "--samples") && v)
      o.samples = argv[++i];
    else if (!strcmp(a, "--reps") && v)
      o.reps = atoi(argv[++i]);
    else if (!strcmp(a, "--max-bytes") && v)
      o.max_bytes = atol(argv[++i]);
    else if (!strcmp(a, "--launch") && v)
      o.launch = atoi(argv[++i]);
    else {
      if (rank == 0) {
        fprintf(stderr, "collsim calibrate: unknown driver option '%s'\n", a);
        usage(stderr);
      }
      return 2;
    }
  }
  if (!o.max_bytes) o.max_bytes = o.quick ? (1L << 20) : (16L << 20);
  if (!o.samples || o.max_bytes < 16 || o.max_bytes > (1L << 30) || o.reps < 0 || o.launch < 1) {
    if (rank == 0) {
      fprintf(stderr,
              "collsim calibrate: need --samples FILE, 16 <= --max-bytes <= 2^30, --reps >= 0\n");
      usage(stderr);
    }
    return 2;
  }
  cal_layout L;
  int ok = layout_init(comm, &L) == 0;
  FILE *f = NULL;
  if (rank == 0 && ok) {
    f = fopen(o.samples, "w");
    if (!f) fprintf(stderr, "collsim calibrate: cannot write %s\n", o.samples);
    ok = f != NULL;
  }
#ifdef SMPI_H
  /* Contents do not matter: one shared copy for all simulated ranks. */
  char *sbuf = SMPI_SHARED_MALLOC((size_t)o.max_bytes),
       *rbuf = SMPI_SHARED_MALLOC((size_t)o.max_bytes);
#define CAL_FREE(p) SMPI_SHARED_FREE(p)
#else
  char *sbuf = malloc((size_t)o.max_bytes), *rbuf = malloc((size_t)o.max_bytes);
#define CAL_FREE(p) free(p)
#endif
  if (!sbuf || !rbuf) ok = 0;
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
  if (!all_ok) {
    if (f) fclose(f);
    if (sbuf) CAL_FREE(sbuf);
    if (rbuf) CAL_FREE(rbuf);
    layout_free(&L);
    return 1;
  }
  memset(sbuf, 0x5a, (size_t)o.max_bytes);
  memset(rbuf, 0, (size_t)o.max_bytes);

  if (f) {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING + 1] = "";
    int len = 0;
    MPI_Get_library_version(lib, &len);
    lib[len < (int)sizeof lib ? (len > 0 ? len : 0) : (int)sizeof lib - 1] = '\0';
    lib[strcspn(lib, "\r\n")] = '\0';
    for (char *c = lib; *c; c++)
      if (*c == ',') *c = ';';
#ifdef SMPI_H
    const char *backend = "smpi";
#else
    const char *backend = "mpi";
#endif
    cs_calib_meta meta = {"", L.size, L.nnodes, o.quick, o.reps, warmup(&o), o.max_bytes};
    snprintf(meta.backend, sizeof meta.backend, "%s", backend);
    cs_csv_calib_comment(f, &meta);
    cs_csv_calib_library(f, lib);
    for (int d = 0; d < L.nnodes; d++)
      cs_csv_calib_node(f, d, node_ranks(&L, d), L.members[L.off[d]],
                        L.names + (size_t)L.members[L.off[d]] * MPI_MAX_PROCESSOR_NAME);
    cs_csv_write_header(f, CS_CSV_CALIB);
    fflush(f);
  }
  MPI_Barrier(comm);

  /* Ping-pong and exchange: intra-node, then inter-node. */
  for (int x = 0; x < 2; x++) {
    if (node_ranks(&L, 0) >= 2)
      measure_pair(comm, &L, &o, L.members[1], x,
                   cs_csv_calib_kind(x ? CS_CALIB_XCHG_INTRA : CS_CALIB_PP_INTRA), f, sbuf, rbuf);
    if (L.nnodes >= 2)
      measure_pair(comm, &L, &o, L.members[L.off[1]], x,
                   cs_csv_calib_kind(x ? CS_CALIB_XCHG_INTER : CS_CALIB_PP_INTER), f, sbuf, rbuf);
  }

  /* Concurrent flows. */
  int *snd = malloc(sizeof(int) * (size_t)L.size), *rcv = malloc(sizeof(int) * (size_t)L.size);
  int kmax = 0;
  const char *fkind = NULL;
  if (L.nnodes >= 2) {
    kmax = node_ranks(&L, 0) < node_ranks(&L, 1) ? node_ranks(&L, 0) : node_ranks(&L, 1);
    for (int j = 0; j < kmax; j++) snd[j] = L.members[j], rcv[j] = L.members[L.off[1] + j];
    fkind = cs_csv_calib_kind(CS_CALIB_FLOW_INTER);
  } else {
    kmax = node_ranks(&L, 0) / 2;
    for (int j = 0; j < kmax; j++) snd[j] = L.members[j], rcv[j] = L.members[kmax + j];
    fkind = cs_csv_calib_kind(CS_CALIB_FLOW_INTRA);
  }
  if (kmax >= 1) measure_flows(comm, &L, &o, snd, rcv, kmax, fkind, f, sbuf, rbuf);
  free(snd);
  free(rcv);

  /* Local work on rank 0 (the others wait in a quiet barrier). */
  if (rank == 0) measure_local(&o, f, o.max_bytes);
  quiet_barrier(comm);

  int rc = 0;
  if (f) {
    if (fflush(f) || ferror(f)) {
      fprintf(stderr, "collsim calibrate: error writing %s\n", o.samples);
      rc = 1;
    }
    fclose(f);
  }
  CAL_FREE(sbuf);
  CAL_FREE(rbuf);
  layout_free(&L);
  return rc;
}
