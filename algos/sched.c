/* Schedule arithmetic: see sched.h for the notation. */
#include "sched.h"

int cs_ceil_log2(int p) {
  int q = 0;
  while ((1L << q) < p) q++;
  return q;
}

int cs_skips(int p, int skips[]) {
  int q = cs_ceil_log2(p);
  skips[q] = p;
  for (int i = q - 1; i >= 0; i--) skips[i] = skips[i + 1] - skips[i + 1] / 2;
  return q;
}

void cs_circ_init(cs_circ *c, int p) {
  c->p = p;
  c->q = cs_skips(p, c->skips);
  for (int k = 0; k < c->q; k++) {
    c->d[k] = c->skips[k + 1] - c->skips[k];
    c->e[k] = c->skips[k + 1] & 1;
  }
}

/* Depth-first enumeration of d_k + ({0} U rel(B^{k+1}) U ...): the block for
 * the to-process itself first, then, for each later round i, the blocks the
 * to-process will forward in round i. */
static int circ_enum(const cs_circ *c, int off, int k, int out[], int n) {
  for (int i = k; i < c->q; i++) {
    int o = off + c->d[i];
    out[n++] = o;
    n = circ_enum(c, o, i + 1, out, n);
  }
  return n;
}

int cs_circ_blocks(const cs_circ *c, int out[]) {
  /* circ_enum(0, 0) yields rel(B^0) followed by the union over i >= 1 of the
   * subtrees starting with d_i, which is rel(B^1) | ... | rel(B^{q-1}). */
  return circ_enum(c, 0, 0, out, 0);
}

int cs_circ_blocks_start(const cs_circ *c, int k) { return (1 << c->q) - (1 << (c->q - k)); }

/* circ_enum without recursion: frame d of the stack is a call
 * circ_enum(off[d], next[d]) whose loop is at i = next[d]. */
void cs_circ_iter_init(cs_circ_iter *it, const cs_circ *c, int k) {
  it->c = c;
  it->depth = 0;
  it->off[0] = 0;
  it->next[0] = k;
}

int cs_circ_iter_next(cs_circ_iter *it) {
  const cs_circ *c = it->c;
  while (it->depth >= 0) {
    int d = it->depth, i = it->next[d];
    if (i >= c->q) {
      it->depth--;
      continue;
    }
    int o = it->off[d] + c->d[i];
    it->next[d] = i + 1;
    /* the call circ_enum(o, i + 1) comes next; depth <= q since i grows */
    it->depth = d + 1;
    it->off[d + 1] = o;
    it->next[d + 1] = i + 1;
    return o;
  }
  return 0;
}

/* Subsets (with multiplicity) of d_{k+1..q-1} whose sum is at most x. */
static long circ_sums_upto(const cs_circ *c, int k, long x) {
  if (x < 0) return 0;
  long n = 1; /* the subset of what is left below, all of it empty */
  for (int i = c->q - 1; i > k; i--)
    if (c->d[i] <= x) {
      /* without d_i: every subset of d_{k+1..i-1}, whose sums are at most
       * their total <= d_i <= x; with it: the rest below x - d_i */
      n += 1L << (i - k - 1);
      x -= c->d[i];
    }
  return n;
}

/* Offsets o = d_k + S of rel(B^k) in [lo, hi]. */
static long circ_offsets_in(const cs_circ *c, int k, long lo, long hi) {
  if (lo > hi) return 0;
  return circ_sums_upto(c, k, hi - c->d[k]) - circ_sums_upto(c, k, lo - 1 - c->d[k]);
}

long cs_circ_count_blocks(const cs_circ *c, int k, int rank, int b0, int b1) {
  if (k < 0 || k >= c->q || b0 >= b1) return 0;
  long r = rank, p = c->p;
  /* block b <= rank is offset rank - b, block b > rank offset rank - b + p */
  long e1 = b1 < r + 1 ? b1 : r + 1, s2 = b0 > r + 1 ? b0 : r + 1;
  return circ_offsets_in(c, k, r - e1 + 1, r - b0) +
         circ_offsets_in(c, k, r + p - b1 + 1, r + p - s2);
}

int cs_circ_in_block_set(const cs_circ *c, int k, int v) {
  if (k < 0 || k >= c->q) return 0;
  int rest = v - c->d[k];
  if (rest < 0) return 0;
  for (int i = c->q - 1; i > k && rest > 0; i--)
    if (c->d[i] <= rest) rest -= c->d[i];
  return rest == 0;
}

int cs_circ_last_send_round(const cs_circ *c, int v) {
  if (v == 0) return c->q;
  for (int k = c->q - 1; k >= 0; k--)
    if (cs_circ_in_block_set(c, k, v)) return k;
  return -1;
}

void cs_bfly_init(cs_bfly *b, int p) {
  b->p = p;
  b->p2 = 1;
  b->lg = 0;
  while (b->p2 * 2 <= p) {
    b->p2 *= 2;
    b->lg++;
  }
  b->rem = p - b->p2;
}

int cs_bfly_newrank(const cs_bfly *b, int rank, int odd_survives) {
  if (rank < 2 * b->rem) {
    if ((rank & 1) != (odd_survives ? 1 : 0)) return -1;
    return rank / 2;
  }
  return rank - b->rem;
}

int cs_bfly_oldrank(const cs_bfly *b, int newrank, int odd_survives) {
  if (newrank < b->rem) return 2 * newrank + (odd_survives ? 1 : 0);
  return newrank + b->rem;
}

void cs_bfly_blocks(const cs_bfly *b, int newrank, int *lo, int *hi) {
  if (newrank < b->rem) {
    *lo = 2 * newrank;
    *hi = 2 * newrank + 2;
  } else {
    *lo = newrank + b->rem;
    *hi = newrank + b->rem + 1;
  }
}

void cs_split_even(long count, int p, int counts[], int displs[]) {
  long base = count / p, extra = count % p, off = 0;
  for (int i = 0; i < p; i++) {
    counts[i] = (int)(base + (i < extra ? 1 : 0));
    if (displs) displs[i] = (int)off;
    off += counts[i];
  }
}
