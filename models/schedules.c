/* The schedules of collsim's kernels, round by round, for the models.
 *
 * Each generator writes, for every process, the exchanges and the local work
 * (reductions and copies, in bytes) that its kernel in algos/ performs, in
 * the same order and with the same peers and sizes; the header comment of
 * each kernel describes the same schedule in words. Zero-byte sides are
 * dropped as cs_sendrecv drops them. The evaluator (eval.c) prices them.
 * The element type is MPI_BYTE, so elements are bytes.
 *
 * To model a new algorithm: write one generator below and add one line to
 * the table at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "prog.h"
#include "sched.h"

/* ---- circulant reduce-scatter core (algos/circulant/reduce_scatter.c) -- */

static void circ_rs_core(cs_prog *g, const cs_mlay *l, int inplace) {
  int p = l->p;
  if (p == 1) {
    if (!inplace) prog_local(g, 0, (double)l->cnt[0]);
    return;
  }
  cs_circ c;
  cs_circ_init(&c, p);
  int nb = 1 << c.q, half = nb / 2, s1 = cs_circ_blocks_start(&c, 1);
  int *rel = malloc(sizeof(int) * (size_t)nb);
  long *off = malloc(sizeof(long) * (size_t)(half + 1));
  if (!rel || !off) {
    g->oom = 1;
    free(rel);
    free(off);
    return;
  }
  cs_circ_blocks(&c, rel);
  for (int r = 0; r < p; r++) {
    long own_n = l->cnt[r];
    off[0] = 0;
    off[1] = own_n;
    for (int j = 1; j < half; j++) off[j + 1] = off[j] + l->cnt[ml_mod(r - rel[s1 + j - 1], p)];
    long part_n = off[half], s0 = 0;
    for (int j = 0; j < half; j++) s0 += l->cnt[ml_mod(r - rel[j], p)];
    prog_xchg(g, r, ml_mod(r - c.d[0], p), (double)s0, ml_mod(r + c.d[0], p), (double)part_n);
    prog_local(g, r, (double)own_n);
    for (int k = 1, j = 1; k < c.q; k++) {
      int n = 1 << (c.q - 1 - k);
      if (!c.e[k]) prog_local(g, r, (double)(off[j + n] - off[j]));
      j += n;
    }
    for (int k = 1, j = 1; k < c.q; k++) {
      int n = 1 << (c.q - 1 - k);
      long seg = off[j + n] - off[j], tail = part_n - off[j + n];
      prog_xchg(g, r, ml_mod(r - c.d[k], p), (double)seg, ml_mod(r + c.d[k], p),
                (double)(own_n + tail));
      prog_local(g, r, (double)own_n);
      prog_local(g, r, (double)tail);
      j += n;
    }
    if (inplace) prog_local(g, r, (double)own_n);
  }
  free(rel);
  free(off);
}

/* ---- ceil-halving reduce-scatter core (algos/ceilhalf/reduce_scatter.c) */

static void ceilhalf_rs_core(cs_prog *g, const cs_mlay *l, int inplace) {
  int p = l->p;
  if (p == 1) {
    if (!inplace) prog_local(g, 0, (double)l->cnt[0]);
    return;
  }
  int q = cs_ceil_log2(p);
  for (int r = 0; r < p; r++) {
    long own_n = l->cnt[r];
    int s = p, round = 0;
    while (s > 1) {
      int sp = s;
      s = sp - sp / 2;
      int n = sp - s, last = ++round == q;
      int to = (r + s) % p, from = ml_mod(r - s, p);
      int dst_out = last && !inplace;
      long rn = ml_sum(l, r, n);
      if (round == 1) {
        prog_xchg(g, r, to, (double)ml_sum(l, r + s, n), from, (double)rn);
        prog_local(g, r, (double)rn);
        if (n < s) prog_local(g, r, (double)l->cnt[(r + s - 1) % p]);
        if (last && !dst_out) prog_local(g, r, (double)own_n);
      } else {
        prog_xchg(g, r, to, (double)ml_sum(l, r + s, sp - s), from, (double)rn);
        if (dst_out)
          prog_local(g, r, (double)own_n);
        else {
          prog_local(g, r, (double)rn);
          if (last) prog_local(g, r, (double)own_n);
        }
      }
    }
  }
}

/* ---- butterfly reduce-scatter core (algos/butterfly/reduce_scatter.c) -- */

static void bfly_range(const cs_bfly *bf, const cs_mlay *l, int a, int b, long *first, long *end) {
  int lo, hi, lo2, hi2;
  cs_bfly_blocks(bf, a, &lo, &hi);
  cs_bfly_blocks(bf, b - 1, &lo2, &hi2);
  *first = l->pre[lo];
  *end = l->pre[hi2];
}

static void bfly_rs_core(cs_prog *g, const cs_mlay *l, int inplace) {
  int p = l->p;
  long m = l->pre[p];
  if (p == 1) {
    if (!inplace) prog_local(g, 0, (double)l->cnt[0]);
    return;
  }
  cs_bfly bf;
  cs_bfly_init(&bf, p);
  long h = m / 2;
  for (int r = 0; r < p; r++) {
    int nr = cs_bfly_newrank(&bf, r, 0);
    if (r < 2 * bf.rem) {
      if (nr >= 0) {
        prog_xchg(g, r, r + 1, (double)(m - h), r + 1, (double)h);
        prog_local(g, r, (double)h);
        prog_local(g, r, (double)h);
        prog_xchg(g, r, -1, 0, r + 1, (double)(m - h));
      } else {
        prog_xchg(g, r, r - 1, (double)h, r - 1, (double)(m - h));
        prog_local(g, r, (double)(m - h));
        prog_local(g, r, (double)(m - h));
        prog_xchg(g, r, r - 1, (double)(m - h), -1, 0);
      }
    } else {
      prog_local(g, r, (double)m);
    }
    if (nr >= 0) {
      for (int half = bf.p2 / 2; half >= 1; half /= 2) {
        int base = nr & ~(2 * half - 1), lower = nr < base + half;
        int peer = cs_bfly_oldrank(&bf, nr ^ half, 0);
        long kf, ke, sf, se;
        bfly_range(&bf, l, lower ? base : base + half, lower ? base + half : base + 2 * half, &kf,
                   &ke);
        bfly_range(&bf, l, lower ? base + half : base, lower ? base + 2 * half : base + half, &sf,
                   &se);
        prog_xchg(g, r, peer, (double)(se - sf), peer, (double)(ke - kf));
        prog_local(g, r, (double)(ke - kf));
      }
      if (r < 2 * bf.rem) prog_xchg(g, r, r + 1, (double)l->cnt[r + 1], -1, 0);
      prog_local(g, r, (double)l->cnt[r]);
    } else {
      prog_xchg(g, r, -1, 0, r - 1, (double)l->cnt[r]);
    }
  }
}

/* ---- allgather core, circulant and ceil-halving (algos/circulant/allgather.c) */

static void allgather_core(cs_prog *g, const cs_mlay *l, int inplace, int ceilhalf) {
  int p = l->p;
  cs_circ c;
  cs_circ_init(&c, p);
  for (int r = 0; r < p; r++) {
    if (!inplace) prog_local(g, r, (double)l->cnt[r]);
    for (int k = 0; k < c.q; k++) {
      int dist = ceilhalf ? c.skips[k] : c.d[k], a = ceilhalf ? 0 : c.e[k];
      prog_xchg(g, r, ml_mod(r - dist, p), (double)ml_sum(l, r + a, c.d[k]), (r + dist) % p,
                (double)ml_sum(l, r + c.skips[k], c.d[k]));
    }
  }
}

/* ---- generators of the registered algorithms ------------------------- */

static void g_rs_circulant(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  circ_rs_core(g, l, c->inplace);
}
static void g_rs_ceilhalf(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  ceilhalf_rs_core(g, l, c->inplace);
}
static void g_rs_butterfly(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  bfly_rs_core(g, l, c->inplace);
}

/* Reduce as a circulant reduce-scatter with one non-empty block. */
static void g_reduce_circulant(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  circ_rs_core(g, l, c->inplace);
}

/* Allreduce as reduce-scatter of an even split + allgather in place
 * (algos/ceilhalf/allreduce.c). */
static void g_ar_ceilhalf(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  ceilhalf_rs_core(g, l, c->inplace);
  allgather_core(g, l, 1, 1);
}
static void g_ar_circulant_rsag(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  circ_rs_core(g, l, c->inplace);
  allgather_core(g, l, 1, 0);
}

static void g_ag_circulant(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  allgather_core(g, l, c->inplace, 0);
}
static void g_ag_ceilhalf(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  allgather_core(g, l, c->inplace, 1);
}

/* algos/circulant/allreduce.c */
static void g_ar_circulant(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  int p = l->p;
  double m = (double)l->pre[p];
  cs_circ ci;
  cs_circ_init(&ci, p);
  int need_s[CS_MAX_ROUNDS] = {0};
  for (int k = ci.q - 2; k >= 0; k--) need_s[k] = need_s[k + 1] || ci.e[k + 1];
  for (int r = 0; r < p; r++) {
    if (!c->inplace) prog_local(g, r, m);
    if (p == 1 || m == 0) continue;
    for (int k = 0; k < ci.q; k++) {
      prog_xchg(g, r, ml_mod(r - ci.d[k], p), m, ml_mod(r + ci.d[k], p), m);
      prog_local(g, r, m);
      if (k > 0 && need_s[k]) prog_local(g, r, m);
    }
  }
}

/* algos/butterfly/allreduce.c */
static void g_ar_butterfly(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  int p = l->p;
  double m = (double)l->pre[p];
  cs_bfly b;
  cs_bfly_init(&b, p);
  for (int r = 0; r < p; r++) {
    if (!c->inplace) prog_local(g, r, m);
    if (p == 1 || m == 0) continue;
    int nr = cs_bfly_newrank(&b, r, 1);
    if (r < 2 * b.rem) {
      if (nr < 0)
        prog_send(g, r, r + 1, m);
      else {
        prog_recv(g, r, r - 1, m);
        prog_local(g, r, m);
      }
    }
    if (nr >= 0)
      for (int mask = 1; mask < b.p2; mask <<= 1) {
        int peer = cs_bfly_oldrank(&b, nr ^ mask, 1);
        prog_xchg(g, r, peer, m, peer, m);
        prog_local(g, r, m);
      }
    if (r < 2 * b.rem) {
      if (nr < 0)
        prog_recv(g, r, r + 1, m);
      else
        prog_send(g, r, r - 1, m);
    }
  }
}

/* algos/butterfly/reduce.c (binomial tree) */
static void g_reduce_butterfly(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  int p = l->p;
  double m = (double)l->pre[p];
  for (int r = 0; r < p; r++) {
    int v = ml_mod(r - c->root, p);
    if (p == 1 || m == 0) {
      if (r == c->root && !c->inplace) prog_local(g, r, m);
      continue;
    }
    for (int mask = 1; mask < p; mask <<= 1) {
      if (v & mask) {
        prog_send(g, r, ml_mod(r - mask, p), m);
        break;
      }
      if (v + mask >= p) continue;
      prog_recv(g, r, (r + mask) % p, m);
      prog_local(g, r, m);
    }
  }
}

/* algos/butterfly/allgather.c */
static void g_ag_butterfly(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  int p = l->p;
  cs_bfly bf;
  cs_bfly_init(&bf, p);
  for (int r = 0; r < p; r++) {
    if (!c->inplace) prog_local(g, r, (double)l->cnt[r]);
    if (p == 1) continue;
    int nr = cs_bfly_newrank(&bf, r, 0);
    if (r < 2 * bf.rem) {
      if (nr < 0)
        prog_xchg(g, r, r - 1, (double)l->cnt[r], -1, 0);
      else
        prog_xchg(g, r, -1, 0, r + 1, (double)l->cnt[r + 1]);
    }
    if (nr >= 0)
      for (int mask = 1; mask < bf.p2; mask <<= 1) {
        int mine = nr & ~(mask - 1), theirs = (nr ^ mask) & ~(mask - 1);
        long sf, se, rf, re;
        bfly_range(&bf, l, mine, mine + mask, &sf, &se);
        bfly_range(&bf, l, theirs, theirs + mask, &rf, &re);
        int peer = cs_bfly_oldrank(&bf, nr ^ mask, 0);
        prog_xchg(g, r, peer, (double)(se - sf), peer, (double)(re - rf));
      }
    if (r < 2 * bf.rem) {
      if (nr >= 0)
        prog_xchg(g, r, r + 1, (double)l->pre[p], -1, 0);
      else
        prog_xchg(g, r, -1, 0, r - 1, (double)l->pre[p]);
    }
  }
}

/* algos/bruck/allgather.c */
static void g_ag_bruck(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  int p = l->p;
  double n = (double)l->cnt[0];
  for (int r = 0; r < p; r++) {
    if (p == 1) {
      if (!c->inplace) prog_local(g, r, n);
      continue;
    }
    prog_local(g, r, n);
    for (int dist = 1; dist < p; dist *= 2) {
      int nb = dist < p - dist ? dist : p - dist;
      prog_xchg(g, r, ml_mod(r - dist, p), nb * n, (r + dist) % p, nb * n);
    }
    prog_local(g, r, (p - r) * n);
    prog_local(g, r, r * n);
  }
}

/* algos/circulant/rooted.c: gather(v). Round-major, because a gatherv
 * receiver learns its byte count from the sender's state. */
static void gather_circ(cs_prog *g, const cs_case *c, const cs_mlay *l, int vvar, int prepacked) {
  int p = l->p, root = c->root;
  cs_circ ci;
  cs_circ_init(&ci, p);
  long *len = calloc((size_t)p, sizeof(long)), *sn = calloc((size_t)p, sizeof(long));
  int *M = calloc((size_t)p, sizeof(int));
  if (!len || !sn || !M) {
    g->oom = 1;
    goto out;
  }
  for (int r = 0; r < p; r++) {
    int v = ml_mod(r - root, p);
    if (v == 0) {
      if (!c->inplace) prog_local(g, r, (double)l->cnt[r]);
      continue;
    }
    M[r] = cs_circ_last_send_round(&ci, v);
    len[r] = l->cnt[r];
    if (!prepacked) prog_local(g, r, (double)len[r]);
  }
  for (int k = 0; k < ci.q; k++) {
    for (int r = 0; r < p; r++) {
      int v = ml_mod(r - root, p);
      sn[r] = 0;
      if (v != 0 && cs_circ_in_block_set(&ci, k, v)) sn[r] = len[r] - (ci.e[k] ? l->cnt[r] : 0);
    }
    for (int r = 0; r < p; r++) {
      int v = ml_mod(r - root, p), from = (r + ci.d[k]) % p, to = ml_mod(r - ci.d[k], p);
      if (v == 0) {
        if (vvar) prog_recv(g, r, from, 8);
        prog_xchg(g, r, -1, 0, from, (double)ml_sum(l, r + ci.skips[k], ci.d[k]));
        continue;
      }
      int sends = cs_circ_in_block_set(&ci, k, v), recvs = k < M[r];
      long rn = recvs ? sn[from] : 0;
      if (vvar && (sends || recvs)) {
        if (sends && recvs)
          prog_xchg(g, r, to, 8, from, 8);
        else if (sends)
          prog_send(g, r, to, 8);
        else
          prog_recv(g, r, from, 8);
      }
      prog_xchg(g, r, sends ? to : -1, (double)sn[r], recvs ? from : -1, (double)rn);
    }
    for (int r = 0; r < p; r++) {
      int v = ml_mod(r - root, p);
      if (v != 0 && k < M[r]) len[r] += sn[(r + ci.d[k]) % p];
    }
  }
out:
  free(len);
  free(sn);
  free(M);
}

/* algos/circulant/rooted.c: scatter(v), the gather schedule backwards. */
static void scatter_circ(cs_prog *g, const cs_case *c, const cs_mlay *l, int vvar) {
  int p = l->p, root = c->root;
  cs_circ ci;
  cs_circ_init(&ci, p);
  for (int r = 0; r < p; r++) {
    int v = ml_mod(r - root, p);
    if (v == 0) {
      for (int k = ci.q - 1; k >= 0; k--) {
        int to = (r + ci.d[k]) % p;
        if (vvar) prog_send(g, r, to, 8.0 * ci.d[k]);
        prog_xchg(g, r, to, (double)ml_sum(l, r + ci.skips[k], ci.d[k]), -1, 0);
      }
      if (!c->inplace) prog_local(g, r, (double)l->cnt[r]);
      continue;
    }
    int M = cs_circ_last_send_round(&ci, v);
    for (int k = ci.q - 1; k >= 0; k--) {
      int recvs = cs_circ_in_block_set(&ci, k, v), sends = k < M;
      int from = ml_mod(r - ci.d[k], p), to = (r + ci.d[k]) % p;
      int rfirst = ci.e[k], rnb = ci.skips[k] - ci.e[k];
      if (vvar)
        prog_xchg(g, r, sends ? to : -1, sends ? 8.0 * ci.d[k] : 0, recvs ? from : -1,
                  recvs ? 8.0 * rnb : 0);
      long rn = recvs ? ml_sum(l, r + rfirst, rnb) : 0;
      long sn = sends ? ml_sum(l, r + ci.skips[k], ci.d[k]) : 0;
      prog_xchg(g, r, sends ? to : -1, (double)sn, recvs ? from : -1, (double)rn);
    }
    prog_local(g, r, (double)l->cnt[r]);
  }
}

static void g_gather_circulant(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  gather_circ(g, c, l, 0, 0);
}
static void g_gatherv_circulant(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  gather_circ(g, c, l, 1, 0);
}
static void g_scatter_circulant(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  scatter_circ(g, c, l, 0);
}
static void g_scatterv_circulant(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  scatter_circ(g, c, l, 1);
}

/* algos/circulant/rooted.c: reduce as circulant reduce-scatter of an even
 * split (never in place: the own block goes to a temporary) + the circulant
 * gather of the blocks (the root copies its own block in). */
static void g_reduce_circulant_rsg(cs_prog *g, const cs_case *c, const cs_mlay *l) {
  int p = l->p;
  long m = l->pre[p];
  long *cnt = malloc(sizeof(long) * (size_t)p), *pre = malloc(sizeof(long) * (size_t)(p + 1));
  if (!cnt || !pre) {
    g->oom = 1;
    free(cnt);
    free(pre);
    return;
  }
  pre[0] = 0;
  for (int i = 0; i < p; i++) {
    cnt[i] = m / p + (i < m % p ? 1 : 0);
    pre[i + 1] = pre[i] + cnt[i];
  }
  cs_mlay even = {p, cnt, pre};
  /* The reduce-scatter writes the own block where the gather wants it: a
   * root not in place into recvbuf (the gather runs in place there), a
   * non-root into the gather's packed buffer; an in-place root copies. */
  cs_case gc = *c;
  gc.inplace = !c->inplace;
  circ_rs_core(g, &even, 0);
  gather_circ(g, &gc, &even, 0, 1);
  free(cnt);
  free(pre);
}

/* ---- the table: (collective, algorithm) -> generator ------------------ */

static const struct {
  cs_coll coll;
  const char *algo;
  cs_gen_fn fn;
} generators[] = {
    {CS_allreduce, "circulant", g_ar_circulant},
    {CS_allreduce, "circulant_rsag", g_ar_circulant_rsag},
    {CS_allreduce, "ceilhalf", g_ar_ceilhalf},
    {CS_allreduce, "butterfly", g_ar_butterfly},
    {CS_reduce, "circulant", g_reduce_circulant},
    {CS_reduce, "circulant_rsg", g_reduce_circulant_rsg},
    {CS_reduce, "butterfly", g_reduce_butterfly},
    {CS_reduce_scatter_block, "circulant", g_rs_circulant},
    {CS_reduce_scatter_block, "ceilhalf", g_rs_ceilhalf},
    {CS_reduce_scatter_block, "butterfly", g_rs_butterfly},
    {CS_reduce_scatter, "circulant", g_rs_circulant},
    {CS_reduce_scatter, "ceilhalf", g_rs_ceilhalf},
    {CS_reduce_scatter, "butterfly", g_rs_butterfly},
    {CS_allgather, "circulant", g_ag_circulant},
    {CS_allgather, "ceilhalf", g_ag_ceilhalf},
    {CS_allgather, "butterfly", g_ag_butterfly},
    {CS_allgather, "bruck", g_ag_bruck},
    {CS_allgatherv, "circulant", g_ag_circulant},
    {CS_allgatherv, "ceilhalf", g_ag_ceilhalf},
    {CS_allgatherv, "butterfly", g_ag_butterfly},
    {CS_gather, "circulant", g_gather_circulant},
    {CS_gatherv, "circulant", g_gatherv_circulant},
    {CS_scatter, "circulant", g_scatter_circulant},
    {CS_scatterv, "circulant", g_scatterv_circulant},
};

cs_gen_fn cs_model_generator(cs_coll coll, const char *algo) {
  for (size_t i = 0; i < sizeof generators / sizeof generators[0]; i++)
    if (generators[i].coll == coll && !strcmp(generators[i].algo, algo)) return generators[i].fn;
  return NULL;
}
