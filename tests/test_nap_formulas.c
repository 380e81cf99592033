/* The NAP seed's closed formulas (Bienz, Olson, Gropp 2019, eqs. 4-6;
 * models/table1.c, predict's table1_s) against collsim's exact models of the
 * kernels (cs_model_time, predict's model_s) on max-rate models of 4 and 16
 * processes per node, node counts that are powers of ppn and not, 8 B and
 * 64 KiB. The rows are the registry's allreduce rows by formula: butterfly
 * (eq. 4, recursive doubling), smp (eq. 5, `hier` with the paper's inner
 * algorithms: binomial reduce, recursive doubling among the leaders, binomial
 * bcast) and nap (eq. 6).
 *
 * gamma = 0: the kernels copy the input into the output (gamma m) that the
 * paper does not count, as in tests/test_formulas.c; the reductions' gamma
 * terms are held separately below (gamma on, the copy subtracted).
 *
 * Where they are equal (1e-9) and where not, and why (docs/models.md, "The NAP
 * seed's node-aware formulas"), with s = m + 16 (SMPI's envelope), i = alpha_l
 * + beta_l s (one intra-node step), x(k) = alpha + k s / min(RN, k Rb) (an
 * inter-node step with k processes of a node injecting at once), n nodes,
 * lg = ceil(log2), L = ceil(log_ppn n):
 *  - eq. 4 (butterfly): equal when p = n ppn is a power of two (every step a
 *    full exchange). Otherwise the kernel folds the p - 2^floor(log2 p) extra
 *    ranks in and out (Rabenseifner's correction) and its steps no longer
 *    split into lg ppn intra-node and lg n inter-node ones: bound
 *    eq. 4 - x(ppn) <= model <= eq. 4 + 2 x(ppn) (measured).
 *  - eq. 5 (smp): the paper counts one intra-node pass (an allreduce, lg ppn
 *    steps); the kernel reduces and then broadcasts on the node (2 lg ppn
 *    steps) so that every rank gets the same bits; and at n not a power of
 *    two the leaders' recursive doubling folds (two one-way messages, one
 *    step less: one inter-node step more). Exact:
 *      model = eq. 5 + lg ppn i + [n not 2^k] x(1).
 *  - eq. 6 (nap), n a power of ppn: the kernel's node combines are the
 *    paper's intra-node allreduce by recursive doubling (lg ppn steps, 1 + L
 *    of them: lg p in all); in each inter-node step ppn - 1 processes of a
 *    node inject (local rank j exchanges with nobody: the paper's "idle
 *    process"), not ppn, all at once (the butterfly keeps the local ranks
 *    in step); and the received partial result is not reduced on arrival
 *    but in the node combine (the paper's extra L gamma m are not spent).
 *    Exact, also where RN binds:
 *      model = eq. 6 + L (x(ppn - 1) - x(ppn)) - L gamma m + 2 gamma m (copies).
 *    n not a power of ppn: the kernel's tree (balanced subgroups, Sec.
 *    III-A's extra nodes served by idle processes) has groups of g < ppn
 *    subgroups, combined by a butterfly among g (a fold where g is not a
 *    power of two) and doubling to the other local ranks; eq. 6's terms are
 *    taken out and the kernel's schedule put in (nap_cost): between node
 *    0's program (x(1) per step, the fold's first message overlapping the
 *    inter-node step) and the slowest group at every step (x(ppn - 1) per
 *    message, ceil(r / q) sends from one idle process), exact where both
 *    agree (measured: 17 nodes of 4 at 8 B is now 1.31x eq. 6, 3.9x with the
 *    kernel's earlier binomial combines and unbalanced subgroups).
 * Two NICs: Blue Waters' RN = 8.3 GB/s (binds from 10 senders of 16 on) and
 * RN = 1 TB/s (Rb always binds: eq. 6 exact at 16 ppn too).
 * A formula changed (a term dropped, log2 n for log_ppn n, ppn s for s) fails
 * the test (checked by hand, each of eqs. 4-6).
 *
 *   test_nap_formulas check   the cases above (ctest; about a second)
 *   test_nap_formulas print   every case as CSV (ppn,n,p,bytes,algo,eq_s,model_s)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert.h"
#include "model.h"

static const cs_algo_info *row_by_formula(cs_formula f) {
  for (int i = 0; i < cs_nalgos; i++)
    if (cs_algos[i].coll == CS_allreduce && cs_algos[i].formula == f) return &cs_algos[i];
  return NULL;
}

static cs_model maxrate(int ppn, double gamma_, double RN) {
  cs_model mo = cs_model_abg(1.5e-6, 0, gamma_);
  mo.kind = CS_MODEL_MAXRATE;
  mo.ppn = ppn;
  mo.lanes = 1;
  mo.alpha_l = 8e-7;
  mo.beta_l = 1e-10;
  mo.Rb = 9e8; /* Blue Waters' per-process rate (platforms/platgen.c) */
  mo.RN = RN;  /* 8.3e9, Blue Waters' NIC: RN binds from 10 senders of 16 on */
  mo.beta = 1 / mo.Rb;
  return mo;
}

static int ilog(double base, double x) { /* ceil(log_base x), exactly for integers */
  int k = 0;
  for (double c = 1; c < x; c *= base) k++;
  return k;
}

/* The NAP kernel's node combine among g of n local ranks
 * (algos/nap/allreduce.c): the butterfly among g (lg p2 exchanges and
 * reductions, p2 the power of two <= g, and where g is not one, a fold: two
 * one-way messages, one reduction), then doubling to the other n - g.
 * overlap = 1: the fold's first message (from a process that has nothing
 * to receive, e.g. the idle one) may travel during the inter-node step. */
static double nap_combine(int g, int n, double i1, double gm, int overlap) {
  int lg = 0, spread = 0;
  while (2 << lg <= g) lg++;
  int fold = g != 1 << lg;
  while ((long)g << spread < n) spread++;
  return (lg + 2 * fold - overlap * fold + spread) * i1 + (lg + fold) * gm;
}

/* The kernel's tree of N nodes (top-down, balanced subgroups): at step i
 * a group of S nodes has g = ceil(S / n^(i-1)) subgroups of q or q + 1
 * nodes, r = S mod g of them long; the extra nodes get a short subgroup's
 * result from the idle processes, ceil(r / q) sends at most from one. For
 * every step the slowest group (max[i]: inter-node messages at x(n - 1),
 * then the combine) and node 0's own (chain: x(1) per step). */
static void nap_levels(long S, int i, long cap, int n, double i1, double gm, double xh,
                       double *max) {
  if (i == 0) return;
  long g = S <= cap ? 1 : (S + cap - 1) / cap, q = S / g, r = S % g;
  if (g > 1) {
    long sends = r > q ? (r + q - 1) / q : 1;
    double t = (double)sends * xh + nap_combine((int)g, n, i1, gm, 0);
    if (t > max[i]) max[i] = t;
  }
  if (r) nap_levels(q + 1, i - 1, cap / n, n, i1, gm, xh, max);
  if (g > r) nap_levels(q, i - 1, cap / n, n, i1, gm, xh, max);
}

/* Lower (node 0's program) and upper (the slowest group at every step)
 * bounds of the kernel's time on N nodes of n, without the copies. */
static void nap_cost(long N, int n, double i1, double gm, double xl, double xh, double *chain,
                     double *path) {
  int L = 0;
  long cap = 1;
  for (long c = 1; c < N; c *= n) L++;
  for (int i = 1; i < L; i++) cap *= n;
  double max[64] = {0};
  nap_levels(N, L, cap, n, i1, gm, xh, max);
  *chain = *path = nap_combine(n, n, i1, gm, 0);
  long S = N;
  for (int i = L; i >= 1; i--, cap /= n) {
    long g = S <= cap ? 1 : (S + cap - 1) / cap, q = S / g, r = S % g;
    if (g > 1) *chain += xl + nap_combine((int)g, n, i1, gm, 1);
    *path += max[i];
    S = q + (r > 0);
  }
}

int main(int argc, char **argv) {
  int print = argc > 1 && !strcmp(argv[1], "print");
  if (argc < 2 || (!print && strcmp(argv[1], "check"))) {
    fprintf(stderr, "usage: test_nap_formulas check|print\n");
    return 2;
  }
  /* COLLSIM_INNER: the paper's SMP (binomial reduce, recursive doubling among
   * the leaders, binomial bcast) in place of the library's collectives */
  setenv("COLLSIM_INNER", "reduce:binomial,allreduce:butterfly,bcast:binomial", 1);
  const cs_algo_info *rows[3] = {row_by_formula(CS_F_butterfly), row_by_formula(CS_F_smp),
                                 row_by_formula(CS_F_nap)};
  for (int a = 0; a < 3; a++)
    if (!rows[a]) {
      ASSERT(0, "no allreduce row with formula %d", a);
      return cs_test_end();
    }
  static const struct {
    int ppn, n;
  } cfg[] = {{4, 1},   {4, 2},   {4, 3},   {4, 4},    {4, 5},   {4, 8},   {4, 12},
             {4, 16},  {4, 17},  {4, 64},  {16, 2},   {16, 3},  {16, 16}, {16, 20},
             {16, 32}, {16, 48}, {16, 64}, {16, 100}, {16, 256}};
  static const long sizes[] = {8, 65536};
  if (print) printf("ppn,n,p,bytes,algo,eq_s,model_s\n");
  double worst[3] = {0, 0, 0};
  int cases[3] = {0, 0, 0};
  for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
    int ppn = cfg[k].ppn, n = cfg[k].n, p = ppn * n;
    for (int g = 0; g <= 3; g++) {
      cs_model mo = maxrate(ppn, g & 1 ? 2.5e-10 : 0, g & 2 ? 1e12 : 8.3e9);
      for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        long m = sizes[z];
        double s = (double)m + mo.envelope, gm = mo.gamma * (double)m;
        double i1 = mo.alpha_l + mo.beta_l * s;
#define X(k_) (mo.alpha + (k_)*s / fmin(mo.RN, (k_)*mo.Rb))
        int lgppn = ilog(2, ppn), lgn = ilog(2, n), lgp = ilog(2, p), L = ilog(ppn, n);
        int pow2n = (n & (n - 1)) == 0, powppn = 1;
        for (int c = 1; c < n; c *= ppn) powppn = c * ppn == n || (c * ppn < n && powppn);
        if (n == 1) powppn = 1;
        for (int a = 0; a < 3; a++) {
          cs_case c = {CS_allreduce, rows[a]->name, p, m, 0, 0};
          double eq, tm;
          char err[512];
          if (cs_table1_time(&mo, CS_allreduce, rows[a]->name, p, m, &eq) != 0 ||
              cs_model_time(&mo, &c, &tm, err, sizeof err) != 0) {
            ASSERT(0, "allreduce %s p=%d: no formula or no model (%s)", rows[a]->name, p, err);
            continue;
          }
          if (print) {
            printf("%d,%d,%d,%ld,%s,%.10g,%.10g\n", ppn, n, p, m, rows[a]->name, eq, tm);
            continue;
          }
          /* the kernels' local copies (input to output, temporaries), which the
           * paper does not count: butterfly 1, hier 0, nap 2 */
          double copy = p > 1 ? cs_model_local_time(&mo, CS_WORK_COPY, (double)m) : 0;
          double lo, hi;
          if (a == 0) { /* eq. 4 */
            int pow2 = (p & (p - 1)) == 0;
            lo = pow2 ? eq + copy : eq + copy - X(ppn) - gm;
            hi = pow2 ? eq + copy : eq + copy + 2 * X(ppn);
          } else if (a == 1) { /* eq. 5 */
            lo = hi = eq + lgppn * i1 + (pow2n ? 0 : X(1));
          } else { /* eq. 6 */
            /* base = 0 for the paper's eq. 6: its terms taken out, the
             * kernel's schedule (nap_cost) put in */
            double base = eq - lgp * i1 - L * X(ppn) - gm * (lgp + L);
            double chain, worst_path;
            nap_cost(n, ppn, i1, gm, X(1), X(ppn - 1), &chain, &worst_path);
            lo = base + chain + copy;
            hi = base + worst_path + (n > 1 ? 2 : 1) * copy;
            /* n = ppn^L: every group has ppn subgroups, every local rank is
             * at the same step (the butterfly), ppn - 1 senders per node */
            if (powppn) lo = hi;
          }
#undef X
          (void)lgn;
          int exact = lo == hi;
          double rel = fabs(tm - lo) / tm;
          int ok = exact ? rel <= 1e-9 : tm >= lo * (1 - 1e-9) && tm <= hi * (1 + 1e-9);
          if (exact) {
            cases[a]++;
            if (rel > worst[a]) worst[a] = rel;
          }
          ASSERT(ok,
                 "allreduce %s, ppn %d, %d nodes, %ld B, gamma %g, RN %g: model %.10g s, eq. %d "
                 "%.10g s, expected %s %.10g .. %.10g s",
                 rows[a]->name, ppn, n, m, mo.gamma, mo.RN, tm, 4 + a, eq,
                 exact ? "exactly" : "within", lo, hi);
        }
      }
    }
  }
  if (!print)
    for (int a = 0; a < 3; a++)
      printf("allreduce %-10s eq. %d: %2d exact cases, worst rel. difference %.2g\n", rows[a]->name,
             4 + a, cases[a], worst[a]);
  return cs_test_end();
}
