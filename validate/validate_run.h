/* ./collsim validate as a run (validate/validate_run.c): q's cases (one
 * collective) predicted by the model of platform and by SMPI on it, measured
 * with mpirun in launches launches, compared in DIR/validate-COLL-pP-TYPE.csv and
 * .md, the findings printed. platform is a file or a named machine, as given
 * (results/calibrate/platform.xml by default). 0, 1 on a failure, 2 on bad
 * input. */
#ifndef COLLSIM_VALIDATE_RUN_H
#define COLLSIM_VALIDATE_RUN_H

#include "bench.h"

int cs_validate_run(const cs_bench_req *q, const char *platform, const char *dir, int launches);

#endif
