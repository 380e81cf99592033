/* Allreduce as reduce-scatter followed by allgather, composed (not copied)
 * from the kernels of one family: the vector is split into p blocks as
 * evenly as possible, each rank reduces its block into its place in recvbuf
 * and the allgather runs in place.
 *   ceilhalf:        2 ceil(log2 p) rounds, 2 (p-1) blocks (the seed's Alg. 2);
 *   circulant_rsag:  2 ceil(log2 p) rounds, (2^q - 1) + (p - 1) blocks
 *                    (Träff et al. 2023, Sec. III-G).
 */
#include "../collsim.h"
#include "../kernel.h"

typedef int (*rs_core_fn)(const void *, void *, const cs_layout *, MPI_Datatype, MPI_Op, MPI_Comm,
                          int);

static int rsag(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                MPI_Comm comm, rs_core_fn rs, int ceilhalf) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  cs_layout l = cs_layout_even(p, count);
  int inplace = sendbuf == MPI_IN_PLACE;
  char *own = (char *)recvbuf + cs_ldispl(&l, r) * cs_extent(dt);
  CS_CHECK(rs(inplace ? recvbuf : sendbuf, own, &l, dt, op, comm, inplace));
  return cs_allgather_core(MPI_IN_PLACE, 0, dt, recvbuf, &l, dt, comm, ceilhalf);
}

int cs_allreduce_ceilhalf(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                          MPI_Comm comm) {
  return rsag(sendbuf, recvbuf, count, dt, op, comm, cs_ceilhalf_reduce_scatter_core, 1);
}

int cs_allreduce_circulant_rsag(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt,
                                MPI_Op op, MPI_Comm comm) {
  return rsag(sendbuf, recvbuf, count, dt, op, comm, cs_circ_reduce_scatter_core, 0);
}
