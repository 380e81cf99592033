/* The ./collsim front door: each subcommand parses its options and calls
 * the library (run/, platforms/, plots/, models/, guidelines/, validate/,
 * findings/). */
#ifndef COLLSIM_CLI_H
#define COLLSIM_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "registry.h"

/* An option that takes a value, and where the value goes. */
typedef struct {
  const char *name;
  const char **var;
} cs_optval;
/* Whether argv[*i] is one of the n options of opts: then its value, the next
 * argument, goes into the option's var, *i steps past it and 1 is returned;
 * 0 if argv[*i] is none of them; -1 after "collsim CMD: NAME needs a value"
 * when the value is missing. */
int cs_take_opt(const char *cmd, int argc, char **argv, int *i, const cs_optval *opts, size_t n);

/* Splits the comma list s in place into out (pointers into s): the count,
 * or -1 when it has more than max words (cli/bench.c). */
int cs_split_list(char *s, const char **out, int max);
/* The options of bench, shared by predict and validate (cli/bench.c): parsed
 * into q. Returns 0, 1 for --help, 2 for an error. Unknown options are errors
 * unless extra() takes them (returns the number of arguments consumed, 0 if
 * not its option, -1 after a message). --platform goes into platform. */
int cs_bench_parse(int argc, char **argv, cs_bench_req *q, const char *cmd,
                   int (*extra)(int, char **, int, void *), void *ctx, char *platform,
                   size_t platlen);

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
int cmd_compare(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_app(int argc, char **argv);
int cmd_map(int argc, char **argv);
int cmd_lanes(int argc, char **argv);
int cmd_nodeaware(int argc, char **argv);

#endif
