/* Piecewise-linear costs (pwcost.h). */
#include "pwcost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cs_pw_segment(const cs_pw *pw, double x) {
  int i = 0;
  while (i + 1 < pw->n && x > pw->from[i + 1]) i++;
  return i;
}

double cs_pw_eval(const cs_pw *pw, double x) {
  if (pw->n <= 0) return 0;
  int i = cs_pw_segment(pw, x);
  double t = pw->a[i] + pw->b[i] * x;
  return t > 0 ? t : 0;
}

int cs_pw_format(const cs_pw *pw, char *buf, size_t len) {
  if (pw->n <= 0) return snprintf(buf, len, "-");
  size_t n = 0;
  for (int i = 0; i < pw->n; i++)
    n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%.17g:%.17g:%.17g",
                          i ? ";" : "", i ? pw->from[i] : 0.0, pw->a[i], pw->b[i]);
  return (int)n;
}

static int parse(const char *s, cs_pw *pw) {
  memset(pw, 0, sizeof *pw);
  if (s[0] == '-' && (s[1] == '\0' || s[1] == ' ' || s[1] == '\n')) return 0;
  const char *p = s;
  for (;;) {
    if (pw->n == CS_PW_MAX) return -1;
    char *e;
    double v[3];
    for (int k = 0; k < 3; k++) {
      v[k] = strtod(p, &e);
      if (e == p || !isfinite(v[k])) return -1;
      p = e;
      if (k < 2) {
        if (*p != ':') return -1;
        p++;
      }
    }
    if (pw->n > 1 && !(v[0] > pw->from[pw->n - 1])) return -1;
    pw->from[pw->n] = pw->n ? v[0] : 0;
    pw->a[pw->n] = v[1];
    pw->b[pw->n] = v[2];
    pw->n++;
    if (*p != ';') break;
    p++;
  }
  return (*p == '\0' || *p == ' ' || *p == '\n' || *p == '\r') ? 0 : -1;
}

int cs_pw_parse(const char *s, cs_pw *pw) {
  if (parse(s, pw) == 0) return 0;
  memset(pw, 0, sizeof *pw); /* never half a cost */
  return -1;
}
