/* The checks of the unit tests of the analysis (test_validation, test_launches):
 * each prints ok or FAIL with what it checks; main returns fails ? 1 : 0. */
#ifndef COLLSIM_TESTS_CHECK_H
#define COLLSIM_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "validation.h"

static int fails, checks;

static void check(int ok, const char *what) {
  checks++;
  if (!ok) fails++;
  printf("%s %s\n", ok ? "ok  " : "FAIL", what);
}

/* Equal to 1e-12 relative (1e-15 absolute near zero). */
static int near(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b) + 1e-15; }

/* The Markdown report of V (cs_val_report), in a static buffer; NULL on failure. */
static const char *report_text(const cs_val_set *V, const cs_val_info *I) {
  static char text[1 << 16];
  char path[] = "/tmp/collsim_report_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
  check(f != NULL, "temporary file");
  if (!f) return NULL;
  cs_val_report(f, V, I);
  fflush(f);
  rewind(f);
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = '\0';
  fclose(f);
  remove(path);
  return text;
}

#endif
