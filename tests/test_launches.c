/* test_launches: measurements over several mpirun launches (validate/launches.c)
 * with synthetic per-launch data: the median over launches of the per-launch
 * medians (not the pooled median, not the mean), the launches' range and
 * within-launch interval, the samples grouped by size and launch as calibrate
 * groups them, and validate's flag for a case whose launch-to-launch spread is
 * wider than its error (validate/validation.c), in the counts and the report.
 * Exits 1 if any check fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launches.h"
#include "validation.h"
#include "check.h"

int main(void) {
  /* ---- cs_launch_aggregate ---- */
  double med[4] = {1.0, 10.0, 2.0, NAN}, lo[4] = {0.9, 9.0, 1.5, 0.1},
         hi[4] = {1.2, 12.0, 2.2, 0.2};
  cs_launch_agg a;
  cs_launch_aggregate(med, lo, hi, 4, &a);
  ASSERT(a.n == 3, "a launch without a median is not counted");
  ASSERT(near(a.median, 2.0), "median of the medians 1, 10, 2 is 2 (their mean would be 4.33)");
  ASSERT(near(a.min, 1.0) && near(a.max, 10.0), "range of the launches' medians 1 .. 10");
  ASSERT(near(a.lo, 1.5) && near(a.hi, 2.2), "interval: medians of the launches' ends");
  ASSERT(near(cs_launch_spread(&a), 4.5), "spread (10 - 1) / 2 = 4.5");
  double med4[4] = {4.0, 1.0, 10.0, 2.0};
  cs_launch_aggregate(med4, NULL, NULL, 4, &a);
  ASSERT(near(a.median, 3.0) && isnan(a.lo) && isnan(a.hi),
         "four launches: mean of the middle two (3), no interval");
  cs_launch_aggregate(med, NULL, NULL, 1, &a);
  ASSERT(a.n == 1 && near(a.median, 1.0) && isnan(cs_launch_spread(&a)),
         "one launch: its median, no spread");
  double mixed_lo[3] = {0.9, NAN, 1.5};
  cs_launch_aggregate(med, mixed_lo, hi, 3, &a);
  ASSERT(isnan(a.lo) && near(a.hi, 2.2),
         "an interval end missing in one counted launch: that end is not aggregated");

  /* ---- cs_launch_medians_by_key: samples of two sizes over three launches ---- */
  /* Size 100: launch 1 has seven samples at 1 (a pooled median would be 1),
   * launch 2 three at 2, launch 3 three at 30; size 200 one launch. */
  double k[32], x[32], y[32];
  int l[32], n = 0;
  for (int i = 0; i < 7; i++) k[n] = 1, x[n] = 100, y[n] = 1.0 + 1e-3 * (i - 3), l[n++] = 1;
  for (int i = 0; i < 3; i++) k[n] = 1, x[n] = 100, y[n] = 2.0 + 1e-3 * (i - 1), l[n++] = 2;
  for (int i = 0; i < 3; i++) k[n] = 1, x[n] = 100, y[n] = 30.0, l[n++] = 3;
  for (int i = 0; i < 5; i++) k[n] = 1, x[n] = 200, y[n] = 5.0 + i, l[n++] = 1;
  /* shuffled order: grouping must not depend on it */
  for (int i = 0; i < n; i += 2) {
    int j = n - 1 - i;
    double t;
    int u;
    t = x[i], x[i] = x[j], x[j] = t;
    t = y[i], y[i] = y[j], y[j] = t;
    u = l[i], l[i] = l[j], l[j] = u;
  }
  double ok[32], ox[32];
  cs_launch_agg oa[32];
  int g = cs_launch_medians_by_key(k, x, l, y, n, ok, ox, oa);
  ASSERT(g == 2 && near(ox[0], 100) && near(ox[1], 200), "two sizes, sorted");
  ASSERT(g == 2 && oa[0].n == 3 && near(oa[0].median, 2.0),
         "size 100: median of the launch medians 1, 2, 30 is 2 (pooled median: 1)");
  ASSERT(g == 2 && near(oa[0].min, 1.0) && near(oa[0].max, 30.0), "size 100: range 1 .. 30");
  ASSERT(g == 2 && oa[1].n == 1 && near(oa[1].median, 7.0), "size 200: one launch, median 7");
  g = cs_launch_medians_by_key(k, x, NULL, y, n, ok, ox, oa);
  ASSERT(g == 2 && oa[0].n == 1 && near(oa[0].median, 1.003),
         "without launches: one launch, the pooled median (1.003, the 7th of 13 samples)");

  /* ---- cs_launch_path ---- */
  char path[64];
  cs_launch_path(path, sizeof path, "d/measured-allreduce-p2", 3, ".csv");
  ASSERT(!strcmp(path, "d/measured-allreduce-p2-L3.csv"), "launch file name");

  /* ---- validate's flags ---- */
  cs_val_set V;
  cs_val_set_init(&V);
  /* error 10% (model), -40% (simulation); launches 0.8 .. 1.0 around 1: 20% */
  const cs_val_case *c = cs_val_add_case(&V, "ring", 65536, 1.1, 0.6, 1.0, 0.99, 1.01, 3, 0.8, 1.0);
  ASSERT(c && c->spread[0] && !c->spread[1] && !c->unstable[0] && !c->unstable[1], "%s",
         "a 20% launch spread is wider than a 10% error, not than a 40% one");
  ASSERT(c && near(cs_val_launch_spread(c), 0.2), "launch spread (1.0 - 0.8) / 1.0");
  c = cs_val_add_case(&V, "ring", 1 << 20, 1.1, 0.6, 1.0, 0.99, 1.01, 3, 0.97, 1.02);
  ASSERT(c && !c->spread[0] && !c->spread[1], "%s", "a 5% spread is narrower than both errors");
  c = cs_val_add_case(&V, "ring", 1 << 21, 1.1, 0.6, 1.0, 0.99, 1.01, 1, 0.5, 1.5);
  ASSERT(c && !c->spread[0] && isnan(cs_val_launch_spread(c)), "one launch: never flagged");
  cs_val_stats s;
  cs_val_stats_of(&V, 0, NULL, 0, &s);
  ASSERT(s.n == 3 && s.unstable == 1 && near(s.median_stable, 0.1), "%s",
         "model: 3 cases, 1 unstable by its launch spread, stable median 10%");
  cs_val_stats_of(&V, 1, NULL, 0, &s);
  ASSERT(s.unstable == 0, "simulation: none unstable");

  cs_val_info info = {"MPI_Allreduce",
                      2,
                      "p.xml",
                      NULL,
                      "v.csv",
                      NULL,
                      0.5,
                      0.5,
                      2,
                      0,
                      0,
                      0.25,
                      0.15,
                      3,
                      NULL,
                      NULL,
                      "int",
                      "sum",
                      NULL};
  const char *text = report_text(&V, &info);
  if (!text) return 1;
  ASSERT(strstr(text, "measured in 3 mpirun launches") != NULL, "report states the launches");
  ASSERT(strstr(text, "- Launches: 3 per case.") &&
             strstr(text, "largest 20.0% (ring at 64 KiB)") &&
             strstr(text, "wider than the error in 1 cases for the model, 0 for the simulation"),
         "findings: the spread and the flagged cases");
  ASSERT(strstr(text, "| ring | 64 KiB | 1 | 0.01 .. 1.01 |") == NULL &&
             strstr(text, "| 3 | 0.8 .. 1 | 20.0% |") != NULL &&
             strstr(text, "launch spread (model) |") != NULL,
         "per-case table: launches, their medians, the spread, the flag");
  cs_val_set_free(&V);
  return cs_test_end();
}
