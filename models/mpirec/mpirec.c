/* collsim's recording MPI (see mpi.h): p ranks as coroutines of one
 * process, messages delivered for real, every rank's exchanges and local
 * work recorded for the evaluator.
 *
 * Scheduling: ranks run one at a time (coroutines); a rank runs until it
 * blocks in a receive or a setup collective, or returns. Sends are
 * buffered (eager), so a send never blocks and no kernel that is correct
 * under MPI can deadlock here; a rank blocked in a receive is woken by the
 * send that matches it. An empty run queue while some rank is blocked is a
 * deadlock and fails the case.
 *
 * Most receives do not wait at all: a receive whose data nobody reads (its
 * buffer lies in the shared arena, or it is empty) with a named source and
 * no status is posted like an MPI_Irecv, recorded, and the rank goes on; a
 * later message matches it in MPI's order (posted receives first, in the
 * order posted among those naming its sender) and sets its recorded size.
 * So a rank of a kernel that exchanges only arena buffers runs from start
 * to end in one go: no switch, no copy of its stack, its records written
 * one after the other (pricing 10^6 ranks spent half its time switching,
 * copying stacks and missing the cache among interleaved records). A
 * receive posted so and never matched is the deadlock the kernel would
 * have under MPI: it fails the case.
 *
 * Buffers: the shared arena (csrec_shared_malloc) stands for
 * SMPI_SHARED_MALLOC: a large MAP_NORESERVE mapping that is never touched;
 * each rank allocates from it with its own cursor, so ranks overlap each
 * other's buffers (their contents mean nothing when local work is skipped)
 * while a rank's buffers have distinct addresses. A message is copied for
 * real only when both its send and its receive buffer lie outside the
 * arena (headers, packed buffers): those are the only data a kernel's
 * control flow may depend on.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>
#include <sys/mman.h>
#if !defined(__x86_64__) || defined(CSREC_UCONTEXT)
#include <ucontext.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define CS_ASAN 1
#endif

#include "mpi.h"
#include "mpirec.h"
#include "topo.h"

/* ---- datatypes ------------------------------------------------------------ */

/* Element kinds of the predefined types, for reductions. */
enum {
  K_NONE,
  K_U8,
  K_S8,
  K_SHORT,
  K_USHORT,
  K_INT,
  K_UINT,
  K_LONG,
  K_ULONG,
  K_LL,
  K_ULL,
  K_FLOAT,
  K_DOUBLE
};

/* A type map as byte segments (off, len) of one element, relative to its
 * start; elements of a count lie extent apart. */
struct csrec_type {
  long size, lb, extent, tlb, tub;
  int nseg, kind, builtin;
  long seg0[2]; /* builtin: the one segment */
  long *segs;   /* derived: 2 nseg longs */
};

#define BUILTIN(name, bytes, k) \
  struct csrec_type csrec_t_##name = {bytes, 0, bytes, 0, bytes, 1, k, 1, {0, bytes}, NULL}
BUILTIN(byte, 1, K_U8);
BUILTIN(char, 1, K_S8);
BUILTIN(signed_char, 1, K_S8);
BUILTIN(unsigned_char, 1, K_U8);
BUILTIN(short, sizeof(short), K_SHORT);
BUILTIN(unsigned_short, sizeof(short), K_USHORT);
BUILTIN(int, sizeof(int), K_INT);
BUILTIN(unsigned, sizeof(int), K_UINT);
BUILTIN(long, sizeof(long), K_LONG);
BUILTIN(unsigned_long, sizeof(long), K_ULONG);
BUILTIN(long_long, sizeof(long long), K_LL);
BUILTIN(unsigned_long_long, sizeof(long long), K_ULL);
BUILTIN(float, sizeof(float), K_FLOAT);
BUILTIN(double, sizeof(double), K_DOUBLE);
BUILTIN(aint, sizeof(MPI_Aint), K_LONG);
BUILTIN(packed, 1, K_NONE);
BUILTIN(int32, 4, K_INT);
BUILTIN(int64, 8, K_LL);
BUILTIN(uint32, 4, K_UINT);
BUILTIN(uint64, 8, K_ULL);
/* Known by name only (mpi.h): K_NONE where the recorder does not reduce them;
 * the pair types have the C layouts of MPI 4.0 Sec. 6.9.4. */
struct pair_fi {
  float a;
  int b;
};
struct pair_di {
  double a;
  int b;
};
struct pair_li {
  long a;
  int b;
};
struct pair_si {
  short a;
  int b;
};
struct pair_ldi {
  long double a;
  int b;
};
BUILTIN(int8, 1, K_S8);
BUILTIN(int16, 2, K_SHORT);
BUILTIN(uint8, 1, K_U8);
BUILTIN(uint16, 2, K_USHORT);
BUILTIN(long_double, sizeof(long double), K_NONE);
BUILTIN(offset, 8, K_LL);
BUILTIN(count, 8, K_LL);
BUILTIN(c_bool, sizeof(_Bool), K_NONE);
BUILTIN(c_float_complex, 2 * sizeof(float), K_NONE);
BUILTIN(c_double_complex, 2 * sizeof(double), K_NONE);
BUILTIN(c_long_double_complex, 2 * sizeof(long double), K_NONE);
BUILTIN(2int, 2 * sizeof(int), K_NONE);
BUILTIN(float_int, sizeof(struct pair_fi), K_NONE);
BUILTIN(double_int, sizeof(struct pair_di), K_NONE);
BUILTIN(long_int, sizeof(struct pair_li), K_NONE);
BUILTIN(short_int, sizeof(struct pair_si), K_NONE);
BUILTIN(long_double_int, sizeof(struct pair_ldi), K_NONE);

int csrec_type_get_envelope(MPI_Datatype dt, int *nints, int *naddrs, int *ntypes, int *combiner) {
  if (!dt) return MPI_ERR_TYPE;
  *nints = *naddrs = *ntypes = 0;
  *combiner = dt->builtin ? MPI_COMBINER_NAMED : MPI_COMBINER_HINDEXED;
  return MPI_SUCCESS;
}

int csrec_type_get_name(MPI_Datatype dt, char *name, int *len) {
  static const struct {
    MPI_Datatype t;
    const char *name;
  } names[] = {
#define NAME(t) {t, #t}
      NAME(MPI_BYTE),
      NAME(MPI_CHAR),
      NAME(MPI_SIGNED_CHAR),
      NAME(MPI_UNSIGNED_CHAR),
      NAME(MPI_SHORT),
      NAME(MPI_UNSIGNED_SHORT),
      NAME(MPI_INT),
      NAME(MPI_UNSIGNED),
      NAME(MPI_LONG),
      NAME(MPI_UNSIGNED_LONG),
      NAME(MPI_LONG_LONG),
      NAME(MPI_UNSIGNED_LONG_LONG),
      NAME(MPI_FLOAT),
      NAME(MPI_DOUBLE),
      NAME(MPI_AINT),
      NAME(MPI_PACKED),
      NAME(MPI_INT32_T),
      NAME(MPI_INT64_T),
      NAME(MPI_UINT32_T),
      NAME(MPI_UINT64_T),
      NAME(MPI_INT8_T),
      NAME(MPI_INT16_T),
      NAME(MPI_UINT8_T),
      NAME(MPI_UINT16_T),
      NAME(MPI_LONG_DOUBLE),
      NAME(MPI_OFFSET),
      NAME(MPI_COUNT),
      NAME(MPI_C_BOOL),
      NAME(MPI_C_FLOAT_COMPLEX),
      NAME(MPI_C_DOUBLE_COMPLEX),
      NAME(MPI_C_LONG_DOUBLE_COMPLEX),
      NAME(MPI_2INT),
      NAME(MPI_FLOAT_INT),
      NAME(MPI_DOUBLE_INT),
      NAME(MPI_LONG_INT),
      NAME(MPI_SHORT_INT),
      NAME(MPI_LONG_DOUBLE_INT)
#undef NAME
  };
  name[0] = '\0';
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].t == dt) snprintf(name, MPI_MAX_OBJECT_NAME, "%s", names[i].name);
  *len = (int)strlen(name);
  return MPI_SUCCESS;
}

static const long *segs(MPI_Datatype t) { return t->builtin ? t->seg0 : t->segs; }

/* ---- operations ----------------------------------------------------------- */

enum { O_MAX, O_MIN, O_SUM, O_PROD, O_LAND, O_BAND, O_LOR, O_BOR, O_LXOR, O_BXOR, O_USER, O_NAMED };
struct csrec_op {
  int id, commute;
  MPI_User_function *fn;
};
struct csrec_op csrec_op_max = {O_MAX, 1, NULL}, csrec_op_min = {O_MIN, 1, NULL},
                csrec_op_sum = {O_SUM, 1, NULL}, csrec_op_prod = {O_PROD, 1, NULL},
                csrec_op_land = {O_LAND, 1, NULL}, csrec_op_band = {O_BAND, 1, NULL},
                csrec_op_lor = {O_LOR, 1, NULL}, csrec_op_bor = {O_BOR, 1, NULL},
                csrec_op_lxor = {O_LXOR, 1, NULL}, csrec_op_bxor = {O_BXOR, 1, NULL};
/* Known by name only (mpi.h): MPI_Reduce_local refuses them. */
struct csrec_op csrec_op_maxloc = {O_NAMED, 1, NULL}, csrec_op_minloc = {O_NAMED, 1, NULL},
                csrec_op_replace = {O_NAMED, 0, NULL}, csrec_op_no_op = {O_NAMED, 0, NULL};

/* ---- communicators -------------------------------------------------------- */

typedef struct attr {
  int keyval;
  void *value;
  struct attr *next;
} attr;

struct csrec_comm {
  int size, self;      /* self: MPI_COMM_SELF (size 1, rank 0 of every rank) */
  int *world;          /* comm rank -> world rank */
  int lo, span, *rank; /* world rank w -> comm rank rank[w - lo] (-1: not a member) */
  int identity;        /* comm rank = world rank (the world, its dups): no lookup, since
                          at 10^6 ranks a look into world[] missed the cache per message */
  int refs;            /* members that have not freed it */
  attr **attrs;        /* per comm rank */
  /* The setup collective in progress: members' arguments and arrivals. */
  void **slot;
  int arrived, gen;
  /* The context of the library's collectives on this communicator (as an
   * MPI library's hidden one): their messages never match the kernel's. */
  struct csrec_comm *shadow;
};

/* A nonblocking request of the running case. */
struct csrec_req {
  int recv, index; /* a receive; the rank's request number in its records */
  int done;        /* a receive whose message has arrived */
  int owner;       /* the world rank that posted it */
  void *buf;       /* a receive's buffer, count, type, communicator */
  int count;
  MPI_Datatype dt;
  MPI_Comm comm;
  MPI_Status st; /* a finished receive's status */
};

static struct csrec_comm self_comm = {.size = 1, .self = 1, .refs = 1};
MPI_Comm csrec_world = NULL, csrec_self = &self_comm;

/* Attribute keys, global to the process (never reused): kernels keep a key
 * in a static variable shared by all coroutines and by later cases. */
typedef struct {
  MPI_Comm_copy_attr_function *copy;
  MPI_Comm_delete_attr_function *del;
  void *extra;
} keyval_t;
static keyval_t *keyvals;
static int nkeyvals;

/* ---- the engine ----------------------------------------------------------- */

/* A message, or a receive posted without waiting (see recv_now): then src
 * and tag are what it matches, bytes its size and rec its record. */
typedef struct msg {
  struct msg *next;
  int src, tag; /* world rank of the sender, tag */
  MPI_Comm comm;
  long bytes;
  char *data;            /* a packed copy, or NULL (arena buffer: nothing to copy) */
  int delivered;         /* already copied into the waiting receiver's buffer */
  cs_mop *rec;           /* a posted receive's step in the records, its size set when matched */
  struct csrec_req *req; /* a posted MPI_Irecv's request (its buffer, its status) */
} msg;

/* Messages come from a free list, in blocks kept for later cases: a case
 * at 10^6 ranks sends tens of millions, and a malloc and free each was a
 * sixth of its time. */
static msg *msg_pool;

static msg *msg_new(void) {
  if (!msg_pool) {
    enum { BLOCK = 4096 };
    msg *b = malloc(sizeof(msg) * BLOCK);
    if (!b) return NULL;
    for (int i = BLOCK - 1; i >= 0; i--) {
      b[i].next = msg_pool;
      msg_pool = &b[i];
    }
  }
  msg *m = msg_pool;
  msg_pool = m->next;
  return m;
}

/* A message (or posted receive) from src with tag on comm of bytes, with
 * no data yet, or NULL with no memory. */
static msg *msg_make(int src, int tag, MPI_Comm comm, long bytes) {
  msg *m = msg_new();
  if (m) *m = (msg){.src = src, .tag = tag, .comm = comm, .bytes = bytes};
  return m;
}

static void msg_free(msg *m) {
  free(m->data);
  m->next = msg_pool;
  msg_pool = m;
}

/* ---- coroutines ----------------------------------------------------------- */

/* A context switch saves the callee-saved registers on the old stack and
 * takes the new one. On x86-64 this is a few instructions (ucontext's
 * swapcontext makes a system call per switch, which dominated the time of
 * a case); elsewhere (or built with -DCSREC_UCONTEXT) ucontext serves.
 * coro_low(c) is the lowest address of the stack that a switched-out c
 * still uses. */
#if defined(__x86_64__) && !defined(CSREC_UCONTEXT)
typedef struct {
  void *sp;
} coro;
/* csrec_switch(&from->sp, to->sp): System V callee-saved registers, the
 * SSE control word and the x87 control word. */
void csrec_switch(void **save, void *to);
__asm__(
    ".text\n"
    ".globl csrec_switch\n"
    ".hidden csrec_switch\n"
    ".type csrec_switch,@function\n"
    "csrec_switch:\n"
    "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
    "  subq $8, %rsp\n  stmxcsr (%rsp)\n  fnstcw 4(%rsp)\n"
    "  movq %rsp, (%rdi)\n  movq %rsi, %rsp\n"
    "  ldmxcsr (%rsp)\n  fldcw 4(%rsp)\n  addq $8, %rsp\n"
    "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
    "  ret\n"
    ".size csrec_switch, .-csrec_switch\n");
/* A fresh context that starts in entry() on the given stack: a frame as
 * csrec_switch leaves it, returning into entry with the stack aligned as
 * after a call. */
static void coro_init(coro *c, char *stack, size_t size, void (*entry)(void), coro *link) {
  (void)link;
  uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
  uint64_t *a = (uint64_t *)(top - 16);
  a[0] = (uint64_t)(uintptr_t)entry;
  for (int i = 1; i <= 6; i++) a[-i] = 0; /* rbp rbx r12 r13 r14 r15 */
  uint32_t *ctl = (uint32_t *)(a - 7);
  ctl[0] = 0x1f80; /* default MXCSR */
  ctl[1] = 0x037f; /* default x87 control word */
  c->sp = a - 7;
}
static void coro_switch(coro *from, coro *to) { csrec_switch(&from->sp, to->sp); }
static char *coro_low(const coro *c) { return c->sp; }
#else
/* low: an address below everything the coroutine's frames use when it
 * switches out (set by coro_switch from its own frame, with a margin for
 * swapcontext's call; a red zone is 128 bytes on the ABIs that have one). */
typedef struct {
  ucontext_t ctx;
  char *low;
} coro;
static void coro_init(coro *c, char *stack, size_t size, void (*entry)(void), coro *link) {
  getcontext(&c->ctx);
  c->ctx.uc_stack.ss_sp = stack;
  c->ctx.uc_stack.ss_size = size;
  c->ctx.uc_link = &link->ctx;
  makecontext(&c->ctx, entry, 0);
}
static __attribute__((noinline)) void coro_switch(coro *from, coro *to) {
  volatile char here = 0;
  from->low = (char *)((uintptr_t)&here - 1024);
  swapcontext(&from->ctx, &to->ctx);
}
static char *coro_low(const coro *c) { return c->low; }
#endif

enum { R_READY, R_RECV, R_COLL, R_WAIT, R_DONE };
/* One rank, in two cache lines: the first holds what a message to the rank
 * reads (its queues and its waiting receive), since messages reach ranks
 * in no order a cache can follow (10^6 ranks: 128 MiB of these). */
typedef struct {
  msg *head, *tail;   /* messages sent to this rank and not yet received */
  msg *phead, *ptail; /* receives it posted without waiting, not yet matched */
  /* A blocked receive: what it matches and where its data go. */
  msg *got;
  MPI_Comm rcomm;
  int state, rsrc, rtag, rcount;
  coro ctx;
  void *rbuf; /* a blocked receive's buffer; in R_WAIT, the request waited for */
  MPI_Datatype rtype;
  /* The used part of the stack (depth bytes below its top) while the rank
   * is switched out, in a save area of cap bytes (both below STACK_BYTES). */
  char *save;
  unsigned depth, cap;
  size_t cursor; /* arena cursor and live allocations of this rank */
  long live;
  char queued, started;
  char priced; /* in the priced call (csrec_priced), no longer in setup */
  int nreq;    /* nonblocking requests posted (their numbers in the records) */
} rank_t;
#if defined(__x86_64__) && !defined(CSREC_UCONTEXT)
_Static_assert(sizeof(rank_t) == 128, "rank_t is two cache lines");
#endif

/* All ranks run on one stack: the scheduler copies the used part of a
 * rank's stack (0.8-2.2 KiB at a block for the kernels of issue 13) out
 * into the rank's save area when it switches out, and back before it
 * resumes. Separate stacks (128 KiB apart, as before) cost one page per
 * rank at least, first touched at ~15 us on the VMs we measured: about
 * half the CPU time of pricing 10^6 ranks and 4 GiB. The save areas are
 * packed, from an arena populated ahead in bulk. Below the stack lie
 * GUARD_BYTES of PROT_NONE: a rank that overflows the stack faults there,
 * and the fault fails the case with a message (never a silent result).
 * Ranks hand each other addresses of their stacks (receive buffers of
 * blocked receives, setup collectives' arguments): live() maps such an
 * address of a switched-out rank to its save area. */
#define STACK_BYTES (8UL << 20)
#define GUARD_BYTES (1UL << 20)
#define SAVE_BYTES  (1UL << 38)
#define ARENA_BYTES (1UL << 37)

static struct {
  int p, ppn, cur, running;
  rank_t *r;
  int *runq, qhead, qlen;
  coro sched;
  cs_prog *g;
  csrec_main_fn main;
  void *arg;
  char err[512];
  int failed;
  char *stack, *top;            /* the shared stack [top - STACK_BYTES, top), guard below */
  char *saves;                  /* save areas: SAVE_BYTES reserved */
  size_t saves_used, saves_pop; /* handed out in this run, populated */
  sigjmp_buf overflow;          /* the scheduler, for a fault in the guard */
  struct sigaction *old_segv;   /* SIGSEGV's action outside csrec_run */
  char *arena;
  size_t gcursor; /* arena cursor outside a run */
  long glive;
} E = {.cur = -1};

void csrec_fail(const char *fmt, ...) {
  if (E.failed) return;
  E.failed = 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(E.err, sizeof E.err, fmt, ap);
  va_end(ap);
}

/* An MPI call this layer does not implement: fails the case loudly. */
static int unsupported(const char *call) {
  csrec_fail(
      "recording MPI: %s is not supported (models/mpirec/ implements the calls "
      "collsim's kernels use; native algorithms have no model)",
      call);
  return MPI_ERR_UNSUPPORTED_OPERATION;
}

/* ---- setup and the priced call ------------------------------------------- */

void csrec_priced(int on) {
  if (E.cur >= 0) E.r[E.cur].priced = (char)(on != 0);
}
int csrec_in_priced(void) { return E.cur >= 0 && E.r[E.cur].priced; }

static char selector[32] = "default";
void csrec_set_selector(const char *sel) {
  snprintf(selector, sizeof selector, "%s", sel && *sel ? sel : "default");
}
const char *csrec_selector(void) { return selector; }
/* The ranks per SimGrid host that SMPI's selectors see: platgen gives
 * every rank a host of its own (abg, max-rate and k-lane platforms alike). */
int csrec_ppn(void) { return 1; }

/* A communicator created inside the priced call: SMPI pays messages for
 * it, which the recorder does not reproduce, so the case fails. */
static int created_in_call(const char *call) {
  csrec_fail(
      "recording MPI: %s inside the priced call (world rank %d): SMPI charges the messages of "
      "communicator creation and the recorder does not price them; create it before the call "
      "(the kernel context: algos/ctx.h, cs_ctx_prepare)",
      call, E.cur);
  return MPI_ERR_UNSUPPORTED_OPERATION;
}

/* Where the data at address a of world rank w's stack are now: a itself
 * if w runs or a is not on the shared stack, else in w's save area. */
static void *live(int w, const void *a) {
  const char *c = a;
  if (w == E.cur || !E.top || c < E.top - STACK_BYTES || c >= E.top) return (void *)(uintptr_t)a;
  const rank_t *rk = &E.r[w];
  if (!rk->started || c < E.top - rk->depth) {
    csrec_fail("recording MPI: world rank %d's stack address %p is not in use", w, a);
    return (void *)(uintptr_t)a;
  }
  return rk->save + (c - (E.top - rk->depth));
}

static void push_op(int r, cs_mop op) { cs_prog_push(E.g, r, op); }

/* Records a communication step of rank r: to and from as in cs_mop, sb and
 * rb bytes (large counts escape into the program's table, record.h). */
static void push_comm(int r, int to, int from, long sb, long rb) {
  cs_mop op = {to, from, 0, 0};
  cs_mop_set_bytes(E.g, &op, (size_t)sb, (size_t)rb);
  push_op(r, op);
}

void csrec_charge(double bytes, int kind) {
  if (bytes <= 0 || E.cur < 0) return;
  /* Charges are byte counts (algos/local.c): whole numbers below 2^64. */
  if (bytes != floor(bytes) || bytes >= 0x1p64) {
    csrec_fail("recording MPI: a local charge of %g bytes (want a whole number below 2^64)", bytes);
    return;
  }
  unsigned long long b = (unsigned long long)bytes;
  cs_mop op = {-1, CS_MOP_LOCAL - kind, (unsigned)b, (unsigned)(b >> 32)};
  push_op(E.cur, op);
}

static void make_ready(int w) {
  rank_t *rk = &E.r[w];
  if (rk->queued) return;
  rk->queued = 1;
  E.runq[(E.qhead + E.qlen++) % E.p] = w;
}

/* Gives the processor back to the scheduler until this rank is woken. */
static void block(void) {
  int w = E.cur;
  coro_switch(&E.r[w].ctx, &E.sched);
  E.cur = w;
}

/* ---- shared arena --------------------------------------------------------- */

static int in_arena(const void *p) {
  return E.arena && (const char *)p >= E.arena && (const char *)p < E.arena + ARENA_BYTES;
}
int csrec_in_arena(const void *p) { return in_arena(p); }

void *csrec_shared_malloc(size_t bytes) {
  if (!E.arena) {
    void *a = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a == MAP_FAILED) return NULL;
    E.arena = a;
  }
  size_t *cursor = E.cur >= 0 ? &E.r[E.cur].cursor : &E.gcursor;
  long *live = E.cur >= 0 ? &E.r[E.cur].live : &E.glive;
  /* Ranks start above the buffers allocated outside the run. */
  if (E.cur >= 0 && *cursor < E.gcursor) *cursor = E.gcursor;
  size_t at = (*cursor + 63) & ~(size_t)63;
  if (at + bytes + 64 > ARENA_BYTES) {
    csrec_fail("recording MPI: shared arena of %lu bytes exhausted", ARENA_BYTES);
    return NULL;
  }
  *cursor = at + bytes + 64; /* a gap keeps consecutive buffers apart */
  (*live)++;
  return E.arena + at;
}

void csrec_shared_free(void *p) {
  if (!p) return;
  size_t *cursor = E.cur >= 0 ? &E.r[E.cur].cursor : &E.gcursor;
  long *live = E.cur >= 0 ? &E.r[E.cur].live : &E.glive;
  /* A rank's (or the driver's) allocations are released all at once. */
  if (--*live == 0) *cursor = E.cur >= 0 ? E.gcursor : 0;
}

/* ---- datatypes ------------------------------------------------------------ */

/* An int that MPI hands back (a size in bytes), or a failed case when it
 * does not fit: never truncated. */
static int int_result(long v, int *out, const char *what) {
  if (v < 0 || v > INT_MAX) {
    *out = MPI_UNDEFINED;
    csrec_fail("recording MPI: %s of %ld bytes does not fit MPI's int", what, v);
    return MPI_ERR_COUNT;
  }
  *out = (int)v;
  return MPI_SUCCESS;
}

int csrec_type_size(MPI_Datatype dt, int *size) {
  return int_result(dt->size, size, "MPI_Type_size: a type");
}
int csrec_type_get_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent) {
  *lb = dt->lb;
  *extent = dt->extent;
  return MPI_SUCCESS;
}
int csrec_type_get_true_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent) {
  *lb = dt->tlb;
  *extent = dt->tub - dt->tlb;
  return MPI_SUCCESS;
}

/* A derived type from blocks (count lens[i] of old at byte displs[i]). */
static int make_type(int n, const int lens[], const MPI_Aint displs[], MPI_Datatype old,
                     MPI_Datatype *out) {
  long nseg = 0;
  for (int i = 0; i < n; i++) nseg += (long)lens[i] * old->nseg;
  struct csrec_type *t = calloc(1, sizeof *t);
  long *s = malloc(sizeof(long) * 2 * (size_t)(nseg > 0 ? nseg : 1));
  if (!t || !s) {
    free(t);
    free(s);
    return MPI_ERR_NO_MEM;
  }
  const long *os = segs(old);
  long m = 0, lb = 0, ub = 0, tlb = 0, tub = 0;
  int any = 0;
  for (int i = 0; i < n; i++) {
    if (lens[i] <= 0) continue;
    long b = displs[i] + old->lb, e = displs[i] + old->lb + lens[i] * old->extent;
    if (!any || b < lb) lb = b;
    if (!any || e > ub) ub = e;
    any = 1;
    for (long j = 0; j < lens[i]; j++)
      for (int k = 0; k < old->nseg; k++) {
        long off = displs[i] + j * old->extent + os[2 * k], len = os[2 * k + 1];
        if (m > 0 && s[2 * (m - 1)] + s[2 * (m - 1) + 1] == off)
          s[2 * (m - 1) + 1] += len; /* merge with the previous segment */
        else {
          s[2 * m] = off;
          s[2 * m + 1] = len;
          m++;
        }
        if (m == 1 && s[1] == len) tlb = tub = off;
        if (off < tlb) tlb = off;
        if (off + len > tub) tub = off + len;
      }
    t->size += lens[i] * old->size;
  }
  t->lb = lb;
  t->extent = ub - lb;
  t->tlb = tlb;
  t->tub = tub;
  if (m > INT_MAX) {
    free(t);
    free(s);
    csrec_fail("recording MPI: a derived datatype of %ld segments (at most INT_MAX)", m);
    return MPI_ERR_TYPE;
  }
  t->nseg = (int)m;
  t->segs = s;
  t->kind = old->kind;
  *out = t;
  return MPI_SUCCESS;
}

int csrec_type_contiguous(int count, MPI_Datatype old, MPI_Datatype *out) {
  MPI_Aint zero = 0;
  return make_type(1, &count, &zero, old, out);
}
int csrec_type_create_hindexed(int n, const int lens[], const MPI_Aint displs[], MPI_Datatype old,
                               MPI_Datatype *out) {
  return make_type(n, lens, displs, old, out);
}
int csrec_type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *out) {
  int one = 1;
  MPI_Aint zero = 0;
  int rc = make_type(1, &one, &zero, old, out);
  if (rc == MPI_SUCCESS) {
    (*out)->lb = lb;
    (*out)->extent = extent;
  }
  return rc;
}
int csrec_type_commit(MPI_Datatype *dt) {
  (void)dt;
  return MPI_SUCCESS;
}
int csrec_type_free(MPI_Datatype *dt) {
  if (*dt && !(*dt)->builtin) {
    free((*dt)->segs);
    free(*dt);
  }
  *dt = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}
int csrec_get_address(const void *p, MPI_Aint *a) {
  *a = (MPI_Aint)(uintptr_t)p;
  return MPI_SUCCESS;
}
MPI_Aint csrec_aint_diff(MPI_Aint a, MPI_Aint b) { return a - b; }

/* Packs count elements at in into out (size * count bytes). */
static int contiguous(MPI_Datatype dt) {
  const long *s = segs(dt);
  return dt->nseg == 1 && s[0] == 0 && s[1] == dt->extent;
}

static void pack(const void *in, long count, MPI_Datatype dt, char *out) {
  if (contiguous(dt)) {
    memcpy(out, in, (size_t)(count * dt->size));
    return;
  }
  const long *s = segs(dt);
  for (long i = 0; i < count; i++)
    for (int k = 0; k < dt->nseg; k++) {
      memcpy(out, (const char *)in + i * dt->extent + s[2 * k], (size_t)s[2 * k + 1]);
      out += s[2 * k + 1];
    }
}
/* Unpacks bytes (at most count elements' worth) from in into out. */
static void unpack(const char *in, long bytes, void *out, MPI_Datatype dt) {
  if (contiguous(dt)) {
    memcpy(out, in, (size_t)bytes);
    return;
  }
  const long *s = segs(dt);
  for (long i = 0; bytes > 0; i++)
    for (int k = 0; k < dt->nseg && bytes > 0; k++) {
      long len = s[2 * k + 1] < bytes ? s[2 * k + 1] : bytes;
      memcpy((char *)out + i * dt->extent + s[2 * k], in, (size_t)len);
      in += len;
      bytes -= len;
    }
}

int csrec_pack(const void *in, int count, MPI_Datatype dt, void *out, int outsize, int *pos,
               MPI_Comm comm) {
  (void)comm;
  long bytes = (long)count * dt->size;
  if (*pos + bytes > outsize) return MPI_ERR_TRUNCATE;
  pack(in, count, dt, (char *)out + *pos);
  *pos += (int)bytes; /* <= outsize - *pos: fits */
  return MPI_SUCCESS;
}
int csrec_unpack(const void *in, int insize, int *pos, void *out, int count, MPI_Datatype dt,
                 MPI_Comm comm) {
  (void)comm;
  long bytes = (long)count * dt->size;
  if (*pos + bytes > insize) return MPI_ERR_TRUNCATE;
  unpack((const char *)in + *pos, bytes, out, dt);
  *pos += (int)bytes; /* <= insize - *pos: fits */
  return MPI_SUCCESS;
}
int csrec_pack_size(int count, MPI_Datatype dt, MPI_Comm comm, int *size) {
  (void)comm;
  return int_result((long)count * dt->size, size, "MPI_Pack_size: a packed buffer");
}

/* ---- reductions ----------------------------------------------------------- */

#define RED_INT(T)                                         \
  do {                                                     \
    const T *a = in;                                       \
    T *b = inout;                                          \
    for (long i = 0; i < n; i++) switch (op->id) {         \
      case O_MAX: b[i] = a[i] > b[i] ? a[i] : b[i]; break; \
      case O_MIN: b[i] = a[i] < b[i] ? a[i] : b[i]; break; \
      case O_SUM: b[i] = (T)(a[i] + b[i]); break;          \
      case O_PROD: b[i] = (T)(a[i] * b[i]); break;         \
      case O_LAND: b[i] = a[i] && b[i]; break;             \
      case O_LOR: b[i] = a[i] || b[i]; break;              \
      case O_LXOR: b[i] = !a[i] != !b[i]; break;           \
      case O_BAND: b[i] = a[i] & b[i]; break;              \
      case O_BOR: b[i] = a[i] | b[i]; break;               \
      case O_BXOR: b[i] = a[i] ^ b[i]; break;              \
      }                                                    \
  } while (0)
#define RED_FLOAT(T)                                                                \
  do {                                                                              \
    const T *a = in;                                                                \
    T *b = inout;                                                                   \
    for (long i = 0; i < n; i++) switch (op->id) {                                  \
      case O_MAX: b[i] = a[i] > b[i] ? a[i] : b[i]; break;                          \
      case O_MIN: b[i] = a[i] < b[i] ? a[i] : b[i]; break;                          \
      case O_SUM: b[i] = a[i] + b[i]; break;                                        \
      case O_PROD: b[i] = a[i] * b[i]; break;                                       \
      default: return unsupported("MPI_Reduce_local (bitwise op on a float type)"); \
      }                                                                             \
  } while (0)

int csrec_reduce_local(const void *in, void *inout, int count, MPI_Datatype dt, MPI_Op op) {
  if (op->id == O_USER) {
    op->fn((void *)in, inout, &count, &dt);
    return MPI_SUCCESS;
  }
  if (op->id == O_NAMED)
    return unsupported("MPI_Reduce_local (MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE or MPI_NO_OP)");
  if (!dt->builtin) return unsupported("MPI_Reduce_local (predefined op on a derived type)");
  long n = count;
  switch (dt->kind) {
  case K_U8: RED_INT(unsigned char); break;
  case K_S8: RED_INT(signed char); break;
  case K_SHORT: RED_INT(short); break;
  case K_USHORT: RED_INT(unsigned short); break;
  case K_INT: RED_INT(int); break;
  case K_UINT: RED_INT(unsigned); break;
  case K_LONG: RED_INT(long); break;
  case K_ULONG: RED_INT(unsigned long); break;
  case K_LL: RED_INT(long long); break;
  case K_ULL: RED_INT(unsigned long long); break;
  case K_FLOAT: RED_FLOAT(float); break;
  case K_DOUBLE: RED_FLOAT(double); break;
  default: return unsupported("MPI_Reduce_local (this datatype)");
  }
  return MPI_SUCCESS;
}

int csrec_op_commutative(MPI_Op op, int *commute) {
  *commute = op->commute;
  return MPI_SUCCESS;
}
int csrec_op_create(MPI_User_function *fn, int commute, MPI_Op *op) {
  struct csrec_op *o = malloc(sizeof *o);
  if (!o) return MPI_ERR_NO_MEM;
  o->id = O_USER;
  o->commute = commute;
  o->fn = fn;
  *op = o;
  return MPI_SUCCESS;
}
int csrec_op_free(MPI_Op *op) {
  if (*op && (*op)->id == O_USER) free(*op);
  *op = MPI_OP_NULL;
  return MPI_SUCCESS;
}

/* ---- communicators -------------------------------------------------------- */

static MPI_Comm comm_new(int n, const int world[]) {
  struct csrec_comm *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->size = n;
  c->world = malloc(sizeof(int) * (size_t)n);
  c->attrs = calloc((size_t)n, sizeof(attr *));
  c->slot = calloc((size_t)n, sizeof(void *));
  int lo = world[0], hi = world[0];
  for (int i = 0; i < n; i++) {
    if (world[i] < lo) lo = world[i];
    if (world[i] > hi) hi = world[i];
  }
  c->lo = lo;
  c->span = hi - lo + 1;
  c->rank = malloc(sizeof(int) * (size_t)c->span);
  if (!c->world || !c->attrs || !c->slot || !c->rank) {
    free(c->world);
    free(c->attrs);
    free(c->slot);
    free(c->rank);
    free(c);
    return NULL;
  }
  for (int i = 0; i < c->span; i++) c->rank[i] = -1;
  for (int i = 0; i < n; i++) {
    c->world[i] = world[i];
    c->rank[world[i] - lo] = i;
  }
  c->identity = lo == 0;
  for (int i = 0; i < n && c->identity; i++) c->identity = world[i] == i;
  c->refs = n;
  return c;
}

static void comm_destroy(MPI_Comm c) {
  if (c->shadow) comm_destroy(c->shadow);
  for (int i = 0; i < c->size; i++)
    for (attr *a = c->attrs[i], *n; a; a = n) {
      n = a->next;
      free(a);
    }
  free(c->world);
  free(c->attrs);
  free(c->slot);
  free(c->rank);
  free(c);
}

/* The world rank of comm rank i of c. */
static int world_of(MPI_Comm c, int i) { return c->identity ? i : c->world[i]; }

/* The running rank's rank in c, or -1. */
static int my_rank(MPI_Comm c) {
  if (c->self) return 0;
  if (c->identity) return E.cur < c->size ? E.cur : -1;
  int i = E.cur - c->lo;
  return i >= 0 && i < c->span ? c->rank[i] : -1;
}

static int check_comm(MPI_Comm c, const char *call) {
  if (E.cur < 0) {
    csrec_fail("recording MPI: %s called outside a recorded run", call);
    return MPI_ERR_COMM;
  }
  if (c == MPI_COMM_NULL || my_rank(c) < 0) {
    csrec_fail("recording MPI: %s on a communicator this rank is not in", call);
    return MPI_ERR_COMM;
  }
  return MPI_SUCCESS;
}

int csrec_comm_size(MPI_Comm comm, int *size) {
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  *size = comm->size;
  return MPI_SUCCESS;
}
int csrec_comm_rank(MPI_Comm comm, int *rank) {
  int rc = check_comm(comm, "MPI_Comm_rank");
  if (rc) return rc;
  *rank = my_rank(comm);
  return MPI_SUCCESS;
}

int csrec_get_processor_name(char *name, int *len) {
  if (E.cur < 0) return unsupported("MPI_Get_processor_name outside a run");
  /* The host names platforms/platgen.c writes, from the one topology
   * module: node<N>-<L> for N = r / ppn, L = r % ppn; with no ppn (ABG:
   * one host per rank) node<r>. */
  int rc = E.ppn > 0
               ? cs_topo_host_name(name, MPI_MAX_PROCESSOR_NAME, cs_topo_node_of(E.cur, E.ppn),
                                   cs_topo_local_of(E.cur, E.ppn))
               : cs_topo_host_name(name, MPI_MAX_PROCESSOR_NAME, E.cur, -1);
  if (rc) return unsupported("MPI_Get_processor_name: no host name for this rank");
  *len = (int)strlen(name);
  return MPI_SUCCESS;
}

/* ---- point-to-point ------------------------------------------------------- */

/* Whether a receive for (src, tag) (wildcards allowed) takes a message
 * from msrc with mtag; communicators compared by the caller. */
static int pattern_takes(int src, int tag, int msrc, int mtag) {
  return (src == MPI_ANY_SOURCE || msrc == src) && (tag == MPI_ANY_TAG || mtag == tag);
}

/* Unlinks and returns the first entry of the queue (*head, *tail) that
 * matches (comm, src, tag), or NULL. The entries are messages and (comm,
 * src, tag) a receive, or (posted) the entries are receives and (comm,
 * src, tag) a message. */
/* The evaluators pair the k-th message from world rank i to j with the
 * k-th receive at j from i (record.h). A match (or a wait) that passes
 * over an older message or posted receive of the same pair, of another tag
 * or communicator, breaks that order: unlink_first sets *passed, and the
 * case fails rather than be priced with wrong pairs. */
static void out_of_order(int from, int to) {
  csrec_fail(
      "recording MPI: messages from world rank %d to world rank %d match out of their posting "
      "order (different tags or communicators in flight at once); the models pair a pair's "
      "messages in order and cannot price this kernel",
      from, to);
}

static msg *unlink_first(msg **head, msg **tail, MPI_Comm comm, int src, int tag, int posted,
                         int *passed) {
  *passed = 0;
  for (msg *m = *head, *prev = NULL; m; prev = m, m = m->next) {
    if (m->comm == comm && (posted ? pattern_takes(m->src, m->tag, src, tag)
                                   : pattern_takes(src, tag, m->src, m->tag))) {
      if (src == MPI_ANY_SOURCE) /* the source is known now: any older of it? */
        for (const msg *o = *head; o != m && !*passed; o = o->next) *passed = o->src == m->src;
      if (prev)
        prev->next = m->next;
      else
        *head = m->next;
      if (*tail == m) *tail = prev;
      return m;
    }
    if (m->src == src) *passed = 1;
  }
  return NULL;
}

/* Appends m to the queue (*head, *tail). */
static void append(msg **head, msg **tail, msg *m) {
  m->next = NULL;
  if (*tail)
    (*tail)->next = m;
  else
    *head = m;
  *tail = m;
}

/* Inserts m into the queue (*head, *tail) of posted receives after every
 * entry whose source is not higher: the queue stays ordered by source and,
 * within a source, by posting order, which is all the order MPI's
 * matching sees (posted receives name their source). Ranks mostly run in
 * rank order, so the next message comes from the lowest source, at the
 * head: a ceilhalf allreduce's allgather sends walked past the receives
 * its reduce-scatter had posted for the highest ranks, in posting order
 * ahead of them. */
static void insert_by_source(msg **head, msg **tail, msg *m) {
  if (!*tail || (*tail)->src <= m->src) {
    append(head, tail, m);
    return;
  }
  msg **at = head;
  while ((*at)->src <= m->src) at = &(*at)->next;
  m->next = *at;
  *at = m;
}

/* Takes the first message of rank w that matches (comm, src, tag), or NULL. */
static msg *take(int w, MPI_Comm comm, int src, int tag) {
  int passed;
  msg *m = unlink_first(&E.r[w].head, &E.r[w].tail, comm, src, tag, 0, &passed);
  if (passed) out_of_order(m ? m->src : src, w);
  /* The next message in the queue is likely the next one received: fetch it now. */
  if (E.r[w].head) __builtin_prefetch(E.r[w].head, 1);
  return m;
}

/* Whether a message of bytes from world rank src exceeds the receive of
 * cap bytes at rank w: then it fails the case, as MPI_ERR_TRUNCATE would. */
static int truncated(long bytes, int src, int w, long cap) {
  if (bytes <= cap) return 0;
  csrec_fail(
      "recording MPI: message of %ld bytes from world rank %d truncated at rank %d "
      "(receive of %ld bytes)",
      bytes, src, w, cap);
  return 1;
}

/* A message of bytes from world rank src matches the receive rv, posted
 * without waiting (MPI_Irecv-like): sets its recorded size, or fails the
 * case if the message would be truncated. */
static void complete_posted(msg *rv, long bytes, int src, int w) {
  if (!truncated(bytes, src, w, rv->bytes) && bytes != rv->bytes && rv->rec)
    /* records were written with the posted size */
    cs_mop_set_bytes(E.g, rv->rec, cs_mop_sbytes(E.g, rv->rec), (size_t)bytes);
  msg_free(rv);
}

/* The first receive rank w posted without waiting that matches a message
 * (comm, src, tag): unlinked and returned, or NULL. */
static msg *take_posted(int w, MPI_Comm comm, int src, int tag) {
  int passed;
  msg *m = unlink_first(&E.r[w].phead, &E.r[w].ptail, comm, src, tag, 1, &passed);
  if (passed) out_of_order(src, w);
  return m;
}

/* Copies the message of count dt at buf (bytes bytes) into count... of
 * rtype at rbuf. Returns 0, or -1 with no memory. */
static int copy_msg(const void *buf, int count, MPI_Datatype dt, long bytes, void *rbuf,
                    MPI_Datatype rtype) {
  if (contiguous(dt)) {
    unpack(buf, bytes, rbuf, rtype);
    return 0;
  }
  char *t = malloc((size_t)bytes);
  if (!t) return -1;
  pack(buf, count, dt, t);
  unpack(t, bytes, rbuf, rtype);
  free(t);
  return 0;
}

/* The message (count dt at buf, bytes bytes, tag) from the running rank
 * has matched the MPI_Irecv q of world rank w: its data go into q's buffer
 * (both private), q is done, and w goes on if it waits for q. */
static int irecv_arrived(struct csrec_req *q, const void *buf, int count, MPI_Datatype dt,
                         long bytes, int tag, int w) {
  if (bytes > 0 && bytes <= (long)q->count * q->dt->size && !in_arena(buf) && !in_arena(q->buf) &&
      copy_msg(buf, count, dt, bytes, live(w, q->buf), q->dt))
    return -1;
  q->done = 1;
  q->st = (MPI_Status){q->comm->rank[E.cur - q->comm->lo], tag, MPI_SUCCESS, bytes};
  rank_t *rk = &E.r[w];
  if (rk->state == R_WAIT && rk->rbuf == q) make_ready(w);
  return 0;
}

/* Buffers the message (a copy only when the buffer is private) and wakes
 * the destination if it waits for it. Returns the world rank of dest. */
static int post_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
                     MPI_Comm comm) {
  int w = world_of(comm, dest);
  rank_t *rk = &E.r[w];
  /* The next rank, which runs next, sends its message of this round to
   * w + 1 in the kernels' schedules (peers are r + f(round)): the state of
   * w + 2 is fetched now, and the first posted receive and last message
   * of w + 1 (whose state the previous rank fetched), so that those sends
   * find them in the cache. At 10^6 ranks these misses were most of the
   * time of recording (ceilhalf allreduce: 0.67x the CPU with the fetches
   * ahead; a rank's state otherwise arrives only when the send needs it). */
  const rank_t *n1 = &E.r[(w + 1) % E.p];
  __builtin_prefetch(&E.r[(w + 2) % E.p], 1);
  if (n1->phead) __builtin_prefetch(n1->phead, 1);
  if (n1->tail) __builtin_prefetch(n1->tail, 1);
  long bytes = (long)count * dt->size;
  /* Receives posted earlier match first, a waiting receive after them. */
  if (rk->phead) {
    msg *rv = take_posted(w, comm, E.cur, tag);
    if (rv) {
      int bad = rv->req && irecv_arrived(rv->req, buf, count, dt, bytes, tag, w);
      complete_posted(rv, bytes, E.cur, w);
      return bad ? -1 : w;
    }
  }
  msg *m = msg_make(E.cur, tag, comm, bytes);
  if (!m) return -1;
  if (rk->state == R_RECV && !rk->got && rk->rcomm == comm &&
      pattern_takes(rk->rsrc, rk->rtag, E.cur, tag)) {
    /* The destination waits for this message: one copy, straight into its
     * buffer (a message it would truncate is left to wait_recv to fail). */
    if (m->bytes > 0 && m->bytes <= (long)rk->rcount * rk->rtype->size && !in_arena(buf) &&
        !in_arena(rk->rbuf)) {
      if (copy_msg(buf, count, dt, m->bytes, live(w, rk->rbuf), rk->rtype)) {
        msg_free(m);
        return -1;
      }
    }
    m->delivered = 1;
    rk->got = m;
    make_ready(w);
    return w;
  }
  if (m->bytes > 0 && !in_arena(buf)) {
    m->data = malloc((size_t)m->bytes);
    if (!m->data) {
      msg_free(m);
      return -1;
    }
    pack(buf, count, dt, m->data);
  }
  append(&rk->head, &rk->tail, m);
  return w;
}

/* Blocks until a message matching (source, tag, comm) arrives; delivers it
 * into buf. Returns MPI_SUCCESS or an error; *from and *bytes describe it. */
static int wait_recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                     int *from, long *bytes) {
  rank_t *rk = &E.r[E.cur];
  int src = source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : world_of(comm, source);
  msg *m = take(E.cur, comm, src, tag);
  if (!m) {
    rk->state = R_RECV;
    rk->rcomm = comm;
    rk->rsrc = src; /* a world rank, as in messages */
    rk->rtag = tag;
    rk->rbuf = buf;
    rk->rcount = count;
    rk->rtype = dt;
    rk->got = NULL;
    while (!rk->got) block();
    m = rk->got;
    rk->got = NULL;
    rk->state = R_READY;
  }
  int rc = MPI_SUCCESS;
  if (truncated(m->bytes, m->src, E.cur, (long)count * dt->size)) {
    rc = MPI_ERR_TRUNCATE;
  } else if (!m->delivered && m->data && !in_arena(buf)) {
    unpack(m->data, m->bytes, buf, dt);
  }
  *from = m->src;
  *bytes = m->bytes;
  msg_free(m);
  return rc;
}

/* A receive that need not wait (see the top of this file): nobody reads
 * its data (arena buffer, or empty), it names its source and wants no
 * status. */
static int can_post(const void *buf, int count, MPI_Datatype dt, int source, MPI_Status *status) {
  return source != MPI_ANY_SOURCE && status == MPI_STATUS_IGNORE &&
         (in_arena(buf) || (long)count * dt->size == 0);
}

/* Receives from a message already queued, or posts the receive to be
 * matched later (MPI_Irecv-like). Returns the bytes received, or -1 when
 * posted: *posted is then the entry, whose rec the caller sets to the
 * receive's record. *from is the source's world rank. */
static long recv_now(int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm, int *from,
                     msg **posted) {
  int src = world_of(comm, source);
  long cap = (long)count * dt->size;
  *from = src;
  *posted = NULL;
  msg *m = take(E.cur, comm, src, tag);
  if (m) {
    long bytes = m->bytes;
    truncated(bytes, src, E.cur, cap);
    msg_free(m);
    return bytes;
  }
  msg *v = msg_make(src, tag, comm, cap);
  if (!v) {
    csrec_fail("recording MPI: out of memory for a posted receive");
    return 0;
  }
  rank_t *rk = &E.r[E.cur];
  insert_by_source(&rk->phead, &rk->ptail, v);
  *posted = v;
  return -1;
}

static int check_peer(MPI_Comm comm, int peer, const char *call) {
  if (peer == MPI_PROC_NULL) return MPI_SUCCESS;
  if (comm->self || peer < 0 || peer >= comm->size) {
    csrec_fail("recording MPI: %s with rank %d on a communicator of %d ranks", call, peer,
               comm->size);
    return MPI_ERR_RANK;
  }
  return MPI_SUCCESS;
}

int csrec_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm) {
  int rc = check_comm(comm, "MPI_Send");
  if (!rc) rc = check_peer(comm, dest, "MPI_Send");
  if (rc || dest == MPI_PROC_NULL) return rc;
  int w = post_send(buf, count, dt, dest, tag, comm);
  if (w < 0) return MPI_ERR_NO_MEM;
  push_comm(E.cur, w, -1, (long)count * dt->size, 0);
  return MPI_SUCCESS;
}

int csrec_recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
               MPI_Status *status) {
  int rc = check_comm(comm, "MPI_Recv");
  if (!rc && source != MPI_ANY_SOURCE) rc = check_peer(comm, source, "MPI_Recv");
  if (rc) return rc;
  if (source == MPI_PROC_NULL) {
    if (status) *status = (MPI_Status){MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0};
    return MPI_SUCCESS;
  }
  int from;
  long bytes;
  if (can_post(buf, count, dt, source, status)) {
    msg *v;
    bytes = recv_now(count, dt, source, tag, comm, &from, &v);
    push_comm(E.cur, -1, from, 0, v ? v->bytes : bytes);
    if (v) v->rec = cs_prog_last(E.g, E.cur);
    return MPI_SUCCESS;
  }
  rc = wait_recv(buf, count, dt, source, tag, comm, &from, &bytes);
  push_comm(E.cur, -1, from, 0, bytes);
  if (status) *status = (MPI_Status){comm->rank[from - comm->lo], tag, rc, bytes};
  return rc;
}

int csrec_sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                   int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                   MPI_Status *status) {
  int rc = check_comm(comm, "MPI_Sendrecv");
  if (!rc) rc = check_peer(comm, dest, "MPI_Sendrecv");
  if (!rc && source != MPI_ANY_SOURCE) rc = check_peer(comm, source, "MPI_Sendrecv");
  if (rc) return rc;
  cs_mop op = {-1, -1, 0, 0};
  long sbytes = 0, rbytes = 0;
  msg *v = NULL;
  int posts = source != MPI_PROC_NULL && can_post(rbuf, rcount, rtype, source, status);
  /* A receive that does not wait is posted first when the message goes to
   * another rank (MPI_Sendrecv is an MPI_Irecv and an MPI_Isend, completed
   * together): the destination's state, fetched ahead here, arrives while
   * the receive looks into this rank's own queue. */
  int early = posts && dest != MPI_PROC_NULL && world_of(comm, dest) != E.cur;
  if (early) {
    __builtin_prefetch(&E.r[world_of(comm, dest)], 1);
    long bytes = recv_now(rcount, rtype, source, rtag, comm, &op.from, &v);
    rbytes = v ? v->bytes : bytes;
  }
  if (dest != MPI_PROC_NULL) {
    op.to = post_send(sbuf, scount, stype, dest, stag, comm);
    if (op.to < 0) return MPI_ERR_NO_MEM;
    sbytes = (long)scount * stype->size;
  }
  if (status) *status = (MPI_Status){MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0};
  if (early) {
  } else if (posts) {
    long bytes = recv_now(rcount, rtype, source, rtag, comm, &op.from, &v);
    rbytes = v ? v->bytes : bytes;
  } else if (source != MPI_PROC_NULL) {
    long bytes;
    rc = wait_recv(rbuf, rcount, rtype, source, rtag, comm, &op.from, &bytes);
    rbytes = bytes;
    if (status) *status = (MPI_Status){comm->rank[op.from - comm->lo], rtag, rc, bytes};
  }
  if (op.to >= 0 || op.from >= 0) push_comm(E.cur, op.to, op.from, sbytes, rbytes);
  if (v) v->rec = cs_prog_last(E.g, E.cur);
  return rc;
}

/* ---- nonblocking point-to-point ------------------------------------------- */

/* A request of the running rank (NULL with no memory: the case fails). */
static struct csrec_req *req_new(int recv) {
  struct csrec_req *q = calloc(1, sizeof *q);
  if (!q) {
    csrec_fail("recording MPI: out of memory for a request");
    return NULL;
  }
  q->recv = recv;
  q->owner = E.cur;
  q->index = -1; /* MPI_PROC_NULL: nothing recorded, nothing to wait for */
  q->done = 1;
  return q;
}

int csrec_isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                MPI_Request *req) {
  *req = MPI_REQUEST_NULL;
  int rc = check_comm(comm, "MPI_Isend");
  if (!rc) rc = check_peer(comm, dest, "MPI_Isend");
  if (rc) return rc;
  struct csrec_req *q = req_new(0);
  if (!q) return MPI_ERR_NO_MEM;
  *req = q;
  if (dest == MPI_PROC_NULL) return MPI_SUCCESS;
  /* Delivered (buffered) now; what the send costs is priced from the records. */
  int w = post_send(buf, count, dt, dest, tag, comm);
  if (w < 0) return MPI_ERR_NO_MEM;
  rank_t *rk = &E.r[E.cur];
  q->index = rk->nreq++;
  E.g->nb = 1;
  push_comm(E.cur, CS_MOP_ISEND, w, (long)count * dt->size, 0);
  return MPI_SUCCESS;
}

int csrec_irecv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                MPI_Request *req) {
  *req = MPI_REQUEST_NULL;
  int rc = check_comm(comm, "MPI_Irecv");
  if (!rc && source == MPI_ANY_SOURCE) rc = unsupported("MPI_Irecv from MPI_ANY_SOURCE");
  if (!rc) rc = check_peer(comm, source, "MPI_Irecv");
  if (rc) return rc;
  struct csrec_req *q = req_new(1);
  if (!q) return MPI_ERR_NO_MEM;
  *req = q;
  q->st = (MPI_Status){MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0};
  if (source == MPI_PROC_NULL) return MPI_SUCCESS;
  rank_t *rk = &E.r[E.cur];
  int src = world_of(comm, source);
  long cap = (long)count * dt->size;
  q->index = rk->nreq++;
  q->buf = buf;
  q->count = count;
  q->dt = dt;
  q->comm = comm;
  E.g->nb = 1;
  msg *m = take(E.cur, comm, src, tag);
  if (m) { /* already arrived: received now, priced from the records */
    if (truncated(m->bytes, src, E.cur, cap))
      rc = MPI_ERR_TRUNCATE;
    else if (m->data && !in_arena(buf))
      unpack(m->data, m->bytes, buf, dt);
    q->st = (MPI_Status){source, m->tag, rc, m->bytes};
    push_comm(E.cur, CS_MOP_IRECV, src, 0, m->bytes);
    msg_free(m);
    return rc;
  }
  msg *v = msg_make(src, tag, comm, cap);
  if (!v) return MPI_ERR_NO_MEM;
  v->req = q;
  q->done = 0;
  insert_by_source(&rk->phead, &rk->ptail, v);
  push_comm(E.cur, CS_MOP_IRECV, src, 0, cap);
  v->rec = cs_prog_last(E.g, E.cur);
  return MPI_SUCCESS;
}

int csrec_wait(MPI_Request *req, MPI_Status *status) {
  struct csrec_req *q = *req;
  if (!q) {
    if (status) *status = (MPI_Status){MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0};
    return MPI_SUCCESS;
  }
  if (E.cur < 0 || q->owner != E.cur) {
    csrec_fail("recording MPI: MPI_Wait on a request of another rank");
    return MPI_ERR_ARG;
  }
  rank_t *rk = &E.r[E.cur];
  if (!q->done) {
    rk->state = R_WAIT;
    rk->rbuf = q;
    while (!q->done) block();
    rk->state = R_READY;
    rk->rbuf = NULL;
  }
  if (q->index >= 0) push_op(E.cur, (cs_mop){CS_MOP_WAIT, q->index, 0, 0});
  int rc = q->st.MPI_ERROR;
  if (status) *status = q->recv ? q->st : (MPI_Status){MPI_PROC_NULL, MPI_ANY_TAG, MPI_SUCCESS, 0};
  free(q);
  *req = MPI_REQUEST_NULL;
  return rc;
}

int csrec_waitall(int n, MPI_Request reqs[], MPI_Status statuses[]) {
  /* Priced as one wait per request: the call ends when its last request
   * has, whatever the order. */
  int rc = MPI_SUCCESS;
  for (int i = 0; i < n; i++) {
    int r = csrec_wait(&reqs[i], statuses ? &statuses[i] : MPI_STATUS_IGNORE);
    if (r && !rc) rc = r;
  }
  return rc;
}

/* ---- setup collectives (executed, not recorded) --------------------------- */

enum { C_BARRIER, C_BCAST, C_ALLREDUCE, C_ALLGATHER, C_SPLIT, C_DUP };
typedef struct {
  int kind;
  const void *sbuf;
  void *rbuf;
  int count, rcount, root, color, key;
  MPI_Datatype dt, rtype;
  MPI_Op op;
  MPI_Comm *out;
  int failed;
} coll_args;

static int cmp_split(const void *a, const void *b) {
  const int *x = a, *y = b; /* color, key, rank */
  for (int i = 0; i < 3; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/* The collective on the members' arguments A (comm rank order). */
static void coll_run(MPI_Comm c, coll_args *A) {
  int n = c->size;
  coll_args *a0 = &A[0];
  for (int i = 1; i < n; i++)
    if (A[i].kind != a0->kind) {
      csrec_fail("recording MPI: members of a communicator called different setup collectives");
      return;
    }
  switch (a0->kind) {
  case C_BARRIER: break;
  case C_BCAST: {
    coll_args *root = &A[a0->root];
    long bytes = (long)root->count * root->dt->size;
    char *t = malloc((size_t)bytes + 1);
    if (!t) return csrec_fail("recording MPI: no memory in MPI_Bcast");
    pack(root->rbuf, root->count, root->dt, t);
    for (int i = 0; i < n; i++) {
      coll_args *a = &A[i];
      if (i != a0->root) unpack(t, bytes, a->rbuf, a->dt);
    }
    free(t);
    break;
  }
  case C_ALLREDUCE: {
    long bytes = (long)a0->count * a0->dt->size;
    char *acc = malloc((size_t)bytes + 1);
    if (!acc) return csrec_fail("recording MPI: no memory in MPI_Allreduce");
    for (int i = 0; i < n; i++) {
      coll_args *a = &A[i];
      const void *in = a->sbuf == MPI_IN_PLACE ? a->rbuf : a->sbuf;
      if (i == 0)
        memcpy(acc, in, (size_t)bytes);
      else
        csrec_reduce_local(in, acc, a0->count, a0->dt, a0->op);
    }
    for (int i = 0; i < n; i++) memcpy(A[i].rbuf, acc, (size_t)bytes);
    free(acc);
    break;
  }
  case C_ALLGATHER: {
    for (int j = 0; j < n; j++) {
      coll_args *src = &A[j];
      MPI_Datatype st = src->sbuf == MPI_IN_PLACE ? src->rtype : src->dt;
      int sn = src->sbuf == MPI_IN_PLACE ? src->rcount : src->count;
      const char *sb = src->sbuf == MPI_IN_PLACE
                           ? (const char *)src->rbuf + (long)j * src->rcount * src->rtype->extent
                           : src->sbuf;
      long bytes = (long)sn * st->size;
      char *t = malloc((size_t)bytes + 1);
      if (!t) return csrec_fail("recording MPI: no memory in MPI_Allgather");
      pack(sb, sn, st, t);
      for (int i = 0; i < n; i++) {
        coll_args *a = &A[i];
        if (i == j && src->sbuf == MPI_IN_PLACE) continue;
        unpack(t, bytes, (char *)a->rbuf + (long)j * a->rcount * a->rtype->extent, a->rtype);
      }
      free(t);
    }
    break;
  }
  case C_SPLIT: {
    int *v = malloc(sizeof(int) * 3 * (size_t)n), *w = malloc(sizeof(int) * (size_t)n);
    if (!v || !w) {
      free(v);
      free(w);
      return csrec_fail("recording MPI: no memory in MPI_Comm_split");
    }
    for (int i = 0; i < n; i++) {
      coll_args *a = &A[i];
      v[3 * i] = a->color;
      v[3 * i + 1] = a->key;
      v[3 * i + 2] = i;
    }
    qsort(v, (size_t)n, 3 * sizeof(int), cmp_split);
    for (int i = 0; i < n;) {
      int j = i;
      while (j < n && v[3 * j] == v[3 * i]) j++;
      MPI_Comm nc = MPI_COMM_NULL;
      if (v[3 * i] != MPI_UNDEFINED) {
        for (int k = i; k < j; k++) w[k - i] = c->world[v[3 * k + 2]];
        nc = comm_new(j - i, w);
        if (!nc) csrec_fail("recording MPI: no memory in MPI_Comm_split");
      }
      for (int k = i; k < j; k++) *A[v[3 * k + 2]].out = nc;
      i = j;
    }
    free(v);
    free(w);
    break;
  }
  case C_DUP: {
    MPI_Comm nc = comm_new(n, c->world);
    if (!nc) csrec_fail("recording MPI: no memory in MPI_Comm_dup");
    for (int i = 0; i < n; i++) *A[i].out = nc;
    break;
  }
  }
}

/* Called by the last member to arrive: does the collective for everybody,
 * on their arguments as they are now (live: the others are switched out). */
static void coll_do(MPI_Comm c) {
  int n = c->size;
  coll_args *A = calloc((size_t)n, sizeof *A);
  if (!A) return csrec_fail("recording MPI: no memory in a setup collective");
  for (int i = 0; i < n; i++) {
    int w = c->self ? E.cur : c->world[i];
    A[i] = *(coll_args *)live(w, c->slot[i]);
    A[i].rbuf = live(w, A[i].rbuf);
    if (A[i].sbuf != MPI_IN_PLACE) A[i].sbuf = live(w, A[i].sbuf);
    A[i].out = live(w, A[i].out);
  }
  coll_run(c, A);
  free(A);
}

/* Deposits this member's arguments; the last member to arrive does the
 * collective and wakes the others. */
static int coll(MPI_Comm c, coll_args *a, const char *call) {
  int rc = check_comm(c, call);
  if (rc) return rc;
  if (c->self) {
    if (a->kind == C_SPLIT || a->kind == C_DUP) return unsupported(call);
  }
  int me = my_rank(c);
  c->slot[me] = a;
  if (++c->arrived < c->size) {
    int gen = c->gen;
    E.r[E.cur].state = R_COLL;
    while (c->gen == gen) block();
    E.r[E.cur].state = R_READY;
  } else {
    coll_do(c);
    c->arrived = 0;
    c->gen++;
    for (int i = 0; i < c->size; i++)
      if (i != me) make_ready(c->world[i]);
  }
  return E.failed ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int int_type(MPI_Datatype dt) {
  return dt->builtin && dt->kind != K_NONE && dt->kind != K_FLOAT && dt->kind != K_DOUBLE;
}

int csrec_barrier(MPI_Comm comm) {
  if (csrec_in_priced()) return csrec_lib_barrier(comm);
  coll_args a = {.kind = C_BARRIER};
  return coll(comm, &a, "MPI_Barrier");
}
int csrec_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm) {
  if (csrec_in_priced()) return csrec_lib_bcast(buf, count, dt, root, comm);
  if (comm && (root < 0 || root >= comm->size)) return unsupported("MPI_Bcast (root out of range)");
  coll_args a = {.kind = C_BCAST, .rbuf = buf, .count = count, .dt = dt, .root = root};
  return coll(comm, &a, "MPI_Bcast");
}
int csrec_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                    MPI_Comm comm) {
  if (csrec_in_priced()) return csrec_lib_allreduce(sbuf, rbuf, count, dt, op, comm);
  if (!int_type(dt) || (op != MPI_MIN && op != MPI_MAX && op != MPI_SUM))
    return unsupported(
        "MPI_Allreduce (only predefined integer types with MPI_MIN, MPI_MAX, "
        "MPI_SUM: a setup collective)");
  coll_args a = {
      .kind = C_ALLREDUCE, .sbuf = sbuf, .rbuf = rbuf, .count = count, .dt = dt, .op = op};
  return coll(comm, &a, "MPI_Allreduce");
}
int csrec_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                    MPI_Datatype rtype, MPI_Comm comm) {
  if (csrec_in_priced()) return csrec_lib_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
  coll_args a = {.kind = C_ALLGATHER,
                 .sbuf = sbuf,
                 .rbuf = rbuf,
                 .count = scount,
                 .dt = stype,
                 .rcount = rcount,
                 .rtype = rtype};
  return coll(comm, &a, "MPI_Allgather");
}

/* ---- communicator management and attributes ------------------------------ */

static attr **attr_find(MPI_Comm c, int keyval) {
  attr **a = &c->attrs[my_rank(c)];
  while (*a && (*a)->keyval != keyval) a = &(*a)->next;
  return a;
}

int csrec_comm_set_attr(MPI_Comm comm, int keyval, void *value) {
  int rc = check_comm(comm, "MPI_Comm_set_attr");
  if (rc) return rc;
  if (keyval < 0 || keyval >= nkeyvals) return unsupported("MPI_Comm_set_attr (invalid keyval)");
  if (comm->self) return unsupported("MPI_Comm_set_attr on MPI_COMM_SELF");
  attr **a = attr_find(comm, keyval);
  if (*a) {
    keyval_t *k = &keyvals[keyval];
    if (k->del) k->del(comm, keyval, (*a)->value, k->extra);
    (*a)->value = value;
    return MPI_SUCCESS;
  }
  attr *n = malloc(sizeof *n);
  if (!n) return MPI_ERR_NO_MEM;
  n->keyval = keyval;
  n->value = value;
  n->next = NULL;
  *a = n;
  return MPI_SUCCESS;
}

int csrec_comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag) {
  int rc = check_comm(comm, "MPI_Comm_get_attr");
  if (rc) return rc;
  *flag = 0;
  if (comm->self || keyval < 0 || keyval >= nkeyvals) return MPI_SUCCESS;
  attr **a = attr_find(comm, keyval);
  if (*a) {
    *(void **)value = (*a)->value;
    *flag = 1;
  }
  return MPI_SUCCESS;
}

int csrec_comm_delete_attr(MPI_Comm comm, int keyval) {
  int rc = check_comm(comm, "MPI_Comm_delete_attr");
  if (rc) return rc;
  if (comm->self || keyval < 0 || keyval >= nkeyvals) return MPI_ERR_KEYVAL;
  attr **a = attr_find(comm, keyval);
  if (!*a) return MPI_ERR_KEYVAL;
  attr *d = *a;
  *a = d->next;
  keyval_t *k = &keyvals[keyval];
  rc = k->del ? k->del(comm, keyval, d->value, k->extra) : MPI_SUCCESS;
  free(d);
  return rc;
}

int csrec_comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del,
                             int *kv, void *extra) {
  keyval_t *n = realloc(keyvals, sizeof(keyval_t) * (size_t)(nkeyvals + 1));
  if (!n) return MPI_ERR_NO_MEM;
  keyvals = n;
  keyvals[nkeyvals] = (keyval_t){copy, del, extra};
  *kv = nkeyvals++;
  return MPI_SUCCESS;
}

int csrec_comm_free_keyval(int *kv) {
  /* Keys are never reused: attributes still set under it keep working. */
  *kv = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int csrec_comm_dup_fn(MPI_Comm comm, int kv, void *extra, void *in, void *out, int *flag) {
  (void)comm;
  (void)kv;
  (void)extra;
  *(void **)out = in;
  *flag = 1;
  return MPI_SUCCESS;
}

/* Deletes all attributes of the running rank on c (delete callbacks run). */
static void attrs_clear(MPI_Comm c) {
  int me = my_rank(c);
  attr *a = c->attrs[me];
  c->attrs[me] = NULL;
  while (a) {
    attr *n = a->next;
    keyval_t *k = &keyvals[a->keyval];
    if (k->del) k->del(c, a->keyval, a->value, k->extra);
    free(a);
    a = n;
  }
}

int csrec_comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out) {
  if (csrec_in_priced()) return created_in_call("MPI_Comm_split");
  if (color < 0 && color != MPI_UNDEFINED) return unsupported("MPI_Comm_split (negative color)");
  coll_args a = {.kind = C_SPLIT, .color = color, .key = key, .out = out};
  return coll(comm, &a, "MPI_Comm_split");
}

int csrec_comm_dup(MPI_Comm comm, MPI_Comm *out) {
  if (csrec_in_priced()) return created_in_call("MPI_Comm_dup");
  coll_args a = {.kind = C_DUP, .out = out};
  int rc = coll(comm, &a, "MPI_Comm_dup");
  if (rc || !*out) return rc ? rc : MPI_ERR_NO_MEM;
  /* Each member copies its own attributes with their copy callbacks. */
  for (attr *at = comm->attrs[my_rank(comm)]; at; at = at->next) {
    keyval_t *k = &keyvals[at->keyval];
    void *v = NULL;
    int flag = 0;
    if (k->copy) k->copy(comm, at->keyval, k->extra, at->value, &v, &flag);
    if (flag) csrec_comm_set_attr(*out, at->keyval, v);
  }
  return MPI_SUCCESS;
}

int csrec_comm_free(MPI_Comm *comm) {
  MPI_Comm c = *comm;
  int rc = check_comm(c, "MPI_Comm_free");
  if (rc) return rc;
  if (c->self || c == csrec_world) return unsupported("MPI_Comm_free of a predefined communicator");
  attrs_clear(c);
  if (--c->refs == 0) comm_destroy(c);
  *comm = MPI_COMM_NULL;
  return MPI_SUCCESS;
}

/* ---- for the library's collectives (libcoll.c) ---------------------------- */

MPI_Comm csrec_lib_comm(MPI_Comm c) {
  if (c->self) return c;
  if (!c->shadow) {
    c->shadow = comm_new(c->size, c->world);
    if (!c->shadow) csrec_fail("recording MPI: out of memory for a library collective");
  }
  return c->shadow;
}

int csrec_type_builtin(MPI_Datatype dt) { return dt->builtin; }

void csrec_copy_data(const void *src, int scount, MPI_Datatype st, void *dst, int rcount,
                     MPI_Datatype rt) {
  long bytes = (long)scount * st->size, cap = (long)rcount * rt->size;
  if (bytes > cap) bytes = cap;
  if (bytes <= 0 || src == dst || in_arena(src) || in_arena(dst)) return;
  if (copy_msg(src, scount, st, bytes, dst, rt))
    csrec_fail("recording MPI: out of memory in a library collective");
}

int csrec_alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                   MPI_Comm c) {
  (void)s, (void)sn, (void)st, (void)r, (void)rn, (void)rt, (void)c;
  return unsupported("MPI_Alltoall");
}

/* ---- running a case ------------------------------------------------------- */

/* The body of every coroutine: the rank's main, then the cleanup of its
 * attributes on the world (their delete callbacks may free communicators). */
static void trampoline(void) {
  int w = E.cur;
  E.main(w, E.arg);
  attrs_clear(csrec_world);
  E.r[w].state = R_DONE;
  /* Never resumed: the scheduler does not queue a finished rank. */
  coro_switch(&E.r[w].ctx, &E.sched);
}

/* Copies n bytes of the shared stack to or from a save area. Under ASan
 * the stack holds the redzones of the frames of the rank that switched out,
 * which an instrumented memcpy reports: the copy is uninstrumented. */
__attribute__((no_sanitize_address)) static void stack_copy(char *dst, const char *src, size_t n) {
#ifdef CS_ASAN
  volatile char *d = dst;
  const volatile char *s = src;
  for (size_t i = 0; i < n; i++) d[i] = s[i];
#else
  memcpy(dst, src, n);
#endif
}

#ifdef CS_ASAN
/* The deepest any rank was when it switched out. */
static size_t asan_deepest;
#endif

/* Before a rank starts or resumes on the shared stack. Under ASan the
 * shadow of the stack is that of the frames of the ranks that switched out
 * there, which never returned to clear it, while GCC's code takes a new
 * frame's variables as unpoisoned: the part any rank has used is
 * unpoisoned (a resumed rank's frames lose their redzones until they
 * return; nothing is reported falsely). */
static void stack_enter(void) {
#ifdef CS_ASAN
  __asan_unpoison_memory_region(E.top - asan_deepest, asan_deepest);
#endif
}

/* Puts the used part of rk's stack back on the shared stack. */
static void restore_stack(rank_t *rk) {
  stack_enter();
  stack_copy(E.top - rk->depth, rk->save, rk->depth);
}

/* Copies the used part of the shared stack of rk, just switched out, into
 * its save area (a larger one from the arena if it grew). */
static void save_stack(rank_t *rk) {
  size_t d = (size_t)(E.top - coro_low(&rk->ctx));
  if (d > rk->cap) {
    /* 256 bytes of headroom: a rank's depth at a block varies by a few
     * frames' worth (ceilhalf allreduce: 1424-1648 bytes), and an area
     * that grows leaves the old one unused. */
    unsigned cap = (unsigned)((d + 256 + 63) & ~(size_t)63);
    if (E.saves_used + cap > SAVE_BYTES) {
      csrec_fail("recording MPI: the ranks' stack save areas (%lu GiB) are exhausted",
                 SAVE_BYTES >> 30);
      rk->state = R_DONE; /* never resumed: the case fails */
      return;
    }
    cs_populate_ahead(E.saves, SAVE_BYTES, &E.saves_pop, E.saves_used + cap);
    rk->save = E.saves + E.saves_used;
    rk->cap = cap;
    E.saves_used += cap;
  }
  rk->depth = (unsigned)d;
#ifdef CS_ASAN
  if (d > asan_deepest) asan_deepest = d;
#endif
  stack_copy(rk->save, E.top - d, d);
}

/* SIGSEGV while a case runs: a fault in the guard below the shared stack
 * fails the case (back to the scheduler, on the alternate signal stack);
 * any other fault is not ours: the previous action is put back and the
 * access, executed again, takes it. */
static void on_segv(int sig, siginfo_t *si, void *uc) {
  (void)sig, (void)uc;
  const char *a = si->si_addr;
  if (E.cur >= 0 && a >= E.stack && a < E.stack + GUARD_BYTES) siglongjmp(E.overflow, 1);
  sigaction(SIGSEGV, E.old_segv, NULL);
}

/* Runs the ranks of the run queue until it is empty. A fault in the guard
 * (a rank's stack overflowed) comes back to the sigsetjmp here. */
static void schedule(int p) {
  struct sigaction act = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK}, old_act;
  static char altstack[64 << 10];
  stack_t alt = {.ss_sp = altstack, .ss_size = sizeof altstack}, old_alt;
  sigemptyset(&act.sa_mask);
  sigaltstack(&alt, &old_alt);
  sigaction(SIGSEGV, &act, &old_act);
  E.old_segv = &old_act;
  if (sigsetjmp(E.overflow, 1)) {
    csrec_fail(
        "recording MPI: world rank %d overflowed the ranks' stack of %lu MiB "
        "(STACK_BYTES in models/mpirec/mpirec.c); the case is not priced",
        E.cur, STACK_BYTES >> 20);
    E.qlen = 0;
  }
  while (E.qlen > 0) {
    int w = E.runq[E.qhead];
    E.qhead = (E.qhead + 1) % p;
    E.qlen--;
    rank_t *rk = &E.r[w];
    rk->queued = 0;
    E.cur = w;
    if (!rk->started) {
      stack_enter();
      coro_init(&rk->ctx, E.top - STACK_BYTES, STACK_BYTES, trampoline, &E.sched);
      rk->started = 1;
    } else {
      restore_stack(rk);
    }
    coro_switch(&E.sched, &rk->ctx);
    if (rk->state != R_DONE) save_stack(rk);
    E.cur = -1;
  }
  E.cur = -1;
  sigaction(SIGSEGV, &old_act, NULL);
  sigaltstack(&old_alt, NULL);
  E.old_segv = NULL;
}

int csrec_run(int p, int ppn, csrec_main_fn main, void *arg, cs_prog *g, char *err, size_t errlen) {
  int *world = NULL, rc = 0;
  if (p < 1) {
    snprintf(err, errlen, "recording MPI: need p >= 1");
    return -1;
  }
  if (E.running) {
    snprintf(err, errlen, "recording MPI: csrec_run is not reentrant");
    return -1;
  }
#ifdef __GLIBC__
  /* One case allocates and frees the same per-rank state that the next
   * case allocates again: glibc's default trimming gave the memory back to
   * the kernel after every case and faulted it in again, which made the
   * system time of pricing thousands of small cases 10 times the work
   * (test_model_table: 11 s -> 0.8 s for 2000 cases). Keep it. */
  static int tuned = 0;
  if (!tuned) {
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_TOP_PAD, 64 << 20);
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    tuned = 1;
  }
#endif
  if (!E.stack) {
    /* Mapped once and kept (untouched pages cost nothing). */
    char *s = mmap(NULL, GUARD_BYTES + STACK_BYTES, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    void *v = mmap(NULL, SAVE_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s == MAP_FAILED || v == MAP_FAILED ||
        mprotect(s + GUARD_BYTES, STACK_BYTES, PROT_READ | PROT_WRITE)) {
      if (s != MAP_FAILED) munmap(s, GUARD_BYTES + STACK_BYTES);
      if (v != MAP_FAILED) munmap(v, SAVE_BYTES);
      snprintf(err, errlen, "recording MPI: cannot map the ranks' stack");
      return -1;
    }
    E.stack = s;
    E.top = s + GUARD_BYTES + STACK_BYTES;
    E.saves = v;
  }
  E.saves_used = 0;
  E.r = cs_big_calloc((size_t)p, sizeof(rank_t));
  E.runq = malloc(sizeof(int) * (size_t)p);
  world = malloc(sizeof(int) * (size_t)p);
  E.failed = 0;
  E.err[0] = '\0';
  if (!E.r || !E.runq || !world) {
    snprintf(err, errlen, "recording MPI: out of memory for p = %d", p);
    rc = -1;
    goto out;
  }
  for (int i = 0; i < p; i++) world[i] = i;
  csrec_world = comm_new(p, world);
  if (!csrec_world) {
    snprintf(err, errlen, "recording MPI: out of memory for p = %d", p);
    rc = -1;
    goto out;
  }
  E.p = p;
  E.ppn = ppn;
  E.g = g;
  E.main = main;
  E.arg = arg;
  E.qhead = E.qlen = 0;
  E.running = 1;
  for (int i = 0; i < p; i++) make_ready(i);
  schedule(p);
  E.running = 0;
  for (int i = 0; i < p && !E.failed; i++)
    if (E.r[i].state != R_DONE)
      csrec_fail("recording MPI: deadlock: world rank %d waits in %s and nothing can wake it", i,
                 E.r[i].state == R_RECV   ? "a receive"
                 : E.r[i].state == R_WAIT ? "MPI_Wait"
                                          : "a setup collective");
    else if (E.r[i].phead)
      csrec_fail(
          "recording MPI: deadlock: world rank %d's receive from world rank %d (tag %d) is "
          "never matched: under MPI it would wait forever",
          i, E.r[i].phead->src, E.r[i].phead->tag);
  if (!E.failed && g->oom) csrec_fail("recording MPI: out of memory for the records of p = %d", p);
  if (E.failed) {
    snprintf(err, errlen, "%s", E.err);
    rc = -1;
  }
out:
  /* Messages never received, communicators left behind by a failed run. */
  if (E.r)
    for (int i = 0; i < p; i++)
      for (int k = 0; k < 2; k++)
        for (msg *m = k ? E.r[i].phead : E.r[i].head, *n; m; m = n) {
          n = m->next;
          msg_free(m);
        }
  if (csrec_world) comm_destroy(csrec_world);
  csrec_world = NULL;
  cs_big_free(E.r, (size_t)p, sizeof(rank_t));
  free(E.runq);
  free(world);
  E.r = NULL;
  E.runq = NULL;
  E.running = 0;
  return rc;
}
