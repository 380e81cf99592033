/* collsim calibrate: measures this machine with the driver under mpirun
 * (ping-pong, concurrent flows, local reduction and copy), fits the model
 * parameters (validate/calibfit.c) and writes a SimGrid platform that smpirun
 * can load (platforms/platgen.h), then re-measures that platform under
 * smpirun to show that it reproduces the fit. See docs/calibrate.md. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../validate/calibfit.h"
#include "cli.h"
#include "platgen.h"
#include "sizes.h"

static void cal_usage(FILE *f) {
  fprintf(
      f,
      "usage: collsim calibrate [options]\n"
      "Measures the machine it runs on (ping-pong over 0 B .. 16 MiB, intra- and inter-node;\n"
      "concurrent flows; MPI_Reduce_local and memcpy), fits alpha, beta, alpha_l, beta_l, Rb,\n"
      "RN, gamma, and writes a SimGrid platform (abg on one node, maxrate on several) with its\n"
      "hostfile, then re-measures that platform under smpirun as a check.\n"
      "  --np N           processes (default 2)\n"
      "  --hostfile F     hostfile for mpirun (several nodes: inter-node pairs and flows)\n"
      "  --backend B      mpi (mpirun with Open MPI, default) or smpi (measure a simulated\n"
      "                   machine given by --platform, e.g. to test the fits)\n"
      "  --platform X     with --backend smpi: the platform file to measure\n"
      "  --out FILE.xml   platform to write (default results/calibrate/platform.xml);\n"
      "                   its hostfile goes next to it (FILE.hostfile)\n"
      "  --samples FILE   raw samples, CSV (default FILE-samples.csv next to the XML)\n"
      "  --quick          fewer sizes (up to 1 MiB) and repetitions, for tests\n"
      "  --reps N         repetitions per size (default: ping-pong 100/40/20 by size, flows 20,\n"
      "                   local work 20; --quick 10/5/5), after 5 (--quick 2) warm-ups\n"
      "  --max-bytes B    largest message and local-work size (default 16 MiB, --quick 1 MiB)\n"
      "  --no-verify      skip the smpirun re-measurement of the written platform\n"
      "Exit status: 0 done, 1 a measurement, fit, write or the verification failed, 2 bad usage.\n");
}

/* ---- raw samples ---------------------------------------------------------- */

enum { S_PP_INTRA, S_PP_INTER, S_FLOW_INTER, S_FLOW_INTRA, S_REDUCE, S_MEMCPY, S_N };
static const char *series_names[S_N] = {"pp_intra",   "pp_inter", "flow_inter",
                                        "flow_intra", "reduce",   "memcpy"};

typedef struct {
  int n, cap;
  double *k, *x, *y;
  char pair[32];
} series;

typedef struct {
  char backend[16], library[256];
  int np, nodes;
  int *node_ranks; /* ranks per node */
  char (*node_host)[64];
  long rows;
  series s[S_N];
} samples;

static void samples_free(samples *S) {
  for (int i = 0; i < S_N; i++) {
    free(S->s[i].k);
    free(S->s[i].x);
    free(S->s[i].y);
  }
  free(S->node_ranks);
  free(S->node_host);
  memset(S, 0, sizeof *S);
}

static int series_add(series *s, double k, double x, double y) {
  if (s->n == s->cap) {
    int cap = s->cap ? 2 * s->cap : 256;
    double *a = realloc(s->k, sizeof(double) * (size_t)cap), *b, *c;
    if (!a) return -1;
    s->k = a;
    if (!(b = realloc(s->x, sizeof(double) * (size_t)cap))) return -1;
    s->x = b;
    if (!(c = realloc(s->y, sizeof(double) * (size_t)cap))) return -1;
    s->y = c;
    s->cap = cap;
  }
  s->k[s->n] = k;
  s->x[s->n] = x;
  s->y[s->n] = y;
  s->n++;
  return 0;
}

/* Reads the driver's CSV (docs/calibrate.md): '#' lines with the layout, a header,
 * rows kind,pair,k,bytes,rep,time_s; columns are found by name. */
static int read_samples(const char *path, samples *S) {
  memset(S, 0, sizeof *S);
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "collsim calibrate: cannot read %s: %s\n", path, strerror(errno));
    return -1;
  }
  char line[4096];
  int col[6] = {-1, -1, -1, -1, -1, -1}; /* kind pair k bytes rep time_s */
  static const char *cols[6] = {"kind", "pair", "k", "bytes", "rep", "time_s"};
  int have_header = 0;
  while (fgets(line, sizeof line, f)) {
    size_t len = strlen(line);
    if (!len || line[len - 1] != '\n') break; /* an incomplete last line */
    line[len - 1] = '\0';
    if (line[0] == '#') {
      int d, r;
      char host[256];
      if (sscanf(line, "# collsim calibrate backend=%15s np=%d nodes=%d", S->backend, &S->np,
                 &S->nodes) == 3) {
        if (S->nodes < 1 || S->nodes > S->np) break;
        S->node_ranks = calloc((size_t)S->nodes, sizeof(int));
        S->node_host = calloc((size_t)S->nodes, sizeof *S->node_host);
        if (!S->node_ranks || !S->node_host) break;
      } else if (!strncmp(line, "# library: ", 11)) {
        snprintf(S->library, sizeof S->library, "%.255s", line + 11);
      } else if (sscanf(line, "# node %d ranks=%d first=%*d host=%255s", &d, &r, host) == 3 &&
                 S->node_ranks && d >= 0 && d < S->nodes) {
        S->node_ranks[d] = r;
        snprintf(S->node_host[d], sizeof S->node_host[d], "%.63s", host);
      }
      continue;
    }
    char *fld[16];
    int nf = 0;
    for (char *p = line, *t; nf < 16 && (t = strsep(&p, ","));) fld[nf++] = t;
    if (!have_header) {
      for (int c = 0; c < 6; c++)
        for (int i = 0; i < nf; i++)
          if (!strcmp(fld[i], cols[c])) col[c] = i;
      for (int c = 0; c < 6; c++)
        if (col[c] < 0) {
          fprintf(stderr, "collsim calibrate: %s has no column '%s'\n", path, cols[c]);
          fclose(f);
          return -1;
        }
      have_header = 1;
      continue;
    }
    int maxc = 0;
    for (int c = 0; c < 6; c++)
      if (col[c] > maxc) maxc = col[c];
    if (nf <= maxc) continue;
    int kind = -1;
    for (int i = 0; i < S_N; i++)
      if (!strcmp(fld[col[0]], series_names[i])) kind = i;
    if (kind < 0) continue; /* a kind of a later version */
    series *s = &S->s[kind];
    if (!s->n) snprintf(s->pair, sizeof s->pair, "%s", fld[col[1]]);
    if (series_add(s, atof(fld[col[2]]), atof(fld[col[3]]), atof(fld[col[5]]))) {
      fprintf(stderr, "collsim calibrate: out of memory reading %s\n", path);
      fclose(f);
      return -1;
    }
    S->rows++;
  }
  fclose(f);
  if (!S->node_ranks || !have_header) {
    fprintf(stderr, "collsim calibrate: %s lacks the driver's header (was the run cut short?)\n",
            path);
    return -1;
  }
  return 0;
}

/* ---- fits ----------------------------------------------------------------- */

typedef struct {
  int ok;
  cs_linfit f;
  int sizes; /* distinct sizes fitted */
  double xmin, xmax;
  int dropped; /* sizes whose median time was not > 0 */
  char err[256];
} line_result;

typedef struct {
  line_result intra, inter, reduce, memcpy;
  int flows_ok, flows_inter, nk;
  cs_maxrate_fit flows;
  double ks[512], rates[512], rate_rms[512];
  char flows_err[256];
} analysis;

/* Medians per size, then the relative least-squares line. */
static void fit_series(const series *s, line_result *r) {
  memset(r, 0, sizeof *r);
  if (s->n == 0) {
    snprintf(r->err, sizeof r->err, "not measured");
    return;
  }
  double *ok = malloc(sizeof(double) * (size_t)s->n), *ox = malloc(sizeof(double) * (size_t)s->n),
         *oy = malloc(sizeof(double) * (size_t)s->n);
  if (!ok || !ox || !oy) {
    snprintf(r->err, sizeof r->err, "out of memory");
    goto out;
  }
  int g = cs_medians_by_key(s->k, s->x, s->y, s->n, ok, ox, oy, NULL), m = 0;
  for (int i = 0; i < g; i++) {
    if (!(oy[i] > 0)) {
      r->dropped++;
      continue;
    }
    ox[m] = ox[i];
    oy[m] = oy[i];
    m++;
  }
  r->sizes = m;
  if (m > 0) r->xmin = ox[0], r->xmax = ox[m - 1];
  r->ok = cs_fit_linear_rel(ox, oy, m, &r->f, r->err, sizeof r->err) == 0;
out:
  free(ok);
  free(ox);
  free(oy);
}

static void analyze(const samples *S, analysis *A) {
  memset(A, 0, sizeof *A);
  fit_series(&S->s[S_PP_INTRA], &A->intra);
  fit_series(&S->s[S_PP_INTER], &A->inter);
  fit_series(&S->s[S_REDUCE], &A->reduce);
  fit_series(&S->s[S_MEMCPY], &A->memcpy);
  A->flows_inter = S->s[S_FLOW_INTER].n > 0;
  const series *fs = &S->s[A->flows_inter ? S_FLOW_INTER : S_FLOW_INTRA];
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

static const char *fmt_bytes(double b, char *buf, size_t len) {
  if (b >= 1048576 && fmod(b, 1048576) == 0)
    snprintf(buf, len, "%g MiB", b / 1048576);
  else if (b >= 1024 && fmod(b, 1024) == 0)
    snprintf(buf, len, "%g KiB", b / 1024);
  else
    snprintf(buf, len, "%g B", b);
  return buf;
}

static const char *fmt_resid(const line_result *r, char *buf, size_t len) {
  char b[32];
  snprintf(buf, len, "%.1f%% (max %.0f%% at %s)", 100 * r->f.rms_rel, 100 * r->f.max_rel,
           fmt_bytes(r->f.x_max_rel, b, sizeof b));
  return buf;
}

static double rel_se(double se, double v) { return v != 0 ? 100 * se / fabs(v) : 0; }

static void print_line_pair(const char *an, const char *bn, const line_result *r,
                            const char *what) {
  char res[96], b1[32], b2[32];
  if (!r->ok) {
    printf("  %-8s %s\n  %-8s %s\n", an, r->err, bn, r->err);
    return;
  }
  printf("  %-8s %-12.4g s    +-%.1f%%          residual %s\n", an, r->f.a,
         rel_se(r->f.se_a, r->f.a), fmt_resid(r, res, sizeof res));
  printf("  %-8s %-12.4g s/B  +-%.1f%% (%.3g GB/s)  %s, %d sizes %s..%s%s\n", bn, r->f.b,
         rel_se(r->f.se_b, r->f.b), 1e-9 / r->f.b, what, r->sizes,
         fmt_bytes(r->xmin, b1, sizeof b1), fmt_bytes(r->xmax, b2, sizeof b2),
         r->dropped ? " (sizes with a zero median time dropped)" : "");
}

static void print_analysis(const samples *S, const analysis *A) {
  char what[128], res[96];
  printf(
      "fits (least squares on the median of each size, relative-error weights;\n"
      "      residual = RMS relative residual, +- = standard error):\n");
  if (S->s[S_PP_INTER].n) {
    snprintf(what, sizeof what, "ping-pong inter-node, ranks %s", S->s[S_PP_INTER].pair);
    print_line_pair("alpha", "beta", &A->inter, what);
  } else {
    printf("  %-8s (none: every rank is on one node, so no inter-node pair exists)\n", "alpha");
    printf("  %-8s (none: idem)\n", "beta");
  }
  if (S->s[S_PP_INTRA].n) {
    snprintf(what, sizeof what, "ping-pong intra-node, ranks %s", S->s[S_PP_INTRA].pair);
    print_line_pair("alpha_l", "beta_l", &A->intra, what);
  } else {
    printf("  %-8s (none: node 0 has one rank)\n  %-8s (none)\n", "alpha_l", "beta_l");
  }
  const char *where = A->flows_inter ? "inter-node" : "intra-node";
  if (!A->flows_ok) {
    printf("  %-8s concurrent flows: %s\n", "Rb", A->flows_err);
  } else {
    const cs_maxrate_fit *m = &A->flows;
    printf(
        "  %-8s %-12.4g B/s  (%.3g GB/s) %s  residual %.1f%% (max %.0f%%), %s max-rate fit over k = 1..%g\n",
        "Rb", m->Rb, m->Rb * 1e-9, m->rb_identified ? "" : "(>= RN: not identified)",
        100 * m->rms_rel, 100 * m->max_rel, where, A->nk ? A->ks[A->nk - 1] : 0);
    printf("    per k (aggregate rate, residual of its line t = a_k + k m / R_k):");
    for (int i = 0; i < A->nk; i++) {
      if (i == 8 && A->nk > 10) { /* the first 8 and the last */
        printf(", ...");
        i = A->nk - 1;
      }
      printf("%s k=%g %.3g GB/s (%.1f%%)", i ? "," : "", A->ks[i], A->rates[i] * 1e-9,
             100 * A->rate_rms[i]);
    }
    printf("\n");
    if (A->flows_inter)
      printf("  %-8s %-12.4g B/s  (%.3g GB/s) %s; residual: that of Rb (one fit)\n", "RN", m->RN,
             m->RN * 1e-9,
             m->rn_reached ? "reached (the rate stops growing with k)"
                           : "NOT reached by k <= ppn: only a lower bound (= kmax Rb)");
    else
      printf(
          "  %-8s (none: one node, no inter-node rate exists; the intra-node aggregate rate\n"
          "           %s %.3g GB/s; the abg platform has no contention and does not use it)\n",
          "RN", m->rn_reached ? "saturates at" : "was not saturated, >=", m->RN * 1e-9);
  }
  for (int g = 0; g < 2; g++) {
    const line_result *r = g ? &A->memcpy : &A->reduce;
    const char *name = g ? "gamma_mc" : "gamma";
    if (!r->ok) {
      printf("  %-8s %s: %s\n", name, g ? "memcpy" : "MPI_Reduce_local", r->err);
      continue;
    }
    printf(
        "  %-8s %-12.4g s/B  +-%.1f%% (%.3g GB/s)  residual %s, %s, %d sizes, call overhead %.3g s%s\n",
        name, r->f.b, rel_se(r->f.se_b, r->f.b), 1e-9 / r->f.b, fmt_resid(r, res, sizeof res),
        g ? "memcpy" : "MPI_Reduce_local double sum", r->sizes, r->f.a,
        g ? "" : "  <- used as gamma");
  }
}

/* ---- running the driver ------------------------------------------------------- */

typedef struct {
  int smpi, np, quick, reps;
  long max_bytes;
  const char *hostfile, *platform, *samples;
} run_spec;

static int run_driver(const run_spec *rs, const char *tmpdir, const char *label) {
  job_t j;
  memset(&j, 0, sizeof j);
  j.np = rs->np;
  snprintf(j.out, sizeof j.out, "%s/%s.out", tmpdir, label);
  snprintf(j.err, sizeof j.err, "%s/%s.err", tmpdir, label);
  argv_init(&j.args);
  if (rs->smpi) {
    cs_argv_smpirun(&j.args, rs->np, rs->platform, rs->hostfile, 1);
    argv_add(&j.args, "%s/collsim-smpi", cs_self_dir());
  } else {
    cs_argv_mpirun(&j.args, rs->np, rs->hostfile);
    argv_add(&j.args, "%s/collsim-mpi", cs_self_dir());
  }
  argv_add(&j.args, "calibrate");
  argv_add(&j.args, "--samples");
  argv_add(&j.args, "%s", rs->samples);
  if (rs->quick) argv_add(&j.args, "--quick");
  if (rs->reps) argv_add(&j.args, "--reps");
  if (rs->reps) argv_add(&j.args, "%d", rs->reps);
  if (rs->max_bytes) argv_add(&j.args, "--max-bytes");
  if (rs->max_bytes) argv_add(&j.args, "%ld", rs->max_bytes);
  int rc = cs_run_jobs(&j, 1, 1, NULL, NULL);
  int ok = rc == 0 && WIFEXITED(j.status) && WEXITSTATUS(j.status) == 0;
  if (!ok) {
    fprintf(stderr, "collsim calibrate: the %s run (%s) %s; last lines of its stderr:\n", label,
            j.args.v[0], WIFSIGNALED(j.status) ? "was killed" : "failed");
    cs_print_tail(j.err, 12);
  }
  argv_free(&j.args);
  return ok ? 0 : -1;
}

/* ---- output files -------------------------------------------------------------- */

static int mkdir_parent(const char *file) {
  char buf[4096];
  if ((size_t)snprintf(buf, sizeof buf, "%s", file) >= sizeof buf) return -1; /* path too long */
  char *slash = strrchr(buf, '/');
  if (!slash || slash == buf) return 0;
  *slash = '\0';
  return cs_mkdir_p(buf);
}

/* Text safe inside an XML comment: no "--", no '<', '>' or '&' surprises. */
static void comment_safe(char *s) {
  for (char *p = s; *p; p++) {
    if (*p == '-' && p[1] == '-') p[1] = '=';
    if (*p == '<' || *p == '>' || *p == '&') *p = '_';
  }
}

typedef struct {
  cs_platform pl;
  char note[1024]; /* how each parameter was chosen */
} platform_choice;

/* SMPI charges alpha + beta (m + 16) for an m-byte message (CS_SMPI_ENVELOPE):
 * the fitted intercept a (at m = 0) becomes the platform's a - 16 beta. */
static double envelope_alpha(double a, double beta) {
  double x = a - CS_SMPI_ENVELOPE * beta;
  return x > 0 ? x : 0;
}

static int choose_platform(const samples *S, const analysis *A, platform_choice *C) {
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
  if (S->nodes == 1) {
    if (!A->intra.ok || !(A->intra.f.b > 0)) {
      fprintf(stderr, "collsim calibrate: no intra-node alpha/beta: %s\n",
              A->intra.ok ? "non-positive slope" : A->intra.err);
      return -1;
    }
    if (cs_platform_init("abg", &C->pl, err, sizeof err)) goto bad;
    C->pl.np = S->np;
    C->pl.beta = A->intra.f.b;
    C->pl.alpha = envelope_alpha(A->intra.f.a, A->intra.f.b);
    C->pl.gamma = gamma;
    NOTE(
        "abg (one node measured): alpha, beta = the intra-node ping-pong fit (alpha_l, beta_l),\n"
        "alpha reduced by 16 beta for SMPI's 16-byte envelope; no contention is modelled;\n"
        "gamma = MPI_Reduce_local fit.\n");
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
  }
#undef NOTE
  if (cs_platform_check(&C->pl, err, sizeof err)) goto bad;
  return 0;
bad:
  fprintf(stderr, "collsim calibrate: platform: %s\n", err);
  return -1;
}

static int write_platform(const char *xml, const char *hostfile, const samples *S,
                          const analysis *A, const platform_choice *C, const char *samples_path,
                          double seconds) {
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
  ADD("Raw samples: %s\nFits (relative-error least squares on per-size medians; res = RMS relative residual):\n",
      samples_path);
  const line_result *L[4] = {&A->inter, &A->intra, &A->reduce, &A->memcpy};
  const char *names[4][2] = {{"alpha", "beta"},
                             {"alpha_l", "beta_l"},
                             {"gamma call overhead", "gamma"},
                             {"memcpy call overhead", "gamma_memcpy"}};
  for (int i = 0; i < 4; i++)
    if (L[i]->ok)
      ADD("  %s = %.6g s, %s = %.6g s/byte, res %.2f%%, %d sizes\n", names[i][0], L[i]->f.a,
          names[i][1], L[i]->f.b, 100 * L[i]->f.rms_rel, L[i]->sizes);
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

/* ---- verification: the written platform, measured under smpirun ------------------ */

static double rel_diff(double got, double want) {
  return want != 0 ? fabs(got - want) / fabs(want) : fabs(got);
}

/* Re-measures the written platform with the same driver under smpirun and
 * compares the fitted figures with the platform's parameters (an m-byte message
 * of SMPI costs alpha + beta (m + 16), so the fitted intercept is alpha + 16 beta).
 * Returns the largest relative difference, or -1 if the run failed. */
static double verify(const char *xml, const char *hostfile, const cs_platform *pl,
                     const char *tmpdir) {
  char spath[4300];
  snprintf(spath, sizeof spath, "%s/verify-samples.csv", tmpdir);
  run_spec rs = {1, pl->np, 1, 0, 0, hostfile, xml, spath};
  if (run_driver(&rs, tmpdir, "verify")) return -1;
  samples V;
  if (read_samples(spath, &V)) return -1;
  analysis B;
  analyze(&V, &B);
  double worst = 0;
  int checks = 0;
  printf("verify: the same driver under smpirun on %s (%d ranks):\n", xml, pl->np);
#define CHECK(name, got, want)                                                                 \
  do {                                                                                         \
    double d_ = rel_diff(got, want);                                                           \
    printf("  %-8s simulated %-12.6g platform %-12.6g rel. diff %.2g\n", name, got, want, d_); \
    if (d_ > worst) worst = d_;                                                                \
    checks++;                                                                                  \
  } while (0)
  /* Every host of the written files is a node of its own (abg) or named node<N>-<j>
   * (maxrate), so rank 0's partner of the ping-pong is always on another node. */
  const line_result *pp = &B.inter;
  if (pp->ok) {
    CHECK("alpha", pp->f.a, pl->alpha + 16 * pl->beta);
    CHECK("beta", pp->f.b, pl->beta);
  }
  if (pl->kind != CS_PLAT_ABG && B.intra.ok) {
    CHECK("alpha_l", B.intra.f.a, pl->alpha_l + 16 * pl->beta_l);
    CHECK("beta_l", B.intra.f.b, pl->beta_l);
  }
  if (pl->kind != CS_PLAT_ABG && B.flows_ok && B.flows_inter) {
    CHECK("Rb", B.flows.Rb, pl->Rb);
    if (B.flows.rn_reached) CHECK("RN", B.flows.RN, pl->RN);
  }
  if (B.reduce.ok) CHECK("gamma", B.reduce.f.b, pl->gamma);
#undef CHECK
  samples_free(&V);
  if (checks == 0) {
    printf("  nothing could be compared\n");
    return -1;
  }
  return worst;
}

/* ---- the command ----------------------------------------------------------------- */

int cmd_calibrate(int argc, char **argv) {
  const char *np_s = "2", *hostfile = NULL, *backend = "mpi", *platform = NULL,
             *out = "results/calibrate/platform.xml", *samples_path = NULL;
  int quick = 0, reps = 0, do_verify = 1;
  long max_bytes = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *val = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name, var)                                                \
  if (!strcmp(a, name)) {                                             \
    if (!val) {                                                       \
      fprintf(stderr, "collsim calibrate: %s needs a value\n", name); \
      return 2;                                                       \
    }                                                                 \
    var = val;                                                        \
    i++;                                                              \
    continue;                                                         \
  }
    OPT("--np", np_s)
    OPT("--hostfile", hostfile) OPT("--backend", backend) OPT("--platform", platform)
        OPT("--out", out) OPT("--samples", samples_path)
#undef OPT
            if (!strcmp(a, "--quick")) quick = 1;
    else if (!strcmp(a, "--no-verify")) do_verify = 0;
    else if (!strcmp(a, "--reps") || !strcmp(a, "--max-bytes")) {
      char *end;
      long v = val ? strtol(val, &end, 10) : 0;
      int is_reps = a[2] == 'r';
      if (!val || *end || end == val ||
          (is_reps ? v < 1 || v > 100000 : v < 16 || v > (1L << 30))) {
        fprintf(stderr, "collsim calibrate: %s needs %s\n", a,
                is_reps ? "a number of repetitions 1..100000" : "a byte count 16..1073741824");
        return 2;
      }
      if (is_reps)
        reps = (int)v;
      else
        max_bytes = v;
      i++;
    }
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      cal_usage(stdout);
      return 0;
    }
    else {
      fprintf(
          stderr,
          "collsim calibrate: unknown option '%s' (valid: --np, --hostfile, --backend, --platform, "
          "--out, --samples, --quick, --reps, --max-bytes, --no-verify, --help)\n",
          a);
      return 2;
    }
  }
  int smpi = !strcmp(backend, "smpi");
  if (!smpi && strcmp(backend, "mpi")) {
    fprintf(stderr, "collsim calibrate: unknown --backend '%s' (valid: mpi, smpi)\n", backend);
    return 2;
  }
  if (smpi != (platform != NULL)) {
    fprintf(stderr, "collsim calibrate: %s\n",
            smpi ? "--backend smpi needs --platform FILE.xml (the simulated machine to measure)"
                 : "--platform goes with --backend smpi only");
    return 2;
  }
  char *end;
  long np = strtol(np_s, &end, 10);
  if (*end || end == np_s || np < 2 || np > 100000) {
    fprintf(
        stderr,
        "collsim calibrate: --np '%s': needs a number of processes >= 2 (ping-pong needs a pair)\n",
        np_s);
    return 2;
  }
  size_t ol = strlen(out);
  if (ol < 5 || strcmp(out + ol - 4, ".xml")) {
    fprintf(stderr, "collsim calibrate: --out '%s': the platform file name must end in .xml\n",
            out);
    return 2;
  }
  const char *inputs[2] = {hostfile, platform};
  for (int i = 0; i < 2; i++)
    if (inputs[i] && access(inputs[i], R_OK)) {
      fprintf(stderr, "collsim calibrate: cannot read %s: %s\n", inputs[i], strerror(errno));
      return 2;
    }
  char stem[4096], hf_out[4200], samp[4200];
  snprintf(stem, sizeof stem, "%.*s", (int)(ol - 4), out);
  snprintf(hf_out, sizeof hf_out, "%s.hostfile", stem);
  if (samples_path)
    snprintf(samp, sizeof samp, "%s", samples_path);
  else
    snprintf(samp, sizeof samp, "%s-samples.csv", stem);
  if (mkdir_parent(out) || mkdir_parent(samp)) {
    fprintf(stderr, "collsim calibrate: cannot create the directory of %s or %s: %s\n", out, samp,
            strerror(errno));
    return 1;
  }
  char tmp[4096];
  if (cs_make_tmpdir(tmp, sizeof tmp)) {
    perror("collsim calibrate: temporary directory");
    return 1;
  }

  printf("collsim calibrate: measuring with %d ranks (%s%s%s)...\n", (int)np,
         smpi ? "smpirun, " : "mpirun", smpi ? "platform " : "", smpi ? platform : "");
  fflush(stdout);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  run_spec rs = {smpi, (int)np, quick, reps, max_bytes, hostfile, platform, samp};
  int rc = 1;
  samples S;
  memset(&S, 0, sizeof S);
  if (run_driver(&rs, tmp, "measure")) goto done;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  if (read_samples(samp, &S)) goto done;
  printf("measured %d ranks on %d node%s (node 0: %s, %d ranks), %s, in %.1f s: %ld samples\n",
         S.np, S.nodes, S.nodes == 1 ? "" : "s", S.node_host[0], S.node_ranks[0], S.library, secs,
         S.rows);
  analysis A;
  analyze(&S, &A);
  print_analysis(&S, &A);
  platform_choice C;
  if (choose_platform(&S, &A, &C)) goto done;
  if (write_platform(out, hf_out, &S, &A, &C, samp, secs)) goto done;
  printf("platform: %s", C.note);
  if (C.pl.kind == CS_PLAT_ABG)
    printf("  written: abg, %d ranks (one per host): alpha %.4g s, beta %.4g s/B, gamma %.4g s/B\n",
           C.pl.np, C.pl.alpha, C.pl.beta, C.pl.gamma);
  else
    printf(
        "  written: %s, %d nodes x %d ranks: alpha %.4g s, Rb %.4g B/s, RN %.4g B/s (beta %.4g s/B),\n"
        "           alpha_l %.4g s, beta_l %.4g s/B, gamma %.4g s/B\n",
        cs_platform_kind_name(C.pl.kind), C.pl.nodes, C.pl.ppn, C.pl.alpha, C.pl.Rb, C.pl.RN,
        C.pl.beta, C.pl.alpha_l, C.pl.beta_l, C.pl.gamma);
  rc = 0;
  if (do_verify) {
    double worst = verify(out, hf_out, &C.pl, tmp);
    if (worst < 0) {
      printf("verify: FAILED (smpirun could not run the written platform)\n");
      rc = 1;
    } else if (worst > 0.01) {
      printf("verify: FAILED (largest relative difference %.3g > 1%%)\n", worst);
      rc = 1;
    } else {
      printf(
          "verify: ok (smpirun loads the platform and reproduces the fit; largest rel. diff %.2g)\n",
          worst);
    }
  }
  printf("files:\n  platform  %s\n  hostfile  %s\n  samples   %s\n", out, hf_out, samp);
  printf("use: smpirun -np %d -platform %s -hostfile %s -no-privatize %s PROGRAM\n", C.pl.np, out,
         hf_out, cs_platform_smpirun_flags());
done:
  samples_free(&S);
  cs_rm_tree(tmp);
  return rc;
}
