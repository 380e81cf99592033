/* Ceil-halving allgather(v): the reduce-scatter of the ceilhalf seed run
 * backwards with the stacked skips 1, 2, 3, 5, 9, ... (phase 2 of its
 * allreduce). Round k receives rel [skips[k], skips[k+1]) from r + skips[k]
 * and sends rel [0, skips[k+1] - skips[k]) to r - skips[k]: p - 1 blocks in
 * ceil(log2 p) rounds. It shares the buffer handling (every block straight
 * to its place, no copies) with the circulant allgather: see
 * circulant/allgather.c.
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_piece_allgatherv_ceilhalf(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                                 const cs_layout *l, MPI_Datatype dt, MPI_Comm comm,
                                 const cs_ctx *ctx) {
  (void)ctx;
  return cs_allgather_core(sendbuf, scount, stype, recvbuf, l, dt, comm, 1);
}

int cs_allgather_ceilhalf(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_regular(p, recvcount);
  return cs_piece_allgatherv_ceilhalf(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm,
                                      ctx);
}

int cs_allgatherv_ceilhalf(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_arrays(p, recvcounts, displs);
  return cs_piece_allgatherv_ceilhalf(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm,
                                      ctx);
}
