/* The topology module: where a rank runs, as pure C (no MPI, no SimGrid).
 *
 * One place for the facts that the platform generator (platforms/platgen.c),
 * the calibration driver (sim/calibrate.c), the kernel context (algos/ctx.c)
 * and the cost models (models/eval.c) share:
 *
 *   Host names. collsim's SimGrid platforms name hosts "node<N>-<j>" (one
 *   host per rank of a multi-rank node: node N, local rank j) or "node<N>"
 *   (one host per node, whose cores the node's ranks share, or one host per
 *   single-rank node). SMPI answers MPI_Get_processor_name with the host
 *   name, so a program learns its node from it. On a real cluster the
 *   processor name is a host name: ranks with the same name share a node.
 *
 *   Regular placements. With ppn ranks per node placed in blocks, rank r runs
 *   on node r / ppn as local rank r mod ppn; with k lanes (NICs, sockets) per
 *   node, local rank j uses lane j mod k.
 */
#ifndef COLLSIM_TOPO_H
#define COLLSIM_TOPO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The node of rank under a regular placement of ppn ranks per node; ppn < 1
 * is taken as 1 (every rank its own node). */
int cs_topo_node_of(int rank, int ppn);

/* The local rank (position on its node) of rank: rank mod ppn. */
int cs_topo_local_of(int rank, int ppn);

/* The lane of rank with lanes lanes per node: (rank mod ppn) mod lanes; 0
 * when lanes <= 1. */
int cs_topo_lane_of(int rank, int ppn, int lanes);

/* All three at once; any output pointer may be NULL. */
void cs_topo_locate(int rank, int ppn, int lanes, int *node, int *local, int *lane);

/* Writes the host name of a rank into buf: "node<N>-<j>" if local >= 0,
 * else "node<N>". Returns 0, or -1 if buf is too small or node < 0. */
int cs_topo_host_name(char *buf, size_t len, int node, int local);

/* Decodes a host name of the convention: "node<N>" gives node N and local
 * -1 (the local rank then follows from the order of the ranks on the
 * host), "node<N>-<j>" gives node N and local j (N, j < 10^9). Returns 0, or
 * -1 if the name does not follow the convention (nothing is written). */
int cs_topo_parse_host(const char *host, int *node, int *local);

/* A node key for a processor name, for MPI_Comm_split colours: names of the
 * convention give their node number N (< 2^30); any other name a 30-bit
 * FNV-1a hash of the whole name with bit 30 set, so that the two kinds never
 * meet. Equal names give equal keys; different foreign names may collide
 * (the kernel context detects that with cs_topo_name_check). Never negative. */
int cs_topo_node_key(const char *name);

/* A check value for the node of a name: the node number for names of the
 * convention (whose key is exact), else a second, independent hash of the
 * name (FNV-1a with another basis). Processes grouped under one key must
 * agree on it; if they do not, two host names collided. */
int cs_topo_name_check(const char *name);

/* Virtual nodes (COLLSIM_VNODE=n: every n consecutive ranks of the world form
 * a node, whatever the host names say): the processes per virtual node, 0 if
 * unset or empty; -1 and a message on stderr (once per process) if set to
 * something other than a number >= 1. The kernel context (algos/ctx.c) and
 * the model side (run/map.c) read it here. */
int cs_topo_vnode_env(void);

#ifdef __cplusplus
}
#endif

#endif
