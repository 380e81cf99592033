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
 *
 * Duplex. Table I's alpha and beta are those of an exchange (every process
 * sends one message and receives one at a time). Rabenseifner 2004 (Sec.
 * 2.1) prices an exchange alpha + n beta and a one-way message alpha_uni +
 * n beta_uni, with f_alpha = alpha_uni / alpha and f_beta = beta_uni / beta.
 * cs_model's alpha and beta are one-way costs and its f_alpha, f_beta the
 * platform's factors (model.h), so below a, b are the exchange costs
 * alpha / f_alpha, beta / f_beta and au, bu the one-way ones; on a full-duplex
 * machine (f = 1) they are equal. The paper's f_alpha alpha and f_beta beta
 * are written au and bu below (the same, but each one-way message's
 * envelope is priced at the one-way rate). Table I's rows, whose messages are all
 * exchanges or concurrent send/receive pairs, use a and b; the binomial
 * bcast, one-way messages, au and bu.
 * Rabenseifner 2004 (n = m bytes, lg p = q; p' = 2^floor(log2 p), the
 * power of two below p, q' = log2 p'), as printed:
 *  Sec. 2.3 binary tree (formula bintree): reduce q (au + n bu + n gamma),
 *    allreduce (+ binomial bcast) q (2 au + 2 n bu + n gamma).
 *  Sec. 2.4 recursive doubling (the butterfly allreduce): q (a + n b + n
 *    gamma), + au + n bu if p is not a power of two (with f = 1, Table I's
 *    butterfly row).
 *  Sec. 2.5 halving and doubling (formula halvdoub), allreduce:
 *    p a power of two: 2 q a + 2 n b + n gamma - (2 n b + n gamma) / p;
 *    else (2 q' + 2 + f_alpha) a + (3 + (1 + f_beta) / 2) n b + 3/2 n gamma
 *    - (2 n b + n gamma) / p';
 *    reduce: p a power of two: q (1 + f_alpha) a + (1 + f_beta) n b + n gamma
 *    - (n (b + bu) + n gamma) / p; else q' (1 + f_alpha) a + (1 + f_alpha) a
 *    + (1 + (1 + f_beta) / 2 + f_beta) n b + 3/2 n gamma - ((1 + f_beta) n b
 *    + n gamma) / p'.
 *  Sec. 2.6 binary blocks (formula binblocks): the paper prints no closed
 *    form; for powers of two it is halving and doubling ("identical"), so
 *    the row has that formula there and none (an empty table1_s) elsewhere.
 *  Sec. 2.7 ring (formula pairring): allreduce 2 (p-1) a + 2 n b + n gamma -
 *    (2 n b + n gamma) / p; reduce (p-1)(a + au) + n (b + bu) + n gamma -
 *    (n (b + bu) + n gamma) / p; the reduce-scatter alone (p-1) a + (b +
 *    gamma)(p-1)/p n, the allgather (p-1) a + b (p-1)/p n.
 * Bienz, Olson, Gropp 2019 (NAP seed), eqs. 4-6 on the node-aware max-rate
 * model (n nodes of ppn processes, p = n ppn, s = m + envelope bytes;
 * intra-node alpha_l, beta_l; inter-node alpha, per-process rate Rb, NIC
 * rate RN; logs rounded up to whole steps; an abg model is ppn = 1,
 * alpha_l = alpha, beta_l = beta, Rb = 1/beta, RN unlimited):
 *  eq. 4 recursive doubling (the butterfly allreduce on max-rate and k-lane
 *    models): (alpha_l + beta_l s) log2 ppn + (alpha + ppn s / min(RN, ppn
 *    Rb)) log2 n + gamma m log2 p;
 *  eq. 5 SMP (formula smp, `allreduce hier`): (alpha_l + beta_l s)
 *    log2 ppn + (alpha + s / Rb) log2 n + gamma m log2 p;
 *  eq. 6 NAP (formula nap): (alpha_l + beta_l s) log2 p + (alpha + ppn s /
 *    min(RN, ppn Rb)) log_ppn n + gamma m (log2 p + log_ppn n).
 * Where these equal collsim's exact models and where not, and why:
 * docs/models.md, "Rabenseifner's formulas and the exact model".
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
  double fa = mo->f_alpha > 0 ? mo->f_alpha : 1, fb = mo->f_beta > 0 ? mo->f_beta : 1;
  double bu = mo->beta, au = mo->alpha + bu * mo->envelope;  /* one-way */
  double b = bu / fb, a = mo->alpha / fa + b * mo->envelope; /* an exchange */
  double g = mo->gamma, m = (double)mbytes;
  int q = cs_ceil_log2(p), pow2 = (p & (p - 1)) == 0;
  double P = p, Q = q, twoq = ldexp(1.0, q), vol = (P - 1) / P * m;
  /* p' = 2^q', the power of two below p (halving and doubling) */
  double Qf = pow2 ? Q : Q - 1, Pf = ldexp(1.0, (int)Qf);
  if (p == 1) {
    *t = 0;
    return 0;
  }
  /* the NAP seed's node-aware parameters (eqs. 4-6) */
  int abg = mo->kind == CS_MODEL_ABG, ppn = abg || mo->ppn < 1 ? 1 : mo->ppn;
  /* s_ below carries the envelope: the step's latency alone here */
  double al = abg ? mo->alpha : mo->alpha_l, bl = abg ? bu : mo->beta_l;
  double Rb = abg ? 1 / bu : mo->Rb, RN = abg ? INFINITY : mo->RN * (mo->lanes > 1 ? mo->lanes : 1);
  double s_ = m + mo->envelope, nn = (double)((p + ppn - 1) / ppn);
  double lg_ppn = ceil(log2((double)ppn) - 1e-12), lg_n = ceil(log2(nn) - 1e-12);
  double lg_ppn_n = 0; /* ceil(log_ppn n) */
  for (double c = 1; c < nn && ppn > 1; c *= ppn) lg_ppn_n++;
  double inj = ppn * s_ / fmin(RN, ppn * Rb); /* ppn processes inject at once */
  double ag_circ = Q * a + b * vol + g * ceil(m / 2);
  double rs_circ = Q * a + (b + g) * (twoq - 1) / P * m;
  switch (coll) {
  case CS_allreduce:
    switch (f) {
    case CS_F_circulant: *t = Q * (a + b * m + 2 * g * m); return 0;
    case CS_F_butterfly:
      if (!abg) { /* the NAP seed's eq. 4 */
        *t = (al + bl * s_) * lg_ppn + (mo->alpha + inj) * lg_n + g * m * Q;
        return 0;
      }
      *t = Q * (a + b * m + g * m) + (pow2 ? 0 : au + bu * m);
      return 0;
    case CS_F_smp:
      *t = (al + bl * s_) * lg_ppn + (mo->alpha + s_ / Rb) * lg_n + g * m * Q;
      return 0;
    case CS_F_nap:
      *t = (al + bl * s_) * Q + (mo->alpha + inj) * lg_ppn_n + g * m * (Q + lg_ppn_n);
      return 0;
    case CS_F_ceilhalf: *t = 2 * Q * a + 2 * b * vol + g * vol; return 0;
    case CS_F_circulant_rsag: *t = rs_circ + ag_circ; return 0;
    case CS_F_bintree: *t = Q * (2 * au + 2 * m * bu + m * g); return 0;
    case CS_F_pairring: *t = 2 * (P - 1) * a + 2 * b * vol + g * vol; return 0;
    case CS_F_binblocks:
      if (!pow2) return -1; /* no closed form in the paper; for 2^k halving and doubling */
      /* fall through */
    case CS_F_halvdoub:
      *t = pow2 ? 2 * Q * a + 2 * m * b + m * g - (2 * m * b + m * g) / P
                : (2 * Qf + 2) * a + au + (3 * b + (b + bu) / 2) * m + 1.5 * m * g -
                      (2 * m * b + m * g) / Pf;
      return 0;
    default: return -1;
    }
  case CS_reduce:
    switch (f) {
    case CS_F_circulant: *t = Q * (a + b * m + g * m); return 0;
    case CS_F_bintree: *t = Q * (au + bu * m + g * m); return 0;
    case CS_F_circulant_rsg: *t = rs_circ + Q * a + b * vol; return 0;
    case CS_F_pairring:
      *t = (P - 1) * (a + au) + m * (b + bu) + m * g - (m * (b + bu) + m * g) / P;
      return 0;
    case CS_F_binblocks:
      if (!pow2) return -1; /* no closed form in the paper; for 2^k halving and doubling */
      /* fall through */
    case CS_F_halvdoub:
      *t = pow2 ? Q * (a + au) + m * (b + bu) + m * g - (m * (b + bu) + m * g) / P
                : (Qf + 1) * (a + au) + (b + (b + bu) / 2 + bu) * m + 1.5 * m * g -
                      (m * (b + bu) + m * g) / Pf;
      return 0;
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
    case CS_F_binomial: *t = Q * (au + bu * m); return 0;
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
