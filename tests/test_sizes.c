/* The meaning of "size m" (algos/sizes.h), case by case: the answers the
 * models, the front door, the driver and the PMPI library all rely on. */
#include <stdio.h>
#include <string.h>

#include "assert.h"
#include "sizes.h"

int main(void) {
  /* Vector collectives move m: 1001 bytes of 4-byte ints are 250 elements. */
  ASSERT_EQ(cs_coll_shape(CS_allreduce), CS_SHAPE_VECTOR);
  ASSERT_EQ(cs_size_elems(CS_allreduce, 7, 1001, 4), 250);
  ASSERT_EQ(cs_size_bytes(CS_allreduce, 7, 1001, 4), 1000);
  ASSERT_EQ(cs_size_count(CS_allreduce, 7, 250), 250);
  ASSERT_EQ(cs_size_total(CS_bcast, 7, 250), 250);
  /* Block collectives: p blocks of floor(m / p): 1001 bytes on 7 ranks are
   * 7 blocks of 143 bytes; of ints, 250 elements make 7 blocks of 35. */
  ASSERT_EQ(cs_coll_shape(CS_allgather), CS_SHAPE_BLOCKS);
  ASSERT_EQ(cs_size_bytes(CS_reduce_scatter_block, 7, 1001, 1), 1001);
  ASSERT_EQ(cs_size_bytes(CS_allgather, 7, 1000, 1), 994);
  ASSERT_EQ(cs_size_elems(CS_gather, 7, 1001, 4), 245);
  ASSERT_EQ(cs_size_count(CS_scatter, 7, 245), 35);
  ASSERT_EQ(cs_size_total(CS_allgather, 7, 35), 245);
  ASSERT_EQ(cs_size_bytes(CS_allgather, 7, 6, 1), 0); /* fewer bytes than ranks */
  /* Split collectives spread m evenly; the count given is the total. */
  ASSERT_EQ(cs_coll_shape(CS_reduce_scatter), CS_SHAPE_SPLIT);
  ASSERT_EQ(cs_size_bytes(CS_allgatherv, 7, 1000, 1), 1000);
  ASSERT_EQ(cs_size_count(CS_scatterv, 7, 1000), 1000);
  ASSERT_EQ(cs_size_total(CS_gatherv, 7, 10), -1);
  long b[7];
  cs_size_blocks(CS_reduce_scatter, 7, 1000, b);
  ASSERT_EQ(b[0], 143);
  ASSERT_EQ(b[5], 143);
  ASSERT_EQ(b[6], 142);
  ASSERT_EQ(cs_size_equal_blocks(CS_reduce_scatter, 7, 1000), 0);
  ASSERT_EQ(cs_size_equal_blocks(CS_reduce_scatter, 7, 1001), 1);
  ASSERT_EQ(cs_size_equal_blocks(CS_allgather, 7, 1000), 1);
  cs_size_blocks(CS_allgather, 7, 1000, b);
  ASSERT_EQ(b[6], 142);
  cs_size_blocks(CS_allreduce, 7, 1000, b);
  ASSERT_EQ(b[3], 0);
  /* Per-process blocks (--block-bytes): m = p b for block and split
   * collectives, and the block a case then moves is b again. */
  ASSERT_EQ(cs_size_from_block(CS_reduce_scatter_block, 32, 1024), 32768);
  ASSERT_EQ(cs_size_bytes(CS_reduce_scatter_block, 32,
                          cs_size_from_block(CS_reduce_scatter_block, 32, 1024), 1) /
                32,
            1024);
  ASSERT_EQ(cs_size_from_block(CS_reduce_scatter, 7, 3), 21);
  ASSERT_EQ(cs_size_from_block(CS_allgather, 7, 0), 0);
  ASSERT_EQ(cs_size_from_block(CS_allreduce, 7, 8), -1);
  ASSERT_EQ(cs_size_from_block(CS_gather, 1 << 20, 1L << 62), -1);
  /* The one byte formatter: a binary unit only where exact. */
  static const struct {
    double b;
    const char *s;
  } fmt[] = {{0, "0 B"},
             {8, "8 B"},
             {1000, "1000 B"},
             {1024, "1 KiB"},
             {1536, "1536 B"},
             {65536, "64 KiB"},
             {2097152, "2 MiB"},
             {1048575, "1048575 B"},
             {3221225472.0, "3 GiB"},
             {1610612736.0, "1536 MiB"}};
  for (size_t i = 0; i < sizeof fmt / sizeof fmt[0]; i++) {
    char buf[32];
    ASSERT_STR_EQ(cs_size_str(fmt[i].b, buf, sizeof buf), fmt[i].s, "bytes %.0f", fmt[i].b);
  }
  /* SMPI's envelope. */
  ASSERT_EQ(CS_SMPI_ENVELOPE, 16);
  return cs_test_end();
}
