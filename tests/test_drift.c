/* test_drift: validate's drift probes (validate/drift.c) on synthetic files: a
 * calibration samples file of three launches whose times follow a known
 * segmented platform with +-3% noise, and probe files of three validate
 * launches drawn the same way, scaled. Unscaled probes must hold; probes
 * scaled by 0.5 (a machine twice as fast as calibrated, run 6 of
 * docs/calibrate.md) must be flagged probe by probe, quantity by quantity,
 * per launch and over launches, and the report must say so; a drift in one
 * launch only, or of one probe only, must not condemn the machine. Also the
 * probe plan (a size in the middle of each network segment, three spread sizes
 * for a quantity with fewer segments) and a platform without calibration
 * samples. Exits 1 if any check fails. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drift.h"
#include "check.h"

static unsigned long long rng = 12345;
/* Deterministic pseudo-noise, uniform in [-0.03, 0.03]. */
static double noise(void) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return 0.06 * ((double)(rng >> 11) / 9007199254740992.0) - 0.03;
}

static cs_model model(void) {
  cs_model mo = cs_model_abg(5e-7, 1e-10, 2e-11);
  mo.net.n = 3; /* jumps at 4000 B and 3 MB */
  double from[3] = {0, 4000, 3e6}, a[3] = {5e-7, 2e-6, 1e-5}, b[3] = {2e-10, 1e-10, 3e-10};
  for (int i = 0; i < 3; i++) mo.net.from[i] = from[i], mo.net.a[i] = a[i], mo.net.b[i] = b[i];
  mo.local.n = 2; /* out of cache from 1 MiB; copies priced as reductions */
  mo.local.from[0] = 0, mo.local.a[0] = 1e-8, mo.local.b[0] = 1e-11;
  mo.local.from[1] = 1 << 20, mo.local.a[1] = -1e-5, mo.local.b[1] = 3e-11;
  return mo;
}

static double price(const cs_model *mo, int kind, double m) {
  return kind == CS_CALIB_XCHG_INTRA ? cs_model_msg_alone(mo, 1, m)
                                     : cs_model_local_time(mo, CS_WORK_REDUCE, m);
}

/* A samples file: reps samples per size of the three kinds, per launch
 * l0..l1, each price x scale(kind, size, launch) x (1 + noise). */
typedef double (*scale_fn)(int kind, long m, int launch);
static void write_samples(const char *path, const cs_model *mo, int l0, int l1, int reps,
                          scale_fn scale) {
  FILE *f = fopen(path, "w");
  cs_calib_meta meta = {"mpi", 2, 1, 0, 0, 5, 16L << 20};
  cs_csv_calib_comment(f, &meta);
  cs_csv_calib_library(f, "synthetic");
  cs_csv_calib_node(f, 0, 2, 0, "vm");
  cs_csv_write_header(f, CS_CSV_CALIB);
  int kinds[3] = {CS_CALIB_XCHG_INTRA, CS_CALIB_REDUCE, CS_CALIB_MEMCPY};
  for (int l = l0; l <= l1; l++)
    for (int r = 0; r < reps; r++)
      for (int k = 0; k < 3; k++) {
        int local = kinds[k] != CS_CALIB_XCHG_INTRA;
        for (long m = local ? 16 : 1; m <= (16L << 20); m *= 2) {
          long sizes[3] = {m, m + m / 2, 0}; /* the driver's grid: 2^k and 1.5 x 2^k */
          for (int j = 0; j < 2; j++) {
            if (j && (m < 2 || sizes[1] > (16L << 20))) continue;
            double t = price(mo, kinds[k], (double)sizes[j]) * scale(kinds[k], sizes[j], l) *
                       (1 + noise());
            cs_csv_calib_row(f, cs_csv_calib_kind(kinds[k]), local ? "0" : "0-1", 1, sizes[j], r, t,
                             l);
          }
        }
      }
  fclose(f);
}

static double unscaled(int kind, long m, int l) { return (void)kind, (void)m, (void)l, 1.0; }
static double half(int kind, long m, int l) { return (void)kind, (void)m, (void)l, 0.5; }
static double net_half_l2(int kind, long m, int l) {
  return (void)m, kind == CS_CALIB_XCHG_INTRA && l == 2 ? 0.5 : 1.0;
}
static long one_size;
static double one_probe(int kind, long m, int l) {
  return (void)l, kind == CS_CALIB_XCHG_INTRA && m == one_size ? 0.5 : 1.0;
}

/* Plans the probes for the calibration in dir, reads three probe launches
 * written with scale, and finishes. */
static void run(cs_drift *D, const char *dir, const char *comment, const cs_model *mo,
                scale_fn scale) {
  char path[512];
  cs_drift_plan(D, mo, comment, NULL, 3);
  for (int l = 1; l <= 3; l++) {
    snprintf(path, sizeof path, "%s/probes-L%d.csv", dir, l);
    write_samples(path, mo, l, l, 12, scale); /* a launch's file, as bench writes it */
    cs_drift_add_launch(D, l - 1, path);
  }
  cs_drift_finish(D);
}

int main(void) {
  char dir[] = "/tmp/collsim_drift_XXXXXX";
  if (!mkdtemp(dir)) return 1;
  char cal[512], comment[1024];
  snprintf(cal, sizeof cal, "%s/cal-samples.csv", dir);
  cs_model mo = model();
  write_samples(cal, &mo, 1, 3, 20, unscaled);
  snprintf(comment, sizeof comment,
           "collsim calibrate, synthetic\nRaw samples: %s\nPlatform: abg (one node measured): "
           "alpha, beta = the intra-node exchange fit,\n",
           cal);
  static cs_drift D;

  /* ---- the plan ---- */
  cs_drift_plan(&D, &mo, comment, NULL, 3);
  int nq[CS_DRIFT_NQ] = {0}, in_seg = 1;
  for (int i = 0; i < D.n; i++) {
    nq[cs_drift_quantity(D.p[i].kind)]++;
    if (D.p[i].kind == CS_CALIB_XCHG_INTRA) {
      int s = cs_pw_segment(&mo.net, (double)D.p[i].bytes);
      in_seg &= D.p[i].bytes > (s ? mo.net.from[s] : -1) &&
                (s + 1 == mo.net.n || D.p[i].bytes <= mo.net.from[s + 1]);
    }
  }
  ASSERT(D.n == 9 && nq[CS_DRIFT_NET] == 3 && nq[CS_DRIFT_REDUCE] == 3 && nq[CS_DRIFT_COPY] == 3,
         "plan: one exchange probe per network segment (3), three spread sizes for the "
         "reduction (2 segments) and the copy (priced as reductions)");
  ASSERT(in_seg && D.p[0].kind == CS_CALIB_XCHG_INTRA,
         "plan: the exchange (the platform's fit), "
         "each probe inside its segment");
  ASSERT(near(D.p[0].price, mo.net.a[0] + mo.net.b[0] * (double)D.p[0].bytes) &&
             near(D.p[8].price, cs_pw_eval(&mo.local, (double)D.p[8].bytes)),
         "prices: the platform's segments (a copy as a reduction without copy segments)");
  char spec[1024];
  cs_drift_spec(&D, spec, sizeof spec);
  ASSERT(!strncmp(spec, "xchg_intra:", 11) && strstr(spec, ";reduce:") && strstr(spec, ";memcpy:"),
         "spec: KIND:B,B;KIND:... for the driver");
  int band = 1;
  for (int i = 0; i < D.n; i++)
    band &= D.p[i].cal_n == 3 && D.p[i].band_lo >= 0.97 - 1e-9 && D.p[i].band_hi <= 1.03 + 1e-9 &&
            D.p[i].band_lo < 1 && D.p[i].band_hi > 1 && fabs(D.p[i].cal_ratio - 1) < 0.03;
  ASSERT(band, "%s", "band: the calibration's 95% intervals over the price, inside the +-3% noise");

  /* ---- an unchanged machine holds ---- */
  run(&D, dir, comment, &mo, unscaled);
  cs_drift_summary s;
  cs_drift_summarize(&D, -1, &s);
  ASSERT(s.measured == 9 && s.beyond == 0 && s.drifted == 0 && fabs(s.median - 1) < 0.03,
         "unscaled probes: none beyond, no quantity drifted, median drift ~1");
  int none = 1;
  for (int l = 0; l < 3; l++) {
    cs_drift_summarize(&D, l, &s);
    none &= s.measured == 9 && s.drifted == 0;
  }
  ASSERT(none, "unscaled probes: no launch drifted");
  cs_val_set V;
  cs_val_set_init(&V);
  cs_val_add_case(&V, "ring", 1 << 20, 2e-4, 2e-4, 1e-4, 0.9e-4, 1.1e-4, 3, 0.95e-4, 1.05e-4);
  cs_val_set PL[3];
  for (int l = 0; l < 3; l++) {
    cs_val_set_init(&PL[l]);
    cs_val_add_case(&PL[l], "ring", 1 << 20, 2e-4, 2e-4, 1e-4, 0.9e-4, 1.1e-4, 1, NAN, NAN);
  }
  cs_val_info info = {.coll = "MPI_Allreduce",
                      .np = 2,
                      .platform = "p.xml",
                      .calibration = comment,
                      .csv = "v.csv",
                      .load_before = 0.5,
                      .load_after = 0.5,
                      .cores = 2,
                      .target_all = 0.25,
                      .target_large = 0.15,
                      .launches = 3,
                      .drift = &D,
                      .per_launch = PL};
  const char *text = report_text(&V, &info);
  ASSERT(text && strstr(text, "median drift 1") && strstr(text, "**holds**") &&
             !strstr(text, "NOT hold") && strstr(text, "## Drift probes"),
         "report: the machine state holds, the probes' table");

  /* ---- twice as fast: flagged ---- */
  run(&D, dir, comment, &mo, half);
  cs_drift_summarize(&D, -1, &s);
  int all = 1;
  for (int i = 0; i < D.n; i++) {
    all &= D.p[i].flag_all == -1 && fabs(D.p[i].agg.median - 0.5) < 0.02;
    for (int l = 0; l < 3; l++) all &= D.p[i].flag[l] == -1;
  }
  ASSERT(all, "probes at 0.5x: every probe below the band, in every launch and over launches");
  ASSERT(s.drifted == 3 && D.q[CS_DRIFT_NET].drifted == -1 && D.q[CS_DRIFT_REDUCE].drifted == -1 &&
             D.q[CS_DRIFT_COPY].drifted == -1 && fabs(s.median - 0.5) < 0.02,
         "probes at 0.5x: network, reduction and copy drifted (faster), median drift 0.5");
  text = report_text(&V, &info);
  ASSERT(text && strstr(text, "**does NOT hold: the machine is not in its calibrated state.**") &&
             strstr(text, "network: median drift 0.") && strstr(text, "launches 1, 2, 3") &&
             strstr(text, "ran faster than when it was calibrated") &&
             strstr(text, "they over-predict") && strstr(text, "recalibrate") &&
             strstr(text, "Launch 2: median drift 0.") && strstr(text, "**drifted**"),
         "report: says plainly the machine is not in its calibrated state, which probes, "
         "launches, direction, recalibrate");

  /* ---- one launch apart: that launch drifted, the median of three did not ---- */
  run(&D, dir, comment, &mo, net_half_l2);
  ASSERT(D.ql[1][CS_DRIFT_NET].drifted == -1 && D.ql[0][CS_DRIFT_NET].drifted == 0 &&
             D.ql[2][CS_DRIFT_NET].drifted == 0 && D.q[CS_DRIFT_NET].drifted == 0 &&
             D.ql[1][CS_DRIFT_REDUCE].drifted == 0,
         "network at 0.5x in launch 2 only: launch 2's network drifted, not the others, not "
         "the median over launches, not the reduction");

  /* ---- one probe apart: a finding about that size, not the machine ---- */
  cs_drift_plan(&D, &mo, comment, NULL, 3);
  one_size = D.p[1].bytes;
  run(&D, dir, comment, &mo, one_probe);
  cs_drift_summarize(&D, -1, &s);
  ASSERT(D.p[1].flag_all == -1 && s.beyond == 1 && s.drifted == 0,
         "one exchange probe at 0.5x: beyond the band, but the network did not drift (1 of 3)");

  /* ---- a --net pingpong platform: the ping-pong, of which these samples have none ---- */
  char pp[1024];
  snprintf(pp, sizeof pp, "Raw samples: %s\nalpha, beta = the intra-node ping-pong fit,\n", cal);
  cs_drift_plan(&D, &mo, pp, NULL, 3);
  ASSERT(D.n == 6 && D.p[0].kind == CS_CALIB_REDUCE,
         "a ping-pong platform is probed with the ping-pong, not the exchange");

  /* ---- nothing to compare with ---- */
  cs_drift_plan(&D, &mo, "a platform without a calibration", NULL, 3);
  ASSERT(D.n == 0 && strstr(D.why, "names no calibration samples"),
         "no calibration samples: no probes, and why");
  char rel[1024], xml[600];
  snprintf(rel, sizeof rel, "Raw samples: results/elsewhere/cal-samples.csv\nexchange fit\n");
  snprintf(xml, sizeof xml, "%s/cal.xml", dir);
  cs_drift_plan(&D, &mo, rel, xml, 3);
  ASSERT(D.n == 9 && !strcmp(D.samples, cal),
         "a relative samples path not found from here is found beside the platform");

  for (int l = 0; l < 3; l++) cs_val_set_free(&PL[l]);
  cs_val_set_free(&V);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) printf("(could not remove %s)\n", dir);
  return cs_test_end();
}
