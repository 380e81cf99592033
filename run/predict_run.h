/* ./collsim predict and table1 as runs (run/predict_run.c): Table I's
 * formula, collsim's exact model and SMPI's simulated time side by side. */
#ifndef COLLSIM_PREDICT_RUN_H
#define COLLSIM_PREDICT_RUN_H

#include <stdio.h>

#include "bench.h"

/* The model of a predict run: abg with alpha, beta, gamma (abg = 1 with a
 * platform: its simulation runs there; without a platform they are always
 * used, and the simulation runs on an abg platform of them); nosim: no
 * simulation; routes = 1: the fluid evaluator on the platform's own routes
 * even where the platform is a closed-form line (abg, maxrate, lanes), whose
 * model it would otherwise get. */
typedef struct {
  int abg;
  double alpha, beta, gamma;
  int nosim;
  int routes;
} cs_predict_model;

/* Predict rows (docs/csv.md) for q's algorithms and sizes, to q->out (NULL:
 * stdout). platform: a file or named machine ("" for an abg platform of pm).
 * 0, 1 on a failure, 2 on bad input. */
int cs_predict_run(const cs_bench_req *q, const char *platform, const cs_predict_model *pm);

/* ./collsim table1: Table I for np processes (formula, model, simulation on
 * an abg platform with alpha, beta, gamma), its CSV at csv (NULL: a
 * temporary file) and the Markdown table printed to out. */
typedef struct {
  int np;
  long bytes[CS_MAX_SIZES];
  int nbytes;
  const char *csv;
  double alpha, beta, gamma;
  int nosim;
} cs_table1_req;
/* 1K, 64K, 1M; alpha 1e-6 s, beta 1e-10 s/B, gamma 2.5e-10 s/B. */
void cs_table1_defaults(cs_table1_req *t);
int cs_table1_run(const cs_table1_req *t, FILE *out);

#endif
