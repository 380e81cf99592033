/* The text forms that runs share (sizes, process counts) and the files they
 * write (directories, the lock of a results file). */
#ifndef COLLSIM_RUN_UTIL_H
#define COLLSIM_RUN_UTIL_H

#include <stddef.h>

/* Opens path for a writer of results (created if missing) and locks it
 * against other collsim writers (flock, released when fd is closed).
 * Returns the descriptor, or -1 after a message: "cannot write PATH: why",
 * or that another run holds it. */
int cs_lock_output(const char *cmd, const char *path);

/* Parses "1-40", "2,5,33", "1-16,33,48": fills out (sorted as given) and
 * returns the count, or -1 with a message. */
int cs_parse_np_list(const char *s, int *out, int max);

/* Parses sizes: "1K", "16M", "8,1K,1M", "1-16M:x2" (geometric, the
 * default), "0-4096:+512" (arithmetic). Returns the count or -1 with a
 * message. */
int cs_parse_sizes(const char *s, long *out, int max);

/* mkdir -p: creates path and its missing parents; 0 if it is a directory. */
int cs_mkdir_p(const char *path);

#endif
