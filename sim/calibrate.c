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

#define CAL_TAG 7301
/* Message buffers. SMPI: contents do not matter, one shared copy for all
 * simulated ranks. */
#ifdef SMPI_H
#define CAL_ALLOC(n) SMPI_SHARED_MALLOC(n)
#define CAL_FREE(p)  SMPI_SHARED_FREE(p)
#else
#define CAL_ALLOC(n) malloc(n)
#define CAL_FREE(p)  free(p)
#endif
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

/* One sample of the ping-pong (exchange: pc, the pair's communicator) of m
 * bytes with peer, after one untimed operation of the same size that warms
 * the caches and the transport; the time on the initiator (ping-pong) or on
 * both (exchange). */
static double pair_sample(MPI_Comm comm, MPI_Comm pc, int peer, int initiator, int exchange,
                          int global, char *sbuf, char *rbuf, long m) {
  if (exchange) {
    exchange_once(pc, global, sbuf, rbuf, m); /* warms caches */
    return exchange_once(pc, global, sbuf, rbuf, m);
  }
  pingpong(comm, peer, initiator, sbuf, rbuf, m); /* warms caches */
  return pingpong(comm, peer, initiator, sbuf, rbuf, m);
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
        double t = pair_sample(comm, pc, L->rank == 0 ? q : 0, L->rank == 0, exchange, global, sbuf,
                               rbuf, sizes[i]);
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

/* Buffers of local work of up to max bytes. */
typedef struct {
  double *in, *inout;
  char *src, *dst;
  long max;
} local_bufs;

static void local_free(local_bufs *B) {
  free(B->in), free(B->inout), free(B->src), free(B->dst);
  memset(B, 0, sizeof *B);
}

static int local_alloc(local_bufs *B, long max) {
  B->max = max;
  B->in = malloc((size_t)max), B->inout = malloc((size_t)max);
  B->src = malloc((size_t)max), B->dst = malloc((size_t)max);
  if (!B->in || !B->inout || !B->src || !B->dst) {
    fprintf(stderr, "collsim calibrate: out of memory for %ld-byte buffers\n", max);
    local_free(B);
    return -1;
  }
  for (long i = 0; i < max / 8; i++) B->in[i] = 1.0, B->inout[i] = 1.0;
  memset(B->src, 1, (size_t)max);
  memset(B->dst, 2, (size_t)max);
  return 0;
}

/* One sample of the kernels' local reduction (kind CS_CALIB_REDUCE: doubles,
 * sum) or copy (CS_CALIB_MEMCPY) of m bytes, through the kernels' own calls
 * (algos/local.c), so that under SMPI each is charged as a kernel's is: m
 * flops at the host's speed, or a calibrated platform's segments of its kind
 * (cs_local_flush: charges are batched until the next message, so now). The
 * mean time of one call over a batch of calls that moves at least 1 MiB (one
 * call under SMPI, whose clock is exact), after one untimed call. */
static double local_sample(local_bufs *B, int kind, long m) {
  volatile char sink = 0;
  double t0 = 0;
#ifdef SMPI_H
  long batch = 1;
#else
  long batch = ((1L << 20) + m - 1) / m;
  if (batch > 100000) batch = 100000;
#endif
  for (long b = -1; b < batch; b++) { /* b = -1: one untimed call warms the caches */
    if (b == 0) t0 = MPI_Wtime();
    if (kind == CS_CALIB_REDUCE) {
      cs_reduce_local(B->in, B->inout, m / 8, MPI_DOUBLE, MPI_SUM);
    } else {
      cs_copy(B->src, m / 8, MPI_DOUBLE, B->dst, m / 8, MPI_DOUBLE);
      __asm__ __volatile__("" : : "r"(B->dst) : "memory");
    }
    cs_local_flush(); /* the warm-up's (b = -1) before t0 is read */
  }
  double t = (MPI_Wtime() - t0) / (double)batch;
  sink ^= B->dst[m - 1];
  (void)sink;
  if (kind == CS_CALIB_REDUCE)
    for (long e = 0; e < m / 8; e += 4096) B->inout[e] = 1.0; /* keep values small */
  return t;
}

/* The local work of every size on rank 0 (local_sample), reductions first. */
static void measure_local(const cal_opts *o, FILE *f, long maxb) {
  long sizes[MAX_SIZES];
  int ns = sizes_local(o, sizes);
  local_bufs B;
  if (local_alloc(&B, maxb)) return;
  for (int kind = 0; kind < 2; kind++) {
    int k = kind == 0 ? CS_CALIB_REDUCE : CS_CALIB_MEMCPY;
    for (int r = -warmup(o); r < reps_local(o); r++) {
      for (int i = 0; i < ns; i++) {
        double t = local_sample(&B, k, sizes[i]);
        if (r >= 0) row(o, f, cs_csv_calib_kind(k), "0", 1, sizes[i], r, t);
      }
      if (f) fflush(f);
    }
  }
  local_free(&B);
}

/* The comment lines (backend, library, nodes) and the header of a samples file. */
static void write_head(FILE *f, const cal_layout *L, const cal_opts *o) {
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
  cs_calib_meta meta = {"", L->size, L->nnodes, o->quick, o->reps, warmup(o), o->max_bytes};
  snprintf(meta.backend, sizeof meta.backend, "%s", backend);
  cs_csv_calib_comment(f, &meta);
  cs_csv_calib_library(f, lib);
  for (int d = 0; d < L->nnodes; d++)
    cs_csv_calib_node(f, d, node_ranks(L, d), L->members[L->off[d]],
                      L->names + (size_t)L->members[L->off[d]] * MPI_MAX_PROCESSOR_NAME);
  cs_csv_write_header(f, CS_CSV_CALIB);
  fflush(f);
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
  char *sbuf = CAL_ALLOC((size_t)o.max_bytes), *rbuf = CAL_ALLOC((size_t)o.max_bytes);
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

  if (f) write_head(f, &L, &o);
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

/* ---- drift probes (validate) ----------------------------------------------- */

#define MAX_PROBES 64

struct cs_probes {
  cal_opts o;
  cal_layout L;
  FILE *f;
  int n, kind[MAX_PROBES];
  long bytes[MAX_PROBES];
  int q[2];       /* rank 0's partner inside node 0 and on node 1 (-1: none) */
  MPI_Comm pc[2]; /* ranks 0 and q[i], for exchanges */
  char *sbuf, *rbuf;
  local_bufs B;
  int rep;
};

/* The pair of a kind: 0 intra-node, 1 inter-node, -1 local work or flows. */
static int probe_pair(int kind) {
  switch (kind) {
  case CS_CALIB_PP_INTRA:
  case CS_CALIB_XCHG_INTRA: return 0;
  case CS_CALIB_PP_INTER:
  case CS_CALIB_XCHG_INTER: return 1;
  default: return -1;
  }
}

/* Parses "kind:b,b;kind:b" into P; 0, or -1 with a message in err. */
static int probes_parse(cs_probes *P, const char *spec, char *err, size_t len) {
  char *copy = strdup(spec), *save = NULL;
  if (!copy) return snprintf(err, len, "out of memory"), -1;
  int rc = 0;
  for (char *g = strtok_r(copy, ";", &save); g && rc == 0; g = strtok_r(NULL, ";", &save)) {
    char *colon = strchr(g, ':');
    if (colon) *colon = '\0';
    int kind = cs_csv_calib_kind_of(g);
    if (!colon || kind < 0 ||
        (probe_pair(kind) < 0 && kind != CS_CALIB_REDUCE && kind != CS_CALIB_MEMCPY)) {
      snprintf(err, len,
               "probe '%s': need KIND:BYTES,... with KIND pp_intra, pp_inter, "
               "xchg_intra, xchg_inter, reduce or memcpy",
               g);
      rc = -1;
      break;
    }
    for (char *b = colon + 1, *end; *b; b = *end ? end + 1 : end) {
      long m = strtol(b, &end, 10);
      int local = probe_pair(kind) < 0;
      if (end == b || (*end && *end != ',') || m < (local ? 8 : 0) || m > (1L << 30) ||
          (local && m % 8)) {
        snprintf(err, len, "probe %s: bad size in '%s' (0..2^30 bytes; local work: multiples of 8)",
                 g, colon + 1);
        rc = -1;
        break;
      }
      if (P->n == MAX_PROBES) {
        snprintf(err, len, "more than %d probes", MAX_PROBES);
        rc = -1;
        break;
      }
      P->kind[P->n] = kind;
      P->bytes[P->n++] = m;
    }
  }
  free(copy);
  return rc;
}

void cs_probes_close(cs_probes *P) {
  if (!P) return;
  if (P->f) fclose(P->f);
  for (int i = 0; i < 2; i++)
    if (P->pc[i] != MPI_COMM_NULL) MPI_Comm_free(&P->pc[i]);
  if (P->sbuf) CAL_FREE(P->sbuf);
  if (P->rbuf) CAL_FREE(P->rbuf);
  local_free(&P->B);
  layout_free(&P->L);
  free(P);
}

cs_probes *cs_probes_open(MPI_Comm comm, const char *spec, const char *path, int launch) {
  cs_probes *P = calloc(1, sizeof *P);
  char err[256] = "";
  int ok = P != NULL;
  if (P) {
    P->pc[0] = P->pc[1] = MPI_COMM_NULL;
    P->o.launch = launch > 0 ? launch : 1;
    ok = probes_parse(P, spec, err, sizeof err) == 0 && layout_init(comm, &P->L) == 0;
  }
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (!all) goto fail;
  cal_layout *L = &P->L;
  P->q[0] = node_ranks(L, 0) >= 2 ? L->members[1] : -1;
  P->q[1] = L->nnodes >= 2 ? L->members[L->off[1]] : -1;
  long maxnet = 0, maxloc = 0;
  int kept = 0;
  for (int i = 0; i < P->n; i++) {
    int x = probe_pair(P->kind[i]);
    if (x >= 0 && P->q[x] < 0) {
      /* this run's layout lacks the pair (the calibration ran on other nodes):
       * the probe is not measured, validate reports it without samples */
      if (L->rank == 0)
        fprintf(stderr, "collsim bench: drift probe %s %ld B skipped: it needs %s\n",
                cs_csv_calib_kind(P->kind[i]), P->bytes[i],
                x ? "two nodes" : "two ranks on node 0");
      continue;
    }
    long *mx = x >= 0 ? &maxnet : &maxloc;
    if (P->bytes[i] > *mx) *mx = P->bytes[i];
    P->kind[kept] = P->kind[i];
    P->bytes[kept++] = P->bytes[i];
  }
  P->n = kept;
  for (int x = 0; x < 2; x++)
    if (ok && P->q[x] >= 0)
      MPI_Comm_split(comm, L->rank == 0 || L->rank == P->q[x] ? 0 : MPI_UNDEFINED, L->rank,
                     &P->pc[x]);
  P->o.max_bytes = maxnet > maxloc ? maxnet : maxloc;
  int paired = L->rank == 0 || L->rank == P->q[0] || L->rank == P->q[1];
  if (ok && paired && maxnet > 0) {
    P->sbuf = CAL_ALLOC((size_t)maxnet), P->rbuf = CAL_ALLOC((size_t)maxnet);
    if (!P->sbuf || !P->rbuf) {
      snprintf(err, sizeof err, "out of memory for %ld-byte messages", maxnet);
      ok = 0;
    } else {
      memset(P->sbuf, 0x5a, (size_t)maxnet);
      memset(P->rbuf, 0, (size_t)maxnet);
    }
  }
  if (ok && L->rank == 0 && maxloc > 0 && local_alloc(&P->B, maxloc)) ok = 0;
  if (ok && L->rank == 0) {
    P->f = fopen(path, "a");
    if (!P->f) {
      snprintf(err, sizeof err, "cannot append to %s", path);
      ok = 0;
    } else if (ftell(P->f) == 0) {
      write_head(P->f, L, &P->o);
    }
  }
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (all) return P;
fail:
  if (err[0]) fprintf(stderr, "collsim bench: drift probes: %s\n", err);
  cs_probes_close(P);
  return NULL;
}

void cs_probes_round(cs_probes *P, MPI_Comm comm, int timed) {
  const cal_layout *L = &P->L;
  for (int i = 0; i < P->n; i++) {
    int kind = P->kind[i], x = probe_pair(kind);
    long m = P->bytes[i];
    char pair[32];
    double t;
    if (x >= 0) {
      int q = P->q[x];
      if (L->rank != 0 && L->rank != q) continue;
      int exchange = kind == CS_CALIB_XCHG_INTRA || kind == CS_CALIB_XCHG_INTER;
      t = pair_sample(comm, P->pc[x], L->rank == 0 ? q : 0, L->rank == 0, exchange,
                      L->node_of[0] == L->node_of[q], P->sbuf, P->rbuf, m);
      snprintf(pair, sizeof pair, "0-%d", q);
    } else {
      if (L->rank != 0) continue;
      t = local_sample(&P->B, kind, m);
      snprintf(pair, sizeof pair, "0");
    }
    if (timed) row(&P->o, P->f, cs_csv_calib_kind(kind), pair, 1, m, P->rep, t);
  }
  if (P->f) fflush(P->f);
  P->rep += timed != 0;
  quiet_barrier(comm);
}
