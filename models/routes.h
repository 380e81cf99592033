/* Routes of a SimGrid platform for the fluid evaluator (fluid.c): the links
 * a message between two ranks crosses, with their capacities and sharing
 * policies, and the route's latency, as SimGrid's own loader and routing
 * give them (collsim-routes, platforms/routes.c, run once per batch of
 * host pairs not yet known). Where the ranks sit is the caller's placement
 * (platforms/foreign.h, cs_routes_attach: the hostfile read once, as
 * smpirun reads it, by cs_place_ranks).
 *
 * What a flow gets from its route, as SimGrid's CM02 model computes it
 * (src/surf/network_cm02.cpp, 3.32): latency = the sum of the links'
 * latencies (times smpi/lat-factor, 1 on collsim's platforms); sharing
 * penalty = that latency (network/weight-S = 0), or 1 if it is 0; a bound
 * of min(the smallest link bandwidth, TCP-gamma / (2 latency)); one unit
 * of consumption on every link of the route (crosstraffic off). */
#ifndef COLLSIM_ROUTES_H
#define COLLSIM_ROUTES_H

#include <stddef.h>

typedef struct {
  double lat;   /* s */
  double bound; /* bytes/s: the flow's own limit */
  int n, off;   /* its links: cs_routes.links[off .. off + n) */
} cs_route;

typedef struct cs_routes {
  char tool[4096], xml[4096];
  double tcp_gamma; /* network/TCP-gamma of the timing runs (1e15: no cap) */
  int np, *host_of; /* rank -> host index */
  int nhost;
  char **host;
  /* links, by the ids collsim-routes gives them */
  double *cap;
  unsigned char *fatpipe;
  char **lname;
  int nlink, clink;
  int *lslot; /* link name -> id: open addressing over lcap slots, -1 empty */
  size_t lcap;
  int *links, nl, cl; /* the routes' link lists */
  cs_route *route;
  int nroute, croute;
  long *key; /* (host i, host j) -> route: open addressing, key i * nhost + j, -1 empty */
  int *val;
  size_t hcap, hused;
} cs_routes;

/* Routes of the platform xml, whose links the program tool (collsim-routes)
 * reads, for np ranks: rank r sits on host host[host_of[r]] (nhost names,
 * copied). 0, or -1 with a message. */
int cs_routes_open(cs_routes *rt, const char *tool, const char *xml, int nhost,
                   const char *const *host, int np, const int *host_of, char *err, size_t errlen);
void cs_routes_free(cs_routes *rt);

/* Makes the routes of the n messages src[i] -> dst[i] (ranks) known, asking
 * SimGrid once for all host pairs not known yet. 0, or -1 with a message. */
int cs_routes_need(cs_routes *rt, const int *src, const int *dst, size_t n, char *err,
                   size_t errlen);

/* The route from rank i to rank j (known after cs_routes_need), or NULL. */
const cs_route *cs_routes_find(const cs_routes *rt, int i, int j);

#endif
