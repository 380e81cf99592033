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
#include "routes.h"

#define MAXMIN_PRECISION 1e-5 /* SimGrid's maxmin/precision (default) */

enum { F_POSTED, F_LATENCY, F_ACTIVE, F_DONE };

typedef struct {
  int src, dst, state;
  int sposted, rposted;   /* the sides that have posted */
  int swait, rwait;       /* the sides whose process waits for it */
  size_t sbytes, rbytes;  /* as each side posted them */
  double remaining, rate; /* bytes left (envelope included), bytes/s */
  double t_upd, lat;      /* when remaining was last brought up to date; latency */
  double pen, bound;      /* SimGrid's sharing penalty and the flow's own rate limit */
  int nres, own[2];       /* the resources it crosses: own (abg) or its route's links */
  const cs_route *ro;
  int next; /* the next flow of its process's posted list, or -1 */
  int mark;
  long ver; /* its latest end event */
} flow;

typedef struct {
  double cap;     /* bytes/s */
  int fatpipe;    /* limits each flow to cap, shared by none (SimGrid's FATPIPE) */
  int *f, nf, cf; /* active flows on it */
  double left;    /* max-min: capacity not yet given */
  double usage;   /* max-min: the unfixed flows' sum (max if fatpipe) of 1 / penalty */
  int unfixed;    /* max-min: how many of its flows are not fixed yet */
  int active, mark, dirty;
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

/* The resources of flow f. */
static const int *flow_res(const fluid *x, const flow *f) {
  return f->ro ? &x->mo->routes->links[f->ro->off] : f->own;
}

/* The resources, latency, sharing penalty and bound of a message from i to
 * j. On a platform's routes (mo->routes): its route's links, as SimGrid's
 * CM02 model takes them (routes.h). Otherwise abg's per-host links, full
 * duplex (SPLITDUPLEX: i's link up, j's link down, resources 2i and 2j + 1)
 * or half duplex (SHARED: i's and j's one link each, resources i and j,
 * carrying both directions); all of one latency, so the penalties are
 * equal and the sharing is plain max-min. */
static void route(const fluid *x, flow *f) {
  if (x->mo->routes) {
    f->ro = cs_routes_find(x->mo->routes, f->src, f->dst);
    f->nres = f->ro->n;
    f->lat = f->ro->lat;
    f->pen = f->lat > 0 ? f->lat : 1; /* network_cm02.cpp: penalty 1 without latency */
    f->bound = f->ro->bound;
    return;
  }
  f->nres = 2;
  if (x->mo->half_duplex) {
    f->own[0] = f->src;
    f->own[1] = f->dst;
  } else {
    f->own[0] = 2 * f->src;
    f->own[1] = 2 * f->dst + 1;
  }
  f->lat = x->mo->alpha;
  f->pen = f->lat > 0 ? f->lat : 1;
  f->bound = -1;
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

/* Drops resource r from the active set when it is saturated. */
static int saturated(const resource *s) {
  return !(s->usage > MAXMIN_PRECISION) || !(s->left > s->cap * MAXMIN_PRECISION);
}

/* The max-min fair rates for the flows connected to the resources changed
 * in this instant, as SimGrid's lmm solver computes them
 * (src/kernel/lmm/maxmin.cpp, 3.32): a resource's usage is the sum over
 * its unfixed flows of 1 / penalty (their maximum on a FATPIPE one); the
 * resources with the smallest left / usage saturate and fix their unfixed
 * flows at that share over the flow's penalty, or, if some of those flows
 * would pass their bound, those at the smallest bound first; then again.
 * A flow whose rate changed gets a new end event. */
static void reshare(fluid *x) {
  int ns = 0, ncomp = 0;
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
      const int *fr = flow_res(x, f);
      for (int j = 0; j < f->nres; j++)
        if (!x->R[fr[j]].mark) {
          x->R[fr[j]].mark = 1;
          x->stack[ns++] = fr[j];
        }
    }
  }
  for (int k = 0; k < ns; k++) {
    resource *s = &x->R[x->stack[k]];
    s->left = s->cap;
    s->usage = 0;
    s->unfixed = 0;
  }
  double *old = malloc(sizeof(double) * (size_t)(ncomp ? ncomp : 1));
  int *act = malloc(sizeof(int) * (size_t)(ns ? ns : 1));
  int *sat = malloc(sizeof(int) * (size_t)(ns ? ns : 1));
  if (!old || !act || !sat) {
    free(old);
    free(act);
    free(sat);
    x->oom = 1;
    return;
  }
  for (int i = 0; i < ncomp; i++) {
    flow *f = &x->F[x->comp[i]];
    catch_up(x, f);
    old[i] = f->rate;
    f->rate = 0;
    f->mark = 2; /* unfixed */
    const int *fr = flow_res(x, f);
    for (int j = 0; j < f->nres; j++) {
      resource *s = &x->R[fr[j]];
      double w = 1 / f->pen;
      s->unfixed++;
      if (!s->fatpipe)
        s->usage += w;
      else if (s->usage < w)
        s->usage = w;
    }
  }
  int nact = 0;
  for (int k = 0; k < ns; k++) {
    resource *s = &x->R[x->stack[k]];
    s->active = s->usage > 0 && s->left > s->cap * MAXMIN_PRECISION;
    if (s->active) act[nact++] = x->stack[k];
  }
  while (nact > 0) {
    double min_usage = -1;
    int nsat = 0;
    for (int k = 0; k < nact; k++) {
      resource *s = &x->R[act[k]];
      double u = s->left / s->usage;
      if (min_usage < 0 || u < min_usage) {
        min_usage = u;
        nsat = 0;
      }
      if (u == min_usage) sat[nsat++] = act[k];
    }
    double min_bound = -1;
    for (int k = 0; k < nsat; k++) {
      resource *s = &x->R[sat[k]];
      for (int i = 0; i < s->nf; i++) {
        flow *f = &x->F[s->f[i]];
        if (f->mark == 2 && f->bound > 0 && f->bound * f->pen < min_usage &&
            (min_bound < 0 || f->bound * f->pen < min_bound))
          min_bound = f->bound * f->pen;
      }
    }
    for (int k = 0; k < nsat; k++) {
      resource *s = &x->R[sat[k]];
      for (int i = 0; i < s->nf; i++) {
        flow *f = &x->F[s->f[i]];
        if (f->mark != 2) continue;
        if (min_bound < 0)
          f->rate = min_usage / f->pen;
        else if (fabs(min_bound - f->bound * f->pen) < MAXMIN_PRECISION)
          f->rate = f->bound;
        else
          continue;
        f->mark = 1;
        const int *fr = flow_res(x, f);
        for (int j = 0; j < f->nres; j++) {
          resource *t = &x->R[fr[j]];
          /* Its last unfixed flow: nothing is left to share, whatever the
           * rounding residue of the sum below (1 / penalty is up to 1e7 per
           * flow; a residue above MAXMIN_PRECISION would keep the resource
           * active with no flow to fix, and the loop would not end). */
          if (--t->unfixed == 0) {
            t->usage = 0;
            if (!t->fatpipe) {
              t->left -= f->rate;
              if (t->left < t->cap * MAXMIN_PRECISION) t->left = 0;
            }
            continue;
          }
          if (!t->fatpipe) {
            t->left -= f->rate;
            if (t->left < t->cap * MAXMIN_PRECISION) t->left = 0;
            t->usage -= 1 / f->pen;
            if (t->usage < MAXMIN_PRECISION) t->usage = 0;
          } else {
            t->usage = 0;
            for (int q = 0; q < t->nf; q++) {
              const flow *g = &x->F[t->f[q]];
              if (g->mark == 2 && 1 / g->pen > t->usage) t->usage = 1 / g->pen;
            }
          }
        }
      }
    }
    int n = 0;
    for (int k = 0; k < nact; k++)
      if (!saturated(&x->R[act[k]])) act[n++] = act[k];
    nact = n;
  }
  for (int i = 0; i < ncomp; i++) {
    flow *f = &x->F[x->comp[i]];
    f->mark = 0;
    if (f->rate != old[i] || isnan(old[i])) {
      ++f->ver;
      if (f->rate > 0)
        push(x, x->now + (isinf(f->rate) ? 0 : f->remaining / f->rate), E_END, x->comp[i], f->ver);
    }
  }
  for (int k = 0; k < ns; k++) x->R[x->stack[k]].mark = 0;
  free(old);
  free(act);
  free(sat);
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

/* Makes the routes of every message of g known (one question to SimGrid for
 * the host pairs not asked before). */
static int routes_of(cs_routes *rt, const cs_prog *g, char *err, size_t errlen) {
  if (rt->np < g->p) {
    snprintf(err, errlen, "model: the routes place %d ranks, the case has %d", rt->np, g->p);
    return -1;
  }
  size_t n = 0, c = 1024;
  int *src = malloc(sizeof(int) * c), *dst = malloc(sizeof(int) * c);
  for (int r = 0; r < g->p && src && dst; r++)
    for (const cs_mop *o = g->r[r].n ? g->r[r].first : NULL; o; o = cs_rprog_after(&g->r[r], o)) {
      int to = o->to == CS_MOP_ISEND ? o->from : o->to >= 0 ? o->to : -1;
      if (to < 0) continue;
      if (n == c) {
        c *= 2;
        int *a = realloc(src, sizeof(int) * c), *b = a ? realloc(dst, sizeof(int) * c) : NULL;
        if (a) src = a;
        if (b) dst = b;
        if (!a || !b) {
          free(src);
          free(dst);
          src = dst = NULL;
          break;
        }
      }
      src[n] = r;
      dst[n++] = to;
    }
  int rc = src && dst ? cs_routes_need(rt, src, dst, n, err, errlen) : -1;
  if (!src || !dst) snprintf(err, errlen, "model: out of memory collecting routes");
  free(src);
  free(dst);
  return rc;
}

int cs_model_price_fluid(const cs_model *mo, const cs_prog *g, cs_model_stats *st, char *err,
                         size_t errlen) {
  if (mo->routes) {
    if (routes_of(mo->routes, g, err, errlen)) return -1;
  } else if (mo->kind != CS_MODEL_ABG || mo->net.n > 0) {
    snprintf(err, errlen,
             "model: the kernel has nonblocking messages or library collectives, which collsim "
             "prices on an abg model without calibrated network segments only (flows sharing "
             "links; models/fluid.c), or on a platform's own routes");
    return -1;
  }
  int p = g->p, rc = 0;
  fluid x;
  memset(&x, 0, sizeof x);
  x.mo = mo;
  x.g = g;
  x.nr = mo->routes ? mo->routes->nlink : 2 * p;
  x.P = calloc((size_t)p, sizeof *x.P);
  x.R = calloc((size_t)(x.nr ? x.nr : 1), sizeof *x.R);
  x.dirty = malloc(sizeof(int) * (size_t)(x.nr ? x.nr : 1));
  x.stack = malloc(sizeof(int) * (size_t)(x.nr ? x.nr : 1));
  if (!x.P || !x.R || !x.dirty || !x.stack) x.oom = 1;
  cs_prog_stats(g, st);
  for (int i = 0; i < x.nr && !x.oom; i++) {
    x.R[i].cap = mo->routes ? mo->routes->cap[i] : mo->beta > 0 ? 1 / mo->beta : INFINITY;
    x.R[i].fatpipe = mo->routes ? mo->routes->fatpipe[i] : 0;
  }
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
        const int *fr = flow_res(&x, f);
        for (int j = 0; j < f->nres; j++) res_add(&x, fr[j], e.id);
        if (f->nres == 0) /* no link: at its bound, or at once (SimGrid: no constraint) */
          push(&x, x.now + (f->bound > 0 ? f->remaining / f->bound : 0), E_END, e.id, f->ver);
      } else {
        flow *f = &x.F[e.id];
        if (f->state != F_ACTIVE || f->ver != e.ver) continue; /* stale */
        f->state = F_DONE;
        f->remaining = 0;
        const int *fr = flow_res(&x, f);
        for (int j = 0; j < f->nres; j++) res_remove(&x, fr[j], e.id);
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

int cs_model_fluid_prices(const cs_model *mo, const cs_prog *g) {
  return g->nb || mo->half_duplex || mo->routes;
}

int cs_model_kind_of(const cs_model *mo, const cs_case *c, const char **kind, char *err,
                     size_t errlen) {
  double t;
  if (cs_model_has(c->coll, c->algo) && cs_model_closed(mo, c, &t)) {
    *kind = "abg-closed"; /* what cs_model_time took (models/closed.c): nothing recorded */
    return 0;
  }
  const cs_prog *g;
  if (cs_model_programs(mo, c, &g, err, errlen)) return -1;
  int nb_routes = mo->routes_nb && mo->kind != CS_MODEL_ABG && cs_model_fluid_prices(mo, g);
  *kind = mo->routes || nb_routes        ? "fluid-routes"
          : cs_model_fluid_prices(mo, g) ? "fluid-abg"
          : mo->kind == CS_MODEL_LANES   ? "lanes"
          : mo->kind == CS_MODEL_MAXRATE ? "maxrate"
          : mo->net.n > 0                ? "abg-segments"
                                         : "abg";
  return 0;
}
