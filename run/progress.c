/* Progress with the time left (run/progress.h). */
#include "progress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double cs_progress_left(double elapsed, double done, double total) {
  if (!(done > 0)) return NAN;
  double left = elapsed * (total - done) / done;
  return left > 0 ? left : 0;
}

const char *cs_progress_duration(double s, char *buf, unsigned len) {
  long t = lround(s);
  if (t < 60)
    snprintf(buf, len, "%ld s", t);
  else if (t < 3600)
    snprintf(buf, len, "%ld min %02ld s", t / 60, t % 60);
  else
    snprintf(buf, len, "%ld h %02ld min", t / 3600, (t % 3600) / 60);
  return buf;
}

void cs_progress_start(cs_progress *p, const char *what, double total, int quiet) {
  memset(p, 0, sizeof *p);
  snprintf(p->what, sizeof p->what, "%s", what);
  p->t0 = p->last = now();
  p->total = total;
  p->quiet = quiet;
  p->tty = isatty(2);
  /* COLLSIM_PROGRESS_AFTER=S: speak after S seconds instead (tests: 0) */
  const char *e = getenv("COLLSIM_PROGRESS_AFTER");
  p->after = e && *e ? atof(e) : CS_PROGRESS_AFTER;
}

void cs_progress_update(cs_progress *p, double done, const char *detail) {
  double t = now(), el = t - p->t0;
  if (p->quiet || el < p->after || (p->printed && t - p->last < (p->tty ? 1 : CS_PROGRESS_EVERY)))
    return;
  p->last = t;
  char a[32], b[32];
  double left = cs_progress_left(el, done, p->total);
  fprintf(stderr, "%s%s: %s, %s elapsed, %s%s%s", p->tty ? "\r" : "", p->what, detail,
          cs_progress_duration(el, a, sizeof a), isnan(left) ? "" : "about ",
          isnan(left) ? "time left unknown (nothing finished yet)"
                      : cs_progress_duration(left, b, sizeof b),
          isnan(left) ? "" : " left");
  fprintf(stderr, p->tty ? "\033[K" : "\n");
  p->printed = 1;
}

void cs_progress_end(cs_progress *p) {
  if (p->printed && p->tty) fputc('\n', stderr);
  p->printed = 0;
}
