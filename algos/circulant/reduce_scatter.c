/* Circulant reduce-scatter (Träff, Hunold, Vardas, Funk 2023, Sec. III-D,
 * Listings 5 and 6), for regular and irregular blocks, and the circulant
 * reduce as its special case with one non-empty block (Sec. III-C).
 *
 * Accepts: any p, any block sizes (zero blocks included), commutative ops
 * only, MPI_IN_PLACE.
 * Schedule: round k sends the partial sums of the blocks rel(B^k) (offsets
 * o, block of rank - o) to rank - d_k and receives from rank + d_k the
 * blocks [own, rel(B^{k+1}), ..., rel(B^{q-1})]: |rel(B^k)| = 2^(q-1-k), so a
 * rank sends 2^q - 1 blocks in q = ceil(log2 p) rounds (sched.h).
 * Buffers: part holds [own, rel(B^1) | ... | rel(B^{q-1})] (2^(q-1) blocks),
 * which is exactly what round 0 receives, so round 0 receives into it; round
 * 0 sends the input blocks rel(B^0) straight from the input through an
 * hindexed type (no packing copy). For a round k >= 1 with e_k = 0 the own
 * input of the blocks rel(B^k) is added once after round 0 (the rank then
 * sends W = V + S); for e_k = 1 the rank sends S, which excludes it.
 * Blocks of size zero are never sent, so with one non-empty block only the
 * ranks on the paths to its owner communicate: that is the circulant reduce,
 * q (alpha + beta m + gamma m) at the root.
 * Memory: part plus one receive buffer of at most the same size; the
 * schedule is computed on the fly in O(q) state (cs_circ_iter), and for
 * regular, even and single layouts in O(q^2) time (timing runs).
 */
#include <stdlib.h>

#include "../collsim.h"
#include "../kernel.h"

/* Reduce-scatter of the input in (layout l, block b at displ(b)) into out,
 * which receives the own block (count(r) elements). in may equal out's
 * buffer (MPI_IN_PLACE): the input is read before out is written. */
int cs_piece_reduce_scatter_circulant(const void *in, void *out, const cs_layout *l,
                                      MPI_Datatype dt, MPI_Op op, MPI_Comm comm, int inplace,
                                      const cs_ctx *ctx) {
  (void)ctx;
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Aint ext = cs_extent(dt);
  long own_n = cs_lcount(l, r);
  const char *own_in = (const char *)in + cs_ldispl(l, r) * ext;
  if (p == 1)
    return inplace && own_in == out ? MPI_SUCCESS : cs_copy(own_in, own_n, dt, out, own_n, dt);

  cs_circ c;
  cs_circ_init(&c, p);
  /* The schedule is computed on the fly (O(q) state per process): the
   * offsets come from cs_circ_iter, and seg[k] is the number of elements of
   * the blocks rel(B^k) (the segment sent in round k): in closed form for
   * regular blocks, counted in O(q) per round for even and single layouts
   * (cs_circ_count_blocks), else summed over the enumeration (O(p) time,
   * O(q) memory). Timing runs (cs_skip_compute) need nothing else. */
  int half = 1 << (c.q - 1); /* entries of part: own + rel(B^1..q-1) */
  long seg[CS_MAX_ROUNDS];
  for (int k = 0; k < c.q; k++) seg[k] = 0;
  if (l->kind == CS_LAYOUT_REGULAR) {
    for (int k = 0; k < c.q; k++) seg[k] = (long)(1 << (c.q - 1 - k)) * l->n;
  } else if (l->kind == CS_LAYOUT_EVEN) { /* blocks below n mod p have one more */
    for (int k = 0; k < c.q; k++)
      seg[k] = (long)(1 << (c.q - 1 - k)) * (l->n / p) +
               cs_circ_count_blocks(&c, k, r, 0, (int)(l->n % p));
  } else if (l->kind == CS_LAYOUT_SINGLE) {
    for (int k = 0; k < c.q; k++)
      seg[k] = l->n * cs_circ_count_blocks(&c, k, r, l->single, l->single + 1);
  } else {
    cs_circ_iter it;
    cs_circ_iter_init(&it, &c, 0);
    for (int k = 0; k < c.q; k++)
      for (int i = 0; i < 1 << (c.q - 1 - k); i++)
        seg[k] += cs_lcount(l, cs_mod(r - cs_circ_iter_next(&it), p));
  }
  long part_n = own_n;
  for (int k = 1; k < c.q; k++) part_n += seg[k];

  int rc = MPI_SUCCESS;
  cs_tmp part = {0}, temp = {0};
  /* Not in place, the own block is accumulated in out directly (round 0
   * receives it there through a two-piece datatype), so no final copy is
   * needed; in place, out still holds input until round 0 is reduced, and
   * the own block lives in part. When only the own block is non-empty here
   * (a reduce root), part is not needed at all. */
  char *own = inplace ? NULL : (char *)out;
  if (inplace || part_n > own_n) rc = cs_tmp_alloc(&part, part_n, dt);
  if (inplace) own = part.buf;
  char *pbuf = part_n > own_n || inplace ? part.buf : (char *)out;
  if (rc == MPI_SUCCESS) rc = cs_tmp_alloc(&temp, part_n, dt);

  /* Round 0: the input blocks rel(B^0), in enumeration order, go to r - 1
   * (a timing run, whose data are not checked, sends as many bytes from the
   * start of the input, as cs_view_list does, without the block list). */
  if (rc == MPI_SUCCESS) {
    cs_view sv = {(void *)in, (int)seg[0], dt, 0};
    if (!cs_skip_compute) {
      int *b0 = malloc(sizeof(int) * (size_t)half);
      if (!b0)
        rc = MPI_ERR_NO_MEM;
      else {
        cs_circ_iter it;
        cs_circ_iter_init(&it, &c, 0);
        for (int j = 0; j < half; j++) b0[j] = cs_mod(r - cs_circ_iter_next(&it), p);
        rc = cs_view_list(&sv, (void *)in, dt, l, b0, half);
        free(b0);
      }
    } else if (!cs_count_ok(seg[0], "a message (a view of blocks)")) {
      rc = MPI_ERR_COUNT;
    }
    /* Receive [own | rel(B^1..q-1)]: into part, or own into out and the
     * rest into part (hindexed relative to out). */
    MPI_Datatype rt = dt;
    void *rbuf = pbuf;
    int rcount = (int)part_n;
    if (rc == MPI_SUCCESS && own != pbuf && own_n > 0 && !cs_skip_compute) {
      MPI_Aint a0, a1, disp[2];
      int lens[2] = {(int)own_n, (int)(part_n - own_n)};
      MPI_Get_address(own, &a0);
      MPI_Get_address(pbuf + own_n * ext, &a1);
      disp[0] = 0;
      disp[1] = MPI_Aint_diff(a1, a0);
      rc = MPI_Type_create_hindexed(2, lens, disp, dt, &rt);
      if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&rt);
      rbuf = own;
      rcount = 1;
    } else if (own != pbuf && own_n == 0) {
      rbuf = pbuf + own_n * ext;
    } /* else a timing run: all of it into part, same bytes */
    if (rc == MPI_SUCCESS)
      rc = cs_sendrecv(sv.buf, sv.count, sv.type, cs_mod(r - c.d[0], p), rbuf,
                       part_n > 0 ? rcount : 0, rt, cs_mod(r + c.d[0], p), comm);
    if (rt != dt) MPI_Type_free(&rt);
    cs_view_free(&sv);
  }
  /* Add the own input where it is due: to the own block, and to the blocks
   * of rounds with e_k = 0 (one charge per segment, the model's unit). */
  if (rc == MPI_SUCCESS) rc = cs_reduce_local(own_in, own, own_n, dt, op);
  cs_circ_iter it;
  cs_circ_iter_init(&it, &c, 1);
  long at = own_n; /* element offset in part of the segment of round k */
  for (int k = 1; k < c.q && rc == MPI_SUCCESS; k++) {
    double pending = 0;
    if (cs_skip_compute) {
      /* no data to add: the same bytes, charged at once */
      if (!c.e[k]) rc = cs_reduce_local_deferred(in, pbuf, seg[k], dt, op, &pending);
    } else {
      long e = at;
      for (int i = 0; i < 1 << (c.q - 1 - k) && rc == MPI_SUCCESS; i++) {
        int b = cs_mod(r - cs_circ_iter_next(&it), p);
        if (!c.e[k])
          rc = cs_reduce_local_deferred((const char *)in + cs_ldispl(l, b) * ext, pbuf + e * ext,
                                        cs_lcount(l, b), dt, op, &pending);
        e += cs_lcount(l, b);
      }
    }
    at += seg[k];
    cs_charge_pending(&pending);
  }
  /* Rounds 1 .. q-1: send the segment of round k, receive [own, segments
   * k+1 .. q-1] and reduce it in place. */
  at = own_n;
  for (int k = 1; k < c.q && rc == MPI_SUCCESS; k++) {
    long tail = part_n - at - seg[k];
    rc = cs_sendrecv(pbuf + at * ext, seg[k], dt, cs_mod(r - c.d[k], p), temp.buf, (own_n + tail),
                     dt, cs_mod(r + c.d[k], p), comm);
    if (rc == MPI_SUCCESS) rc = cs_reduce_local(temp.buf, own, own_n, dt, op);
    if (rc == MPI_SUCCESS)
      rc = cs_reduce_local(temp.buf + own_n * ext, pbuf + (at + seg[k]) * ext, tail, dt, op);
    at += seg[k];
  }
  if (rc == MPI_SUCCESS && inplace) rc = cs_copy(own, own_n, dt, out, own_n, dt);
  cs_tmp_free(&part);
  cs_tmp_free(&temp);
  return rc;
}

CS_RS_ENTRIES(circulant)

int cs_reduce_circulant(const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
                        int root, MPI_Comm comm, const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  cs_layout l = cs_layout_single(p, root, count);
  int inplace = sendbuf == MPI_IN_PLACE;
  return cs_piece_reduce_scatter_circulant(inplace ? recvbuf : sendbuf, recvbuf, &l, dt, op, comm,
                                           inplace, ctx);
}
