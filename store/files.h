/* The files and directories runs make: temporary directories, directories
 * with their parents, the lock of a results file, and where collsim's own
 * programs lie (the directory of the running executable). POSIX. */
#ifndef COLLSIM_FILES_H
#define COLLSIM_FILES_H

#include <stddef.h>

/* Directory of the collsim-cli executable (the build directory). */
const char *cs_self_dir(void);
/* A new directory collsim.XXXXXX under $TMPDIR (or /tmp): its path into out;
 * 0, or -1 with errno. */
int cs_make_tmpdir(char *out, size_t len);
/* rm -rf dir (a message if that fails). */
void cs_rm_tree(const char *dir);

/* Opens path for a writer of results (created if missing) and locks it
 * against other collsim writers (flock, released when fd is closed).
 * Returns the descriptor, or -1 after a message: "cannot write PATH: why",
 * or that another run holds it. */
int cs_lock_output(const char *cmd, const char *path);

/* mkdir -p: creates path and its missing parents; 0 if it is a directory. */
int cs_mkdir_p(const char *path);

/* The command line of this run ("./collsim bench --np 4 ..."), set once by
 * the front door (cs_set_command), for the "# command:" line of the files
 * it writes; "" if unset. Arguments with spaces or quotes are quoted as a
 * shell would need them. */
void cs_set_command(int argc, char **argv);
const char *cs_command(void);

#endif
