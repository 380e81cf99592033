/* The ./collsim front door: subcommands and the helpers they share. */
#ifndef COLLSIM_CLI_H
#define COLLSIM_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define CS_MAX_ARGS 256

/* Inside an option loop `for (int i = 1; i < argc; i++)` with locals
 * `const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL`:
 * takes option name's value into var (a string) and goes on with the next
 * argument, or ends the command with status 2 when the value is missing. */
#define CS_OPT(cmd, name, var)                                      \
  if (!strcmp(a, name)) {                                           \
    if (!val) {                                                     \
      fprintf(stderr, "collsim %s: %s needs a value\n", cmd, name); \
      return 2;                                                     \
    }                                                               \
    var = val;                                                      \
    i++;                                                            \
    continue;                                                       \
  }

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
/* With on = 1, SIGINT and SIGTERM no longer end collsim: cs_run_jobs passes
 * SIGINT on to its running jobs and their descendants, starts no more, and cs_interrupted() returns
 * the signal; on = 0 restores. The caller keeps what finished and exits CS_EXIT_INTERRUPTED. */
void cs_catch_interrupts(int on);
int cs_interrupted(void);
#define CS_EXIT_INTERRUPTED 130

/* Opens path for a writer of results (created if missing) and locks it
 * against other collsim writers (flock, released when fd is closed).
 * Returns the descriptor, or -1 after a message: "cannot write PATH: why",
 * or that another run holds it. */
int cs_lock_output(const char *cmd, const char *path);

/* The launcher part of a driver command line (the caller adds its own
 * options, then the driver): smpirun on a platform (hosts may be NULL;
 * timing 1 adds the exact-timing flags of platgen, 2 those without the
 * network settings (SMPI's own network model, cs_timing_flags), 0 the fast
 * rendezvous setting of correctness runs), or mpirun as collsim runs it on
 * this machine (oversubscribed, root allowed, no CMA single copy). */
void cs_argv_smpirun(argv_t *a, int np, const char *xml, const char *hosts, int timing);
void cs_argv_mpirun(argv_t *a, int np, const char *hostfile);

/* Adds to a the smpirun option that selects the library algorithm an --algos
 * name asks for: native:NAME (SMPI's algorithm NAME for coll, through the one
 * mapping of algos/smpi.def: reduce_scatter_block -> smpi/reduce_scatter) or
 * lib:SEL (SMPI's selector SEL); nothing for other names. Returns 0, or -1
 * with a message when the name is not SMPI's or SMPI has no choice for coll
 * (cs_smpi_check_name). */
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

/* ---- any SimGrid platform (cli/foreign.c, docs/byo-platform.md) ---- */
typedef struct {
  char name[256];
  int cores;
  double speed; /* flop/s */
} cs_host;
/* The hosts of a platform file as SimGrid reads it, in natural name order
 * (node-2 before node-10); *out is malloc'ed. Returns the count, or -1 with
 * a message. */
int cs_platform_hosts(const char *xml, cs_host **out);
/* Places np ranks for smpirun on xml. hosts "" (no hostfile): the default
 * placement, each host's cores in turn, hosts in natural name order, is
 * written to a temporary hostfile whose path goes into hosts, and note says
 * so. Otherwise the hostfile hosts ("host" or "host:N" lines) is checked:
 * every name a host of xml, at least np ranks. 0, or -1 with a message. */
int cs_place_ranks(const char *cmd, const char *xml, char *hosts, size_t len, int np, int quiet,
                   char *note, size_t notelen);
/* The gamma (s/byte) of local work on xml: its collsim-model line's, or for
 * any other platform 1 / host speed (the slowest host's), printed unless
 * quiet. -1 if the platform cannot be read. */
double cs_platform_gamma(const char *cmd, const char *xml, int quiet);
/* The smpirun settings of a timing run into buf: collsim's exact-timing
 * flags, or with keep_network those without the network model settings. */
void cs_timing_flags(const char *xml, int keep_network, char *buf, size_t len);

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
