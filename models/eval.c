/* The evaluator of the models: prices the per-process programs that the
 * recording MPI writes while a kernel runs (record.h, record.c) under an ABG,
 * max-rate or k-lane cost model. See model.h for the semantics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"
#include "sizes.h"
#include "topo.h"

cs_model cs_model_abg(double alpha, double beta, double gamma) {
  cs_model m;
  memset(&m, 0, sizeof m);
  m.kind = CS_MODEL_ABG;
  m.alpha = alpha;
  m.beta = beta;
  m.gamma = gamma;
  m.envelope = CS_SMPI_ENVELOPE;
  m.ppn = 1;
  m.lanes = 1;
  return m;
}

/* ---- cases ------------------------------------------------------------ */

int cs_model_has(cs_coll coll, const char *algo) {
  const cs_algo_info *a = cs_algo_find(coll, algo);
  return a && !(a->flags & CS_NATIVE);
}

/* ---- programs ------------------------------------------------------------ */

static void prog_free(cs_prog *g) {
  if (g->ops)
    for (int r = 0; r < g->p; r++) free(g->ops[r]);
  free(g->ops);
  free(g->n);
  free(g->cap);
}

/* ---- the evaluator ------------------------------------------------------- */

typedef struct {
  const cs_model *mo;
  const cs_prog *g;
  int *pc, *posted, *step, *stack;
  double *t, *post_t, *s_end, *r_end;
  int nstack, stackcap;
  /* max-rate / lanes: off-node senders and receivers per (node, lane, step) */
  int *nsend, *nrecv, nsteps, nlanes;
  int mismatch;
} engine;

static int is_comm(const cs_mop *o) { return o->to >= 0 || o->from >= 0; }

/* Local work of its kind: a copy by the copy segments if the model has them,
 * otherwise (and every reduction) as algos/local.c charges a reduction. */
static double local_time(const cs_model *mo, const cs_mop *o) {
  const cs_pw *pw = o->work == CS_WORK_COPY && mo->copy.n > 0 ? &mo->copy : &mo->local;
  return pw->n > 0 ? cs_pw_eval(pw, o->local) : mo->gamma * o->local;
}

/* Placement from the one topology module (algos/topo.h): ABG has one rank
 * per node; LANES spreads the local ranks of a node over its lanes. */
static int node_of(const cs_model *mo, int r) {
  return mo->kind == CS_MODEL_ABG ? r : cs_topo_node_of(r, mo->ppn);
}
static int lane_of(const cs_model *mo, int r) {
  return mo->kind == CS_MODEL_LANES && mo->lanes > 1 ? cs_topo_lane_of(r, mo->ppn, mo->lanes) : 0;
}

static double msg_time(engine *e, int i, int j, double b, int si, int sj) {
  const cs_model *mo = e->mo;
  double bytes = b + mo->envelope;
  if (mo->kind == CS_MODEL_ABG)
    return mo->net.n > 0 ? cs_pw_eval(&mo->net, b) : mo->alpha + mo->beta * bytes;
  int ni = node_of(mo, i), nj = node_of(mo, j), li = lane_of(mo, i), lj = lane_of(mo, j);
  if (ni == nj) {
    double bl = mo->beta_l;
    if (li != lj && mo->Rx > 0 && 1.0 / mo->Rx > bl) bl = 1.0 / mo->Rx;
    return mo->alpha_l + bl * bytes;
  }
  int a = e->nsend[((size_t)ni * e->nlanes + li) * e->nsteps + si];
  int c = e->nrecv[((size_t)nj * e->nlanes + lj) * e->nsteps + sj];
  int n = a > c ? a : c;
  if (n < 1) n = 1;
  double rate = mo->RN < n * mo->Rb ? mo->RN : n * mo->Rb;
  return mo->alpha + bytes * n / rate;
}

static void epush(engine *e, int r) {
  if (e->nstack == e->stackcap) {
    int cap = e->stackcap * 2;
    int *n = realloc(e->stack, sizeof(int) * (size_t)cap);
    if (!n) return; /* cannot happen in practice: see the bound in run() */
    e->stack = n;
    e->stackcap = cap;
  }
  e->stack[e->nstack++] = r;
}

/* The message from i (current op) to j (current op) is matched. */
static void match(engine *e, int i, int j) {
  const cs_mop *si = &e->g->ops[i][e->pc[i]], *rj = &e->g->ops[j][e->pc[j]];
  if (si->sb != rj->rb) e->mismatch = 1;
  double start = e->post_t[i] > e->post_t[j] ? e->post_t[i] : e->post_t[j];
  double end = start + msg_time(e, i, j, si->sb, e->step[i], e->step[j]);
  e->s_end[i] = end;
  e->r_end[j] = end;
  epush(e, i);
  epush(e, j);
}

static void advance(engine *e, int r) {
  const cs_prog *g = e->g;
  while (e->pc[r] < g->n[r]) {
    const cs_mop *o = &g->ops[r][e->pc[r]];
    if (!e->posted[r]) {
      if (!is_comm(o)) {
        e->t[r] += local_time(e->mo, o);
        e->pc[r]++;
        continue;
      }
      e->posted[r] = 1;
      e->post_t[r] = e->t[r];
      e->s_end[r] = o->to < 0 ? e->t[r] : -1;
      e->r_end[r] = o->from < 0 ? e->t[r] : -1;
      if (o->to >= 0) {
        int j = o->to;
        if (e->posted[j] && g->ops[j][e->pc[j]].from == r && e->r_end[j] < 0) match(e, r, j);
      }
      if (o->from >= 0) {
        int k = o->from;
        if (e->posted[k] && g->ops[k][e->pc[k]].to == r && e->s_end[k] < 0) match(e, k, r);
      }
    }
    if (e->s_end[r] < 0 || e->r_end[r] < 0) return;
    e->t[r] = e->s_end[r] > e->r_end[r] ? e->s_end[r] : e->r_end[r];
    e->posted[r] = 0;
    e->pc[r]++;
    e->step[r]++;
  }
}

static int run(const cs_model *mo, const cs_prog *g, cs_model_stats *st, char *err, size_t errlen) {
  int p = g->p;
  engine e;
  memset(&e, 0, sizeof e);
  e.mo = mo;
  e.g = g;
  e.pc = calloc((size_t)p, sizeof(int));
  e.posted = calloc((size_t)p, sizeof(int));
  e.step = calloc((size_t)p, sizeof(int));
  e.t = calloc((size_t)p, sizeof(double));
  e.post_t = calloc((size_t)p, sizeof(double));
  e.s_end = calloc((size_t)p, sizeof(double));
  e.r_end = calloc((size_t)p, sizeof(double));
  e.stackcap = 2 * p + 16;
  e.stack = malloc(sizeof(int) * (size_t)e.stackcap);
  int rc = 0;
  if (!e.pc || !e.posted || !e.step || !e.t || !e.post_t || !e.s_end || !e.r_end || !e.stack) {
    snprintf(err, errlen, "model: out of memory for p = %d", p);
    rc = -1;
    goto out;
  }
  memset(st, 0, sizeof *st);
  for (int r = 0; r < p; r++) {
    int s = 0;
    for (int i = 0; i < g->n[r]; i++) {
      const cs_mop *o = &g->ops[r][i];
      if (is_comm(o)) s++;
      if (o->to >= 0) {
        st->messages++;
        st->sent += o->sb;
      }
      st->local += o->local;
    }
    if (s > st->rounds) st->rounds = s;
  }
  if (mo->kind != CS_MODEL_ABG) {
    int nodes = (p + mo->ppn - 1) / mo->ppn;
    e.nlanes = mo->kind == CS_MODEL_LANES && mo->lanes > 1 ? mo->lanes : 1;
    e.nsteps = st->rounds + 1;
    size_t cells = (size_t)nodes * e.nlanes * e.nsteps;
    e.nsend = calloc(cells, sizeof(int));
    e.nrecv = calloc(cells, sizeof(int));
    if (!e.nsend || !e.nrecv) {
      snprintf(err, errlen, "model: out of memory for p = %d", p);
      rc = -1;
      goto out;
    }
    for (int r = 0; r < p; r++)
      for (int i = 0, s = 0; i < g->n[r]; i++) {
        const cs_mop *o = &g->ops[r][i];
        if (!is_comm(o)) continue;
        size_t cell = ((size_t)node_of(mo, r) * e.nlanes + lane_of(mo, r)) * e.nsteps + s;
        if (o->to >= 0 && node_of(mo, o->to) != node_of(mo, r)) e.nsend[cell]++;
        if (o->from >= 0 && node_of(mo, o->from) != node_of(mo, r)) e.nrecv[cell]++;
        s++;
      }
  }
  for (int r = 0; r < p; r++) {
    advance(&e, r);
    while (e.nstack > 0) advance(&e, e.stack[--e.nstack]);
  }
  for (int r = 0; r < p; r++) {
    if (e.pc[r] < g->n[r]) {
      snprintf(err, errlen,
               "model: the recorded programs deadlock at rank %d, step %d (a bug in models/)", r,
               e.pc[r]);
      rc = -1;
      goto out;
    }
    if (e.t[r] > st->time) st->time = e.t[r];
  }
  if (e.mismatch) {
    snprintf(err, errlen, "model: a send and its receive differ in size (a bug in models/)");
    rc = -1;
  }
out:
  free(e.pc);
  free(e.posted);
  free(e.step);
  free(e.t);
  free(e.post_t);
  free(e.s_end);
  free(e.r_end);
  free(e.stack);
  free(e.nsend);
  free(e.nrecv);
  return rc;
}

int cs_model_eval(const cs_model *mo, const cs_case *c, cs_model_stats *st, char *err,
                  size_t errlen) {
  if (!cs_model_has(c->coll, c->algo)) {
    snprintf(err, errlen, "no model of %s algorithm '%s' (native algorithms have none)",
             cs_colls[c->coll].name, c->algo);
    return -1;
  }
  if (c->p < 1 || c->bytes < 0) {
    snprintf(err, errlen, "model: need p >= 1 and bytes >= 0 (got p = %d, bytes = %ld)", c->p,
             c->bytes);
    return -1;
  }
  if (cs_colls[c->coll].rooted && (c->root < 0 || c->root >= c->p)) {
    snprintf(err, errlen, "model: root %d out of range 0..%d", c->root, c->p - 1);
    return -1;
  }
  if (mo->kind != CS_MODEL_ABG && mo->ppn < 1) {
    snprintf(err, errlen, "model: ppn must be >= 1");
    return -1;
  }
  /* The last recording is kept: pricing one case under several models
   * (tests, sweeps over parameters) runs the kernel once per host layout. */
  static struct {
    cs_case c;
    char algo[64];
    int ppn, valid;
    cs_prog g;
  } last;
  int ppn = mo->kind == CS_MODEL_ABG ? 0 : mo->ppn;
  if (last.valid && last.c.coll == c->coll && !strcmp(last.algo, c->algo) && last.c.p == c->p &&
      last.c.bytes == c->bytes && last.c.root == c->root && last.c.inplace == c->inplace &&
      last.ppn == ppn)
    return run(mo, &last.g, st, err, errlen);
  if (last.valid) prog_free(&last.g);
  last.valid = 0;
  int p = c->p;
  cs_prog g = {p, calloc((size_t)p, sizeof(cs_mop *)), calloc((size_t)p, sizeof(int)),
               calloc((size_t)p, sizeof(int)), 0};
  if (!g.ops || !g.n || !g.cap) {
    snprintf(err, errlen, "model: out of memory for p = %d", p);
    prog_free(&g);
    return -1;
  }
  /* The kernel itself, run under the recording MPI, writes the programs. */
  if (cs_record_case(c, ppn, &g, err, errlen)) {
    prog_free(&g);
    return -1;
  }
  last.c = *c;
  snprintf(last.algo, sizeof last.algo, "%s", c->algo);
  last.ppn = ppn;
  last.g = g;
  last.valid = strlen(c->algo) < sizeof last.algo;
  int rc = run(mo, &g, st, err, errlen);
  if (!last.valid) prog_free(&g);
  return rc;
}

int cs_model_time(const cs_model *mo, const cs_case *c, double *t, char *err, size_t errlen) {
  cs_model_stats st;
  int rc = cs_model_eval(mo, c, &st, err, errlen);
  if (rc == 0) *t = st.time;
  return rc;
}
