/* The analysis of `collsim validate` (validation.h). */
#include "validation.h"

#include <math.h>
#include <stdlib.h>

int cs_val_init(cs_val_errors *E, int cases) {
  E->cap = cases + 1;
  int ok = 1;
  for (int k = 0; k < 4; k++) {
    E->n[k] = 0;
    E->e[k] = malloc(sizeof(double) * (size_t)E->cap);
    ok &= E->e[k] != NULL;
  }
  if (!ok) cs_val_free(E);
  return ok ? 0 : -1;
}

void cs_val_free(cs_val_errors *E) {
  for (int k = 0; k < 4; k++) {
    free(E->e[k]);
    E->e[k] = NULL;
    E->n[k] = 0;
  }
}

/* Gathers |x| as an error of kind k (0 model, 1 simulation) of an m-byte case. */
static void gather(cs_val_errors *E, int k, long m, double x) {
  if (E->n[k] < E->cap) E->e[k][E->n[k]++] = fabs(x);
  if (m >= 65536 && E->n[k + 2] < E->cap) E->e[k + 2][E->n[k + 2]++] = fabs(x);
}

void cs_val_add(cs_val_errors *E, long m, double model, double sim, double meas, double *err_model,
                double *err_sim) {
  *err_model = *err_sim = NAN;
  if (model >= 0 && meas > 0) {
    *err_model = (model - meas) / meas;
    gather(E, 0, m, *err_model);
  }
  if (sim >= 0 && meas > 0) {
    *err_sim = (sim - meas) / meas;
    gather(E, 1, m, *err_sim);
  }
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* One line of the summary table: median and worst of e[0..n) (sorted here). */
static void summary(FILE *f, const char *what, double *e, int n) {
  if (n == 0) {
    fprintf(f, "| %s | - | - | 0 |\n", what);
    return;
  }
  qsort(e, (size_t)n, sizeof(double), cmp_d);
  double med = n % 2 ? e[n / 2] : 0.5 * (e[n / 2 - 1] + e[n / 2]);
  fprintf(f, "| %s | %.1f%% | %.1f%% | %d |\n", what, 100 * med, 100 * e[n - 1], n);
}

void cs_val_report(FILE *r, const cs_val_errors *E, const char *coll, int np, const char *xml,
                   const char *csv) {
  fprintf(r, "# Predicted against measured: %s, p = %d\n\n", coll, np);
  fprintf(r,
          "Platform: `%s` (model parameters from its collsim-model line). Measured with "
          "mpirun on this machine; times are medians. Error = (predicted - measured) / "
          "measured, reported as absolute values.\n\n",
          xml);
  fprintf(r, "| prediction | median error | worst error | cases |\n|---|---:|---:|---:|\n");
  summary(r, "model, all sizes", E->e[0], E->n[0]);
  summary(r, "simulation, all sizes", E->e[1], E->n[1]);
  summary(r, "model, m >= 64 KiB", E->e[2], E->n[2]);
  summary(r, "simulation, m >= 64 KiB", E->e[3], E->n[3]);
  fprintf(r,
          "\nEvery case: `%s`. native is Open MPI's collective when measured and SMPI's "
          "when simulated (different implementations); it has no model.\n",
          csv);
}
