/* The analysis of `collsim validate`: predictions (collsim's model, SMPI)
 * against measurements on a real MPI library, as relative errors and their
 * summary (docs/csv.md "validate"). No MPI: cli/validate.c runs the
 * simulations and measurements, writes the rows and calls these. */
#ifndef COLLSIM_VALIDATION_H
#define COLLSIM_VALIDATION_H

#include <stdio.h>

/* The absolute relative errors gathered so far: [0] model and [1] simulation
 * at every size, [2] model and [3] simulation for m >= 64 KiB. */
typedef struct {
  double *e[4];
  int n[4], cap;
} cs_val_errors;

/* Room for cases errors of each kind; 0, or -1 if out of memory. */
int cs_val_init(cs_val_errors *E, int cases);
void cs_val_free(cs_val_errors *E);

/* One case of m bytes: the errors (predicted - measured) / measured of model
 * and sim (a prediction < 0 is missing, as is every error when meas <= 0),
 * NAN where missing, and gathered into E. */
void cs_val_add(cs_val_errors *E, long m, double model, double sim, double meas, double *err_model,
                double *err_sim);

/* The report: median and worst errors, overall and for m >= 64 KiB. coll is
 * the MPI name (MPI_Allreduce), xml the platform, csv the table of cases. */
void cs_val_report(FILE *f, const cs_val_errors *E, const char *coll, int np, const char *xml,
                   const char *csv);

#endif
