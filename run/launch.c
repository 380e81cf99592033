#define _GNU_SOURCE
/* Starting the driver under smpirun or mpirun, a few jobs at a time, with
 * each job's output in files that are read back when it ends. */
#include "files.h"
#include "launch.h"
#include "registry.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void cs_argv_init(cs_argv *a) {
  a->n = 0;
  a->v[0] = NULL;
}

void cs_argv_add(cs_argv *a, const char *fmt, ...) {
  if (a->n >= CS_MAX_ARGS - 1) {
    fprintf(stderr, "collsim: too many arguments\n");
    exit(2);
  }
  va_list ap;
  va_start(ap, fmt);
  char *s;
  if (vasprintf(&s, fmt, ap) < 0) exit(2);
  va_end(ap);
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
}

void cs_argv_opt(cs_argv *a, const char *name, const char *value) {
  if (!value) return;
  cs_argv_add(a, "%s", name);
  cs_argv_add(a, "%s", value);
}

void cs_argv_free(cs_argv *a) {
  for (int i = 0; i < a->n; i++) free(a->v[i]);
  a->n = 0;
}

/* ---- interrupts: SIGINT/SIGTERM end the running jobs, the caller keeps what
 * they finished ---------------------------------------------------------------- */

static volatile sig_atomic_t interrupted;
static struct sigaction old_int, old_term;

static void on_interrupt(int sig) { interrupted = sig; }

void cs_catch_interrupts(int on) {
  if (on) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: wait() returns EINTR */
    interrupted = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
  } else {
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
  }
}

int cs_interrupted(void) { return interrupted; }

/* The parent of process pid (from /proc/PID/stat), or -1. */
static pid_t parent_of(pid_t pid) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *e = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
  int ppid;
  return e && sscanf(e + 1, " %*c %d", &ppid) == 1 ? (pid_t)ppid : -1;
}

/* Sends sig to pid and all its descendants (smpirun is a script whose child
 * runs the simulation). Jobs stay in collsim's process group, so a signal to
 * the group (Ctrl-C, a scheduler's kill) reaches them as before; this covers
 * a signal sent to collsim alone. */
static void signal_tree(pid_t pid, int sig) {
  DIR *d = opendir("/proc");
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL) {
    pid_t c = (pid_t)atoi(e->d_name);
    if (c > 0 && c != pid && parent_of(c) == pid) signal_tree(c, sig);
  }
  if (d) closedir(d);
  kill(pid, sig);
}

/* Runs jobs[0..n) at most `parallel` at a time; job i writes its stdout to
 * jobs[i].out and stderr to jobs[i].err; done(i) is called as each ends. */
int cs_run_jobs(cs_job *jobs, int n, int parallel, void (*done)(cs_job *, void *), void *ctx) {
  return cs_run_jobs_tick(jobs, n, parallel, done, ctx, NULL, NULL);
}

int cs_run_jobs_tick(cs_job *jobs, int n, int parallel, void (*done)(cs_job *, void *), void *ctx,
                     void (*tick)(void *), void *tctx) {
  int next = 0, running = 0, forwarded = 0;
  long slept = 0, pause_ns = 2000000L;
  if (parallel < 1) parallel = 1;
  while (next < n || running > 0) {
    while (next < n && running < parallel) {
      cs_job *j = &jobs[next++];
      pid_t pid = fork();
      if (pid < 0) {
        perror("collsim: fork");
        return -1;
      }
      if (pid == 0) {
        int fo = open(j->out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(j->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fo < 0 || fe < 0) _exit(127);
        dup2(fo, 1);
        dup2(fe, 2);
        execvp(j->args.v[0], j->args.v);
        fprintf(stderr, "collsim: cannot run %s: %s\n", j->args.v[0], strerror(errno));
        _exit(127);
      }
      j->pid = pid;
      running++;
    }
    if (interrupted && !forwarded) { /* pass it on, start nothing more */
      for (int i = 0; i < n; i++)
        if (jobs[i].pid > 0) signal_tree(jobs[i].pid, SIGINT);
      forwarded = 1;
      next = n;
    }
    int status;
    pid_t pid;
    if (tick) {
      /* Poll, 2 ms apart at first, then up to 100 ms (a short job is not kept
       * waiting), and tick about once a second while the jobs run. */
      pid = waitpid(-1, &status, WNOHANG);
      if (pid == 0) {
        slept += pause_ns;
        if (slept >= 1000000000L) {
          tick(tctx);
          slept = 0;
        }
        struct timespec pause = {0, pause_ns};
        nanosleep(&pause, NULL);
        if (pause_ns < 100000000L) pause_ns *= 2;
        continue;
      }
      pause_ns = 2000000L;
    } else
      pid = wait(&status);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) break;
    for (int i = 0; i < n; i++)
      if (jobs[i].pid == pid) {
        jobs[i].status = status;
        jobs[i].pid = 0;
        running--;
        if (done) done(&jobs[i], ctx);
      }
  }
  return 0;
}

/* Prints the last lines of a file to stderr, indented. */
void cs_print_tail(const char *path, int lines) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char *buf[64] = {0};
  char line[1024];
  int k = 0;
  if (lines > 64) lines = 64;
  while (fgets(line, sizeof line, f)) {
    free(buf[k % lines]);
    buf[k % lines] = strdup(line);
    k++;
  }
  fclose(f);
  int start = k > lines ? k - lines : 0;
  for (int i = start; i < k; i++) fprintf(stderr, "    %s", buf[i % lines]);
  for (int i = 0; i < lines; i++) free(buf[i]);
}

/* A hostfile with 'host:N' lines, unrolled to one host per line in a
 * temporary directory removed at exit: smpirun would unroll it itself into
 * smpitmp-hostfXXXXXX in the current directory, and keep that file when the
 * simulation fails. hosts itself when it has no such line (or on an error). */
static char unroll_dir[4096];
static void remove_unroll_dir(void) {
  if (unroll_dir[0]) cs_rm_tree(unroll_dir);
}
static const char *unrolled_hosts(const char *hosts, char *buf, size_t len) {
  FILE *f = fopen(hosts, "r");
  if (!f) return hosts;
  char line[1024];
  int colon = 0;
  while (!colon && fgets(line, sizeof line, f)) colon = strchr(line, ':') != NULL;
  if (!colon || (!unroll_dir[0] && cs_make_tmpdir(unroll_dir, sizeof unroll_dir))) {
    fclose(f);
    return hosts;
  }
  static int seq;
  if (!seq++) atexit(remove_unroll_dir);
  snprintf(buf, len, "%s/hosts%d", unroll_dir, seq);
  FILE *o = fopen(buf, "w");
  if (!o) {
    fclose(f);
    return hosts;
  }
  rewind(f);
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    char *c = strrchr(line, ':');
    long k = 1;
    if (c) {
      k = strtol(c + 1, NULL, 10);
      *c = '\0';
    }
    for (long i = 0; i < k; i++) fprintf(o, "%s\n", line);
  }
  fclose(o);
  fclose(f);
  return buf;
}

void cs_argv_smpirun(cs_argv *a, int np, const char *xml, const char *hosts, const char *flags) {
  char unrolled[4200];
  if (hosts && *hosts) hosts = unrolled_hosts(hosts, unrolled, sizeof unrolled);
  cs_argv_add(a, "smpirun");
  cs_argv_add(a, "-np");
  cs_argv_add(a, "%d", np);
  cs_argv_add(a, "-platform");
  cs_argv_add(a, "%s", xml);
  cs_argv_opt(a, "-hostfile", hosts);
  cs_argv_add(a, "-no-privatize");
  cs_argv_add(a, "--cfg=smpi/display-timing:no");
  cs_argv_add(a, "--log=root.thres:warning");
  if (flags) {
    char w[1024];
    snprintf(w, sizeof w, "%s", flags);
    for (char *s = NULL, *t = strtok_r(w, " ", &s); t; t = strtok_r(NULL, " ", &s))
      cs_argv_add(a, "%s", t);
  } else {
    /* Detached (eager) sends pile up in a list SimGrid searches linearly:
     * rendezvous everywhere makes long check runs 5-10x faster. */
    cs_argv_add(a, "--cfg=smpi/send-is-detached-thresh:0");
  }
}

int cs_argv_smpi_algo(cs_argv *a, int coll, const char *name, const char *cmd) {
  (void)cmd;
  if (cs_smpi_check_name(stderr, (cs_coll)coll, name)) return -1;
  const char *sel = cs_algo_selector(name);
  if (sel)
    cs_argv_add(a, "--cfg=smpi/coll-selector:%s", sel);
  else if (!strncmp(name, "native:", 7))
    cs_argv_add(a, "--cfg=smpi/%s:%s", cs_smpi_cfg_key((cs_coll)coll), name + 7);
  return 0;
}

void cs_argv_mpirun(cs_argv *a, int np, const char *hostfile) {
  cs_argv_add(a, "mpirun");
  cs_argv_add(a, "--oversubscribe");
  cs_argv_add(a, "--allow-run-as-root");
  cs_argv_add(a, "--mca");
  cs_argv_add(a, "btl_vader_single_copy_mechanism");
  cs_argv_add(a, "none");
  cs_argv_opt(a, "--hostfile", hostfile);
  cs_argv_add(a, "-np");
  cs_argv_add(a, "%d", np);
}
