/* Bruck allgather (Bruck, Ho, Kipnis, Upfal, Weathersby 1997): the
 * straight-doubling baseline of Table I in Träff et al. 2023.
 *
 * Accepts: any p, MPI_IN_PLACE, send and receive types with matching
 * signatures.
 * Schedule: in a buffer in rotated order (rel j is the block of rank
 * (r + j) mod p), round k sends rel [0, min(2^k, p - 2^k)) to r - 2^k and
 * receives the same number of blocks into rel [2^k, ...) from r + 2^k;
 * ceil(log2 p) rounds, p - 1 blocks. A final copy puts all p blocks into
 * rank order: Cost = q alpha + beta (p-1)/p m + gamma (m + m/p).
 * Memory: one temporary buffer of p blocks.
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_allgather_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Aint ext = cs_extent(recvtype);
  long n = recvcount;
  char *rb = recvbuf, *own_place = rb + (long)r * n * ext;
  if (p == 1)
    return sendbuf == MPI_IN_PLACE
               ? MPI_SUCCESS
               : cs_copy(sendbuf, sendcount, sendtype, own_place, recvcount, recvtype);
  cs_tmp t;
  CS_CHECK(cs_tmp_alloc(&t, (long)p * n, recvtype));
  int rc = sendbuf == MPI_IN_PLACE
               ? cs_copy(own_place, recvcount, recvtype, t.buf, recvcount, recvtype)
               : cs_copy(sendbuf, sendcount, sendtype, t.buf, recvcount, recvtype);
  for (int dist = 1; dist < p && rc == MPI_SUCCESS; dist *= 2) {
    int nb = dist < p - dist ? dist : p - dist;
    rc = cs_sendrecv(t.buf, (nb * n), recvtype, cs_mod(r - dist, p), t.buf + dist * n * ext,
                     (nb * n), recvtype, (r + dist) % p, comm);
  }
  /* Rotate into rank order: rel [0, p-r) -> blocks r.., rel [p-r, p) -> 0.. */
  if (rc == MPI_SUCCESS)
    rc = cs_copy(t.buf, ((p - r) * n), recvtype, own_place, ((p - r) * n), recvtype);
  if (rc == MPI_SUCCESS)
    rc = cs_copy(t.buf + (p - r) * n * ext, (r * n), recvtype, rb, (r * n), recvtype);
  cs_tmp_free(&t);
  return rc;
}
