/* The fluid evaluator: prices recorded programs with nonblocking steps
 * (record.h) as SimGrid's network model does, a flow per message on the
 * resources it crosses, sharing their bandwidth max-min fairly.
 *
 * Time advances from event to event (a process resumes, a flow ends its
 * latency, a flow ends). A message becomes a flow when both sides have
 * posted it (the k-th send from i to j meets the k-th receive at j from i;
 * every send rendezvous, as smpirun runs with
 * smpi/send-is-detached-thresh:0): it then waits out its route's latency,
 * as SimGrid's CM02 model does before a flow takes bandwidth, and moves
 * its bytes plus the envelope at the rate the sharing gives it until none
 * are left. A process's wait (MPI_Wait, a blocking exchange) ends when its
 * flows have; local work takes what the model's local cost says. Rates are
 * recomputed once per instant at which flows start or end, over the
 * connected set of resources those flows touch (water-filling: the
 * resource with the smallest fair share fixes its flows' rate, and so on).
 *
 * Resources: on the abg platform (platforms/platgen.c) every host has a
 * private SPLITDUPLEX link of bandwidth 1/beta and latency alpha/2 to a
 * star centre and no backbone: a flow from i to j crosses i's link up and
 * j's link down, two resources of capacity 1/beta, with latency alpha; all
 * routes have the same latency, so SimGrid's sharing weights (the route
 * latency) are equal and max-min is plain max-min. The flow/resource
 * representation (a flow's list of resources, a resource's capacity and
 * flows) is what a route-based evaluator over any platform extends
 * (issue 26): route() is the only place that knows the abg topology.
 * Max-rate and k-lane models, and calibrated network segments, are not
 * priced here: a program that needs this evaluator under them fails with
 * a message.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

#define MAX_RES 2 /* resources of one flow (abg: a link up, a link down) */

enum { F_POSTED, F_LATENCY, F_ACTIVE, F_DONE };

typedef struct {
  int src, dst, state;
  int sposted, rposted;   /* the sides that have posted */
  int swait, rwait;       /* the sides whose process waits for it */
  size_t sbytes, rbytes;  /* as each side posted them */
  double remaining, rate; /* bytes left (envelope included), bytes/s */
  double t_upd, lat;      /* when remaining was last brought up to date; latency */
  int nres, res[MAX_RES]; /* the resources it crosses */
  int next;               /* the next flow of its process's posted list, or -1 */
  int mark;
  long ver; /* its latest end event */
} flow;

typedef struct {
  double cap;     /* bytes/s */
  int *f, nf, cf; /* active flows on it */
  double left;    /* water-filling: capacity not yet given */
  int unfixed, mark, dirty;
} resource;

enum { E_RUN, E_JOIN, E_END };
typedef struct {
  double t;
  long seq;
  int kind, id;
  long ver; /* E_END: the flow's version it was computed for (stale if older) */
} event;

typedef struct {
  double t;
  const cs_mop *op;     /* next step, NULL after the last */
  int *req, nreq, creq; /* per request: 2 flow + (1 if its send side) */
  int pending;          /* flows it waits for */
  int head, tail;       /* posted flows with this process as destination, one side posted */
  int done;
} fproc;

typedef struct {
  const cs_model *mo;
  const cs_prog *g;
  fproc *P;
  flow *F;
  int nf, cf;
  resource *R;
  int nr;
  event *H;
  int nh, ch;
  long seq;
  double now;
  int *dirty, ndirty; /* resources whose flows changed this instant */
  int *stack, *comp;  /* component search */
  int oom, mismatch;
} fluid;

/* ---- the event heap ------------------------------------------------------- */

static int ev_less(const event *a, const event *b) {
  return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

/* The array a of n used and *cap allocated elements of size bytes, with
 * room for one more (doubling, from first): a itself, a moved copy, or NULL
 * with x->oom set (a is then unchanged). */
static void *grow(fluid *x, void *a, int n, int *cap, size_t size, int first) {
  if (n < *cap) return a;
  int c = *cap ? 2 * *cap : first;
  void *b = realloc(a, size * (size_t)c);
  if (!b) {
    x->oom = 1;
    return NULL;
  }
  *cap = c;
  return b;
}

static void push(fluid *x, double t, int kind, int id, long ver) {
  event *h = grow(x, x->H, x->nh, &x->ch, sizeof *x->H, 1024);
  if (!h) return;
  x->H = h;
  event e = {t, x->seq++, kind, id, ver};
  int i = x->nh++;
  while (i > 0 && ev_less(&e, &x->H[(i - 1) / 2])) {
    x->H[i] = x->H[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  x->H[i] = e;
}

static event pop(fluid *x) {
  event top = x->H[0], last = x->H[--x->nh];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= x->nh) break;
    if (c + 1 < x->nh && ev_less(&x->H[c + 1], &x->H[c])) c++;
    if (!ev_less(&x->H[c], &last)) break;
    x->H[i] = x->H[c];
    i = c;
  }
  if (x->nh > 0) x->H[i] = last;
  return top;
}

/* ---- flows and resources -------------------------------------------------- */

/* The resources and latency of a message from i to j: abg's per-host
 * links, full duplex (SPLITDUPLEX: i's link up, j's link down, resources 2i
 * and 2j + 1) or half duplex (SHARED: i's and j's one link each, resources i
 * and j, carrying both directions). */
static void route(const fluid *x, flow *f) {
  f->nres = 2;
  if (x->mo->half_duplex) {
    f->res[0] = f->src;
    f->res[1] = f->dst;
  } else {
    f->res[0] = 2 * f->src;
    f->res[1] = 2 * f->dst + 1;
  }
  f->lat = x->mo->alpha;
}

static int flow_new(fluid *x, int src, int dst) {
  flow *fl = grow(x, x->F, x->nf, &x->cf, sizeof *x->F, 1024);
  if (!fl) return -1;
  x->F = fl;
  flow *f = &x->F[x->nf];
  memset(f, 0, sizeof *f);
  f->src = src;
  f->dst = dst;
  f->next = -1;
  route(x, f);
  return x->nf++;
}

static void mark_dirty(fluid *x, int r) {
  if (!x->R[r].dirty) {
    x->R[r].dirty = 1;
    x->dirty[x->ndirty++] = r;
  }
}

/* Brings f's remaining bytes up to now at its current rate. */
static void catch_up(fluid *x, flow *f) {
  double dt = x->now - f->t_upd;
  if (dt > 0 && f->rate > 0) f->remaining -= f->rate * dt;
  if (f->remaining < 0) f->remaining = 0;
  f->t_upd = x->now;
}

static void res_add(fluid *x, int r, int id) {
  resource *s = &x->R[r];
  int *fs = grow(x, s->f, s->nf, &s->cf, sizeof *s->f, 4);
  if (!fs) return;
  s->f = fs;
  s->f[s->nf++] = id;
  mark_dirty(x, r);
}

static void res_remove(fluid *x, int r, int id) {
  resource *s = &x->R[r];
  for (int i = 0; i < s->nf; i++)
    if (s->f[i] == id) {
      s->f[i] = s->f[--s->nf];
      break;
    }
  mark_dirty(x, r);
}

/* Max-min fair rates for the flows connected to the resources changed in
 * this instant (water-filling over that component); a flow whose rate
 * changed gets a new end event. */
static void reshare(fluid *x) {
  int nc = 0, ns = 0, ncomp = 0;
  for (int i = 0; i < x->ndirty; i++) {
    int r = x->dirty[i];
    x->R[r].dirty = 0;
    if (!x->R[r].mark) {
      x->R[r].mark = 1;
      x->stack[ns++] = r;
    }
  }
  x->ndirty = 0;
  /* the component: its resources in stack[0, ns), its flows in comp */
  for (int k = 0; k < ns; k++) {
    resource *s = &x->R[x->stack[k]];
    for (int i = 0; i < s->nf; i++) {
      flow *f = &x->F[s->f[i]];
      if (f->mark) continue;
      f->mark = 1;
      x->comp[ncomp++] = s->f[i];
      for (int j = 0; j < f->nres; j++)
        if (!x->R[f->res[j]].mark) {
          x->R[f->res[j]].mark = 1;
          x->stack[ns++] = f->res[j];
        }
    }
  }
  nc = ns;
  for (int k = 0; k < nc; k++) {
    resource *s = &x->R[x->stack[k]];
    s->left = s->cap;
    s->unfixed = s->nf;
  }
  double *old = malloc(sizeof(double) * (size_t)(ncomp ? ncomp : 1));
  if (!old) {
    x->oom = 1;
    return;
  }
  for (int i = 0; i < ncomp; i++) {
    flow *f = &x->F[x->comp[i]];
    catch_up(x, f);
    old[i] = f->rate;
    f->mark = 2; /* unfixed */
  }
  for (int fixed = 0; fixed < ncomp;) {
    int best = -1;
    double share = INFINITY;
    for (int k = 0; k < nc; k++) {
      resource *s = &x->R[x->stack[k]];
      if (s->unfixed > 0 && s->left / s->unfixed < share) {
        share = s->left / s->unfixed;
        best = k;
      }
    }
    if (best < 0) break;
    resource *b = &x->R[x->stack[best]];
    for (int i = 0; i < b->nf; i++) {
      flow *f = &x->F[b->f[i]];
      if (f->mark != 2) continue;
      f->mark = 1;
      f->rate = share;
      fixed++;
      for (int j = 0; j < f->nres; j++) {
        resource *s = &x->R[f->res[j]];
        s->left -= share;
        if (s->left < 0) s->left = 0;
        s->unfixed--;
      }
    }
  }
  for (int i = 0; i < ncomp; i++) {
    flow *f = &x->F[x->comp[i]];
    f->mark = 0;
    if (f->rate != old[i] || isnan(old[i]))
      push(x, x->now + (isinf(f->rate) ? 0 : f->remaining / f->rate), E_END, x->comp[i], ++f->ver);
  }
  for (int k = 0; k < nc; k++) x->R[x->stack[k]].mark = 0;
  free(old);
}

/* ---- processes ------------------------------------------------------------ */

/* Posts process r's side of a message from src to dst of b bytes (send:
 * r = src). Returns the flow. */
/* One side of flow f is posted: the send (send = 1) or the receive, of b bytes. */
static void post_side(flow *f, int send, size_t b) {
  if (send) {
    f->sposted = 1;
    f->sbytes = b;
  } else {
    f->rposted = 1;
    f->rbytes = b;
  }
}

static int post(fluid *x, int r, int send, int src, int dst, size_t b) {
  fproc *d = &x->P[dst];
  /* Posted flows of one pair are all of one side: the first of the pair
   * either meets this post or is of this side, and this one queues. */
  int prev = -1, id = d->head;
  while (id >= 0 && x->F[id].src != src) {
    prev = id;
    id = x->F[id].next;
  }
  if (id >= 0 && (send ? !x->F[id].sposted : !x->F[id].rposted)) {
    flow *f = &x->F[id];
    if (prev >= 0)
      x->F[prev].next = f->next;
    else
      d->head = f->next;
    if (d->tail == id) d->tail = prev;
    f->next = -1;
    post_side(f, send, b);
    if (f->sbytes != f->rbytes) x->mismatch = 1;
    f->state = F_LATENCY;
    f->remaining = (double)f->sbytes + x->mo->envelope;
    f->rate = NAN;
    push(x, x->now + f->lat, E_JOIN, id, 0);
    return id;
  }
  (void)r;
  id = flow_new(x, src, dst);
  if (id < 0) return -1;
  flow *f = &x->F[id];
  f->state = F_POSTED;
  post_side(f, send, b);
  d = &x->P[dst]; /* x->F may have moved, x->P not */
  if (d->tail >= 0)
    x->F[d->tail].next = id;
  else
    d->head = id;
  d->tail = id;
  return id;
}

static int add_req(fluid *x, fproc *p, int id) {
  int *rq = grow(x, p->req, p->nreq, &p->creq, sizeof *p->req, 8);
  if (!rq) return -1;
  p->req = rq;
  p->req[p->nreq++] = id;
  return 0;
}

/* Process r waits for flow id (its sender side if send): returns whether
 * it must block. */
static int wait_for(fluid *x, int r, int id, int send) {
  flow *f = &x->F[id];
  if (f->state == F_DONE) return 0;
  if (send)
    f->swait = 1;
  else
    f->rwait = 1;
  x->P[r].pending++;
  return 1;
}

/* Runs process r from now until it blocks, ends, or its clock passes now
 * (then it runs again at its time). */
static void run(fluid *x, int r) {
  fproc *p = &x->P[r];
  const cs_rprog *pr = &x->g->r[r];
  const cs_model *mo = x->mo;
  while (p->op && !x->oom) {
    if (p->t > x->now) {
      push(x, p->t, E_RUN, r, 0);
      return;
    }
    const cs_mop *o = p->op;
    p->op = cs_rprog_after(pr, o);
    if (o->to == CS_MOP_ISEND || o->to == CS_MOP_IRECV) {
      int send = o->to == CS_MOP_ISEND;
      int id = send ? post(x, r, 1, r, o->from, cs_mop_sbytes(x->g, o))
                    : post(x, r, 0, o->from, r, cs_mop_rbytes(x->g, o));
      if (id < 0 || add_req(x, p, 2 * id + send)) return;
    } else if (o->to == CS_MOP_WAIT) {
      if (o->from < 0 || o->from >= p->nreq) {
        x->mismatch = 2;
        return;
      }
      if (wait_for(x, r, p->req[o->from] / 2, p->req[o->from] % 2)) return;
    } else if (cs_mop_is_comm(o)) {
      int s = o->to >= 0 ? post(x, r, 1, r, o->to, cs_mop_sbytes(x->g, o)) : -1;
      int v = o->from >= 0 ? post(x, r, 0, o->from, r, cs_mop_rbytes(x->g, o)) : -1;
      if ((o->to >= 0 && s < 0) || (o->from >= 0 && v < 0)) return;
      int block = 0;
      if (s >= 0) block |= wait_for(x, r, s, 1);
      if (v >= 0) block |= wait_for(x, r, v, 0);
      if (block) return;
    } else {
      p->t += cs_model_local_time(mo, cs_mop_work(o), cs_mop_local(o));
    }
  }
  if (!p->op) p->done = 1;
}

/* A flow has ended: its processes waiting for it may go on. */
static void wake(fluid *x, int r) {
  if (--x->P[r].pending == 0) {
    x->P[r].t = x->now;
    push(x, x->now, E_RUN, r, 0);
  }
}

int cs_model_price_fluid(const cs_model *mo, const cs_prog *g, cs_model_stats *st, char *err,
                         size_t errlen) {
  if (mo->kind != CS_MODEL_ABG || mo->net.n > 0) {
    snprintf(err, errlen,
             "model: the kernel has nonblocking messages or library collectives, which collsim "
             "prices on an abg model without calibrated network segments only (flows sharing "
             "links; models/fluid.c)");
    return -1;
  }
  int p = g->p, rc = 0;
  fluid x;
  memset(&x, 0, sizeof x);
  x.mo = mo;
  x.g = g;
  x.nr = 2 * p;
  x.P = calloc((size_t)p, sizeof *x.P);
  x.R = calloc((size_t)x.nr, sizeof *x.R);
  x.dirty = malloc(sizeof(int) * (size_t)x.nr);
  x.stack = malloc(sizeof(int) * (size_t)x.nr);
  if (!x.P || !x.R || !x.dirty || !x.stack) x.oom = 1;
  cs_prog_stats(g, st);
  for (int i = 0; i < x.nr && !x.oom; i++) x.R[i].cap = mo->beta > 0 ? 1 / mo->beta : INFINITY;
  for (int r = 0; r < p && !x.oom; r++) {
    x.P[r].op = g->r[r].first;
    x.P[r].head = x.P[r].tail = -1;
    push(&x, 0, E_RUN, r, 0);
  }
  while (x.nh > 0 && !x.oom && !x.mismatch) {
    x.now = x.H[0].t;
    /* Everything of this instant, then one resharing. */
    while (x.nh > 0 && x.H[0].t == x.now && !x.oom) {
      event e = pop(&x);
      if (e.kind == E_RUN) {
        run(&x, e.id);
      } else if (e.kind == E_JOIN) {
        flow *f = &x.F[e.id];
        f->state = F_ACTIVE;
        f->t_upd = x.now;
        f->rate = NAN;
        for (int j = 0; j < f->nres; j++) res_add(&x, f->res[j], e.id);
      } else {
        flow *f = &x.F[e.id];
        if (f->state != F_ACTIVE || f->ver != e.ver) continue; /* stale */
        f->state = F_DONE;
        f->remaining = 0;
        for (int j = 0; j < f->nres; j++) res_remove(&x, f->res[j], e.id);
        if (f->swait) wake(&x, f->src);
        if (f->rwait) wake(&x, f->dst);
      }
    }
    if (x.ndirty > 0) {
      free(x.comp);
      x.comp = malloc(sizeof(int) * (size_t)(x.nf ? x.nf : 1));
      if (!x.comp)
        x.oom = 1;
      else
        reshare(&x);
    }
  }
  if (x.oom) {
    snprintf(err, errlen, "model: out of memory in the fluid evaluator (p = %d)", p);
    rc = -1;
  } else if (x.mismatch) {
    snprintf(err, errlen,
             x.mismatch == 2 ? "model: a wait for a request never posted (a bug in models/)"
                             : "model: a send and its receive differ in size (a bug in models/)");
    rc = -1;
  }
  for (int r = 0; r < p && rc == 0; r++) {
    if (!x.P[r].done) {
      snprintf(err, errlen,
               "model: the recorded programs deadlock at rank %d: with every send rendezvous "
               "(SMPI's send-is-detached-thresh:0) the kernel would hang there, e.g. a blocking "
               "send that waits for a receive posted after another blocking send",
               r);
      rc = -1;
      break;
    }
    if (x.P[r].t > st->time) st->time = x.P[r].t;
  }
  st->sweeps = 1;
  for (int r = 0; x.P && r < p; r++) free(x.P[r].req);
  for (int i = 0; x.R && i < x.nr; i++) free(x.R[i].f);
  free(x.P);
  free(x.R);
  free(x.F);
  free(x.H);
  free(x.dirty);
  free(x.stack);
  free(x.comp);
  return rc;
}
