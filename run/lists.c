/* The lists that options take: sizes and process counts (run/lists.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lists.h"
#include "sizes.h"
#include "units.h"

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

/* The largest size --bytes takes (sizes are counted in longs; the limit of
 * one call, MPI's int count, is checked by the run against the datatype:
 * run/bench.c). */
#define CS_MAX_BYTES 4000000000.0

/* One size (platforms/units.h, the one size parser): 0, -1 (not a size) or
 * -2 (above CS_MAX_BYTES). */
static int parse_size(const char *s, const char **end, long *v) {
  double x;
  if (cs_parse_bytes(s, end, &x)) return -1;
  if (x > CS_MAX_BYTES) return -2;
  *v = (long)x;
  return 0;
}

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return x < y ? -1 : x > y;
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
    const char *range = p;
    if (*e == '-') {
      if ((r = parse_size(e + 1, &e, &b)) != 0 || b < a) goto bad;
      if (*e == ':') {
        if (e[1] == 'x' || e[1] == '*') {
          char *q;
          factor = strtod(e + 2, &q);
          if (q == e + 2 || factor <= 1) goto bad;
          e = q;
        } else if (e[1] == '+') { /* a step is a size too: 0-4K:+1K */
          const char *q;
          if (cs_parse_bytes(e + 2, &q, &step) || step < 1) goto bad;
          e = q;
        } else
          goto bad;
      }
      if (a == 0 && step == 0) goto bad; /* 0 x f never grows */
    }
    /* A, A F, A F^2, ... (or A, A + S, ...) up to B: B is the last size when
     * it lies on the step, and is left out otherwise (said below). */
    long last = a;
    for (double v = (double)a; v <= (double)b + 0.5; v = step > 0 ? v + step : v * factor) {
      if (n == max) {
        fprintf(stderr, "collsim: --bytes %s: too many sizes (at most %d)\n", s, max);
        return -1;
      }
      out[n++] = last = (long)(v + 0.5);
      if (a == b) break;
    }
    if (last != b) {
      const char *to = strchr(range, '-') + 1;
      size_t tl = strcspn(to, ":,");
      char l[32];
      fprintf(stderr,
              "collsim: note: --bytes %.*s ends at %s: %.*s is not on the range's step; add "
              ",%.*s to include it\n",
              (int)(e - range), range, cs_size_str((double)last, l, sizeof l), (int)tl, to, (int)tl,
              to);
    }
    if (*e == ',')
      e++;
    else if (*e)
      goto bad;
    p = e;
  }
  if (n == 0) goto bad;
  /* Sizes run in ascending order, each once. */
  qsort(out, (size_t)n, sizeof *out, cmp_long);
  int k = 0;
  for (int i = 0; i < n; i++)
    if (k == 0 || out[i] != out[k - 1]) out[k++] = out[i];
  return k;
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
