/* The guideline arithmetic (guidelines/guidelines.c): sums, ratios, the
 * tolerance edge, the approximate guideline, and the one-sided rank-sum test
 * on samples whose answer is known. Exits 1 on the first wrong value. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert.h"
#include "guidelines.h"

static int near(double a, double b, double tol) { return fabs(a - b) <= tol * fmax(1, fabs(b)); }

int main(void) {
  /* sums */
  double t3[] = {1.5e-6, 2.5e-6, 1e-6};
  ASSERT(near(cs_gl_sum(t3, 3), 5e-6, 1e-12), "sum %g", cs_gl_sum(t3, 3));
  ASSERT(cs_gl_sum(t3, 0) == 0, "empty sum");
  double miss[] = {1, -1};
  ASSERT(cs_gl_sum(miss, 2) == -1, "missing term must give -1");
  double nan2[] = {1, NAN};
  ASSERT(cs_gl_sum(nan2, 2) == -1, "NaN term must give -1");

  /* ratios and the tolerance */
  double r;
  ASSERT(cs_gl_decide(1.0, 2.0, 0.05, 0, &r) == 0 && near(r, 0.5, 1e-15), "faster lhs: r=%g", r);
  ASSERT(cs_gl_decide(2.0, 1.0, 0.05, 0, &r) == 1 && near(r, 2.0, 1e-15), "slower lhs: r=%g", r);
  ASSERT(cs_gl_decide(1.05, 1.0, 0.05, 0, &r) == 0, "exactly at the tolerance is not violated");
  ASSERT(cs_gl_decide(1.0500001, 1.0, 0.05, 0, &r) == 1, "just above the tolerance is violated");
  ASSERT(cs_gl_decide(1.04, 1.0, 0.05, 0, &r) == 0, "within the tolerance");
  ASSERT(cs_gl_decide(1.0000001, 1.0, 0.0, 0, &r) == 1, "tolerance 0");
  ASSERT(cs_gl_decide(1.0, 1.0, 0.0, 0, &r) == 0 && r == 1, "equal, tolerance 0");
  ASSERT(cs_gl_decide(0, 0, 0.05, 0, &r) == 0 && r == 1, "both zero: ratio 1");
  ASSERT(cs_gl_decide(1e-6, 0, 0.05, 0, &r) == 1 && isinf(r), "rhs zero: ratio inf");
  ASSERT(cs_gl_decide(-1, 1, 0.05, 0, &r) == -1, "missing lhs");
  ASSERT(cs_gl_decide(1, -1, 0.05, 0, &r) == -1, "missing rhs");
  /* approx (guideline 6): either direction */
  ASSERT(cs_gl_decide(1.0, 2.0, 0.05, 1, &r) == 1, "approx: rhs much slower is violated");
  ASSERT(cs_gl_decide(1.0, 1.04, 0.05, 1, &r) == 0, "approx: rhs within the tolerance");
  ASSERT(cs_gl_decide(1.04, 1.0, 0.05, 1, &r) == 0, "approx: lhs within the tolerance");
  ASSERT(cs_gl_decide(1.2, 1.0, 0.05, 1, &r) == 1, "approx: lhs much slower");

  /* rep-by-rep sums and medians */
  double a[] = {1, 2, 3}, b[] = {10, 20, 30};
  cs_gl_add_reps(a, b, 3);
  ASSERT(a[0] == 11 && a[1] == 22 && a[2] == 33, "add_reps");
  double m4[] = {4, 1, 3, 2};
  ASSERT(cs_gl_median(m4, 4) == 2.5 && m4[0] == 4, "median of 4 (input untouched)");
  ASSERT(cs_gl_median(m4, 3) == 3, "median of 3");
  ASSERT(cs_gl_median(m4, 0) == -1, "median of none");

  /* rank-sum: x = 6..10 all above y = 1..5: U = 25, mu = 12.5, var = 25*11/12 */
  double x[] = {6, 7, 8, 9, 10}, y[] = {1, 2, 3, 4, 5}, z;
  double p = cs_gl_ranksum_greater(x, 5, y, 5, &z);
  double zexp = (25 - 12.5 - 0.5) / sqrt(25.0 * 11 / 12);
  ASSERT(near(z, zexp, 1e-12), "z = %g, want %g", z, zexp);
  ASSERT(near(p, 0.5 * erfc(zexp / sqrt(2)), 1e-9), "p = %g", p);
  ASSERT(p < 0.01, "separated samples: p = %g must be < 0.01", p);
  double p2 = cs_gl_ranksum_greater(y, 5, x, 5, NULL);
  ASSERT(p2 > 0.99, "the other direction: p = %g must be > 0.99", p2);
  /* identical samples: every value tied -> no evidence */
  double c1[] = {1, 1, 1}, c2[] = {1, 1, 1};
  ASSERT(cs_gl_ranksum_greater(c1, 3, c2, 3, NULL) == 1, "all tied gives p = 1");
  ASSERT(cs_gl_ranksum_greater(c1, 0, c2, 3, NULL) == 1, "empty sample gives p = 1");
  /* ties: x = {1,2,2,3}, y = {2,2,2,0}: mid-ranks; U counted by hand = 7.5 */
  double tx[] = {1, 2, 2, 3}, ty[] = {2, 2, 2, 0};
  double pt = cs_gl_ranksum_greater(tx, 4, ty, 4, &z);
  /* U = #(x>y) + 0.5 #(x=y): x=1:1, x=2:1+1.5, x=2:1+1.5, x=3:4 -> 10; mu = 8;
   * tie groups: {2 x5}: 120; var = 16/12 * (9 - 120/56) */
  double var = 16.0 / 12 * (9 - 120.0 / 56);
  ASSERT(near(z, (10 - 8 - 0.5) / sqrt(var), 1e-12), "ties: z = %g want %g", z,
         (10 - 8 - 0.5) / sqrt(var));
  ASSERT(pt > 0.05, "ties: p = %g", pt);
  /* larger samples with a 10% shift: detected; with no shift: not */
  double big[30], small[30], same[30];
  for (int i = 0; i < 30; i++) {
    small[i] = 1.0 + 0.01 * ((i * 7) % 30);
    same[i] = 1.0 + 0.01 * ((i * 11) % 30);
    big[i] = small[i] * 1.3;
  }
  double ratio, pv;
  ASSERT(cs_gl_decide_samples(big, 30, small, 30, 0.05, 0, 0.05, &ratio, &pv) == 1,
         "30%% slower is a violation (p = %g)", pv);
  ASSERT(near(ratio, 1.3, 1e-12), "ratio of medians %g", ratio);
  ASSERT(cs_gl_decide_samples(same, 30, small, 30, 0.05, 0, 0.05, &ratio, &pv) == 0,
         "the same distribution is no violation (p = %g)", pv);
  ASSERT(cs_gl_decide_samples(small, 30, big, 30, 0.05, 0, 0.05, &ratio, &pv) == 0,
         "faster is no violation");
  ASSERT(cs_gl_decide_samples(small, 30, big, 30, 0.05, 1, 0.05, &ratio, &pv) == 1,
         "approx: faster by 30%% is a violation both ways");
  /* within the tolerance: 3% slower, tolerance 5% -> not violated */
  double slight[30];
  for (int i = 0; i < 30; i++) slight[i] = small[i] * 1.03;
  ASSERT(cs_gl_decide_samples(slight, 30, small, 30, 0.05, 0, 0.05, &ratio, &pv) == 0,
         "3%% slower within 5%%: p = %g", pv);
  ASSERT(cs_gl_decide_samples(slight, 0, small, 30, 0.05, 0, 0.05, &ratio, &pv) == -1,
         "no samples: -1");

  /* the table: every guideline has both sides, (6) is approx, scan has the local reduce */
  int n;
  const cs_guideline *g = cs_guidelines(&n);
  ASSERT(n == 13, "13 guidelines, got %d", n);
  int seen6 = 0, seenscan = 0;
  for (int i = 0; i < n; i++) {
    ASSERT(g[i].nl >= 1 && g[i].nr >= 1 && g[i].nr <= CS_GL_MAXTERMS, "%s sides", g[i].id);
    if (!strcmp(g[i].id, "red~rs1")) seen6 = g[i].approx && g[i].rhs[0].single;
    if (!strcmp(g[i].id, "scan<=exscan+red")) seenscan = g[i].local_reduce;
  }
  ASSERT(seen6 && seenscan, "guideline 6 and scan");
  return cs_test_end();
}
