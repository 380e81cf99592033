/* collsim-hosts PLATFORM: the hosts of any SimGrid platform, as SimGrid itself
 * reads the file (clusters expanded, C++ platforms loaded), one line each:
 *   NAME CORES SPEED_FLOPS
 * in the order SimGrid lists them (smpirun without a hostfile places rank i
 * on the i-th host, round-robin). The front door uses it to place ranks when
 * no hostfile is given, to check a hostfile's names before a launch, and to
 * state the gamma a platform's host speed implies (platforms/foreign.c). */
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <xbt/log.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: collsim-hosts PLATFORM.xml\n");
    return 2;
  }
  /* Quiet, but for SimGrid's own reason when it cannot read the file ("Parse
   * error at F:7: ..."), which the front door passes on verbatim. */
  char *args[] = {argv[0], "--log=root.thres:critical", "--log=xbt_exception.thres:error", NULL};
  int n = 3;
  simgrid_init(&n, args);
  simgrid_load_platform(argv[1]);
  sg_host_t *hosts = sg_host_list();
  size_t count = sg_host_count();
  for (size_t i = 0; i < count; i++)
    printf("%s %d %.17g\n", sg_host_get_name(hosts[i]), sg_host_core_count(hosts[i]),
           sg_host_get_speed(hosts[i]));
  free(hosts);
  return 0;
}
