/* Butterfly allgather(v): recursive doubling with the non-power-of-two
 * correction (the "standard" column of Table I in Träff et al. 2023).
 *
 * Accepts: any p, any block sizes and displacements, MPI_IN_PLACE, send
 * and receive types with matching signatures.
 * Schedule: the first 2 rem ranks pair up and each odd rank sends its block
 * to rank - 1; the p2 survivors then exchange, with partner newrank ^ 2^k,
 * all blocks gathered so far (those of the survivors in their aligned
 * window of 2^k), log2 p2 rounds; finally each surviving even rank sends
 * the whole result to rank + 1. Everything moves inside recvbuf, so the
 * only copy is the own block (not in place).
 * Cost (p not a power of two) = alpha + beta m/p + log2 p2 alpha
 * + beta (m - 2m/p) + alpha + beta m, plus gamma m/p.
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_piece_allgatherv_butterfly(const void *sendbuf, int scount, MPI_Datatype stype,
                                  void *recvbuf, const cs_layout *l, MPI_Datatype dt, MPI_Comm comm,
                                  const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Aint ext = cs_extent(dt);
  char *rb = recvbuf;
  if (sendbuf != MPI_IN_PLACE)
    CS_CHECK(cs_copy(sendbuf, scount, stype, rb + cs_ldispl(l, r) * ext, cs_lcount(l, r), dt));
  if (p == 1) return MPI_SUCCESS;
  cs_bfly bf;
  cs_bfly_init(&bf, p);
  int nr = cs_bfly_newrank(&bf, r, 0), rc = MPI_SUCCESS;
  cs_view sv, rv;
  if (r < 2 * bf.rem) {
    if (nr < 0) {
      CS_CHECK(cs_view_range(&sv, rb, dt, l, r, 1));
      rc = cs_sendrecv(sv.buf, sv.count, sv.type, r - 1, NULL, 0, dt, MPI_PROC_NULL, comm);
      cs_view_free(&sv);
    } else {
      CS_CHECK(cs_view_range(&rv, rb, dt, l, r + 1, 1));
      rc = cs_sendrecv(NULL, 0, dt, MPI_PROC_NULL, rv.buf, rv.count, rv.type, r + 1, comm);
      cs_view_free(&rv);
    }
  }
  if (nr >= 0) {
    for (int mask = 1; mask < bf.p2 && rc == MPI_SUCCESS; mask <<= 1) {
      int mine = nr & ~(mask - 1), theirs = (nr ^ mask) & ~(mask - 1);
      int lo, hi, lo2, hi2;
      cs_bfly_blocks(&bf, mine, &lo, &hi);
      cs_bfly_blocks(&bf, mine + mask - 1, &lo2, &hi2);
      rc = cs_view_range(&sv, rb, dt, l, lo, hi2 - lo);
      cs_bfly_blocks(&bf, theirs, &lo, &hi);
      cs_bfly_blocks(&bf, theirs + mask - 1, &lo2, &hi2);
      if (rc == MPI_SUCCESS) rc = cs_view_range(&rv, rb, dt, l, lo, hi2 - lo);
      if (rc != MPI_SUCCESS) break;
      int peer = cs_bfly_oldrank(&bf, nr ^ mask, 0);
      rc = cs_sendrecv_views(&sv, peer, &rv, peer, comm);
      cs_view_free(&sv);
      cs_view_free(&rv);
    }
  }
  if (r < 2 * bf.rem && rc == MPI_SUCCESS) {
    cs_view all;
    CS_CHECK(cs_view_range(&all, rb, dt, l, 0, p));
    if (nr >= 0)
      rc = cs_sendrecv(all.buf, all.count, all.type, r + 1, NULL, 0, dt, MPI_PROC_NULL, comm);
    else
      rc = cs_sendrecv(NULL, 0, dt, MPI_PROC_NULL, all.buf, all.count, all.type, r - 1, comm);
    cs_view_free(&all);
  }
  return rc;
}

int cs_allgather_butterfly(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_regular(p, recvcount);
  return cs_piece_allgatherv_butterfly(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm,
                                       ctx);
}

int cs_allgatherv_butterfly(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_arrays(p, recvcounts, displs);
  return cs_piece_allgatherv_butterfly(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm,
                                       ctx);
}
