/* The models' reference table: model_s of every registered non-native
 * algorithm under an ABG, two MAXRATE and a LANES model, for p in 1..40, 48,
 * 64, 100, 1152, sizes 0, 1, 7, 1000, 1024, 65539, 1 MiB, 16 MiB, roots 0
 * and p-1 (rooted collectives), in place off and on.
 *
 *   test_model_table print [COLLS]  writes the table (of the collectives
 *                                   COLLS only, if given) to stdout
 *   test_model_table check FILE [COLLS [sample]]  recomputes every row of
 *                                   FILE (of the comma-separated collectives
 *                                   COLLS only, if given; "all" for every
 *                                   one) and fails unless each time agrees
 *                                   to 1e-9 relative; with "sample", rows
 *                                   with p > 100 are checked for 1000 bytes
 *                                   and 1 MiB only (ctest's sample: the
 *                                   p = 1152 rows are most of the time,
 *                                   since some kernels keep O(p) state per
 *                                   rank; alltoall's p > 100 rows are left
 *                                   out: p (p - 1) messages each; the full
 *                                   table is one command)
 *
 * tests/expected/model_table.txt was written by `print` with the hand-written
 * per-algorithm generators (models/schedules.c, deleted afterwards); `check`
 * holds the engine that records the kernels themselves to those values.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert.h"
#include "model.h"

#define NMODELS 4

static void models(cs_model mo[NMODELS]) {
  mo[0] = cs_model_abg(1e-6, 1e-10, 2.5e-10);
  for (int i = 1; i < NMODELS; i++) {
    mo[i] = cs_model_abg(1e-6, 1e-10, 2.5e-10);
    mo[i].kind = CS_MODEL_MAXRATE;
    mo[i].ppn = 4;
    mo[i].alpha_l = 2e-7;
    mo[i].beta_l = 5e-11;
    mo[i].Rb = 1e9;
  }
  mo[1].RN = 2.5e9; /* 3 or 4 senders of a node: n Rb > RN */
  mo[2].RN = 8e9;   /* never limited by the NIC: n Rb < RN */
  mo[3].kind = CS_MODEL_LANES;
  mo[3].lanes = 2;
  mo[3].RN = 1.5e9;
  mo[3].Rx = 4e9;
}

static int eval(const cs_model *mo, const cs_case *c, double *t) {
  char err[512];
  if (cs_model_time(mo, c, t, err, sizeof err)) {
    fprintf(stderr, "test_model_table: %s\n", err);
    return -1;
  }
  return 0;
}

/* ",coll," inside ",colls,": a row of one of the chosen collectives (colls
 * NULL or "all": every one). */
static int chosen(const char *colls, const char *coll) {
  if (!colls || !strcmp(colls, "all")) return 1;
  char key[80], list[1024];
  snprintf(key, sizeof key, ",%s,", coll);
  snprintf(list, sizeof list, ",%s,", colls);
  return strstr(list, key) != NULL;
}

static int print(const char *colls) {
  cs_model mo[NMODELS];
  models(mo);
  static const long sizes[] = {0, 1, 7, 1000, 1024, 65536 + 3, 1L << 20, 16L << 20};
  int ps[48], np = 0;
  for (int p = 1; p <= 40; p++) ps[np++] = p;
  ps[np++] = 48;
  ps[np++] = 64;
  ps[np++] = 100;
  ps[np++] = 1152;
  printf("# coll algo p bytes root inplace abg maxrate_RN2.5e9 maxrate_RN8e9 lanes2\n");
  for (int a = 0; a < cs_nalgos; a++) {
    const cs_algo_info *ai = &cs_algos[a];
    if ((ai->flags & CS_NATIVE) || !chosen(colls, cs_colls[ai->coll].name)) continue;
    int rooted = cs_colls[ai->coll].rooted;
    for (int i = 0; i < np; i++)
      for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int ri = 0; ri < (rooted && ps[i] > 1 ? 2 : 1); ri++)
          for (int ip = 0; ip < 2; ip++) {
            cs_case c = {ai->coll, ai->name, ps[i], sizes[s], ri ? ps[i] - 1 : 0, ip};
            printf("%s %s %d %ld %d %d", cs_colls[ai->coll].name, ai->name, c.p, c.bytes, c.root,
                   ip);
            for (int m = 0; m < NMODELS; m++) {
              double t;
              if (eval(&mo[m], &c, &t)) return 1;
              printf(" %.17g", t);
            }
            printf("\n");
          }
  }
  return 0;
}

static int check(const char *file, const char *colls, int sample) {
  FILE *f = fopen(file, "r");
  if (!f) {
    fprintf(stderr, "test_model_table: cannot read %s\n", file);
    return 1;
  }
  cs_model mo[NMODELS];
  models(mo);
  char line[1024], coll[64], algo[64];
  long rows = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    cs_case c;
    double want[NMODELS];
    if (sscanf(line, "%63s %63s %d %ld %d %d %lf %lf %lf %lf", coll, algo, &c.p, &c.bytes, &c.root,
               &c.inplace, &want[0], &want[1], &want[2], &want[3]) != 10) {
      fprintf(stderr, "test_model_table: bad line: %s", line);
      return 1;
    }
    if (sample && c.p > 100 && c.bytes != 1000 && c.bytes != 1L << 20) continue;
    /* alltoall sends p (p - 1) messages: 1.3 million per row at p = 1152,
     * 10 s of CPU for the sample's four rows; the full check has them. */
    if (sample && c.p > 100 && !strcmp(coll, "alltoall")) continue;
    if (!chosen(colls, coll)) continue;
    c.coll = (cs_coll)cs_coll_by_name(coll);
    c.algo = algo;
    for (int m = 0; m < NMODELS; m++) {
      double t;
      if (eval(&mo[m], &c, &t)) return 1;
      if (want[m] != 0)
        ASSERT_NEAR(t, want[m], 1e-9, "model %d: %s %s p=%d bytes=%ld root=%d inplace=%d", m, coll,
                    algo, c.p, c.bytes, c.root, c.inplace);
      else
        ASSERT_DBL_EQ(t, 0.0, "model %d: %s %s p=%d bytes=%ld root=%d inplace=%d", m, coll, algo,
                      c.p, c.bytes, c.root, c.inplace);
    }
    rows++;
  }
  fclose(f);
  printf("test_model_table: %ld rows x %d models\n", rows, NMODELS);
  ASSERT_GT(rows, 0, "no row of %s selected", file);
  return cs_test_end();
}

int main(int argc, char **argv) {
  if ((argc == 2 || argc == 3) && !strcmp(argv[1], "print"))
    return print(argc == 3 ? argv[2] : NULL);
  if (argc >= 3 && argc <= 5 && !strcmp(argv[1], "check") &&
      (argc < 5 || !strcmp(argv[4], "sample")))
    return check(argv[2], argc >= 4 ? argv[3] : NULL, argc == 5);
  fprintf(
      stderr,
      "usage: test_model_table print [COLL,COLL...] | check FILE [COLL,COLL...|all [sample]]\n");
  return 2;
}
