/*
 * pwcost.h: a piecewise-linear cost of a size, the one description of the
 * segments that `collsim calibrate` fits (validate/calibfit.h) and that the
 * platform file, the simulation (algos/local.c) and the models (models/eval.c)
 * share.
 *
 * Segment i (0 <= i < n) costs a[i] + b[i] x seconds for a size x of bytes with
 * from[i] < x <= from[i+1] (segment 0 also below from[1], the last one above
 * its from). from[0] is not used (written as 0). This is how SimGrid looks up
 * its piecewise factors (smpi/lat-factor, smpi/bw-factor: a threshold's value
 * applies to sizes strictly above it), so one set of thresholds serves both.
 *
 * Text form (the platform's collsim-model line): "from:a:b;from:a:b;..." with
 * %.17g numbers, no spaces; "-" is the empty cost.
 */
#ifndef COLLSIM_PWCOST_H
#define COLLSIM_PWCOST_H

#include <stddef.h>

#define CS_PW_MAX 8

/* The host property of a calibrated platform that holds the local-work segments
 * (text form below); algos/local.c charges from it in simulation. */
#define CS_LOCAL_PROP "collsim-local"
/* The host property that holds the segments of local copies (cs_copy), when
 * they cost otherwise than reductions; without it a copy costs what a
 * reduction of as many bytes costs. */
#define CS_LOCAL_COPY_PROP "collsim-local-copy"

/* The kinds of local work, priced apart (a copy may cost less than a
 * reduction): the simulation's charge (algos/local.c), the recording
 * (models/mpirec) and the evaluator (models/eval.c) carry it. */
typedef enum { CS_WORK_REDUCE = 0, CS_WORK_COPY = 1 } cs_work;

typedef struct cs_pw {
  int n; /* segments; 0: none (the caller's linear cost applies) */
  double from[CS_PW_MAX], a[CS_PW_MAX], b[CS_PW_MAX];
} cs_pw;

/* The segment of size x (0 if n <= 1). */
int cs_pw_segment(const cs_pw *pw, double x);
/* a + b x of x's segment, never below 0 (a fitted intercept may be negative);
 * 0 if n = 0. */
double cs_pw_eval(const cs_pw *pw, double x);
/* Writes the text form; returns what snprintf returns. */
int cs_pw_format(const cs_pw *pw, char *buf, size_t len);
/* Parses the text form up to the first space or the end; 0, or -1 (and n = 0)
 * if malformed (thresholds not increasing, more than CS_PW_MAX segments, not
 * finite numbers). */
int cs_pw_parse(const char *s, cs_pw *pw);

#endif
