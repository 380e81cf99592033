/* Linear gather(v), registered as gatherv toroot ("linear" is a word of the
 * code, tests/registry_names.sh): every process sends its block straight to the root
 * (Rabenseifner 2004, Sec. 2.7: the ring reduce's second phase, "every
 * process sends its result segment to the root"; reduce pairring composes
 * it after the pairring reduce-scatter).
 *
 * Accepts: any p, any root, any block sizes (zero blocks: no message),
 * MPI_IN_PLACE at the root, derived types; prepacked blocks (a piece of a
 * composition) are sent as MPI_PACKED bytes.
 * Schedule: the root copies its own block to its place (unless in place) and
 * receives the others' blocks in rank order, each straight to its place (a
 * view of the block); the others send once.
 * Cost = (p - 1) alpha + beta (p - 1)/p m at the root (the messages arrive
 * one after the other over its link).
 * Memory: none beyond the block views.
 */
#include <stdlib.h>

#include "../collsim.h"
#include "../kernel.h"

int cs_piece_gatherv_toroot(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                            const cs_layout *l, MPI_Datatype rtype, int root, MPI_Comm comm,
                            void *prepacked, const cs_ctx *ctx) {
  (void)ctx;
  int p, r, rc = MPI_SUCCESS;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  if (r != root) {
    if (prepacked) {
      int bytes = 0;
      rc = MPI_Pack_size(scount, stype, comm, &bytes);
      if (rc == MPI_SUCCESS && bytes > 0)
        rc = cs_flushed(MPI_Send(prepacked, bytes, MPI_PACKED, root, CS_TAG, comm));
      free(prepacked);
      return rc;
    }
    if (scount > 0) rc = cs_flushed(MPI_Send(sendbuf, scount, stype, root, CS_TAG, comm));
    return rc;
  }
  MPI_Aint ext = cs_extent(rtype);
  if (sendbuf != MPI_IN_PLACE)
    rc = cs_copy(sendbuf, scount, stype, (char *)recvbuf + cs_ldispl(l, r) * ext, cs_lcount(l, r),
                 rtype);
  for (int i = 0; i < p && rc == MPI_SUCCESS; i++) {
    if (i == root || cs_lcount(l, i) == 0) continue;
    cs_view v;
    rc = cs_view_range(&v, recvbuf, rtype, l, i, 1);
    if (rc != MPI_SUCCESS) break;
    rc = cs_flushed(MPI_Recv(v.buf, v.count, v.type, i, CS_TAG, comm, MPI_STATUS_IGNORE));
    cs_view_free(&v);
  }
  return rc;
}

int cs_gatherv_toroot(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, const cs_ctx *ctx) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  cs_layout l = cs_layout_arrays(p, r == root ? recvcounts : NULL, r == root ? displs : NULL);
  return cs_piece_gatherv_toroot(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, root, comm,
                                 NULL, ctx);
}
