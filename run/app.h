/* collsim app: an SMPI application (linked with libcollsim-smpi.o) run
 * under smpirun once with the library's collectives and once per chosen
 * algorithm of each chosen collective; its simulated time per choice, the
 * speedup over the library's selector and the share of time in collectives
 * (pmpi/README.md "Under SMPI", docs/commands.md). */
#ifndef COLLSIM_APP_H
#define COLLSIM_APP_H

#define CS_APP_MAX 64

typedef struct {
  char xml[4096], hosts[4096]; /* resolved platform and hostfile ("" = default placement) */
  int np;
  int colls[CS_APP_MAX], ncolls; /* collectives (cs_coll) */
  const char *algos[CS_APP_MAX]; /* names: "algo" (every coll that has it) or "coll:algo" */
  int nalgos;
  const char *out;           /* output directory */
  const char *privatization; /* smpi/privatization: dlopen, mmap, no */
  char **app;                /* the application and its arguments, NULL-ended */
} cs_app_req;

/* Runs the study; 0, 1 if a run failed (the report says which), 2 on bad
 * input (a message names what is valid). */
int cs_app_run(cs_app_req *q);

#endif
