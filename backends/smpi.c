/* The SimGrid/SMPI backend (algos/backend.h), linked into collsim-smpi.
 *
 * Every reduction and copy of b bytes charges b flops: the platform gives
 * each host a speed of 1/gamma flop/s, so local work costs exactly gamma
 * seconds per byte, run after run (a calibrated platform's segments instead:
 * local_flops). Temporary buffers of timing runs come from
 * SMPI_SHARED_MALLOC, and a refused call reaches its error handler around
 * SMPI 3.32's crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
#include <xbt/config.h>
#include <xbt/dynar.h>

#include "../algos/backend.h"
#include "../algos/kernel.h"
#include "../algos/pwcost.h"

/* ---- calibrated local work (issue 10) ----------------------------------------
 * A platform written by `collsim calibrate` gives its hosts the property
 * CS_LOCAL_PROP: a reduction of b bytes costs cs_pw_eval(segments, b) seconds,
 * charged as that many seconds' worth of flops at the host's speed; and
 * CS_LOCAL_COPY_PROP, the same for a copy. Without a copy property a copy costs
 * what a reduction costs; without either (every other platform) b bytes are b
 * flops: gamma = 1 / speed per byte. The models price the same segments
 * (models/eval.c). Read once: every host of a collsim platform carries the same
 * values. */
static void read_pw(const char *prop, cs_pw *pw) {
  const char *v = sg_host_get_property_value(sg_host_self(), prop);
  if (v == NULL || cs_pw_parse(v, pw) != 0) pw->n = 0;
}
static double local_flops(double bytes, cs_work kind) {
  static int read;
  static cs_pw reduce, copy;
  if (!read) {
    read_pw(CS_LOCAL_PROP, &reduce);
    read_pw(CS_LOCAL_COPY_PROP, &copy);
    read = 1;
  }
  const cs_pw *pw = kind == CS_WORK_COPY && copy.n > 0 ? &copy : &reduce;
  return pw->n > 0 ? cs_pw_eval(pw, bytes) * sg_host_get_speed(sg_host_self()) : bytes;
}

/* ---- Batched charges -------------------------------------------------------
 * One smpi_execute_flops call costs the simulator about as much as a message,
 * so charges are not made one by one: each process adds the flops of its
 * local work (local_flops) to its pending sum, and cs_local_flush charges the sum at once,
 * before the process's next communication (cs_sendrecv and every other
 * point-to-point call of a kernel) and when a kernel returns (the caller of
 * cs_run). Work between two communications runs back to back anyway, so the
 * simulated time is the same (byte counts are integers, summed exactly on
 * uncalibrated platforms; only the rounding of the clock's additions can differ, far below 1e-12
 * relative). The sums live in one array indexed by SimGrid actor id, grown
 * by whichever process needs more (simulated processes are coroutines of
 * one OS process and run one at a time, and nobody keeps an entry's address
 * across a yield; with SMPI's privatization each would make its own array).
 * Not the MPI rank: an MPI_Comm_rank costs SMPI about 480 instructions, and
 * this is asked twice per message (callgrind, 1024 ranks: 1.1k instructions
 * per message of 45k); the actor id is a read of the running context. */
static struct pending {
  double flops;   /* the pending sum */
  int alone;      /* 1: the host has a core for each of its processes, 2: not, 0: unknown */
  int tmp_live;   /* the process's live temporaries (cs_backend_shared_tmp) */
  size_t tmp_top; /* and the end of the highest, in the slot's mapping */
} * pending_of;
static size_t pending_n;

static struct pending *my_pending(void) {
  aid_t id = sg_actor_self_get_pid();
  if (id < 0) return NULL;
  if ((size_t)id >= pending_n) {
    int p = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    size_t n = pending_n * 2 > (size_t)p + 16 ? pending_n * 2 : (size_t)p + 16;
    if (n <= (size_t)id) n = (size_t)id + 1;
    struct pending *v = realloc(pending_of, n * sizeof *v);
    if (!v) return NULL;
    memset(v + pending_n, 0, (n - pending_n) * sizeof *v);
    pending_of = v;
    pending_n = n;
  }
  return &pending_of[id];
}

/* Charges f flops of local work to the calling process. smpi_execute_flops
 * runs an execution on the host's CPU model; where that execution cannot be
 * slowed (the host has at least as many cores as processes, so each gets a
 * whole core, and its speed is not reduced by an availability profile at the
 * moment) it lasts exactly f / speed, and a sleep of f / speed gives the same
 * end instant at about a third of the simulator's cost (measured: 14 us of
 * CPU per execution, 5 us per sleep, at 1024 ranks on theta). SimGrid
 * lengthens a sleep shorter than surf/precision to that precision, while an
 * execution that short ends at once: those (gamma = 0 makes every charge
 * about 1e-27 s) stay executions. alone caches the core count check per
 * process (processes do not move), and the host's user data per host: the
 * check lists the host's actors, O(processes per host) for each process (64
 * at 1024 ranks on theta: 0.8k instructions per message, callgrind). The
 * first check of a host is the one kept: processes only leave a host, so a
 * host with a core for each of its processes then always has one, and one
 * without runs executions, exact in every case. The sleep does not switch
 * SMPI's privatized data segments, which collsim never uses (-no-privatize). */
static const char host_alone[2] = {1, 2}; /* host user data: &host_alone[alone - 1] */
static int host_alone_of(sg_host_t h) {
  const void *d = sg_host_get_data(h);
  if (d == &host_alone[0] || d == &host_alone[1]) return *(const char *)d;
  xbt_dynar_t list = xbt_dynar_new(sizeof(sg_actor_t), NULL);
  sg_host_get_actor_list(h, list);
  int alone = (unsigned long)sg_host_core_count(h) >= xbt_dynar_length(list) ? 1 : 2;
  xbt_dynar_free(&list);
  if (d == NULL) sg_host_set_data(h, (void *)&host_alone[alone - 1]); /* else not ours */
  return alone;
}
static void execute(struct pending *pd, double f) {
  sg_host_t h = sg_host_self();
  if (pd && pd->alone == 0) pd->alone = host_alone_of(h);
  static double precision = -1;
  if (precision < 0) precision = sg_cfg_get_double("surf/precision");
  double t =
      pd && pd->alone == 1 && sg_host_get_available_speed(h) == 1.0 ? f / sg_host_get_speed(h) : 0;
  if (t >= precision)
    sg_actor_sleep_for(t);
  else
    smpi_execute_flops(f);
}

/* cs_local_pending counts the processes whose sum is > 0, so that
 * cs_local_flush calls here only when some process has work pending. */
void cs_backend_flush(void) {
  struct pending *pd = my_pending();
  if (pd && pd->flops > 0) {
    double f = pd->flops;
    pd->flops = 0;
    cs_local_pending--;
    execute(pd, f);
  }
}

void cs_backend_charge(double bytes, cs_work kind) {
  if (bytes <= 0) return;
  struct pending *pd = my_pending();
  if (pd) {
    int was = pd->flops > 0;
    pd->flops += local_flops(bytes, kind); /* a sum of per-charge costs, as the models price them */
    if (!was && pd->flops > 0) cs_local_pending++;
  } else
    execute(NULL, local_flops(bytes, kind)); /* no memory for the sums: charge now */
}

/* ---- Shared buffers -----------------------------------------------------------
 * Shared buffers of simulated timing runs: their contents mean nothing
 * (SMPI_SHARED_MALLOC maps the same pages for every process and call), so
 * one mapping per slot serves every process and call: the kernels'
 * temporaries (CS_SCRATCH_TMP) and the harness's send and receive buffers.
 * Mapping one per call made the kernel's page-table work (MAP_POPULATE) up
 * to a third of the CPU at 1 MiB; mapping the harness's buffers once per
 * process cost three mmap calls, a populated MiB and an munmap per rank.
 * A slot grows by doubling and an outgrown mapping is kept (another process
 * may still be inside a kernel that uses it), so at most twice the largest
 * buffer is ever mapped. */
void *cs_shared_scratch(int slot, size_t bytes) {
  static struct {
    void *base;
    size_t size;
  } s[CS_SCRATCH_SLOTS];
  if (bytes > s[slot].size) {
    size_t size = s[slot].size ? s[slot].size : 4096;
    while (size < bytes) size *= 2;
    void *b = SMPI_SHARED_MALLOC(size);
    if (!b) return NULL;
    s[slot].base = b;
    s[slot].size = size;
  }
  return s[slot].base;
}

/* A kernel's temporary: a range of its slot's mapping above the calling
 * process's other live temporaries (released all at once when the last one
 * is), never unmapped. Processes overlap each other's ranges, but one
 * process's temporaries have distinct addresses, as in a real run and in the
 * models' recorder (models/mpirec): with one address for all, a kernel's copy
 * between two of its temporaries at the same offset had the same source and
 * destination, which cs_copy skips as nothing to do, so the simulation
 * charged less local work than a real run does and than the model prices
 * (alltoall lane and hier with pairwise inside: the own block's copy of
 * every inner alltoall, 3-37% of their time at p = 8). An outgrown mapping
 * is kept, so temporaries taken before it grew stay valid. */
void *cs_backend_shared_tmp(size_t bytes) {
  struct pending *pd = my_pending();
  if (!pd) return NULL; /* no memory for the cursors: the caller mallocs */
  size_t at = (pd->tmp_top + 63) & ~(size_t)63;
  char *b = cs_shared_scratch(CS_SCRATCH_TMP, at + bytes);
  if (!b) return NULL;
  pd->tmp_top = at + bytes + 64; /* a gap keeps consecutive temporaries apart */
  pd->tmp_live++;
  return b + at;
}
void cs_backend_shared_tmp_free(void *p) {
  struct pending *pd = p ? my_pending() : NULL;
  if (pd && pd->tmp_live > 0 && --pd->tmp_live == 0) pd->tmp_top = 0;
}

/* MPI_Comm_call_errhandler(comm, rc). SMPI 3.32's crashes (SIGSEGV) for
 * the predefined handlers, so they are done here: MPI_ERRORS_RETURN returns,
 * MPI_ERRORS_ARE_FATAL aborts the job (MPI_Abort, as the handler would), a
 * user handler is called by SMPI. */
void cs_backend_errhandler(MPI_Comm comm, int rc) {
  MPI_Errhandler eh;
  if (MPI_Comm_get_errhandler(comm, &eh) != MPI_SUCCESS) return;
  if (eh == MPI_ERRORS_RETURN) return;
  if (eh == MPI_ERRORS_ARE_FATAL) {
    char s[MPI_MAX_ERROR_STRING] = "";
    int n = 0, rank = 0;
    MPI_Error_string(rc, s, &n);
    MPI_Comm_rank(comm, &rank);
    fprintf(stderr, "collsim: rank %d: %s: MPI_ERRORS_ARE_FATAL: aborting the job\n", rank, s);
    MPI_Abort(comm, rc);
    return;
  }
  MPI_Comm_call_errhandler(comm, rc);
}
