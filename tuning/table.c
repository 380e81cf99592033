/* collsim's tuning table: read, checked, asked per call (tuning.h,
 * docs/tuning.md). Pure C: linked into libcollsim-pmpi.so, which reads the
 * table at MPI_Init (COLLSIM_TUNING=FILE), and into the collsim library. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuning.h"

/* One (collective, p, bytes) that a rule served, for the report. */
typedef struct {
  int rule;
  long long p, bytes;
  unsigned long calls;
} served;

#define MAX_SERVED 1024

struct cs_tuning_table {
  cs_tuning_rule *rules;
  const cs_algo_info **algo; /* per rule */
  int n;
  char path[512];
  pthread_mutex_t lock;
  served seen[MAX_SERVED];
  int nseen;
  unsigned long unlisted; /* calls beyond MAX_SERVED distinct sizes */
};

static int fail(char *err, size_t len, const char *path, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#include <stdarg.h>
static int fail(char *err, size_t len, const char *path, int line, const char *fmt, ...) {
  int n = line > 0 ? snprintf(err, len, "%s:%d: ", path, line) : snprintf(err, len, "%s: ", path);
  if (n < 0 || (size_t)n >= len) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err + n, len - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

/* A non-negative decimal integer, or "inf" (CS_TUNING_INF) if inf_ok. */
static int number(const char *s, int inf_ok, long long *v) {
  if (inf_ok && strcmp(s, "inf") == 0) {
    *v = CS_TUNING_INF;
    return 0;
  }
  if (!isdigit((unsigned char)*s)) return -1;
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (*end || errno) return -1;
  *v = x;
  return 0;
}

static int hi_ge(long long hi, long long x) { return hi == CS_TUNING_INF || x <= hi; }

/* Do [a_lo, a_hi] and [b_lo, b_hi] (CS_TUNING_INF = unbounded) meet? */
static int meet(long long a_lo, long long a_hi, long long b_lo, long long b_hi) {
  return hi_ge(a_hi, b_lo) && hi_ge(b_hi, a_lo);
}

static void range_str(char *buf, size_t len, long long lo, long long hi) {
  if (hi == CS_TUNING_INF)
    snprintf(buf, len, "%lld..inf", lo);
  else
    snprintf(buf, len, "%lld..%lld", lo, hi);
}

/* The checks of one rule that do not depend on the others. */
static int check_rule(const cs_tuning_rule *r, const cs_algo_info **algo, const char *path,
                      char *err, size_t errlen) {
  const cs_algo_info *a = cs_algo_find(r->coll, r->algo);
  if (!a || strchr(r->algo, ':')) {
    char valid[512] = "";
    for (int i = 0; i < cs_nalgos; i++)
      if (cs_algos[i].coll == r->coll) {
        size_t l = strlen(valid);
        snprintf(valid + l, sizeof valid - l, "%s%s", l ? ", " : "", cs_algos[i].name);
      }
    return fail(err, errlen, path, r->line,
                "'%s' is not an algorithm of %s that this library can run (valid: %s; native "
                "= the MPI library's own; native:NAME selects an SMPI algorithm and only "
                "works under SMPI)",
                r->algo, cs_colls[r->coll].name, valid);
  }
  if (cs_colls[r->coll].size_from == CS_SZ_ROOT && (r->b_lo != 0 || r->b_hi != CS_TUNING_INF))
    return fail(err, errlen, path, r->line,
                "%s: a rule must hold every size (bytes 0 inf): only the root knows the total "
                "size of a %s, so the processes could not agree on a size range",
                cs_colls[r->coll].name, cs_colls[r->coll].name);
  *algo = a;
  return 0;
}

int cs_tuning_load(const char *path, cs_tuning_table **out, char *err, size_t errlen) {
  *out = NULL;
  FILE *f = fopen(path, "r");
  if (!f) return fail(err, errlen, path, 0, "cannot open: %s", strerror(errno));
  cs_tuning_table *t = calloc(1, sizeof *t);
  if (!t) {
    fclose(f);
    return fail(err, errlen, path, 0, "out of memory");
  }
  snprintf(t->path, sizeof t->path, "%s", path);
  pthread_mutex_init(&t->lock, NULL);
  int cap = 0, lineno = 0, version = 0, rc = 0;
  char line[1024];
  while (rc == 0 && fgets(line, sizeof line, f)) {
    lineno++;
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n') {
      rc = fail(err, errlen, path, lineno, "line longer than %d characters", (int)sizeof line - 2);
      break;
    }
    line[strcspn(line, "#")] = '\0';
    char *tok[8], *save = NULL;
    int nt = 0;
    for (char *s = strtok_r(line, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save))
      if (nt < 8)
        tok[nt++] = s;
      else
        nt = 9;
    if (nt == 0) continue;
    if (!version) {
      long long v;
      if (nt != 2 || strcmp(tok[0], "collsim-tuning") || number(tok[1], 0, &v)) {
        rc = fail(err, errlen, path, lineno,
                  "expected the version line 'collsim-tuning 1' before any rule (docs/tuning.md)");
      } else if (v != 1) {
        rc = fail(err, errlen, path, lineno,
                  "version %lld is not one this library reads (it reads version 1)", v);
      }
      version = 1;
      continue;
    }
    if (nt != 6) {
      rc = fail(err, errlen, path, lineno,
                "%d fields; a rule is 'COLLECTIVE P_MIN P_MAX BYTES_MIN BYTES_MAX ALGORITHM' "
                "(e.g. 'allreduce 1 inf 0 2047 native')",
                nt > 8 ? 9 : nt);
      break;
    }
    if (t->n == cap) {
      cap = cap ? 2 * cap : 64;
      cs_tuning_rule *nr = realloc(t->rules, (size_t)cap * sizeof *nr);
      if (!nr) {
        rc = fail(err, errlen, path, lineno, "out of memory");
        break;
      }
      t->rules = nr;
    }
    cs_tuning_rule *r = &t->rules[t->n];
    memset(r, 0, sizeof *r);
    r->line = lineno;
    int c = cs_coll_by_name(tok[0]);
    if (c < 0) {
      char valid[512] = "";
      for (int k = 0; k < CS_NCOLL; k++) {
        size_t l = strlen(valid);
        snprintf(valid + l, sizeof valid - l, "%s%s", k ? ", " : "", cs_colls[k].name);
      }
      rc = fail(err, errlen, path, lineno, "unknown collective '%s' (valid: %s)", tok[0], valid);
      break;
    }
    r->coll = (cs_coll)c;
    if (number(tok[1], 0, &r->p_lo) || number(tok[2], 1, &r->p_hi) || number(tok[3], 0, &r->b_lo) ||
        number(tok[4], 1, &r->b_hi)) {
      rc = fail(err, errlen, path, lineno,
                "P_MIN, P_MAX, BYTES_MIN, BYTES_MAX must be decimal integers (the maxima may be "
                "'inf'): got '%s %s %s %s'",
                tok[1], tok[2], tok[3], tok[4]);
      break;
    }
    if (r->p_lo < 1 || !hi_ge(r->p_hi, r->p_lo) || !hi_ge(r->b_hi, r->b_lo)) {
      rc = fail(err, errlen, path, lineno,
                "empty range: need 1 <= P_MIN <= P_MAX and BYTES_MIN <= BYTES_MAX");
      break;
    }
    if (strlen(tok[5]) >= sizeof r->algo) {
      rc = fail(err, errlen, path, lineno, "algorithm name too long");
      break;
    }
    snprintf(r->algo, sizeof r->algo, "%s", tok[5]);
    t->n++;
  }
  if (rc == 0 && ferror(f)) rc = fail(err, errlen, path, 0, "read error");
  fclose(f);
  if (rc == 0 && !version)
    rc = fail(err, errlen, path, 0, "empty: no version line 'collsim-tuning 1' and no rules");
  if (rc == 0 && !(t->algo = calloc((size_t)(t->n ? t->n : 1), sizeof *t->algo)))
    rc = fail(err, errlen, path, 0, "out of memory");
  for (int i = 0; rc == 0 && i < t->n; i++)
    rc = check_rule(&t->rules[i], &t->algo[i], path, err, errlen);
  for (int i = 0; rc == 0 && i < t->n; i++)
    for (int j = 0; rc == 0 && j < i; j++) {
      const cs_tuning_rule *a = &t->rules[j], *b = &t->rules[i];
      if (a->coll == b->coll && meet(a->p_lo, a->p_hi, b->p_lo, b->p_hi) &&
          meet(a->b_lo, a->b_hi, b->b_lo, b->b_hi)) {
        char pa[64], ba[64], pb[64], bb[64];
        range_str(pa, sizeof pa, a->p_lo, a->p_hi);
        range_str(ba, sizeof ba, a->b_lo, a->b_hi);
        range_str(pb, sizeof pb, b->p_lo, b->p_hi);
        range_str(bb, sizeof bb, b->b_lo, b->b_hi);
        rc = fail(err, errlen, path, b->line,
                  "%s rule (p %s, bytes %s) overlaps the rule of line %d (p %s, bytes %s): "
                  "every (p, bytes) must have at most one rule",
                  cs_colls[b->coll].name, pb, bb, a->line, pa, ba);
      }
    }
  if (rc != 0) {
    cs_tuning_free(t);
    return -1;
  }
  *out = t;
  return 0;
}

void cs_tuning_free(cs_tuning_table *t) {
  if (!t) return;
  pthread_mutex_destroy(&t->lock);
  free(t->rules);
  free(t->algo);
  free(t);
}

int cs_tuning_covers(const cs_tuning_table *t, cs_coll c) {
  for (int i = 0; t && i < t->n; i++)
    if (t->rules[i].coll == c) return 1;
  return 0;
}

const cs_algo_info *cs_tuning_pick(const cs_tuning_table *t, cs_coll c, long long p,
                                   long long bytes, int *rule) {
  *rule = -1;
  for (int i = 0; t && i < t->n; i++) {
    const cs_tuning_rule *r = &t->rules[i];
    if (r->coll == c && p >= r->p_lo && hi_ge(r->p_hi, p) && bytes >= r->b_lo &&
        hi_ge(r->b_hi, bytes)) {
      *rule = i;
      return t->algo[i];
    }
  }
  return NULL;
}

void cs_tuning_served(cs_tuning_table *t, int rule, long long p, long long bytes) {
  if (!t || rule < 0 || rule >= t->n) return;
  pthread_mutex_lock(&t->lock);
  int i;
  for (i = 0; i < t->nseen; i++)
    if (t->seen[i].rule == rule && t->seen[i].p == p && t->seen[i].bytes == bytes) break;
  if (i == t->nseen && t->nseen < MAX_SERVED) t->seen[t->nseen++] = (served){rule, p, bytes, 0};
  if (i < t->nseen)
    t->seen[i].calls++;
  else
    t->unlisted++;
  pthread_mutex_unlock(&t->lock);
}

void cs_tuning_report(const cs_tuning_table *t, const char *who, int rank,
                      void (*out)(const char *, void *), void *ctx) {
  if (!t) return;
  char line[512];
  for (int i = 0; i < t->nseen; i++) {
    const served *s = &t->seen[i];
    const cs_tuning_rule *r = &t->rules[s->rule];
    snprintf(line, sizeof line, "%s: tuning: %s p=%lld bytes=%lld %s calls=%lu line=%d rank=%d\n",
             who, cs_colls[r->coll].name, s->p, s->bytes, r->algo, s->calls, r->line, rank);
    out(line, ctx);
  }
  if (t->unlisted) {
    snprintf(line, sizeof line,
             "%s: tuning: %lu more calls of sizes beyond the first %d not listed "
             "rank=%d\n",
             who, t->unlisted, MAX_SERVED, rank);
    out(line, ctx);
  }
}

uint64_t cs_tuning_hash(const cs_tuning_table *t) {
  uint64_t h = 14695981039346656037ULL;
  for (int i = 0; t && i < t->n; i++) {
    const cs_tuning_rule *r = &t->rules[i];
    long long v[5] = {r->coll, r->p_lo, r->p_hi, r->b_lo, r->b_hi};
    const unsigned char *b = (const unsigned char *)v;
    for (size_t k = 0; k < sizeof v; k++) h = (h ^ b[k]) * 1099511628211ULL;
    for (const char *s = r->algo; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
  }
  return h;
}

int cs_tuning_nrules(const cs_tuning_table *t) { return t ? t->n : 0; }

const cs_tuning_rule *cs_tuning_rule_at(const cs_tuning_table *t, int i) {
  return t && i >= 0 && i < t->n ? &t->rules[i] : NULL;
}
