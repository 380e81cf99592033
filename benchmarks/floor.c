/* collsim-floor REPS BYTES [FLOPS [sleep]] [halving] [xor]: the engine's floor, a bare SMPI program
 * with the message pattern of the circulant algorithms and nothing else: REPS times the q =
 * ceil(log2 p) rounds of the circulant schedule (algos/sched.h), in round k every rank sends BYTES
 * to rank - d_k and receives BYTES from rank + d_k with one MPI_Sendrecv, from a buffer of
 * SMPI_SHARED_MALLOC. No harness, no local work, no collsim kernel: p q REPS messages (none for
 * BYTES = 0, which measures MPI_Init and MPI_Finalize alone). With FLOPS > 0
 * every round also charges smpi_execute_flops(FLOPS), as a kernel that
 * reduces what it received charges its local work; with FLOPS > 0 and
 * "sleep", every round sleeps FLOPS / host speed seconds instead, as
 * algos/local.c charges a round's work where a sleep is exact (a host with a
 * core per process). With "halving", round k sends and receives
 * BYTES / 2^k (at least 1) and charges FLOPS / 2^k, the shape of the
 * reduce-scatter kernels (circulant, butterfly, ceilhalf: the half still to
 * be reduced goes out each round). With "xor", round k exchanges with rank
 * XOR 2^k instead (the butterfly's partners; ranks whose partner is >= p
 * skip the round, so p q REPS messages only for p a power of two). Compiled for smpirun like
 * collsim-smpi; benchmarks/scale.sh compares collsim's CPU per simulated message with this
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
  int reps = argc >= 3 ? atoi(argv[1]) : -1, halving = 0, sleeping = 0, xor = 0;
  long bytes = argc >= 3 ? atol(argv[2]) : -1;
  double flops = 0;
  for (int i = 3; i < argc && reps >= 0; i++) {
    char *end;
    if (!strcmp(argv[i], "sleep") && flops > 0)
      sleeping = 1;
    else if (!strcmp(argv[i], "halving"))
      halving = 1;
    else if (!strcmp(argv[i], "xor"))
      xor = 1;
    else if (i == 3 && (flops = strtod(argv[i], &end)) >= 0 && *end == '\0')
      continue;
    else
      reps = -1;
  }
  if (reps < 0 || bytes < 0 || bytes > 1L << 30) {
    if (r == 0)
      fprintf(stderr,
              "usage: collsim-floor REPS BYTES [FLOPS [sleep]] [halving] [xor] (BYTES <= 1 GiB; "
              "sleep needs FLOPS > 0)\n");
    MPI_Finalize();
    return 2;
  }
  double speed = sg_host_get_speed(sg_host_self());
  cs_circ c;
  cs_circ_init(&c, p);
  char *buf = bytes > 0 ? SMPI_SHARED_MALLOC(2 * (size_t)bytes) : NULL;
  for (int i = 0; i < reps && bytes > 0; i++)
    for (int k = 0; k < c.q; k++) {
      int b = (int)(halving ? (bytes >> k > 0 ? bytes >> k : 1) : bytes);
      double f = halving ? flops / (double)(1L << k) : flops;
      int to = (r - c.d[k] + p) % p, from = (r + c.d[k]) % p;
      if (xor) to = from = (r ^ 1 << k) < p ? r ^ 1 << k : MPI_PROC_NULL;
      MPI_Sendrecv(buf, b, MPI_BYTE, to, 1, buf + bytes, b, MPI_BYTE, from, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      if (sleeping)
        sg_actor_sleep_for(f / speed);
      else if (f > 0)
        smpi_execute_flops(f);
    }
  if (buf) SMPI_SHARED_FREE(buf);
  MPI_Finalize();
  return 0;
}
