/* Rabenseifner's recursive halving and doubling (Rabenseifner 2004, Secs.
 * 2.5-2.6): the pieces the halvdoub and binblocks kernels of allreduce and
 * reduce share (algos/halvdoub/halving.c). Internal to this folder.
 *
 * A group is 2^lg processes with local indices j = 0 .. 2^lg - 1. After
 * recursive vector halving with distance doubling (step i pairs j and
 * j ^ 2^i; the one with bit i clear keeps the lower half of the current
 * range), j holds the node of depth lg of the bisection tree of [0, n) whose
 * path from the top is bit 0, bit 1, ... of j (hd_seg). Deeper groups refine
 * the nodes of shallower ones, which is what lets blocks of different sizes
 * hand their nodes to each other (binary blocks).
 */
#ifndef COLLSIM_HALVING_H
#define COLLSIM_HALVING_H

#include <mpi.h>

/* The comm rank of local index j: alias_rank for j == alias (the root that
 * plays rank 0 in a binary-blocks gather); else base + 2j + (j == swap) for
 * j < rem (the surviving member of pair j of halvdoub's first step, the odd
 * one for pair swap: the root-among-removed role swap), base + j + rem
 * otherwise. */
typedef struct {
  int base, rem, swap, alias, alias_rank;
} hd_group;

/* What every piece needs: the call's type, op and communicator, and a
 * temporary of ceil(n/2) elements (what a process receives at most). */
typedef struct {
  MPI_Datatype dt;
  MPI_Aint ext;
  MPI_Op op;
  MPI_Comm comm;
  char *T;
} hd_call;

int hd_rank(const hd_group *g, int j);
/* [*a, *b): the node of local index j at depth d of the bisection of
 * [lo, hi) (the lower half gets floor of the length / 2). */
void hd_seg(long lo, long hi, int j, int d, long *a, long *b);
/* Recursive vector halving, distance doubling, over the group of 2^lg
 * processes on the vector [0, n). *src: the input (read only; may be W);
 * the first step reduces straight into W (no copy of the input), and *src
 * becomes W after any step. Afterwards the node hd_seg(0, n, j, lg) of *src
 * holds the group's reduction. */
int hd_halve(const hd_call *c, const char **src, char *W, const hd_group *g, int j, int lg, long n);
/* Recursive vector doubling, distance halving: from each j's node at depth
 * lg in W to the whole vector in W on every member. */
int hd_double(const hd_call *c, char *W, const hd_group *g, int j, int lg, long n);
/* Binomial gather of the nodes at depth lg to local index jr (the paper's
 * gather of Sec. 2.5: highest bit first, receivers continue): W of jr ends
 * with the whole vector. */
int hd_gather(const hd_call *c, char *W, const hd_group *g, int j, int jr, int lg, long n);
/* One-way message of elements [lo, hi) of buf (nothing when empty: both
 * sides know the sizes). */
int hd_send(const hd_call *c, const char *buf, long lo, long hi, int to);
int hd_recv(const hd_call *c, char *buf, long lo, long hi, int from);
/* Receives elements [lo, hi) from `from` into T and reduces them into W. */
int hd_recv_reduce(const hd_call *c, char *W, long lo, long hi, int from);

/* The two protocols (blocks 0: halvdoub, 1: binblocks), for allreduce
 * (root < 0) and reduce. */
int hd_run(int blocks, const void *sendbuf, void *recvbuf, int count, MPI_Datatype dt, MPI_Op op,
           int root, MPI_Comm comm);

#endif
