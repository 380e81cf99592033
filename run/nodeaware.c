/* ./collsim nodeaware: the NAP seed's study (run/nodeaware.h). */
#include "nodeaware.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "bench.h"
#include "files.h"
#include "foreign.h"
#include "model.h"
#include "platgen.h"
#include "platmodel.h"
#include "plot.h"
#include "results.h"

#define PPN   16    /* the paper's processes per node (Sec. V) */
#define PMAX  32768 /* the paper's largest p (Figs. 10-15) */
#define NROWS 3     /* RD, SMP, NAP */
#define NLIB  3
/* The exact models are priced up to this p: at 32768 one costs 10 to 100 s
 * here (the SMP's at 8 B), at 4096 at most 2 s; the equations everywhere. */
#define PEXACT 4096

/* The paper's labels, in the order of the rows. */
static const char *const label[NROWS] = {"RD", "SMP", "NAP"};
/* SMPI's node-aware algorithms and the libraries' selectors that use them
 * (they see the nodes: one host per node on bluewaters). */
static const char *const libs[NLIB] = {"native:smp_rdb", "lib:mpich", "lib:mvapich2"};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The registry's allreduce row of formula f, or NULL. */
static const cs_algo_info *row_of(cs_coll coll, cs_formula f) {
  for (int i = 0; i < cs_nalgos; i++)
    if (cs_algos[i].coll == coll && cs_algos[i].formula == f && !(cs_algos[i].flags & CS_NATIVE))
      return &cs_algos[i];
  return NULL;
}

/* COLLSIM_INNER for the paper's SMP (Sec. II-A, Fig. 4): the node reduce and
 * bcast by binomial trees, recursive doubling among the leaders; the rows are
 * the registry's by formula. */
static int set_smp_inner(void) {
  const cs_algo_info *r = row_of(CS_reduce, CS_F_bintree),
                     *a = row_of(CS_allreduce, CS_F_butterfly),
                     *b = row_of(CS_bcast, CS_F_binomial);
  if (!r || !a || !b) {
    fprintf(stderr, "collsim nodeaware: the registry lacks the SMP's inner rows\n");
    return -1;
  }
  char v[256];
  snprintf(v, sizeof v, "reduce:%s,allreduce:%s,bcast:%s", r->name, a->name, b->name);
  setenv("COLLSIM_INNER", v, 1);
  return 0;
}

static int is_pow(long n, long base) {
  while (n > 1 && n % base == 0) n /= base;
  return n == 1;
}

/* ---- the models (Figs. 10-11) --------------------------------------------- */

/* One model line: eq and (when sampled) the exact model. */
static int model_line(FILE *f, const cs_model *mo, const cs_algo_info *row, const char *lab, int p,
                      long m, int exact, double *eq_out, double *ex_out) {
  double eq = NAN, tm = NAN;
  char err[512] = "";
  if (cs_table1_time(mo, CS_allreduce, row->name, p, m, &eq) != 0) eq = NAN;
  if (exact) {
    cs_case c = {CS_allreduce, row->name, p, m, 0, 0};
    if (cs_model_time(mo, &c, &tm, err, sizeof err) != 0) {
      fprintf(stderr, "collsim nodeaware: model of %s at p = %d, %ld B: %s\n", row->name, p, m,
              err);
      return -1;
    }
  }
  if (eq_out) *eq_out = eq;
  if (ex_out) *ex_out = tm;
  fprintf(f, "%s,%s,%d,%d,%ld,", lab, row->name, p, p / PPN, m);
  if (!isnan(eq)) fprintf(f, "%.10g", eq);
  fputc(',', f);
  if (!isnan(tm)) fprintf(f, "%.10g", tm);
  fputc('\n', f);
  return 0;
}

/* The sizes of Figs. 11, 14 and 15: one double to 64 Ki doubles. */
static const long sizes_full[] = {8, 32, 128, 512, 1024, 2048, 4096, 8192, 32768, 131072, 524288};
static const long sizes_sim[] = {8, 64, 512, 2048, 8192, 32768};
static const long sizes_quick[] = {8, 4096};

/* The exact model's sample of node counts (Fig. 10): every power of two and
 * non-powers of ppn, multiples of ppn and not. */
static int sampled(long n) {
  static const long extra[] = {3, 5, 20, 48, 100};
  if (n * PPN > PEXACT) return 0;
  if ((n & (n - 1)) == 0) return 1;
  for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
    if (extra[i] == n) return 1;
  return 0;
}

/* eq (at pbig), eqs and ex (at psmall) of Fig. 11 for the summary */
static int run_models(const char *dir, const cs_model *mo, const cs_algo_info *const *rows,
                      int pbig, int psmall, double eq[][16], double eqs[][16], double ex[][16],
                      double *wall) {
  double t0 = now();
  char path[4300];
  int nmax = pbig / PPN;
  snprintf(path, sizeof path, "%s/model-p.csv", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "collsim nodeaware: %s: %s\n", path, strerror(errno));
    return 1;
  }
  fprintf(f,
          "# collsim nodeaware: Fig. 10, one double (8 B), eqs. 4-6 for every p, the exact\n"
          "# models of the kernels at a sample of p (model_s empty elsewhere)\n");
  cs_csv_command(f, cs_command());
  fprintf(f, "label,algo,p,nodes,bytes,eq_s,model_s\n");
  for (long n = 1; n <= nmax; n++)
    for (int a = 0; a < NROWS; a++)
      if (model_line(f, mo, rows[a], label[a], (int)(n * PPN), 8, sampled(n), NULL, NULL)) {
        fclose(f);
        return 1;
      }
  fclose(f);
  snprintf(path, sizeof path, "%s/model-size.csv", dir);
  f = fopen(path, "w");
  if (!f) return 1;
  fprintf(f,
          "# collsim nodeaware: Fig. 11, eqs. 4-6 at %d processes, eqs. 4-6 and the exact\n"
          "# models at %d processes\n",
          pbig, psmall);
  cs_csv_command(f, cs_command());
  fprintf(f, "label,algo,p,nodes,bytes,eq_s,model_s\n");
  for (int k = 0; k < 2; k++)
    for (size_t z = 0; z < sizeof sizes_full / sizeof sizes_full[0]; z++)
      for (int a = 0; a < NROWS; a++)
        if (model_line(f, mo, rows[a], label[a], k ? pbig : psmall, sizes_full[z], !k,
                       k ? &eq[a][z] : &eqs[a][z], k ? NULL : &ex[a][z])) {
          fclose(f);
          return 1;
        }
  fclose(f);
  *wall = now() - t0;
  return 0;
}

/* ---- the simulations (Figs. 12-15) ---------------------------------------- */

typedef struct {
  const char *algo;
  int p;
  long bytes;
  double t;    /* simulated seconds, or -1 */
  double wall; /* seconds of this run (0 when resumed from an earlier run) */
} sim_row;

/* One bench run of algo at p for the sizes, into dir/sim/p<P>.csv (resumed).
 * Returns its wall seconds, or -1 on failure. */
static double bench_one(const char *dir, const char *xml, const char *hosts, int p,
                        const char *algo, const long *sizes, int nsizes) {
  cs_bench_req q;
  cs_bench_defaults(&q);
  q.smpi = 1;
  snprintf(q.xml, sizeof q.xml, "%s", xml);
  snprintf(q.hosts, sizeof q.hosts, "%s", hosts);
  q.np = p;
  q.coll = CS_allreduce;
  q.algos[0] = algo;
  q.nalgos = 1;
  q.type = CS_BENCH_DOUBLE;
  for (int i = 0; i < nsizes; i++) q.bytes[i] = sizes[i];
  q.nbytes = nsizes;
  char path[4300], stage[64];
  snprintf(path, sizeof path, "%s/sim/p%d.csv", dir, p);
  snprintf(stage, sizeof stage, "p = %d", p);
  q.out = path;
  q.quiet = 1;
  q.verify = 1; /* the library's results; collsim's rows are proven by check */
  q.stage = stage;
  double t0 = now();
  int rc = cs_bench_run(&q);
  return rc ? -1 : now() - t0;
}

/* The wall seconds of the run of algo at p (DIR/sim/walls.csv: algo,p,wall_s), 0 if none. */
static double recorded_wall(const char *dir, const char *algo, int p) {
  char path[4300], line[512], a[256];
  snprintf(path, sizeof path, "%s/sim/walls.csv", dir);
  FILE *f = fopen(path, "r");
  double w = 0, v;
  int pp;
  if (!f) return 0;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "%255[^,],%d,%lf", a, &pp, &v) == 3 && pp == p && !strcmp(a, algo)) w = v;
  fclose(f);
  return w;
}

static void record_wall(const char *dir, const char *algo, int p, double w) {
  char path[4300];
  snprintf(path, sizeof path, "%s/sim/walls.csv", dir);
  FILE *f = fopen(path, "a");
  if (!f) return;
  fprintf(f, "%s,%d,%.1f\n", algo, p, w);
  fclose(f);
}

/* The ratio t(num) / t(den) of two rows of a table, or -1. */
static double ratio(const sim_row *s, int n, const char *num, const char *den, int p, long b) {
  double a = -1, d = -1;
  for (int i = 0; i < n; i++)
    if (s[i].p == p && s[i].bytes == b) {
      if (!strcmp(s[i].algo, num)) a = s[i].t;
      if (!strcmp(s[i].algo, den)) d = s[i].t;
    }
  return a > 0 && d > 0 ? a / d : -1;
}

static int draw(const char *dir, const char *algos, const char *algos_size, int psize, int pmodel,
                int pexact) {
  char assign[16384];
  snprintf(assign, sizeof assign,
           "dir='%s'; algos='%s'; algos_size='%s'; psize=%d; pmodel=%d; pexact=%d", dir, algos,
           algos_size, psize, pmodel, pexact);
  return cs_gnuplot_script("collsim nodeaware", "nodeaware.gp", assign);
}

/* The sizes of the grid where t[z] < u[z] (and < v[z] if v), as ranges
 * "8-512 B, 4096 B", or "no size of the grid". */
static const char *sizes_where(const double *t, const double *u, const double *v, const long *sizes,
                               int n, char *buf) {
  size_t k = 0;
  buf[0] = '\0';
  for (int z = 0; z < n; z++) {
    int in = t[z] < u[z] && (!v || t[z] < v[z]);
    if (!in) continue;
    int last = z;
    while (last + 1 < n && t[last + 1] < u[last + 1] && (!v || t[last + 1] < v[last + 1])) last++;
    if (last > z)
      k += (size_t)snprintf(buf + k, 512 - k, "%s%ld-%ld B", k ? ", " : "", sizes[z], sizes[last]);
    else
      k += (size_t)snprintf(buf + k, 512 - k, "%s%ld B", k ? ", " : "", sizes[z]);
    z = last;
    if (k >= 480) break;
  }
  return k ? buf : "no size of the grid";
}

/* Where SMP overtakes NAP along the sizes (smp, tn: SMP's and NAP's times, <= 0 where
 * missing): a phrase in buf. */
static const char *crossover(const double *smp, const double *tn, const long *sizes, int n,
                             char *buf, size_t len) {
  int first = -1, have = 0;
  for (int z = 0; z < n && first < 0; z++) {
    if (!(smp[z] > 0 && tn[z] > 0)) continue;
    have = 1;
    if (smp[z] < tn[z]) first = z;
  }
  if (!have)
    snprintf(buf, len, "not measured");
  else if (first < 0)
    snprintf(buf, len, "none from %ld B to %ld B: NAP ahead of SMP at every size", sizes[0],
             sizes[n - 1]);
  else if (first == 0 || !(tn[first - 1] > 0))
    snprintf(buf, len, "none: SMP ahead of NAP already at %ld B (%.2fx)", sizes[first],
             tn[first] / smp[first]);
  else
    snprintf(buf, len,
             "between %ld B and %ld B (NAP ahead at %ld B, SMP / NAP = %.2f; SMP ahead at %ld B, "
             "NAP / SMP = %.2f)",
             sizes[first - 1], sizes[first], sizes[first - 1], smp[first - 1] / tn[first - 1],
             sizes[first], tn[first] / smp[first]);
  return buf;
}

/* The sizes of the equations' crossover search: 8 B doubled up to 64 MiB. */
enum { NDENSE = 24 };

int cs_nodeaware_study(const cs_nodeaware_req *q) {
  double t_start = now();
  const cs_algo_info *rows[NROWS] = {row_of(CS_allreduce, CS_F_butterfly),
                                     row_of(CS_allreduce, CS_F_smp),
                                     row_of(CS_allreduce, CS_F_nap)};
  for (int a = 0; a < NROWS; a++)
    if (!rows[a]) {
      fprintf(stderr, "collsim nodeaware: the registry has no allreduce row for %s\n", label[a]);
      return 1;
    }
  if (set_smp_inner()) return 1;
  int quick = q->quick, max_p = q->max_p > 0 ? q->max_p : quick ? 64 : PMAX;
  double cap = q->cap > 0 ? q->cap : quick ? 30 : 60;
  if (max_p % PPN || max_p > PMAX) {
    fprintf(stderr, "collsim nodeaware: --max-p %d: a multiple of %d up to %d\n", max_p, PPN, PMAX);
    return 2;
  }
  char sub[4000], xml[4096], hosts[4096], path[4300];
  if (strlen(q->dir) > 3900) {
    fprintf(stderr, "collsim nodeaware: --out: a path shorter than 3900 characters\n");
    return 2;
  }
  snprintf(sub, sizeof sub, "%s/sim", q->dir);
  if (cs_mkdir_p(sub)) {
    fprintf(stderr, "collsim nodeaware: cannot create %s: %s\n", sub, strerror(errno));
    return 1;
  }
  /* The platform: Blue Waters (platforms/platgen.c), max_p / 16 nodes of 16;
   * a run of p ranks takes the first p / 16 nodes (block placement). */
  cs_platform pl;
  char err[512];
  if (cs_platform_named("bluewaters", &pl, err, sizeof err)) {
    fprintf(stderr, "collsim nodeaware: %s\n", err);
    return 1;
  }
  pl.ppn = PPN;
  pl.nodes = max_p / PPN;
  if (cs_platform_check(&pl, err, sizeof err)) {
    fprintf(stderr, "collsim nodeaware: %s\n", err);
    return 1;
  }
  snprintf(xml, sizeof xml, "%s/bluewaters-%d.xml", sub, max_p);
  snprintf(hosts, sizeof hosts, "%s/bluewaters-%d.hostfile", sub, max_p);
  FILE *fx = fopen(xml, "w"), *fh = fopen(hosts, "w");
  int wrc = fx && fh ? cs_platform_write(fx, fh, &pl) : -1;
  if (fx) fclose(fx);
  if (fh) fclose(fh);
  if (wrc) {
    fprintf(stderr, "collsim nodeaware: cannot write %s\n", xml);
    return 1;
  }
  /* 1. The models: the max-rate model of the platform (exact on it). */
  cs_model mo;
  if (cs_model_from_platform(xml, &mo, err, sizeof err)) {
    fprintf(stderr, "collsim nodeaware: %s\n", err);
    return 1;
  }
  double mwall = 0;
  int pbig = quick ? 1024 : PMAX, psmall = quick ? 256 : PEXACT;
  int nz = (int)(sizeof sizes_full / sizeof sizes_full[0]);
  double eq[NROWS][16], eqs[NROWS][16], ex[NROWS][16];
  fprintf(stderr, "collsim nodeaware: the models (Figs. 10-11)\n");
  if (run_models(q->dir, &mo, rows, pbig, psmall, eq, eqs, ex, &mwall)) return 1;
  fprintf(stderr, "collsim nodeaware: models in %.1f s\n", mwall);

  /* 2. The simulations. p = 16 n for a sample of n (Figs. 12-13, 8 B). */
  static const int nsample[] = {1, 2, 3, 4, 8, 16, 20, 32, 64, 100, 128, 256, 512, 1024, 2048};
  const long *szs = quick ? sizes_quick : sizes_sim;
  int nszs = quick ? 2 : (int)(sizeof sizes_sim / sizeof sizes_sim[0]);
  int np_ = 0, ps[32];
  for (size_t i = 0; i < sizeof nsample / sizeof nsample[0]; i++)
    if (nsample[i] * PPN <= max_p && (!quick || nsample[i] <= 4)) ps[np_++] = nsample[i] * PPN;
  int psize = ps[np_ - 1]; /* Figs. 14-15 at the largest p simulated */
  sim_row *sr = calloc((size_t)(np_ + 1) * (NROWS + NLIB) * 16, sizeof *sr);
  int nsr = 0;
  double lib_stop[NLIB] = {0}; /* the wall of the run that stopped a library row */
  int lib_last[NLIB] = {0}, lib_stopped_at[NLIB] = {0};
  if (!sr) return 1;
  const long one[1] = {8};
  for (int k = 0; k < np_ && !q->no_sim; k++) {
    int p = ps[k];
    int full = p == psize;
    const long *bs = full ? szs : one;
    int nb = full ? nszs : 1;
    for (int a = 0; a < NROWS + NLIB; a++) {
      const char *algo = a < NROWS ? rows[a]->name : libs[a - NROWS];
      if (a >= NROWS && lib_stopped_at[a - NROWS]) continue;
      fprintf(stderr, "collsim nodeaware: p = %d, %s\n", p, algo);
      /* a resumed row keeps the wall of the run that made it (DIR/sim/walls.csv),
       * so that the cap stops the same rows as before */
      snprintf(path, sizeof path, "%s/sim/p%d.csv", q->dir, p);
      int have = 1;
      for (int z = 0; z < nb; z++) have = have && cs_bench_lookup(path, algo, bs[z]) > 0;
      double w =
          have ? recorded_wall(q->dir, algo, p) : bench_one(q->dir, xml, hosts, p, algo, bs, nb);
      if (!have && w >= 0) record_wall(q->dir, algo, p, w);
      if (w < 0) {
        fprintf(stderr, "collsim nodeaware: the run of %s at p = %d failed\n", algo, p);
        free(sr);
        return 1;
      }
      snprintf(path, sizeof path, "%s/sim/p%d.csv", q->dir, p);
      for (int z = 0; z < nb; z++) {
        sr[nsr].algo = algo;
        sr[nsr].p = p;
        sr[nsr].bytes = bs[z];
        sr[nsr].t = cs_bench_lookup(path, algo, bs[z]);
        sr[nsr].wall = w;
        nsr++;
      }
      if (a >= NROWS) {
        lib_last[a - NROWS] = p;
        if (w > cap) {
          lib_stopped_at[a - NROWS] = p;
          lib_stop[a - NROWS] = w;
        }
      }
    }
  }
  double swall = now() - t_start - mwall;
  /* The tables the pictures read. */
  snprintf(path, sizeof path, "%s/sim-p.csv", q->dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    free(sr);
    return 1;
  }
  fprintf(f, "# collsim nodeaware: Figs. 12-13, one double (8 B), simulated on %s\n", xml);
  cs_csv_command(f, cs_command());
  fprintf(f, "label,algo,p,nodes,bytes,time_s,wall_s,rd_over,smp_over\n");
  for (int i = 0; i < nsr; i++) {
    if (sr[i].bytes != 8 || sr[i].t <= 0) continue;
    const char *lab = sr[i].algo;
    for (int a = 0; a < NROWS; a++)
      if (!strcmp(sr[i].algo, rows[a]->name)) lab = label[a];
    fprintf(f, "%s,%s,%d,%d,%ld,%.10g,%.1f,%.6g,%.6g\n", lab, sr[i].algo, sr[i].p, sr[i].p / PPN,
            sr[i].bytes, sr[i].t, sr[i].wall, ratio(sr, nsr, rows[0]->name, sr[i].algo, sr[i].p, 8),
            ratio(sr, nsr, rows[1]->name, sr[i].algo, sr[i].p, 8));
  }
  fclose(f);
  snprintf(path, sizeof path, "%s/sim-size.csv", q->dir);
  f = fopen(path, "w");
  if (!f) {
    free(sr);
    return 1;
  }
  fprintf(f, "# collsim nodeaware: Figs. 14-15, %d processes, simulated on %s\n", psize, xml);
  cs_csv_command(f, cs_command());
  fprintf(f, "label,algo,p,nodes,bytes,time_s,wall_s,rd_over,smp_over\n");
  for (int i = 0; i < nsr; i++) {
    if (sr[i].p != psize || sr[i].t <= 0) continue;
    const char *lab = sr[i].algo;
    for (int a = 0; a < NROWS; a++)
      if (!strcmp(sr[i].algo, rows[a]->name)) lab = label[a];
    fprintf(f, "%s,%s,%d,%d,%ld,%.10g,%.1f,%.6g,%.6g\n", lab, sr[i].algo, sr[i].p, sr[i].p / PPN,
            sr[i].bytes, sr[i].t, sr[i].wall,
            ratio(sr, nsr, rows[0]->name, sr[i].algo, sr[i].p, sr[i].bytes),
            ratio(sr, nsr, rows[1]->name, sr[i].algo, sr[i].p, sr[i].bytes));
  }
  fclose(f);
  /* the labels of the rows at psize (the library rows may have stopped below) */
  char algos[512], algos_size[512];
  snprintf(algos, sizeof algos, "%s %s %s %s %s %s", label[0], label[1], label[2], libs[0], libs[1],
           libs[2]);
  snprintf(algos_size, sizeof algos_size, "%s %s %s", label[0], label[1], label[2]);
  for (int l = 0; l < NLIB; l++)
    if (!lib_stopped_at[l] || lib_stopped_at[l] >= psize)
      snprintf(algos_size + strlen(algos_size), sizeof algos_size - strlen(algos_size), " %s",
               libs[l]);
  snprintf(path, sizeof path, "%s/plots", q->dir);
  if (cs_mkdir_p(path)) {
    free(sr);
    return 1;
  }
  int drawn = draw(q->dir, algos, algos_size, q->no_sim ? 0 : psize, pbig, psmall);

  /* 3. The summary. */
  snprintf(path, sizeof path, "%s/summary.md", q->dir);
  f = fopen(path, "w");
  if (!f) {
    free(sr);
    return 1;
  }
  fprintf(f,
          "# Node-aware allreduce: RD, SMP and NAP (Bienz, Olson, Gropp 2019)\n\n"
          "Made by `%s` (%.0f s of wall time: models %.1f s, simulations %.0f s).\n"
          "RD is the registry's `%s`, SMP `%s` with COLLSIM_INNER=%s, NAP `%s`;\n"
          "16 processes per node on the bluewaters platform (platforms/platgen.c: the paper's\n"
          "max-rate parameters as RAPtor fitted them, Gemini's NIC rate). Pictures in plots/,\n"
          "tables model-p.csv, model-size.csv, sim-p.csv, sim-size.csv (docs/csv.md).\n"
          "What the differences mean: docs/%s.md.\n\n",
          cs_command(), now() - t_start, mwall, swall, rows[0]->name, rows[1]->name,
          getenv("COLLSIM_INNER"), rows[2]->name, rows[2]->name);
  fprintf(
      f,
      "## The models (Fig. 11)\n\nEquations at %d processes; equations and the exact models of the kernels at %d\n"
      "(an exact model at %d costs 10 to 100 s here: model-p.csv has them up to %d).\n\n| bytes |",
      pbig, psmall, pbig, psmall);
  for (int a = 0; a < NROWS; a++) fprintf(f, " eq. %d %s, %d (us) |", 4 + a, label[a], pbig);
  for (int a = 0; a < NROWS; a++)
    fprintf(f, " eq. %d %s, %d (us) | model %s (us) |", 4 + a, label[a], psmall, label[a]);
  fprintf(f, "\n|---|");
  for (int a = 0; a < 3 * NROWS; a++) fprintf(f, "---|");
  fputc('\n', f);
  for (int z = 0; z < nz; z++) {
    fprintf(f, "| %ld |", sizes_full[z]);
    for (int a = 0; a < NROWS; a++) fprintf(f, " %.2f |", 1e6 * eq[a][z]);
    for (int a = 0; a < NROWS; a++) fprintf(f, " %.2f | %.2f |", 1e6 * eqs[a][z], 1e6 * ex[a][z]);
    fputc('\n', f);
  }
  double st[NROWS][16]; /* simulated against the size at psize */
  for (int a = 0; a < NROWS; a++)
    for (int z = 0; z < 16; z++) st[a][z] = -1;
  /* Where NAP leads both, and where SMP is ahead of NAP: the sizes of the grid. */
  char l1[512], l2[512], l3[512], l4[512];
  fprintf(f,
          "\n**Crossover (computed on the size grid above).** Equations at %d processes: NAP is\n"
          "ahead of RD and SMP at %s; SMP is ahead of NAP at %s. Exact models of the kernels\n"
          "at %d: NAP ahead of both at %s; SMP ahead of NAP at %s.\n"
          "The paper (32768 processes): NAP ahead of RD and SMP below ~2 KiB (2048 B), SMP ahead\n"
          "above.\n\n",
          pbig, sizes_where(eq[2], eq[0], eq[1], sizes_full, nz, l1),
          sizes_where(eq[1], eq[2], NULL, sizes_full, nz, l2), psmall,
          sizes_where(ex[2], ex[0], ex[1], sizes_full, nz, l3),
          sizes_where(ex[1], ex[2], NULL, sizes_full, nz, l4));
  if (!q->no_sim) {
    fprintf(f,
            "## Simulated, one double against p (Figs. 12-13)\n\n"
            "| p | nodes | RD (us) | SMP (us) | NAP (us) | RD / NAP | SMP / NAP | power of 16 |\n"
            "|---|---|---|---|---|---|---|---|\n");
    double best = 0;
    int pbest = 0;
    for (int k = 0; k < np_; k++) {
      int p = ps[k];
      fprintf(f, "| %d | %d |", p, p / PPN);
      for (int a = 0; a < NROWS; a++) {
        double v = -1;
        for (int i = 0; i < nsr; i++)
          if (sr[i].p == p && sr[i].bytes == 8 && !strcmp(sr[i].algo, rows[a]->name)) v = sr[i].t;
        fprintf(f, " %.2f |", 1e6 * v);
      }
      double r0 = ratio(sr, nsr, rows[0]->name, rows[2]->name, p, 8),
             r1 = ratio(sr, nsr, rows[1]->name, rows[2]->name, p, 8);
      fprintf(f, " %.2f | %.2f | %s |\n", r0, r1, is_pow(p, PPN) ? "yes" : "");
      if (fmin(r0, r1) > best) {
        best = fmin(r0, r1);
        pbest = p;
      }
    }
    fprintf(
        f,
        "\nLargest speedup of NAP over both (min of the two ratios): %.2f at p = %d (%sa power\n"
        "of 16). The paper: the largest speedups at powers of ppn.\n\n",
        best, pbest, is_pow(pbest, PPN) ? "" : "not ");
    fprintf(f,
            "## Simulated against the size at %d processes (Figs. 14-15)\n\n"
            "| bytes | RD (us) | SMP (us) | NAP (us) | RD / NAP | SMP / NAP |\n"
            "|---|---|---|---|---|---|\n",
            psize);
    for (int z = 0; z < nszs; z++) {
      fprintf(f, "| %ld |", szs[z]);
      for (int a = 0; a < NROWS; a++) {
        st[a][z] = -1;
        for (int i = 0; i < nsr; i++)
          if (sr[i].p == psize && sr[i].bytes == szs[z] && !strcmp(sr[i].algo, rows[a]->name))
            st[a][z] = sr[i].t;
        fprintf(f, " %.2f |", 1e6 * st[a][z]);
      }
      fprintf(f, " %.2f | %.2f |\n", ratio(sr, nsr, rows[0]->name, rows[2]->name, psize, szs[z]),
              ratio(sr, nsr, rows[1]->name, rows[2]->name, psize, szs[z]));
    }
    fprintf(
        f,
        "\nSimulated at %d processes: NAP ahead of RD and SMP at %s; SMP ahead of NAP at\n%s.\n\n",
        psize, sizes_where(st[2], st[0], st[1], szs, nszs, l1),
        sizes_where(st[1], st[2], NULL, szs, nszs, l2));
  }
  /* The crossover at the paper's p: simulated, and eqs. 5-6 on a finer grid
   * to 64 MiB (they cost nothing), with their growth per byte at the top. */
  {
    long dense[NDENSE];
    double e5[NDENSE], e6[NDENSE];
    for (int z = 0; z < NDENSE; z++) {
      dense[z] = 8L << z;
      if (cs_table1_time(&mo, CS_allreduce, rows[1]->name, pbig, dense[z], &e5[z]) != 0) e5[z] = -1;
      if (cs_table1_time(&mo, CS_allreduce, rows[2]->name, pbig, dense[z], &e6[z]) != 0) e6[z] = -1;
    }
    const double top = (double)(dense[NDENSE - 1] - dense[NDENSE - 2]);
    const double g5 = 1e9 * (e5[NDENSE - 1] - e5[NDENSE - 2]) / top,
                 g6 = 1e9 * (e6[NDENSE - 1] - e6[NDENSE - 2]) / top;
    char cs_[512], ce[512];
    int eq_cross = 0;
    for (int z = 0; z < NDENSE; z++) eq_cross |= e5[z] > 0 && e6[z] > 0 && e5[z] < e6[z];
    fprintf(f, "## The crossover at %d processes (the paper: ~2 KiB)\n\n", pbig);
    if (q->no_sim)
      fprintf(f, "- Simulated: not run (--no-sim).\n");
    else
      fprintf(f, "- Simulated at %d processes (%ld B to %ld B): %s.%s\n", psize, szs[0],
              szs[nszs - 1], crossover(st[1], st[2], szs, nszs, cs_, sizeof cs_),
              psize < pbig ? " (Not the paper's p: `--max-p 32768` simulates it.)" : "");
    fprintf(f,
            "- Modelled, eqs. 5 (SMP) and 6 (NAP) at %d processes (%ld B to %ld B, powers of "
            "two): %s. At %ld MiB, eq. 5 grows by %.3f ns per byte and eq. 6 by %.3f.\n",
            pbig, dense[0], dense[NDENSE - 1], crossover(e5, e6, dense, NDENSE, ce, sizeof ce),
            dense[NDENSE - 1] >> 20, g5, g6);
    fprintf(f,
            "- The paper (Figs. 11, 14-15, 32768 processes): NAP ahead below ~2 KiB, SMP "
            "ahead above.\n\n");
    if (!eq_cross)
      fprintf(
          f,
          "On this platform NAP's inter-node bytes (ppn / min(RN, ppn Rb) per byte in\n"
          "ceil(log_ppn n) steps) cost less than SMP's (1 / Rb per byte in log2 n steps), so\n"
          "eq. 6 stays below eq. 5 at every size; the paper's crossover at ~2 KiB likely comes\n"
          "from the protocol switch of its fitted model (short, eager, rendezvous), which a\n"
          "platform of one latency and one rate does not have (docs/%s.md, \"Why they\n"
          "differ\").\n\n",
          rows[2]->name);
    else
      fprintf(f,
              "Where the simulated and modelled crossovers differ from the paper's: docs/%s.md,\n"
              "\"Why they differ\".\n\n",
              rows[2]->name);
  }
  if (!q->no_sim) {
    fprintf(f,
            "## SMPI's node-aware algorithms\n\n"
            "Run at every p above while a run took at most %.0f s of wall time (the cap).\n\n",
            cap);
    for (int l = 0; l < NLIB; l++) {
      if (lib_stopped_at[l])
        fprintf(f, "- %s: run up to p = %d, whose run took %.0f s > %.0f s: not run at larger p.\n",
                libs[l], lib_stopped_at[l], lib_stop[l], cap);
      else
        fprintf(f, "- %s: run at every p up to %d.\n", libs[l], lib_last[l]);
    }
    fputc('\n', f);
  }
  fprintf(
      f, "%s\n",
      drawn ? "(the pictures failed: gnuplot)" : "Pictures: plots/fig10.png .. plots/fig15.png.");
  fclose(f);
  free(sr);
  printf("%s/summary.md\n", q->dir);
  fprintf(stderr, "collsim nodeaware: wall %.1f s\n", now() - t_start);
  return drawn ? 1 : 0;
}
