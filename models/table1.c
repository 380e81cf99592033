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
 * no rows for gather and scatter, so they get none here.
 * Every message also carries the model's envelope: alpha is replaced by
 * alpha + beta envelope.
 */
#include <math.h>
#include <string.h>

#include "model.h"
#include "sched.h"

int cs_table1_time(const cs_model *mo, cs_coll coll, const char *algo, int p, long mbytes,
                   double *t) {
  double a = mo->alpha + mo->beta * mo->envelope, b = mo->beta, g = mo->gamma, m = (double)mbytes;
  int q = cs_ceil_log2(p), pow2 = (p & (p - 1)) == 0;
  double P = p, Q = q, twoq = ldexp(1.0, q), vol = (P - 1) / P * m;
  int circ = !strcmp(algo, "circulant"), ch = !strcmp(algo, "ceilhalf"),
      bf = !strcmp(algo, "butterfly"), br = !strcmp(algo, "bruck"),
      rsag = !strcmp(algo, "circulant_rsag");
  if (p == 1) {
    *t = 0;
    return circ || ch || bf || br || rsag ? 0 : -1;
  }
  double ag_circ = Q * a + b * vol + g * ceil(m / 2);
  double rs_circ = Q * a + (b + g) * (twoq - 1) / P * m;
  switch (coll) {
  case CS_allreduce:
    if (circ)
      *t = Q * (a + b * m + 2 * g * m);
    else if (bf)
      *t = Q * (a + b * m + g * m) + (pow2 ? 0 : a + b * m);
    else if (ch)
      *t = 2 * Q * a + 2 * b * vol + g * vol;
    else if (rsag)
      *t = rs_circ + ag_circ;
    else
      return -1;
    return 0;
  case CS_reduce:
    if (circ || bf)
      *t = Q * (a + b * m + g * m);
    else if (!strcmp(algo, "circulant_rsg"))
      *t = rs_circ + Q * a + b * vol;
    else
      return -1;
    return 0;
  case CS_reduce_scatter_block:
  case CS_reduce_scatter:
    if (circ)
      *t = rs_circ;
    else if (ch)
      *t = Q * a + (b + g) * vol;
    else if (bf)
      *t = pow2 ? Q * a + (b + g) * vol
                : a + b * m / 2 + g * m / 2 + Q * a + (b + g) * (twoq - 1) * 2 * m / P + a +
                      b * m / P;
    else
      return -1;
    return 0;
  case CS_allgather:
  case CS_allgatherv:
    if (circ || ch)
      *t = ag_circ;
    else if (bf)
      *t = pow2 ? Q * a + b * vol + g * m
                : a + b * m / P + Q * a + b * (twoq - 1) * 2 * m / P + a + b * m + g * m;
    else if (br && coll == CS_allgather)
      *t = Q * a + b * vol + g * m;
    else
      return -1;
    return 0;
  default: return -1;
  }
}
