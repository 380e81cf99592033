/* collsim-floor --trace FILE [sleep] [time]
 * collsim-floor REPS BYTES [FLOPS [sleep]]
 * The engine's floor: a bare SMPI program that sends a collective's
 * messages and nothing else (no harness, no kernel, no checks), compiled for
 * smpirun like collsim-smpi. benchmarks/scale.sh compares collsim's CPU per
 * simulated message with this program's.
 *
 * With --trace, the messages are exactly a kernel's: FILE holds the programs
 * of one call as its model recorded them (collsim-msgcount ... TRACE,
 * benchmarks/trace.h), and
 * every rank replays its own step by step with the calls the kernels make
 * (MPI_Sendrecv for an exchange, MPI_Send or MPI_Recv for one side; same
 * sizes, partners and order; one tag: messages between two ranks match in
 * order). Its local work is dropped, or with "sleep" charged as
 * backends/smpi.c charges it: summed, one sleep of bytes / host speed before
 * the next message and at the end (uncalibrated platforms: a byte is a
 * flop). Then the simulated time is the kernel's, with nothing of collsim
 * around it; "time" prints it (the last rank's end, in simulated seconds
 * from MPI_Init).
 *
 * REPS BYTES: REPS times the q = ceil(log2 p) rounds of the circulant
 * schedule (algos/sched.h); in round k every rank sends BYTES to rank - d_k
 * and receives BYTES from rank + d_k with one MPI_Sendrecv: p q REPS
 * messages, none for BYTES = 0, which measures MPI_Init and MPI_Finalize
 * alone (scale.sh's start-up). With FLOPS > 0 every round also charges
 * smpi_execute_flops(FLOPS), or with "sleep" sleeps FLOPS / host speed
 * seconds (docs/scale.md's instruction counts). */
#include <fcntl.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/host.h>

#include "sched.h"
#include "trace.h"

/* The trace, mapped once for all processes (coroutines of one OS process). */
static struct {
  const int64_t *start; /* p + 1 */
  const cs_mop *steps;
  long max_bytes; /* the largest message */
  int p;
} T;

static int trace_open(const char *path, int p) {
  if (T.start) return T.p == p ? 0 : -1;
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 16) return -1;
  const char *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (m == MAP_FAILED || memcmp(m, CS_TRACE_MAGIC, 8)) return -1;
  int64_t n;
  memcpy(&n, m + 8, sizeof n);
  const int64_t *start = (const int64_t *)(const void *)(m + 16);
  if (n != p || st.st_size < 16 + 8 * (n + 1) ||
      st.st_size != 16 + 8 * (n + 1) + (int64_t)sizeof(cs_mop) * start[n])
    return -1;
  T.steps = (const cs_mop *)(const void *)(start + n + 1);
  for (int64_t i = 0; i < start[n]; i++) {
    const cs_mop *o = &T.steps[i];
    if (o->to >= 0 && o->sb > T.max_bytes) T.max_bytes = o->sb;
    if (o->from >= 0 && o->rb > T.max_bytes) T.max_bytes = o->rb;
  }
  T.p = p;
  T.start = start;
  return 0;
}

/* Rank r's program of the trace; local work slept (sleeping) or dropped. */
static void replay(int r, int sleeping) {
  static char *buf; /* shared by all: contents are meaningless */
  if (!buf && T.max_bytes > 0) buf = SMPI_SHARED_MALLOC(2 * (size_t)T.max_bytes);
  double speed = sg_host_get_speed(sg_host_self()), pending = 0;
  for (int64_t i = T.start[r]; i < T.start[r + 1]; i++) {
    const cs_mop *o = &T.steps[i];
    if (!cs_mop_is_comm(o)) {
      pending += cs_mop_local(o);
      continue;
    }
    if (sleeping && pending > 0) sg_actor_sleep_for(pending / speed);
    pending = 0;
    if (o->to >= 0 && o->from >= 0)
      MPI_Sendrecv(buf, (int)o->sb, MPI_BYTE, o->to, 1, buf + T.max_bytes, (int)o->rb, MPI_BYTE,
                   o->from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else if (o->to >= 0)
      MPI_Send(buf, (int)o->sb, MPI_BYTE, o->to, 1, MPI_COMM_WORLD);
    else
      MPI_Recv(buf + T.max_bytes, (int)o->rb, MPI_BYTE, o->from, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  }
  if (sleeping && pending > 0) sg_actor_sleep_for(pending / speed);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (argc >= 3 && !strcmp(argv[1], "--trace")) {
    int sleeping = 0, timing = 0, bad = 0;
    for (int i = 3; i < argc; i++) {
      if (!strcmp(argv[i], "sleep"))
        sleeping = 1;
      else if (!strcmp(argv[i], "time"))
        timing = 1;
      else
        bad = 1;
    }
    if (bad || trace_open(argv[2], p) != 0) {
      if (r == 0)
        fprintf(stderr,
                "collsim-floor: --trace %s: not a trace of %d ranks "
                "(collsim-msgcount COLL ALGO %d BYTES TRACE writes one)\n",
                argv[2], p, p);
      MPI_Finalize();
      return 2;
    }
    double t0 = MPI_Wtime();
    replay(r, sleeping);
    static double tmax; /* shared: the processes run one at a time */
    static int done;
    double t = MPI_Wtime() - t0;
    if (t > tmax) tmax = t;
    if (timing && ++done == p) printf("%.10g\n", tmax);
    MPI_Finalize();
    return 0;
  }
  int reps = argc >= 3 ? atoi(argv[1]) : -1, sleeping = 0;
  long bytes = argc >= 3 ? atol(argv[2]) : -1;
  double flops = 0;
  for (int i = 3; i < argc && reps >= 0; i++) {
    char *end;
    if (!strcmp(argv[i], "sleep") && flops > 0)
      sleeping = 1;
    else if (i == 3 && (flops = strtod(argv[i], &end)) >= 0 && *end == '\0')
      continue;
    else
      reps = -1;
  }
  if (reps < 0 || bytes < 0 || bytes > 1L << 30) {
    if (r == 0)
      fprintf(stderr,
              "usage: collsim-floor REPS BYTES [FLOPS [sleep]] (BYTES <= 1 GiB; "
              "sleep needs FLOPS > 0)\n       collsim-floor --trace FILE [sleep] [time]\n");
    MPI_Finalize();
    return 2;
  }
  double speed = sg_host_get_speed(sg_host_self());
  cs_circ c;
  cs_circ_init(&c, p);
  char *buf = bytes > 0 ? SMPI_SHARED_MALLOC(2 * (size_t)bytes) : NULL;
  for (int i = 0; i < reps && bytes > 0; i++)
    for (int k = 0; k < c.q; k++) {
      int to = (r - c.d[k] + p) % p, from = (r + c.d[k]) % p;
      MPI_Sendrecv(buf, (int)bytes, MPI_BYTE, to, 1, buf + bytes, (int)bytes, MPI_BYTE, from, 1,
                   MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (sleeping)
        sg_actor_sleep_for(flops / speed);
      else if (flops > 0)
        smpi_execute_flops(flops);
    }
  if (buf) SMPI_SHARED_FREE(buf);
  MPI_Finalize();
  return 0;
}
