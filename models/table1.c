/* The papers' closed-form costs, as printed.
 *
 * Table I of Träff, Hunold, Vardas, Funk 2023 ("our result" = circulant,
 * "standard" = butterfly and Bruck), worst case, q = ceil(log2 p), p not a
 * power of two (for powers of two the butterfly correction terms vanish):
 *   allreduce  circulant  q (alpha + beta m + 2 gamma m)
 *              butterfly  q (alpha + beta m + gamma m) + alpha + beta m
 *   reduce     circulant, butterfly  q (alpha + beta m + gamma m)
 *   reduce_scatter  circulant  q alpha + (beta + gamma) (2^q - 1) m / p
 *              butterfly  alpha + beta m/2 + gamma m/2 + q alpha
 *                         + (beta + gamma)(2^q - 1) 2m/p + alpha + beta m/p
 *   allgather  circulant  q alpha + beta (p-1)/p m + gamma ceil(m/2)
 *              butterfly  alpha + beta m/p + q alpha + beta (2^q - 1) 2m/p
 *                         + alpha + beta m + gamma m
 *              Bruck      q alpha + beta (p-1)/p m + gamma m
 * The ceilhalf seed: reduce-scatter in q rounds with p - 1 blocks,
 * q alpha + (beta + gamma)(p-1)/p m; allreduce in 2q rounds with 2(p-1)
 * blocks, 2 q alpha + 2 beta (p-1)/p m + gamma (p-1)/p m; its allgather has
 * the circulant allgather's rounds and volume. circulant_rsag is the sum of
 * the circulant reduce-scatter and allgather rows (Sec. III-G), and
 * circulant_rsg (reduce) the reduce-scatter row plus a gather of q alpha +
 * beta (p-1)/p m (the allgather row's communication). Table I has
 * no rows for gather and scatter, so they get none here. The binomial tree
 * broadcast (a standard column Table I does not print) is q (alpha + beta m).
 * Rabenseifner 2004, Sec. 2.3 (binary tree, formula bintree): the reduce is
 * q (alpha + beta m + gamma m) (the binomial tree: Table I's standard
 * reduce), the allreduce that reduce plus a binomial bcast,
 * 2 q (alpha + beta m) + q gamma m.
 * Rabenseifner 2004, Sec. 2.7 (ring, formula pairring): reduce-scatter
 * (p-1) alpha + (beta + gamma)(p-1)/p m, allgather (p-1) alpha + beta
 * (p-1)/p m, allreduce their sum, 2 (p-1) alpha + 2 beta (p-1)/p m +
 * gamma (p-1)/p m; the reduce (reduce-scatter + every segment sent to the
 * root) costs the same as the allreduce.
 * Not in Table I either: the pairwise alltoall (Thakur, Rabenseifner, Gropp
 * 2005, MPICH's long-message alltoall), (p-1) alpha + beta (p-1)/p m + gamma
 * m/p (the own block's copy; exact for equal blocks not in place; 0 for m = 0:
 * no message).
 * Every message also carries the model's envelope: alpha is replaced by
 * alpha + beta envelope.
 */
#include <math.h>
#include "model.h"
#include "sched.h"

/* The row's formula (registry.def) chooses the expression; the collective
 * chooses its column. */
int cs_table1_time(const cs_model *mo, cs_coll coll, const char *algo, int p, long mbytes,
                   double *t) {
  const cs_algo_info *row = cs_algo_find(coll, algo);
  cs_formula f = row ? row->formula : CS_F_none;
  if (f == CS_F_none) return -1;
  double a = mo->alpha + mo->beta * mo->envelope, b = mo->beta, g = mo->gamma, m = (double)mbytes;
  int q = cs_ceil_log2(p), pow2 = (p & (p - 1)) == 0;
  double P = p, Q = q, twoq = ldexp(1.0, q), vol = (P - 1) / P * m;
  if (p == 1) {
    *t = 0;
    return 0;
  }
  double ag_circ = Q * a + b * vol + g * ceil(m / 2);
  double rs_circ = Q * a + (b + g) * (twoq - 1) / P * m;
  switch (coll) {
  case CS_allreduce:
    switch (f) {
    case CS_F_circulant: *t = Q * (a + b * m + 2 * g * m); return 0;
    case CS_F_butterfly: *t = Q * (a + b * m + g * m) + (pow2 ? 0 : a + b * m); return 0;
    case CS_F_ceilhalf: *t = 2 * Q * a + 2 * b * vol + g * vol; return 0;
    case CS_F_circulant_rsag: *t = rs_circ + ag_circ; return 0;
    case CS_F_bintree: *t = 2 * Q * (a + b * m) + Q * g * m; return 0;
    case CS_F_pairring: *t = 2 * (P - 1) * a + 2 * b * vol + g * vol; return 0;
    default: return -1;
    }
  case CS_reduce:
    switch (f) {
    case CS_F_circulant:
    case CS_F_bintree: *t = Q * (a + b * m + g * m); return 0;
    case CS_F_circulant_rsg: *t = rs_circ + Q * a + b * vol; return 0;
    case CS_F_pairring: *t = 2 * (P - 1) * a + 2 * b * vol + g * vol; return 0;
    default: return -1;
    }
  case CS_reduce_scatter_block:
  case CS_reduce_scatter:
    switch (f) {
    case CS_F_circulant: *t = rs_circ; return 0;
    case CS_F_ceilhalf: *t = Q * a + (b + g) * vol; return 0;
    case CS_F_pairring: *t = (P - 1) * a + (b + g) * vol; return 0;
    case CS_F_butterfly:
      *t = pow2 ? Q * a + (b + g) * vol
                : a + b * m / 2 + g * m / 2 + Q * a + (b + g) * (twoq - 1) * 2 * m / P + a +
                      b * m / P;
      return 0;
    default: return -1;
    }
  case CS_allgather:
  case CS_allgatherv:
    switch (f) {
    case CS_F_circulant:
    case CS_F_ceilhalf: *t = ag_circ; return 0;
    case CS_F_butterfly:
      *t = pow2 ? Q * a + b * vol + g * m
                : a + b * m / P + Q * a + b * (twoq - 1) * 2 * m / P + a + b * m + g * m;
      return 0;
    case CS_F_bruck: *t = Q * a + b * vol + g * m; return 0;
    case CS_F_pairring: *t = (P - 1) * a + b * vol; return 0;
    default: return -1;
    }
  case CS_bcast:
    switch (f) {
    case CS_F_binomial: *t = Q * (a + b * m); return 0;
    default: return -1;
    }
  case CS_alltoall: /* Thakur, Rabenseifner, Gropp 2005 */
    switch (f) {
    case CS_F_pairwise: /* empty blocks: no message at all */
      *t = m > 0 ? (P - 1) * a + b * vol + g * m / P : 0;
      return 0;
    default: return -1;
    }
  default: return -1;
  }
}
