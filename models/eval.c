/* The evaluator of the models: prices the per-process programs that the
 * recording MPI writes while a kernel runs (record.h, record.c) under an ABG,
 * max-rate or k-lane cost model. See model.h for the semantics. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpirec/mpirec.h"
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
  m.f_alpha = 1;
  m.f_beta = 1;
  return m;
}

/* ---- cases ------------------------------------------------------------ */

int cs_model_has(cs_coll coll, const char *algo) {
  const cs_algo_info *a = cs_algo_find(coll, algo);
  return a && !(a->flags & CS_NATIVE);
}

/* ---- the evaluator ------------------------------------------------------- */

/* The state of one process in 64 bytes, one cache line: the evaluator
 * visits processes in the order their messages match, and a partner's
 * posted exchange is read here, not from its program (at 10^6 ranks the
 * two lines per partner missed the cache and took a third of the time). */
typedef struct {
  double t, post_t, s_end, r_end;
  const cs_mop *op; /* the current step, NULL after the last */
  int to, from;     /* the posted exchange (copied from op) */
  unsigned sb, rb;  /* as recorded: escaped large counts are read in match() */
  int posted, step;
} proc;
_Static_assert(sizeof(proc) == 64, "proc is one cache line");

typedef struct {
  const cs_model *mo;
  const cs_prog *g;
  proc *pr;
  /* max-rate / lanes: off-node senders and receivers per (node, lane, step) */
  int *nsend, *nrecv, nsteps, nlanes;
  int mismatch;
  int cursor, eager;    /* the sweep's process; see cs_model_price() */
  int *behind, nbehind; /* processes before the cursor that a match let finish a step */
  long steps;           /* steps finished */
} engine;

/* Local work of its kind: a copy by the copy segments if the model has them,
 * otherwise (and every reduction) as algos/local.c charges a reduction. */
double cs_model_local_time(const cs_model *mo, cs_work w, double b) {
  const cs_pw *pw = w == CS_WORK_COPY && mo->copy.n > 0 ? &mo->copy : &mo->local;
  return pw->n > 0 ? cs_pw_eval(pw, b) : mo->gamma * b;
}
static double local_time(const cs_model *mo, const cs_mop *o) {
  return cs_model_local_time(mo, cs_mop_work(o), cs_mop_local(o));
}

/* Placement from the one topology module (algos/topo.h): ABG has one rank
 * per node; LANES spreads the local ranks of a node over its lanes. */
static int node_of(const cs_model *mo, int r) {
  return mo->kind == CS_MODEL_ABG ? r : cs_topo_node_of(r, mo->ppn);
}
static int lane_of(const cs_model *mo, int r) {
  return mo->kind == CS_MODEL_LANES && mo->lanes > 1 ? cs_topo_lane_of(r, mo->ppn, mo->lanes) : 0;
}

/* An inter-node message of bytes (envelope included) among n on its busiest NIC. */
static double inter_time(const cs_model *mo, double bytes, int n) {
  double rate = mo->RN < n * mo->Rb ? mo->RN : n * mo->Rb;
  return mo->alpha + bytes * n / rate;
}

double cs_model_msg_alone(const cs_model *mo, int same_node, double b) {
  double bytes = b + mo->envelope;
  if (mo->kind == CS_MODEL_ABG)
    return mo->net.n > 0 ? cs_pw_eval(&mo->net, b) : mo->alpha + mo->beta * bytes;
  return same_node ? mo->alpha_l + mo->beta_l * bytes : inter_time(mo, bytes, 1);
}

static double msg_time(engine *e, int i, int j, double b, int si, int sj) {
  const cs_model *mo = e->mo;
  double bytes = b + mo->envelope;
  if (mo->kind == CS_MODEL_ABG) return cs_model_msg_alone(mo, 0, b);
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
  return inter_time(mo, bytes, n);
}

/* The bytes the posted exchange of p sends and receives (record.h). */
static size_t sent_bytes(const engine *e, const proc *p) {
  return p->sb == CS_MOP_BIG ? e->g->big[p->rb].sb : p->sb;
}
static size_t recv_bytes(const engine *e, const proc *p) {
  return p->sb == CS_MOP_BIG ? e->g->big[p->rb].rb : p->rb;
}

/* The message from i (current op) to j (current op) is matched. */
static void match(engine *e, int i, int j) {
  proc *pi = &e->pr[i], *pj = &e->pr[j];
  size_t b = sent_bytes(e, pi);
  if (b != recv_bytes(e, pj)) e->mismatch = 1;
  double start = pi->post_t > pj->post_t ? pi->post_t : pj->post_t;
  double end = start + msg_time(e, i, j, (double)b, pi->step, pj->step);
  pi->s_end = end;
  pj->r_end = end;
  if (e->eager) {
    if (i < e->cursor && pi->r_end >= 0) e->behind[e->nbehind++] = i;
    if (j < e->cursor && pj->s_end >= 0) e->behind[e->nbehind++] = j;
  }
}

/* Takes process r as far as it goes now: local work, and exchanges until
 * one waits for a partner that has not posted its side. Returns whether
 * anything changed. */
static int advance(engine *e, int r) {
  const cs_rprog *g = &e->g->r[r];
  proc *pr = &e->pr[r];
  int moved = 0;
  while (pr->op) {
    const cs_mop *o = pr->op;
    if (!pr->posted) {
      if (!cs_mop_is_comm(o)) {
        pr->t += local_time(e->mo, o);
        pr->op = cs_rprog_after(g, o);
        e->steps++;
        continue;
      }
      moved = 1;
      pr->posted = 1;
      pr->to = o->to;
      pr->from = o->from;
      pr->sb = o->sb;
      pr->rb = o->rb;
      pr->post_t = pr->t;
      pr->s_end = o->to < 0 ? pr->t : -1;
      pr->r_end = o->from < 0 ? pr->t : -1;
      if (o->to >= 0) {
        const proc *pj = &e->pr[o->to];
        if (pj->posted && pj->from == r && pj->r_end < 0) match(e, r, o->to);
      }
      if (o->from >= 0) {
        const proc *pk = &e->pr[o->from];
        if (pk->posted && pk->to == r && pk->s_end < 0) match(e, o->from, r);
      }
    }
    if (pr->s_end < 0 || pr->r_end < 0) return moved;
    pr->t = pr->s_end > pr->r_end ? pr->s_end : pr->r_end;
    pr->posted = 0;
    pr->op = cs_rprog_after(g, o);
    pr->step++;
    e->steps++;
    moved = 1;
  }
  return moved;
}

void cs_prog_stats(const cs_prog *g, cs_model_stats *st) {
  memset(st, 0, sizeof *st);
  for (int r = 0; r < g->p; r++) {
    int s = 0;
    for (const cs_mop *o = g->r[r].first; o; o = cs_rprog_after(&g->r[r], o)) {
      if (cs_mop_is_comm(o) || o->to == CS_MOP_WAIT) s++;
      if (o->to >= 0 || o->to == CS_MOP_ISEND) {
        st->messages++;
        st->sent += (double)cs_mop_sbytes(g, o);
      }
      st->local += cs_mop_local(o);
    }
    if (s > st->rounds) st->rounds = s;
  }
}

/* cs_model_price; with stats 0 (cs_model_time: the time alone) the sweeps
 * skip the pass over every step that only counts (messages, bytes, rounds)
 * where nothing else needs it: abg's blocking programs. */
static int price(const cs_model *mo, const cs_prog *g, cs_model_stats *st, int stats, char *err,
                 size_t errlen);

int cs_model_price(const cs_model *mo, const cs_prog *g, cs_model_stats *st, char *err,
                   size_t errlen) {
  return price(mo, g, st, 1, err, errlen);
}

static int price(const cs_model *mo, const cs_prog *g, cs_model_stats *st, int stats, char *err,
                 size_t errlen) {
  /* Nonblocking steps (or a library collective that has them): flows in
   * flight together share links, priced by the fluid evaluator (fluid.c).
   * Programs of blocking steps only keep the sweeps below, whose processes
   * have at most one flow in and one out at a time (nothing to share on
   * abg's per-host full-duplex links). Half-duplex links are shared by a
   * process's send and receive, which the sweeps do not express: the fluid
   * evaluator prices every program there, and every program on a
   * platform's own routes (mo->routes). */
  if (cs_model_fluid_prices(mo, g)) {
    if (mo->routes || !mo->routes_nb || mo->kind == CS_MODEL_ABG)
      return cs_model_price_fluid(mo, g, st, err, errlen);
    cs_model on = *mo; /* max-rate or k-lane: on the platform's routes (routes_nb) */
    on.routes = mo->routes_nb;
    return cs_model_price_fluid(&on, g, st, err, errlen);
  }
  int p = g->p;
  engine e;
  memset(&e, 0, sizeof e);
  e.mo = mo;
  e.g = g;
  e.pr = cs_big_calloc((size_t)p, sizeof(proc));
  e.behind = malloc(sizeof(int) * (size_t)(2 * p + 2));
  int rc = 0;
  if (!e.pr || !e.behind) {
    snprintf(err, errlen, "model: out of memory for p = %d", p);
    rc = -1;
    goto out;
  }
  if (stats || mo->kind != CS_MODEL_ABG)
    cs_prog_stats(g, st);
  else
    memset(st, 0, sizeof *st);
  for (int r = 0; r < p; r++) e.pr[r].op = g->r[r].first;
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
    for (int r = 0; r < p; r++) {
      int s = 0;
      for (const cs_mop *o = g->r[r].first; o; o = cs_rprog_after(&g->r[r], o)) {
        if (!cs_mop_is_comm(o)) continue;
        size_t cell = ((size_t)node_of(mo, r) * e.nlanes + lane_of(mo, r)) * e.nsteps + s;
        if (o->to >= 0 && node_of(mo, o->to) != node_of(mo, r)) e.nsend[cell]++;
        if (o->from >= 0 && node_of(mo, o->from) != node_of(mo, r)) e.nrecv[cell]++;
        s++;
      }
    }
  }
  /* Sweeps over the processes in rank order until none moves: each sweep
   * reads the per-process state and programs in address order, a process
   * whose partner has answered finishing its exchange in the next sweep
   * (following each match to the partner at once missed the cache several
   * times per message at 10^6 ranks). A sweep that finished few steps
   * makes the next one eager: a process behind the cursor that a match
   * lets finish goes on at once, so that a chain of exchanges against the
   * sweep's direction (a pipeline down from rank p-1) takes one sweep, not
   * one per link. The times do not depend on the order of the visits. */
  for (int moved = 1; moved;) {
    long before = e.steps;
    moved = 0;
    for (int r = 0; r < p; r++) {
      e.cursor = r;
      if (e.pr[r].op) moved |= advance(&e, r);
      while (e.nbehind > 0) advance(&e, e.behind[--e.nbehind]);
    }
    e.eager = e.steps - before < p / 16 + 1;
    st->sweeps++;
  }
  for (int r = 0; r < p; r++) {
    if (e.pr[r].op) {
      int pc = 0;
      for (const cs_mop *o = g->r[r].first; o != e.pr[r].op; o = cs_rprog_after(&g->r[r], o)) pc++;
      snprintf(err, errlen,
               "model: the recorded programs deadlock at rank %d, step %d (a bug in models/)", r,
               pc);
      rc = -1;
      goto out;
    }
    if (e.pr[r].t > st->time) st->time = e.pr[r].t;
  }
  if (e.mismatch) {
    snprintf(err, errlen, "model: a send and its receive differ in size (a bug in models/)");
    rc = -1;
  }
out:
  cs_big_free(e.pr, (size_t)p, sizeof(proc));
  free(e.behind);
  free(e.nsend);
  free(e.nrecv);
  return rc;
}

static int eval_case(const cs_model *mo, const cs_case *c, cs_model_stats *st, int stats, char *err,
                     size_t errlen);

int cs_model_eval(const cs_model *mo, const cs_case *c, cs_model_stats *st, char *err,
                  size_t errlen) {
  return eval_case(mo, c, st, 1, err, errlen);
}

static int eval_case(const cs_model *mo, const cs_case *c, cs_model_stats *st, int stats, char *err,
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
  const cs_prog *g;
  if (cs_model_programs(mo, c, &g, err, errlen)) return -1;
  return price(mo, g, st, stats, err, errlen);
}

int cs_model_programs(const cs_model *mo, const cs_case *c, const cs_prog **out, char *err,
                      size_t errlen) {
  /* The last recording is kept: pricing one case under several models
   * (tests, sweeps over parameters) runs the kernel once per host layout. */
  static struct {
    cs_case c;
    char algo[64], lib[32];
    int ppn, valid;
    cs_prog g;
  } last;
  int ppn = mo->kind == CS_MODEL_ABG ? 0 : mo->ppn;
  const char *lib = mo->lib && *mo->lib ? mo->lib : "default";
  if (last.valid && last.c.coll == c->coll && !strcmp(last.algo, c->algo) &&
      !strcmp(last.lib, lib) && last.c.p == c->p && last.c.bytes == c->bytes &&
      last.c.root == c->root && last.c.inplace == c->inplace && last.ppn == ppn) {
    *out = &last.g;
    return 0;
  }
  if (last.g.r) cs_prog_free(&last.g); /* the one before, kept or not comparable */
  last.valid = 0;
  cs_prog g;
  if (cs_prog_init(&g, c->p)) {
    snprintf(err, errlen, "model: out of memory for p = %d", c->p);
    return -1;
  }
  /* The kernel itself, run under the recording MPI, writes the programs. */
  csrec_set_selector(lib);
  if (cs_record_case(c, ppn, &g, err, errlen)) {
    cs_prog_free(&g);
    return -1;
  }
  last.c = *c;
  snprintf(last.algo, sizeof last.algo, "%s", c->algo);
  snprintf(last.lib, sizeof last.lib, "%s", lib);
  last.ppn = ppn;
  last.g = g;
  /* an algorithm name too long to compare later is recorded again next time */
  last.valid = strlen(c->algo) < sizeof last.algo && strlen(lib) < sizeof last.lib;
  *out = &last.g;
  return 0;
}

int cs_model_time(const cs_model *mo, const cs_case *c, double *t, char *err, size_t errlen) {
  if (cs_model_has(c->coll, c->algo) && cs_model_closed(mo, c, t)) return 0;
  cs_model_stats st;
  int rc = eval_case(mo, c, &st, 0, err, errlen);
  if (rc == 0) *t = st.time;
  return rc;
}
