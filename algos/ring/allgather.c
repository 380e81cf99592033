/* Ring allgather(v) (Rabenseifner 2004, Sec. 2.7: the second half of the
 * ring allreduce; MPICH's and Open MPI's ring allgather).
 *
 * Accepts: any p, any block sizes (zero blocks included), MPI_IN_PLACE,
 * derived types.
 * Schedule: the own block is copied to its place (unless in place); then
 * p - 1 steps: in step k rank r sends block (r - k) mod p to r + 1 and
 * receives block (r - k - 1) mod p from r - 1, straight to its place in
 * recvbuf (a view of the block: no copies).
 * Cost = (p - 1) alpha + beta (p - 1)/p m for regular blocks (every block
 * but the own one arrives once) + the own block's copy.
 * Memory: none beyond the block views.
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_piece_allgatherv_pairring(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                                 const cs_layout *l, MPI_Datatype dt, MPI_Comm comm,
                                 const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Aint ext = cs_extent(dt);
  int rc = MPI_SUCCESS;
  if (sendbuf != MPI_IN_PLACE)
    rc = cs_copy(sendbuf, scount, stype, (char *)recvbuf + cs_ldispl(l, r) * ext, cs_lcount(l, r),
                 dt);
  int to = (r + 1) % p, from = cs_mod(r - 1, p);
  for (int k = 0; k < p - 1 && rc == MPI_SUCCESS; k++) {
    cs_view sv, rv;
    rc = cs_view_range(&sv, recvbuf, dt, l, cs_mod(r - k, p), 1);
    if (rc != MPI_SUCCESS) break;
    rc = cs_view_range(&rv, recvbuf, dt, l, cs_mod(r - k - 1, p), 1);
    if (rc == MPI_SUCCESS) {
      rc = cs_sendrecv_views(&sv, to, &rv, from, comm);
      cs_view_free(&rv);
    }
    cs_view_free(&sv);
  }
  return rc;
}

int cs_allgather_pairring(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_regular(p, recvcount);
  return cs_piece_allgatherv_pairring(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm,
                                      ctx);
}

int cs_allgatherv_pairring(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                           MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_arrays(p, recvcounts, displs);
  return cs_piece_allgatherv_pairring(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm,
                                      ctx);
}
