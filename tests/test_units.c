/* The one size and unit parser (platforms/units.c) and the size lists of every
 * command (run/lists.c): units as `platform` takes them, sizes with binary
 * suffixes, ranges that include their end when it lies on the step, sizes
 * sorted and each once (issue 28 item 10). */
#include <stdio.h>

#include "assert.h"
#include "lists.h"
#include "units.h"

int main(void) {
  double v;
  ASSERT_EQ(cs_parse_unit("4us", CS_UNIT_TIME, &v), 0);
  ASSERT_DBL_EQ(v, 4e-6);
  ASSERT_EQ(cs_parse_unit("1e-6", CS_UNIT_TIME, &v), 0);
  ASSERT_DBL_EQ(v, 1e-6);
  ASSERT_EQ(cs_parse_unit("10GBps", CS_UNIT_INVRATE, &v), 0);
  ASSERT_DBL_EQ(v, 1e-10);
  ASSERT_EQ(cs_parse_unit("100Gbps", CS_UNIT_RATE, &v), 0);
  ASSERT_DBL_EQ(v, 12.5e9);
  ASSERT_EQ(cs_parse_unit("4parsec", CS_UNIT_TIME, &v), -1);
  ASSERT_EQ(cs_parse_unit("-1", CS_UNIT_TIME, &v), -1);
  ASSERT_EQ(cs_parse_unit("1M", CS_UNIT_BYTES, &v), 0);
  ASSERT_DBL_EQ(v, 1048576);
  ASSERT_EQ(cs_parse_unit("1.5KiB", CS_UNIT_BYTES, &v), 0);
  ASSERT_DBL_EQ(v, 1536);
  ASSERT_EQ(cs_parse_unit("0.3K", CS_UNIT_BYTES, &v), -1); /* not whole bytes */
  ASSERT_EQ(cs_parse_unit("1Q", CS_UNIT_BYTES, &v), -1);

  long s[64];
  /* 8 x 8^k: 8 .. 256K; 1M is not on the step, so the range ends at 256K. */
  ASSERT_EQ(cs_parse_sizes("8-1M:x8", s, 64), 6);
  ASSERT_EQ(s[5], 262144);
  /* 1K x 4^5 = 1M: on the step, included. */
  ASSERT_EQ(cs_parse_sizes("1K-1M:x4", s, 64), 6);
  ASSERT_EQ(s[5], 1048576);
  ASSERT_EQ(cs_parse_sizes("0-4K:+1K", s, 64), 5);
  ASSERT_EQ(s[4], 4096);
  /* Sorted, each once. */
  ASSERT_EQ(cs_parse_sizes("1M,8,1K,8,2-16", s, 64), 6);
  long want[6] = {2, 4, 8, 16, 1024, 1048576};
  for (int i = 0; i < 6; i++) ASSERT_EQ(s[i], want[i]);
  ASSERT_EQ(cs_parse_sizes("4G", s, 64), -1); /* above the limit of a long's sizes */
  ASSERT_EQ(cs_parse_sizes("1K-", s, 64), -1);
  return cs_test_end();
}
