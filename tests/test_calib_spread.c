/* test_calib_spread: calibrate warns, and validate's report flags, a fit whose
 * launch-to-launch spread exceeds its target (issue 28 item 4). Injected
 * samples: three launches of an exchange, reduction and copy on one node,
 * +-3% noise; in the noisy file the exchange's launches run 1x, 2x and 3x
 * (spread (3 - 1) / 2 = 100% at every size), the local work stays steady.
 * The steady file gives no warning; the noisy one gives one, naming the
 * exchange fit, its spread and the advice; the platform written from it marks
 * that fit, and validate's report quoting the platform says "Calibration
 * unsteady" naming it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assert.h"
#include "calibration.h"
#include "validation.h"

static unsigned long long rng = 777;
static double noise(void) { /* uniform in [-0.03, 0.03] */
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return 0.06 * ((double)(rng >> 11) / 9007199254740992.0) - 0.03;
}

static void write_samples(const char *path, double xchg_scale_step) {
  FILE *f = fopen(path, "w");
  cs_calib_meta meta = {"mpi", 2, 1, 0, 0, 5, 1L << 20};
  cs_csv_calib_comment(f, &meta);
  cs_csv_calib_library(f, "synthetic");
  cs_csv_calib_node(f, 0, 2, 0, "vm");
  cs_csv_write_header(f, CS_CSV_CALIB);
  int kinds[3] = {CS_CALIB_XCHG_INTRA, CS_CALIB_REDUCE, CS_CALIB_MEMCPY};
  for (int l = 1; l <= 3; l++)
    for (int r = 0; r < 5; r++)
      for (int k = 0; k < 3; k++)
        for (long m = 16; m <= (1L << 20); m *= 2) {
          double t = k == 0 ? 1e-6 + 1e-10 * (double)m : 1e-8 + 1e-11 * (double)m;
          if (k == 0) t *= 1 + xchg_scale_step * (l - 1);
          cs_csv_calib_row(f, cs_csv_calib_kind(kinds[k]), k ? "0" : "0-1", 1, m, r,
                           t * (1 + noise()), l);
        }
  fclose(f);
}

/* What fn printed to a stream, as a string (malloc'ed). */
static char *warnings_of(const cs_calib_analysis *A, int *n) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  *n = cs_calib_spread_warnings(f, A, 3, 3.5, 2);
  fclose(f);
  return buf;
}

int main(void) {
  char dir[] = "/tmp/collsim-test-spread.XXXXXX";
  if (!mkdtemp(dir)) return 1;
  char samples[256], xml[256], hosts[256];
  snprintf(samples, sizeof samples, "%s/s.csv", dir);
  snprintf(xml, sizeof xml, "%s/p.xml", dir);
  snprintf(hosts, sizeof hosts, "%s/p.hostfile", dir);
  static cs_calib_samples S;
  static cs_calib_analysis A;
  int n;

  /* Steady launches: no warning. */
  write_samples(samples, 0);
  ASSERT_EQ(cs_calib_read_samples(samples, &S), 0);
  cs_calib_analyze(&S, &A);
  ASSERT_EQ(A.xintra.launches, 3);
  ASSERT(A.xintra.spread_median < CS_CALIB_SPREAD_TARGET);
  char *w = warnings_of(&A, &n);
  ASSERT_EQ(n, 0);
  ASSERT_STR_EQ(w, "");
  free(w);
  cs_calib_samples_free(&S);

  /* The exchange's launches at 1x, 2x, 3x: its spread is 100%. */
  write_samples(samples, 1);
  ASSERT_EQ(cs_calib_read_samples(samples, &S), 0);
  cs_calib_analyze(&S, &A);
  ASSERT(A.xintra.spread_median > 0.9 && A.xintra.spread_median < 1.1);
  ASSERT(A.reduce.spread_median < CS_CALIB_SPREAD_TARGET);
  w = warnings_of(&A, &n);
  ASSERT_EQ(n, 1);
  ASSERT(strstr(w, "WARNING: the exchange intra-node fit (exchange alpha_lx) moved ") != NULL, "%s",
         w);
  ASSERT(strstr(w, "beyond the 25% that validation holds predictions to") != NULL, "%s", w);
  ASSERT(strstr(w, "quiet machine") && strstr(w, "load is 3.50 on 2 cores") &&
             strstr(w, "--launches 7"),
         "%s", w);
  free(w);

  /* The platform marks the fit; validate's report flags it. */
  cs_calib_platform C;
  ASSERT_EQ(cs_calib_choose_platform(&S, &A, 1, 0, &C), 0);
  ASSERT_EQ(cs_calib_write_platform(xml, hosts, &S, &A, &C, samples, 1.0), 0);
  char *calib = cs_val_platform_calibration(xml), names[256];
  ASSERT(calib != NULL);
  ASSERT_EQ(cs_calib_unsteady_fits(calib, names, sizeof names), 1);
  ASSERT_STR_EQ(names, "exchange alpha_lx");
  cs_val_set V;
  cs_val_set_init(&V);
  cs_val_add_case(&V, "circulant", 1024, 2e-6, 2e-6, 2.1e-6, 2e-6, 2.2e-6, 3, 2e-6, 2.2e-6);
  cs_val_info info;
  memset(&info, 0, sizeof info);
  info.coll = "MPI_Allreduce";
  info.np = 2;
  info.platform = xml;
  info.calibration = calib;
  info.csv = "v.csv";
  info.load_before = info.load_after = -1;
  info.target_all = 0.25;
  info.target_large = 0.15;
  info.launches = 3;
  char *rep = NULL;
  size_t rl = 0;
  FILE *f = open_memstream(&rep, &rl);
  cs_val_report(f, &V, &info);
  fclose(f);
  ASSERT(
      strstr(rep, "**Calibration unsteady.** 1 fit of the calibration (exchange alpha_lx)") != NULL,
      "%s", rep);
  free(rep);
  /* A steady platform's report says nothing of the kind. */
  ASSERT_EQ(cs_calib_unsteady_fits("  exchange alpha_lx = 1e-06 s, ... (spread 3.0% median)", names,
                                   sizeof names),
            0);
  ASSERT_EQ(cs_calib_unsteady_fits(NULL, names, sizeof names), 0);
  cs_val_set_free(&V);
  free(calib);
  cs_calib_samples_free(&S);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) return 1;
  return cs_test_end();
}
