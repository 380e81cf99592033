/* Exact closed forms of the ring family (Rabenseifner 2004, Sec. 2.7) on a
 * contention-free full-duplex ABG model: what the evaluator would find from the
 * recorded programs, in O(1) instead of O(p^2) messages per size.
 *
 * Why: the ring's p - 1 steps on p processes record and price 2 p (p - 1)
 * messages per size; a map over p = 2..512 and 21 sizes visits 1.9 * 10^9 of
 * them (two minutes), every other allreduce of the map together a few seconds.
 *
 * The argument (max-plus: on abg with blocking steps the time is the longest
 * path through the steps; eval.c). In step k of the ring reduce-scatter rank r
 * sends a block to r + 1, receives one from r - 1 and reduces it: its step
 * costs max(msg(sent), msg(received)) + red(received). The evenly split m bytes
 * have blocks of two sizes only, B = ceil(m/p) and floor(m/p). A block travels
 * one rank per step, and the path that follows a block of B bytes pays
 * msg(B) + red(B) at each of the p - 1 steps, the most any step can cost when
 * msg and red do not fall from floor(m/p) to B (checked: otherwise the
 * recorded programs price the case). The ring allgather(v) that follows
 * starts, on the process that owns it, with the block that path followed, so
 * the paths join:
 *   allreduce       (p-1)(msg(B) + red(B)) + (p-1) msg(B)
 *   reduce_scatter  (p-1)(msg(B) + red(B))           (and _block: B = m/p)
 *   allgather(v)    copy(B) + (p-1) msg(B)           (the own block's copy first)
 * msg and red are the model's own charges (cs_model_msg_alone,
 * cs_model_local_time: calibrated segments included).
 *
 * Where it applies: abg kind, full duplex, no platform routes, p >= 2, m >= 1,
 * not in place (in place adds copies on some processes only). Everywhere else
 * the recorded programs price the case. ctest `closed` (tests/test_closed.c)
 * holds every form equal to the recorded model at every p = 2..100 and more,
 * sizes 1, < p, p - 1, p + 1, not divisible by p, large, several models. */

#include "model.h"
#include "registry.h"

static int is(const cs_case *c, cs_coll coll) { return c->coll == coll; }

/* Recursive doubling for allreduce (Rabenseifner 2004, Sec. 2.4; the rows of
 * formula CS_F_butterfly): every process copies its input (not in place),
 * then with p2 the largest power of two <= p and rem = p - p2 > 0 the fold
 * (rem one-way messages of m bytes, reduced by their receivers), log2 p2
 * exchange-and-reduce rounds of m bytes that every remaining process makes
 * at once, and the result sent back to the folded processes: every process
 * of a round waits for the same fold, so the time is that one path. */
static int recursive_doubling(const cs_model *mo, const cs_case *c, double *t) {
  double m = (double)c->bytes, msg = cs_model_msg_alone(mo, 0, m);
  double red = cs_model_local_time(mo, CS_WORK_REDUCE, m);
  int q = 0;
  while ((2L << q) <= c->p) q++;
  int rem = c->p - (1 << q);
  *t = (c->inplace ? 0 : cs_model_local_time(mo, CS_WORK_COPY, m)) + q * (msg + red) +
       (rem > 0 ? (msg + red) + msg : 0);
  return 1;
}

int cs_model_closed(const cs_model *mo, const cs_case *c, double *t) {
  if (mo->kind != CS_MODEL_ABG || mo->half_duplex || mo->routes) return 0;
  if (c->p < 2 || c->bytes < 1) return 0;
  const cs_algo_info *a = cs_algo_find(c->coll, c->algo);
  if (a && a->formula == CS_F_butterfly && is(c, CS_allreduce)) return recursive_doubling(mo, c, t);
  if (c->inplace) return 0;
  if (!a || a->formula != CS_F_pairring) return 0; /* the ring rows: Rabenseifner's Sec. 2.7 */
  int rs = 0, ag = 0;
  if (is(c, CS_allreduce))
    rs = ag = 1;
  else if (is(c, CS_reduce_scatter) || is(c, CS_reduce_scatter_block))
    rs = 1;
  else if (is(c, CS_allgather) || is(c, CS_allgatherv))
    ag = 1;
  else
    return 0;
  /* block collectives: m is what the case builder splits into p blocks */
  if ((is(c, CS_reduce_scatter_block) || is(c, CS_allgather)) && c->bytes % c->p != 0) return 0;
  long p = c->p, big = (c->bytes + p - 1) / p, small = c->bytes / p;
  double msg = cs_model_msg_alone(mo, 0, (double)big);
  double red = cs_model_local_time(mo, CS_WORK_REDUCE, (double)big);
  double copy = cs_model_local_time(mo, CS_WORK_COPY, (double)big);
  if (small != big && (cs_model_msg_alone(mo, 0, (double)small) > msg ||
                       cs_model_local_time(mo, CS_WORK_REDUCE, (double)small) > red ||
                       cs_model_local_time(mo, CS_WORK_COPY, (double)small) > copy))
    return 0; /* costs that fall with size: the longest path may follow another block */
  double s = 0;
  if (rs) s += (double)(p - 1) * (msg + red);
  if (ag) s += (double)(p - 1) * msg + (rs ? 0 : copy);
  *t = s;
  return 1;
}
