/* Entry point of the driver: `collsim-driver check|bench|calibrate|lanes [options]`, started
 * by ./collsim under smpirun or mpirun. */
#include <stdio.h>
#include <string.h>
#ifndef SMPI_HELPERS_H /* force-included in the SMPI build, which needs no mallopt */
#include <malloc.h>
#endif

#include "../algos/collsim.h"
#include "driver.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
#ifndef SMPI_HELPERS_H
  /* Real MPI: freed memory stays in the process (no trimming of the heap,
   * no mmap per large block), so a kernel's temporaries of one call are the
   * warm memory of the next, as in a long-running application. With glibc's
   * defaults, a kernel that frees two temporaries of m bytes shrinks the heap
   * (free top > M_TRIM_THRESHOLD, which glibc raises to 2x the largest freed
   * mmap block) and faults the pages in again on the next call. A page fault
   * costs ~20 us on the VM collsim was developed on (1 MiB fresh: 5 ms, warm:
   * 0.01-0.1 ms), which made circulant allreduce 40-150x slower than
   * butterfly (one temporary, not trimmed) from 256 KiB on: docs/calibrate.md
   * "Page faults". 32 MiB is glibc's largest mmap threshold. */
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  /* Real MPI: every process must decide alike which integer MPI_SUM/PROD
   * the library computes exactly (cs_op_exact probes the library's
   * reduction): AND this process's probes over all (under SMPI all
   * processes share one reduction code, and the probe runs at first use). */
  uint64_t ex[CS_EXACT_WORDS];
  cs_exact_probe_all(ex);
  MPI_Allreduce(MPI_IN_PLACE, ex, CS_EXACT_WORDS, MPI_UINT64_T, MPI_BAND, MPI_COMM_WORLD);
  cs_exact_agree(ex);
#endif
  int rc = 2;
  if (argc >= 2 && !strcmp(argv[1], "check"))
    rc = cs_check_main(argc - 1, argv + 1, MPI_COMM_WORLD);
  else if (argc >= 2 && !strcmp(argv[1], "bench"))
    rc = cs_bench_main(argc - 1, argv + 1, MPI_COMM_WORLD);
  else if (argc >= 2 && !strcmp(argv[1], "calibrate"))
    rc = cs_calibrate_main(argc - 1, argv + 1, MPI_COMM_WORLD);
  else if (argc >= 2 && !strcmp(argv[1], "lanes"))
    rc = cs_lanes_main(argc - 1, argv + 1, MPI_COMM_WORLD);
  else
    fprintf(
        stderr,
        "usage: collsim-driver check|bench|calibrate|lanes [options] (normally started by ./collsim)\n");
  MPI_Finalize();
  return rc;
}
