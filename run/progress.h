/* Progress of a long run on stderr, with an estimate of the time left: the
 * one helper of bench, and through it of validate, guidelines, predict and the
 * demo (their runs are bench runs). Nothing is said during the first
 * CS_PROGRESS_AFTER seconds (short runs stay quiet); then a line at most
 * every CS_PROGRESS_EVERY seconds: rewritten in place on a terminal, one line
 * each otherwise. Never in a results file. $COLLSIM_PROGRESS_AFTER=S
 * speaks after S seconds instead (tests use 0). */
#ifndef COLLSIM_PROGRESS_H
#define COLLSIM_PROGRESS_H

#define CS_PROGRESS_AFTER 10.0
#define CS_PROGRESS_EVERY 10.0

typedef struct {
  char what[256];   /* "collsim bench: allreduce circulant" */
  double t0, last;  /* start, and when a line was last printed (monotonic s) */
  double total;     /* the work of the whole run, in the caller's units */
  int printed, tty; /* a line is on the terminal (to end with a newline) */
  int quiet;
  double after; /* CS_PROGRESS_AFTER, or $COLLSIM_PROGRESS_AFTER (tests: 0) */
} cs_progress;

/* Starts a run of total units of work (> 0). */
void cs_progress_start(cs_progress *p, const char *what, double total, int quiet);
/* done units of the total are finished; detail says what ("5 of 12 sizes").
 * The estimate is linear in the work: elapsed x (total - done) / done. */
void cs_progress_update(cs_progress *p, double done, const char *detail);
/* Ends the run (a line in place gets its newline). */
void cs_progress_end(cs_progress *p);

/* The estimate itself: the seconds left after elapsed seconds for done of
 * total units (NAN when nothing is done yet); and a duration for people
 * ("42 s", "3 min 10 s", "1 h 05 min") into buf. */
double cs_progress_left(double elapsed, double done, double total);
const char *cs_progress_duration(double s, char *buf, unsigned len);

#endif
