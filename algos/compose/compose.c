/* Compositions: collectives made of registered algorithms run on the
 * communicator of the call or on its node and lane communicators, not copies
 * of them (UCC's allreduce_ring = reduce_scatter_ring + allgather_ring;
 * Traff and Hunold's hierarchical and full-lane decompositions).
 *
 * A CS_COMPOSE row of algos/registry.def has no kernel: its parts, words
 * COLLECTIVE:ALGORITHM[@COMMUNICATOR], are run in order by the one engine
 * below. Writing a composition is writing such a row:
 *
 *   CS_COMPOSE(allreduce, hier, "hier", CS_COMMUTATIVE | CS_NODE_AWARE, none,
 *              "reduce:inner@node allreduce:inner@leaders bcast:inner@node", "...")
 *
 * The data: the row's vector (allreduce, reduce, bcast rows; count elements
 * of the call's datatype). Each part works on the CURRENT RANGE of it,
 * which starts as the whole vector:
 *   reduce_scatter   splits the current range evenly over the part's
 *                    communicator (the first n mod size blocks one element
 *                    longer), reducing (scatterv: from the part's root, whose
 *                    range holds the data); each process keeps its block, which
 *                    becomes its current range (the node's share of the
 *                    vector, then this lane's block of it, ...);
 *   allgatherv       joins the innermost split again on every process, in
 *                    place, and restores the range it split; gatherv does
 *                    so to the part's root only;
 *   allreduce, reduce, bcast
 *                    work on the current range whole (reduce leaves the
 *                    result at the part's root, bcast sends the root's).
 * A split must be joined by a later part on the communicator that made it
 * (splits nest). The result lands in the call's recvbuf (the buffer of a
 * bcast); the first reducing part reads the call's sendbuf, later ones work
 * in place there.
 *
 * The communicators: comm (the call's, the default), node (the processes of
 * my node), lane (one process per node, the same local rank on each: the
 * lane communicator), leaders (local rank 0 of every node, i.e. the lane
 * communicator of local rank 0; the other processes skip the part; in a row
 * with no part on lane the context's leaders' communicator, made by the
 * leaders alone, cs_ctx_leaderscomm): those of the kernel context (algos/ctx.h), so that a row
 * naming node, lane or leaders must be CS_NODE_AWARE, and a row naming only comm must not be (it
 * runs without a context, which costs every job a world reduction and a
 * split). On nodes that are not regular the context's fallback (node =
 * self, lane = a duplicate of comm, every process a leader) keeps every
 * decomposition correct. Rooted parts use, in a rooted row (reduce, bcast),
 * the call's root on comm, the root's local rank on node and the root's node
 * on lane and leaders, where leaders is the lane of the root's local rank; in
 * a row that is not rooted root 0 of their communicator (leaders = local
 * rank 0). In a rooted row a scatterv or gatherv on node runs on the root's
 * node only (the other nodes' ranges are not needed there: Traff and
 * Hunold's full-lane reduce and bcast).
 *
 * The algorithms: any row of the part's collective (native = the library's
 * own; a composition row too), or `inner`: the row COLLSIM_INNER names for
 * that collective, else native (cs_inner_row; the decompositions' inner
 * collectives, as in the paper the library's by default). Whole-range parts
 * are called through the dispatcher (cs_run) on the part's communicator;
 * splits and joins through the row's piece where it has one (a kernel
 * entry on a cs_layout that every process knows, cs_piece_<collective>_<name>
 * in algos/kernel.h, found through weak references: rows without one
 * resolve to NULL), else through the dispatcher with the counts and
 * displacements arrays of the even split (in place; MPI's in-place
 * reduce_scatter leaves the block at the start of the buffer, so the
 * block goes through a temporary there).
 * A split directly joined by a gatherv to a root (reduce = reduce_scatter +
 * gatherv, Rabenseifner's reduce for any p) hands the own block to the
 * gather without a copy: at the root it is reduced into its place in
 * recvbuf, elsewhere into a packed buffer the gather takes over (contiguous
 * types), else into a temporary block.
 *
 * Checked at start: cs_compose_verify (called by cs_dispatch_verify, which
 * the check driver runs) parses every row and reports a part naming an
 * unknown collective, algorithm or communicator with what is valid, splits
 * that are not joined, and flags that do not match the parts (CS_NODE_AWARE
 * as above; a part's CS_COMMUTATIVE / CS_ASSOCIATIVE must be the row's too,
 * so that the row refuses an op before anything is sent). The engine
 * refuses such a row with MPI_ERR_ARG and the same message.
 *
 * Accepts: what the parts accept (every part today: any p, any count,
 * MPI_IN_PLACE, derived datatypes). Cost: the sum of the parts' (the models
 * price the recorded execution). Memory: that of the parts, plus a vector
 * at non-roots of a reduce row with whole-range parts, and one block in the
 * last case of the split-gather above.
 * Rows: allreduce circulant_rsag (reduce_scatter + allgatherv, Traff et al.
 * 2023 Sec. III-G), ceilhalf (the seed's Alg. 2); reduce circulant_rsg
 * (reduce_scatter + gatherv); Traff and Hunold's full-lane (lane) and
 * hierarchical (hier) allreduce, reduce and bcast.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../collsim.h"
#include "../kernel.h"

/* ---- pieces, from the registry -------------------------------------------
 * Every kernel row NAME may have pieces cs_piece_reduce_scatter_NAME,
 * cs_piece_allgatherv_NAME, cs_piece_gatherv_NAME (weak: NULL where none
 * exists); the table keeps them by row, and a part looks at the field of its
 * own collective. */
#define CS_ALGO(coll, name, family, flags, formula, ref)                                   \
  int cs_piece_reduce_scatter_##name CS_PIECE_PARAMS_reduce_scatter __attribute__((weak)); \
  int cs_piece_allgatherv_##name CS_PIECE_PARAMS_allgatherv __attribute__((weak));         \
  int cs_piece_gatherv_##name CS_PIECE_PARAMS_gatherv __attribute__((weak));
#define CS_COMPOSE(coll, name, family, flags, formula, parts, ref)
#include "../registry.def"
#undef CS_ALGO
#undef CS_COMPOSE

typedef struct {
  cs_piece_rs_fn rs;
  cs_piece_ag_fn ag;
  cs_piece_gv_fn gv;
} piece;

static const piece pieces[CS_NALGO] = {
#define CS_ALGO(coll, name, family, flags, formula, ref)                                \
  [CS_A_##coll##_##name] = {cs_piece_reduce_scatter_##name, cs_piece_allgatherv_##name, \
                            cs_piece_gatherv_##name},
#define CS_COMPOSE(coll, name, family, flags, formula, parts, ref)
#include "../registry.def"
#undef CS_ALGO
#undef CS_COMPOSE
};

/* ---- parts: parsing and checking ------------------------------------------ */

enum { ON_COMM, ON_NODE, ON_LANE, ON_LEADERS, ON_N };
static const char *const on_names[ON_N] = {"comm", "node", "lane", "leaders"};

/* What a part does with the current range (see the header). */
enum { SPLIT, JOIN, WHOLE };

enum { MAX_PARTS = 8 };

typedef struct {
  const cs_algo_info *row; /* the part's algorithm (for `inner`: the native row until the call) */
  int kind, on, inner;
  char word[64];
} part;

static int kind_of(int coll) {
  switch (coll) {
  case CS_reduce_scatter:
  case CS_scatterv: return SPLIT;
  case CS_allgatherv:
  case CS_gatherv: return JOIN;
  case CS_allreduce:
  case CS_reduce:
  case CS_bcast: return WHOLE;
  default: return -1;
  }
}

/* Whether row r can stand in a part: every row of a part's collective can
 * (rows without a piece are called through the dispatcher with counts and
 * displacements arrays, the way the library's own are), except those that
 * read a kernel context (they are told apart by the rules of check_row). */
static int composable(const cs_algo_info *r) { return r != NULL; }

/* ---- inner algorithms: COLLSIM_INNER ---------------------------------------- */

int cs_inner_row(cs_coll coll, const cs_algo_info **row, char *err, size_t len) {
  const char *v = getenv("COLLSIM_INNER");
  *row = cs_algo_find(coll, "native");
  for (const char *s = v ? v : ""; *s;) {
    size_t w = strcspn(s, ",");
    char item[128];
    snprintf(item, sizeof item, "%.*s", (int)(w < sizeof item ? w : sizeof item - 1), s);
    s += w + (s[w] == ',');
    if (!item[0]) continue;
    char *colon = strchr(item, ':');
    int c = colon ? (*colon = '\0', cs_coll_by_name(item)) : -1;
    if (c < 0) {
      snprintf(err, len,
               "COLLSIM_INNER item '%s%s%s' is not COLLECTIVE:ALGORITHM with a known collective "
               "(e.g. allreduce:circulant,reduce_scatter:pairring)",
               item, colon ? ":" : "", colon ? colon + 1 : "");
      return -1;
    }
    if (c != (int)coll) continue;
    const cs_algo_info *r = cs_algo_find(coll, colon + 1);
    if (!r || (r->flags & CS_NODE_AWARE) || strchr(colon + 1, ':')) {
      size_t n = (size_t)snprintf(err, len,
                                  "COLLSIM_INNER: %s has no algorithm '%s' that can run inside a "
                                  "decomposition (valid: ",
                                  item, colon + 1);
      int first = 1;
      for (int i = 0; i < cs_nalgos && n < len; i++)
        if (cs_algos[i].coll == coll && !(cs_algos[i].flags & CS_NODE_AWARE)) {
          n += (size_t)snprintf(err + n, len - n, "%s%s", first ? "" : ", ", cs_algos[i].name);
          first = 0;
        }
      if (n < len) snprintf(err + n, len - n, ")");
      return -1;
    }
    *row = r;
  }
  return 0;
}

int cs_inner_usable(const cs_algo_info *r, MPI_Op op, MPI_Datatype dt, char *err, size_t len) {
  int commute = 1;
  if ((r->flags & CS_COMMUTATIVE) && op != MPI_OP_NULL) MPI_Op_commutative(op, &commute);
  if (!commute) {
    snprintf(err, len, "the inner algorithm %s/%s needs a commutative op", cs_colls[r->coll].name,
             r->name);
    return -1;
  }
  if ((r->flags & CS_ASSOCIATIVE) && op != MPI_OP_NULL && !cs_op_exact(op, dt)) {
    char why[256];
    cs_op_inexact_why(op, dt, why, sizeof why);
    snprintf(err, len, "the inner algorithm %s/%s needs an exact op: %s", cs_colls[r->coll].name,
             r->name, why);
    return -1;
  }
  return 0;
}

/* Appends to err (of len bytes) what may stand where a part's algorithm of
 * coll stands. */
static void valid_algos(char *err, size_t len, cs_coll coll) {
  size_t n = strlen(err);
  int first = 1;
  for (int i = 0; i < cs_nalgos && n < len; i++)
    if (cs_algos[i].coll == coll && composable(&cs_algos[i])) {
      n += (size_t)snprintf(err + n, len - n, "%s%s", first ? "" : ", ", cs_algos[i].name);
      first = 0;
    }
  if (n < len) snprintf(err + n, len - n, ")");
}

static const char valid_colls[] =
    "reduce_scatter, scatterv, allgatherv, gatherv (split and join the current range), "
    "allreduce, reduce, bcast (the whole range)";

/* Parses a's parts into out (at most MAX_PARTS). Returns their number, or -1
 * with a sentence in err. */
static int parse(const cs_algo_info *a, part *out, char *err, size_t len) {
  int n = 0;
  for (const char *s = a->parts;;) {
    while (*s == ' ') s++;
    size_t w = strcspn(s, " ");
    if (w == 0) break;
    if (n == MAX_PARTS) {
      snprintf(err, len, "more than %d parts", MAX_PARTS);
      return -1;
    }
    part *p = &out[n];
    if (w >= sizeof p->word) {
      snprintf(err, len, "part '%.*s' is too long", (int)w, s);
      return -1;
    }
    snprintf(p->word, sizeof p->word, "%.*s", (int)w, s);
    s += w;
    char word[64];
    snprintf(word, sizeof word, "%s", p->word);
    char *at = strchr(word, '@'), *colon = strchr(word, ':');
    p->on = ON_COMM;
    if (at) {
      *at = '\0';
      for (p->on = 0; p->on < ON_N && strcmp(at + 1, on_names[p->on]); p->on++) continue;
      if (p->on == ON_N) {
        snprintf(err, len,
                 "part '%s': unknown communicator '%s' (valid: comm, node, lane, leaders)", p->word,
                 at + 1);
        return -1;
      }
    }
    if (!colon || colon > (at ? at : word + strlen(word))) {
      snprintf(err, len, "part '%s' is not COLLECTIVE:ALGORITHM[@COMMUNICATOR]", p->word);
      return -1;
    }
    *colon = '\0';
    const char *algo = colon + 1;
    int c = cs_coll_by_name(word);
    if (c < 0 || kind_of(c) < 0) {
      snprintf(err, len, "part '%s': '%s' is not a collective a part can be (valid: %s)", p->word,
               word, valid_colls);
      return -1;
    }
    p->kind = kind_of(c);
    if (strchr(algo, ':')) {
      snprintf(err, len,
               "part '%s': SMPI's algorithm is one setting per run and cannot be chosen per "
               "part (use native)",
               p->word);
      return -1;
    }
    p->inner = !strcmp(algo, "inner");
    p->row = cs_algo_find((cs_coll)c, p->inner ? "native" : algo);
    if (!composable(p->row)) {
      snprintf(err, len, "part '%s': %s has no algorithm '%s' (valid: inner, ", p->word, word,
               algo);
      valid_algos(err, len, (cs_coll)c);
      return -1;
    }
    if (p->row == a) {
      snprintf(err, len, "part '%s' is the row itself", p->word);
      return -1;
    }
    n++;
  }
  if (n == 0) snprintf(err, len, "no parts");
  return n ? n : -1;
}

/* The rules of the header that do not depend on the call: 0, or -1 with a
 * sentence in err. */
static int check_row(const cs_algo_info *a, const part *pt, int n, char *err, size_t len) {
  const char *cn = cs_colls[a->coll].name;
  if (a->coll != CS_allreduce && a->coll != CS_reduce && a->coll != CS_bcast) {
    snprintf(err, len,
             "there is no composition engine for %s rows (valid: allreduce, reduce, bcast)", cn);
    return -1;
  }
  if (a->flags & CS_NATIVE) {
    snprintf(err, len, "a composition is not the library's own (CS_NATIVE)");
    return -1;
  }
  int open[MAX_PARTS], depth = 0, needs_ctx = 0, inner = 0;
  for (int i = 0; i < n; i++) {
    const part *p = &pt[i];
    inner |= p->inner;
    needs_ctx |= p->on != ON_COMM || (p->row->flags & CS_NODE_AWARE);
    if (p->on != ON_COMM && (p->row->flags & CS_NODE_AWARE)) {
      snprintf(err, len,
               "part '%s' reads a kernel context: it may run on comm only (drivers prepare the "
               "context of the call's communicator, not of its node or lane communicators)",
               p->word);
      return -1;
    }
    if (p->on == ON_LEADERS && p->kind != WHOLE) {
      snprintf(err, len,
               "part '%s': splits and joins on leaders are not supported (the other processes "
               "of each node would keep a range of their own); use allreduce, reduce or bcast",
               p->word);
      return -1;
    }
    unsigned need = p->row->flags & (CS_COMMUTATIVE | CS_ASSOCIATIVE);
    if ((a->flags & need) != need) {
      snprintf(err, len, "part '%s' needs %s: the row must carry %s too", p->word,
               need & CS_ASSOCIATIVE ? "an exact commutative op" : "a commutative op",
               need & CS_ASSOCIATIVE ? "CS_COMMUTATIVE | CS_ASSOCIATIVE" : "CS_COMMUTATIVE");
      return -1;
    }
    if (p->kind == SPLIT) open[depth++] = i;
    if (p->kind == JOIN) {
      if (depth == 0) {
        snprintf(err, len, "part '%s' joins a split that no part before it made", p->word);
        return -1;
      }
      const part *s = &pt[open[--depth]];
      if (s->on != p->on) {
        snprintf(err, len, "part '%s' joins the split of '%s', which was made on %s", p->word,
                 s->word, on_names[s->on]);
        return -1;
      }
    }
  }
  if (depth) {
    snprintf(err, len,
             "the split of part '%s' is never joined (add an allgatherv or gatherv on %s)",
             pt[open[depth - 1]].word, on_names[pt[open[depth - 1]].on]);
    return -1;
  }
  if (needs_ctx && !(a->flags & CS_NODE_AWARE)) {
    snprintf(err, len,
             "its parts run on node, lane or leaders communicators (or read a context), so the "
             "row must be CS_NODE_AWARE");
    return -1;
  }
  if (!needs_ctx && (a->flags & CS_NODE_AWARE)) {
    snprintf(err, len,
             "the row is CS_NODE_AWARE but every part runs on comm: it would build a context "
             "for nothing");
    return -1;
  }
  if (inner != !!(a->flags & CS_INNER)) {
    snprintf(err, len,
             inner ? "it has an `inner` part, so the row must carry CS_INNER"
                   : "the row carries CS_INNER but no part is `inner`");
    return -1;
  }
  return 0;
}

int cs_compose_check(const cs_algo_info *a, char *err, size_t len) {
  part pt[MAX_PARTS];
  err[0] = '\0';
  int n = parse(a, pt, err, len);
  return n < 0 || check_row(a, pt, n, err, len) ? -1 : 0;
}

int cs_compose_verify(FILE *f) {
  int bad = 0;
  for (int i = 0; i < cs_nalgos; i++) {
    const cs_algo_info *a = &cs_algos[i];
    char err[512];
    if (!a->parts[0] || cs_compose_check(a, err, sizeof err) == 0) continue;
    if (f) fprintf(f, "collsim: registry row %s/%s: %s\n", cs_colls[a->coll].name, a->name, err);
    bad++;
  }
  return bad;
}

/* ---- the engine -------------------------------------------------------------- */

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

/* One call's state: where the vector is and which range of it is current. */
typedef struct {
  const cs_args *x;
  const cs_ctx *ctx;
  MPI_Comm comm[ON_N];
  int root; /* rooted parts on comm: the call's root in a rooted row, else 0 */
  /* The root's local rank and node (0 and 0 in a row that is not rooted):
   * the roots of parts on node and on lane or leaders, and leaders = the
   * lane of the root's local rank. */
  int rooted, rootlocal, rootnode, on_rootnode;
  MPI_Aint ext;
  char *work;      /* the vector being computed (recvbuf; a temporary at non-roots) */
  const char *src; /* where the current range's data lies: work, or the call's sendbuf */
  long off, n;     /* the current range, in elements */
  cs_tmp tmp;      /* work at a non-root of a reduce row, made on first use */
  struct {
    cs_layout l;
    long off, n;
  } split[MAX_PARTS];
  int depth;
} state;

static int need_work(state *s) {
  if (s->work) return MPI_SUCCESS;
  CS_CHECK(cs_tmp_alloc(&s->tmp, s->x->count, s->x->dt));
  s->work = s->tmp.buf;
  if (!s->src) s->src = s->work;
  return MPI_SUCCESS;
}

static char *at(const state *s, const char *base, long elements) {
  return (char *)base + elements * s->ext;
}

/* The part's communicator's root and this process's rank on it. */
static int root_of(const state *s, const part *p) {
  return p->on == ON_COMM ? s->root : p->on == ON_NODE ? s->rootlocal : s->rootnode;
}

/* The row of part p for this call (an `inner` part: COLLSIM_INNER's). */
static const cs_algo_info *row_of(const part *p) {
  const cs_algo_info *r = p->row;
  char err[8];
  if (p->inner && cs_inner_row(p->row->coll, &r, err, sizeof err)) r = p->row;
  return r;
}

/* Counts and displacements of layout l (for rows without a piece). */
static int layout_arrays(const cs_layout *l, int size, int **counts, int **displs) {
  *counts = malloc(sizeof(int) * 2 * (size_t)(size > 0 ? size : 1));
  if (!*counts) return MPI_ERR_NO_MEM;
  *displs = *counts + size;
  for (int i = 0; i < size; i++) {
    (*counts)[i] = (int)cs_lcount(l, i);
    (*displs)[i] = (int)cs_ldispl(l, i);
  }
  return MPI_SUCCESS;
}

/* A split or join part of a row without a piece, through the dispatcher:
 * the even layout l of the range at work + off, in place. */
static int split_join_run(state *s, const cs_algo_info *row, const part *p, const cs_layout *l,
                          MPI_Comm c, int size, int r) {
  const cs_args *x = s->x;
  int *counts, *displs;
  CS_CHECK(layout_arrays(l, size, &counts, &displs));
  cs_args y = *x;
  y.comm = c;
  y.ctx = NULL;
  y.counts = counts;
  y.displs = displs;
  y.sendtype = y.recvtype = x->dt;
  y.root = root_of(s, p);
  char *range = at(s, s->work, s->off), *own = range + cs_ldispl(l, r) * s->ext;
  long own_n = cs_lcount(l, r);
  y.sendcount = y.recvcount = (int)own_n;
  int rc = MPI_SUCCESS;
  cs_tmp t = {0};
  switch (row->coll) {
  case CS_reduce_scatter:
    /* MPI's in-place reduce_scatter leaves the block at the start of the
     * buffer, not at its place: reduce into a temporary block then. */
    if (s->src == s->work) {
      rc = cs_tmp_alloc(&t, own_n, x->dt);
      y.recvbuf = t.buf;
    } else {
      y.recvbuf = own;
    }
    y.sendbuf = at(s, s->src, s->off);
    if (rc == MPI_SUCCESS) rc = cs_run(row, &y);
    if (rc == MPI_SUCCESS && t.buf) rc = cs_copy(t.buf, own_n, x->dt, own, own_n, x->dt);
    cs_tmp_free(&t);
    break;
  case CS_scatterv:
    y.sendbuf = range;
    y.recvbuf = r == y.root ? MPI_IN_PLACE : own;
    rc = cs_run(row, &y);
    break;
  case CS_allgatherv:
    y.sendbuf = MPI_IN_PLACE;
    y.recvbuf = range;
    rc = cs_run(row, &y);
    break;
  default: /* gatherv */
    y.sendbuf = r == y.root ? MPI_IN_PLACE : own;
    y.recvbuf = range;
    rc = cs_run(row, &y);
    break;
  }
  free(counts);
  return rc;
}

/* reduce_scatter directly followed by its gatherv: the own block goes to
 * the gather without a copy (see the header). */
static int split_to_root(state *s, const part *rs, const part *gv, MPI_Comm c, int size, int r) {
  const cs_args *x = s->x;
  const cs_ctx *pctx = rs->on == ON_COMM ? s->ctx : NULL;
  cs_piece_rs_fn rsf = pieces[rs->row->index].rs;
  cs_piece_gv_fn gvf = pieces[gv->row->index].gv;
  cs_layout l = cs_layout_even(size, s->n);
  int R = root_of(s, gv), inplace = s->src && s->src == s->work;
  const char *in = at(s, s->src, s->off);
  long own_n = cs_lcount(&l, r);
  char *dst = s->work ? at(s, s->work, s->off) : NULL;
  int tsize, rc;
  MPI_Type_size(x->dt, &tsize);
  if (r == R && !inplace) {
    rc = rsf(in, dst + cs_ldispl(&l, r) * s->ext, &l, x->dt, x->op, c, 0, pctx);
    if (rc == MPI_SUCCESS) rc = gvf(MPI_IN_PLACE, 0, x->dt, dst, &l, x->dt, R, c, NULL, pctx);
  } else if (r != R && cs_type_contiguous(x->dt)) {
    char *packed = malloc((size_t)(own_n * tsize) + 1);
    if (!packed) return MPI_ERR_NO_MEM;
    rc = rsf(in, packed, &l, x->dt, x->op, c, 0, pctx);
    if (rc != MPI_SUCCESS) {
      free(packed);
      return rc;
    }
    /* The gather piece owns (and frees) packed from here on. */
    rc = gvf(packed, (int)own_n, x->dt, dst, &l, x->dt, R, c, packed, pctx);
  } else {
    cs_tmp own = {0};
    rc = cs_tmp_alloc(&own, own_n, x->dt);
    if (rc == MPI_SUCCESS) rc = rsf(in, own.buf, &l, x->dt, x->op, c, 0, pctx);
    if (rc == MPI_SUCCESS) rc = gvf(own.buf, (int)own_n, x->dt, dst, &l, x->dt, R, c, NULL, pctx);
    cs_tmp_free(&own);
  }
  s->src = s->work;
  return rc;
}

static int run_part(state *s, const part *pt, int i, int n, int *used) {
  const part *p = &pt[i];
  const cs_args *x = s->x;
  const cs_ctx *pctx = p->on == ON_COMM ? s->ctx : NULL;
  const cs_algo_info *row = row_of(p);
  MPI_Comm c = s->comm[p->on];
  *used = 1;
  if (c == MPI_COMM_NULL) return MPI_SUCCESS; /* leaders: not one of them */
  int size, r;
  MPI_Comm_size(c, &size);
  MPI_Comm_rank(c, &r);
  const piece *pc = &pieces[row->index];
  /* In a rooted row, a scatterv or gatherv on node serves the root's node
   * only: the other nodes take or leave their ranges without a message. */
  int skip = s->rooted && p->on == ON_NODE && !s->on_rootnode &&
             (row->coll == CS_scatterv || row->coll == CS_gatherv);
  if (p->kind == SPLIT && i + 1 < n && pt[i + 1].kind == JOIN && row->coll == CS_reduce_scatter &&
      pc->rs && row_of(&pt[i + 1])->coll == CS_gatherv && pieces[row_of(&pt[i + 1])->index].gv &&
      pt[i + 1].on == p->on && p->on == ON_COMM && !p->inner && !pt[i + 1].inner) {
    *used = 2;
    return split_to_root(s, p, &pt[i + 1], c, size, r);
  }
  CS_CHECK(need_work(s));
  if (p->kind == SPLIT) {
    cs_layout l = cs_layout_even(size, s->n);
    int inplace = s->src == s->work;
    char *own = at(s, s->work, s->off + cs_ldispl(&l, r));
    if (skip)
      ;
    else if (row->coll == CS_reduce_scatter && pc->rs)
      CS_CHECK(pc->rs(at(s, s->src, s->off), own, &l, x->dt, x->op, c, inplace, pctx));
    else
      CS_CHECK(split_join_run(s, row, p, &l, c, size, r));
    s->split[s->depth].l = l;
    s->split[s->depth].off = s->off;
    s->split[s->depth++].n = s->n;
    s->off += cs_ldispl(&l, r);
    s->n = cs_lcount(&l, r);
    s->src = s->work;
    return MPI_SUCCESS;
  }
  if (p->kind == JOIN) {
    s->depth--;
    cs_layout l = s->split[s->depth].l;
    s->off = s->split[s->depth].off;
    s->n = s->split[s->depth].n;
    char *range = at(s, s->work, s->off);
    if (skip) return MPI_SUCCESS;
    if (row->coll == CS_allgatherv && pc->ag)
      return pc->ag(MPI_IN_PLACE, 0, x->dt, range, &l, x->dt, c, pctx);
    if (row->coll == CS_gatherv && pc->gv) {
      int R = root_of(s, p);
      if (r == R) return pc->gv(MPI_IN_PLACE, 0, x->dt, range, &l, x->dt, R, c, NULL, pctx);
      return pc->gv(range + cs_ldispl(&l, r) * s->ext, (int)cs_lcount(&l, r), x->dt, range, &l,
                    x->dt, R, c, NULL, pctx);
    }
    return split_join_run(s, row, p, &l, c, size, r);
  }
  /* A whole-range collective, through the dispatcher; an empty range (a
   * lane's block of a count below the node's size) has nothing to do, and
   * every process of the part's communicator has the same range. */
  if (s->n == 0) {
    s->src = s->work;
    return MPI_SUCCESS;
  }
  cs_args y = *x;
  y.comm = c;
  y.ctx = row->flags & CS_NODE_AWARE ? s->ctx : NULL;
  y.count = y.sendcount = y.recvcount = (int)s->n;
  y.counts = y.displs = NULL;
  y.root = root_of(s, p);
  char *range = at(s, s->work, s->off);
  if (row->coll == CS_bcast) {
    if (r == y.root && s->src != s->work)
      CS_CHECK(cs_copy(at(s, s->src, s->off), s->n, x->dt, range, s->n, x->dt));
    y.sendbuf = y.recvbuf = range;
  } else {
    int mine = row->coll == CS_allreduce || r == y.root;
    y.sendbuf = mine && s->src == s->work ? MPI_IN_PLACE : at(s, s->src, s->off);
    y.recvbuf = mine ? range : NULL;
  }
  s->src = s->work;
  return cs_run(row, &y);
}

/* A row's parts, parsed and checked once per process: every process of every
 * call reads the same registry string (the recording MPI of the models runs
 * thousands of processes per call, and the parse was a tenth of a map's
 * time). Rows that fail are parsed again each time, for the message.
 * Processes of one SMPI simulation may run as threads, one at a time (or in
 * parallel): a row is published complete, with a release store. */
static int parts_of(const cs_algo_info *a, part *pt, char *err, size_t len) {
  static struct {
    int ready, n;
    part pt[MAX_PARTS];
  } cache[CS_NALGO];
  int i = a->index;
  if (i >= 0 && i < CS_NALGO && __atomic_load_n(&cache[i].ready, __ATOMIC_ACQUIRE)) {
    memcpy(pt, cache[i].pt, sizeof(part) * (size_t)cache[i].n);
    return cache[i].n;
  }
  int n = parse(a, pt, err, len);
  if (n < 0 || check_row(a, pt, n, err, len)) return -1;
  if (i >= 0 && i < CS_NALGO && !__atomic_load_n(&cache[i].ready, __ATOMIC_ACQUIRE)) {
    int expected = 0;
    static int busy;
    if (__atomic_compare_exchange_n(&busy, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
      memcpy(cache[i].pt, pt, sizeof(part) * (size_t)n);
      cache[i].n = n;
      __atomic_store_n(&cache[i].ready, 1, __ATOMIC_RELEASE);
      __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
    }
  }
  return n;
}

static int ctx_needs(const cs_algo_info *a, int depth) {
  if (!a || !(a->flags & CS_NODE_AWARE)) return 0;
  if (!a->parts[0]) return a->flags & CS_NODES_ONLY ? CS_CTX_NODES : CS_CTX_NODES | CS_CTX_LANES;
  part pt[MAX_PARTS];
  char err[512];
  int n = parts_of(a, pt, err, sizeof err);
  if (n < 0) return CS_CTX_NODES | CS_CTX_LANES; /* refused at the call; nothing to save */
  static const int of_on[ON_N] = {0, CS_CTX_NODES, CS_CTX_LANES, CS_CTX_LEADERS};
  int need = 0;
  for (int i = 0; i < n; i++) {
    need |= of_on[pt[i].on];
    /* a part on comm that reads the context: what its row needs (parts on
     * node, lane or leaders read none, check_row) */
    const cs_algo_info *r = pt[i].row;
    if (pt[i].inner && cs_inner_row(r->coll, &r, err, sizeof err)) r = NULL;
    if (pt[i].on == ON_COMM && r && r != a)
      need |= depth < MAX_PARTS ? ctx_needs(r, depth + 1) : CS_CTX_NODES | CS_CTX_LANES;
  }
  return need & CS_CTX_LANES ? need & ~CS_CTX_LEADERS : need;
}

int cs_row_ctx_needs(const cs_algo_info *a) { return ctx_needs(a, 0); }

int cs_compose_run(const cs_algo_info *a, const cs_args *x, const cs_ctx *ctx) {
  part pt[MAX_PARTS];
  char err[512] = "";
  int n = parts_of(a, pt, err, sizeof err);
  if (n < 0) return refuse(a, x->comm, err);
  state s;
  memset(&s, 0, sizeof s);
  s.x = x;
  s.ctx = ctx;
  s.ext = cs_extent(x->dt);
  s.n = x->count;
  s.rooted = cs_colls[a->coll].rooted;
  s.root = s.rooted ? x->root : 0;
  /* Every inner algorithm of the call, before anything is sent. */
  for (int i = 0; i < n; i++) {
    const cs_algo_info *r;
    if (!pt[i].inner) continue;
    if (cs_inner_row(pt[i].row->coll, &r, err, sizeof err)) return refuse(a, x->comm, err);
    if (cs_inner_usable(r, cs_colls[a->coll].reduces ? x->op : MPI_OP_NULL, x->dt, err,
                        sizeof err)) {
      refuse(a, x->comm, err);
      return MPI_ERR_OP;
    }
  }
  /* No element: nothing to combine or send (count is the same on every
   * process of these collectives, so all return here). This also keeps
   * inner library collectives from count-0 calls, which SMPI 3.32's
   * MPI_Allreduce dies of (SIGFPE) with a derived datatype at 16 <= p < 64
   * (docs/correctness.md). */
  if (x->count == 0) return MPI_SUCCESS;
  int uses[ON_N] = {0};
  for (int i = 0; i < n; i++) uses[pt[i].on] = 1;
  s.comm[ON_COMM] = x->comm;
  s.comm[ON_NODE] = s.comm[ON_LANE] = s.comm[ON_LEADERS] = MPI_COMM_NULL;
  if ((uses[ON_NODE] || uses[ON_LANE] || uses[ON_LEADERS]) && !ctx)
    return refuse(a, x->comm, "its parts need the kernel context, and none was given");
  /* All are made collectively on first use: every process asks. A row on
   * leaders but not on lane asks for the leaders' lane only (made by its
   * members: ppn times fewer lane members under SMPI, ctx.h). */
  if (uses[ON_NODE]) CS_CHECK(cs_ctx_nodecomm(ctx, &s.comm[ON_NODE]));
  if (uses[ON_LANE]) CS_CHECK(cs_ctx_lanecomm(ctx, &s.comm[ON_LANE]));
  if (uses[ON_LEADERS] && !uses[ON_LANE])
    CS_CHECK(cs_ctx_leaderscomm(ctx, s.root, &s.comm[ON_LEADERS]));
  if (ctx) {
    /* The root's place: regular nodes hold consecutive ranks; otherwise
     * every process is a node of its own (ctx.h). */
    s.rootlocal = ctx->regular ? s.root % ctx->ppn : 0;
    s.rootnode = ctx->regular ? s.root / ctx->ppn : s.root;
    s.on_rootnode = ctx->node == s.rootnode;
  }
  if (uses[ON_LEADERS] && uses[ON_LANE] && ctx->local == s.rootlocal)
    s.comm[ON_LEADERS] = s.comm[ON_LANE];
  int r;
  MPI_Comm_rank(x->comm, &r);
  int inplace = x->sendbuf == MPI_IN_PLACE;
  if (a->coll == CS_bcast) {
    s.work = x->recvbuf;
    s.src = s.work;
  } else if (a->coll == CS_allreduce || r == s.root) {
    s.work = x->recvbuf;
    s.src = inplace ? x->recvbuf : x->sendbuf;
  } else {
    s.src = x->sendbuf; /* a non-root of a reduce row: work is made if a part needs it */
  }
  int rc = MPI_SUCCESS;
  for (int i = 0, used = 1; i < n && rc == MPI_SUCCESS; i += used)
    rc = run_part(&s, pt, i, n, &used);
  cs_tmp_free(&s.tmp);
  return rc;
}
