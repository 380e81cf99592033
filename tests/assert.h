/* The one assertion header of collsim's C tests (libuv's ASSERT_EQ style).
 *
 * Each macro checks one thing and, when it fails, prints the file and line,
 * the expression as written and the values of both sides, then continues
 * (a test reports every failure, not only the first):
 *
 *   tests/test_sizes.c:21: FAIL cs_size_elems(CS_allreduce, 7, 1001, 4) == 250
 *     cs_size_elems(CS_allreduce, 7, 1001, 4) = 251, 250 = 250
 *     where p=7
 *
 *   ASSERT(cond)                      true
 *   ASSERT_EQ(a, b)  ASSERT_NE(a, b)  integers (as long long)
 *   ASSERT_LT ASSERT_LE ASSERT_GT ASSERT_GE
 *   ASSERT_DBL_EQ(a, b)               doubles, bit for bit equal values
 *   ASSERT_NEAR(a, b, rel)            doubles: |a - b| <= rel |b| (b = 0: |a| <= rel)
 *   ASSERT_STR_EQ(a, b)               strings (NULL is a value, printed as such)
 *
 * Every macro takes an optional printf format and arguments after its
 * operands, printed as "where ..." under a failure (ASSERT(ok, "p=%d", p)).
 * main ends with `return cs_test_end();`: it prints "N checks, M failed"
 * and returns 1 if any check failed, else 0. After 50 failures only the
 * count goes on. The header is valid C11 without extensions (-pedantic).
 */
#ifndef COLLSIM_TESTS_ASSERT_H
#define COLLSIM_TESTS_ASSERT_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long cs_test_checks, cs_test_failed;

/* Counts a check; 1 iff it failed and is to be printed (its first line is). */
static inline int cs_test_begin(int ok, const char *file, int line, const char *expr) {
  cs_test_checks++;
  if (ok) return 0;
  if (++cs_test_failed > 50) return 0;
  fprintf(stderr, "%s:%d: FAIL %s\n", file, line, expr);
  return 1;
}

/* The optional "where" line (fmt "" prints nothing; extra arguments, such as
 * the "" every macro appends, are ignored as printf ignores them). */
static inline void cs_test_where(const char *fmt, ...) {
  if (!fmt || !*fmt) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("  where ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* A list of p such as 2-33,48,64 into ps (at most max); the count, or -1 if
 * malformed (the test programs' P_LIST argument). */
static inline int cs_test_plist(const char *s, int *ps, int max) {
  int n = 0;
  while (*s && n < max) {
    char *end;
    long a = strtol(s, &end, 10), b = a;
    if (end == s) return -1;
    if (*end == '-') b = strtol(end + 1, &end, 10);
    for (long p = a; p <= b && n < max; p++) ps[n++] = (int)p;
    s = *end == ',' ? end + 1 : end;
  }
  return n;
}

static inline int cs_test_end(void) {
  printf("%ld checks, %ld failed\n", cs_test_checks, cs_test_failed);
  fflush(stdout);
  return cs_test_failed ? 1 : 0;
}

#define ASSERT(...) CS_TEST_TRUE_(__VA_ARGS__, "")
#define CS_TEST_TRUE_(cond, ...)                                                        \
  do {                                                                                  \
    if (cs_test_begin(!!(cond), __FILE__, __LINE__, #cond)) cs_test_where(__VA_ARGS__); \
  } while (0)

#define CS_TEST_INT_(a, op, b, ...)                                             \
  do {                                                                          \
    long long cs_a_ = (long long)(a), cs_b_ = (long long)(b);                   \
    if (cs_test_begin(cs_a_ op cs_b_, __FILE__, __LINE__, #a " " #op " " #b)) { \
      fprintf(stderr, "  %s = %lld, %s = %lld\n", #a, cs_a_, #b, cs_b_);        \
      cs_test_where(__VA_ARGS__);                                               \
    }                                                                           \
  } while (0)
#define ASSERT_EQ(...)             CS_TEST_INT_EQ_(__VA_ARGS__, "")
#define ASSERT_NE(...)             CS_TEST_INT_NE_(__VA_ARGS__, "")
#define ASSERT_LT(...)             CS_TEST_INT_LT_(__VA_ARGS__, "")
#define ASSERT_LE(...)             CS_TEST_INT_LE_(__VA_ARGS__, "")
#define ASSERT_GT(...)             CS_TEST_INT_GT_(__VA_ARGS__, "")
#define ASSERT_GE(...)             CS_TEST_INT_GE_(__VA_ARGS__, "")
#define CS_TEST_INT_EQ_(a, b, ...) CS_TEST_INT_(a, ==, b, __VA_ARGS__)
#define CS_TEST_INT_NE_(a, b, ...) CS_TEST_INT_(a, !=, b, __VA_ARGS__)
#define CS_TEST_INT_LT_(a, b, ...) CS_TEST_INT_(a, <, b, __VA_ARGS__)
#define CS_TEST_INT_LE_(a, b, ...) CS_TEST_INT_(a, <=, b, __VA_ARGS__)
#define CS_TEST_INT_GT_(a, b, ...) CS_TEST_INT_(a, >, b, __VA_ARGS__)
#define CS_TEST_INT_GE_(a, b, ...) CS_TEST_INT_(a, >=, b, __VA_ARGS__)

#define ASSERT_DBL_EQ(...) CS_TEST_DBL_EQ_(__VA_ARGS__, "")
#define CS_TEST_DBL_EQ_(a, b, ...)                                         \
  do {                                                                     \
    double cs_a_ = (a), cs_b_ = (b);                                       \
    if (cs_test_begin(cs_a_ == cs_b_, __FILE__, __LINE__, #a " == " #b)) { \
      fprintf(stderr, "  %s = %.17g, %s = %.17g\n", #a, cs_a_, #b, cs_b_); \
      cs_test_where(__VA_ARGS__);                                          \
    }                                                                      \
  } while (0)

#define ASSERT_NEAR(...) CS_TEST_NEAR_(__VA_ARGS__, "")
#define CS_TEST_NEAR_(a, b, rel, ...)                                                             \
  do {                                                                                            \
    double cs_a_ = (a), cs_b_ = (b), cs_r_ = (rel);                                               \
    int cs_ok_ = cs_b_ != 0 ? fabs(cs_a_ - cs_b_) <= cs_r_ * fabs(cs_b_) : fabs(cs_a_) <= cs_r_;  \
    if (cs_test_begin(cs_ok_, __FILE__, __LINE__, #a " ~= " #b)) {                                \
      fprintf(stderr, "  %s = %.17g, %s = %.17g, relative difference %.3g > %g\n", #a, cs_a_, #b, \
              cs_b_, cs_b_ != 0 ? fabs(cs_a_ - cs_b_) / fabs(cs_b_) : fabs(cs_a_), cs_r_);        \
      cs_test_where(__VA_ARGS__);                                                                 \
    }                                                                                             \
  } while (0)

#define ASSERT_STR_EQ(...) CS_TEST_STR_EQ_(__VA_ARGS__, "")
#define CS_TEST_STR_EQ_(a, b, ...)                                              \
  do {                                                                          \
    const char *cs_a_ = (a), *cs_b_ = (b);                                      \
    int cs_ok_ = cs_a_ && cs_b_ ? !strcmp(cs_a_, cs_b_) : cs_a_ == cs_b_;       \
    if (cs_test_begin(cs_ok_, __FILE__, __LINE__, #a " == " #b)) {              \
      fprintf(stderr, "  %s = %s%s%s\n  %s = %s%s%s\n", #a, cs_a_ ? "\"" : "",  \
              cs_a_ ? cs_a_ : "NULL", cs_a_ ? "\"" : "", #b, cs_b_ ? "\"" : "", \
              cs_b_ ? cs_b_ : "NULL", cs_b_ ? "\"" : "");                       \
      cs_test_where(__VA_ARGS__);                                               \
    }                                                                           \
  } while (0)

#endif
