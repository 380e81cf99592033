/* The topology module (algos/topo.h) without MPI: regular placements, the
 * host-name convention both ways, and node keys. Prints each failed check
 * with both values; exits 1 if any failed. */
#include <stdio.h>
#include <string.h>

#include "assert.h"
#include "topo.h"

int main(void) {
  /* Regular placement: 36 x 32 with 2 lanes (Hydra-like). */
  for (int r = 0; r < 36 * 32; r++) {
    int node, local, lane;
    cs_topo_locate(r, 32, 2, &node, &local, &lane);
    ASSERT_EQ(node, r / 32);
    ASSERT_EQ(local, r % 32);
    ASSERT_EQ(lane, (r % 32) % 2);
    ASSERT_EQ(cs_topo_node_of(r, 32), node);
    ASSERT_EQ(cs_topo_lane_of(r, 32, 2), lane);
    char name[32];
    int n2, l2;
    ASSERT_EQ(cs_topo_host_name(name, sizeof name, node, local), 0);
    ASSERT_EQ(cs_topo_parse_host(name, &n2, &l2), 0);
    ASSERT_EQ(n2, node);
    ASSERT_EQ(l2, local);
    ASSERT_EQ(cs_topo_node_key(name), node);
  }
  /* One rank per node, one lane. */
  ASSERT_EQ(cs_topo_node_of(17, 1), 17);
  ASSERT_EQ(cs_topo_lane_of(17, 1, 1), 0);
  ASSERT_EQ(cs_topo_node_of(17, 0), 17);
  /* Names. */
  char buf[8];
  ASSERT_EQ(cs_topo_host_name(buf, sizeof buf, 12345, 67), -1); /* too long */
  ASSERT_EQ(cs_topo_host_name(buf, sizeof buf, 127, -1), 0);
  ASSERT_EQ(strcmp(buf, "node127"), 0);
  int node = -5, local = -5;
  ASSERT_EQ(cs_topo_parse_host("node7", &node, &local), 0);
  ASSERT_EQ(node, 7);
  ASSERT_EQ(local, -1);
  const char *bad[] = {"node",  "node7-", "nodex",     "node1_lane0",
                       "Node1", "node-1", "node1-2-3", "node1000000000"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    node = -5;
    ASSERT_EQ(cs_topo_parse_host(bad[i], &node, NULL), -1);
    ASSERT_EQ(node, -5);
  }
  /* Keys: a node's hosts share one; foreign names get bit 30 and never meet
   * collsim's node numbers; the check value agrees where the key is exact. */
  ASSERT_EQ(cs_topo_node_key("node3-0"), cs_topo_node_key("node3-31"));
  ASSERT_EQ(cs_topo_node_key("node3"), 3);
  ASSERT_EQ(cs_topo_name_check("node3-1"), cs_topo_name_check("node3-2"));
  int k1 = cs_topo_node_key("n123.cluster"), k2 = cs_topo_node_key("n124.cluster");
  ASSERT_EQ(k1 >= (1 << 30), 1);
  ASSERT_EQ(k1 == k2, 0);
  ASSERT_EQ(cs_topo_node_key("n123.cluster"), k1);
  ASSERT_EQ(cs_topo_name_check("n123.cluster") == cs_topo_name_check("n124.cluster"), 0);
  return cs_test_end();
}
