/* Numbers with units (platforms/units.h). */
#include "units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cs_parse_bytes(const char *s, const char **end, double *v) {
  char *e;
  errno = 0;
  if (!(*s >= '0' && *s <= '9') && *s != '.') return -1;
  double x = strtod(s, &e);
  if (e == s || errno == ERANGE || !isfinite(x) || x < 0) return -1;
  static const char prefix[] = "KMGT";
  const char *p = strchr(prefix, *e >= 'a' && *e <= 'z' ? *e - 32 : *e);
  if (*e && p) {
    x *= pow(1024.0, (double)(p - prefix + 1));
    e++;
    if (*e == 'i' && e[1] == 'B')
      e += 2;
    else if (*e == 'B')
      e++;
  } else if (*e == 'B')
    e++;
  if (x != floor(x)) return -2;
  *v = x;
  *end = e;
  return 0;
}

int cs_parse_unit(const char *s, char dim, double *out) {
  if (dim == CS_UNIT_BYTES) {
    const char *end;
    double v;
    if (cs_parse_bytes(s, &end, &v) || *end) return -1;
    *out = v;
    return 0;
  }
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno == ERANGE || !isfinite(v) || v < 0) return -1;
  if (!*end) {
    *out = v;
    return 0;
  }
  static const struct {
    const char *u;
    double f;
  } times[] = {{"s", 1},      {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9},
               {"ps", 1e-12}, {"m", 60},    {"h", 3600}};
  if (dim == CS_UNIT_TIME) {
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
      if (!strcmp(end, times[i].u)) {
        *out = v * times[i].f;
        return 0;
      }
    return -1;
  }
  static const struct {
    const char *p;
    double f;
  } prefixes[] = {{"", 1},
                  {"k", 1e3},
                  {"K", 1e3},
                  {"M", 1e6},
                  {"G", 1e9},
                  {"T", 1e12},
                  {"Ki", 1024.0},
                  {"Mi", 1048576.0},
                  {"Gi", 1073741824.0},
                  {"Ti", 1099511627776.0}};
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
    size_t n = strlen(prefixes[i].p);
    if (strncmp(end, prefixes[i].p, n)) continue;
    double f = !strcmp(end + n, "Bps") ? 1 : !strcmp(end + n, "bps") ? 0.125 : 0;
    if (f == 0) continue;
    double rate = v * prefixes[i].f * f;
    if (dim == CS_UNIT_INVRATE && rate <= 0) return -1;
    *out = dim == CS_UNIT_INVRATE ? 1.0 / rate : rate;
    return 0;
  }
  return -1;
}

const char *cs_unit_help(char dim) {
  switch (dim) {
  case CS_UNIT_TIME: return "a time: seconds, or with a SimGrid unit (1us, 0.5ms, 200ns)";
  case CS_UNIT_RATE: return "a rate: bytes/s, or with a SimGrid unit (10GBps, 100Gbps, 1GiBps)";
  case CS_UNIT_INVRATE:
    return "seconds per byte, or a rate with a SimGrid unit whose inverse it is (10GBps = "
           "1e-10 s/byte)";
  default: return "bytes, with an optional binary suffix K, M, G, T (KiB, MiB, ...)";
  }
}
