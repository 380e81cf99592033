/* collsim-floor REPS BYTES [FLOPS [sleep]]: the engine's floor, a bare SMPI program with the
 * message pattern of the circulant algorithms and nothing else: REPS times
 * the q = ceil(log2 p) rounds of the circulant schedule (algos/sched.h), in
 * round k every rank sends BYTES to rank - d_k and receives BYTES from
 * rank + d_k with one MPI_Sendrecv, from a buffer of SMPI_SHARED_MALLOC. No
 * harness, no local work, no collsim kernel: p q REPS messages (none for
 * BYTES = 0, which measures MPI_Init and MPI_Finalize alone). With FLOPS > 0
 * every round also charges smpi_execute_flops(FLOPS), as a kernel that
 * reduces what it received charges its local work; with FLOPS > 0 and
 * "sleep", every round sleeps FLOPS / host speed seconds instead, as
 * algos/local.c charges a round's work where a sleep is exact (a host with a
 * core per process). Compiled for smpirun like collsim-smpi;
 * benchmarks/scale.sh compares collsim's CPU per simulated message with this
 * program's, without and with the sleeps. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/host.h>

#include "sched.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (argc < 3 || argc > 5 || atoi(argv[1]) < 0 || atol(argv[2]) < 0 || atol(argv[2]) > 1L << 30 ||
      (argc == 5 && strcmp(argv[4], "sleep") != 0)) {
    if (r == 0)
      fprintf(stderr, "usage: collsim-floor REPS BYTES [FLOPS [sleep]] (BYTES <= 1 GiB)\n");
    MPI_Finalize();
    return 2;
  }
  int reps = atoi(argv[1]), bytes = (int)atol(argv[2]);
  double flops = argc > 3 ? atof(argv[3]) : 0;
  double nap = argc > 4 ? flops / sg_host_get_speed(sg_host_self()) : 0;
  cs_circ c;
  cs_circ_init(&c, p);
  char *buf = bytes > 0 ? SMPI_SHARED_MALLOC(2 * (size_t)bytes) : NULL;
  for (int i = 0; i < reps && bytes > 0; i++)
    for (int k = 0; k < c.q; k++) {
      MPI_Sendrecv(buf, bytes, MPI_BYTE, (r - c.d[k] + p) % p, 1, buf + bytes, bytes, MPI_BYTE,
                   (r + c.d[k]) % p, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (nap > 0)
        sg_actor_sleep_for(nap);
      else if (flops > 0)
        smpi_execute_flops(flops);
    }
  if (buf) SMPI_SHARED_FREE(buf);
  MPI_Finalize();
  return 0;
}
