/* test_validation: the analysis of `collsim validate` (validate/validation.c):
 * errors, the unstable flag (interval wider than the error), medians over all
 * and over stable cases, native left out of the headline, the report's
 * figures and flags, and the calibration read back from a platform's comment.
 * Exits 1 if any check fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validation.h"
#include "check.h"

int main(void) {
  cs_val_set V;
  cs_val_set_init(&V);
  /* algo, bytes, model, sim, measured median [lo, hi] */
  const cs_val_case *c = cs_val_add_case(&V, "ring", 1024, 1.1, 0.9, 1.0, 0.99, 1.01, 1, NAN, NAN);
  ASSERT(c && near(c->err[0], 0.1) && near(c->err[1], -0.1) && !c->unstable[0] && !c->unstable[1],
         "%s", "errors (pred - meas) / meas; a 2% interval is narrower than a 10% error");
  c = cs_val_add_case(&V, "ring", 65536, 1.05, 1.3, 1.0, 0.9, 1.2, 1, NAN, NAN);
  ASSERT(c && c->unstable[0] && !c->unstable[1], "%s",
         "a 30% interval is wider than a 5% error (unstable) but not than a 30%+ one");
  c = cs_val_add_case(&V, "ring", 1 << 20, 2.0, 1.5, 1.0, NAN, NAN, 1, NAN, NAN);
  ASSERT(c && near(c->err[0], 1.0) && !c->unstable[0], "no interval: never flagged");
  c = cs_val_add_case(&V, "native", 1 << 20, -1, 10.0, 1.0, 0.99, 1.01, 1, NAN, NAN);
  ASSERT(c && isnan(c->err[0]) && near(c->err[1], 9.0), "a missing model has no error");

  cs_val_stats s;
  cs_val_stats_of(&V, 0, NULL, 0, &s);
  ASSERT(s.n == 3 && near(s.median, 0.1) && near(s.worst, 1.0) && s.worst_bytes == 1 << 20 &&
             s.unstable == 1 && near(s.median_stable, 0.55),
         "%s", "model, all sizes: median 10%, worst 100% at 1 MiB, 1 unstable, stable median 55%");
  cs_val_stats_of(&V, 1, NULL, 0, &s);
  ASSERT(s.n == 3 && near(s.worst, 0.5) && !strcmp(s.worst_algo, "ring"), "%s",
         "simulation headline leaves native (900% off) out");
  cs_val_stats_of(&V, 1, "native", 0, &s);
  ASSERT(s.n == 1 && near(s.median, 9.0), "native has its own row");
  cs_val_stats_of(&V, 0, NULL, 65536, &s);
  ASSERT(s.n == 2 && near(s.median, 0.525), "%s", "m >= 64 KiB: two cases, median 52.5%");
  cs_val_stats_of(&V, 0, "none", 0, &s);
  ASSERT(s.n == 0 && isnan(s.median), "no cases: NaN median");

  /* The report. */
  cs_val_info info = {"MPI_Allreduce",
                      2,
                      "p.xml",
                      "collsim calibrate, test",
                      "v.csv",
                      "v.png",
                      3.5,
                      4.0,
                      2,
                      1,
                      1,
                      0.25,
                      0.15,
                      1,
                      NULL,
                      NULL,
                      "int",
                      "sum",
                      NULL};
  const char *text = report_text(&V, &info);
  if (!text) return 1;
  ASSERT(strstr(text, "**WARNING: oversubscribed.** 2 ranks ran on 2 cores") != NULL,
         "report warns about oversubscription");
  ASSERT(strstr(text, "were reused (resumed run)") != NULL, "report says measurements were reused");
  ASSERT(strstr(text, "3.50 before and 4.00 after") && strstr(text, "**busy**"),
         "report states the load and calls the machine busy");
  ASSERT(
      strstr(text, "**model**, m >= 64 KiB: median 52.5% over 2 cases (target <= 15%: NOT met)") !=
          NULL,
      "headline: model median for m >= 64 KiB with the verdict");
  ASSERT(strstr(text, "all sizes: median 10.0% over 3 cases (target <= 25%: met)") != NULL,
         "headline: model median over all sizes, target met");
  ASSERT(strstr(text, "| ring | 64 KiB |") && strstr(text, "unstable (model)"),
         "per-case table flags the unstable case");
  ASSERT(strstr(text, "| native | model | - |") != NULL, "native has no model figures");
  ASSERT(strstr(text,
                ": 64 KiB: model 5.0%, simulation 30.0%, interval 30.0%; 1 MiB: model 100.0%, "
                "simulation 50.0%, interval -.") != NULL &&
             strstr(text, "1 KiB: model") == NULL,
         "sizes beyond the target listed with signed median errors and interval widths");
  ASSERT(strstr(text, "```\ncollsim calibrate, test\n```") != NULL, "the calibration is quoted");
  ASSERT(strstr(text, "![MPI_Allreduce](v.png)") != NULL, "the picture is linked");

  /* The calibration from a platform's leading comment. */
  char xml[] = "/tmp/test_validation_xml_XXXXXX";
  int fd = mkstemp(xml);
  FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (f) {
    fputs("<!--\ncollsim calibrate, today: 2 ranks\nFits: ...\n-->\n<!--\nother\n-->\n", f);
    fclose(f);
  }
  char *cal = cs_val_platform_calibration(xml);
  ASSERT(cal && !strcmp(cal, "collsim calibrate, today: 2 ranks\nFits: ..."),
         "calibration text read from the leading comment");
  free(cal);
  f = fopen(xml, "w");
  if (f) {
    fputs("<!--\ncollsim platform \"abg\"\n-->\n", f);
    fclose(f);
  }
  cal = cs_val_platform_calibration(xml);
  ASSERT(cal == NULL, "a platform not written by calibrate has no calibration");
  free(cal);
  remove(xml);
  cs_val_set_free(&V);
  return cs_test_end();
}
