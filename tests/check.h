/* What the unit tests of the analysis share (test_validation, test_launches,
 * test_drift), besides tests/assert.h: a tolerance and the report text. */
#ifndef COLLSIM_TESTS_CHECK_H
#define COLLSIM_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "assert.h"
#include "validation.h"

/* Equal to 1e-12 relative (1e-15 absolute near zero). */
static int near(double a, double b) { return fabs(a - b) <= 1e-12 * fabs(b) + 1e-15; }

/* The Markdown report of V (cs_val_report), in a static buffer; NULL on failure. */
static const char *report_text(const cs_val_set *V, const cs_val_info *I) {
  static char text[1 << 16];
  char path[] = "/tmp/collsim_report_XXXXXX";
  int fd = mkstemp(path);
  FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
  ASSERT(f != NULL, "temporary file");
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
