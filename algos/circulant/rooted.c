/* Circulant gather(v) and scatter(v): the allgather pattern specialized to a
 * root (Träff, Hunold, Vardas, Funk 2023, Sec. III-F).
 *
 * Accepts: any p, any root, any block sizes, MPI_IN_PLACE at the root.
 * Derivation: in the circulant allgather every block reaches a rank along
 * exactly one path. Keeping only the messages the root depends on, a rank
 * at virtual rank v = (r - root) mod p sends in round k iff v is in
 * rel(B^k) (the block sets of the circulant reduce-scatter, sched.h), and it
 * receives in every round k < M(v), its last sending round (the root, M = q,
 * receives in all rounds). Round k carries rel [e_k, skips[k]) of the sender
 * into rel [skips[k], skips[k+1]) of the receiver, as in the allgather.
 * The root receives p - 1 blocks in q = ceil(log2 p) rounds straight into
 * recvbuf (a range that wraps around is described by an hindexed type).
 * Scatter runs the same schedule backwards (rounds q-1 .. 0).
 * Non-root ranks keep their blocks packed (MPI_PACKED) in one buffer of at
 * most skips[M] blocks. For the v-variants a non-root rank does not know
 * the other ranks' counts (MPI gives them to the root only), so every data
 * message is preceded by a small size message in the same round (gatherv:
 * the byte count; scatterv: the byte count of each block, which forwarders
 * need to split what they pass on). That costs one more alpha per round and
 * avoids MPI_Probe, whose polling SMPI charges.
 */
#include <stdlib.h>
#include <string.h>

#include "../collsim.h"
#include "../kernel.h"

typedef struct {
  char *buf;
  long len, cap; /* bytes */
} pbuf;

static int pbuf_reserve(pbuf *b, long cap) {
  if (cap <= b->cap) return MPI_SUCCESS;
  char *n = realloc(b->buf, (size_t)cap + 1);
  if (!n) return MPI_ERR_NO_MEM;
  b->buf = n;
  b->cap = cap;
  return MPI_SUCCESS;
}

static long type_bytes(int count, MPI_Datatype dt) {
  int size;
  MPI_Type_size(dt, &size);
  return (long)count * size;
}

/* block: bytes per block when all blocks are equal (gather), -1 (gatherv:
 * sizes travel in a header message), or -2 (every rank knows the layout l,
 * in elements of rtype: no headers). */
int cs_gather_core(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                   const cs_layout *l, MPI_Datatype rtype, int root, MPI_Comm comm, long block,
                   void *prepacked) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  cs_circ c;
  cs_circ_init(&c, p);
  int v = cs_mod(r - root, p);
  int rc = MPI_SUCCESS;
  if (v == 0) {
    MPI_Aint ext = cs_extent(rtype);
    if (sendbuf != MPI_IN_PLACE)
      CS_CHECK(cs_copy(sendbuf, scount, stype, (char *)recvbuf + cs_ldispl(l, r) * ext,
                       cs_lcount(l, r), rtype));
    for (int k = 0; k < c.q && rc == MPI_SUCCESS; k++) {
      int from = (r + c.d[k]) % p;
      if (block == -1) {
        long hdr;
        rc = cs_flushed(MPI_Recv(&hdr, 1, MPI_LONG, from, CS_TAG, comm, MPI_STATUS_IGNORE));
        if (rc != MPI_SUCCESS) break;
      }
      cs_view rv;
      rc = cs_view_range(&rv, recvbuf, rtype, l, r + c.skips[k], c.d[k]);
      if (rc != MPI_SUCCESS) break;
      if (rv.count > 0)
        rc = cs_flushed(MPI_Recv(rv.buf, rv.count, rv.type, from, CS_TAG, comm, MPI_STATUS_IGNORE));
      cs_view_free(&rv);
    }
    return rc;
  }
  int M = cs_circ_last_send_round(&c, v);
  long own = type_bytes(scount, stype);
  pbuf b = {0};
  if (prepacked) {
    /* The caller's malloc'ed buffer already holds the own block packed. */
    b.buf = prepacked;
    b.cap = own;
  } else {
    rc = pbuf_reserve(&b, own);
    /* A packed copy of the own block is local work like any other copy. */
    if (rc == MPI_SUCCESS) rc = cs_copy(sendbuf, scount, stype, b.buf, own, MPI_BYTE);
  }
  b.len = own;
  for (int k = 0; k < c.q && rc == MPI_SUCCESS; k++) {
    int sends = cs_circ_in_block_set(&c, k, v), recvs = k < M;
    int to = sends ? cs_mod(r - c.d[k], p) : MPI_PROC_NULL;
    int from = recvs ? (r + c.d[k]) % p : MPI_PROC_NULL;
    long sfrom = c.e[k] ? own : 0, sn = sends ? b.len - sfrom : 0, rn = 0;
    if (block >= 0) {
      rn = recvs ? block * c.d[k] : 0;
    } else if (block == -2) {
      rn = recvs ? type_bytes((int)cs_lsum(l, (r + c.skips[k]) % p, c.d[k]), rtype) : 0;
    } else if (sends || recvs) {
      rc = cs_flushed(MPI_Sendrecv(&sn, 1, MPI_LONG, to, CS_TAG, &rn, 1, MPI_LONG, from, CS_TAG,
                                   comm, MPI_STATUS_IGNORE));
      if (!recvs) rn = 0;
    }
    if (rc == MPI_SUCCESS) rc = pbuf_reserve(&b, b.len + rn);
    if (rc == MPI_SUCCESS)
      rc =
          cs_sendrecv(b.buf + sfrom, sn, MPI_PACKED, to, b.buf + b.len, rn, MPI_PACKED, from, comm);
    b.len += rn;
  }
  free(b.buf);
  return rc;
}

int cs_piece_gatherv_circulant(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                               const cs_layout *l, MPI_Datatype rtype, int root, MPI_Comm comm,
                               void *prepacked, const cs_ctx *ctx) {
  (void)ctx;
  return cs_gather_core(sendbuf, scount, stype, recvbuf, l, rtype, root, comm, -2, prepacked);
}

int cs_gather_circulant(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                        const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  cs_layout l = cs_layout_regular(p, recvcount);
  long block = r == root ? type_bytes(recvcount, recvtype) : type_bytes(sendcount, sendtype);
  return cs_gather_core(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, root, comm, block,
                        NULL);
}

int cs_gatherv_circulant(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         int root, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_arrays(p, recvcounts, displs);
  return cs_gather_core(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, root, comm, -1, NULL);
}

/* block: bytes per block (scatter) or -1 (scatterv: every data message is
 * preceded by the byte sizes of its blocks). */
static int scatter_core(const void *sendbuf, const cs_layout *l, MPI_Datatype stype, void *recvbuf,
                        int rcount, MPI_Datatype rtype, int root, MPI_Comm comm, long block) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  cs_circ c;
  cs_circ_init(&c, p);
  int v = cs_mod(r - root, p);
  int rc = MPI_SUCCESS;
  if (v == 0) {
    int ssize;
    MPI_Type_size(stype, &ssize);
    long *hdr = block < 0 ? malloc(sizeof(long) * (size_t)(p > 1 ? c.d[c.q - 1] : 1)) : NULL;
    if (block < 0 && !hdr) return MPI_ERR_NO_MEM;
    for (int k = c.q - 1; k >= 0 && rc == MPI_SUCCESS; k--) {
      int to = (r + c.d[k]) % p;
      if (block < 0) {
        for (int i = 0; i < c.d[k]; i++) hdr[i] = cs_lcount(l, (r + c.skips[k] + i) % p) * ssize;
        rc = cs_flushed(MPI_Send(hdr, c.d[k], MPI_LONG, to, CS_TAG, comm));
        if (rc != MPI_SUCCESS) break;
      }
      cs_view sv;
      rc = cs_view_range(&sv, (void *)sendbuf, stype, l, r + c.skips[k], c.d[k]);
      if (rc != MPI_SUCCESS) break;
      if (sv.count > 0) rc = cs_flushed(MPI_Send(sv.buf, sv.count, sv.type, to, CS_TAG, comm));
      cs_view_free(&sv);
    }
    free(hdr);
    if (rc == MPI_SUCCESS && recvbuf != MPI_IN_PLACE)
      rc = cs_copy((const char *)sendbuf + cs_ldispl(l, r) * cs_extent(stype), cs_lcount(l, r),
                   stype, recvbuf, rcount, rtype);
    return rc;
  }
  int M = cs_circ_last_send_round(&c, v);
  long own = type_bytes(rcount, rtype);
  /* bs[j]: bytes of rel j, for j < skips[M]; off[j]: its offset in buf. */
  long *bs = malloc(sizeof(long) * (size_t)(c.skips[M] + 1));
  long *off = malloc(sizeof(long) * (size_t)(c.skips[M] + 1));
  pbuf b = {0};
  if (!bs || !off) rc = MPI_ERR_NO_MEM;
  for (int j = 0; rc == MPI_SUCCESS && j < c.skips[M]; j++) bs[j] = j == 0 ? own : block;
  int have_sizes = block >= 0;
  for (int k = c.q - 1; k >= 0 && rc == MPI_SUCCESS; k--) {
    int recvs = cs_circ_in_block_set(&c, k, v), sends = k < M;
    int from = recvs ? cs_mod(r - c.d[k], p) : MPI_PROC_NULL;
    int to = sends ? (r + c.d[k]) % p : MPI_PROC_NULL;
    int rfirst = c.e[k], rn_blocks = c.skips[k] - c.e[k];
    /* Sizes first (scatterv): receive those of rel [e_k, skips[k]), send
     * those of rel [skips[k], skips[k+1]), which are known by now. */
    if (block < 0)
      rc = cs_sendrecv(bs + c.skips[k], sends ? c.d[k] : 0, MPI_LONG, to, bs + rfirst,
                       recvs ? rn_blocks : 0, MPI_LONG, from, comm);
    if (rc != MPI_SUCCESS) break;
    if (recvs) have_sizes = 1;
    if (have_sizes && !b.buf) {
      off[0] = 0;
      for (int j = 0; j < c.skips[M]; j++) off[j + 1] = off[j] + bs[j];
      rc = pbuf_reserve(&b, off[c.skips[M]]);
      if (rc != MPI_SUCCESS) break;
    }
    long rn = recvs ? off[c.skips[k]] - off[rfirst] : 0;
    long sn = sends ? off[c.skips[k + 1]] - off[c.skips[k]] : 0;
    rc = cs_sendrecv(b.buf + (sends ? off[c.skips[k]] : 0), sn, MPI_PACKED, to,
                     b.buf + (recvs ? off[rfirst] : 0), rn, MPI_PACKED, from, comm);
  }
  /* Unpack the own block, rel 0. */
  if (rc == MPI_SUCCESS) rc = cs_copy(b.buf, own, MPI_BYTE, recvbuf, rcount, rtype);
  free(b.buf);
  free(bs);
  free(off);
  return rc;
}

int cs_scatter_circulant(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                         const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  cs_layout l = cs_layout_regular(p, sendcount);
  long block = r == root ? type_bytes(sendcount, sendtype) : type_bytes(recvcount, recvtype);
  return scatter_core(sendbuf, &l, sendtype, recvbuf, recvcount, recvtype, root, comm, block);
}

int cs_scatterv_circulant(const void *sendbuf, const int sendcounts[], const int displs[],
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, const cs_ctx *ctx) {
  (void)ctx;
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_arrays(p, sendcounts, displs);
  return scatter_core(sendbuf, &l, sendtype, recvbuf, recvcount, recvtype, root, comm, -1);
}
