/* Circulant allgather(v) (Träff, Hunold, Vardas, Funk 2023, Sec. III-E,
 * Listing 7), and the shared core of the ceil-halving allgather.
 *
 * Accepts: any p, any block sizes, MPI_IN_PLACE, send and receive types
 * with matching signatures.
 * Schedule: blocks are numbered relative to the rank (rel j is block
 * (r + j) mod p). Round k receives rel [skips[k], skips[k+1]) from a peer at
 * distance dist_k and sends rel [a_k, a_k + d_k) to the peer at -dist_k:
 *   circulant:  dist_k = d_k,        a_k = e_k (Listing 7);
 *   ceil-half:  dist_k = skips[k],   a_k = 0  (the reverse of ceil-halving).
 * Both fill rel [1, p) in q = ceil(log2 p) rounds with p - 1 blocks.
 * Buffers: every block goes straight to its place in recvbuf. A range of
 * blocks that wraps around the end of recvbuf (or whose blocks are not back
 * to back) is described by an hindexed type, so the listing's two-buffer
 * trick and its copy of up to ceil(p/2) blocks are not needed: the only
 * local work is the copy of the own block when not in place.
 * Cost = q alpha + beta (p-1)/p m + gamma m/p (0 in place), within Table I's
 * q alpha + beta (p-1)/p m + gamma ceil(m/2).
 * Memory: none besides the datatypes.
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_allgather_core(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                      const cs_layout *l, MPI_Datatype dt, MPI_Comm comm, int ceilhalf) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  long own_n = cs_lcount(l, r);
  char *own_place = (char *)recvbuf + cs_ldispl(l, r) * cs_extent(dt);
  if (sendbuf != MPI_IN_PLACE) CS_CHECK(cs_copy(sendbuf, scount, stype, own_place, own_n, dt));
  if (p == 1) return MPI_SUCCESS;
  cs_circ c;
  cs_circ_init(&c, p);
  int rc = MPI_SUCCESS;
  for (int k = 0; k < c.q && rc == MPI_SUCCESS; k++) {
    int dist = ceilhalf ? c.skips[k] : c.d[k];
    int a = ceilhalf ? 0 : c.e[k];
    cs_view sv, rv;
    rc = cs_view_range(&sv, recvbuf, dt, l, r + a, c.d[k]);
    if (rc != MPI_SUCCESS) break;
    rc = cs_view_range(&rv, recvbuf, dt, l, r + c.skips[k], c.d[k]);
    if (rc == MPI_SUCCESS) {
      rc = cs_sendrecv_views(&sv, cs_mod(r - dist, p), &rv, (r + dist) % p, comm);
      cs_view_free(&rv);
    }
    cs_view_free(&sv);
  }
  return rc;
}

int cs_piece_allgatherv_circulant(const void *sendbuf, int scount, MPI_Datatype stype,
                                  void *recvbuf, const cs_layout *l, MPI_Datatype dt, MPI_Comm comm,
                                  const cs_ctx *ctx) {
  (void)ctx;
  return cs_allgather_core(sendbuf, scount, stype, recvbuf, l, dt, comm, 0);
}

int cs_allgather_circulant(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_regular(p, recvcount);
  return cs_piece_allgatherv_circulant(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm,
                                       ctx);
}

int cs_allgatherv_circulant(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_arrays(p, recvcounts, displs);
  return cs_piece_allgatherv_circulant(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm,
                                       ctx);
}
