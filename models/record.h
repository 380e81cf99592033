/* Internal to models/: the recorded per-process programs, the evaluator's input. The
 * recording MPI (models/mpirec/) writes them while the kernels of algos/
 * run; the evaluator (eval.c) prices them. */
#ifndef COLLSIM_RECORD_H
#define COLLSIM_RECORD_H

#include "model.h"

/* One step of a process, 16 bytes (a case at 10^6 ranks records tens of
 * millions; their memory, first touched, is most of a case's cost). Its
 * kind is read from to and from:
 *  - a blocking exchange (to >= -1, from >= -1, not both -1) with world
 *    ranks to and from (-1 when that side is absent; MPI_Send and MPI_Recv
 *    are exchanges with one side) of sb and rb bytes;
 *  - local work (to = -1, from = CS_MOP_LOCAL - work, work a cs_work:
 *    reduction or copy) of (sb | rb << 32) bytes: see cs_mop_local;
 *  - a nonblocking send (to = CS_MOP_ISEND) to world rank from of sb
 *    bytes, or receive (to = CS_MOP_IRECV) from world rank from of rb
 *    bytes: the process's requests are numbered 0, 1, ... in the order it
 *    posts them;
 *  - the wait for request number from (to = CS_MOP_WAIT); MPI_Waitall is
 *    one wait per request (it ends when the last one has).
 * Byte counts of 2^32 - 1 and more (CS_MOP_BIG) escape: sb = CS_MOP_BIG and
 * rb indexes the program's table of large sizes (cs_prog.big), which holds
 * both sides' counts; cs_mop_sbytes and cs_mop_rbytes read either form.
 * Matching: the k-th message sent from i to j (blocking or not) is the
 * k-th receive at j from i, the order the recording MPI checks. */
typedef struct {
  int to, from;
  unsigned sb, rb;
} cs_mop;

#define CS_MOP_LOCAL (-2)
#define CS_MOP_ISEND (-3)
#define CS_MOP_IRECV (-4)
#define CS_MOP_WAIT  (-5)
#define CS_MOP_BIG   0xFFFFFFFFu
/* A blocking exchange (either side present). */
static inline int cs_mop_is_comm(const cs_mop *o) {
  return o->to >= 0 || (o->to == -1 && o->from >= 0);
}
/* A nonblocking post or a wait. */
static inline int cs_mop_is_nb(const cs_mop *o) { return o->to <= CS_MOP_ISEND; }
static inline double cs_mop_local(const cs_mop *o) {
  return o->to == -1 && o->from <= CS_MOP_LOCAL
             ? (double)((unsigned long long)o->sb | (unsigned long long)o->rb << 32)
             : 0;
}
static inline int cs_mop_work(const cs_mop *o) { return CS_MOP_LOCAL - o->from; }

/* Both byte counts of an escaped step (CS_MOP_BIG). */
typedef struct {
  size_t sb, rb;
} cs_mop_big;

/* The programs live in chunks of CS_CHUNK bytes (aligned so): 15 steps and,
 * in the last slot, a pointer to the process's next chunk. Chunks come from
 * one arena per cs_prog whose pages are populated ahead in bulk
 * (MADV_POPULATE_WRITE): on this kind of VM a page costs about 3 times less
 * so than touched one at a time, and the chunks waste at most 14 steps per
 * process where arrays that double wasted up to half. */
#define CS_CHUNK     256
#define CS_CHUNK_OPS (CS_CHUNK / (int)sizeof(cs_mop) - 1)

/* The program of one process: n steps from first; tail is the next free slot. */
typedef struct {
  cs_mop *first, *tail;
  int n;
} cs_rprog;

typedef struct {
  int p;
  cs_rprog *r;
  int oom;
  int nb;          /* some step is nonblocking: the fluid evaluator prices it */
  cs_mop_big *big; /* escaped byte counts (CS_MOP_BIG) */
  size_t nbig, capbig;
  char *arena;                  /* a reserved range of size bytes */
  size_t size, used, populated; /* bytes handed out and populated from its start */
} cs_prog;

/* The step after o in its process's program (o not its last step). */
static inline const cs_mop *cs_mop_next(const cs_mop *o) {
  o++;
  if (((unsigned long)(const void *)o & (CS_CHUNK - 1)) == CS_CHUNK - sizeof(cs_mop))
    o = *(const cs_mop *const *)(const void *)o;
  return o;
}

/* The step after o in the program pr, or NULL after its last. */
static inline const cs_mop *cs_rprog_after(const cs_rprog *pr, const cs_mop *o) {
  return o + 1 == pr->tail ? NULL : cs_mop_next(o);
}

/* The bytes a communication step sends and receives, escaped or not. */
static inline size_t cs_mop_sbytes(const cs_prog *g, const cs_mop *o) {
  return o->sb == CS_MOP_BIG ? g->big[o->rb].sb : o->sb;
}
static inline size_t cs_mop_rbytes(const cs_prog *g, const cs_mop *o) {
  return o->sb == CS_MOP_BIG ? g->big[o->rb].rb : o->rb;
}
/* Sets the byte counts of communication step o of program g (escaping
 * large ones into g->big); with no memory sets g->oom. */
void cs_mop_set_bytes_big(cs_prog *g, cs_mop *o, size_t sb, size_t rb);
static inline void cs_mop_set_bytes(cs_prog *g, cs_mop *o, size_t sb, size_t rb) {
  if (sb < CS_MOP_BIG && rb < CS_MOP_BIG && o->sb != CS_MOP_BIG) {
    o->sb = (unsigned)sb;
    o->rb = (unsigned)rb;
    return;
  }
  cs_mop_set_bytes_big(g, o, sb, rb);
}

/* Makes the pages of base[0, end) present ahead of use, in bulk
 * (MADV_POPULATE_WRITE): *populated bytes from base are already, and each
 * call populates at least half as many again (64 KiB to 8 MiB), never
 * beyond size. Shared by the programs' arena and the recording MPI's
 * stack save areas (models/mpirec/mpirec.c). */
void cs_populate_ahead(char *base, size_t size, size_t *populated, size_t end);
/* n zeroed elements of size bytes. From 4 MiB on, a mapping of its own on
 * transparent huge pages: the per-rank arrays of 10^6 ranks (100 MiB and
 * more) are visited in the order messages match, and with 4 KiB pages
 * nearly every visit missed the TLB as well as the cache. cs_big_free
 * takes the same n and size. */
void *cs_big_calloc(size_t n, size_t size);
void cs_big_free(void *a, size_t n, size_t size);
/* p empty programs (0), or -1 with no memory; cs_prog_free frees them. */
int cs_prog_init(cs_prog *g, int p);
void cs_prog_free(cs_prog *g);
/* Appends op to the program of process r; with no memory sets g->oom. */
void cs_prog_push(cs_prog *g, int r, cs_mop op);
/* The last step of process r (where it stays: chunks never move), or NULL. */
static inline cs_mop *cs_prog_last(cs_prog *g, int r) {
  return g->oom || g->r[r].n == 0 ? NULL : g->r[r].tail - 1;
}

/* The programs of case c as recorded for model mo's host layout, into *out:
 * 0, or -1 with a message in err. The last recording is kept (and *out
 * points into it until the next call), so cs_model_eval of the same case
 * records nothing again; c is not checked (cs_model_eval checks it). */
int cs_model_programs(const cs_model *mo, const cs_case *c, const cs_prog **out, char *err,
                      size_t errlen);

/* Prices the programs g under mo into st: 0, or -1 with a message in err
 * (programs that deadlock, or a send and its receive of different sizes).
 * (models/eval.c) */
int cs_model_price(const cs_model *mo, const cs_prog *g, cs_model_stats *st, char *err,
                   size_t errlen);

/* Messages, bytes, local work and rounds of the programs g into st (the
 * rest of st zero). */
void cs_prog_stats(const cs_prog *g, cs_model_stats *st);
/* Prices programs with nonblocking steps (models/fluid.c): as
 * cs_model_price, with the flows in flight sharing the links they cross. */
int cs_model_price_fluid(const cs_model *mo, const cs_prog *g, cs_model_stats *st, char *err,
                         size_t errlen);
/* 1 iff the fluid evaluator prices g under mo (nonblocking steps, half
 * duplex, or a platform's own routes), 0 if the event evaluator does. */
int cs_model_fluid_prices(const cs_model *mo, const cs_prog *g);

/* Runs the kernel of (c->coll, c->algo) on the p ranks of the case under
 * the recording MPI, with arguments built as the timing driver
 * (sim/bench.c) builds them for MPI_BYTE data, and writes every rank's
 * program into g (p empty programs). ppn: ranks per node (host names
 * node<N>-<L>), 0 for one host per rank (node<r>, abg platforms).
 * Returns 0, or -1 with a message in err. (models/record.c) */
int cs_record_case(const cs_case *c, int ppn, cs_prog *g, char *err, size_t errlen);

#endif
