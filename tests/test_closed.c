/* The exact closed forms (models/closed.c) against the recorded model
 * (cs_model_eval: the kernels' own execution priced step by step), on every
 * registered row for which cs_model_closed answers, under several abg
 * models: plain, gamma = 0, a T3E-like one, calibrated segments (network,
 * reductions and copies apart), and segments whose message cost falls with
 * size (where the form must decline or still be exact), in place and not. Sizes: 1, p - 1, p,
 * p + 1, 2p - 1, 1009, 8192 + 3 and 1 MiB + 1 (not divisible by p), the same
 * rounded to multiples of p for the block collectives. Every case where the
 * form answers must equal the recorded time to 1e-12 relative; the ring
 * allreduce must be answered at every p (else the test fails: the form is
 * what keeps `collsim map` fast).
 *
 *   test_closed [P_LIST]   default 2-40,48,63,64,65,100,128,129 (ctest);
 *                          e.g. build/test_closed 2-300,511,512 (minutes)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert.h"
#include "model.h"

static cs_model seg_model(int falling) {
  cs_model mo = cs_model_abg(2e-6, 1e-10, 3e-10);
  /* network: 3 segments (thresholds in bytes, a + b x) */
  mo.net.n = 3;
  mo.net.from[0] = 0, mo.net.a[0] = 1e-6, mo.net.b[0] = 2e-10;
  mo.net.from[1] = 1024, mo.net.a[1] = falling ? 1e-7 : 3e-6, mo.net.b[1] = 1e-10;
  mo.net.from[2] = 65536, mo.net.a[2] = 2e-5, mo.net.b[2] = 8e-11;
  mo.local.n = 2;
  mo.local.from[0] = 0, mo.local.a[0] = 1e-8, mo.local.b[0] = 4e-10;
  mo.local.from[1] = 4096, mo.local.a[1] = 5e-8, mo.local.b[1] = 3e-10;
  mo.copy.n = 1;
  mo.copy.from[0] = 0, mo.copy.a[0] = 5e-9, mo.copy.b[0] = 1e-10;
  return mo;
}

int main(int argc, char **argv) {
  int ps[4096], np = cs_test_plist(argc > 1 ? argv[1] : "2-40,48,63,64,65,100,128,129", ps, 4096);
  if (np <= 0) {
    fprintf(stderr, "usage: test_closed [P_LIST, e.g. 2-40,64,100]\n");
    return 2;
  }
  const char *names[] = {"abg", "abg gamma 0", "T3E-like", "segments", "falling segments"};
  cs_model models[5] = {cs_model_abg(1e-6, 1e-10, 2.5e-10), cs_model_abg(1e-6, 1e-10, 0),
                        cs_model_abg(1e-5, 3.3e-9, 1e-9), seg_model(0), seg_model(1)};
  long answered = 0, declined = 0, ring_missed = 0;
  double worst = 0;
  for (int i = 0; i < cs_nalgos; i++) {
    const cs_algo_info *row = &cs_algos[i];
    if (!cs_model_has(row->coll, row->name)) continue;
    for (int mi = 0; mi < 5; mi++)
      for (int k = 0; k < np; k++) {
        long p = ps[k];
        long sizes[] = {1, p - 1, p, p + 1, 2 * p - 1, 1009, 8195, (1L << 20) + 1};
        for (int s = 0; s < (int)(sizeof sizes / sizeof *sizes); s++)
          for (int v = 0; v < 4; v++) {
            int round = v & 1, inplace = v >> 1;
            long m = round ? (sizes[s] + p - 1) / p * p : sizes[s];
            if (m < 1 || (round && m == sizes[s])) continue;
            if (inplace && !cs_colls[row->coll].in_place) continue;
            cs_case c = {row->coll, row->name, (int)p, m, 0, inplace};
            double tc;
            if (!cs_model_closed(&models[mi], &c, &tc)) {
              if (row->coll == CS_allreduce && !strcmp(row->family, "pairring") && mi < 4 &&
                  !inplace) {
                ring_missed++;
                ASSERT(0, "allreduce %s p=%ld m=%ld (%s): no closed form", row->name, p, m,
                       names[mi]);
              }
              if (!strcmp(row->family, "pairring")) declined++;
              continue;
            }
            cs_model_stats st;
            char err[512];
            if (cs_model_eval(&models[mi], &c, &st, err, sizeof err) != 0) {
              ASSERT(0, "%s %s p=%ld: %s", cs_colls[row->coll].name, row->name, p, err);
              continue;
            }
            answered++;
            double rel = fabs(tc - st.time) / st.time;
            if (rel > worst) worst = rel;
            ASSERT(rel <= 1e-12, "%s %s p=%ld m=%ld (%s): closed %.15g s, recorded %.15g s",
                   cs_colls[row->coll].name, row->name, p, m, names[mi], tc, st.time);
          }
      }
  }
  printf(
      "closed forms: %ld cases equal the recorded model (worst rel. difference %.2g), %ld "
      "cases of ring rows declined (falling segments, in-place or sizes not a multiple of "
      "p for block collectives)\n",
      answered, worst, declined);
  ASSERT(answered > 0, "no closed form answered");
  ASSERT(ring_missed == 0, "the ring allreduce had no closed form in %ld cases", ring_missed);
  return cs_test_end();
}
