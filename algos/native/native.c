/* The MPI library's own collectives, so that every comparison can include
 * the library. Under SMPI, `native:NAME` selects SMPI's algorithm NAME: the
 * launcher passes --cfg=smpi/<collective>:NAME, the call here is the same. */
#include "../collsim.h"

int cs_allreduce_native(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                        MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Allreduce(sendbuf, recvbuf, count, dt, op, comm);
}
int cs_reduce_native(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                     int root, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Reduce(sendbuf, recvbuf, count, dt, op, root, comm);
}
int cs_reduce_scatter_block_native(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype dt, MPI_Op op, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, dt, op, comm);
}
int cs_reduce_scatter_native(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype dt, MPI_Op op, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, dt, op, comm);
}
int cs_allgather_native(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}
int cs_allgatherv_native(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}
int cs_gather_native(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int cs_gatherv_native(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                     comm);
}
int cs_scatter_native(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
}
int cs_scatterv_native(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                      comm);
}
int cs_bcast_native(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm,
                    const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Bcast(buf, count, dt, root, comm);
}
int cs_scan_native(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                   MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Scan(sendbuf, recvbuf, count, dt, op, comm);
}
int cs_exscan_native(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                     MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  return MPI_Exscan(sendbuf, recvbuf, count, dt, op, comm);
}
