/* The analysis of `collsim calibrate`: samples, fits, printing, the platform
 * written and its verification (calibration.h, docs/calibrate.md). */
#include "calibration.h"
#include "pwcost.h"
#include "sizes.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "findings.h"
#include "launches.h"
#include "results.h"

/* What the platform's comment appends to a fit beyond the spread target
 * (read back by cs_calib_unsteady_fits for validate's report). */
#define SPREAD_MARK "; BEYOND the spread target"

/* ---- raw samples ---------------------------------------------------------- */

void cs_calib_samples_free(cs_calib_samples *S) {
  for (int i = 0; i < CS_CALIB_NSERIES; i++) {
    free(S->s[i].k);
    free(S->s[i].x);
    free(S->s[i].y);
    free(S->s[i].l);
  }
  free(S->node_ranks);
  free(S->node_host);
  memset(S, 0, sizeof *S);
}

static int series_add(cs_calib_series *s, double k, double x, double y, int launch) {
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 256;
    double *a = realloc(s->k, sizeof(double) * (size_t)cap), *b, *c;
    int *d;
    if (!a) return -1;
    s->k = a;
    if (!(b = realloc(s->x, sizeof(double) * (size_t)cap))) return -1;
    s->x = b;
    if (!(c = realloc(s->y, sizeof(double) * (size_t)cap))) return -1;
    s->y = c;
    if (!(d = realloc(s->l, sizeof(int) * (size_t)cap))) return -1;
    s->l = d;
    s->cap = cap;
  }
  s->k[s->n] = k;
  s->x[s->n] = x;
  s->y[s->n] = y;
  s->l[s->n] = launch;
  s->n++;
  return 0;
}

/* Finds the columns of a calibration samples file in its header; -1 with a
 * message if one is missing (launch may be: a file of one launch). */
static int calib_cols(const cs_csv_reader *in, int *col, const char *path) {
  const cs_csv_schema *sc = cs_csv_schema_of(CS_CSV_CALIB);
  for (int c = 0; c < CS_CALIB_NCOL; c++)
    if ((col[c] = cs_csv_col(in, sc->cols[c].name)) < 0 && c != CS_CALIB_LAUNCH) {
      fprintf(stderr, "collsim calibrate: %s has no column '%s'\n", path, sc->cols[c].name);
      return -1;
    }
  return 0;
}

/* Reads the driver's CSV (docs/calibrate.md): '#' lines with the layout, a header,
 * rows kind,pair,k,bytes,rep,time_s; columns are found by name. */
int cs_calib_read_samples(const char *path, cs_calib_samples *S) {
  memset(S, 0, sizeof *S);
  cs_csv_reader in;
  if (cs_csv_open(&in, path)) {
    fprintf(stderr, "collsim calibrate: cannot read %s: %s\n", path, strerror(errno));
    return -1;
  }
  int col[CS_CALIB_NCOL], have_header = 0, k;
  while ((k = cs_csv_next(&in)) != 0) {
    if (k == 2) {
      cs_calib_meta m;
      int d, r;
      char host[64];
      switch (cs_csv_calib_parse(in.line, &m, S->library, sizeof S->library, &d, &r, host,
                                 sizeof host)) {
      case 1:
        snprintf(S->backend, sizeof S->backend, "%s", m.backend);
        S->np = m.np;
        S->nodes = m.nodes;
        if (S->nodes < 1 || S->nodes > S->np) goto end;
        S->node_ranks = calloc((size_t)S->nodes, sizeof(int));
        S->node_host = calloc((size_t)S->nodes, sizeof *S->node_host);
        if (!S->node_ranks || !S->node_host) goto end;
        break;
      case 3:
        if (S->node_ranks && d >= 0 && d < S->nodes) {
          S->node_ranks[d] = r;
          snprintf(S->node_host[d], sizeof S->node_host[d], "%s", host);
        }
        break;
      default: break;
      }
      continue;
    }
    if (!have_header) {
      if (calib_cols(&in, col, path)) {
        cs_csv_close(&in);
        return -1;
      }
      have_header = 1;
    }
    const char *kind_s = cs_csv_get(&in, col[CS_CALIB_KIND]),
               *pair = cs_csv_get(&in, col[CS_CALIB_PAIR]), *ks = cs_csv_get(&in, col[CS_CALIB_K]),
               *xs = cs_csv_get(&in, col[CS_CALIB_BYTES]),
               *ys = cs_csv_get(&in, col[CS_CALIB_TIME]);
    if (!kind_s || !pair || !ks || !xs || !ys || !cs_csv_get(&in, col[CS_CALIB_REP])) continue;
    int kind = cs_csv_calib_kind_of(kind_s);
    if (kind < 0) continue; /* a kind of a later version */
    cs_calib_series *s = &S->s[kind];
    if (!s->n) snprintf(s->pair, sizeof s->pair, "%s", pair);
    const char *ls = col[CS_CALIB_LAUNCH] >= 0 ? cs_csv_get(&in, col[CS_CALIB_LAUNCH]) : NULL;
    int launch = ls ? atoi(ls) : 1;
    if (launch > S->launches) S->launches = launch;
    if (series_add(s, atof(ks), atof(xs), atof(ys), launch)) {
      fprintf(stderr, "collsim calibrate: out of memory reading %s\n", path);
      cs_csv_close(&in);
      return -1;
    }
    S->rows++;
  }
end:
  cs_csv_close(&in);
  if (!have_header && in.nh > 0) {
    if (calib_cols(&in, col, path)) return -1;
    have_header = 1;
  }
  if (!S->node_ranks || !have_header) {
    fprintf(stderr, "collsim calibrate: %s lacks the driver's header (was the run cut short?)\n",
            path);
    return -1;
  }
  return 0;
}

/* ---- fits ----------------------------------------------------------------- */

/* Medians per size (over launches: the median of the launches' medians,
 * launches.h), then the relative least-squares line. */
static void fit_series(const cs_calib_series *s, cs_calib_line *r) {
  memset(r, 0, sizeof *r);
  r->spread_median = r->spread_max = NAN;
  if (s->n == 0) {
    snprintf(r->err, sizeof r->err, "not measured");
    return;
  }
  double *ok = malloc(sizeof(double) * (size_t)s->n), *ox = malloc(sizeof(double) * (size_t)s->n),
         *oy = malloc(sizeof(double) * (size_t)s->n), *sp = malloc(sizeof(double) * (size_t)s->n);
  cs_launch_agg *oa = malloc(sizeof(cs_launch_agg) * (size_t)s->n);
  int g = ok && ox && oy && sp && oa
              ? cs_launch_medians_by_key(s->k, s->x, s->l, s->y, s->n, ok, ox, oa)
              : -1;
  if (g < 0) {
    snprintf(r->err, sizeof r->err, "out of memory");
    goto out;
  }
  int m = 0, nsp = 0;
  for (int i = 0; i < g; i++) {
    if (!(oa[i].median > 0)) {
      r->dropped++;
      continue;
    }
    double spread = cs_launch_spread(&oa[i]);
    if (oa[i].n > r->launches) r->launches = oa[i].n;
    if (isfinite(spread)) {
      sp[nsp++] = spread;
      if (!(spread <= r->spread_max)) r->spread_max = spread, r->spread_max_x = ox[i];
    }
    ox[m] = ox[i];
    oy[m] = oa[i].median;
    m++;
  }
  r->spread_median = cs_median(sp, nsp);
  r->sizes = m;
  r->npts = m < CS_CALIB_MAXPTS ? m : CS_CALIB_MAXPTS;
  memcpy(r->px, ox, sizeof(double) * (size_t)r->npts);
  memcpy(r->py, oy, sizeof(double) * (size_t)r->npts);
  if (m > 0) r->xmin = ox[0], r->xmax = ox[m - 1];
  r->ok = cs_fit_linear_rel(ox, oy, m, &r->f, r->err, sizeof r->err) == 0;
  r->seg_ok =
      r->ok && cs_fit_segmented(ox, oy, m, CS_CALIB_SEG_MAX, CS_CALIB_SEG_MINPTS, CS_CALIB_SEG_GAIN,
                                &r->seg, r->seg_err, sizeof r->seg_err) == 0;
out:
  free(ok);
  free(ox);
  free(oy);
  free(sp);
  free(oa);
}

void cs_calib_analyze(const cs_calib_samples *S, cs_calib_analysis *A) {
  memset(A, 0, sizeof *A);
  fit_series(&S->s[CS_CALIB_PP_INTRA], &A->intra);
  fit_series(&S->s[CS_CALIB_PP_INTER], &A->inter);
  fit_series(&S->s[CS_CALIB_XCHG_INTRA], &A->xintra);
  fit_series(&S->s[CS_CALIB_XCHG_INTER], &A->xinter);
  fit_series(&S->s[CS_CALIB_REDUCE], &A->reduce);
  fit_series(&S->s[CS_CALIB_MEMCPY], &A->memcpy);
  A->flows_inter = S->s[CS_CALIB_FLOW_INTER].n > 0;
  const cs_calib_series *fs = &S->s[A->flows_inter ? CS_CALIB_FLOW_INTER : CS_CALIB_FLOW_INTRA];
  if (fs->n == 0) {
    snprintf(A->flows_err, sizeof A->flows_err, "not measured");
    return;
  }
  /* At most 512 distinct k are kept (more ranks per node than that is unusual). */
  int n = fs->n;
  for (int i = 0; i < fs->n; i++)
    if (fs->k[i] > 512) n = i < n ? i : n;
  A->flows_ok = cs_fit_flows(fs->k, fs->x, fs->y, n, A->ks, A->rates, A->rate_rms, &A->nk,
                             &A->flows, A->flows_err, sizeof A->flows_err) == 0;
}

/* ---- printing ---------------------------------------------------------------- */

static const char *fmt_resid(const cs_calib_line *r, char *buf, size_t len) {
  char b[32];
  snprintf(buf, len, "%.1f%% (max %.0f%% at %s)", 100 * r->f.rms_rel, 100 * r->f.max_rel,
           cs_size_str(r->f.x_max_rel, b, sizeof b));
  return buf;
}

static double rel_se(double se, double v) { return v != 0 ? 100 * se / fabs(v) : 0; }

static void print_line_pair(FILE *out, const char *an, const char *bn, const cs_calib_line *r,
                            const char *what) {
  char res[96], b1[32], b2[32];
  if (!r->ok) {
    fprintf(out, "  %-8s %s\n  %-8s %s\n", an, r->err, bn, r->err);
    return;
  }
  fprintf(out, "  %-8s %-12.4g s    +-%.1f%%          residual %s\n", an, r->f.a,
          rel_se(r->f.se_a, r->f.a), fmt_resid(r, res, sizeof res));
  fprintf(out, "  %-8s %-12.4g s/B  +-%.1f%% (%.3g GB/s)  %s, %d sizes %s..%s%s\n", bn, r->f.b,
          rel_se(r->f.se_b, r->f.b), 1e-9 / r->f.b, what, r->sizes,
          cs_size_str(r->xmin, b1, sizeof b1), cs_size_str(r->xmax, b2, sizeof b2),
          r->dropped ? " (sizes with a zero median time dropped)" : "");
  if (r->launches > 1)
    fprintf(out,
            "  %-8s %d launches: launch-to-launch spread of the per-size medians ((max - min) / "
            "median) %.1f%% median, %.1f%% largest (%s)\n",
            "", r->launches, 100 * r->spread_median, 100 * r->spread_max,
            cs_size_str(r->spread_max_x, b1, sizeof b1));
}

/* The segments of a line's segmented fit, one per output line. */
static void print_segments(FILE *out, const char *name, const cs_calib_line *r) {
  char b1[32];
  if (!r->ok) return;
  if (!r->seg_ok) {
    fprintf(out, "    %s segmented: %s\n", name, r->seg_err);
    return;
  }
  const cs_segfit *g = &r->seg;
  double line = r->f.rms_rel;
  fprintf(out,
          "    %s: %d segment%s (breakpoints from the data: DP + BIC), residual %.1f%% (max %.0f%% "
          "at %s) vs %.1f%% for one line\n",
          name, g->nseg, g->nseg == 1 ? "" : "s", 100 * g->rms_rel, 100 * g->max_rel,
          cs_size_str(g->x_max_rel, b1, sizeof b1), 100 * line);
  for (int i = 0; i < g->nseg; i++) {
    const cs_linfit *f = &g->seg[i];
    fprintf(out,
            "      m %s %-9s %-7s: %10.4g s +-%4.1f%% + %10.4g s/B +-%4.1f%% (%6.3g GB/s), "
            "residual %4.1f%%, %d sizes\n",
            i ? ">" : ">=", i ? cs_size_str(floor(g->from[i]), b1, sizeof b1) : "0 B",
            i ? (g->crossing[i] ? "(kink)" : "(jump)") : "", f->a, rel_se(f->se_a, f->a), f->b,
            rel_se(f->se_b, f->b), f->b > 0 ? 1e-9 / f->b : 0.0, 100 * f->rms_rel, f->n);
  }
}

void cs_calib_print_analysis(FILE *out, const cs_calib_samples *S, const cs_calib_analysis *A) {
  char what[128], res[96];
  fprintf(out,
          "fits (least squares on the median of each size, relative-error weights;\n"
          "      residual = RMS relative residual, +- = standard error):\n");
  if (S->s[CS_CALIB_PP_INTER].n) {
    snprintf(what, sizeof what, "ping-pong inter-node, ranks %s", S->s[CS_CALIB_PP_INTER].pair);
    print_line_pair(out, "alpha", "beta", &A->inter, what);
  } else {
    fprintf(out, "  %-8s (none: every rank is on one node, so no inter-node pair exists)\n",
            "alpha");
    fprintf(out, "  %-8s (none: idem)\n", "beta");
  }
  if (S->s[CS_CALIB_PP_INTRA].n) {
    snprintf(what, sizeof what, "ping-pong intra-node, ranks %s", S->s[CS_CALIB_PP_INTRA].pair);
    print_line_pair(out, "alpha_l", "beta_l", &A->intra, what);
  } else {
    fprintf(out, "  %-8s (none: node 0 has one rank)\n  %-8s (none)\n", "alpha_l", "beta_l");
  }
  for (int x = 0; x < 2; x++) { /* exchanges: inter-node, intra-node */
    const cs_calib_series *xs = &S->s[x ? CS_CALIB_XCHG_INTRA : CS_CALIB_XCHG_INTER];
    if (!xs->n) continue;
    snprintf(what, sizeof what, "exchange (MPI_Sendrecv both ways) %s-node, ranks %s",
             x ? "intra" : "inter", xs->pair);
    print_line_pair(out, x ? "alpha_lx" : "alpha_x", x ? "beta_lx" : "beta_x",
                    x ? &A->xintra : &A->xinter, what);
  }
  const char *where = A->flows_inter ? "inter-node" : "intra-node";
  if (!A->flows_ok) {
    fprintf(out, "  %-8s concurrent flows: %s\n", "Rb", A->flows_err);
  } else {
    const cs_maxrate_fit *m = &A->flows;
    fprintf(
        out,
        "  %-8s %-12.4g B/s  (%.3g GB/s) %s  residual %.1f%% (max %.0f%%), %s max-rate fit over k = 1..%g\n",
        "Rb", m->Rb, m->Rb * 1e-9, m->rb_identified ? "" : "(>= RN: not identified)",
        100 * m->rms_rel, 100 * m->max_rel, where, A->nk ? A->ks[A->nk - 1] : 0);
    fprintf(out, "    per k (aggregate rate, residual of its line t = a_k + k m / R_k):");
    for (int i = 0; i < A->nk; i++) {
      if (i == 8 && A->nk > 10) { /* the first 8 and the last */
        fprintf(out, ", ...");
        i = A->nk - 1;
      }
      fprintf(out, "%s k=%g %.3g GB/s (%.1f%%)", i ? "," : "", A->ks[i], A->rates[i] * 1e-9,
              100 * A->rate_rms[i]);
    }
    fprintf(out, "\n");
    if (A->flows_inter)
      fprintf(out, "  %-8s %-12.4g B/s  (%.3g GB/s) %s; residual: that of Rb (one fit)\n", "RN",
              m->RN, m->RN * 1e-9,
              m->rn_reached ? "reached (the rate stops growing with k)"
                            : "NOT reached by k <= ppn: only a lower bound (= kmax Rb)");
    else
      fprintf(out,
              "  %-8s (none: one node, no inter-node rate exists; the intra-node aggregate rate\n"
              "           %s %.3g GB/s; the abg platform has no contention and does not use it)\n",
              "RN", m->rn_reached ? "saturates at" : "was not saturated, >=", m->RN * 1e-9);
  }
  print_segments(out, "alpha+beta m, inter-node", &A->inter);
  print_segments(out, "alpha_l+beta_l m, intra-node", &A->intra);
  print_segments(out, "exchange, inter-node", &A->xinter);
  print_segments(out, "exchange, intra-node", &A->xintra);
  for (int g = 0; g < 2; g++) {
    const cs_calib_line *r = g ? &A->memcpy : &A->reduce;
    const char *name = g ? "gamma_mc" : "gamma";
    if (!r->ok) {
      fprintf(out, "  %-8s %s: %s\n", name, g ? "cs_copy" : "MPI_Reduce_local", r->err);
      continue;
    }
    fprintf(
        out,
        "  %-8s %-12.4g s/B  +-%.1f%% (%.3g GB/s)  residual %s, %s, %d sizes, call overhead %.3g s%s\n",
        name, r->f.b, rel_se(r->f.se_b, r->f.b), 1e-9 / r->f.b, fmt_resid(r, res, sizeof res),
        g ? "cs_copy (memmove of doubles)" : "MPI_Reduce_local double sum", r->sizes, r->f.a,
        g ? "" : "  <- used as gamma");
  }
  print_segments(out, "local reduction (MPI_Reduce_local)", &A->reduce);
  print_segments(out, "local copy (cs_copy)", &A->memcpy);
}

/* Text safe inside an XML comment: no "--", no '<', '>' or '&' surprises. */
static void comment_safe(char *s) {
  for (char *p = s; *p; p++) {
    if (*p == '-' && p[1] == '-') p[1] = '=';
    if (*p == '<' || *p == '>' || *p == '&') *p = '_';
  }
}

/* SMPI charges alpha + beta (m + 16) for an m-byte message (CS_SMPI_ENVELOPE):
 * the fitted intercept a (at m = 0) becomes the platform's a - 16 beta. */
static double envelope_alpha(double a, double beta) {
  double x = a - CS_SMPI_ENVELOPE * beta;
  return x > 0 ? x : 0;
}

/* A segmented fit as the platform's cost (pwcost.h): thresholds at whole bytes
 * (integer sizes above from are above floor(from)). Network: SimGrid's latency
 * factor cannot be negative, so a message's intercept cannot be below its
 * envelope's 16 b. A segment whose fitted intercept is below that (a kink:
 * the line of a steeper regime crosses 0 below its sizes) is refitted on its
 * own sizes (L's medians) as t = b (m + 16), relative least squares:
 * b = sum(x/t) / sum(x^2/t^2), x = m + 16; merely raising a to 16 b would add
 * |a| to every size of the segment (2x at 8 MiB here). A slope not > 0 gets
 * min_b. Both are counted in *adjusted. */
static void seg_to_pw(const cs_segfit *g, int net, double min_b, const cs_calib_line *L, cs_pw *pw,
                      int *adjusted) {
  memset(pw, 0, sizeof *pw);
  pw->n = g->nseg;
  for (int i = 0; i < g->nseg; i++) {
    pw->from[i] = i ? floor(g->from[i]) : 0;
    pw->a[i] = g->seg[i].a;
    pw->b[i] = g->seg[i].b;
    if (!net) continue;
    if (!(pw->b[i] > 0)) pw->b[i] = min_b, ++*adjusted;
    if (pw->a[i] < CS_SMPI_ENVELOPE * pw->b[i]) {
      double sxt = 0, sxx = 0;
      for (int j = g->first[i]; j <= g->last[i] && j < L->npts; j++) {
        double x = L->px[j] + CS_SMPI_ENVELOPE, t = L->py[j];
        sxt += x / t;
        sxx += x * x / (t * t);
      }
      if (sxx > 0 && sxt > 0) pw->b[i] = sxt / sxx;
      pw->a[i] = CS_SMPI_ENVELOPE * pw->b[i];
      ++*adjusted;
    }
  }
}

/* A platform of one line per quantity (--linear, maxrate): copies cost the cs_copy
 * fit's slope per byte, as reductions cost gamma per byte (no call overhead:
 * the same form as `collsim platform --gamma-copy`), instead of a reduction's
 * price. Appends what was done to note. */
static void copy_per_byte(const cs_calib_analysis *A, cs_platform *pl, char *note, size_t len,
                          size_t *nl) {
  if (A->memcpy.ok && A->memcpy.f.b > 0) {
    memset(&pl->copy, 0, sizeof pl->copy);
    pl->copy.n = 1;
    pl->copy.b[0] = A->memcpy.f.b;
    *nl += (size_t)snprintf(note + *nl, *nl < len ? len - *nl : 0,
                            "local copies: gamma_copy = the cs_copy fit's slope, per byte (the "
                            "hosts' collsim-local-copy).\n");
  } else {
    *nl += (size_t)snprintf(note + *nl, *nl < len ? len - *nl : 0,
                            "local copies: no copy fit (%s): priced as reductions.\n",
                            A->memcpy.ok ? "non-positive slope" : A->memcpy.err);
  }
}

int cs_calib_choose_platform(const cs_calib_samples *S, const cs_calib_analysis *A, int linear,
                             int pingpong, cs_calib_platform *C) {
  char err[256];
  size_t nl = 0;
  C->note[0] = '\0';
#define NOTE(...) \
  nl += (size_t)snprintf(C->note + nl, nl < sizeof C->note ? sizeof C->note - nl : 0, __VA_ARGS__)
  if (!A->reduce.ok || !(A->reduce.f.b > 0)) {
    fprintf(stderr, "collsim calibrate: no gamma: %s\n",
            A->reduce.ok ? "non-positive slope" : A->reduce.err);
    return -1;
  }
  double gamma = A->reduce.f.b;
  int one_each = S->nodes > 1;
  for (int d = 0; d < S->nodes; d++)
    if (S->node_ranks[d] != 1) one_each = 0;
  if (S->nodes == 1 || one_each) {
    /* One node, or one rank per node (no intra-node pair, no concurrent flows:
     * contention-free): abg from the one ping-pong there is. */
    const cs_calib_line *L = S->nodes == 1 ? &A->intra : &A->inter;
    const cs_calib_line *X = S->nodes == 1 ? &A->xintra : &A->xinter;
    const char *which = S->nodes == 1 ? "intra" : "inter";
    /* The kernels exchange (both directions at once): the exchange's fit
     * prices them on the platform's full-duplex links (docs/calibrate.md). */
    int use_x = !pingpong && X->ok && X->f.b > 0;
    const char *op = use_x ? "exchange" : "ping-pong";
    if (use_x) L = X;
    if (!L->ok || !(L->f.b > 0)) {
      fprintf(stderr, "collsim calibrate: no %s-node alpha/beta: %s\n", which,
              L->ok ? "non-positive slope" : L->err);
      return -1;
    }
    if (cs_platform_init("abg", &C->pl, err, sizeof err)) goto bad;
    C->pl.np = S->np;
    C->pl.beta = L->f.b;
    C->pl.alpha = envelope_alpha(L->f.a, L->f.b);
    C->pl.gamma = gamma;
    /* "exchange fit" / "ping-pong fit": validate's drift probes (drift.c) read
     * from this note which the network was fitted to. */
    if (S->nodes == 1)
      NOTE("abg (one node measured): alpha, beta = the intra-node %s fit,\n", op);
    else
      NOTE(
          "abg (%d nodes, one rank each: no contention measured): alpha, beta = the inter-node\n"
          "%s fit,\n",
          S->nodes, op);
    if (use_x)
      NOTE(
          "(the exchange: both directions at once, as in the kernels; an exchange on the\n"
          "platform's full-duplex links costs one message's time; --net pingpong for the ping-pong)\n");
    else if (!pingpong)
      NOTE("(no exchange measured: the ping-pong's);\n");
    NOTE(
        "alpha reduced by 16 beta for SMPI's 16-byte envelope; no contention is modelled;\n"
        "gamma = MPI_Reduce_local fit.\n");
    if (linear) {
      NOTE("--linear: one line each, no segments.\n");
      copy_per_byte(A, &C->pl, C->note, sizeof C->note, &nl);
    } else {
      int adj = 0;
      if (L->seg_ok && L->seg.nseg > 1) {
        seg_to_pw(&L->seg, 1, 1e-3 * C->pl.beta, L, &C->pl.net, &adj);
        NOTE(
            "network: the %d segments of the %s-node %s, as smpi/lat-factor and\n"
            "smpi/bw-factor relative to alpha, beta (run under SMPI's network model)%s;\n",
            C->pl.net.n, which, op,
            adj ? "; a segment whose intercept is below 16 b (SimGrid's latency factor\n"
                  "cannot be negative) refitted on its sizes as b (m + 16)"
                : "");
      } else {
        NOTE("network: one segment fits the %s-node %s (no factors);\n", which, op);
      }
      if (A->reduce.seg_ok) {
        seg_to_pw(&A->reduce.seg, 0, 0, &A->reduce, &C->pl.local, &adj);
        NOTE(
            "local work: the %d segment%s of the MPI_Reduce_local fit (intercept = call\n"
            "overhead per charge), the hosts' collsim-local property;\n",
            C->pl.local.n, C->pl.local.n == 1 ? "" : "s");
        if (A->memcpy.seg_ok) {
          seg_to_pw(&A->memcpy.seg, 0, 0, &A->memcpy, &C->pl.copy, &adj);
          NOTE("local copies: the %d segment%s of the cs_copy fit, collsim-local-copy.\n",
               C->pl.copy.n, C->pl.copy.n == 1 ? "" : "s");
        } else {
          NOTE("local copies: no copy fit (%s): priced as reductions.\n",
               A->memcpy.ok ? A->memcpy.seg_err : A->memcpy.err);
        }
      }
    }
  } else {
    if (!A->inter.ok || !(A->inter.f.b > 0)) {
      fprintf(stderr, "collsim calibrate: no inter-node alpha/beta: %s\n",
              A->inter.ok ? "non-positive slope" : A->inter.err);
      return -1;
    }
    if (cs_platform_init("maxrate", &C->pl, err, sizeof err)) goto bad;
    int ppn = 0, uneven = 0;
    for (int d = 0; d < S->nodes; d++) {
      if (S->node_ranks[d] > ppn) ppn = S->node_ranks[d];
      if (S->node_ranks[d] != S->node_ranks[0]) uneven = 1;
    }
    C->pl.nodes = S->nodes;
    C->pl.ppn = ppn;
    C->pl.gamma = gamma;
    NOTE("maxrate (%d nodes measured)%s:\n", S->nodes,
         uneven ? "; ranks per node differ, ppn = the largest" : "");
    if (A->flows_ok && A->flows_inter) {
      C->pl.Rb = A->flows.Rb;
      C->pl.RN = A->flows.RN;
      NOTE("Rb, RN = max-rate fit of the concurrent flows%s%s;\n",
           A->flows.rn_reached ? "" : " (RN not reached: RN = kmax Rb, a lower bound)",
           A->flows.rb_identified ? "" : " (Rb not identified: set to RN)");
    } else {
      C->pl.Rb = C->pl.RN = 1 / A->inter.f.b;
      NOTE("Rb = RN = 1/beta of the inter-node ping-pong (flows: %s);\n", A->flows_err);
    }
    double beta = 1 / (C->pl.Rb < C->pl.RN ? C->pl.Rb : C->pl.RN);
    C->pl.alpha = envelope_alpha(A->inter.f.a, beta);
    NOTE("alpha = inter-node ping-pong intercept - 16 / min(Rb, RN) (SMPI's envelope);\n");
    if (A->intra.ok && A->intra.f.b > 0) {
      C->pl.beta_l = A->intra.f.b;
      C->pl.alpha_l = envelope_alpha(A->intra.f.a, A->intra.f.b);
      NOTE("alpha_l, beta_l = intra-node ping-pong fit (alpha_l - 16 beta_l);\n");
    } else {
      C->pl.beta_l = A->inter.f.b;
      C->pl.alpha_l = C->pl.alpha;
      NOTE("alpha_l, beta_l: no intra-node pair measured, copied from alpha, beta;\n");
    }
    NOTE("gamma = MPI_Reduce_local fit.\n");
    copy_per_byte(A, &C->pl, C->note, sizeof C->note, &nl);
  }
#undef NOTE
  if (cs_platform_check(&C->pl, err, sizeof err)) goto bad;
  return 0;
bad:
  fprintf(stderr, "collsim calibrate: platform: %s\n", err);
  return -1;
}

int cs_calib_write_platform(const char *xml, const char *hostfile, const cs_calib_samples *S,
                            const cs_calib_analysis *A, const cs_calib_platform *C,
                            const char *samples_path, double seconds) {
  FILE *f = fopen(xml, "w"), *h = fopen(hostfile, "w");
  if (!f || !h) {
    fprintf(stderr, "collsim calibrate: cannot write %s: %s\n", !f ? xml : hostfile,
            strerror(errno));
    if (f) fclose(f);
    if (h) fclose(h);
    return -1;
  }
  char text[8192], when[64];
  size_t n = 0;
  time_t now = time(NULL);
  strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S %z", localtime(&now));
#define ADD(...) n += (size_t)snprintf(text + n, n < sizeof text ? sizeof text - n : 0, __VA_ARGS__)
  ADD("collsim calibrate, %s: %d ranks on %d node%s (node 0: %s), backend %s,\n%s; measuring took %.1f s.\n",
      when, S->np, S->nodes, S->nodes == 1 ? "" : "s", S->node_host[0], S->backend, S->library,
      seconds);
  ADD("Raw samples: %s\nFits (relative-error least squares on per-size medians%s; res = RMS relative residual):\n",
      samples_path, S->launches > 1 ? " (medians of the launches' medians)" : "");
  const cs_calib_line *L[6] = {&A->inter,  &A->intra,  &A->reduce,
                               &A->memcpy, &A->xinter, &A->xintra};
  const char *names[6][2] = {{"alpha", "beta"},
                             {"alpha_l", "beta_l"},
                             {"gamma call overhead", "gamma"},
                             {"copy call overhead", "gamma_copy"},
                             {"exchange alpha_x", "beta_x"},
                             {"exchange alpha_lx", "beta_lx"}};
  for (int i = 0; i < 6; i++)
    if (L[i]->ok) {
      ADD("  %s = %.6g s, %s = %.6g s/byte, res %.2f%%, %d sizes", names[i][0], L[i]->f.a,
          names[i][1], L[i]->f.b, 100 * L[i]->f.rms_rel, L[i]->sizes);
      if (L[i]->launches > 1) {
        ADD(", %d launches (spread %.1f%% median, %.1f%% largest", L[i]->launches,
            100 * L[i]->spread_median, 100 * L[i]->spread_max);
        if (L[i]->spread_median > CS_CALIB_SPREAD_TARGET)
          ADD("%s of %.0f%%", SPREAD_MARK, 100 * CS_CALIB_SPREAD_TARGET);
        ADD(")");
      }
      ADD("\n");
    }
  if (A->flows_ok)
    ADD("  %s flows: Rb = %.6g B/s, RN = %.6g B/s%s, res %.2f%%, k = 1..%g\n",
        A->flows_inter ? "inter-node" : "intra-node", A->flows.Rb, A->flows.RN,
        A->flows.rn_reached ? "" : " (not reached, lower bound)", 100 * A->flows.rms_rel,
        A->nk ? A->ks[A->nk - 1] : 0);
  ADD("Platform: %s", C->note);
#undef ADD
  comment_safe(text);
  fprintf(f, "<!--\n%s-->\n", text);
  int rc = cs_platform_write(f, h, &C->pl);
  if (fclose(f)) rc = -1;
  if (fclose(h)) rc = -1;
  if (rc) fprintf(stderr, "collsim calibrate: writing %s or %s failed\n", xml, hostfile);
  return rc;
}

/* ---- launch-to-launch spread beyond the target ------------------------------------ */

/* The fits with a launch spread, their names (as the platform's comment
 * writes them: the first name of each pair) and what they measure. */
static const struct {
  size_t off;
  const char *name, *what;
} spread_fits[] = {
    {offsetof(cs_calib_analysis, inter), "alpha", "ping-pong inter-node"},
    {offsetof(cs_calib_analysis, intra), "alpha_l", "ping-pong intra-node"},
    {offsetof(cs_calib_analysis, reduce), "gamma call overhead", "local reduction"},
    {offsetof(cs_calib_analysis, memcpy), "copy call overhead", "local copy"},
    {offsetof(cs_calib_analysis, xinter), "exchange alpha_x", "exchange inter-node"},
    {offsetof(cs_calib_analysis, xintra), "exchange alpha_lx", "exchange intra-node"},
};

int cs_calib_spread_warnings(FILE *out, const cs_calib_analysis *A, int launches, double load,
                             int cores) {
  int n = 0;
  char b[32];
  for (size_t i = 0; i < sizeof spread_fits / sizeof spread_fits[0]; i++) {
    const cs_calib_line *r =
        (const cs_calib_line *)(const void *)((const char *)A + spread_fits[i].off);
    if (!r->ok || r->launches < 2 || !(r->spread_median > CS_CALIB_SPREAD_TARGET)) continue;
    fprintf(out,
            "WARNING: the %s fit (%s) moved %.1f%% between launches (median over its sizes; "
            "%.1f%% at %s), beyond the %.0f%% that validation holds predictions to: its figures "
            "describe this machine's noise as much as its %s.\n",
            spread_fits[i].what, spread_fits[i].name, 100 * r->spread_median, 100 * r->spread_max,
            cs_size_str(r->spread_max_x, b, sizeof b), 100 * CS_CALIB_SPREAD_TARGET,
            strstr(spread_fits[i].what, "local") ? "CPU" : "network");
    n++;
  }
  if (n) {
    fprintf(out, "  Calibrate again on a quiet machine (nothing else running");
    if (load >= 0) fprintf(out, "; the load is %.2f on %d cores now", load, cores);
    fprintf(out,
            ") and with more launches (--launches %d or more: the median over launches "
            "settles as they grow); validate's report flags this calibration meanwhile.\n",
            launches < 5 ? 7 : 2 * launches);
  }
  return n;
}

int cs_calib_unsteady_fits(const char *calibration, char *names, size_t len) {
  int n = 0;
  size_t w = 0;
  if (len) names[0] = '\0';
  for (const char *l = calibration; l && *l;) {
    const char *e = strchr(l, '\n');
    size_t ll = e ? (size_t)(e - l) : strlen(l);
    const char *mark = strstr(l, SPREAD_MARK);
    if (mark && mark < l + ll) {
      const char *s = l;
      while (*s == ' ') s++;
      size_t nl = strcspn(s, "=");
      while (nl && s[nl - 1] == ' ') nl--;
      if (w < len) w += (size_t)snprintf(names + w, len - w, "%s%.*s", n ? ", " : "", (int)nl, s);
      n++;
    }
    l += ll + (e != NULL);
  }
  return n;
}

/* ---- verification: the written platform, measured under smpirun ------------------ */

static double rel_diff(double got, double want) {
  return want != 0 ? fabs(got - want) / fabs(want) : fabs(got);
}

/* The largest relative difference between the per-size medians of a series and
 * the platform's segments (the simulated clock is exact, so each median is the
 * time itself); counts the sizes compared into *checks. */
static double per_size_worst(const cs_calib_series *s, const cs_pw *pw, int *checks) {
  double worst = 0;
  if (s->n == 0) return 0;
  double *ok = malloc(sizeof(double) * (size_t)s->n), *ox = malloc(sizeof(double) * (size_t)s->n),
         *oy = malloc(sizeof(double) * (size_t)s->n);
  if (ok && ox && oy) {
    int g = cs_medians_by_key(s->k, s->x, s->y, s->n, ok, ox, oy, NULL);
    for (int i = 0; i < g; i++) {
      double want = cs_pw_eval(pw, ox[i]);
      if (!(want > 0)) continue;
      double d = rel_diff(oy[i], want);
      if (d > worst) worst = d;
      ++*checks;
    }
  }
  free(ok);
  free(ox);
  free(oy);
  return worst;
}

/* Prints and folds into *worst the per-size check of one series against segments. */
static void check_segments(FILE *out, const char *name, const cs_calib_series *s, const cs_pw *pw,
                           int *checks, double *worst) {
  double w = per_size_worst(s, pw, checks);
  fprintf(out, "  %-8s every size against the %d segments: largest rel. diff %.2g\n", name, pw->n,
          w);
  if (w > *worst) *worst = w;
}

double cs_calib_verify(FILE *out, const char *samples_path, const char *xml,
                       const cs_platform *pl) {
  cs_calib_samples V;
  if (cs_calib_read_samples(samples_path, &V)) return -1;
  cs_calib_analysis B;
  cs_calib_analyze(&V, &B);
  double worst = 0;
  int checks = 0;
  fprintf(out, "verify: the same driver under smpirun on %s (%d ranks):\n", xml, pl->np);
#define CHECK(name, got, want)                                                                  \
  do {                                                                                          \
    double d_ = rel_diff(got, want);                                                            \
    fprintf(out, "  %-8s simulated %-12.6g platform %-12.6g rel. diff %.2g\n", name, got, want, \
            d_);                                                                                \
    if (d_ > worst) worst = d_;                                                                 \
    checks++;                                                                                   \
  } while (0)
  /* Every host of the written files is a node of its own (abg) or named node<N>-<j>
   * (maxrate), so rank 0's partner of the ping-pong is always on another node. */
  const cs_calib_line *pp = &B.inter;
  if (pl->net.n > 0) {
    check_segments(out, "network", &V.s[CS_CALIB_PP_INTER], &pl->net, &checks, &worst);
    /* Full-duplex links: an exchange costs one message's time. */
    if (V.s[CS_CALIB_XCHG_INTER].n)
      check_segments(out, "exchange", &V.s[CS_CALIB_XCHG_INTER], &pl->net, &checks, &worst);
  } else if (pp->ok) {
    CHECK("alpha", pp->f.a, pl->alpha + CS_SMPI_ENVELOPE * pl->beta);
    CHECK("beta", pp->f.b, pl->beta);
  }
  if (pl->kind != CS_PLAT_ABG && B.intra.ok) {
    CHECK("alpha_l", B.intra.f.a, pl->alpha_l + CS_SMPI_ENVELOPE * pl->beta_l);
    CHECK("beta_l", B.intra.f.b, pl->beta_l);
  }
  if (pl->kind != CS_PLAT_ABG && B.flows_ok && B.flows_inter) {
    CHECK("Rb", B.flows.Rb, pl->Rb);
    if (B.flows.rn_reached) CHECK("RN", B.flows.RN, pl->RN);
  }
  if (pl->local.n > 0)
    check_segments(out, "local", &V.s[CS_CALIB_REDUCE], &pl->local, &checks, &worst);
  else if (B.reduce.ok)
    CHECK("gamma", B.reduce.f.b, pl->gamma);
  if (pl->copy.n > 0)
    check_segments(out, "copy", &V.s[CS_CALIB_MEMCPY], &pl->copy, &checks, &worst);
#undef CHECK
  cs_calib_samples_free(&V);
  if (checks == 0) {
    fprintf(out, "  nothing could be compared\n");
    return -1;
  }
  return worst;
}