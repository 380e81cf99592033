/* Schedule arithmetic for the collsim kernels: skips, peers per round and
 * block sets. Pure functions without MPI, so that they can be unit tested for
 * every p and priced by the analytic models round by round.
 *
 * Notation (Träff, Hunold, Vardas, Funk 2023, "Uniform algorithms for
 * reduce-scatter and (most) other collectives"): for p processes the skips
 * are skips[q] = p and skips[k] = ceil(skips[k+1] / 2), so skips[0] = 1,
 * skips[1] = 2 (p > 1) and q = ceil(log2 p). The circulant pattern sends in
 * round k to rank - d_k and receives from rank + d_k, where
 * d_k = skips[k+1] - skips[k] = skips[k] - e_k and e_k = skips[k+1] & 1.
 * The ceil-halving reduce-scatter uses the same skips in the opposite order.
 */
#ifndef COLLSIM_SCHED_H
#define COLLSIM_SCHED_H

#include <stddef.h>

/* The largest q any schedule uses: p < 2^31. */
#define CS_MAX_ROUNDS 32

/* ceil(log2 p) for p >= 1. */
int cs_ceil_log2(int p);

/* Fills skips[0..q] (the caller gives CS_MAX_ROUNDS + 1 entries) and returns
 * q = ceil(log2 p). For p = 1, q = 0 and skips[0] = 1. */
int cs_skips(int p, int skips[]);

/* The circulant schedule of p processes: skips, round distances and the
 * correction terms. */
typedef struct {
  int p, q;
  int skips[CS_MAX_ROUNDS + 1];
  int d[CS_MAX_ROUNDS]; /* distance of round k: skips[k+1] - skips[k] */
  int e[CS_MAX_ROUNDS]; /* correction term: skips[k+1] odd */
} cs_circ;

void cs_circ_init(cs_circ *c, int p);

/* Relative block lists of the circulant reduce-scatter. rel(B^k) are the
 * offsets o (block of rank - o) that a process sends in round k:
 * rel(B^k) = d_k + ({0} U rel(B^{k+1}) U ... U rel(B^{q-1})), enumerated depth
 * first. |rel(B^k)| = 2^(q-1-k). cs_circ_blocks writes the concatenation
 * rel(B^0) | rel(B^1) | ... | rel(B^{q-1}) (2^q - 1 entries) into out (which
 * must hold 2^q entries) and returns the number written. The list of round
 * k starts at index 2^q - 2^(q-k). */
int cs_circ_blocks(const cs_circ *c, int out[]);
int cs_circ_blocks_start(const cs_circ *c, int k);

/* The same enumeration, one offset at a time, in O(q) memory (a kernel of
 * p processes that all hold a 2^q list at once needs O(p^2) memory). After
 * cs_circ_iter_init(it, c, k), cs_circ_iter_next returns the offsets of
 * rel(B^k) | rel(B^{k+1}) | ... | rel(B^{q-1}) in the order of
 * cs_circ_blocks, then 0 (offsets are >= 1). */
typedef struct {
  const cs_circ *c;
  int depth;
  int off[CS_MAX_ROUNDS + 1], next[CS_MAX_ROUNDS + 1];
} cs_circ_iter;
void cs_circ_iter_init(cs_circ_iter *it, const cs_circ *c, int k);
int cs_circ_iter_next(cs_circ_iter *it);

/* How many offsets o of rel(B^k) (with multiplicity, as cs_circ_iter
 * enumerates them) name a block (rank - o) mod p in [b0, b1), in O(q): the
 * distances are weakly superincreasing (d_i >= d_0 + ... + d_{i-1}), so the
 * subset sums of d_{k+1..q-1} up to a bound are counted greedily. Block
 * sizes of even and single layouts sum in O(q) per round with it instead of
 * O(p) over the enumeration. */
long cs_circ_count_blocks(const cs_circ *c, int k, int rank, int b0, int b1);

/* True iff offset v (1 <= v < p) is in rel(B^k): v - d_k is a subset sum of
 * d_{k+1..q-1} (superincreasing, so greedy decides in O(q)). */
int cs_circ_in_block_set(const cs_circ *c, int k, int v);

/* For the rooted gather/scatter specializations: the largest round k with
 * v in rel(B^k), for v = (rank - root) mod p; q for the root (v = 0); -1 is
 * impossible for 0 < v < p. */
int cs_circ_last_send_round(const cs_circ *c, int v);

/* Butterfly (recursive doubling/halving) with Rabenseifner's non-power-of-two
 * correction: p2 = largest power of two <= p, rem = p - p2; the first 2 rem
 * ranks pair up (even, odd). */
typedef struct {
  int p, p2, rem, lg; /* lg = log2 p2 */
} cs_bfly;

void cs_bfly_init(cs_bfly *b, int p);
/* New rank among the p2 survivors, or -1 for a removed rank. odd_survives
 * selects which member of a pair survives (1: the odd one, as in recursive
 * doubling allreduce; 0: the even one, as in Rabenseifner's reduce-scatter). */
int cs_bfly_newrank(const cs_bfly *b, int rank, int odd_survives);
int cs_bfly_oldrank(const cs_bfly *b, int newrank, int odd_survives);
/* The original blocks a survivor is responsible for: [lo, hi). */
void cs_bfly_blocks(const cs_bfly *b, int newrank, int *lo, int *hi);

/* Splits count elements into p blocks as evenly as possible: the first
 * count % p blocks get one element more. */
void cs_split_even(long count, int p, int counts[], int displs[]);

#endif
