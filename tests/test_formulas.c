/* Rabenseifner's closed formulas (models/table1.c) against collsim's exact
 * models of the same protocols (cs_model_time: the kernels' own recorded
 * execution), full and half duplex. The rows are taken from the registry by
 * their formula field: every row, of any collective, whose formula is one of
 * Rabenseifner's protocols (bintree, halvdoub, binblocks, pairring, and the
 * recursive doubling allreduce, formula butterfly); a new row naming one of
 * them is held here without a line of this file changing.
 *
 * Where the paper's assumptions hold, the formula equals the model to 1e-9:
 *  - m divisible by 2p (equal blocks; every halving leaves whole blocks);
 *  - gamma = 0, except for halvdoub and binblocks, whose gamma terms the
 *    kernels meet exactly (the others copy the input into the output, gamma
 *    m that the paper does not count);
 *  - m large enough that bandwidth decides (m >= 64 p): the reduce with
 *    every segment sent to the root (pairring) lets the p - 1 messages into
 *    the root overlap their latencies (SimGrid's, and the model's, links
 *    are shared, not served one at a time), where the paper charges
 *    (p - 1) alpha_uni;
 * and, by duplex:
 *  - full duplex (f_alpha = f_beta = 1): every row, every p;
 *  - half duplex (f_beta = 1/2): every row at powers of two; at other p the
 *    paper prices the one-way messages to and from the removed processes
 *    (the recursive doubling's fold, halving and doubling's final send) as
 *    exchanges (alpha + n beta, not alpha_uni + n beta_uni): the formula is
 *    then above the model by at most (beta - beta_uni)(m + envelope), and
 *    never below.
 *    Binary blocks has no closed form at other p (an empty table1_s).
 *
 *   test_formulas check [P_LIST]   holds every case (default p = 2..33, 48,
 *                                  64, 100; ctest runs that; 1152 takes 45 s,
 *                                  most of it the ring allreduce's p^2
 *                                  messages) and prints one line per row;
 *                                  p >= 2 (at p = 1 the kernels copy the
 *                                  input, gamma m, where the formulas are 0)
 *   test_formulas print [P_LIST]   prints every case as CSV
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert.h"
#include "model.h"

static const char *const formula_names[] = {
    "none",
#define CS_FORMULA(name) #name,
#include "registry.def"
#undef CS_FORMULA
};

/* Rabenseifner's protocols; formula butterfly is Table I's for the other
 * collectives (a bound, held by model_vs_sim), his recursive doubling for
 * allreduce. */
static int rabenseifner(cs_coll c, cs_formula f) {
  return f == CS_F_bintree || f == CS_F_halvdoub || f == CS_F_binblocks || f == CS_F_pairring ||
         (f == CS_F_butterfly && c == CS_allreduce);
}

int main(int argc, char **argv) {
  int print = argc > 1 && !strcmp(argv[1], "print");
  if (argc < 2 || (!print && strcmp(argv[1], "check"))) {
    fprintf(stderr, "usage: test_formulas check|print [P_LIST, e.g. 2-33,48,64,100]\n");
    return 2;
  }
  int ps[512], np = cs_test_plist(argc > 2 ? argv[2] : "2-33,48,64,100", ps, 512);
  if (np <= 0) {
    fprintf(stderr, "test_formulas: bad P_LIST\n");
    return 2;
  }
  const double alpha = 1e-6, beta = 1e-10, gamma_ = 2.5e-10;
  if (print) printf("coll,algo,duplex,p,bytes,formula_s,model_s\n");
  int rows = 0;
  for (int i = 0; i < cs_nalgos; i++) {
    const cs_algo_info *row = &cs_algos[i];
    if (!rabenseifner(row->coll, row->formula) || !cs_model_has(row->coll, row->name)) continue;
    int exact_gamma = row->formula == CS_F_halvdoub || row->formula == CS_F_binblocks;
    long cases = 0, bad = 0;
    double worst = 0;
    for (int half = 0; half <= 1; half++) {
      cs_model mo = cs_model_abg(alpha, beta, exact_gamma ? gamma_ : 0);
      if (half) {
        mo.half_duplex = 1;
        mo.f_beta = 0.5;
      }
      for (int k = 0; k < np; k++) {
        int p = ps[k], pow2 = (p & (p - 1)) == 0;
        long sizes[2] = {128L * p, 2L * p * 8192};
        for (int s = 0; s < 2; s++) {
          cs_case c = {row->coll, row->name, p, sizes[s], 0, 0};
          double tf, tm;
          char err[512];
          if (cs_table1_time(&mo, row->coll, row->name, p, c.bytes, &tf) != 0) {
            /* binary blocks: no closed form at other p; every other row has one */
            ASSERT(row->formula == CS_F_binblocks && !pow2, "%s %s p=%d: no formula",
                   cs_colls[row->coll].name, row->name, p);
            continue;
          }
          if (cs_model_time(&mo, &c, &tm, err, sizeof err) != 0) {
            ASSERT(0, "%s %s p=%d: %s", cs_colls[row->coll].name, row->name, p, err);
            continue;
          }
          cases++;
          if (print) {
            printf("%s,%s,%s,%d,%ld,%.10g,%.10g\n", cs_colls[row->coll].name, row->name,
                   half ? "half" : "full", p, c.bytes, tf, tm);
            continue;
          }
          double rel = fabs(tf - tm) / tm;
          if (!half || pow2) {
            if (rel > worst) worst = rel;
            if (rel > 1e-9) {
              bad++;
              ASSERT(0, "%s %s, %s duplex, p=%d, %ld B: formula %.10g s, model %.10g s",
                     cs_colls[row->coll].name, row->name, half ? "half" : "full", p, c.bytes, tf,
                     tm);
            }
          } else {
            double slack = (beta / mo.f_beta - beta) * ((double)c.bytes + mo.envelope);
            int ok = tf >= tm * (1 - 1e-9) && tf <= (tm + slack) * (1 + 1e-9);
            if (!ok) bad++;
            ASSERT(ok,
                   "%s %s, half duplex, p=%d, %ld B: formula %.10g s outside [model %.10g, model "
                   "+ (beta - beta_uni) m = %.10g]",
                   cs_colls[row->coll].name, row->name, p, c.bytes, tf, tm, tm + slack);
          }
        }
      }
    }
    if (!print)
      printf("%-10s %-10s formula %-9s %4ld cases, worst rel. difference where exact %.2g%s\n",
             cs_colls[row->coll].name, row->name, formula_names[row->formula], cases, worst,
             bad ? "  FAIL" : "");
    rows++;
  }
  ASSERT(rows >= 8, "only %d rows with Rabenseifner's formulas in the registry", rows);
  return cs_test_end();
}
