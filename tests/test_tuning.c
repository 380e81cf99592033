/* The tuning files (tuning/, docs/tuning.md), without any MPI library:
 *  - the ranges a winners fixture becomes (geometric midpoints, merging);
 *  - every emitted format read back the way its library reads it and asked
 *    for a grid of (p, m): collsim's table (cs_tuning_load/pick), Open MPI
 *    4.1's classic rules (numbers with '#' comments; the communicator rule
 *    of the largest size <= p, the message rule of the largest size <= m),
 *    Open MPI 6.0's JSON (first match of comm_size_min..max, then of
 *    msg_size_min..max) and MPICH's selection JSON (the decision tree of
 *    src/mpi/coll/src/csel.c, with its structural rules: top-level
 *    collective=, an algorithm= key alone in its object with an object
 *    value, every chain of comparisons ending with a =any sibling, sizes that
 *    fit an int); each must give the algorithm of the winner that holds the
 *    point;
 *  - every kind of broken collsim table is one error naming file and line;
 *  - a winner without a counterpart is an error naming it.
 *
 *   test_tuning [FIXTURES_DIR WORK_DIR]   (default: tests/fixtures, a temporary folder)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tuning/tuning.h"
#include "assert.h"

static const char *fixtures, *work;

static int ompi_id(cs_coll c, const char *winner) { return cs_tuning_ompi_alg(c, winner); }
static const char *mpich_name(cs_coll c, const char *winner) {
  return cs_tuning_mpich_alg(c, winner);
}
#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The winner the ranges give to (c, p, m), or NULL. */
static const char *winner_at(const cs_tuning_rule *ru, int n, cs_coll c, long long p, long long m) {
  for (int i = 0; i < n; i++)
    if (ru[i].coll == c && p >= ru[i].p_lo && (ru[i].p_hi < 0 || p <= ru[i].p_hi) &&
        m >= ru[i].b_lo && (ru[i].b_hi < 0 || m <= ru[i].b_hi))
      return ru[i].algo;
  return NULL;
}

/* ---- a small JSON reader (objects keep their order) -------------------------- */

typedef struct json {
  enum { J_OBJ, J_ARR, J_STR, J_NUM, J_LIT } t;
  int n;
  char **keys;
  struct json **v;
  char *s;
  double num;
} json;

static const char *ws(const char *p) {
  while (isspace((unsigned char)*p)) p++;
  return p;
}

static json *jparse(const char **pp);
static char *jstr(const char **pp) {
  const char *p = *pp + 1, *q = p;
  while (*q && *q != '"') q += *q == '\\' ? 2 : 1;
  if (*q != '"') return NULL;
  char *s = strndup(p, (size_t)(q - p));
  *pp = q + 1;
  return s;
}
static json *jparse(const char **pp) {
  const char *p = ws(*pp);
  json *j = calloc(1, sizeof *j);
  if (*p == '{' || *p == '[') {
    int obj = *p == '{';
    j->t = obj ? J_OBJ : J_ARR;
    p = ws(p + 1);
    while (*p != (obj ? '}' : ']')) {
      char *key = NULL;
      if (obj) {
        if (*p != '"' || !(key = jstr(&p))) return NULL;
        p = ws(p);
        if (*p++ != ':') return NULL;
      }
      json *v = jparse(&p);
      if (!v) return NULL;
      j->keys = realloc(j->keys, (size_t)(j->n + 1) * sizeof *j->keys);
      j->v = realloc(j->v, (size_t)(j->n + 1) * sizeof *j->v);
      j->keys[j->n] = key;
      j->v[j->n++] = v;
      p = ws(p);
      if (*p == ',')
        p = ws(p + 1);
      else if (*p != (obj ? '}' : ']'))
        return NULL;
    }
    *pp = p + 1;
    return j;
  }
  if (*p == '"') {
    j->t = J_STR;
    if (!(j->s = jstr(&p))) return NULL;
    *pp = p;
    return j;
  }
  char *end;
  j->num = strtod(p, &end);
  if (end != p) {
    j->t = J_NUM;
    *pp = end;
    return j;
  }
  return NULL;
}

static json *jload(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  static char buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char *p = buf;
  json *j = jparse(&p);
  return j && !*ws(p) ? j : NULL;
}

static json *jget(const json *j, const char *key) {
  for (int i = 0; j && j->t == J_OBJ && i < j->n; i++)
    if (!strcmp(j->keys[i], key)) return j->v[i];
  return NULL;
}

/* An int or "inf" (-1). */
static long long jint(const json *j) {
  if (!j) return -2;
  if (j->t == J_STR && !strcmp(j->s, "inf")) return -1;
  return j->t == J_NUM ? (long long)j->num : -2;
}

/* ---- Open MPI 4.1's classic rules file, read as coll/tuned reads it ------------ */

typedef struct {
  long id, ncs;
  long cs[64], nms[64], ms[64][64], alg[64][64];
} ompi_coll_rules;

/* The next number: fscanf("%li"), skipping what is not a number and, after
 * '#', the rest of the line (ompi_coll_base_file_getnext_long). */
static int getnext(FILE *f, long *v) {
  for (;;) {
    int rc = fscanf(f, "%li", v);
    if (rc == EOF) return -1;
    if (rc == 1) return 0;
    int c = fgetc(f);
    if (c == EOF) return -1;
    if (c == '#')
      while ((c = fgetc(f)) != EOF && c != '\n') {}
  }
}

static int read_classic(const char *path, ompi_coll_rules *r, int max) {
  FILE *f = fopen(path, "r");
  long ncoll, x;
  if (!f || getnext(f, &ncoll) || ncoll > max) return -1;
  for (int c = 0; c < ncoll; c++) {
    if (getnext(f, &r[c].id) || getnext(f, &r[c].ncs) || r[c].ncs > 64) return -1;
    for (int k = 0; k < r[c].ncs; k++) {
      if (getnext(f, &r[c].cs[k]) || getnext(f, &r[c].nms[k]) || r[c].nms[k] > 64) return -1;
      for (int m = 0; m < r[c].nms[k]; m++) {
        if (getnext(f, &r[c].ms[k][m]) || getnext(f, &r[c].alg[k][m]) || getnext(f, &x) ||
            getnext(f, &x))
          return -1;
        if (m == 0 && r[c].ms[k][m] != 0) return -1; /* Open MPI: a rule from size 0 first */
      }
    }
  }
  long extra;
  int rest = getnext(f, &extra);
  fclose(f);
  return rest == 0 ? -1 : (int)ncoll; /* nothing after the last rule */
}

/* coll/tuned's choice: the communicator rule with the largest size <= p
 * (the first if none), then the message rule with the largest size <= m. */
static long classic_alg(const ompi_coll_rules *r, int ncoll, long id, long long p, long long m) {
  for (int c = 0; c < ncoll; c++) {
    if (r[c].id != id) continue;
    int k = 0;
    while (k + 1 < r[c].ncs && r[c].cs[k + 1] <= p) k++;
    int best = 0;
    for (int i = 0; i < r[c].nms[k] && r[c].ms[k][i] <= m; i++) best = i;
    return r[c].alg[k][best];
  }
  return -1;
}

static long json_alg(const json *root, const char *coll, long long p, long long m) {
  const json *arr = jget(jget(root, "collectives"), coll);
  for (int i = 0; arr && i < arr->n; i++) {
    const json *cr = arr->v[i];
    long long lo = jint(jget(cr, "comm_size_min")), hi = jint(jget(cr, "comm_size_max"));
    if (p < lo || (hi >= 0 && p > hi)) continue;
    const json *rules = jget(cr, "rules");
    for (int k = 0; rules && k < rules->n; k++) {
      long long ml = jint(jget(rules->v[k], "msg_size_min")),
                mh = jint(jget(rules->v[k], "msg_size_max"));
      if (m >= ml && (mh < 0 || m <= mh)) return (long)jint(jget(rules->v[k], "alg"));
    }
    return 0;
  }
  return 0;
}

/* ---- MPICH's selection tree ------------------------------------------------- */

static int is_any(const char *k) {
  size_t l = strlen(k);
  return !strcmp(k, "any") || (l >= 4 && !strcmp(k + l - 4, "=any"));
}

/* csel's structural rules, from one object down; coll: the collective. */
static void mpich_check(const json *o, const char *coll, int depth) {
  ASSERT(o && o->t == J_OBJ, "depth %d of %s: not an object", depth, coll);
  if (!o || o->t != J_OBJ) return;
  for (int i = 0; i < o->n; i++) {
    const char *k = o->keys[i];
    if (!strncmp(k, "algorithm=", 10)) {
      ASSERT_EQ(o->n, 1, "an algorithm= key of %s shares its object (csel reads only it)", coll);
      ASSERT(o->v[i]->t == J_OBJ && o->v[i]->n == 0, "algorithm %s: value not {}", k);
      char pre[64];
      snprintf(pre, sizeof pre, "algorithm=MPIR_%c%s_", toupper((unsigned char)coll[0]), coll + 1);
      ASSERT(!strncmp(k, pre, strlen(pre)), "%s is not an algorithm of %s", k, coll);
      continue;
    }
    int cmp = !strncmp(k, "comm_size<=", 11) || !strncmp(k, "avg_msg_size<=", 14) ||
              !strncmp(k, "total_msg_size<=", 16);
    int known = cmp || is_any(k) || !strcmp(k, "comm_type=intra") || !strcmp(k, "comm_type=inter");
    ASSERT(known, "key '%s' of %s is not one the emitter should write", k, coll);
    if (cmp) {
      long long v = atoll(strchr(k, '=') + 1);
      ASSERT(v >= 0 && v <= 2147483647LL, "%s: not an int", k);
      ASSERT(i + 1 < o->n, "%s of %s: no failure path (csel needs a =any sibling after it)", k,
             coll);
      if (i > 0 && !is_any(o->keys[i - 1]) && strncmp(o->keys[i - 1], "comm_type", 9))
        ASSERT_LT(atoll(strchr(o->keys[i - 1], '=') + 1), v, "%s after %s", k, o->keys[i - 1]);
      if (!strncmp(k, "avg_msg_size", 12))
        ASSERT(!strcmp(coll, "allreduce") || !strcmp(coll, "reduce") || !strcmp(coll, "bcast"),
               "avg_msg_size is m only for allreduce, reduce, bcast in csel, not %s", coll);
    }
    if (is_any(k)) ASSERT_EQ(i, o->n - 1, "'%s' of %s is not the last key", k, coll);
    mpich_check(o->v[i], coll, depth + 1);
  }
}

/* The algorithm csel picks for an intracommunicator of p processes and size m. */
static const char *mpich_pick(const json *o, long long p, long long m) {
  while (o && o->t == J_OBJ && o->n > 0) {
    int next = -1;
    for (int i = 0; i < o->n && next < 0; i++) {
      const char *k = o->keys[i];
      if (!strncmp(k, "algorithm=", 10)) return k + 10;
      if (is_any(k) || !strcmp(k, "comm_type=intra"))
        next = i;
      else if (!strncmp(k, "comm_size<=", 11) && p <= atoll(k + 11))
        next = i;
      else if (!strncmp(k, "avg_msg_size<=", 14) && m <= atoll(k + 14))
        next = i;
      else if (!strncmp(k, "total_msg_size<=", 16) && m <= atoll(k + 16))
        next = i;
    }
    if (next < 0) return NULL;
    o = o->v[next];
  }
  return NULL;
}

/* ---- the checks --------------------------------------------------------------- */

static const long long P[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 15, 16, 17, 33, 64, 100, 1000};
static const long long M[] = {0,      1,      7,       8,       9,        90,    91,
                              1023,   1024,   8191,    8192,    8193,     65535, 65536,
                              262143, 262144, 1048576, 1048577, 1LL << 30};

static void path(char *buf, size_t n, const char *dir, const char *name) {
  snprintf(buf, n, "%s/%s", dir, name);
}

/* Emits winners as kind, reads it back as its library does, and compares
 * every (collective, p, m) of the grid with the ranges. */
static void formats(const char *fixture) {
  char win[1024], out[1024], err[2048];
  path(win, sizeof win, fixtures, fixture);
  cs_tuning_rule *ru;
  int n = cs_tuning_ranges(win, &ru, err, sizeof err);
  ASSERT_GT(n, 0, "%s: %s", fixture, err);
  if (n <= 0) return;
  static const char *kinds[] = {"collsim", "ompi-rules", "ompi-json", "mpich-json"};
  for (int k = 0; k < 4; k++) {
    char spec[1200];
    snprintf(out, sizeof out, "%s/%s.%s", work, fixture, kinds[k]);
    snprintf(spec, sizeof spec, "%s:%s", kinds[k], out);
    int ok = 1; /* does every winner of the file map to this target? */
    for (int i = 0; i < n; i++) {
      const char *a = ru[i].algo;
      if (k == 0) ok &= !strchr(a, ':') || !strncmp(a, "lib:", 4);
      if (k == 1 || k == 2) ok &= ompi_id(ru[i].coll, a) >= 0;
      if (k == 3) ok &= mpich_name(ru[i].coll, a) != NULL;
    }
    int rc = cs_tuning_emit(win, spec, err, sizeof err);
    ASSERT_EQ(rc, ok ? 0 : -1, "%s -> %s: %s", fixture, kinds[k], rc ? err : "written");
    if (rc) {
      ASSERT(strstr(err, "has no") || strstr(err, "not an algorithm"), "%s", err);
      continue;
    }
    cs_tuning_table *t = NULL;
    ompi_coll_rules classic[16];
    int ncl = 0;
    json *js = NULL;
    if (k == 0) ASSERT_EQ(cs_tuning_load(out, &t, err, sizeof err), 0, "%s", err);
    if (k == 1) ASSERT_GT(ncl = read_classic(out, classic, 16), 0, "%s: unreadable", out);
    if (k >= 2) ASSERT(js = jload(out), "%s: not JSON", out);
    if (k == 3 && js)
      for (int c = 0; c < js->n; c++) {
        ASSERT(!strncmp(js->keys[c], "collective=", 11), "top-level key %s", js->keys[c]);
        mpich_check(js->v[c], js->keys[c] + 11, 0);
      }
    for (int c = 0; c < CS_NCOLL; c++)
      for (int i = 0; i < N(P); i++)
        for (int j = 0; j < N(M); j++) {
          const char *w = winner_at(ru, n, (cs_coll)c, P[i], M[j]);
          if (!w) continue;
          const char *oname = NULL;
          int per_process = 0, oid = cs_tuning_ompi_coll((cs_coll)c, &oname, &per_process);
          long long om = per_process ? M[j] / P[i] : M[j];
          if (k == 0) {
            int rule;
            const cs_algo_info *a = cs_tuning_pick(t, (cs_coll)c, P[i], M[j], &rule);
            const char *want = strncmp(w, "lib:", 4) ? w : "native";
            ASSERT_STR_EQ(a ? a->name : NULL, want, "collsim %s p=%lld m=%lld", cs_colls[c].name,
                          P[i], M[j]);
          } else if (k == 1) {
            ASSERT_EQ(classic_alg(classic, ncl, oid, P[i], om), ompi_id((cs_coll)c, w),
                      "ompi-rules %s p=%lld m=%lld winner %s", cs_colls[c].name, P[i], M[j], w);
          } else if (k == 2 && js) {
            ASSERT_EQ(json_alg(js, oname, P[i], om), ompi_id((cs_coll)c, w),
                      "ompi-json %s p=%lld m=%lld winner %s", cs_colls[c].name, P[i], M[j], w);
          } else if (k == 3 && js) {
            char key[64];
            snprintf(key, sizeof key, "collective=%s", cs_colls[c].name);
            ASSERT_STR_EQ(mpich_pick(jget(js, key), P[i], M[j]), mpich_name((cs_coll)c, w),
                          "mpich-json p=%lld m=%lld winner %s", P[i], M[j], w);
          }
        }
    cs_tuning_free(t);
  }
  free(ru);
}

/* The ranges of the collsim fixture, by hand: p = 2, 4, 8 and 8 B .. 1 MiB
 * at x128 steps; thresholds at the geometric midpoints. */
static void ranges(void) {
  char win[1024], err[1024];
  path(win, sizeof win, fixtures, "winners_collsim.csv");
  cs_tuning_rule *ru;
  int n = cs_tuning_ranges(win, &ru, err, sizeof err);
  ASSERT_EQ(n, 7, "%s", err);
  if (n != 7) return;
  /* p 2 and 4 merge (same winners); 4 | 8 at ceil(sqrt(32)) = 6; 1 KiB |
   * 64 KiB at 8192; 64 KiB | 1 MiB at 262144. */
  const cs_tuning_rule want[7] = {
      {CS_allreduce, 1, 5, 0, 8191, "butterfly", 0},
      {CS_allreduce, 1, 5, 8192, CS_TUNING_INF, "circulant", 0},
      {CS_allreduce, 6, CS_TUNING_INF, 0, 8191, "butterfly", 0},
      {CS_allreduce, 6, CS_TUNING_INF, 8192, 262143, "circulant", 0},
      {CS_allreduce, 6, CS_TUNING_INF, 262144, CS_TUNING_INF, "native", 0},
      {CS_reduce, 1, CS_TUNING_INF, 0, CS_TUNING_INF, "circulant", 0},
      {CS_bcast, 1, CS_TUNING_INF, 0, CS_TUNING_INF, "binomial", 0}};
  for (int i = 0; i < 7; i++) {
    ASSERT_EQ(ru[i].coll, want[i].coll, "rule %d", i);
    ASSERT_EQ(ru[i].p_lo, want[i].p_lo, "rule %d", i);
    ASSERT_EQ(ru[i].p_hi, want[i].p_hi, "rule %d", i);
    ASSERT_EQ(ru[i].b_lo, want[i].b_lo, "rule %d", i);
    ASSERT_EQ(ru[i].b_hi, want[i].b_hi, "rule %d", i);
    ASSERT_STR_EQ(ru[i].algo, want[i].algo, "rule %d", i);
  }
  free(ru);
}

/* Broken collsim tables: one error, naming the line and what is valid. */
static void broken(void) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"", "empty: no version line"},
      {"allreduce 1 inf 0 inf butterfly\n", ":1: expected the version line"},
      {"collsim-tuning 2\n", ":1: version 2 is not one this library reads"},
      {"collsim-tuning 1\nallreduce 1 inf 0 inf\n", ":2: 5 fields"},
      {"collsim-tuning 1\nallreduc 1 inf 0 inf butterfly\n", ":2: unknown collective 'allreduc'"},
      {"collsim-tuning 1\nallreduce 1 inf 0 1K butterfly\n", ":2: P_MIN, P_MAX, BYTES_MIN"},
      {"collsim-tuning 1\nallreduce 0 inf 0 inf butterfly\n", ":2: empty range"},
      {"collsim-tuning 1\nallreduce 4 2 0 inf butterfly\n", ":2: empty range"},
      {"collsim-tuning 1\nallreduce 1 inf 0 inf circulnat\n",
       ":2: 'circulnat' is not an algorithm of allreduce"},
      {"collsim-tuning 1\nallreduce 1 inf 0 inf native:rdb\n",
       ":2: 'native:rdb' is not an algorithm of allreduce"},
      {"collsim-tuning 1\nallreduce 1 inf 0 inf bruck\n",
       "'bruck' is not an algorithm of allreduce"},
      {"collsim-tuning 1\ngatherv 1 inf 0 1024 circulant\n", ":2: gatherv: a rule must hold every"},
      {"collsim-tuning 1\nallreduce 1 8 0 4096 butterfly\nallreduce 8 inf 4096 inf circulant\n",
       ":3: allreduce rule (p 8..inf, bytes 4096..inf) overlaps the rule of line 2"},
  };
  for (int i = 0; i < N(cases); i++) {
    char f[1024], err[1024] = "";
    snprintf(f, sizeof f, "%s/broken%d", work, i);
    FILE *o = fopen(f, "w");
    fputs(cases[i].text, o);
    fclose(o);
    cs_tuning_table *t = (cs_tuning_table *)1;
    ASSERT_EQ(cs_tuning_load(f, &t, err, sizeof err), -1, "case %d", i);
    ASSERT(t == NULL, "case %d: a table was returned", i);
    ASSERT(strstr(err, cases[i].want) != NULL, "case %d: '%s' does not say '%s'", i, err,
           cases[i].want);
  }
  /* A good table with gaps, comments, native and gatherv over every size. */
  char f[1024], err[1024] = "";
  snprintf(f, sizeof f, "%s/good", work);
  FILE *o = fopen(f, "w");
  fputs(
      "# a table\n\ncollsim-tuning 1  # version\nallreduce 1 8 0 4095 butterfly\n"
      "allreduce 9 inf 4096 inf native\ngatherv 1 inf 0 inf circulant\n",
      o);
  fclose(o);
  cs_tuning_table *t = NULL;
  ASSERT_EQ(cs_tuning_load(f, &t, err, sizeof err), 0, "%s", err);
  int rule;
  const cs_algo_info *a = cs_tuning_pick(t, CS_allreduce, 8, 4095, &rule);
  ASSERT_STR_EQ(a ? a->name : NULL, "butterfly");
  ASSERT_EQ(rule, 0);
  ASSERT(cs_tuning_pick(t, CS_allreduce, 8, 4096, &rule) == NULL && rule == -1, "a gap");
  a = cs_tuning_pick(t, CS_allreduce, 100, 1 << 20, &rule);
  ASSERT(a && (a->flags & CS_NATIVE), "native rule");
  ASSERT(cs_tuning_covers(t, CS_gatherv) && !cs_tuning_covers(t, CS_reduce), "covers");
  cs_tuning_free(t);
}

/* Winners files that are not: one error naming the file, line and fault. */
static void bad_winners(void) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"# only comments\n", "no winners"},
      {"coll,p,bytes,algo\nallreduce,2,8,butterfly\n", "not a winners file"},
      {"coll,p,bytes,winner\nallreduce,0,8,butterfly\n", ":2: p '0' is not a process count"},
      {"coll,p,bytes,winner\nallreduce,2,-8,butterfly\n", ":2: bytes '-8' is not a size"},
      {"coll,p,bytes,winner\nallreduc,2,8,butterfly\n", ":2: unknown collective 'allreduc'"},
      {"coll,p,bytes,winner\nallreduce,2,8,\n", ":2: no winner"},
      {"coll,p,bytes,winner\nallreduce,2,8,butterfly\nallreduce,4,8,butterfly\n"
       "allreduce,2,8,circulant\n",
       ":4: a second row for allreduce p=2 bytes=8 (line 2)"},
  };
  for (int i = 0; i < N(cases); i++) {
    char f[1024], out[1100], spec[1200], err[1024] = "";
    snprintf(f, sizeof f, "%s/winners%d.csv", work, i);
    snprintf(out, sizeof out, "%s/never%d", work, i);
    snprintf(spec, sizeof spec, "collsim:%s", out);
    FILE *o = fopen(f, "w");
    fputs(cases[i].text, o);
    fclose(o);
    ASSERT_EQ(cs_tuning_emit(f, spec, err, sizeof err), -1, "case %d", i);
    ASSERT(strstr(err, cases[i].want) != NULL, "case %d: '%s' does not say '%s'", i, err,
           cases[i].want);
    ASSERT(fopen(out, "r") == NULL, "case %d: a file was written", i);
  }
  char err[1024] = "";
  ASSERT_EQ(cs_tuning_emit("x.csv", "openmpi:rules", err, sizeof err), -1);
  ASSERT(strstr(err, "KIND one of collsim, ompi-rules, ompi-json, mpich-json"), "%s", err);
}

int main(int argc, char **argv) {
  /* Default: the fixtures of the source tree and a temporary folder (the
   * sanitizer job runs every test_* without arguments). */
  char tmp[] = "/tmp/collsim-test-tuning.XXXXXX";
  if (argc == 3) {
    fixtures = argv[1];
    work = argv[2];
  } else if (argc == 1 && mkdtemp(tmp)) {
    fixtures = TUNING_FIXTURES;
    work = tmp;
  } else {
    fprintf(stderr, "usage: test_tuning [FIXTURES_DIR WORK_DIR]\n");
    return 2;
  }
  ranges();
  broken();
  bad_winners();
  formats("winners_collsim.csv");
  formats("winners_ompi.csv");
  formats("winners_mpich.csv");
  if (work == tmp) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0) fprintf(stderr, "test_tuning: could not remove %s\n", tmp);
  }
  return cs_test_end();
}
