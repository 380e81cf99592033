/* Unit tests of the schedule arithmetic, without MPI, for p = 1 .. 1024.
 * Each schedule is executed symbolically: a contribution is a random 64-bit
 * key per rank, and a partial result is (sum of keys, number of keys), so
 * "every block reduced exactly once" is checked as sum == total and
 * count == p. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assert.h"
#include "sched.h"

typedef struct {
  uint64_t sum;
  long cnt;
} part;

static uint64_t key_of(int r) {
  uint64_t x = (uint64_t)r * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  x ^= x >> 31;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 29);
}
static int mod(long a, int p) { return (int)(((a % p) + p) % p); }
static void add(part *a, part b) {
  a->sum += b.sum;
  a->cnt += b.cnt;
}

static void test_skips(int p) {
  int skips[CS_MAX_ROUNDS + 1];
  int q = cs_skips(p, skips);
  int lg = 0;
  while ((1 << lg) < p) lg++;
  ASSERT_EQ(q, lg, "p=%d", p);
  ASSERT_EQ(skips[0], 1, "p=%d", p);
  ASSERT_EQ(skips[q], p, "p=%d", p);
  if (p > 1) ASSERT_EQ(skips[1], 2, "p=%d", p);
  long sum = 0;
  for (int k = 0; k < q; k++) {
    ASSERT_EQ(skips[k + 1] <= 2 * skips[k] && 2 * skips[k] <= skips[k + 1] + 1, 1,
              "Lemma 1 p=%d k=%d", p, k);
    sum += skips[k + 1] - skips[k];
  }
  ASSERT_EQ(sum, p - 1, "p=%d", p);
}

/* The circulant allreduce invariant: after round k, S_r covers exactly the
 * ranks r+1 .. r+skips[k+1]-1. */
static void test_circ_allreduce(int p, part *S, part *N) {
  cs_circ c;
  cs_circ_init(&c, p);
  for (int r = 0; r < p; r++) S[r] = (part){0, 0};
  for (int k = 0; k < c.q; k++) {
    for (int r = 0; r < p; r++) {
      int f = (r + c.d[k]) % p;
      part x = S[f];
      if (!c.e[k]) add(&x, (part){key_of(f), 1});
      N[r] = S[r];
      add(&N[r], x);
    }
    memcpy(S, N, sizeof(part) * (size_t)p);
    for (int r = 0; r < p; r += (p > 64 ? 7 : 1)) {
      part want = {0, 0};
      for (int i = 1; i < c.skips[k + 1]; i++) add(&want, (part){key_of((r + i) % p), 1});
      ASSERT_EQ(S[r].cnt, want.cnt, "allreduce p=%d k=%d r=%d", p, k, r);
      ASSERT_EQ(S[r].sum == want.sum, 1, "allreduce p=%d k=%d r=%d", p, k, r);
    }
  }
}

/* The circulant reduce-scatter, executed as the kernel does it: part holds
 * [own, rel(B^1) | ... | rel(B^{q-1})]; block ids of what is received must
 * line up with what is held, and the own block ends with every rank's
 * contribution exactly once. */
static void test_circ_reduce_scatter(int p) {
  cs_circ c;
  cs_circ_init(&c, p);
  if (p == 1) return;
  int nb = 1 << c.q, half = nb / 2, s1 = cs_circ_blocks_start(&c, 1);
  int *rel = malloc(sizeof(int) * (size_t)nb);
  ASSERT_EQ(cs_circ_blocks(&c, rel), nb - 1, "p=%d", p);
  /* The O(q) iterator yields the same offsets, from any round on. */
  for (int k = 0; k < c.q; k++) {
    cs_circ_iter it;
    cs_circ_iter_init(&it, &c, k);
    for (int j = cs_circ_blocks_start(&c, k); j < nb - 1; j++)
      ASSERT_EQ(cs_circ_iter_next(&it), rel[j], "iterator p=%d k=%d j=%d", p, k, j);
    ASSERT_EQ(cs_circ_iter_next(&it), 0, "iterator end p=%d k=%d", p, k);
  }
  for (int k = 0; k < c.q; k++) {
    int st = cs_circ_blocks_start(&c, k), n = 1 << (c.q - 1 - k);
    for (int j = 0; j < n; j++) {
      ASSERT_EQ(cs_circ_in_block_set(&c, k, rel[st + j]), 1, "p=%d k=%d", p, k);
      ASSERT_EQ(rel[st + j] >= 1 && rel[st + j] < p, 1, "offset in range p=%d", p);
    }
  }
  /* cs_circ_count_blocks counts the enumeration's offsets whose block lies in
   * a range, as the enumeration does (sampled ranks, every range kind). */
  int rs[] = {0, 1, p / 3, p / 2, p - 2, p - 1};
  for (int ri = 0; ri < 6; ri++) {
    int r = rs[ri];
    int bs[][2] = {{0, p},
                   {0, 1},
                   {0, p / 3},
                   {p / 4, p},
                   {r, r + 1},
                   {(r + 1) % p, (r + 1) % p + 1},
                   {p / 2, p / 2 + 1},
                   {0, p - 1},
                   {p - 1, p}};
    for (int bi = 0; bi < 9; bi++)
      for (int k = 0; k < c.q; k++) {
        int st = cs_circ_blocks_start(&c, k), n = 1 << (c.q - 1 - k);
        long want = 0;
        for (int j = 0; j < n; j++) {
          int b = mod(r - rel[st + j], p);
          want += b >= bs[bi][0] && b < bs[bi][1];
        }
        ASSERT_EQ(cs_circ_count_blocks(&c, k, r, bs[bi][0], bs[bi][1]), want,
                  "count_blocks p=%d r=%d k=%d [%d, %d)", p, r, k, bs[bi][0], bs[bi][1]);
      }
  }
  /* part[r][j], block of part entry j at rank r = r - off(j) */
  part *P = malloc(sizeof(part) * (size_t)p * (size_t)half);
  part *T = malloc(sizeof(part) * (size_t)p * (size_t)half);
  int *poff = malloc(sizeof(int) * (size_t)half);
  poff[0] = 0;
  for (int j = 1; j < half; j++) poff[j] = rel[s1 + j - 1];
  long sent = 0;
  /* round 0: rank f = r + 1 sends its input of blocks f - rel[j], j < half */
  for (int r = 0; r < p; r++) {
    int f = (r + c.d[0]) % p;
    for (int j = 0; j < half; j++) {
      ASSERT_EQ(mod(f - rel[j], p), mod(r - poff[j], p), "round 0 alignment p=%d", p);
      P[(long)r * half + j] = (part){key_of(f), 1};
    }
  }
  sent += half;
  for (int r = 0; r < p; r++) {
    add(&P[(long)r * half], (part){key_of(r), 1});
    for (int k = 1, j = 1; k < c.q; k++)
      for (int i = 0; i < (1 << (c.q - 1 - k)); i++, j++)
        if (!c.e[k]) add(&P[(long)r * half + j], (part){key_of(r), 1});
  }
  for (int k = 1, j = 1; k < c.q; k++) {
    int n = 1 << (c.q - 1 - k);
    for (int r = 0; r < p; r++) {
      int f = (r + c.d[k]) % p;
      /* f sends its entries j .. j+n-1; r receives [own, entries j+n ..] */
      ASSERT_EQ(mod(f - poff[j], p), r, "own alignment p=%d k=%d", p, k);
      T[(long)r * half] = P[(long)f * half + j];
      for (int i = 1; i < n; i++) {
        ASSERT_EQ(mod(f - poff[j + i], p), mod(r - poff[j + n + i - 1], p), "alignment p=%d k=%d",
                  p, k);
        T[(long)r * half + i] = P[(long)f * half + j + i];
      }
    }
    for (int r = 0; r < p; r++) {
      add(&P[(long)r * half], T[(long)r * half]);
      for (int i = 1; i < n; i++) add(&P[(long)r * half + j + n + i - 1], T[(long)r * half + i]);
    }
    sent += n;
    j += n;
  }
  ASSERT_EQ(sent, nb - 1, "blocks sent p=%d", p);
  uint64_t total = 0;
  for (int r = 0; r < p; r++) total += key_of(r);
  for (int r = 0; r < p; r++) {
    ASSERT_EQ(P[(long)r * half].cnt, p, "reduce_scatter p=%d r=%d", p, r);
    ASSERT_EQ(P[(long)r * half].sum == total, 1, "reduce_scatter p=%d r=%d", p, r);
  }
  free(P);
  free(T);
  free(poff);
  free(rel);
}

/* The ceil-halving reduce-scatter: R[r][i] is the partial of block r + i. */
static void test_ceilhalf(int p) {
  part *R = malloc(sizeof(part) * (size_t)p * (size_t)p);
  for (int r = 0; r < p; r++)
    for (int i = 0; i < p; i++) R[(long)r * p + i] = (part){key_of(r), 1};
  int s = p, rounds = 0;
  long sent = 0;
  while (s > 1) {
    int sp = s;
    s = sp - sp / 2;
    /* In place: round writes R[.][i < sp-s <= s], reads R[.][>= s]. */
    for (int r = 0; r < p; r++) {
      int f = mod(r - s, p);
      for (int i = 0; i < sp - s; i++) add(&R[(long)r * p + i], R[(long)f * p + s + i]);
    }
    sent += sp - s;
    rounds++;
  }
  int lg = 0;
  while ((1 << lg) < p) lg++;
  ASSERT_EQ(rounds, lg, "ceilhalf rounds p=%d", p);
  ASSERT_EQ(sent, p - 1, "ceilhalf blocks p=%d", p);
  uint64_t total = 0;
  for (int r = 0; r < p; r++) total += key_of(r);
  for (int r = 0; r < p; r++) {
    ASSERT_EQ(R[(long)r * p].cnt, p, "ceilhalf p=%d r=%d", p, r);
    ASSERT_EQ(R[(long)r * p].sum == total, 1, "ceilhalf p=%d r=%d", p, r);
  }
  free(R);
}

/* Allgather schedules (circulant: distance d_k, send offset e_k; ceilhalf:
 * distance skips[k], offset 0): every rel index filled exactly once, sends
 * only what is held, rounds before the last stay below skips[q-1]. */
static void test_allgather(int p, int ceilhalf) {
  cs_circ c;
  cs_circ_init(&c, p);
  char *have = calloc((size_t)p, 1); /* the same at every rank (symmetry) */
  have[0] = 1;
  long got = 1;
  for (int k = 0; k < c.q; k++) {
    int a = ceilhalf ? 0 : c.e[k];
    int dist = ceilhalf ? c.skips[k] : c.d[k];
    for (int j = 0; j < c.d[k]; j++) {
      ASSERT_EQ(have[a + j], 1, "send held p=%d k=%d", p, k);
      /* rel a + j at the sender r + dist is block r + dist + a + j, which
       * lands at rel skips[k] + j of the receiver r */
      ASSERT_EQ(dist + a + j, c.skips[k] + j, "alignment p=%d k=%d", p, k);
    }
    for (int j = c.skips[k]; j < c.skips[k + 1]; j++) {
      ASSERT_EQ(have[j], 0, "filled twice p=%d", p);
      have[j] = 1;
      got++;
      if (k < c.q - 1) ASSERT_EQ(j < c.skips[c.q - 1], 1, "lower range p=%d", p);
    }
  }
  ASSERT_EQ(got, p, "allgather complete p=%d", p);
  free(have);
}

/* The rooted specializations: with root 0, rank v sends in round k iff
 * v in rel(B^k) and receives in rounds k < M(v). Every send meets a
 * receive, and the root gets every block exactly once. */
static void test_gather(int p) {
  cs_circ c;
  cs_circ_init(&c, p);
  unsigned char *held = calloc((size_t)p * (size_t)p, 1); /* held[v][block] */
  unsigned char *inc = calloc((size_t)p * (size_t)p, 1);
  for (int v = 0; v < p; v++) held[(long)v * p + v] = 1;
  int *M = malloc(sizeof(int) * (size_t)p);
  for (int v = 0; v < p; v++) {
    M[v] = cs_circ_last_send_round(&c, v);
    ASSERT_EQ(M[v] >= 0, 1, "M p=%d v=%d", p, v);
  }
  for (int k = 0; k < c.q; k++) {
    memset(inc, 0, (size_t)p * (size_t)p);
    for (int v = 1; v < p; v++) {
      if (!cs_circ_in_block_set(&c, k, v)) continue;
      int t = mod(v - c.d[k], p);
      ASSERT_EQ(t == 0 || M[t] > k, 1, "receiver listens p=%d k=%d v=%d", p, k, v);
      for (int j = c.e[k]; j < c.skips[k]; j++) {
        int b = (v + j) % p;
        ASSERT_EQ(held[(long)v * p + b], 1, "sender holds p=%d k=%d v=%d j=%d", p, k, v, j);
        inc[(long)t * p + b]++;
      }
    }
    for (int t = 0; t < p; t++) {
      int listens = t == 0 || k < M[t];
      int f = (t + c.d[k]) % p;
      if (listens)
        ASSERT_EQ(f != 0 && cs_circ_in_block_set(&c, k, f), 1, "sender exists p=%d k=%d t=%d", p, k,
                  t);
      for (int b = 0; b < p; b++)
        if (inc[(long)t * p + b]) {
          ASSERT_EQ(held[(long)t * p + b], 0, "received twice p=%d", p);
          ASSERT_EQ(inc[(long)t * p + b], 1, "received twice p=%d", p);
          held[(long)t * p + b] = 1;
        }
    }
  }
  for (int b = 0; b < p; b++) ASSERT_EQ(held[b], 1, "root has block p=%d b=%d", p, b);
  free(held);
  free(inc);
  free(M);
}

static void test_bfly(int p) {
  cs_bfly b;
  cs_bfly_init(&b, p);
  ASSERT_EQ(b.p2 <= p && 2 * b.p2 > p, 1, "p2 p=%d", p);
  for (int odd = 0; odd < 2; odd++) {
    int survivors = 0, covered = 0;
    for (int r = 0; r < p; r++) {
      int nr = cs_bfly_newrank(&b, r, odd);
      if (nr < 0) continue;
      survivors++;
      ASSERT_EQ(cs_bfly_oldrank(&b, nr, odd), r, "inverse p=%d", p);
      int lo, hi;
      cs_bfly_blocks(&b, nr, &lo, &hi);
      ASSERT_EQ(lo, covered, "blocks consecutive p=%d", p);
      covered = hi;
    }
    ASSERT_EQ(survivors, b.p2, "survivors p=%d", p);
    ASSERT_EQ(covered, p, "blocks cover p=%d", p);
  }
  int counts[64], displs[64];
  if (p <= 64) {
    for (long n = 0; n < 3L * p; n += 1 + p / 3) {
      cs_split_even(n, p, counts, displs);
      long s = 0;
      for (int i = 0; i < p; i++) {
        ASSERT_EQ(displs[i], s, "displs p=%d", p);
        ASSERT_EQ(counts[i] == n / p || counts[i] == n / p + 1, 1, "even p=%d", p);
        s += counts[i];
      }
      ASSERT_EQ(s, n, "split sum p=%d", p);
    }
  }
}

int main(int argc, char **argv) {
  int pmax = argc > 1 ? atoi(argv[1]) : 1024;
  /* Table II of Träff et al. 2023. */
  int skips[CS_MAX_ROUNDS + 1];
  int t31[] = {1, 2, 4, 8, 16, 31}, t32[] = {1, 2, 4, 8, 16, 32}, t33[] = {1, 2, 3, 5, 9, 17, 33};
  cs_skips(31, skips);
  for (int i = 0; i < 6; i++) ASSERT_EQ(skips[i], t31[i], "Table II p=31 k=%d", i);
  cs_skips(32, skips);
  for (int i = 0; i < 6; i++) ASSERT_EQ(skips[i], t32[i], "Table II p=32 k=%d", i);
  cs_skips(33, skips);
  for (int i = 0; i < 7; i++) ASSERT_EQ(skips[i], t33[i], "Table II p=33 k=%d", i);
  /* The p = 9 example of Sec. III-D: rank 8 sends to 7, 7, 6, 4. */
  cs_circ c9;
  cs_circ_init(&c9, 9);
  int to9[] = {7, 7, 6, 4};
  for (int k = 0; k < 4; k++) ASSERT_EQ(mod(8 - c9.d[k], 9), to9[k], "p=9 example k=%d", k);

  part *S = malloc(sizeof(part) * (size_t)pmax), *N = malloc(sizeof(part) * (size_t)pmax);
  for (int p = 1; p <= pmax; p++) {
    test_skips(p);
    test_circ_allreduce(p, S, N);
    test_circ_reduce_scatter(p);
    test_ceilhalf(p);
    test_allgather(p, 0);
    test_allgather(p, 1);
    if (p <= 512 || p % 61 == 0) test_gather(p);
    test_bfly(p);
  }
  free(S);
  free(N);
  printf("schedules checked for p = 1 .. %d\n", pmax);
  return cs_test_end();
}
