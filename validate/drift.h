/* Drift probes of `collsim validate` (docs/calibrate.md, "Drift probes"): in
 * every measuring launch, bench re-measures a few of calibrate's own probes
 * with calibrate's own code (sim/driver.h: cs_probes_*) between the sizes of
 * the collectives. Each probe is priced with the calibrated platform's model
 * (cs_model_msg_alone, cs_model_local_time); drift = measured / price. The
 * calibration's own samples at the same size, priced the same way, give the
 * band that the calibration itself explains: from the smallest lower end to
 * the largest upper end of its launches' 95% intervals of the median, over
 * the price (fit residual, launch-to-launch and within-launch spread
 * included). A probe whose own interval lies wholly outside that band drifted:
 * the machine is not in the state it was calibrated in. No MPI. */
#ifndef COLLSIM_DRIFT_H
#define COLLSIM_DRIFT_H

#include <stddef.h>

#include "launches.h"
#include "model.h"
#include "results.h"

/* At most this many probes (a few per regime of each calibrated quantity). */
#define CS_DRIFT_MAX 40

typedef struct {
  int kind;                /* CS_CALIB_* (store/results.h) */
  long bytes;              /* one of the calibration's sizes */
  double price;            /* the platform's model, s */
  int cal_n;               /* calibration launches with samples at this size */
  double cal_ratio;        /* the calibration's median (of launch medians) / price */
  double band_lo, band_hi; /* the calibration's band (see above), / price; NAN: none */
  /* per validate launch (0-based): the probe's median and 95% interval of the
   * median, / price (NAN: no samples); flag -1 below the band (faster than
   * calibrated), +1 above, 0 inside or not judged */
  double med[CS_MAX_LAUNCHES], lo[CS_MAX_LAUNCHES], hi[CS_MAX_LAUNCHES];
  int flag[CS_MAX_LAUNCHES];
  cs_launch_agg agg; /* over launches (launches.h), of the ratios */
  int flag_all;      /* the same test on the aggregate's interval */
} cs_drift_probe;

/* The calibrated quantities the probes check: the network (ping-pong or
 * exchange), the local reduction, the local copy. */
enum { CS_DRIFT_NET, CS_DRIFT_REDUCE, CS_DRIFT_COPY, CS_DRIFT_NQ };
int cs_drift_quantity(int kind);
const char *cs_drift_quantity_name(int q);

/* A quantity drifted (in a launch, or over launches) when more than half of
 * its probes measured there lie beyond the band on the same side: one probe
 * beyond is a finding about that size, not about the machine. */
typedef struct {
  int probes, below, above; /* measured; beyond the band below (faster), above (slower) */
  int drifted;              /* -1 faster, +1 slower, 0 not */
  double median;            /* median drift of its probes */
} cs_drift_q;

typedef struct cs_drift {
  int n;
  cs_drift_probe p[CS_DRIFT_MAX];
  cs_drift_q q[CS_DRIFT_NQ];                   /* over launches (cs_drift_finish) */
  cs_drift_q ql[CS_MAX_LAUNCHES][CS_DRIFT_NQ]; /* per launch */
  int launches;                                /* validate launches */
  int have[CS_MAX_LAUNCHES];                   /* 1: that launch's probe file was read */
  char samples[4096];                          /* the calibration's samples file */
  char why[4352];                              /* n = 0: why there are no probes */
} cs_drift;

/* Chooses the probes for a platform whose model is mo and whose calibration
 * comment (cs_val_platform_calibration; NULL: none) names its samples file
 * ("Raw samples: PATH"): the network probe is the kind the platform's network
 * was fitted to (the exchange or the ping-pong, in node 0 or between nodes;
 * maxrate: the ping-pong in node 0 and between nodes), then the reduction and
 * the copy; for each, one of the calibration's sizes in the middle of each
 * segment of its price (fewer than three segments: three sizes spread over
 * the range).
 * Prices each and takes the calibration's band at its size. A relative samples
 * path that is not found is looked for beside xml (the platform file). n = 0
 * with why set when the samples cannot be read. */
void cs_drift_plan(cs_drift *D, const cs_model *mo, const char *calibration, const char *xml,
                   int launches);
/* The driver's --probes spec ("KIND:B,B;KIND:B"), "" if no probes. */
void cs_drift_spec(const cs_drift *D, char *buf, size_t len);
/* Reads launch l's (0-based) probe samples from path (a calibration samples
 * file); a missing or unreadable file leaves the launch without probes. */
void cs_drift_add_launch(cs_drift *D, int l, const char *path);
/* Aggregates over the launches read, flags the probes and judges the
 * quantities, per launch and over launches (call after cs_drift_add_launch). */
void cs_drift_finish(cs_drift *D);

/* The median over probes of the overall drift (NAN: none measured), the
 * probes measured, the probes beyond the band overall; per launch l (0-based):
 * the median drift and the probes beyond the band there. */
typedef struct {
  double median, min, max;
  int measured, beyond;
  int drifted; /* quantities that drifted (cs_drift_q) */
} cs_drift_summary;
void cs_drift_summarize(const cs_drift *D, int l, cs_drift_summary *s); /* l < 0: overall */

/* "xchg_intra 64 KiB" */
const char *cs_drift_name(const cs_drift_probe *p, char *buf, size_t len);

#endif
