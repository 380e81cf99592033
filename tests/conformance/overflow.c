/* Conformance: MPI_Allreduce of 8- and 16-bit integer sums and products
 * that overflow must give every process the same bits. MPI defines integer
 * overflow nowhere, and a library need not wrap around: Open MPI 4.1's op/avx
 * component saturates 8- and 16-bit sums in its vector loop and wraps in its
 * scalar tail (open-mpi/ompi#8045), so the result depends on the order and
 * grouping of the additions, and an algorithm that reduces in a different
 * order on every process (the circulant allreduce) gave different results
 * on different processes. Whatever the library's arithmetic, every process
 * of an allreduce must get the same result: each process prints, per type,
 * op and communicator, in how many of its calls its result differed from
 * the result of rank 0 of the communicator (sent to it point to point), so
 * the output is the same on the library alone and through the PMPI library
 * with every algorithm (run.sh), and shows 0 everywhere.
 *
 * Types: MPI_INT8_T, MPI_UINT8_T, MPI_INT16_T, MPI_UINT16_T, MPI_CHAR,
 * MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_SHORT, MPI_UNSIGNED_SHORT; ops
 * MPI_SUM and MPI_PROD; counts p+1, 64 and 1000 (the library's vector
 * loop takes 16 bytes and more); in place and not; pseudo-random values
 * over the type's whole range (sums overflow upwards and downwards).
 *
 *   mpirun -np P overflow [ITERS]
 */
#include "conf.h"

#define OVF_TAG 9174

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb93fe53ccd4fULL;
  return x ^ (x >> 33);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int iters = argc > 1 ? atoi(argv[1]) : 2;
  static const struct {
    const char *name;
    MPI_Datatype dt;
  } ts[] = {{"int8_t", MPI_INT8_T},
            {"uint8_t", MPI_UINT8_T},
            {"int16_t", MPI_INT16_T},
            {"uint16_t", MPI_UINT16_T},
            {"char", MPI_CHAR},
            {"signed_char", MPI_SIGNED_CHAR},
            {"unsigned_char", MPI_UNSIGNED_CHAR},
            {"short", MPI_SHORT},
            {"unsigned_short", MPI_UNSIGNED_SHORT}};
  MPI_Comm comm;
  const char *cname;
  int p, r;
  for (int k = 0; conf_comm(k, &comm, &cname, &p, &r); k++) {
    const int counts[3] = {p + 1, 64, 1000};
    for (size_t t = 0; t < sizeof ts / sizeof ts[0]; t++)
      for (int o = 0; o < 2; o++) {
        int size, calls = 0, differ = 0, errors = 0;
        MPI_Type_size(ts[t].dt, &size);
        for (int it = 0; it < iters; it++)
          for (int ci = 0; ci < 3; ci++)
            for (int ip = 0; ip < 2; ip++) {
              int n = counts[ci];
              size_t bytes = (size_t)n * (size_t)size;
              unsigned char *s = malloc(bytes), *d = malloc(bytes), *d0 = malloc(bytes);
              for (size_t i = 0; i < bytes; i++) {
                uint64_t h =
                    mix(((uint64_t)r << 40) ^ ((uint64_t)i << 8) ^ (uint64_t)(it * 16 + o));
                /* products: mostly odd factors, so they do not all become 0 */
                s[i] = (unsigned char)(o && i % (size_t)size == 0 && h % 4 ? h | 1 : h);
              }
              memcpy(d, s, bytes);
              int rc = MPI_Allreduce(ip ? MPI_IN_PLACE : s, d, n, ts[t].dt, o ? MPI_PROD : MPI_SUM,
                                     comm);
              calls++;
              errors += rc != MPI_SUCCESS;
              if (r == 0) {
                for (int q = 1; q < p; q++) MPI_Send(d, (int)bytes, MPI_BYTE, q, OVF_TAG, comm);
              } else {
                MPI_Recv(d0, (int)bytes, MPI_BYTE, 0, OVF_TAG, comm, MPI_STATUS_IGNORE);
                differ += memcmp(d, d0, bytes) != 0;
              }
              free(s), free(d), free(d0);
            }
        char label[160], line[160];
        snprintf(label, sizeof label, "allreduce %s %s comm=%s", ts[t].name, o ? "prod" : "sum",
                 cname);
        snprintf(line, sizeof line, "%d calls, %d differ from rank 0's result, %d errors", calls,
                 differ, errors);
        conf_report(label, line);
      }
    conf_comm_free(&comm);
  }
  conf_finish();
  MPI_Finalize();
  return 0;
}
