/* Internal to models/: per-process schedules ("programs") that the
 * generators of schedules.c write and the evaluator of eval.c prices. */
#ifndef COLLSIM_PROG_H
#define COLLSIM_PROG_H

#include "model.h"

/* One step of a process: a blocking exchange (to/from = -1 when that side
 * is absent) or local work of `local` bytes (to = from = -1). */
typedef struct {
  int to, from;
  double sb, rb, local;
} cs_mop;

typedef struct {
  int p;
  cs_mop **ops;
  int *n, *cap;
  int oom;
} cs_prog;

/* Exchange: a side of zero bytes sends nothing (as cs_sendrecv does); with
 * both sides empty nothing is recorded. */
void prog_xchg(cs_prog *g, int r, int to, double sb, int from, double rb);
/* A message whose zero-byte side still travels (headers, MPI_Send). */
void prog_send(cs_prog *g, int r, int to, double b);
void prog_recv(cs_prog *g, int r, int from, double b);
/* Local work of b bytes (nothing for b <= 0). */
void prog_local(cs_prog *g, int r, double b);

/* Block sizes of the case and their prefix sums (pre[p] = total), and sums
 * of n blocks first, first+1, ... (mod p). */
typedef struct {
  int p;
  const long *cnt, *pre;
} cs_mlay;
static inline long ml_sum(const cs_mlay *l, long first, long n) {
  if (n <= 0) return 0;
  int p = l->p;
  first %= p;
  if (first < 0) first += p;
  if (first + n <= p) return l->pre[first + n] - l->pre[first];
  return l->pre[p] - l->pre[first] + l->pre[first + n - p];
}
static inline int ml_mod(long a, int p) {
  long r = a % p;
  return (int)(r < 0 ? r + p : r);
}

typedef void (*cs_gen_fn)(cs_prog *g, const cs_case *c, const cs_mlay *l);
/* The generator of (coll, algo), or NULL. */
cs_gen_fn cs_model_generator(cs_coll coll, const char *algo);

#endif
