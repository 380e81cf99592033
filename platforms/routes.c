/* collsim-routes PLATFORM: the routes of any SimGrid platform as SimGrid's own
 * loader and routing give them (clusters, fat trees, dragonflies, Full zones,
 * C++ platforms), for the fluid evaluator (models/routes.h, models/fluid.c).
 *
 * Standard input: a count n, then n host names (one per line), then pairs
 * "i j" of indices into those names, one per line, up to the end. Standard
 * output: for every pair, in order, a line
 *   R i j LATENCY K ID_1 .. ID_K
 * (the route's latency in s as SimGrid sums it, and its K links), each link
 * introduced on its first use by a line
 *   L ID BANDWIDTH LATENCY FATPIPE NAME
 * (bytes/s, s, 1 for a FATPIPE link whose capacity limits each flow but is
 * not shared, else 0). A SPLITDUPLEX link appears as its two directions
 * (NAME_UP, NAME_DOWN), as SimGrid's routes hold them. An unknown host name
 * prints "E host NAME" and exits 1; a file SimGrid cannot read ends with
 * SimGrid's own message on standard error. */
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/dynar.h>
#include <xbt/log.h>

typedef struct {
  const void *key;
  int id;
} slot;

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: collsim-routes PLATFORM.xml < hosts-and-pairs\n");
    return 2;
  }
  char *args[] = {argv[0], "--log=root.thres:critical", "--log=xbt_exception.thres:error", NULL};
  int na = 3;
  simgrid_init(&na, args);
  simgrid_load_platform(argv[1]);
  /* Seals the platform (zones such as DijkstraCache build their graphs then;
   * routing before it fails): no actor, so the run ends at once. */
  simgrid_run();
  int n;
  if (scanf("%d", &n) != 1 || n < 0) {
    fprintf(stderr, "collsim-routes: expected a host count on standard input\n");
    return 2;
  }
  sg_host_t *h = malloc(sizeof *h * (size_t)(n ? n : 1));
  char name[1024];
  for (int i = 0; i < n; i++) {
    if (scanf("%1023s", name) != 1) {
      fprintf(stderr, "collsim-routes: expected %d host names\n", n);
      return 2;
    }
    h[i] = sg_host_by_name(name);
    if (!h[i]) {
      printf("E host %s\n", name);
      return 1;
    }
  }
  /* link pointer -> id, open addressing */
  size_t cap = 1 << 12, used = 0;
  slot *tab = calloc(cap, sizeof *tab);
  int nlinks = 0;
  xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
  int i, j;
  while (scanf("%d %d", &i, &j) == 2) {
    if (i < 0 || i >= n || j < 0 || j >= n) {
      fprintf(stderr, "collsim-routes: host index out of range 0..%d\n", n - 1);
      return 2;
    }
    xbt_dynar_reset(links);
    sg_host_get_route(h[i], h[j], links);
    double lat = sg_host_get_route_latency(h[i], h[j]);
    unsigned k, nl = (unsigned)xbt_dynar_length(links);
    int *ids = malloc(sizeof *ids * (nl ? nl : 1));
    for (k = 0; k < nl; k++) {
      sg_link_t l = xbt_dynar_get_as(links, k, sg_link_t);
      if (2 * (used + 1) > cap) { /* rehash */
        slot *t2 = calloc(2 * cap, sizeof *t2);
        for (size_t s = 0; s < cap; s++)
          if (tab[s].key) {
            size_t q = ((size_t)tab[s].key >> 4) & (2 * cap - 1);
            while (t2[q].key) q = (q + 1) & (2 * cap - 1);
            t2[q] = tab[s];
          }
        free(tab);
        tab = t2;
        cap *= 2;
      }
      size_t q = ((size_t)l >> 4) & (cap - 1);
      while (tab[q].key && tab[q].key != l) q = (q + 1) & (cap - 1);
      if (!tab[q].key) {
        tab[q].key = l;
        tab[q].id = nlinks++;
        used++;
        printf("L %d %.17g %.17g %d %s\n", tab[q].id, sg_link_get_bandwidth(l),
               sg_link_get_latency(l), !sg_link_is_shared(l), sg_link_get_name(l));
      }
      ids[k] = tab[q].id;
    }
    printf("R %d %d %.17g %u", i, j, lat, nl);
    for (k = 0; k < nl; k++) printf(" %d", ids[k]);
    printf("\n");
    free(ids);
  }
  xbt_dynar_free(&links);
  free(tab);
  free(h);
  return 0;
}
