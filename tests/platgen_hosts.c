/* platgen_hosts FILE: the hosts the platform generator says FILE holds
 * (cs_platform_read_generated, cs_platform_host_at), one "NAME CORES SPEED" line
 * each in collsim-hosts' format; exit status 1 if FILE is not, byte for byte,
 * what the generator writes for its collsim-model line. For
 * tests/platgen_hosts.sh, which holds these lines to what SimGrid reads. */
#include <stdio.h>

#include "platgen.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: platgen_hosts FILE\n");
    return 2;
  }
  cs_platform pl;
  if (cs_platform_read_generated(argv[1], &pl) != 0) {
    printf("not generated\n");
    return 1;
  }
  int n = cs_platform_host_count(&pl);
  for (int i = 0; i < n; i++) {
    char name[256];
    int cores;
    double speed;
    if (cs_platform_host_at(&pl, i, name, sizeof name, &cores, &speed) != 0) return 3;
    printf("%s %d %.17g\n", name, cores, speed);
  }
  return 0;
}
