/* Timing mode of the driver: times one collective with several algorithms
 * over a list of sizes, the same source under SMPI and on a real MPI.
 *
 *   collsim-{smpi,mpi} bench --coll C --algos A,B --bytes m1,m2,... --out FILE
 *       [--reps R] [--warmup W] [--time-limit S] [--type byte|int|double]
 *       [--root R] [--in-place 0|1]
 *
 * Methodology: every process measures from a common start to its own end,
 * and a repetition's time is that of the slowest process (MPI_MAX). In
 * simulation the clock is global and exact and the harness sends no
 * message at all: the processes meet at a SimGrid barrier (agree_max),
 * which releases all of them at one simulated instant, the common start;
 * after the call they meet there again to agree on the slowest time (and
 * on errors). So the harness costs no simulated message, library
 * collectives (whose algorithm SMPI's selector would choose for lib:* rows)
 * are never used, and a run is bit-for-bit reproducible. On a real MPI,
 * ReproMPI-style window synchronization: the processes agree on a start
 * time in the future and wait for it; one that arrives after the start (the
 * window was too short) makes the repetition count as invalid and it is
 * redone with a wider window. That is done with CLOCK_MONOTONIC (cs_now: not
 * MPI_Wtime, whose origin is per process in Open MPI) when all processes are
 * on one host; otherwise each process measures from
 * its own exit of a barrier (OSU/IMB style) and the header says so. On a
 * real MPI the algorithms of a size are timed in rounds (each repetition
 * round, warm-ups included, calls every algorithm once: ReproMPI's
 * interleaving), so that a drift of the machine is shared by all algorithms;
 * in simulation one after the other.
 *
 * Simulated timing runs use SMPI_SHARED_MALLOC for all buffers (also the
 * kernels' temporaries) and skip the arithmetic of local work, whose cost
 * is still charged (gamma per byte). Real-MPI timing runs do all the work.
 * Before an (algorithm, size) is timed, one call on real buffers is checked
 * against the check harness's formulas (bench_verify): a wrong result is
 * written as such and never timed.
 *
 * Rank 0 appends one CSV row per (algorithm, size) to FILE and flushes it
 * (docs/csv.md "bench"); the front door writes the header and resumes.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../algos/collsim.h"
#include "../algos/kernel.h"
#include "../algos/sizes.h"
#include "../store/results.h"
#include "driver.h"
#include "libalgo.h"
#include "libcharge.h"
#include "libsetup.h"
#include "libtmp.h"
#ifdef SMPI_H /* defined by SMPI's mpi.h */
#include <simgrid/barrier.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <xbt/config.h>
#endif

/* Drift probe samples per probe and launch, at least: enough for a 95%
 * confidence interval of the median from order statistics (n >= 6 in
 * stats(); 12 leaves the interval inside the extremes). */
#define CS_PROBE_SAMPLES 12

/* Stack depth. Every simulated process runs on a stack of its own whose
 * pages the kernel maps on first touch (about 10-15 us each on the VM of
 * docs/scale.md's figures, and the unmapping again at the end), so the deepest
 * point a process reaches decides what its stack costs. The bare SMPI
 * program (benchmarks/floor.c) touches 2 pages per process; the frames on
 * bench's path to the timed call must add none. Buffers of what runs once
 * per case (the options, a verification, a row) therefore live in functions
 * of their own that are not inlined into cs_bench_main (CS_OUTLINE), where
 * they stayed reserved below every timed call (its frame was 2.5 KiB and
 * each process touched a third page), and the --lib-cfg string is on the
 * heap. */
#define CS_OUTLINE __attribute__((noinline))

typedef struct {
  cs_coll coll;
  char *algos;
  long *bytes;
  int nbytes;
  int reps, warmup;
  double time_limit;
  MPI_Datatype dt;
  MPI_Op op;
  int root, inplace;
  const char *out;
  int single;                      /* reduce_scatter: only the root's block, of all m */
  const char *samples;             /* rep-level times appended here (rank 0) */
  const char *probes, *probes_out; /* drift probes (driver.h) and their samples file */
  int launch;                      /* the probes' launch column */
  int verify; /* 0: every row; 1 (--verify=library): native rows only; 2 (--verify=none): none */
  int lib_charge; /* simulation: the library's reductions charged (libcharge.h) */
  MPI_Op libop;   /* the operation the library gets (cs_native_op): op, or op charged */
  char *lib_cfg;  /* the run's extra smpirun options (which algorithm ran), or NULL */
  int smpi_ppn;   /* processes per SimGrid host if equal on all, else 0 */
  int extra;      /* the CSV has the columns algo_ran, reduced_bytes, ... */
  int any_lib;    /* a row runs the library: its own (CS_NATIVE) or inside (lib_inside) */
  int out_bad;    /* rank 0 could not open the output file */
  /* This process's rank in the run's communicator, and its size: asked once
   * (an MPI_Comm_rank costs SMPI about 480 instructions, and the harness
   * asked 29 times per process, callgrind at 1024 ranks). */
  int r, p;
} bench_opts;

static int parse_longs(const char *s, long **out) {
  int n = 1;
  for (const char *c = s; *c; c++) n += *c == ',';
  long *v = malloc(sizeof(long) * (size_t)n);
  if (!v) return -1;
  char *end;
  int k = 0;
  const char *c = s;
  while (*c) {
    v[k++] = strtol(c, &end, 10);
    if (end == c || v[k - 1] < 0) {
      free(v);
      return -1;
    }
    c = *end == ',' ? end + 1 : end;
    if (*end && *end != ',') {
      free(v);
      return -1;
    }
  }
  *out = v;
  return k;
}

/* A buffer of b bytes for slot (CS_SCRATCH_SEND or _RECV): in simulation
 * one shared mapping per slot for every process (contents meaningless). */
static void *bbuf(size_t b, int shared, int slot) {
#ifdef SMPI_H
  if (shared) return cs_shared_scratch(slot, b + 64);
#endif
  (void)shared;
  (void)slot;
  return calloc(b + 64, 1);
}
static void bfree(void *p, int shared) {
  if (!shared) free(p);
}

/* The driver's clock. Real MPI: CLOCK_MONOTONIC, one clock for every process
 * of a host. Not MPI_Wtime: Open MPI 4.1 counts it from a per-process origin
 * (its first call), so two processes of one host differ by the instants of
 * their first calls (measured here: 0.3 us in one run, 22 us in another, up
 * to ms), and a common start computed from it started one process that much
 * early, adding the difference to every measured time (a 0-byte exchange
 * measured 6-15 us in a run instead of ~0.5 us). SMPI: the simulated clock. */
double cs_now(void) {
#ifdef SMPI_H
  /* MPI_Wtime returns simgrid_get_clock() and, with smpi/wtime 0 and
   * smpi/simulate-computation off (collsim's settings), adds no simulated
   * time; but its guard reads the thread CPU clock twice (system calls: 7 us
   * per call at 8192 ranks, perf). Read the clock directly then. */
  static int direct = -1;
  if (direct < 0)
    direct =
        sg_cfg_get_double("smpi/wtime") == 0 && !sg_cfg_get_boolean("smpi/simulate-computation");
  return direct ? simgrid_get_clock() : MPI_Wtime();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}
static double now(void) { return cs_now(); }

/* Waits until the common start time (real MPI only: in simulation the
 * agreement itself is the common start, see agree_max). */
static void wait_until(double start) {
  while (cs_now() < start) {}
}

double cs_window_start(MPI_Comm comm, double *window, int *late) {
  MPI_Barrier(comm);
  double t = now(), t1, t2;
  MPI_Allreduce(&t, &t1, 1, MPI_DOUBLE, MPI_MAX, comm);
  t = now();
  MPI_Allreduce(&t, &t2, 1, MPI_DOUBLE, MPI_MAX, comm);
  double d = t2 - t1;
  if (d < 1e-6) d = 1e-6;
  if (*window < 4 * d) *window = 4 * d;
  double start = t2 + *window;
  *late = now() > start;
  wait_until(start);
  return start;
}

/* Whether cs_now is one clock for all processes of comm: the simulated
 * clock, or all processes on one host (CLOCK_MONOTONIC). MPI_WTIME_IS_GLOBAL
 * says nothing about it. */
static int global_clock(MPI_Comm comm) {
#ifdef SMPI_H
  (void)comm;
  return 1;
#else
  int one = 1, all;
  /* Same host for all processes: one clock. */
  MPI_Comm node;
  int n, p;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &n);
  MPI_Comm_size(comm, &p);
  MPI_Comm_free(&node);
  one = n == p;
  MPI_Allreduce(&one, &all, 1, MPI_INT, MPI_MIN, comm);
  return all;
#endif
}

/* Median and a distribution-free 95% confidence interval of the median
 * (cs_median_ci, store/results.h), and the mean. */
static void stats(double *t, int n, double *med, double *mean, double *lo, double *hi) {
  double s = 0;
  for (int i = 0; i < n; i++) s += t[i];
  *mean = s / n;
  cs_median_ci(t, n, med, lo, hi);
}

/* Whether row a runs the library's collectives: it is the library's own
 * (CS_NATIVE), or calls collectives inside (CS_INNER) and COLLSIM_INNER
 * names none of collsim's for them (then every inner collective is the
 * library's). The library's work is charged in either case (cs_native_op
 * hands the library the charged operation wherever it runs); this decides
 * the untimed call that builds SMPI's node structure. */
static int runs_library(const cs_algo_info *a) {
  const char *inner = getenv("COLLSIM_INNER");
  return (a->flags & CS_NATIVE) || ((a->flags & CS_INNER) && (!inner || !*inner));
}

/* The operation the library gets (cs_native_op): the charged copy of the
 * run's operation (one run, one operation). */
static MPI_Op bench_op, bench_libop;
static MPI_Op charged_op(MPI_Op op) { return op == bench_op ? bench_libop : op; }

/* The registry row of a name of --algos: lib:SELECTOR runs the native row,
 * ROW@lib:SELECTOR the row ROW (smpirun was given the selector). */
static const cs_algo_info *row_of(cs_coll coll, const char *name) {
  if (cs_algo_at_lib(name, NULL)) return cs_algo_find_at_lib(coll, name);
  return cs_algo_find(coll, strncmp(name, "lib:", 4) ? name : "native");
}

/* The union of the flags of the run's algorithms (CS_NODE_AWARE: one reads
 * the kernel context; CS_NATIVE: one is the library's), and in *need the
 * union of the context communicators they read (cs_row_ctx_needs: no lane
 * communicators for rows on node and leaders only, such as NAP and hier;
 * the leaders' only where no row needs every lane). */
static unsigned algo_flags(const bench_opts *o, int *need) {
  char *list = strdup(o->algos);
  unsigned any = list ? 0 : ~0u;
  *need = list ? 0 : CS_CTX_NODES | CS_CTX_LANES;
  for (char *save = NULL, *name = list ? strtok_r(list, ",", &save) : NULL; name;
       name = strtok_r(NULL, ",", &save)) {
    const cs_algo_info *a = row_of(o->coll, name);
    if (a) any |= a->flags;
    if (a) *need |= cs_row_ctx_needs(a);
  }
  free(list);
  return any; /* LANES with LEADERS: cs_ctx_prepare_root makes the lanes only */
}

/* One call of the collective with algorithm a on the prepared buffers. */
typedef struct {
  void *sbuf, *rbuf;
  int *counts, *displs;
  long count; /* elements: vector, or block */
} bench_bufs;

static int call(const cs_algo_info *a, const bench_opts *o, bench_bufs *b, MPI_Comm comm) {
  cs_args x;
  int r = o->r;
  int rc = cs_args_for_rank(&x, o->coll, r, o->root, o->inplace, b->sbuf, b->rbuf, b->count,
                            b->counts, b->displs, o->dt, o->op, comm);
  if (rc != MPI_SUCCESS) return rc;
#ifdef SMPI_H
  /* on shared buffers: the library's temporaries too (libtmp.h) */
  if (cs_shared_buffers) cs_libtmp_shared(1);
#endif
  rc = cs_run(a, &x); /* cs_run charges pending work */
#ifdef SMPI_H
  if (cs_shared_buffers) cs_libtmp_shared(0);
#endif
  return rc;
}

/* The local work counters of all simulated processes (shared memory under
 * -no-privatize): collsim's reductions and copies, the library's. */
static void work_mark(double m[4]) {
  m[0] = cs_reduced_bytes;
  m[1] = cs_copied_bytes;
  m[2] = cs_lib_reduced_bytes;
  m[3] = cs_lib_copied_bytes;
}

/* Agreement of all processes of comm on the maximum of n <= 4 doubles
 * (max is exact, so every process gets the same bits), the timing harness's
 * only synchronisation.
 *
 * In simulation it sends no message: the simulated processes are
 * coroutines of one OS process, so they meet at a SimGrid barrier (a
 * simcall, no simulated time, no network model) around a board in the heap
 * of that process. The barrier releases every process at the same simulated
 * instant, the arrival of the last one, which therefore is an exact common
 * start for what follows: no idle wait and no window are needed. The board
 * is found through the environment, which all processes share whatever
 * SMPI's privatization of globals; actors run one at a time (SimGrid's
 * default contexts/nthreads:1), so its creation is not racy. Each slot is
 * reset by its last reader; two slots alternate, so a process that is
 * already at the next agreement never writes into one still being read.
 * Nothing here is a library collective, so SMPI's selector (lib:* rows)
 * applies to the timed collective only. The last process to arrive takes
 * the local work mark (work_mark) into the board: no process has started
 * anything after the agreement then, so a timed call that follows the
 * agreement with nothing in between needs no second one for its mark.
 *
 * On a real MPI library it is an MPI_Allreduce. */
#ifdef SMPI_H
typedef struct {
  sg_bar_t bar;
  int p;
  unsigned char *parity; /* per process: the slot of its next agreement */
  const void **host;     /* per process: its SimGrid host (smpi_ppn) */
  int *on_host;          /* per process: the processes on its host (smpi_ppn) */
  struct {
    int in, out; /* processes that wrote / read this slot */
    double v[4];
  } slot[2];
  double mark[4]; /* work_mark at the last agreement, taken by its last arrival */
} sim_board;

typedef struct {
  const void *host;
  int rank;
} sim_proc;

static sim_board *sim_board_get(int p) {
  /* Looked up once per process (a getenv and a strtoull at every agreement
   * were 2.6k instructions per process, callgrind at 1024 ranks); the cache
   * is per process under privatization, shared without, and right either way. */
  static sim_board *known;
  if (known && known->p == p) return known;
  static const char key[] = "COLLSIM_BENCH_BOARD";
  const char *e = getenv(key);
  sim_board *b = e ? (sim_board *)(uintptr_t)strtoull(e, NULL, 16) : NULL;
  if (!b) {
    b = calloc(1, sizeof *b);
    if (b) b->parity = calloc((size_t)p, 1);
    if (b) b->host = calloc((size_t)p, sizeof *b->host);
    if (!b || !b->parity || !b->host) {
      fprintf(stderr, "collsim bench: out of memory for the harness board\n");
      abort();
    }
    b->p = p;
    b->bar = sg_barrier_init((unsigned)p);
    char v[32];
    snprintf(v, sizeof v, "%llx", (unsigned long long)(uintptr_t)b);
    setenv(key, v, 1);
  }
  if (b->p != p) {
    fprintf(stderr, "collsim bench: the harness board serves one communicator of %d processes\n",
            b->p);
    abort();
  }
  known = b;
  return b;
}
#endif

static void agree_max(const bench_opts *o, double *v, int n, MPI_Comm comm) {
#ifdef SMPI_H
  (void)comm;
  int p = o->p, r = o->r;
  sim_board *b = sim_board_get(p);
  int s = b->parity[r];
  b->parity[r] ^= 1;
  double *x = b->slot[s].v;
  for (int i = 0; i < n; i++)
    if (b->slot[s].in == 0 || v[i] > x[i]) x[i] = v[i];
  if (++b->slot[s].in == p) work_mark(b->mark); /* the last arrival: nobody runs */
  sg_barrier_wait(b->bar);
  for (int i = 0; i < n; i++) v[i] = x[i];
  if (++b->slot[s].out == p) b->slot[s].in = b->slot[s].out = 0;
#else
  (void)o;
  MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, MPI_MAX, comm);
#endif
}

#ifdef SMPI_H
/* Fills b->on_host (or leaves it NULL without memory) by sorting the
 * processes by host: O(p log p) once, where a count by each process was
 * O(p^2) (10^9 comparisons at 32768 ranks). The first process released by
 * the agreement does it; processes run one at a time, none yields here. */
static int by_host(const void *x, const void *y) {
  uintptr_t a = (uintptr_t)((const sim_proc *)x)->host, b = (uintptr_t)((const sim_proc *)y)->host;
  return a < b ? -1 : a > b;
}
static void count_on_host(sim_board *b) {
  int p = b->p;
  sim_proc *v = malloc(sizeof *v * (size_t)p);
  int *n = malloc(sizeof *n * (size_t)p);
  if (v && n) {
    for (int i = 0; i < p; i++) v[i] = (sim_proc){b->host[i], i};
    qsort(v, (size_t)p, sizeof *v, by_host);
    for (int i = 0, j; i < p; i = j) {
      for (j = i; j < p && v[j].host == v[i].host; j++) {}
      for (int k = i; k < j; k++) n[v[k].rank] = j - i;
    }
    b->on_host = n;
  } else {
    free(n);
  }
  free(v);
}
#endif

/* The processes per node SMPI's selectors see (they group processes by
 * SimGrid host, Comm::init_smp) when every host holds as many, else 0
 * (libalgo.h); sends no message. 0 on a real MPI (unused there). */
static int smpi_ppn(const bench_opts *o, MPI_Comm comm) {
#ifdef SMPI_H
  int p = o->p, r = o->r;
  sim_board *b = sim_board_get(p);
  b->host[r] = sg_host_self();
  agree_max(o, NULL, 0, comm); /* every process has written its host */
  if (!b->on_host) count_on_host(b);
  int mine = b->on_host ? b->on_host[r] : 0;
  double v[2] = {mine, -mine};
  agree_max(o, v, 2, comm);
  return v[0] == -v[1] ? mine : 0;
#else
  (void)o;
  (void)comm;
  return 0;
#endif
}

/* The first non-zero size of the run (0 if none). */
static long first_nonempty(const bench_opts *o) {
  for (int i = 0; i < o->nbytes; i++)
    if (o->bytes[i] > 0) return o->bytes[i];
  return 0;
}

/* The algorithm a row of algorithm a (--algos name) runs for `total`
 * elements on p processes: name itself for collsim's kernels, else written
 * into ran (libalgo.h; "" where unknown). Every simulated process passes
 * here (bench_verify): a kernel's row formats nothing (an snprintf cost
 * about 15 us of CPU per process at 8192 ranks, perf). */
static const char *row_ran(const bench_opts *o, const cs_algo_info *a, const char *name, int p,
                           long total, int simulated, char *ran, size_t len) {
  if (!(a->flags & CS_NATIVE)) return name;
  int size, commute = 1;
  MPI_Type_size(o->dt, &size);
  MPI_Op_commutative(o->op, &commute);
  int split = cs_coll_shape(o->coll) == CS_SHAPE_SPLIT;
  int regular = !split || (!o->single && total % p == 0);
  if (!simulated)
    ran[0] = '\0'; /* a real library does not say, and its rules are not SMPI's */
  else
    cs_lib_algo_of_row(name, o->lib_cfg, o->coll, p, total, size, regular, commute, o->smpi_ppn,
                       ran, len);
  return ran;
}

/* Verifies the result of algorithm a (--algos name) once, on real buffers,
 * before a size is timed (sim/check.c cs_check_verify, the check harness's
 * formulas). Rank 0 writes a verify line for a case that is wrong (a KNOWN
 * library defect or not) or too large to check. Returns 1 on every rank iff
 * the case is wrong: it is then not timed and has no row. *checked is set
 * to 1 when it called anything (the check's collectives take simulated time
 * and do local work), *called to 1 when the algorithm ran (and was right). */
CS_OUTLINE static int bench_verify(const bench_opts *o, const cs_algo_info *a, const char *name,
                                   const bench_bufs *b, long total, long tb, MPI_Comm comm,
                                   FILE *out, int *checked, int *called) {
  int p = o->p, r = o->r;
  if (o->verify == 1 && !(a->flags & CS_NATIVE)) return 0;
  int split = cs_coll_shape(o->coll) == CS_SHAPE_SPLIT;
  char why[600];
#ifdef SMPI_H
  char ran[64];
  const char *abort_why =
      cs_lib_algo_aborts(o->coll, row_ran(o, a, name, p, total, 1, ran, sizeof ran), p);
  if (abort_why) {
    if (r == 0) {
      snprintf(why, sizeof why, "%s runs %s: %s; not run", name, ran, abort_why);
      cs_csv_bench_verify(out, name, tb, p, "known-defect", why);
      fflush(out);
      fprintf(stderr, "collsim bench: %s %s at %ld bytes: %s\n", cs_colls[o->coll].name, name, tb,
              why);
    }
    return 1;
  }
#endif
  if (o->verify == 2) { /* --verify none: said once per case, in the CSV */
    if (r == 0) cs_csv_bench_verify(out, name, tb, p, "unverified", "not checked (--verify none)");
    return 0;
  }
  *checked = 1;
  int v = cs_check_verify(o->coll, a, name, split ? total : b->count, o->single ? b->counts : NULL,
                          o->root, o->inplace, o->dt, comm, why, sizeof why);
  if (r == 0 && v != CS_VERIFY_OK) {
    static const char *status[] = {"ok", "unverified", "known-defect", "wrong"};
    cs_csv_bench_verify(out, name, tb, p, status[v], why);
    fflush(out);
    if (v != CS_VERIFY_SKIPPED)
      fprintf(stderr, "collsim bench: %s %s at %ld bytes: WRONG RESULT, not timed: %s\n",
              cs_colls[o->coll].name, name, tb, why);
  }
  *called = v == CS_VERIFY_OK;
  return v == CS_VERIFY_WRONG || v == CS_VERIFY_KNOWN;
}

/* The extra columns of a row (docs/csv.md): the algorithm that ran and the
 * local work of one call, from the counters' growth over `calls` calls since
 * mark0 (simulation only; NAN where not measured: the library's work when
 * it is not charged, everything on a real MPI). */
static void row_extra(const bench_opts *o, const cs_algo_info *a, const char *name, int p,
                      long total, int simulated, const double mark0[4], long calls,
                      cs_bench_extra *x, char *ran, size_t len) {
  /* The counters at the end of the last timed call: in simulation the mark
   * its closing agreement's last arrival took. Read live, rank 0's counters
   * could include work others started after that agreement released them
   * (the next algorithm of a shared run calls its first timed call without
   * another agreement). */
  double m[4];
#ifdef SMPI_H
  if (simulated)
    memcpy(m, sim_board_get(o->p)->mark, sizeof m);
  else
#endif
    work_mark(m);
  int lib = (a->flags & CS_NATIVE) != 0;
  x->algo_ran = row_ran(o, a, name, p, total, simulated, ran, len);
  x->reduced_bytes = x->copied_bytes = NAN;
  if (!simulated || calls < 1) return;
  /* collsim's work, the library's (charged) or both (a row with the
   * library's collectives inside: CS_INNER) */
  double red = 0, cop = 0;
  if (!lib) red += m[0] - mark0[0], cop += m[1] - mark0[1];
  if ((a->flags & (CS_NATIVE | CS_INNER)) && o->lib_charge)
    red += m[2] - mark0[2], cop += m[3] - mark0[3];
  if (!lib || o->lib_charge) {
    x->reduced_bytes = red / (double)calls;
    x->copied_bytes = cop / (double)calls;
  }
}

/* One algorithm's timing at one size. */
typedef struct {
  const cs_algo_info *a;
  const char *name;
  double *times; /* the kept repetitions' times (room for warmup + reps + 1) */
  int n;
  long calls;
  double mark0[4];
  double window; /* the current start window (real MPI, one host) */
  int verified;  /* its verification ran it at this size, on this communicator */
} algo_run;

/* Before an algorithm's first timed call. synced: the processes are
 * released from an agreement and have called nothing since (simulation). */
static void prepare_run(const bench_opts *o, algo_run *ar, bench_bufs *b, MPI_Comm comm, long bytes,
                        int simulated, int synced) {
  /* One exact global clock: every agreement releases all processes at one
   * simulated instant (agree_max), the common start of what follows. */
  if (simulated && !synced) agree_max(o, NULL, 0, comm);
  /* SMPI's node-aware algorithms build their node communicators on their
   * first call (Comm::init_smp, with collectives of its own), which would
   * land in the first timed repetition: library rows get one untimed call
   * at the run's first non-empty size, unless their verification has just
   * called them there on this communicator (that built it: at 1152 ranks a
   * linear scan's untimed call is 663 000 simulated messages). SMPI 3.32's
   * scan and exscan (one linear algorithm under every selector) never build
   * it: no untimed call (at 1152 ranks one costs minutes: docs/multilane.md). */
  int builds = o->coll != CS_scan && o->coll != CS_exscan;
  if (simulated && runs_library(ar->a) && bytes == first_nonempty(o) && !ar->verified && builds) {
    double crc = call(ar->a, o, b, comm) != MPI_SUCCESS;
    agree_max(o, &crc, 1, comm);
  }
  /* The local work of the timed calls only, counted from a mark taken
   * before any process starts its first timed call (a library copies before
   * its first message, and the counters are shared: a mark taken by each
   * process left out the first copy of a process scheduled before rank 0).
   * In simulation that is the mark the last agreement's last arrival took
   * (agree_max); only rank 0's mark is read (row_extra). */
#ifdef SMPI_H
  memcpy(ar->mark0, sim_board_get(o->p)->mark, sizeof ar->mark0);
#else
  work_mark(ar->mark0);
#endif
}

/* Repetition rep of an algorithm (kept from the warm-up on); 0, or 2 if the call failed. */
static int time_rep(const bench_opts *o, algo_run *ar, bench_bufs *b, MPI_Comm comm, int global,
                    int simulated, long bytes, int rep) {
  int r = o->r;
  double start = 0, all[3];
  for (;;) {
    double mine[3] = {0, 0, 0}, t0;
    if (simulated) {
      t0 = now(); /* the instant of the last agreement, the same for all */
    } else if (global) {
      int late;
      start = cs_window_start(comm, &ar->window, &late);
      mine[1] = late;
    } else {
      MPI_Barrier(comm);
      start = now();
    }
    if (!simulated) t0 = start;
#ifdef SMPI_H
    /* the library's copies are charged in timed calls only */
    int timed_lib = o->lib_charge && (ar->a->flags & (CS_NATIVE | CS_INNER));
    if (timed_lib) cs_libcharge_timed(1);
    cs_libsetup_timed(1); /* a set-up inside a timed call keeps its messages */
#endif
    int crc = call(ar->a, o, b, comm);
#ifdef SMPI_H
    cs_libsetup_timed(0);
    if (timed_lib) cs_libcharge_timed(0);
#endif
    ar->calls++;
    mine[0] = now() - t0;
    mine[2] = crc != MPI_SUCCESS;
    for (int k = 0; k < 3; k++) all[k] = mine[k];
    agree_max(o, all, 3, comm);
    if (all[2] != 0) {
      if (r == 0)
        fprintf(stderr, "collsim bench: %s %s failed for %ld bytes\n", cs_colls[o->coll].name,
                ar->name, bytes);
      return 2;
    }
    double late = all[1];
    if (late == 0) break;
    ar->window *= 10; /* somebody was late: redo with a wider window */
  }
  if (rep >= o->warmup) ar->times[ar->n++] = all[0];
  return 0;
}

/* Rank 0 (the one with out): an algorithm's samples (if asked) and its row. */
CS_OUTLINE static void emit_row(const bench_opts *o, algo_run *ar, int p, long total, long tb,
                                int simulated, FILE *out) {
  int n = ar->n;
  double *times = ar->times;
  if (out == NULL || n <= 0) return;
  if (o->samples) {
    FILE *sf = fopen(o->samples, "a");
    if (sf) {
      fseek(sf, 0, SEEK_END);
      if (ftell(sf) == 0) cs_csv_write_header(sf, CS_CSV_SAMPLES);
      for (int i = 0; i < n; i++)
        cs_csv_samples_row(sf, cs_colls[o->coll].name, ar->name, p, tb, i, times[i]);
      fclose(sf);
    } else {
      fprintf(stderr, "collsim bench: cannot append to %s\n", o->samples);
    }
  }
  double med, mean, lo, hi;
  double mn, mx;
  stats(times, n, &med, &mean, &lo, &hi);
  mn = times[0];
  mx = times[n - 1];
  cs_bench_extra x;
  char ran[128];
  row_extra(o, ar->a, ar->name, p, total, simulated, ar->mark0, ar->calls, &x, ran, sizeof ran);
  cs_csv_bench_row(out, cs_colls[o->coll].name, ar->name, p, tb, n, med, mean, mn, mx, lo, hi,
                   o->extra ? &x : NULL);
  fflush(out);
}

static int run_size(const bench_opts *o, long bytes, FILE *out, MPI_Comm comm, int global,
                    int simulated) {
  int p = o->p, r = o->r, size;
  MPI_Type_size(o->dt, &size);
  /* What size `bytes` means (algos/sizes.h): total elements of the whole
   * collective, and the count argument of the call. */
  long total = cs_size_elems(o->coll, p, bytes, size);
  int split = cs_coll_shape(o->coll) == CS_SHAPE_SPLIT;
  bench_bufs b;
  memset(&b, 0, sizeof b);
  b.count = cs_size_count(o->coll, p, total);
  if (total > 2147483647L) {
    if (r == 0) fprintf(stderr, "collsim bench: %ld bytes exceed MPI's int counts\n", bytes);
    return 2;
  }
  int shared = simulated;
  size_t tb = (size_t)total * (size_t)size;
  if (split) {
    /* Real memory: shared blocks alias each other's contents. */
    b.counts = malloc(sizeof(int) * (size_t)p);
    b.displs = malloc(sizeof(int) * (size_t)p);
    if (b.counts && b.displs) cs_split_even(total, p, b.counts, b.displs);
    if (b.counts && b.displs && o->single)
      for (int i = 0; i < p; i++) {
        b.counts[i] = i == o->root ? (int)total : 0;
        b.displs[i] = i <= o->root ? 0 : (int)total;
      }
  }
  b.sbuf = bbuf(tb, shared, CS_SCRATCH_SEND);
  b.rbuf = bbuf(tb, shared, CS_SCRATCH_RECV);
  int rc = MPI_SUCCESS;
  if (!b.sbuf || !b.rbuf || (split && (!b.counts || !b.displs))) rc = MPI_ERR_NO_MEM;
  char *list = strdup(o->algos);
  int maxreps = o->warmup + o->reps, nalg = 1, nrun = 0;
  for (const char *c = o->algos; *c; c++) nalg += *c == ',';
  double *times = malloc(sizeof(double) * (size_t)(maxreps + 1) * (size_t)nalg);
  algo_run *runs = calloc((size_t)nalg, sizeof(algo_run));
  if (!list || !times || !runs) rc = MPI_ERR_NO_MEM;
  /* The run's one agreement on errors before anything is called: memory
   * here, and rank 0's output file (said by rank 0 when it failed). */
  double err_all[2] = {rc != MPI_SUCCESS, o->out_bad};
  agree_max(o, err_all, 2, comm);
  if (err_all[0] != 0 || err_all[1] != 0) {
    if (r == 0 && err_all[0] != 0)
      fprintf(stderr, "collsim bench: out of memory for %ld bytes\n", bytes);
    rc = 2;
    goto out;
  }
  int synced = 1; /* released by that agreement, nothing called since */
  /* The algorithms to time at this size: those whose result is right. */
  for (char *save = NULL, *name = strtok_r(list, ",", &save); name;
       name = strtok_r(NULL, ",", &save)) {
    const cs_algo_info *a = row_of(o->coll, name);
    if (!a) {
      if (r == 0) fprintf(stderr, "collsim bench: unknown algorithm %s\n", name);
      rc = 2;
      goto out;
    }
    int checked = 0, ran = 0;
    int wrong = bench_verify(o, a, name, &b, total, (long)tb, comm, out, &checked, &ran);
    synced &= !checked;
    if (wrong) continue;
    algo_run *ar = &runs[nrun++];
    ar->verified = ran;
    ar->a = a;
    ar->name = name;
    ar->times = times + (size_t)(nrun - 1) * (size_t)(maxreps + 1);
  }
  if (simulated) {
    /* One algorithm after the other: the clock is exact, and the local work
     * counters are read around each algorithm's calls. */
    for (int k = 0; k < nrun && rc == 0; k++) {
      /* after the first algorithm, its last agreement is the sync */
      prepare_run(o, &runs[k], &b, comm, bytes, simulated, synced || k > 0);
      for (int rep = 0; rep < maxreps && rc == 0; rep++)
        rc = time_rep(o, &runs[k], &b, comm, global, simulated, bytes, rep);
      if (rc == 0) emit_row(o, &runs[k], p, total, (long)tb, simulated, out);
    }
  } else {
    /* Real MPI: the algorithms in rounds (each round calls every algorithm
     * once), so that a drift of the machine during the size is shared by all of
     * them instead of landing on one algorithm's block of repetitions. The time
     * limit is per algorithm, so the rounds stop after nrun times it. */
    double wall0 = now();
    for (int k = 0; k < nrun; k++) prepare_run(o, &runs[k], &b, comm, bytes, simulated, 0);
    for (int rep = 0; rep < maxreps && rc == 0 && nrun > 0; rep++) {
      int go =
          rep < o->warmup + 1 || o->time_limit <= 0 || now() - wall0 < o->time_limit * (double)nrun;
      MPI_Bcast(&go, 1, MPI_INT, 0, comm);
      if (!go) break;
      for (int k = 0; k < nrun && rc == 0; k++)
        rc = time_rep(o, &runs[k], &b, comm, global, simulated, bytes, rep);
    }
    for (int k = 0; k < nrun && rc == 0; k++)
      emit_row(o, &runs[k], p, total, (long)tb, simulated, out);
  }
out:
  free(list);
  free(times);
  free(runs);
  bfree(b.sbuf, shared);
  bfree(b.rbuf, shared);
  free(b.counts);
  free(b.displs);
  return rc;
}

/* The driver's options into *o (p processes); 0, or 2 for bad arguments.
 * Defaults (the front door leaves out options that have them, cli/bench.c):
 * --type byte, --root 0, --in-place 0, --reps 1, --warmup 0, --time-limit 0. */
CS_OUTLINE static int parse_opts(int argc, char **argv, int p, bench_opts *o) {
  memset(o, 0, sizeof *o);
  o->coll = CS_NCOLL;
  o->reps = 1;
  o->dt = MPI_BYTE;
  o->op = MPI_BOR;
  const char *bytes = NULL;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define ARG(name) (!strcmp(argv[i], name) && v && ++i)
    if (ARG("--coll")) {
      int c = cs_coll_by_name(v);
      if (c < 0) return 2;
      o->coll = (cs_coll)c;
    } else if (ARG("--algos"))
      o->algos = (char *)v;
    else if (ARG("--bytes"))
      bytes = v;
    else if (ARG("--reps"))
      o->reps = atoi(v);
    else if (ARG("--warmup"))
      o->warmup = atoi(v);
    else if (ARG("--time-limit"))
      o->time_limit = atof(v);
    else if (ARG("--root"))
      o->root = atoi(v);
    else if (ARG("--in-place"))
      o->inplace = atoi(v);
    else if (ARG("--out"))
      o->out = v;
    else if (!strncmp(argv[i], "--layout=", 9))
      o->single = !strcmp(argv[i] + 9, "single");
    else if (!strncmp(argv[i], "--samples=", 10))
      o->samples = argv[i] + 10;
    else if (!strncmp(argv[i], "--probes=", 9))
      o->probes = argv[i] + 9;
    else if (!strncmp(argv[i], "--probes-out=", 13))
      o->probes_out = argv[i] + 13;
    else if (!strncmp(argv[i], "--launch=", 9))
      o->launch = atoi(argv[i] + 9);
    else if (!strcmp(argv[i], "--verify=library"))
      o->verify = 1;
    else if (!strcmp(argv[i], "--verify=none"))
      o->verify = 2;
    else if (!strncmp(argv[i], "--lib-charge=", 13))
      o->lib_charge = atoi(argv[i] + 13);
    else if (!strncmp(argv[i], "--lib-cfg=", 10)) {
      /* one option per argument (smpirun splits arguments at spaces), joined */
      const char *w = argv[i] + 10;
      size_t n = o->lib_cfg ? strlen(o->lib_cfg) : 0;
      char *c = realloc(o->lib_cfg, n + strlen(w) + 2);
      if (!c) return 2;
      snprintf(c + n, strlen(w) + 2, "%s%s", n ? " " : "", w);
      o->lib_cfg = c;
    } else if (ARG("--type")) {
      if (!strcmp(v, "byte"))
        o->dt = MPI_BYTE, o->op = MPI_BOR;
      else if (!strcmp(v, "int"))
        o->dt = MPI_INT, o->op = MPI_SUM;
      /* double: MPI_MAX, at the same cost as MPI_SUM: allreduce circulant
       * refuses floating-point sums (CS_ASSOCIATIVE). */
      else if (!strcmp(v, "double"))
        o->dt = MPI_DOUBLE, o->op = MPI_MAX;
      else
        return 2;
    } else
      return 2;
#undef ARG
  }
  if (o->coll == CS_NCOLL || !o->algos || !bytes || !o->out || o->reps < 1 || o->warmup < 0)
    return 2;
  if (o->root < 0 || o->root >= p) return 2;
  o->nbytes = parse_longs(bytes, &o->bytes);
  return o->nbytes < 1 ? 2 : 0;
}

/* Simulation with --lib-charge: the charged operation the library gets
 * wherever it runs (cs_native_op), and the charging of the library's copies;
 * 0, or 2 with the reason said by rank 0. */
CS_OUTLINE static int lib_charge_setup(bench_opts *o, int r) {
  if (cs_libcharge_wrap(o->op, &o->libop) != MPI_SUCCESS) {
    if (r == 0) fprintf(stderr, "collsim bench: cannot create the charged operation\n");
    return 2;
  }
  bench_op = o->op;
  bench_libop = o->libop;
  cs_native_op = charged_op;
#ifdef SMPI_H
  char why[256];
  if (cs_libcharge_copies(why, sizeof why) != 0) {
    if (r == 0)
      fprintf(stderr,
              "collsim bench: cannot charge the library's copies: %s (--lib-charge off runs the "
              "library as SMPI does)\n",
              why);
    return 2;
  }
#endif
  return 0;
}

int cs_bench_main(int argc, char **argv, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  bench_opts o;
  int bad_args = parse_opts(argc, argv, p, &o);
  o.r = r;
  o.p = p;
  if (bad_args) {
    if (r == 0)
      fprintf(stderr,
              "collsim-driver bench: bad arguments (normally started by ./collsim bench)\n");
    free(o.bytes);
    free(o.lib_cfg);
    return 2;
  }
#ifdef SMPI_H
  int simulated = 1;
#else
  int simulated = 0;
#endif
  cs_skip_compute = simulated;
  cs_shared_buffers = simulated;
  o.libop = o.op;
  int ctx_need = 0;
  unsigned flags = algo_flags(&o, &ctx_need);
  o.any_lib = (flags & (CS_NATIVE | CS_INNER)) != 0;
  /* a real library pays for its work itself; collsim's kernels charge theirs */
  if (!simulated || !o.any_lib) o.lib_charge = 0;
#ifdef SMPI_H
  /* SMPI's node set-up in untimed calls without messages (libsetup.h) */
  char why[256];
  if (o.any_lib && cs_libsetup_fast(comm, why, sizeof why) && r == 0 &&
      strcmp(why, "COLLSIM_LIB_SETUP=smpi"))
    fprintf(stderr, "collsim bench: note: the library's node set-up keeps its messages: %s\n", why);
  /* the library's temporaries in shared memory in calls on shared buffers
   * (libtmp.h): library rows and the rows whose inner collectives are the library's */
  const char *tmp_env = getenv("COLLSIM_LIB_TMP");
  if (cs_libtmp_install(why, sizeof why) && r == 0 && strcmp(why, "COLLSIM_LIB_TMP=real"))
    fprintf(stderr, "collsim bench: note: the library's temporaries stay real memory: %s\n", why);
#endif
  if (o.lib_charge && lib_charge_setup(&o, r)) {
    free(o.bytes);
    free(o.lib_cfg);
    return 2;
  }
  FILE *out = NULL;
  if (r == 0) {
    out = fopen(o.out, "a");
    o.out_bad = out == NULL; /* agreed on with the first size's errors (run_size) */
    if (o.out_bad) fprintf(stderr, "collsim bench: cannot append to %s\n", o.out);
    /* Rows follow the file's header: an older file keeps its columns. */
    o.extra = cs_bench_file_extra(o.out) != 0;
  }
  int rc = 0;
  int global = global_clock(comm);
  /* what SMPI's selectors see, for the library's rows only (row_ran) */
  if (simulated && o.any_lib) o.smpi_ppn = smpi_ppn(&o, comm);
  /* The kernel context (node and lane structure) costs simulated time to
   * build: build it here, before anything is timed, so that the first timed
   * call does not pay for it (algos/ctx.h); only node-aware algorithms have
   * one (CS_NODE_AWARE), and only the communicators the rows read are made
   * (cs_row_ctx_needs: NAP reads its node's, hier its node's and the
   * leaders' lane; under SMPI every lane communicator costs memory that
   * grows with p^2). */
  if ((flags & CS_NODE_AWARE) && cs_ctx_prepare_root(comm, ctx_need, o.root) != MPI_SUCCESS) {
    if (r == 0) fprintf(stderr, "collsim bench: cannot build the kernel context\n");
    rc = 2;
  }
  if (out) {
    cs_csv_bench_sync(out, global);
    fflush(out);
  }
  /* Drift probes (real MPI; driver.h): one warm-up round, then rounds before
   * the first size and after each, at least CS_PROBE_SAMPLES in all. Between
   * sizes, not between repetitions: a probe evicts the caches that a
   * collective's warm-up rounds filled. */
  cs_probes *P = NULL;
  int per_gap = (CS_PROBE_SAMPLES + o.nbytes) / (o.nbytes + 1);
  if (rc == 0 && o.probes && o.probes_out && !simulated) {
    if (!(P = cs_probes_open(comm, o.probes, o.probes_out, o.launch))) rc = 2;
    if (P) cs_probes_round(P, comm, 0);
  }
  for (int g = 0; P && rc == 0 && g < per_gap; g++) cs_probes_round(P, comm, 1);
  for (int i = 0; i < o.nbytes && rc == 0; i++) {
    rc = run_size(&o, o.bytes[i], out, comm, global, simulated);
    for (int g = 0; P && rc == 0 && g < per_gap; g++) cs_probes_round(P, comm, 1);
  }
  cs_probes_close(P);
  /* A row that reads no lane communicator (cs_row_ctx_needs) whose kernel
   * made one anyway made it after the preparation above, in a verification
   * or a timed call (whose time then includes it): its flags (CS_NODES_ONLY)
   * or parts are wrong. */
  const cs_ctx *ctx = NULL;
  if ((flags & CS_NODE_AWARE) && !(ctx_need & CS_CTX_LANES) &&
      cs_ctx_get(comm, &ctx) == MPI_SUCCESS && ctx->lanecomm != MPI_COMM_NULL) {
    fprintf(stderr,
            "collsim bench: rank %d: a row that reads no lane communicator (CS_NODES_ONLY in "
            "algos/registry.def, or a composition on node and leaders only) made one in a "
            "verification or timed call, whose time may include it\n",
            r);
    rc = 2;
  }
#ifdef SMPI_H
  /* COLLSIM_LIB_TMP=count:FILE (tests): how many were shared, a line appended to FILE */
  FILE *tf = r == 0 && tmp_env && !strncmp(tmp_env, "count:", 6) ? fopen(tmp_env + 6, "a") : NULL;
  if (tf) {
    fprintf(tf, "%ld\n", cs_libtmp_count());
    fclose(tf);
  }
#endif
  if (out) fclose(out);
  free(o.bytes);
  free(o.lib_cfg);
  if (o.libop != o.op) {
    cs_native_op = NULL;
    cs_libcharge_free(&o.libop);
  }
  return rc;
}
