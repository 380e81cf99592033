/*
 * api_test.c: checks the C API of the platform generator without MPI: kind names, named
 * machines, validation messages, rank placement, host-name parsing and writing to files.
 * Prints each failed check (tests/assert.h) and exits 1 if any failed.
 */
#include "../../tests/assert.h"
#include "../platgen.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  char err[256], name[64];
  cs_platform pl;
  const char *const *kinds = cs_platform_kind_names();
  int n = 0;
  while (kinds[n] != NULL) n++;
  ASSERT(n == CS_PLAT_NKINDS, "kind list has CS_PLAT_NKINDS names");
  ASSERT(strcmp(cs_platform_kind_name(CS_PLAT_THETA), "theta") == 0, "kind name of theta");
  ASSERT(cs_platform_kind_is_named(CS_PLAT_HYDRA) && !cs_platform_kind_is_named(CS_PLAT_ABG),
         "named kinds");

  ASSERT(cs_platform_named("hydra", &pl, err, sizeof err) == 0, "hydra is named");
  ASSERT(pl.nodes == 36 && pl.ppn == 32 && pl.np == 1152 && pl.lanes == 2, "hydra size");
  ASSERT(pl.RN == 12.5e9 && pl.topology == CS_TOPO_HIER, "hydra rails");
  ASSERT(cs_platform_host_name(&pl, 35 * 32 + 7, name, sizeof name) == 0 &&
             strcmp(name, "node35-7") == 0,
         "hydra host of rank 1127");
  int node, local, lane;
  ASSERT(cs_platform_locate(&pl, 33, &node, &local, &lane) == 0 && node == 1 && local == 1 &&
             lane == 1,
         "hydra rank 33 is node 1, local 1, lane 1");
  ASSERT(cs_platform_locate(&pl, 1152, &node, &local, &lane) == -1, "rank out of range");
  ASSERT(cs_platform_hosts_per_rank(&pl), "hydra 36 x 32 (two lanes): one host per rank");
  pl.nodes = 32;
  pl.ppn = 1;
  ASSERT(cs_platform_check(&pl, err, sizeof err) == 0 && pl.lanes == 1 &&
             !cs_platform_hosts_per_rank(&pl) &&
             cs_platform_host_name(&pl, 31, name, sizeof name) == 0 && strcmp(name, "node31") == 0,
         "hydra 32 x 1 (one lane): one host per node, rank 31 on node31");
  ASSERT(cs_platform_init("bluewaters", &pl, err, sizeof err) == 0 &&
             !cs_platform_hosts_per_rank(&pl) &&
             cs_platform_host_name(&pl, 16 * 3 + 5, name, sizeof name) == 0 &&
             strcmp(name, "node3") == 0,
         "bluewaters (one lane): rank 53 on host node3");

  ASSERT(cs_platform_named("abg", &pl, err, sizeof err) == -1 && strstr(err, "hydra") != NULL,
         "abg is not a named machine");
  ASSERT(cs_platform_init("nope", &pl, err, sizeof err) == -1 && strstr(err, "bluewaters") != NULL,
         "unknown kind lists the valid kinds");

  ASSERT(cs_platform_init("theta", &pl, err, sizeof err) == 0 && pl.np == 8192 &&
             pl.alpha == 5e-7 && pl.slots == 4608,
         "theta defaults");
  ASSERT(cs_platform_host_name(&pl, 8191, name, sizeof name) == 0 && strcmp(name, "node127") == 0,
         "theta host of rank 8191");
  pl.nodes = 5000;
  ASSERT(cs_platform_check(&pl, err, sizeof err) == -1 && strstr(err, "4392") != NULL,
         "theta node limit");

  ASSERT(cs_platform_init("abg", &pl, err, sizeof err) == 0, "abg defaults");
  pl.np = 3;
  pl.beta = 2e-9;
  ASSERT(cs_platform_check(&pl, err, sizeof err) == 0 && pl.nodes == 3 && pl.Rb > 4.999999e8 &&
             pl.Rb < 5.000001e8,
         "abg derived fields");
  pl.gamma = -1;
  ASSERT(cs_platform_check(&pl, err, sizeof err) == -1 && strstr(err, "gamma") != NULL,
         "negative gamma rejected");
  pl.gamma = 0;
  ASSERT(cs_platform_check(&pl, err, sizeof err) == 0, "gamma 0 accepted");
  FILE *x = tmpfile(), *h = tmpfile();
  ASSERT(x && h && cs_platform_write(x, h, &pl) == 0, "write abg");
  if (x && h) {
    char line[256];
    int found = 0, lines = 0;
    rewind(x);
    while (fgets(line, sizeof line, x))
      if (strstr(line, "speed=\"1e30f\"") && strstr(line, "radical=\"0-2\"")) found = 1;
    rewind(h);
    while (fgets(line, sizeof line, h)) lines++;
    ASSERT(found, "gamma 0 is written as speed 1e30f");
    ASSERT(lines == 3, "abg hostfile has np lines");
    fclose(x);
    fclose(h);
  }

  ASSERT(cs_platform_init("lanes", &pl, err, sizeof err) == 0, "lanes defaults");
  pl.lanes = 9;
  ASSERT(cs_platform_check(&pl, err, sizeof err) == -1 && strstr(err, "lanes") != NULL,
         "lanes > ppn rejected");

  ASSERT(cs_platform_parse_host("node12-3", &node, &local) == 0 && node == 12 && local == 3,
         "parse node12-3");
  ASSERT(cs_platform_parse_host("node7", &node, &local) == 0 && node == 7 && local == -1,
         "parse node7");
  ASSERT(cs_platform_parse_host("node7-", &node, &local) == -1, "reject node7-");
  ASSERT(cs_platform_parse_host("nodex", &node, &local) == -1, "reject nodex");
  ASSERT(cs_platform_parse_host("node1_lane0", &node, &local) == -1, "reject node1_lane0");
  ASSERT(strstr(cs_platform_smpirun_flags(), "--cfg=network/model:CM02") != NULL, "flags");

  return cs_test_end();
}
