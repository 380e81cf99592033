/* Compositions: collectives made of registered pieces, not copies of them
 * (UCC's allreduce_ring = reduce_scatter_ring + allgather_ring).
 *
 * A registry row whose `parts` column is not empty has no kernel of its own:
 * the dispatcher calls the generic composition of its collective, which
 * finds the pieces named in `parts` ("collective:algorithm" words) in the
 * piece table below and runs them in order. Two compositions exist:
 *
 *   allreduce = reduce_scatter + allgatherv: the vector is split into p
 *     blocks as evenly as possible (the first count mod p blocks one element
 *     longer); the reduce-scatter piece reduces each process's block straight
 *     into its place in recvbuf, and the allgatherv piece runs in place.
 *     Local work: only the pieces'. Rows: allreduce circulant_rsag (2 ceil(log2
 *     p) rounds, (2^q - 1) + (p - 1) blocks, Traff et al. 2023 Sec. III-G),
 *     allreduce ceilhalf (2 ceil(log2 p) rounds, 2 (p - 1) blocks, the seed's
 *     Alg. 2). Rabenseifner's halving-doubling allreduce is the row with parts
 *     "reduce_scatter:butterfly allgatherv:butterfly".
 *
 *   reduce = reduce_scatter + gatherv (Rabenseifner's reduce for any p): the
 *     same even split; the reduce-scatter piece writes the own block where
 *     the gather wants it: at a root not in place into its place in recvbuf
 *     (the gather then runs in place there), at a non-root with a contiguous
 *     type into a packed buffer the gather piece takes over, otherwise into a
 *     temporary block. So there is no local work besides the pieces', except
 *     one copy of the block in the last case. Row: reduce circulant_rsg.
 *
 * Accepts: what both pieces accept (every piece today: any p, any count,
 * MPI_IN_PLACE, derived datatypes); the row's flags carry the restrictions
 * (CS_COMMUTATIVE: the reduce-scatter pieces need a commutative op).
 * Limitations: a row whose parts do not name the pieces its collective needs
 * is refused with MPI_ERR_ARG and a message (cs_compose_verify finds such
 * rows before anything runs; the check driver calls it).
 * Memory: that of the pieces (plus one block in the reduce's last case).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collsim.h"
#include "../kernel.h"

/* The piece of every registry row of a piece collective; rows without one
 * (native, for instance) resolve to NULL through weak references. The table
 * is generated from registry.def, never retyped. */
#define CS_PIECE_DECL_reduce_scatter(name) \
  int cs_piece_reduce_scatter_##name CS_PIECE_PARAMS_reduce_scatter __attribute__((weak));
#define CS_PIECE_DECL_allgatherv(name) \
  int cs_piece_allgatherv_##name CS_PIECE_PARAMS_allgatherv __attribute__((weak));
#define CS_PIECE_DECL_gatherv(name) \
  int cs_piece_gatherv_##name CS_PIECE_PARAMS_gatherv __attribute__((weak));
#define CS_PIECE_ENTRY_reduce_scatter(name) \
  [CS_A_reduce_scatter_##name] = {.rs = cs_piece_reduce_scatter_##name},
#define CS_PIECE_ENTRY_allgatherv(name) \
  [CS_A_allgatherv_##name] = {.ag = cs_piece_allgatherv_##name},
#define CS_PIECE_ENTRY_gatherv(name) [CS_A_gatherv_##name] = {.gv = cs_piece_gatherv_##name},
#define CS_NO_PIECE(name)
#define CS_PIECE_DECL_allreduce             CS_NO_PIECE
#define CS_PIECE_DECL_reduce                CS_NO_PIECE
#define CS_PIECE_DECL_reduce_scatter_block  CS_NO_PIECE
#define CS_PIECE_DECL_allgather             CS_NO_PIECE
#define CS_PIECE_DECL_gather                CS_NO_PIECE
#define CS_PIECE_DECL_scatter               CS_NO_PIECE
#define CS_PIECE_DECL_scatterv              CS_NO_PIECE
#define CS_PIECE_DECL_bcast                 CS_NO_PIECE
#define CS_PIECE_DECL_scan                  CS_NO_PIECE
#define CS_PIECE_DECL_exscan                CS_NO_PIECE
#define CS_PIECE_DECL_alltoall              CS_NO_PIECE
#define CS_PIECE_ENTRY_allreduce            CS_NO_PIECE
#define CS_PIECE_ENTRY_reduce               CS_NO_PIECE
#define CS_PIECE_ENTRY_reduce_scatter_block CS_NO_PIECE
#define CS_PIECE_ENTRY_allgather            CS_NO_PIECE
#define CS_PIECE_ENTRY_gather               CS_NO_PIECE
#define CS_PIECE_ENTRY_scatter              CS_NO_PIECE
#define CS_PIECE_ENTRY_scatterv             CS_NO_PIECE
#define CS_PIECE_ENTRY_bcast                CS_NO_PIECE
#define CS_PIECE_ENTRY_scan                 CS_NO_PIECE
#define CS_PIECE_ENTRY_exscan               CS_NO_PIECE
#define CS_PIECE_ENTRY_alltoall             CS_NO_PIECE

#define CS_ALGO(coll, name, family, flags, formula, parts, ref) CS_PIECE_DECL_##coll(name)
#include "../registry.def"
#undef CS_ALGO

typedef struct {
  cs_piece_rs_fn rs;
  cs_piece_ag_fn ag;
  cs_piece_gv_fn gv;
} piece;

static const piece pieces[CS_NALGO] = {
#define CS_ALGO(coll, name, family, flags, formula, parts, ref) CS_PIECE_ENTRY_##coll(name)
#include "../registry.def"
#undef CS_ALGO
};

/* The next word of a parts string from s: copies it into word and sets
 * *row to the registered algorithm "collective:algorithm" names (NULL if
 * none). Returns where the next word starts, or NULL after the last one. */
static const char *next_part(const char *s, char *word, size_t len, const cs_algo_info **row) {
  while (*s == ' ') s++;
  size_t n = strcspn(s, " ");
  if (n == 0) return NULL;
  snprintf(word, len, "%.*s", (int)n, s);
  *row = NULL;
  char *colon = strchr(word, ':');
  if (colon) {
    *colon = '\0';
    int c = cs_coll_by_name(word);
    if (c >= 0) *row = cs_algo_find((cs_coll)c, colon + 1);
    *colon = ':';
  }
  return s + n;
}

/* The pieces a row's parts name (NULL for kinds it does not name). Returns
 * 0, or -1 with a message in err if a word is not a registered algorithm of
 * a piece collective with a piece. */
static int find_pieces(const cs_algo_info *a, piece *out, char *err, size_t len) {
  memset(out, 0, sizeof *out);
  char word[128];
  const cs_algo_info *pa;
  for (const char *s = a->parts; (s = next_part(s, word, sizeof word, &pa));) {
    const piece *pc = pa ? &pieces[pa->index] : NULL;
    if (!pc || !(pc->rs || pc->ag || pc->gv)) {
      snprintf(err, len, "part '%s' is not a registered algorithm with a piece", word);
      return -1;
    }
    if (pc->rs) out->rs = pc->rs;
    if (pc->ag) out->ag = pc->ag;
    if (pc->gv) out->gv = pc->gv;
  }
  return 0;
}

/* The pieces a row's collective is composed of, or -1 if there is no
 * generic composition for it, with a message in err. */
static int resolve(const cs_algo_info *a, piece *pc, char *err, size_t len) {
  int rs = 1, ag = a->coll == CS_allreduce, gv = a->coll == CS_reduce;
  if (!ag && !gv) {
    snprintf(err, len, "there is no generic composition for %s", cs_colls[a->coll].name);
    return -1;
  }
  if (find_pieces(a, pc, err, len)) return -1;
  if ((rs && !pc->rs) || (ag && !pc->ag) || (gv && !pc->gv)) {
    snprintf(err, len, "%s is composed of a reduce_scatter and %s; its parts '%s' do not name both",
             cs_colls[a->coll].name, ag ? "an allgatherv" : "a gatherv", a->parts);
    return -1;
  }
  return 0;
}

int cs_compose_verify(FILE *f) {
  int bad = 0;
  for (int i = 0; i < cs_nalgos; i++) {
    const cs_algo_info *a = &cs_algos[i];
    if (!a->parts[0]) continue;
    piece pc;
    char err[256];
    if (resolve(a, &pc, err, sizeof err)) {
      if (f) fprintf(f, "collsim: registry row %s/%s: %s\n", cs_colls[a->coll].name, a->name, err);
      bad++;
    }
    /* A part that reads the kernel context makes the composition need one
     * (the dispatcher builds contexts only for CS_NODE_AWARE rows). */
    char word[128];
    const cs_algo_info *part;
    for (const char *w = a->parts; (w = next_part(w, word, sizeof word, &part));)
      if (part && (part->flags & CS_NODE_AWARE) && !(a->flags & CS_NODE_AWARE)) {
        if (f)
          fprintf(f, "collsim: registry row %s/%s: part %s is CS_NODE_AWARE, the row is not\n",
                  cs_colls[a->coll].name, a->name, word);
        bad++;
      }
  }
  return bad;
}

int cs_piece_rs_entry(cs_piece_rs_fn piece, const void *sendbuf, void *recvbuf, int recvcount,
                      const int recvcounts[], MPI_Datatype dt, MPI_Op op, MPI_Comm comm,
                      const cs_ctx *ctx) {
  int p;
  MPI_Comm_size(comm, &p);
  int *displs = NULL;
  cs_layout l;
  if (recvcounts) {
    l = cs_layout_arrays(p, recvcounts, NULL); /* declared even: no displacements to add up */
    if (l.kind == CS_LAYOUT_ARRAYS) {
      displs = malloc(sizeof(int) * (size_t)p);
      if (!displs) return MPI_ERR_NO_MEM;
      for (int i = 0, d = 0; i < p; d += recvcounts[i++]) displs[i] = d;
      l = cs_layout_arrays(p, recvcounts, displs);
    }
  } else {
    l = cs_layout_regular(p, recvcount);
  }
  int inplace = sendbuf == MPI_IN_PLACE;
  int rc = piece(inplace ? recvbuf : sendbuf, recvbuf, &l, dt, op, comm, inplace, ctx);
  free(displs);
  return rc;
}

static int refuse(const cs_algo_info *a, MPI_Comm comm, const char *err) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0)
    fprintf(stderr, "collsim: %s/%s is not supported: %s\n", cs_colls[a->coll].name, a->name, err);
  return MPI_ERR_ARG;
}

int cs_compose_allreduce(const cs_algo_info *a, const void *sendbuf, void *recvbuf, int count,
                         MPI_Datatype dt, MPI_Op op, MPI_Comm comm, const cs_ctx *ctx) {
  piece pc;
  char err[256];
  if (resolve(a, &pc, err, sizeof err)) return refuse(a, comm, err);
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  cs_layout l = cs_layout_even(p, count);
  int inplace = sendbuf == MPI_IN_PLACE;
  char *own = (char *)recvbuf + cs_ldispl(&l, r) * cs_extent(dt);
  CS_CHECK(pc.rs(inplace ? recvbuf : sendbuf, own, &l, dt, op, comm, inplace, ctx));
  return pc.ag(MPI_IN_PLACE, 0, dt, recvbuf, &l, dt, comm, ctx);
}

int cs_compose_reduce(const cs_algo_info *a, const void *sendbuf, void *recvbuf, int count,
                      MPI_Datatype dt, MPI_Op op, int root, MPI_Comm comm, const cs_ctx *ctx) {
  piece pc;
  char err[256];
  if (resolve(a, &pc, err, sizeof err)) return refuse(a, comm, err);
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  cs_layout l = cs_layout_even(p, count);
  int inplace = sendbuf == MPI_IN_PLACE;
  const void *in = inplace ? recvbuf : sendbuf;
  long own_n = cs_lcount(&l, r);
  MPI_Aint ext = cs_extent(dt);
  int size, contiguous = cs_type_contiguous(dt);
  MPI_Type_size(dt, &size);
  int rc;
  if (r == root && !inplace) {
    rc = pc.rs(in, (char *)recvbuf + cs_ldispl(&l, r) * ext, &l, dt, op, comm, 0, ctx);
    if (rc == MPI_SUCCESS) rc = pc.gv(MPI_IN_PLACE, 0, dt, recvbuf, &l, dt, root, comm, NULL, ctx);
    return rc;
  }
  if (r != root && contiguous) {
    char *packed = malloc((size_t)(own_n * size) + 1);
    if (!packed) return MPI_ERR_NO_MEM;
    rc = pc.rs(in, packed, &l, dt, op, comm, 0, ctx);
    if (rc != MPI_SUCCESS) {
      free(packed);
      return rc;
    }
    /* The gather piece owns (and frees) packed from here on. */
    return pc.gv(packed, (int)own_n, dt, recvbuf, &l, dt, root, comm, packed, ctx);
  }
  cs_tmp own = {0};
  rc = cs_tmp_alloc(&own, own_n, dt);
  if (rc == MPI_SUCCESS) rc = pc.rs(in, own.buf, &l, dt, op, comm, 0, ctx);
  if (rc == MPI_SUCCESS)
    rc = pc.gv(own.buf, (int)own_n, dt, recvbuf, &l, dt, root, comm, NULL, ctx);
  cs_tmp_free(&own);
  return rc;
}
