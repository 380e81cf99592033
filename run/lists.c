/* The lists that options take: sizes and process counts (run/lists.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lists.h"

int cs_parse_np_list(const char *s, int *out, int max) {
  int n = 0;
  const char *p = s;
  while (*p) {
    char *end;
    long a = strtol(p, &end, 10), b = a;
    if (end == p) goto bad;
    if (*end == '-') {
      const char *q = end + 1;
      b = strtol(q, &end, 10);
      if (end == q) goto bad;
    }
    if (a < 1 || b < a || b > 1000000) {
      fprintf(stderr, "collsim: --np %s: process counts must be >= 1 and ranges ascending\n", s);
      return -1;
    }
    for (long v = a; v <= b; v++) {
      if (n == max) {
        fprintf(stderr, "collsim: --np %s: too many values (at most %d)\n", s, max);
        return -1;
      }
      out[n++] = (int)v;
    }
    if (*end == ',')
      end++;
    else if (*end)
      goto bad;
    p = end;
  }
  if (n == 0) goto bad;
  return n;
bad:
  fprintf(
      stderr,
      "collsim: --np '%s': expected a number, a range A-B or a list of them (e.g. 1-40,48,64)\n",
      s);
  return -1;
}

/* The largest size --bytes takes (sizes are counted in longs, but a call's
 * count is a C int and the driver's buffers are allocated whole). */
#define CS_MAX_BYTES 4000000000.0

/* One size: digits with an optional binary suffix K, M, G (KiB, MiB, GiB)
 * and an optional trailing B. Returns 0, -1 (not a size) or -2 (above
 * CS_MAX_BYTES). */
static int parse_size(const char *s, const char **end, long *v) {
  char *e;
  double x = strtod(s, &e);
  if (e == s || x < 0) return -1;
  double mul = 1;
  if (*e == 'K' || *e == 'k')
    mul = 1024, e++;
  else if (*e == 'M' || *e == 'm')
    mul = 1048576, e++;
  else if (*e == 'G' || *e == 'g')
    mul = 1073741824.0, e++;
  if (*e == 'i' && e[1] == 'B')
    e += 2;
  else if (*e == 'B')
    e++;
  x *= mul;
  if (x > CS_MAX_BYTES) return -2;
  if (x != (double)(long)x) return -1;
  *v = (long)x;
  *end = e;
  return 0;
}

int cs_parse_sizes(const char *s, long *out, int max) {
  int n = 0, r = 0;
  const char *p = s;
  while (*p) {
    long a, b;
    const char *e;
    if ((r = parse_size(p, &e, &a)) != 0) goto bad;
    b = a;
    double factor = 2, step = 0;
    if (*e == '-') {
      if ((r = parse_size(e + 1, &e, &b)) != 0 || b < a) goto bad;
      if (*e == ':') {
        char *q;
        if (e[1] == 'x' || e[1] == '*') {
          factor = strtod(e + 2, &q);
          if (q == e + 2 || factor <= 1) goto bad;
        } else if (e[1] == '+') {
          step = strtod(e + 2, &q);
          if (q == e + 2 || step < 1) goto bad;
        } else
          goto bad;
        e = q;
      }
      if (a == 0 && step == 0) goto bad; /* 0 x f never grows */
    }
    for (double v = (double)a; v <= (double)b + 0.5; v = step > 0 ? v + step : v * factor) {
      if (n == max) {
        fprintf(stderr, "collsim: --bytes %s: too many sizes (at most %d)\n", s, max);
        return -1;
      }
      out[n++] = (long)(v + 0.5);
      if (a == b) break;
    }
    if (*e == ',')
      e++;
    else if (*e)
      goto bad;
    p = e;
  }
  if (n == 0) goto bad;
  return n;
bad:
  if (r == -2) {
    fprintf(stderr,
            "collsim: --bytes '%s': a size is above the limit of %.0f bytes (3.72 GiB; 3G "
            "is the largest G size)\n",
            s, CS_MAX_BYTES);
    return -1;
  }
  fprintf(stderr,
          "collsim: --bytes '%s': expected sizes in bytes with optional suffix K, M, G "
          "(binary), ranges A-B[:xF|:+S] (default :x2), comma separated, e.g. 8,1K,1-16M:x4\n",
          s);
  return -1;
}
