/* Pairwise alltoall by circulant shifts (the long-message MPI_Alltoall of
 * MPICH: Thakur, Rabenseifner, Gropp 2005; Open MPI's "pairwise").
 *
 * Why this and not Bruck's ceil(log2 p) rounds: every block goes straight
 * from the user's send buffer to its place in the peer's receive buffer,
 * once, for any p: (p-1)/p m bytes leave each process, the least any
 * alltoall can send, and no local copy besides the own block. Bruck's
 * algorithm saves rounds (ceil(log2 p) alpha instead of (p-1) alpha) but
 * sends about (m/2) log2 p bytes per process and rotates all p blocks twice
 * (2 gamma m): it wins only where latency dominates, at small blocks; it
 * can be added as a second row of this collective.
 *
 * Accepts: any p, count 0, send and receive types with matching type
 * signatures (derived types: blocks are addressed by extent), MPI_IN_PLACE
 * (the send data are then the receive buffer's, in recvcount/recvtype).
 * Schedule: rank r keeps block r (a local copy), then in round k = 1 ..
 * p-1 sends its block (r+k) mod p to rank (r+k) mod p and receives block r
 * of rank (r-k) mod p into its receive block (r-k) mod p (one MPI_Sendrecv;
 * both sides are count 0 free: no message). p = 5, Sij = rank i's block for
 * rank j, the column shows what rank 0 does (every rank does the same,
 * shifted):
 *
 *   round 0: copy S00 -> R[0]         rank 1: S11 -> R[1] ...
 *   round 1: S01 -> 1, R[4] <- S40    rank 1: S12 -> 2, R[0] <- S01
 *   round 2: S02 -> 2, R[3] <- S30    rank 1: S13 -> 3, R[4] <- S41
 *   round 3: S03 -> 3, R[2] <- S20    rank 1: S14 -> 4, R[3] <- S31
 *   round 4: S04 -> 4, R[1] <- S10    rank 1: S10 -> 0, R[2] <- S21
 *
 * In round k every rank sends exactly one block and receives exactly one:
 * the rounds are permutations, so no process is a hot spot.
 * Cost: (p-1) (alpha + beta m/p) + gamma m/p (the own block's copy), m the
 * total of the p blocks (docs/csv.md); with MPI_IN_PLACE gamma (p-1)/p m
 * instead (the other p-1 blocks are copied out first). Under SMPI each
 * message adds its 16-byte envelope (algos/sizes.h).
 * Memory: nothing, or with MPI_IN_PLACE one temporary of p blocks (the
 * blocks still to be sent would otherwise be overwritten by those
 * received: round k receives into block r-k before it sends block r+k,
 * and block r-k leaves only in round p-k).
 */
#include "../collsim.h"
#include "../kernel.h"

int cs_alltoall_pairwise(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  const long rn = recvcount;
  const MPI_Aint rext = cs_extent(recvtype);
  char *rb = recvbuf;
  cs_tmp t = {0};
  const char *sb = sendbuf;
  long sn = sendcount;
  MPI_Datatype stype = sendtype;
  MPI_Aint sext = cs_extent(sendtype);
  int rc = MPI_SUCCESS;
  if (sendbuf == MPI_IN_PLACE) {
    /* The send data are the receive buffer's: the other p-1 blocks go to a
     * temporary laid out as the receive buffer; the own block stays. */
    sn = rn;
    stype = recvtype;
    sext = rext;
    CS_CHECK(cs_tmp_alloc(&t, (long)p * rn, recvtype));
    sb = t.buf;
    rc = cs_copy(rb, (long)r * rn, recvtype, t.buf, (long)r * rn, recvtype);
    if (rc == MPI_SUCCESS && r + 1 < p)
      rc = cs_copy(rb + (long)(r + 1) * rn * rext, (long)(p - r - 1) * rn, recvtype,
                   t.buf + (long)(r + 1) * rn * rext, (long)(p - r - 1) * rn, recvtype);
  } else {
    rc = cs_copy(sb + (long)r * sn * sext, sn, stype, rb + (long)r * rn * rext, rn, recvtype);
  }
  for (int k = 1; k < p && rc == MPI_SUCCESS; k++) {
    int to = (r + k) % p, from = cs_mod((long)r - k, p);
    rc = cs_sendrecv(sb + (long)to * sn * sext, sn, stype, to, rb + (long)from * rn * rext, rn,
                     recvtype, from, comm);
  }
  if (sendbuf == MPI_IN_PLACE) cs_tmp_free(&t);
  return rc;
}
