#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "platgen.h"

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
    if (*end == ',') end++;
    else if (*end) goto bad;
    p = end;
  }
  if (n == 0) goto bad;
  return n;
bad:
  fprintf(stderr, "collsim: --np '%s': expected a number, a range A-B or a list of them (e.g. 1-40,48,64)\n", s);
  return -1;
}

int cs_write_check_platform(const char *dir, int np, char *xml, char *hostfile, size_t len) {
  /* Correctness runs: a contention-free abg platform, one rank per host. */
  snprintf(xml, len, "%s/check-%d.xml", dir, np);
  snprintf(hostfile, len, "%s/check-%d.hosts", dir, np);
  cs_platform pl;
  char err[256];
  if (cs_platform_init("abg", &pl, err, sizeof err)) {
    fprintf(stderr, "collsim: %s\n", err);
    return -1;
  }
  pl.np = np;
  pl.nodes = np;
  pl.ppn = 1;
  if (cs_platform_check(&pl, err, sizeof err)) {
    fprintf(stderr, "collsim: %s\n", err);
    return -1;
  }
  FILE *f = fopen(xml, "w"), *h = fopen(hostfile, "w");
  int rc = f && h ? cs_platform_write(f, h, &pl) : -1;
  if (f) fclose(f);
  if (h) fclose(h);
  if (rc) fprintf(stderr, "collsim: cannot write a platform in %s\n", dir);
  return rc;
}
