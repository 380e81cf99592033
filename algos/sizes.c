/* What "size m" means (sizes.h): the one place that knows it. */
#include "sizes.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

cs_shape cs_coll_shape(cs_coll coll) { return cs_colls[coll].shape; }

long cs_size_elems(cs_coll coll, int p, long m, int size) {
  long elems = size > 0 ? m / size : 0;
  return cs_coll_shape(coll) == CS_SHAPE_BLOCKS ? (long)p * (elems / p) : elems;
}

const char *cs_size_str(double bytes, char *buf, size_t len) {
  /* Exact: a whole number of GiB, MiB or KiB, otherwise bytes (a report's
   * "37123 B" must not read as a rounded "36.3 KiB"). */
  static const char *const unit[] = {"GiB", "MiB", "KiB"};
  for (int u = 0; u < 3; u++) {
    double scale = (double)(1L << (10 * (3 - u)));
    if (bytes >= scale && fmod(bytes, scale) == 0) {
      snprintf(buf, len, "%g %s", bytes / scale, unit[u]);
      return buf;
    }
  }
  snprintf(buf, len, "%.0f B", bytes);
  return buf;
}

long cs_size_bytes(cs_coll coll, int p, long m, int size) {
  return cs_size_elems(coll, p, m, size) * size;
}

long cs_size_count(cs_coll coll, int p, long elems) {
  return cs_coll_shape(coll) == CS_SHAPE_BLOCKS ? elems / p : elems;
}

long long cs_size_total(cs_coll coll, int p, long long count) {
  switch (cs_coll_shape(coll)) {
  case CS_SHAPE_BLOCKS: return (long long)p * count;
  case CS_SHAPE_VECTOR: return count;
  default: return -1;
  }
}

long cs_size_from_block(cs_coll coll, int p, long b) {
  if (cs_coll_shape(coll) == CS_SHAPE_VECTOR || p < 1 || b < 0 || b > LONG_MAX / p) return -1;
  return (long)p * b;
}

void cs_size_blocks(cs_coll coll, int p, long m, long blocks[]) {
  cs_shape s = cs_coll_shape(coll);
  for (int i = 0; i < p; i++)
    blocks[i] = s == CS_SHAPE_BLOCKS  ? m / p
                : s == CS_SHAPE_SPLIT ? m / p + (i < m % p ? 1 : 0)
                                      : 0;
}

int cs_size_equal_blocks(cs_coll coll, int p, long m) {
  return cs_coll_shape(coll) != CS_SHAPE_SPLIT || m % p == 0;
}
