/* The results store: the schemas of collsim's CSV files, their writers and
 * their readers (results.h, docs/csv.md). */
#include "results.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the schemas -------------------------------------------------------------- */

#define KEY  (CS_COL_KEY | CS_COL_VALUE)
#define TEXT (CS_COL_KEY | CS_COL_VALUE | CS_COL_TEXT)
#define INT  (CS_COL_KEY | CS_COL_VALUE | CS_COL_INT)

/* The leading columns of every per-case file. */
#define CASE_COLS \
  {"coll", TEXT}, {"algo", TEXT}, {"p", INT}, { "bytes", INT }

static const cs_csv_column bench_cols[CS_BENCH_NCOL] = {CASE_COLS,
                                                        {"reps", CS_COL_VALUE | CS_COL_INT},
                                                        {"median_s", KEY},
                                                        {"mean_s", CS_COL_VALUE},
                                                        {"min_s", CS_COL_VALUE},
                                                        {"max_s", CS_COL_VALUE},
                                                        {"ci_lo_s", CS_COL_VALUE},
                                                        {"ci_hi_s", CS_COL_VALUE},
                                                        {"algo_ran", CS_COL_TEXT},
                                                        {"reduced_bytes", 0},
                                                        {"copied_bytes", 0}};
static const cs_csv_column predict_cols[CS_PREDICT_NCOL] = {
    CASE_COLS,      {"table1_s", CS_COL_KEY},   {"model_s", KEY}, {"sim_s", CS_COL_KEY},
    {"rel_err", 0}, {"model_kind", CS_COL_TEXT}};
static const cs_csv_column validate_cols[CS_VALIDATE_NCOL] = {
    CASE_COLS,
    {"model_s", CS_COL_KEY},
    {"sim_s", CS_COL_KEY},
    {"measured_s", KEY},
    {"measured_lo_s", 0},
    {"measured_hi_s", 0},
    {"err_model", CS_COL_SIGNED},
    {"err_sim", CS_COL_SIGNED},
    {"launches", CS_COL_VALUE | CS_COL_INT},
    {"launch_min_s", CS_COL_VALUE},
    {"launch_max_s", CS_COL_VALUE}};
static const cs_csv_column guide_cols[CS_GUIDE_NCOL] = {
    {"guideline", TEXT}, {"lhs", TEXT},     {"rhs", TEXT},        {"p", INT},
    {"bytes", INT},      {"lhs_s", KEY},    {"rhs_s", KEY},       {"ratio", KEY},
    {"tolerance", KEY},  {"violated", INT}, {"side", CS_COL_TEXT}};
static const cs_csv_column samples_cols[CS_SAMPLES_NCOL] = {
    CASE_COLS, {"rep", INT}, {"time_s", KEY}};
static const cs_csv_column calib_cols[CS_CALIB_NCOL] = {
    {"kind", TEXT},
    {"pair", TEXT},
    {"k", INT},
    {"bytes", INT},
    {"rep", INT},
    {"time_s", KEY},
    {"launch", CS_COL_VALUE | CS_COL_INT}}; /* not a key: older files lack it */

static const cs_csv_column app_cols[CS_APP_NCOL] = {{"coll", TEXT},
                                                    {"algo", TEXT},
                                                    {"p", INT},
                                                    {"app_s", KEY},
                                                    {"speedup", 0},
                                                    {"coll_s", 0},
                                                    {"calls", CS_COL_VALUE | CS_COL_INT},
                                                    {"served", CS_COL_VALUE | CS_COL_INT},
                                                    {"fallback", CS_COL_VALUE | CS_COL_INT},
                                                    {"collectives_s", 0},
                                                    {"share", 0}};
/* map: time_s is empty where a candidate has no time (note says why). */
static const cs_csv_column map_cols[CS_MAP_NCOL] = {
    CASE_COLS, {"time_s", CS_COL_KEY}, {"note", CS_COL_TEXT}};
static const cs_csv_column mapwin_cols[CS_MAPWIN_NCOL] = {
    {"coll", TEXT},           {"p", INT},
    {"bytes", INT},           {"winner", CS_COL_KEY | CS_COL_TEXT},
    {"winner_s", CS_COL_KEY}, {"runner_up", CS_COL_KEY | CS_COL_TEXT},
    {"runner_up_s", KEY},     {"ratio", CS_COL_KEY}};

static const cs_csv_column lanes_cols[CS_LANES_NCOL] = {
    {"pattern", TEXT}, {"p", INT},     {"nodes", INT}, {"ppn", INT},
    {"k", INT},        {"count", INT}, {"bytes", INT}, {"reps", CS_COL_VALUE | CS_COL_INT},
    {"mean_s", KEY},   {"min_s", KEY}, {"max_s", KEY}};

static const cs_csv_schema schemas[CS_CSV_NKIND] = {{"bench", bench_cols, CS_BENCH_NCOL},
                                                    {"predict", predict_cols, CS_PREDICT_NCOL},
                                                    {"validate", validate_cols, CS_VALIDATE_NCOL},
                                                    {"guidelines", guide_cols, CS_GUIDE_NCOL},
                                                    {"samples", samples_cols, CS_SAMPLES_NCOL},
                                                    {"calibrate", calib_cols, CS_CALIB_NCOL},
                                                    {"app", app_cols, CS_APP_NCOL},
                                                    {"map", map_cols, CS_MAP_NCOL},
                                                    {"map-winners", mapwin_cols, CS_MAPWIN_NCOL},
                                                    {"lanes", lanes_cols, CS_LANES_NCOL}};

const cs_csv_schema *cs_csv_schema_of(cs_csv_kind kind) { return &schemas[kind]; }

const char *cs_csv_colname(cs_csv_kind kind, int col) { return schemas[kind].cols[col].name; }

void cs_csv_cols(const cs_csv_reader *r, cs_csv_kind kind, int *col) {
  for (int i = 0; i < schemas[kind].ncols; i++) col[i] = cs_csv_col(r, schemas[kind].cols[i].name);
}

const char *cs_csv_header(cs_csv_kind kind, char *buf, size_t len) {
  const cs_csv_schema *s = &schemas[kind];
  size_t n = 0;
  buf[0] = '\0';
  for (int c = 0; c < s->ncols && n < len; c++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", c ? "," : "", s->cols[c].name);
  return buf;
}

void cs_csv_write_header(FILE *f, cs_csv_kind kind) {
  char buf[1024];
  fprintf(f, "%s\n", cs_csv_header(kind, buf, sizeof buf));
}

/* ---- comment lines -------------------------------------------------------------- */

void cs_bench_prov(const cs_bench_meta *m, cs_prov *p) {
  cs_prov_init(p, "bench");
  cs_prov_set(p, "backend", "%s", m->backend);
  cs_prov_set(p, "platform", "%s", m->platform);
  if (m->platform_digest) cs_prov_set(p, "platform_digest", "%s", m->platform_digest);
  if (m->placement) cs_prov_set(p, "placement", "%s", m->placement);
  cs_prov_set(p, "np", "%d", m->np);
  cs_prov_set(p, "coll", "%s", m->coll);
  cs_prov_set(p, "type", "%s", m->type);
  if (m->op) cs_prov_set(p, "op", "%s", m->op);
  cs_prov_set(p, "root", "%d", m->root);
  cs_prov_set(p, "in_place", "%d", m->in_place);
  cs_prov_set(p, "reps", "%d", m->reps);
  cs_prov_set(p, "warmup", "%d", m->warmup);
  if (m->cfg) cs_prov_set(p, "cfg", "%s", m->cfg);
  if (m->layout) cs_prov_set(p, "layout", "%s", m->layout);
  if (m->network) cs_prov_set(p, "network", "%s", m->network);
  if (m->gamma >= 0) cs_prov_set(p, "gamma", "%.6g", m->gamma);
  if (m->lib_charge) cs_prov_set(p, "lib_charge", "reductions,copies");
}

void cs_csv_bench_comment(char *buf, size_t len, const cs_bench_meta *m) {
  cs_prov p;
  cs_bench_prov(m, &p);
  cs_prov_line(&p, buf, len);
}

void cs_csv_command(FILE *f, const char *command) {
  if (command && *command) fprintf(f, "# command: %s\n", command);
}

void cs_csv_smpi_cfg(FILE *f, const char *flags) { fprintf(f, "# smpi-cfg: %s\n", flags); }

void cs_csv_note(FILE *f, const char *key, const char *text) {
  fprintf(f, "# %s: %s\n", key, text);
}

void cs_csv_bench_lib_note(FILE *f, int charged) {
  fprintf(f,
          "# library: local reductions and copies %s; algo_ran = SMPI 3.32's selector decision "
          "as collsim reproduces it\n",
          charged ? "charged like collsim's (reduced_bytes, copied_bytes per call)"
                  : "free and not counted (SMPI's behaviour, --lib-charge off)");
}

void cs_csv_bench_sync(FILE *f, int window) {
  fprintf(f, "# sync=%s\n", window ? "window" : "barrier");
}

void cs_csv_guidelines_comment(FILE *f, const char *backend, const char *platform, int np,
                               const char *lib, const char *ours, double tol, int wilcoxon,
                               const char *placement, double gamma) {
  cs_prov p;
  char line[4096];
  cs_prov_init(&p, "guidelines");
  cs_prov_set(&p, "backend", "%s", backend);
  cs_prov_set(&p, "platform", "%s", platform);
  if (placement) cs_prov_set(&p, "placement", "%s", placement);
  cs_prov_set(&p, "np", "%d", np);
  cs_prov_set(&p, "lib", "%s", lib);
  cs_prov_set(&p, "ours", "%s", ours);
  cs_prov_set(&p, "tolerance", "%g", tol);
  if (gamma >= 0) cs_prov_set(&p, "gamma", "%.6g", gamma);
  if (wilcoxon) cs_prov_set(&p, "test", "wilcoxon-rank-sum");
  fputs(cs_prov_line(&p, line, sizeof line), f);
}

void cs_csv_validate_comment(FILE *f, const cs_prov *sim, const cs_prov *measured, int launches) {
  static cs_prov p; /* ~27 KB */
  char line[16384];
  if (sim)
    p = *sim;
  else
    cs_prov_init(&p, "");
  snprintf(p.kind, sizeof p.kind, "validate");
  for (int i = 0; measured && i < measured->n; i++) {
    const char *k = measured->it[i].key, *v = measured->it[i].val;
    const char *s = cs_prov_get(&p, k);
    if (!s || strcmp(s, v)) {
      char mk[64];
      snprintf(mk, sizeof mk, "measured_%s", k);
      cs_prov_set(&p, mk, "%s", v);
    }
  }
  cs_prov_set(&p, "launches", "%d", launches);
  fputs(cs_prov_line(&p, line, sizeof line), f);
}

void cs_csv_calib_comment(FILE *f, const cs_calib_meta *m) {
  fprintf(f,
          "# collsim calibrate backend=%s np=%d nodes=%d quick=%d max_bytes=%ld reps=%d "
          "warmup=%d\n",
          m->backend, m->np, m->nodes, m->quick, m->max_bytes, m->reps, m->warmup);
}

void cs_csv_calib_library(FILE *f, const char *library) { fprintf(f, "# library: %s\n", library); }

void cs_csv_calib_node(FILE *f, int node, int ranks, int first, const char *host) {
  fprintf(f, "# node %d ranks=%d first=%d host=%s\n", node, ranks, first, host);
}

static const char *const calib_kinds[CS_CALIB_NSERIES] = {"pp_intra",   "pp_inter",  "flow_inter",
                                                          "flow_intra", "reduce",    "memcpy",
                                                          "xchg_intra", "xchg_inter"};

const char *cs_csv_calib_kind(int kind) { return calib_kinds[kind]; }

int cs_csv_calib_kind_of(const char *name) {
  for (int i = 0; i < CS_CALIB_NSERIES; i++)
    if (!strcmp(name, calib_kinds[i])) return i;
  return -1;
}

int cs_csv_calib_parse(const char *line, cs_calib_meta *m, char *library, size_t liblen, int *node,
                       int *ranks, char *host, size_t hostlen) {
  char h[256];
  if (sscanf(line, "# collsim calibrate backend=%15s np=%d nodes=%d", m->backend, &m->np,
             &m->nodes) == 3)
    return 1;
  if (!strncmp(line, "# library: ", 11)) {
    snprintf(library, liblen, "%.255s", line + 11);
    return 2;
  }
  if (sscanf(line, "# node %d ranks=%d first=%*d host=%255s", node, ranks, h) == 3) {
    snprintf(host, hostlen, "%.63s", h);
    return 3;
  }
  return 0;
}

/* ---- rows ---------------------------------------------------------------------- */

/* A value with %.10g, or nothing when it is NAN. */
static const char *opt_g(char *buf, size_t len, const char *fmt, double v) {
  if (isnan(v))
    buf[0] = '\0';
  else
    snprintf(buf, len, fmt, v);
  return buf;
}

void cs_csv_bench_row(FILE *f, const char *coll, const char *algo, int p, long bytes, int reps,
                      double median, double mean, double min, double max, double ci_lo,
                      double ci_hi, const cs_bench_extra *x) {
  fprintf(f, "%s,%s,%d,%ld,%d,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g", coll, algo, p, bytes, reps,
          median, mean, min, max, ci_lo, ci_hi);
  if (x) {
    char a[64], b[64];
    fprintf(f, ",%s,%s,%s", x->algo_ran ? x->algo_ran : "",
            opt_g(a, sizeof a, "%.17g", x->reduced_bytes),
            opt_g(b, sizeof b, "%.17g", x->copied_bytes));
  }
  fputc('\n', f);
}

int cs_bench_file_extra(const char *path) {
  cs_csv_reader r;
  if (cs_csv_open(&r, path)) return -1;
  while (!r.nh && cs_csv_next(&r) != 0) {}
  int has = r.nh ? cs_csv_col(&r, bench_cols[CS_BENCH_RAN].name) >= 0 : -1;
  cs_csv_close(&r);
  return has;
}

void cs_csv_samples_row(FILE *f, const char *coll, const char *algo, int p, long bytes, int rep,
                        double t) {
  fprintf(f, "%s,%s,%d,%ld,%d,%.10g\n", coll, algo, p, bytes, rep, t);
}

void cs_csv_predict_row(FILE *f, const char *coll, const char *algo, int p, long bytes,
                        double table1, double model, double sim, double rel_err, const char *kind) {
  char a[64], b[64], c[64], d[64];
  fprintf(f, "%s,%s,%d,%ld,%s,%s,%s,%s,%s\n", coll, algo, p, bytes,
          opt_g(a, sizeof a, "%.10g", table1), opt_g(b, sizeof b, "%.10g", model),
          opt_g(c, sizeof c, "%.10g", sim), opt_g(d, sizeof d, "%.3g", rel_err), kind ? kind : "");
}

void cs_csv_app_row(FILE *f, const char *coll, const char *algo, int p, double app_s,
                    double speedup, double coll_s, long calls, long served, long fallback,
                    double all_s, double share) {
  fprintf(f, "%s,%s,%d,%.17g,%.6g,%.17g,%ld,%ld,%ld,%.17g,%.6g\n", coll, algo, p, app_s, speedup,
          coll_s, calls, served, fallback, all_s, share);
}

void cs_csv_validate_row(FILE *f, const char *coll, const char *algo, int p, long bytes,
                         double model, double sim, double meas, double meas_lo, double meas_hi,
                         double err_model, double err_sim, int launches, double launch_min,
                         double launch_max) {
  char a[64], b[64], c[64], d[64];
  fprintf(f, "%s,%s,%d,%ld,%s,%s,%.10g,%.10g,%.10g,%s,%s,%d,%.10g,%.10g\n", coll, algo, p, bytes,
          opt_g(a, sizeof a, "%.10g", model), opt_g(b, sizeof b, "%.10g", sim), meas, meas_lo,
          meas_hi, opt_g(c, sizeof c, "%.6g", err_model), opt_g(d, sizeof d, "%.6g", err_sim),
          launches, launch_min, launch_max);
}

void cs_csv_guidelines_row(FILE *f, const char *id, const char *lhs, const char *rhs, int p,
                           long bytes, double lhs_s, double rhs_s, double ratio, double tol,
                           int violated, const char *side) {
  fprintf(f, "%s,%s,%s,%d,%ld,%.10g,%.10g,%.6g,%g,%d,%s\n", id, lhs, rhs, p, bytes, lhs_s, rhs_s,
          ratio, tol, violated, side);
}

void cs_csv_calib_row(FILE *f, const char *kind, const char *pair, int k, long bytes, int rep,
                      double t, int launch) {
  fprintf(f, "%s,%s,%d,%ld,%d,%.10g,%d\n", kind, pair, k, bytes, rep, t, launch);
}

/* A name as a CSV field: quoted when it holds a comma or a quote. */
static void put_text(FILE *f, const char *s) {
  if (!s) return;
  if (!strpbrk(s, ",\"\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '\n') continue;
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

void cs_csv_map_row(FILE *f, const char *coll, const char *algo, int p, long bytes, double t,
                    const char *note) {
  char a[64];
  fprintf(f, "%s,%s,%d,%ld,%s,", coll, algo, p, bytes, opt_g(a, sizeof a, "%.10g", t));
  put_text(f, note);
  fputc('\n', f);
}

void cs_csv_lanes_row(FILE *f, const char *pattern, int p, int nodes, int ppn, int k, long count,
                      int reps, double mean_s, double min_s, double max_s) {
  fprintf(f, "%s,%d,%d,%d,%d,%ld,%ld,%d,%.10g,%.10g,%.10g\n", pattern, p, nodes, ppn, k, count,
          4 * count, reps, mean_s, min_s, max_s);
}

void cs_csv_map_winner_row(FILE *f, const char *coll, int p, long bytes, const char *winner,
                           double winner_s, const char *runner, double runner_s) {
  fprintf(f, "%s,%d,%ld,", coll, p, bytes);
  if (!winner) {
    fputs(",,,,\n", f);
    return;
  }
  fprintf(f, "%s,%.10g,", winner, winner_s);
  if (runner && winner_s > 0)
    fprintf(f, "%s,%.10g,%.6g\n", runner, runner_s, runner_s / winner_s);
  else if (runner) /* both 0 (p = 1): as fast; else infinitely slower: no number */
    fprintf(f, "%s,%.10g,%s\n", runner, runner_s, runner_s == 0 ? "1" : "");
  else
    fputs(",,\n", f);
}

/* ---- reading: fields, numbers, kinds --------------------------------------------- */

int cs_csv_split(char *line, char **f, int max) {
  int n = 0;
  char *p = line;
  for (;;) {
    while (*p == ' ' || *p == '\t') p++;
    if (n == max) return -1;
    if (*p == '"') {
      char *w = ++p;
      f[n++] = w;
      for (;;) {
        if (!*p) return -1; /* unterminated quote */
        if (*p == '"') {
          if (p[1] == '"') {
            *w++ = '"';
            p += 2;
            continue;
          }
          p++;
          break;
        }
        *w++ = *p++;
      }
      while (*p == ' ' || *p == '\t') p++;
      *w = '\0';
      if (*p == ',')
        p++;
      else if (*p)
        return -1;
      else
        break;
    } else {
      f[n++] = p;
      char *c = strchr(p, ',');
      char *end = c ? c : p + strlen(p);
      char *t = end;
      while (t > p && (t[-1] == ' ' || t[-1] == '\t')) t--;
      *t = '\0';
      if (!c) break;
      p = c + 1;
    }
  }
  return n;
}

const char *cs_csv_number(const char *s, unsigned flags, double *out) {
  char *end;
  errno = 0;
  double x = strtod(s, &end);
  if (end == s || *end) return "not a number";
  if (!isfinite(x) || errno == ERANGE) return "not a finite number";
  if (!(flags & CS_COL_SIGNED) && x < 0) return "negative";
  if ((flags & CS_COL_INT) && (x != floor(x) || fabs(x) > 9007199254740992.0))
    return "not an integer";
  *out = x;
  return NULL;
}

int cs_csv_find_col(char *const *hdr, int nh, const char *name) {
  for (int i = 0; i < nh; i++)
    if (!strcmp(hdr[i], name)) return i;
  return -1;
}

int cs_csv_kind_of(char *const *hdr, int nh, const cs_csv_kind *kinds, int n) {
  for (int o = 0; o < n; o++) {
    const cs_csv_schema *s = &schemas[kinds[o]];
    int ok = 1;
    for (int c = 0; c < s->ncols; c++)
      if ((s->cols[c].flags & CS_COL_KEY) && cs_csv_find_col(hdr, nh, s->cols[c].name) < 0) ok = 0;
    if (ok) return (int)kinds[o];
  }
  return -1;
}

/* ---- reading: a file line by line ------------------------------------------------ */

int cs_csv_open(cs_csv_reader *r, const char *path) {
  memset(r, 0, sizeof *r);
  r->f = fopen(path, "r");
  return r->f ? 0 : -1;
}

int cs_csv_next(cs_csv_reader *r) {
  while (r->f && fgets(r->line, sizeof r->line, r->f)) {
    size_t n = strlen(r->line);
    if (!n || r->line[n - 1] != '\n') return 0; /* an incomplete last line */
    r->line[--n] = '\0';
    if (n && r->line[n - 1] == '\r') r->line[--n] = '\0';
    r->lineno++;
    if (r->line[0] == '#') return 2;
    if (!r->line[0]) continue;
    if (!r->nh) { /* the header line */
      snprintf(r->hdrline, sizeof r->hdrline, "%s", r->line);
      r->nh = cs_csv_split(r->hdrline, r->hdr, CS_CSV_MAXCOLS);
      if (r->nh < 0) return 0;
      continue;
    }
    r->nf = cs_csv_split(r->line, r->fld, CS_CSV_MAXCOLS);
    if (r->nf < 0) r->nf = 0;
    return 1;
  }
  return 0;
}

int cs_csv_col(const cs_csv_reader *r, const char *name) {
  return cs_csv_find_col(r->hdr, r->nh, name);
}

const char *cs_csv_get(const cs_csv_reader *r, int i) {
  return i >= 0 && i < r->nf ? r->fld[i] : NULL;
}

void cs_csv_close(cs_csv_reader *r) {
  if (r->f) fclose(r->f);
  r->f = NULL;
}

/* ---- bench: verification lines ---------------------------------------------------- */

void cs_csv_bench_verify(FILE *f, const char *algo, long bytes, int p, const char *status,
                         const char *why) {
  fprintf(f, "# verify: algo=%s bytes=%ld p=%d status=%s: ", algo, bytes, p, status);
  for (const char *c = why; c && *c; c++) fputc(*c == '\n' ? ' ' : *c, f);
  fputc('\n', f);
}

/* Parses a verify line: 1 and its parts, or 0. */
static int parse_verify(const char *line, char *algo, size_t alen, long *bytes, char *status,
                        size_t slen, const char **why) {
  static const char tag[] = "# verify: algo=";
  if (strncmp(line, tag, sizeof tag - 1)) return 0;
  const char *a = line + sizeof tag - 1, *e = strstr(a, " bytes=");
  const char *st = e ? strstr(e, " status=") : NULL;
  if (!e || !st || (size_t)(e - a) >= alen) return 0;
  snprintf(algo, alen, "%.*s", (int)(e - a), a);
  *bytes = atol(e + 7);
  st += 8;
  const char *colon = strchr(st, ':');
  if (!colon || (size_t)(colon - st) >= slen) return 0;
  snprintf(status, slen, "%.*s", (int)(colon - st), st);
  *why = colon[1] == ' ' ? colon + 2 : colon + 1;
  return 1;
}

static int verify_done(const char *status) { return strcmp(status, "unverified") != 0; }

int cs_bench_lookup_verify(const char *path, const char *algo, long bytes, char *status,
                           size_t slen, char *why, size_t wlen) {
  cs_csv_reader r;
  if (cs_csv_open(&r, path)) return 0;
  int found = 0, k;
  char a[256], st[32];
  long b;
  const char *w;
  while ((k = cs_csv_next(&r)) != 0)
    if (k == 2 && parse_verify(r.line, a, sizeof a, &b, st, sizeof st, &w) && b == bytes &&
        !strcmp(a, algo)) {
      found = 1;
      snprintf(status, slen, "%s", st);
      snprintf(why, wlen, "%s", w);
    }
  cs_csv_close(&r);
  return found;
}

/* ---- reading: bench files -------------------------------------------------------- */

double cs_bench_lookup(const char *path, const char *algo, long bytes) {
  return cs_bench_lookup_col(path, algo, bytes, bench_cols[CS_BENCH_MEDIAN].name);
}

double cs_bench_lookup_col(const char *path, const char *algo, long bytes, const char *col) {
  cs_csv_reader r;
  if (cs_csv_open(&r, path)) return -1;
  double v = -1;
  int ialgo = -1, ibytes = -1, icol = -1, k;
  while ((k = cs_csv_next(&r)) != 0) {
    if (k != 1) continue;
    if (ialgo < 0) {
      ialgo = cs_csv_col(&r, bench_cols[CS_BENCH_ALGO].name);
      ibytes = cs_csv_col(&r, bench_cols[CS_BENCH_BYTES].name);
      icol = cs_csv_col(&r, col);
    }
    const char *a = cs_csv_get(&r, ialgo), *b = cs_csv_get(&r, ibytes), *m = cs_csv_get(&r, icol);
    if (a && b && !strcmp(a, algo) && atol(b) == bytes) v = m ? atof(m) : -1;
  }
  cs_csv_close(&r);
  return v;
}

int cs_bench_scan_rows(const char *path, const char *first_line,
                       void (*fn)(const char *algo, long bytes, void *), void *ctx) {
  FILE *f = fopen(path, "r+");
  if (!f) return 0;
  char line[8192];
  char *fld[CS_CSV_MAXCOLS];
  long good = 0;
  int rows = 0, first = 1, ialgo = -1, ibytes = -1, mismatch = 0;
  while (fgets(line, sizeof line, f)) {
    size_t n = strlen(line);
    if (n == 0 || line[n - 1] != '\n') break; /* incomplete last line */
    if (first) {
      first = 0;
      cs_prov have, want;
      if (cs_prov_parse(line, &have) || cs_prov_parse(first_line, &want) ||
          cs_prov_diff(&have, &want, NULL, NULL, 0) > 0) {
        mismatch = 1;
        break;
      }
    }
    good = ftell(f);
    if (line[0] == '#') {
      char a[256], st[32];
      long b;
      const char *w;
      if (parse_verify(line, a, sizeof a, &b, st, sizeof st, &w) && verify_done(st)) {
        fn(a, b, ctx); /* found wrong: done, never timed */
        rows++;
      }
      continue;
    }
    line[n - 1] = '\0';
    int nf = cs_csv_split(line, fld, CS_CSV_MAXCOLS);
    if (ialgo < 0) { /* the column header */
      ialgo = cs_csv_find_col(fld, nf, bench_cols[CS_BENCH_ALGO].name);
      ibytes = cs_csv_find_col(fld, nf, bench_cols[CS_BENCH_BYTES].name);
      continue;
    }
    if (ialgo < nf && ibytes >= 0 && ibytes < nf) {
      fn(fld[ialgo], atol(fld[ibytes]), ctx);
      rows++;
    }
  }
  if (!mismatch && !first) {
    fflush(f);
    if (ftruncate(fileno(f), good) != 0) perror("collsim: truncate");
  }
  fclose(f);
  return mismatch ? -1 : rows;
}

long cs_bench_count_done(const char *path, double floor, double *work) {
  cs_csv_reader r;
  *work = 0;
  if (cs_csv_open(&r, path)) return -1;
  long n = 0;
  int k, ib = -1;
  while ((k = cs_csv_next(&r)) != 0) {
    char a[256], st[32];
    long b;
    const char *w;
    if (k == 2) {
      if (parse_verify(r.line, a, sizeof a, &b, st, sizeof st, &w) && verify_done(st))
        n++, *work += (double)b + floor;
      continue;
    }
    if (ib < 0) ib = cs_csv_col(&r, bench_cols[CS_BENCH_BYTES].name);
    const char *f = cs_csv_get(&r, ib);
    if (f) n++, *work += atof(f) + floor;
  }
  cs_csv_close(&r);
  return n;
}

int cs_bench_read_samples(const char *path, const char *coll, const char *algo, long bytes,
                          double *t, int max) {
  cs_csv_reader r;
  if (cs_csv_open(&r, path)) return 0;
  int n = 0, k, have = 0, col[CS_SAMPLES_NCOL];
  while ((k = cs_csv_next(&r)) != 0) {
    if (k != 1) continue;
    if (!have) cs_csv_cols(&r, CS_CSV_SAMPLES, col);
    have = 1;
    const char *c = cs_csv_get(&r, col[CS_SAMPLES_COLL]), *a = cs_csv_get(&r, col[CS_SAMPLES_ALGO]),
               *b = cs_csv_get(&r, col[CS_SAMPLES_BYTES]),
               *rep = cs_csv_get(&r, col[CS_SAMPLES_REP]),
               *v = cs_csv_get(&r, col[CS_SAMPLES_TIME]);
    if (!c || !a || !b || !rep || !v) continue;
    if (strcmp(c, coll) || strcmp(a, algo) || atol(b) != bytes) continue;
    if (atoi(rep) == 0) n = 0; /* a later run of the same case replaces an earlier one */
    if (n < max) t[n++] = atof(v);
  }
  cs_csv_close(&r);
  return n;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* P(B = i) for B ~ binomial(n, 1/2), in logs (2^-n underflows for large n). */
static double binom_half(int i, int n) {
  return exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) - n * log(2.0));
}

void cs_median_ci(double *t, int n, double *med, double *lo, double *hi) {
  if (n < 1) {
    *med = *lo = *hi = NAN;
    return;
  }
  qsort(t, (size_t)n, sizeof(double), cmp_dbl);
  *med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
  *lo = t[0];
  *hi = t[n - 1];
  if (n >= 6) {
    /* the loop's invariant: cdf = P(B <= j) */
    int j = 1;
    double cdf = binom_half(0, n) + binom_half(1, n);
    while (j + 1 <= n / 2 && cdf <= 0.025) cdf += binom_half(++j, n);
    *lo = t[j - 1];
    *hi = t[n - j];
  }
}
