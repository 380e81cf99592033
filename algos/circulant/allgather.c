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
 * Two-buffer trick: rounds 0 .. q-2 touch only the lower range rel [0,
 * skips[q-1]) and the last round only the upper range rel [skips[q-1], p).
 * At most one of the two ranges wraps around the end of recvbuf; only that
 * one lives in a temporary buffer and is copied back: at most ceil(p/2)
 * blocks (none for rank 0).
 * Memory: one temporary buffer of at most ceil(p/2) blocks.
 */
#include <stdlib.h>

#include "../collsim.h"
#include "../kernel.h"

typedef struct {
  char *buf;  /* where rel `first` lives */
  int first, n; /* rel range [first, first + n) */
  int direct; /* in recvbuf (back to back), or packed in tmp */
  cs_tmp tmp;
} ag_range;

static int range_init(ag_range *g, char *recvbuf, const cs_layout *l, MPI_Datatype dt, int r,
                      int first, int n) {
  int p = l->p, b = (r + first) % p;
  g->first = first;
  g->n = n;
  g->tmp.base = NULL;
  g->direct = n > 0 && cs_lpacked(l, b, n);
  if (g->direct) {
    /* Back to back: rel `first` is where the first non-empty block of the
     * range starts (empty blocks before it may carry any displacement). */
    int bb = b;
    while (bb < b + n - 1 && cs_lcount(l, bb) == 0) bb++;
    g->buf = recvbuf + cs_ldispl(l, bb) * cs_extent(dt);
    return MPI_SUCCESS;
  }
  int rc = cs_tmp_alloc(&g->tmp, cs_lsum(l, b, n), dt);
  g->buf = g->tmp.buf;
  return rc;
}

/* Pointer to rel j (inside the range) and the element count of rel [j, j+n). */
static char *range_at(const ag_range *g, const cs_layout *l, MPI_Datatype dt, int r, int j) {
  return g->buf + cs_lsum(l, (r + g->first) % l->p, j - g->first) * cs_extent(dt);
}

/* Copies a temporary range back to the blocks' places in recvbuf. */
static int range_finish(ag_range *g, char *recvbuf, const cs_layout *l, MPI_Datatype dt, int r) {
  int rc = MPI_SUCCESS;
  if (!g->direct && g->tmp.base) {
    MPI_Aint ext = cs_extent(dt);
    char *src = g->buf;
    /* Copy maximal back-to-back runs of blocks with one call each. */
    int i = 0;
    while (i < g->n && rc == MPI_SUCCESS) {
      int b = (r + g->first + i) % l->p, n = 1;
      while (i + n < g->n && b + n < l->p && cs_lpacked(l, b, n + 1)) n++;
      long cnt = cs_lsum(l, b, n);
      if (cnt > 0) {
        int bb = b;
        while (cs_lcount(l, bb) == 0) bb++;
        rc = cs_copy(src, (int)cnt, dt, recvbuf + cs_ldispl(l, bb) * ext, (int)cnt, dt);
      }
      src += cnt * ext;
      i += n;
    }
  }
  cs_tmp_free(&g->tmp);
  return rc;
}

int cs_allgather_core(const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf,
                      const cs_layout *l, MPI_Datatype dt, MPI_Comm comm, int ceilhalf) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Aint ext = cs_extent(dt);
  char *rb = recvbuf;
  long own_n = cs_lcount(l, r);
  char *own_place = rb + cs_ldispl(l, r) * ext;
  if (p == 1) {
    if (sendbuf == MPI_IN_PLACE) return MPI_SUCCESS;
    return cs_copy(sendbuf, scount, stype, own_place, (int)own_n, dt);
  }
  cs_circ c;
  cs_circ_init(&c, p);
  int last = c.skips[c.q - 1];
  ag_range lo, up;
  int rc = range_init(&lo, rb, l, dt, r, 0, last);
  if (rc == MPI_SUCCESS) rc = range_init(&up, rb, l, dt, r, last, p - last);
  else up.tmp.base = NULL;
  /* The own block goes to rel 0. */
  if (rc == MPI_SUCCESS) {
    if (sendbuf != MPI_IN_PLACE)
      rc = cs_copy(sendbuf, scount, stype, lo.buf, (int)own_n, dt);
    else if (!lo.direct)
      rc = cs_copy(own_place, (int)own_n, dt, lo.buf, (int)own_n, dt);
  }
  for (int k = 0; k < c.q && rc == MPI_SUCCESS; k++) {
    int dist = ceilhalf ? c.skips[k] : c.d[k];
    int a = ceilhalf ? 0 : c.e[k];
    ag_range *dst = k < c.q - 1 ? &lo : &up;
    long scnt = cs_lsum(l, (r + a) % p, c.d[k]);
    long rcnt = cs_lsum(l, (r + c.skips[k]) % p, c.d[k]);
    rc = cs_sendrecv(range_at(&lo, l, dt, r, a), (int)scnt, dt, cs_mod(r - dist, p),
                     range_at(dst, l, dt, r, c.skips[k]), (int)rcnt, dt, (r + dist) % p, comm);
  }
  int rc2 = range_finish(&lo, rb, l, dt, r);
  int rc3 = range_finish(&up, rb, l, dt, r);
  if (rc == MPI_SUCCESS) rc = rc2;
  if (rc == MPI_SUCCESS) rc = rc3;
  return rc;
}

int cs_allgather_circulant(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_regular(p, recvcount);
  return cs_allgather_core(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm, 0);
}

int cs_allgatherv_circulant(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, MPI_Comm comm) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_arrays(p, recvcounts, displs);
  return cs_allgather_core(sendbuf, sendcount, sendtype, recvbuf, &l, recvtype, comm, 0);
}
