/* The files and directories runs make (store/files.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"

const char *cs_self_dir(void) {
  static char dir[4096];
  if (dir[0]) return dir;
  ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
  if (n <= 0) {
    strcpy(dir, ".");
    return dir;
  }
  dir[n] = '\0';
  char *slash = strrchr(dir, '/');
  if (slash) *slash = '\0';
  return dir;
}

int cs_make_tmpdir(char *out, size_t len) {
  const char *base = getenv("TMPDIR");
  snprintf(out, len, "%s/collsim.XXXXXX", base && *base ? base : "/tmp");
  return mkdtemp(out) ? 0 : -1;
}

void cs_rm_tree(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "collsim: could not remove %s\n", dir);
}

int cs_mkdir_p(const char *path) {
  char d[4200];
  snprintf(d, sizeof d, "%s", path);
  for (char *c = d + 1; *c; c++)
    if (*c == '/') {
      *c = '\0';
      if (mkdir(d, 0777) && errno != EEXIST) return -1;
      *c = '/';
    }
  if (mkdir(d, 0777) && errno != EEXIST) return -1;
  struct stat st;
  return stat(d, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
}

int cs_lock_output(const char *cmd, const char *path) {
  int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    fprintf(stderr, "collsim %s: cannot write %s: %s\n", cmd, path, strerror(errno));
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int e = errno;
    close(fd);
    if (e == EWOULDBLOCK)
      fprintf(stderr,
              "collsim %s: %s is being written by another collsim run (it holds the file's "
              "lock); wait for that run to end, or give another --out\n",
              cmd, path);
    else
      fprintf(stderr, "collsim %s: cannot lock %s: %s\n", cmd, path, strerror(e));
    return -1;
  }
  return fd;
}

static char command[8192];

void cs_set_command(int argc, char **argv) {
  size_t n = (size_t)snprintf(command, sizeof command, "./collsim");
  for (int i = 1; i < argc && n < sizeof command; i++) {
    const char *a = argv[i];
    int plain = *a && strspn(a,
                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                             "-_.,:/=+@%") == strlen(a);
    if (plain) {
      n += (size_t)snprintf(command + n, sizeof command - n, " %s", a);
      continue;
    }
    n += (size_t)snprintf(command + n, sizeof command - n, " '");
    for (; *a && n + 5 < sizeof command; a++)
      n += (size_t)snprintf(command + n, sizeof command - n, *a == '\'' ? "'\\''" : "%c", *a);
    n += (size_t)snprintf(command + n, n < sizeof command ? sizeof command - n : 0, "'");
  }
}

const char *cs_command(void) { return command; }
