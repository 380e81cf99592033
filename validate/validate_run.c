/* ./collsim validate as a run: each case predicted by the analytic model and
 * by SMPI on a (calibrated) platform, measured with mpirun in several
 * launches, and the relative error of each prediction reported
 * (validate/validate_run.h). */
#include <glob.h>
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "drift.h"
#include "files.h"
#include "foreign.h"
#include "launches.h"
#include "model.h"
#include "platgen.h"
#include "platmodel.h"
#include "plot.h"
#include "registry.h"
#include "validate_run.h"
#include "validation.h"

/* What each launch runs: the bench request, and where its drift probes go. */
typedef struct {
  cs_bench_req m;
  const char *probestem; /* DIR/probes-COLL-pP-TYPE (NULL: no probes) */
  int launches;
} launch_ctx;

/* One launch of the measurement (cs_launches_run): a resumable bench run into
 * path, its drift probes appended to the launch's probes file. */
static int measure_launch(void *ctx, int launch, const char *path) {
  const launch_ctx *c = ctx;
  cs_bench_req m = c->m;
  char probes[4400];
  char stage[64];
  snprintf(stage, sizeof stage, "measured launch %d/%d", launch, c->launches);
  m.stage = stage;
  m.out = path;
  if (c->probestem) {
    cs_launch_path(probes, sizeof probes, c->probestem, launch, ".csv");
    m.probes_out = probes;
    m.launch = launch;
  }
  return cs_bench_run(&m);
}

int cs_validate_run(const cs_bench_req *req, const char *platform, const char *dir, int launches) {
  cs_bench_req q = *req;
  struct stat st;
  if (stat(platform, &st) != 0) {
    fprintf(stderr,
            "collsim validate: no platform %s; run `collsim calibrate` first or give --platform\n",
            platform);
    return 2;
  }
  char err[1024], approx[512];
  cs_model mo;
  if (cs_resolve_platform(platform, q.hostfile, q.xml, q.hosts, sizeof q.xml)) return 2;
  int exact = cs_platform_model_file(q.xml, &mo, approx, sizeof approx, err, sizeof err);
  if (exact < 0) {
    fprintf(stderr, "collsim validate: %s\n", err);
    return 2;
  }
  if (!exact) fprintf(stderr, "collsim validate: note: the model is a %s\n", approx);
  cs_platform pl;
  if (cs_platform_read(q.xml, &pl, err, sizeof err) == 0 && pl.np < q.np) {
    char fix[4400];
    if (!strcmp(platform, "results/calibrate/platform.xml"))
      snprintf(fix, sizeof fix, "./collsim calibrate --np %d", q.np);
    else
      snprintf(fix, sizeof fix, "./collsim calibrate --np %d --out %s", q.np, q.xml);
    fprintf(stderr,
            "collsim validate: platform %s has %d ranks, --np %d asks for more; run `%s`%s "
            "(or give --platform with >= %d ranks)\n",
            q.xml, pl.np, q.np, fix, q.hostfile ? " --hostfile ..." : "", q.np);
    return 2;
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int over = !q.hostfile && cores > 0 && q.np > cores;
  if (over)
    fprintf(stderr,
            "collsim validate: WARNING: --np %d on %ld cores without a hostfile: ranks share "
            "cores (oversubscribed), so the measured times are not the machine's; the report "
            "says so. Use --np <= %ld.\n",
            q.np, cores, cores);
  int rc = 0;
  if (cs_mkdir_p(dir)) {
    fprintf(stderr, "collsim validate: cannot create %s: %s\n", dir, strerror(errno));
    return 1;
  }
  /* Simulated and measured runs: resumable bench CSVs in DIR, every file
   * named by collective, p and type (COLL-pP-TYPE), so that runs of other
   * types keep files of their own. */
  char id[256], simcsv[4200], meastem[4200], meascsv[CS_MAX_LAUNCHES][4400];
  snprintf(id, sizeof id, "%s-p%d-%s", cs_colls[q.coll].name, q.np, cs_bench_type_name[q.type]);
  snprintf(simcsv, sizeof simcsv, "%s/sim-%s.csv", dir, id);
  /* One resumable bench CSV per launch: measured-COLL-pP-TYPE-L<k>.csv. */
  snprintf(meastem, sizeof meastem, "%s/measured-%s", dir, id);
  for (int l = 0; l < launches; l++)
    cs_launch_path(meascsv[l], sizeof meascsv[l], meastem, l + 1, ".csv");
  /* Drift probes: calibrate's own measurements at a few sizes of each regime,
   * taken between the sizes in every launch (validate/drift.h). */
  char *calib = cs_val_platform_calibration(q.xml);
  static cs_drift D; /* ~100 KB: per probe and launch (not on the stack) */
  char spec[2048], probestem[4200];
  cs_drift_plan(&D, &mo, calib, q.xml, launches);
  cs_drift_spec(&D, spec, sizeof spec);
  snprintf(probestem, sizeof probestem, "%s/probes-%s", dir, id);
  if (D.n == 0) fprintf(stderr, "collsim validate: no drift probes: %s\n", D.why);
  cs_bench_req s = q, m = q;
  s.smpi = 1;
  s.out = simcsv;
  s.hostfile = NULL;
  s.stage = "simulation";
  fprintf(stderr, "collsim validate: simulating on %s\n", q.xml);
  if ((rc = cs_bench_run(&s))) {
    free(calib);
    return rc;
  }
  m.smpi = 0;
  m.hostfile = q.hostfile;
  m.interleave = 1;
  fprintf(stderr, "collsim validate: measuring with mpirun -np %d, %d launch%s\n", q.np, launches,
          launches == 1 ? "" : "es");
  struct stat mst;
  int reused = 0;
  /* --redo starts every file over: nothing is reused then. */
  for (int l = 0; l < launches && !q.redo; l++)
    reused |= stat(meascsv[l], &mst) == 0 && mst.st_size > 0;
  double load[2] = {-1, -1};
  if (getloadavg(&load[0], 1) != 1) load[0] = -1;
  m.probes = D.n ? spec : NULL;
  launch_ctx lc = {m, D.n ? probestem : NULL, launches};
  if ((rc = cs_launches_run("validate", meastem, ".csv", launches, measure_launch, &lc))) {
    free(calib);
    return rc;
  }
  if (getloadavg(&load[1], 1) != 1) load[0] = load[1] = -1;
  for (int l = 0; l < launches && D.n; l++) {
    char pf[4400];
    cs_launch_path(pf, sizeof pf, probestem, l + 1, ".csv");
    cs_drift_add_launch(&D, l, pf);
  }
  cs_drift_finish(&D);

  char csv[4200], md[4200];
  snprintf(csv, sizeof csv, "%s/validate-%s.csv", dir, id);
  snprintf(md, sizeof md, "%s/validate-%s.md", dir, id);
  FILE *f = fopen(csv, "w");
  if (!f) {
    fprintf(stderr, "collsim validate: cannot write %s: %s\n", csv, strerror(errno));
    free(calib);
    return 1;
  }
  /* How it was made: the simulated run's settings, the measured runs'
   * placement and repetitions (their bench files' first lines). */
  static cs_prov sp, mp;
  int have_s = cs_prov_read(simcsv, &sp) == 0, have_m = cs_prov_read(meascsv[0], &mp) == 0;
  cs_csv_validate_comment(f, have_s ? &sp : NULL, have_m ? &mp : NULL, launches);
  cs_csv_command(f, cs_command());
  cs_csv_write_header(f, CS_CSV_VALIDATE);
  cs_val_set V, PL[CS_MAX_LAUNCHES]; /* all launches; each launch alone */
  cs_val_set_init(&V);
  for (int l = 0; l < launches; l++) cs_val_set_init(&PL[l]);
  int oom = 0;
  /* A max-rate or k-lane model prices the cases its event evaluator does not
   * (nonblocking steps) on the platform's own routes, as predict does. */
  static cs_platform_file pf;
  memset(&pf, 0, sizeof pf);
  cs_platform_load(&pf, q.xml);
  cs_routes_later lz = {.pf = &pf, .hosts = q.hosts, .np = q.np};
  for (int a = 0; a < q.nalgos; a++)
    for (int i = 0; i < q.nbytes; i++) {
      const char *algo = q.algos[a];
      long b = cs_req_bytes(&q, i);
      if (cs_req_dup(&q, i)) continue;
      double model = -1, sim = cs_bench_lookup(simcsv, algo, b);
      /* Over launches: the median of their medians (launches.h). */
      double med[CS_MAX_LAUNCHES], los[CS_MAX_LAUNCHES], his[CS_MAX_LAUNCHES];
      for (int l = 0; l < launches; l++) {
        med[l] = cs_bench_lookup(meascsv[l], algo, b);
        los[l] =
            cs_bench_lookup_col(meascsv[l], algo, b, cs_csv_colname(CS_CSV_BENCH, CS_BENCH_CILO));
        his[l] =
            cs_bench_lookup_col(meascsv[l], algo, b, cs_csv_colname(CS_CSV_BENCH, CS_BENCH_CIHI));
      }
      cs_launch_agg la;
      cs_launch_aggregate(med, los, his, launches, &la);
      double meas = la.n > 0 ? la.median : -1, lo = la.lo, hi = la.hi;
      cs_case c = {q.coll, algo, q.np, b, q.root, q.inplace};
      if (cs_model_has(q.coll, algo)) {
        cs_routes_when_needed("validate", &mo, &c, &lz);
        if (cs_model_time(&mo, &c, &model, err, sizeof err) != 0) model = -1;
      }
      const cs_val_case *vc =
          cs_val_add_case(&V, algo, b, model, sim, meas, lo, hi, la.n, la.min, la.max);
      for (int l = 0; l < launches && vc; l++)
        if (isfinite(med[l]) && med[l] > 0 &&
            !cs_val_add_case(&PL[l], algo, b, model, sim, med[l], los[l], his[l], 1, NAN, NAN))
          oom = 1;
      if (!vc || oom) {
        fprintf(stderr, "collsim validate: out of memory\n");
        fclose(f);
        cs_val_set_free(&V);
        for (int l = 0; l < launches; l++) cs_val_set_free(&PL[l]);
        free(calib);
        cs_routes_free(&lz.rt);
        cs_platform_file_free(&pf);
        return 1;
      }
      cs_csv_validate_row(f, cs_colls[q.coll].name, algo, q.np, b, model >= 0 ? model : NAN,
                          sim >= 0 ? sim : NAN, meas, lo, hi, vc->err[0], vc->err[1], la.n, la.min,
                          la.max);
    }
  fclose(f);
  /* The picture, drawn in a directory of its own and named by collective,
   * p and type (collsim plot names it by collective and platform only, so
   * that runs at other p or types would overwrite one another's). */
  char pic[4400] = "", pdir[4096] = "";
  const char *one[1] = {csv};
  FILE *devnull = fopen("/dev/null", "w");
  int plotted = devnull && cs_make_tmpdir(pdir, sizeof pdir) == 0 &&
                cs_plot_files(one, 1, pdir, 1, 1, devnull) == 0;
  if (devnull) fclose(devnull);
  if (plotted) {
    static const char *const ext[] = {"png", "svg"};
    for (int k = 0; k < 2; k++) {
      char pat[4400], to[8600];
      glob_t g;
      snprintf(pat, sizeof pat, "%s/validate-%s*.%s", pdir, cs_colls[q.coll].name, ext[k]);
      if (glob(pat, 0, NULL, &g) == 0) {
        snprintf(to, sizeof to, "%s/validate-%s.%s", dir, id, ext[k]);
        if (g.gl_pathc > 0 && rename(g.gl_pathv[0], to) == 0 && k == 0)
          snprintf(pic, sizeof pic, "validate-%s.png", id);
        globfree(&g);
      }
    }
    plotted = pic[0] != '\0';
  }
  if (pdir[0]) cs_rm_tree(pdir);
  if (!plotted) fprintf(stderr, "collsim validate: the plot failed (see collsim plot)\n");
  cs_val_info info = {cs_colls[q.coll].mpi_name,
                      q.np,
                      q.xml,
                      calib,
                      csv,
                      pic[0] ? pic : NULL,
                      load[0],
                      load[1],
                      (int)cores,
                      over,
                      reused,
                      0.25,
                      0.15,
                      launches,
                      &D,
                      PL,
                      cs_bench_type_name[q.type],
                      cs_bench_op_name[q.type],
                      cs_command()};
  FILE *r = fopen(md, "w");
  if (!r) {
    fprintf(stderr, "collsim validate: cannot write %s\n", md);
    rc = 1;
  } else {
    cs_val_report(r, &V, &info);
    fclose(r);
    /* The findings on stdout; the tables stay in the report. */
    FILE *rr = fopen(md, "r");
    char line[2048];
    int in = 0;
    while (rr && fgets(line, sizeof line, rr)) {
      if (!strncmp(line, "# ", 2)) fputs(line, stdout);
      if (!strncmp(line, "## ", 3))
        in = !strncmp(line, "## Findings", 11);
      else if (in)
        fputs(line, stdout);
    }
    if (rr) fclose(rr);
    fprintf(stderr, "collsim validate: table %s, report %s, plots in %s\n", csv, md, dir);
  }
  free(calib);
  cs_val_set_free(&V);
  for (int l = 0; l < launches; l++) cs_val_set_free(&PL[l]);
  cs_routes_free(&lz.rt);
  cs_platform_file_free(&pf);
  return rc;
}
