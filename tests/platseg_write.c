/* platseg_write: writes an abg platform with known calibrated segments (network,
 * local reductions and local copies, algos/pwcost.h) through the platform generator, for
 * tests/model_vs_sim_seg.sh. usage: platseg_write OUT.xml OUT.hostfile NP */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platgen.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: platseg_write OUT.xml OUT.hostfile NP\n");
    return 2;
  }
  cs_platform pl;
  char err[256];
  if (cs_platform_init("abg", &pl, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  pl.np = atoi(argv[3]);
  pl.alpha = 1e-6;
  pl.beta = 2e-10;
  pl.gamma = 3e-10;
  /* Three network regimes with jumps (eager, rendezvous, out of cache): an m-byte
   * message costs a_i + b_i m, the envelope included. */
  const char *net = "0:3e-7:1e-10;4000:1.5e-6:1.3e-10;3000000:2e-4:5e-10";
  /* Local work: in cache, then out of cache. */
  const char *loc = "0:4e-8:2e-11;1048576:-1e-4:1.2e-10";
  /* Copies: cheaper than reductions, out of cache earlier (256 KiB). */
  const char *cpy = "0:2e-8:1e-11;262144:-5e-6:6e-11";
  if (cs_pw_parse(net, &pl.net) || cs_pw_parse(loc, &pl.local) || cs_pw_parse(cpy, &pl.copy)) {
    fprintf(stderr, "bad segments\n");
    return 1;
  }
  if (cs_platform_check(&pl, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  FILE *x = fopen(argv[1], "w"), *h = fopen(argv[2], "w");
  if (!x || !h) {
    perror("platseg_write");
    return 1;
  }
  int rc = cs_platform_write(x, h, &pl);
  fclose(x);
  fclose(h);
  return rc ? 1 : 0;
}
