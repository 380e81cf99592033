/* The ./collsim front door: subcommands and the helpers they share. */
#ifndef COLLSIM_CLI_H
#define COLLSIM_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define CS_MAX_ARGS 256

typedef struct {
  char *v[CS_MAX_ARGS];
  int n;
} argv_t;
void argv_init(argv_t *a);
void argv_add(argv_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Adds "name value" when value is not NULL. */
void argv_opt(argv_t *a, const char *name, const char *value);
void argv_free(argv_t *a);

typedef struct {
  argv_t args;
  char out[4200], err[4200];
  pid_t pid;
  int status;
  int np; /* the job's number of ranks */
} job_t;
int cs_run_jobs(job_t *jobs, int n, int parallel, void (*done)(job_t *, void *), void *ctx);

/* The launcher part of a driver command line (the caller adds its own
 * options, then the driver): smpirun on a platform (hosts may be NULL;
 * timing adds the exact-timing flags of platgen, otherwise the fast
 * rendezvous setting of correctness runs), or mpirun as collsim runs it on
 * this machine (oversubscribed, root allowed, no CMA single copy). */
void cs_argv_smpirun(argv_t *a, int np, const char *xml, const char *hosts, int timing);
void cs_argv_mpirun(argv_t *a, int np, const char *hostfile);

/* The one mapping from collsim's collectives to SMPI's algorithm options
 * (--cfg=smpi/KEY:NAME), used by check and bench alike: KEY for collective
 * coll (a cs_coll), or NULL when SMPI 3.32 has no choice of algorithm for it
 * (scan, exscan, gatherv, scatterv). reduce_scatter_block has no option of
 * its own: SMPI runs the selected reduce_scatter for it, so its key is
 * reduce_scatter. */
const char *cs_smpi_algo_key(int coll);
/* Adds to a the smpirun option that selects the library algorithm an --algos
 * name asks for: native:NAME (SMPI's algorithm NAME for coll) or lib:SEL
 * (SMPI's selector SEL); nothing for other names. Returns 0, or -1 with a
 * message naming cmd when SMPI has no choice for coll. */
int cs_argv_smpi_algo(argv_t *a, int coll, const char *name, const char *cmd);

/* Directory of the collsim-cli executable (the build directory). */
const char *cs_self_dir(void);
int cs_make_tmpdir(char *out, size_t len);
void cs_rm_tree(const char *dir);
void cs_print_tail(const char *path, int lines);

/* Parses "1-40", "2,5,33", "1-16,33,48": fills out (sorted as given) and
 * returns the count, or -1 with a message. */
int cs_parse_np_list(const char *s, int *out, int max);

/* Parses sizes: "1K", "16M", "8,1K,1M", "1-16M:x2" (geometric, the
 * default), "0-4096:+512" (arithmetic). Returns the count or -1 with a
 * message. */
int cs_parse_sizes(const char *s, long *out, int max);

/* mkdir -p: creates path and its missing parents; 0 if it is a directory. */
int cs_mkdir_p(const char *path);

/* Writes a contention-free platform with at least np hosts and its
 * hostfile into dir: one rank per host and node (ppn <= 1), or ppn ranks per
 * node on hosts node<N>-<j>; returns 0 on success. */
int cs_write_check_platform(const char *dir, int np, int ppn, char *xml, char *hostfile,
                            size_t len);

/* Writes platform pl into the files xml and hostfile; 0 on success. */
struct cs_platform;
int cs_write_platform_files(const struct cs_platform *pl, const char *xml, const char *hostfile);

/* collsim plot on the files csv[0..n) with every picture they fit, into
 * outdir (png and/or svg); the path of each picture written goes to out. */
int cs_plot_files(const char *const *csv, int n, const char *outdir, int png, int svg, FILE *out);

/* Subcommands. */
int cmd_list(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_table1(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_guidelines(int argc, char **argv);
int cmd_demo(int argc, char **argv);

#endif
