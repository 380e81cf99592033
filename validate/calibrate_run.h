/* ./collsim calibrate as a run (validate/calibrate_run.c): measure, fit,
 * write the platform out (its hostfile and samples beside it), verify it
 * under smpirun. 0 done, 1 a measurement, fit, write or the verification
 * failed. */
#ifndef COLLSIM_CALIBRATE_RUN_H
#define COLLSIM_CALIBRATE_RUN_H

typedef struct {
  int smpi;            /* 1: measure the simulated machine platform; 0: mpirun */
  int np, quick, reps; /* reps 0: the driver's default */
  int launches;        /* mpirun launches to measure over (>= 1) */
  int do_verify;       /* re-measure the written platform under smpirun */
  int linear;          /* one alpha-beta line and one gamma, no segments */
  int pingpong;        /* fit the network to ping-pong, not exchange */
  long max_bytes;      /* 0: the driver's default */
  const char *hostfile, *platform;
  const char *out;     /* the platform file, *.xml */
  const char *samples; /* NULL: OUT-samples.csv */
} cs_calib_req;

int cs_calibrate_run(const cs_calib_req *r);

#endif
