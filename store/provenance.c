/* How a results file was made, and the one comparison a resume makes
 * (store/provenance.h). */
#include "provenance.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void cs_prov_init(cs_prov *p, const char *kind) {
  memset(p, 0, sizeof *p);
  snprintf(p->kind, sizeof p->kind, "%s", kind);
}

static int find(const cs_prov *p, const char *key) {
  for (int i = 0; i < p->n; i++)
    if (!strcmp(p->it[i].key, key)) return i;
  return -1;
}

void cs_prov_set(cs_prov *p, const char *key, const char *fmt, ...) {
  int i = find(p, key);
  if (!fmt) {
    if (i >= 0) {
      memmove(&p->it[i], &p->it[i + 1], (size_t)(p->n - i - 1) * sizeof p->it[0]);
      p->n--;
    }
    return;
  }
  if (i < 0) {
    if (p->n == CS_PROV_MAX) return;
    i = p->n++;
    snprintf(p->it[i].key, sizeof p->it[i].key, "%s", key);
  }
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->it[i].val, sizeof p->it[i].val, fmt, ap);
  va_end(ap);
}

const char *cs_prov_get(const cs_prov *p, const char *key) {
  int i = find(p, key);
  return i < 0 ? NULL : p->it[i].val;
}

const char *cs_prov_line(const cs_prov *p, char *buf, size_t len) {
  size_t n = (size_t)snprintf(buf, len, "# collsim %s", p->kind);
  for (int i = 0; i < p->n && n < len; i++) {
    const char *v = p->it[i].val;
    int quote = !*v || strpbrk(v, " \t\"") != NULL;
    n += (size_t)snprintf(buf + n, len - n, " %s=%s", p->it[i].key, quote ? "\"" : "");
    for (; *v && n + 2 < len; v++) {
      if (*v == '"') buf[n++] = '\\';
      buf[n++] = *v;
    }
    if (n < len) buf[n] = '\0';
    if (quote) n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "\"");
  }
  if (n < len) snprintf(buf + n, len - n, "\n");
  return buf;
}

static int is_key(const char *s, size_t n) {
  if (!n || n >= sizeof(((cs_prov_item *)0)->key)) return 0;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_')) return 0;
  return 1;
}

/* Appends text[0..n) to item v's value. */
static void append(cs_prov_item *v, const char *text, size_t n) {
  size_t l = strlen(v->val);
  if (l + n + 1 < sizeof v->val) {
    memcpy(v->val + l, text, n);
    v->val[l + n] = '\0';
  }
}

int cs_prov_parse(const char *line, cs_prov *p) {
  static const char tag[] = "# collsim ";
  if (strncmp(line, tag, sizeof tag - 1)) return -1;
  const char *s = line + sizeof tag - 1;
  size_t k = strcspn(s, " \t\r\n");
  if (!k || k >= sizeof p->kind) return -1;
  char kind[32];
  snprintf(kind, sizeof kind, "%.*s", (int)k, s);
  cs_prov_init(p, kind);
  s += k;
  for (;;) {
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '\r' || *s == '\n') break;
    const char *eq = s;
    while (*eq && *eq != '=' && *eq != ' ' && *eq != '\n') eq++;
    if (*eq == '=' && is_key(s, (size_t)(eq - s)) && p->n < CS_PROV_MAX) {
      cs_prov_item *it = &p->it[p->n++];
      snprintf(it->key, sizeof it->key, "%.*s", (int)(eq - s), s);
      it->val[0] = '\0';
      s = eq + 1;
      if (*s == '"') {
        s++;
        while (*s && *s != '"') {
          if (*s == '\\' && s[1]) s++;
          append(it, s++, 1);
        }
        if (*s == '"') s++;
      } else {
        size_t w = strcspn(s, " \t\r\n");
        append(it, s, w);
        s += w;
      }
    } else {
      /* not a key: the previous value goes on (an unquoted value with spaces) */
      size_t w = strcspn(s, " \t\r\n");
      if (p->n > 0) {
        append(&p->it[p->n - 1], " ", 1);
        append(&p->it[p->n - 1], s, w);
      }
      s += w;
    }
  }
  return 0;
}

int cs_prov_read(const char *path, cs_prov *p) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[8192];
  int rc = fgets(line, sizeof line, f) ? cs_prov_parse(line, p) : -1;
  fclose(f);
  return rc;
}

/* Adds one difference to why. */
static void say(char *why, size_t len, size_t *n, int *count, const char *(*option)(const char *),
                const char *key, const char *in_file, const char *in_run, const char *la,
                const char *lb) {
  const char *opt = option ? option(key) : NULL;
  char o[96];
  if (opt)
    snprintf(o, sizeof o, "%s (%s)", opt, key);
  else
    snprintf(o, sizeof o, "%s", key);
  if (*n < len)
    *n += (size_t)snprintf(why + *n, len - *n, "%s%s: %s %s, %s %s", *count ? "; " : "", o, la,
                           in_file ? in_file : "nothing", lb, in_run ? in_run : "nothing");
  ++*count;
}

int cs_prov_diff_as(const cs_prov *file, const cs_prov *run, const char *(*option)(const char *key),
                    const char *la, const char *lb, char *why, size_t len) {
  int count = 0;
  size_t n = 0;
  if (len) why[0] = '\0';
  if (strcmp(file->kind, run->kind))
    say(why, len, &n, &count, NULL, "kind", file->kind, run->kind, la, lb);
  for (int i = 0; i < run->n; i++) {
    const char *f = cs_prov_get(file, run->it[i].key);
    if (!f || strcmp(f, run->it[i].val))
      say(why, len, &n, &count, option, run->it[i].key, f, run->it[i].val, la, lb);
  }
  for (int i = 0; i < file->n; i++)
    if (!cs_prov_get(run, file->it[i].key))
      say(why, len, &n, &count, option, file->it[i].key, file->it[i].val, NULL, la, lb);
  return count;
}

int cs_prov_diff(const cs_prov *file, const cs_prov *run, const char *(*option)(const char *key),
                 char *why, size_t len) {
  return cs_prov_diff_as(file, run, option, "the file has", "this run", why, len);
}

const char *cs_prov_bench_option(const char *key) {
  static const char *const map[][2] = {
      {"backend", "--backend"},
      {"platform", "--platform"},
      {"platform_digest", "--platform (the file's content)"},
      {"placement", "--hostfile"},
      {"np", "--np"},
      {"coll", "--coll"},
      {"type", "--type"},
      {"op", "--type"},
      {"root", "--root"},
      {"in_place", "--in-place"},
      {"reps", "--reps"},
      {"warmup", "--warmup"},
      {"cfg", "--cfg"},
      {"layout", "--layout"},
      {"network", "--smpi-network"},
      {"lib_charge", "--lib-charge"},
      {"gamma", "--platform (its gamma)"},
  };
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(key, map[i][0])) return map[i][1];
  return NULL;
}

uint64_t cs_digest_str(uint64_t h, const char *s) {
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ULL;
  }
  return h;
}

uint64_t cs_digest_file(const char *path, int *ok) {
  FILE *f = fopen(path, "rb");
  uint64_t h = CS_DIGEST_INIT;
  if (ok) *ok = f != NULL;
  if (!f) return 0;
  unsigned char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    for (size_t i = 0; i < n; i++) {
      h ^= buf[i];
      h *= 0x100000001b3ULL;
    }
  fclose(f);
  return h;
}

void cs_digest_hex(uint64_t h, char *buf, size_t len) { snprintf(buf, len, "%016" PRIx64, h); }
