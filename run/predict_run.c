/* ./collsim predict and table1 as runs: the paper's formula (Table I),
 * collsim's exact model and SMPI's simulated time side by side, for the
 * cases of a bench request (predict) or for Table I's operations (table1). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "files.h"
#include "foreign.h"
#include "model.h"
#include "platgen.h"
#include "platmodel.h"
#include "predict_run.h"
#include "record.h"
#include "registry.h"
#include "results.h"
#include "routes.h"

/* An abg platform for np ranks with the given parameters, in dir. */
static int write_abg(const char *dir, int np, double alpha, double beta, double gamma, char *xml,
                     char *hosts, size_t len) {
  cs_platform pl;
  char err[512];
  cs_platform_init("abg", &pl, err, sizeof err);
  pl.np = np;
  pl.nodes = np;
  pl.ppn = 1;
  pl.alpha = alpha;
  pl.beta = beta;
  pl.Rb = beta > 0 ? 1 / beta : 0;
  pl.gamma = gamma;
  if (cs_platform_check(&pl, err, sizeof err)) {
    fprintf(stderr, "collsim: %s\n", err);
    return -1;
  }
  snprintf(xml, len, "%s/abg-%d.xml", dir, np);
  snprintf(hosts, len, "%s/abg-%d.hostfile", dir, np);
  return cs_write_platform_files(&pl, xml, hosts);
}

/* Writes predict rows (docs/csv.md) for q's algorithms and sizes; sim times
 * come from a bench CSV at simcsv (NULL: none). approx: the model is not the
 * platform's own (the "# model:" line says how), marked in model_kind. lz:
 * routes to attach when a row needs them (NULL: none). */
static void predict_rows(FILE *out, const cs_bench_req *q, cs_model *mo, const char *simcsv,
                         int approx, cs_routes_later *lz) {
  for (int a = 0; a < q->nalgos; a++) {
    for (int i = 0; i < q->nbytes; i++) {
      const char *algo = q->algos[a];
      long m = cs_req_bytes(q, i);
      if (cs_req_dup(q, i)) continue;
      double t, t1 = NAN, model = -1, rel = NAN;
      /* (a foreign platform's model has no alpha or beta: no formula) */
      int params = !mo->routes || mo->alpha > 0 || mo->beta > 0;
      if (params && cs_table1_time(mo, q->coll, algo, q->np, m, &t) == 0) t1 = t;
      cs_case c = {q->coll, algo, q->np, m, q->root, q->inplace};
      char err[512], kind[64] = "";
      const char *k;
      if (cs_model_has(q->coll, algo)) {
        cs_routes_when_needed("predict", mo, &c, lz);
        if (cs_model_time(mo, &c, &model, err, sizeof err) != 0) {
          fprintf(stderr, "collsim predict: %s\n", err);
          model = -1;
        } else if (cs_model_kind_of(mo, &c, &k, err, sizeof err) == 0) {
          snprintf(kind, sizeof kind, "%s%s", k, approx ? "-approx" : "");
        }
      }
      double sim = simcsv ? cs_bench_lookup(simcsv, algo, m) : -1;
      if (sim >= 0 && model > 0)
        rel = fabs(sim - model) / model;
      else if (sim >= 0 && model == 0)
        rel = sim == 0 ? 0.0 : INFINITY;
      cs_csv_predict_row(out, cs_colls[q->coll].name, algo, q->np, m, t1, model >= 0 ? model : NAN,
                         sim >= 0 ? sim : NAN, rel, kind);
      fflush(out);
    }
  }
}

int cs_predict_run(const cs_bench_req *req, const char *platform, const cs_predict_model *pm) {
  cs_bench_req q = *req;
  int rc;
  cs_platform_file pf = {0}; /* read once, when read: for gamma and the simulation */
  char dir[4096];
  if (cs_make_tmpdir(dir, sizeof dir)) return 1;
  cs_model mo;
  cs_routes routes = {0};
  /* max-rate and k-lane platforms: the programs their event evaluator does
   * not price (nonblocking steps) go to the fluid evaluator on the
   * platform's routes, attached for the first such row */
  cs_routes_later lz = {.pf = &pf, .hosts = q.hosts, .np = q.np}, *later = NULL;
  char approx[4800] = "";
  rc = 0;
  if (platform[0] && pm->abg) {
    /* Any platform: the model's parameters from the flags, the simulation
     * from the platform, and both stated. */
    mo = cs_model_abg(pm->alpha, pm->beta, pm->gamma);
    if (cs_resolve_platform(platform, q.hostfile, q.xml, q.hosts, sizeof q.xml)) {
      rc = 2;
    } else {
      snprintf(approx, sizeof approx,
               "abg with alpha=%g s, beta=%g s/byte, gamma=%g s/byte from the command line; "
               "sim_s runs on %s",
               pm->alpha, pm->beta, pm->gamma, q.xml);
      cs_platform_load(&pf, q.xml);
      double g = cs_platform_gamma("predict", &pf, 0);
      if (g >= 0 && fabs(g - pm->gamma) > 1e-6 * g)
        fprintf(stderr,
                "collsim predict: note: the platform's local work costs gamma = %.3g s/byte, the "
                "model's --gamma is %.3g\n",
                g, pm->gamma);
    }
  } else if (platform[0]) {
    /* The pricing each platform gets (cs_platform_pricing): a closed-form
     * line by its model, any other platform, or any with --model routes, on
     * its own routes (exact by construction, docs/models.md). */
    if (cs_resolve_platform(platform, q.hostfile, q.xml, q.hosts, sizeof q.xml)) {
      rc = 2;
    } else {
      cs_platform_load(&pf, q.xml);
      int r = cs_platform_pricing("predict", &pf, pm->routes, &mo, approx, sizeof approx);
      if (r == 0 && mo.kind != CS_MODEL_ABG) later = &lz;
      if (r < 0 || (r == 1 && cs_routes_attach("predict", &pf, q.hosts, q.np, 1, &routes, &mo)))
        rc = 2;
      else if (approx[0])
        fprintf(stderr, "collsim predict: note: model_s is a %s; expect it to differ from sim_s\n",
                approx);
    }
  } else {
    mo = cs_model_abg(pm->alpha, pm->beta, pm->gamma);
    if (!pm->nosim &&
        write_abg(dir, q.np, pm->alpha, pm->beta, pm->gamma, q.xml, q.hosts, sizeof q.xml))
      rc = 2;
  }
  char simcsv[4200] = "";
  if (rc == 0 && !pm->nosim) {
    /* Only what SMPI can run: every algorithm (native included). */
    snprintf(simcsv, sizeof simcsv, "%s/sim.csv", dir);
    cs_bench_req b = q;
    b.out = simcsv;
    b.quiet = 1;
    b.redo = 1;
    b.smpi = 1;
    b.verify = 1;
    if (pf.xml[0]) b.pf = &pf;
    rc = cs_bench_run(&b);
  }
  if (rc == 0) {
    FILE *out = q.out ? fopen(q.out, "w") : stdout;
    if (!out) {
      fprintf(stderr, "collsim predict: cannot write %s: %s\n", q.out, strerror(errno));
      rc = 1;
    } else {
      if (out != stdout) {
        /* How the file was made: the simulation's settings (its bench
         * file's first line), the model's, the command. */
        static cs_prov pv;
        char line[8192];
        if (!simcsv[0] || cs_prov_read(simcsv, &pv)) {
          cs_prov_init(&pv, "");
          cs_prov_set(&pv, "platform", "%s", q.xml[0] ? q.xml : "none");
          cs_prov_set(&pv, "np", "%d", q.np);
          cs_prov_set(&pv, "coll", "%s", cs_colls[q.coll].name);
        }
        snprintf(pv.kind, sizeof pv.kind, "predict");
        if (pm->abg || !platform[0])
          cs_prov_set(&pv, "model", "abg alpha=%g beta=%g gamma=%g", pm->alpha, pm->beta,
                      pm->gamma);
        else
          cs_prov_set(&pv, "model", pm->routes ? "routes" : "platform");
        if (pm->nosim) cs_prov_set(&pv, "sim", "none");
        fputs(cs_prov_line(&pv, line, sizeof line), out);
        cs_csv_command(out, cs_command());
      }
      if (approx[0]) fprintf(out, "# model: %s\n", approx);
      cs_csv_write_header(out, CS_CSV_PREDICT);
      predict_rows(out, &q, &mo, pm->nosim ? NULL : simcsv, approx[0] != '\0', later);
      if (out != stdout) fclose(out);
    }
  }
  cs_platform_file_free(&pf);
  cs_routes_free(&routes);
  cs_routes_free(&lz.rt);
  cs_rm_tree(dir);
  return rc;
}

void cs_table1_defaults(cs_table1_req *t) {
  memset(t, 0, sizeof *t);
  static const long sizes[] = {1024, 65536, 1048576};
  for (int i = 0; i < 3; i++) t->bytes[t->nbytes++] = sizes[i];
  t->alpha = 1e-6, t->beta = 1e-10, t->gamma = 2.5e-10;
}

int cs_table1_run(const cs_table1_req *t, FILE *out) {
  cs_predict_model po = {1, t->alpha, t->beta, t->gamma, t->nosim, 0};
  int np = t->np;
  const char *csv = t->csv;
  cs_bench_req q;
  cs_bench_defaults(&q);
  q.np = np;
  q.nbytes = t->nbytes;
  for (int i = 0; i < t->nbytes; i++) q.bytes[i] = t->bytes[i];
  char dir[4096];
  if (cs_make_tmpdir(dir, sizeof dir)) return 1;
  if (!po.nosim && write_abg(dir, np, po.alpha, po.beta, po.gamma, q.xml, q.hosts, sizeof q.xml)) {
    cs_rm_tree(dir);
    return 2;
  }
  cs_model mo = cs_model_abg(po.alpha, po.beta, po.gamma);
  /* Table I's operations; the algorithms of each are the registry's rows of
   * that collective that name a formula, in registry order. */
  static const struct {
    cs_coll coll;
    const char *label;
  } ops[] = {
      {CS_allreduce, "Reduction-to-all"},
      {CS_reduce, "Reduction-to-root"},
      {CS_reduce_scatter_block, "Reduce-scatter"},
      {CS_allgather, "Allgather"},
  };
  char rows[4200];
  snprintf(rows, sizeof rows, "%s/table1.csv", dir);
  FILE *all = fopen(csv ? csv : rows, "w");
  if (!all) {
    fprintf(stderr, "collsim table1: cannot write %s: %s\n", csv ? csv : rows, strerror(errno));
    cs_rm_tree(dir);
    return 1;
  }
  cs_csv_write_header(all, CS_CSV_PREDICT);
  int rc = 0;
  for (size_t o = 0; o < sizeof ops / sizeof ops[0] && rc == 0; o++) {
    q.coll = ops[o].coll;
    q.nalgos = 0;
    for (int i = 0; i < cs_nalgos && q.nalgos < CS_MAX_ALGOS; i++)
      if (cs_algos[i].coll == q.coll && cs_algos[i].formula != CS_F_none)
        q.algos[q.nalgos++] = cs_algos[i].name;
    char simcsv[4200] = "";
    if (!po.nosim) {
      snprintf(simcsv, sizeof simcsv, "%s/sim-%zu.csv", dir, o);
      cs_bench_req b = q;
      b.out = simcsv;
      b.quiet = 1;
      b.verify = 1;
      fprintf(stderr, "collsim table1: simulating %s on %d ranks\n", cs_colls[q.coll].name, np);
      rc = cs_bench_run(&b);
    }
    if (rc == 0) predict_rows(all, &q, &mo, po.nosim ? NULL : simcsv, 0, NULL);
  }
  fclose(all);
  if (rc == 0) {
    /* The table, read back from the CSV. */
    fprintf(out,
            "Table I for p = %d: alpha = %g s, beta = %g s/B, gamma = %g s/B, 16-byte envelope\n",
            np, po.alpha, po.beta, po.gamma);
    fprintf(out,
            "(times in microseconds; model = collsim's exact model of its implementation)\n\n");
    fprintf(
        out,
        "| operation | algorithm | m (bytes) | Table I | model | simulated | sim / Table I |\n");
    fprintf(out, "|---|---|---:|---:|---:|---:|---:|\n");
    cs_csv_reader in;
    cs_csv_open(&in, csv ? csv : rows);
    int ic = -1, ia = -1, ib = -1, it = -1, im = -1, is = -1, k;
    while ((k = cs_csv_next(&in)) != 0) {
      if (k != 1) continue;
      if (ic < 0) {
        ic = cs_csv_col(&in, cs_csv_colname(CS_CSV_PREDICT, CS_PREDICT_COLL));
        ia = cs_csv_col(&in, cs_csv_colname(CS_CSV_PREDICT, CS_PREDICT_ALGO));
        ib = cs_csv_col(&in, cs_csv_colname(CS_CSV_PREDICT, CS_PREDICT_BYTES));
        it = cs_csv_col(&in, cs_csv_colname(CS_CSV_PREDICT, CS_PREDICT_TABLE1));
        im = cs_csv_col(&in, cs_csv_colname(CS_CSV_PREDICT, CS_PREDICT_MODEL));
        is = cs_csv_col(&in, cs_csv_colname(CS_CSV_PREDICT, CS_PREDICT_SIM));
      }
      const char *coll = cs_csv_get(&in, ic), *algo = cs_csv_get(&in, ia),
                 *t1 = cs_csv_get(&in, it), *ms = cs_csv_get(&in, im), *ss = cs_csv_get(&in, is);
      if (!coll || !algo || !cs_csv_get(&in, ib) || !t1 || !ms || !ss) continue;
      long m = atol(cs_csv_get(&in, ib));
      const char *label = coll;
      for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        if (!strcmp(cs_colls[ops[o].coll].name, coll)) label = ops[o].label;
      char a[32] = "-", b[32] = "-", c[32] = "-", d[32] = "-";
      if (*t1) snprintf(a, sizeof a, "%.3f", atof(t1) * 1e6);
      if (*ms) snprintf(b, sizeof b, "%.3f", atof(ms) * 1e6);
      if (*ss) snprintf(c, sizeof c, "%.3f", atof(ss) * 1e6);
      if (*ss && *t1 && atof(t1) > 0) snprintf(d, sizeof d, "%.3f", atof(ss) / atof(t1));
      fprintf(out, "| %s | %s | %ld | %s | %s | %s | %s |\n", label, algo, m, a, b, c, d);
    }
    cs_csv_close(&in);
    if (csv) fprintf(stderr, "collsim table1: CSV in %s\n", csv);
  }
  cs_rm_tree(dir);
  return rc;
}
