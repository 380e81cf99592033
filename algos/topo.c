/* The topology module (see topo.h): host names and regular placements. */
#include "topo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cs_topo_node_of(int rank, int ppn) { return ppn > 1 ? rank / ppn : rank; }

int cs_topo_local_of(int rank, int ppn) { return ppn > 1 ? rank % ppn : 0; }

int cs_topo_lane_of(int rank, int ppn, int lanes) {
  return lanes > 1 ? cs_topo_local_of(rank, ppn) % lanes : 0;
}

void cs_topo_locate(int rank, int ppn, int lanes, int *node, int *local, int *lane) {
  if (node) *node = cs_topo_node_of(rank, ppn);
  if (local) *local = cs_topo_local_of(rank, ppn);
  if (lane) *lane = cs_topo_lane_of(rank, ppn, lanes);
}

int cs_topo_host_name(char *buf, size_t len, int node, int local) {
  if (node < 0) return -1;
  int n = local >= 0 ? snprintf(buf, len, "node%d-%d", node, local)
                     : snprintf(buf, len, "node%d", node);
  return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Parses a non-negative decimal integer without sign, below 10^9. */
static const char *parse_uint(const char *s, int *out) {
  if (*s < '0' || *s > '9') return NULL;
  long v = 0;
  while (*s >= '0' && *s <= '9') {
    v = v * 10 + (*s - '0');
    if (v >= 1000000000L) return NULL;
    s++;
  }
  *out = (int)v;
  return s;
}

int cs_topo_parse_host(const char *host, int *node, int *local) {
  int n, j = -1;
  if (host == NULL || strncmp(host, "node", 4) != 0) return -1;
  const char *s = parse_uint(host + 4, &n);
  if (s == NULL) return -1;
  if (*s == '-') {
    s = parse_uint(s + 1, &j);
    if (s == NULL) return -1;
  }
  if (*s != '\0') return -1;
  if (node) *node = n;
  if (local) *local = j;
  return 0;
}

static uint32_t fnv1a(const char *s, uint32_t h) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

int cs_topo_node_key(const char *name) {
  int node;
  if (cs_topo_parse_host(name, &node, NULL) == 0) return node; /* < 10^9 < 2^30 */
  return (int)((fnv1a(name, 2166136261u) & 0x3fffffffu) | 0x40000000u);
}

int cs_topo_name_check(const char *name) {
  int node;
  if (cs_topo_parse_host(name, &node, NULL) == 0) return node; /* exact already */
  return (int)(fnv1a(name, 0x811c9dc5u ^ 0x5bd1e995u) & 0x7fffffffu);
}

int cs_topo_vnode_env(void) {
  static int warned;
  const char *v = getenv("COLLSIM_VNODE");
  if (!v || !*v) return 0;
  char *end;
  long n = strtol(v, &end, 10);
  if (*end || n < 1 || n > 1000000) {
    if (!warned++)
      fprintf(stderr,
              "collsim: COLLSIM_VNODE=%s is not a number of processes per virtual node "
              "(>= 1); node identity comes from the processor names\n",
              v);
    return -1;
  }
  return (int)n;
}
