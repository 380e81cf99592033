/* Starting the driver (sim/) and other programs: command lines for smpirun
 * and mpirun, jobs run a few at a time with their output in files, and
 * interrupts that end the running jobs while the caller keeps what they
 * finished. */
#ifndef COLLSIM_LAUNCH_H
#define COLLSIM_LAUNCH_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define CS_MAX_ARGS 256

typedef struct {
  char *v[CS_MAX_ARGS];
  int n;
} cs_argv;
void cs_argv_init(cs_argv *a);
void cs_argv_add(cs_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds "name value" when value is not NULL. */
void cs_argv_opt(cs_argv *a, const char *name, const char *value);
void cs_argv_free(cs_argv *a);

typedef struct {
  cs_argv args;
  char out[4200], err[4200];
  pid_t pid;
  int status;
  int np; /* the job's number of ranks */
} cs_job;
int cs_run_jobs(cs_job *jobs, int n, int parallel, void (*done)(cs_job *, void *), void *ctx);
/* The same, calling tick(tctx) about once a second while jobs run (progress). */
int cs_run_jobs_tick(cs_job *jobs, int n, int parallel, void (*done)(cs_job *, void *), void *ctx,
                     void (*tick)(void *), void *tctx);
/* With on = 1, SIGINT and SIGTERM no longer end collsim: cs_run_jobs passes
 * SIGINT on to its running jobs and their descendants, starts no more, and cs_interrupted() returns
 * the signal; on = 0 restores. The caller keeps what finished and exits CS_EXIT_INTERRUPTED. */
void cs_catch_interrupts(int on);
int cs_interrupted(void);
#define CS_EXIT_INTERRUPTED 130

/* The launcher part of a driver command line (the caller adds its own
 * options, then the driver): smpirun on a platform (hosts may be NULL;
 * flags: the space-separated settings of a timing run (cs_timing_flags,
 * platforms/foreign.h), or NULL for the fast rendezvous setting of
 * correctness runs), or mpirun as collsim runs it on this machine
 * (oversubscribed, root allowed, no CMA single copy). */
void cs_argv_smpirun(cs_argv *a, int np, const char *xml, const char *hosts, const char *flags);
void cs_argv_mpirun(cs_argv *a, int np, const char *hostfile);

/* Adds to a the smpirun option that selects the library algorithm an --algos
 * name asks for: native:NAME (SMPI's algorithm NAME for coll, through the one
 * mapping of algos/smpi.def: reduce_scatter_block -> smpi/reduce_scatter) or
 * lib:SEL (SMPI's selector SEL); nothing for other names. Returns 0, or -1
 * with a message when the name is not SMPI's or SMPI has no choice for coll
 * (cs_smpi_check_name). */
int cs_argv_smpi_algo(cs_argv *a, int coll, const char *name, const char *cmd);

void cs_print_tail(const char *path, int lines);

#endif
