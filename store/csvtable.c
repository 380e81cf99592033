/* collsim's CSV files read whole and checked (store/csvtable.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csvtable.h"
#include "results.h"

enum { NKIND = 4 }; /* the kinds of CSV: bench, predict, validate, guidelines */

static const char *kind_name(int k) { return cs_csv_schema_of((cs_csv_kind)k)->name; }

/* Where each column of a kind goes (-1: not drawn), by the store's column order. */
static const int bench_slot[CS_BENCH_NCOL] = {
    CS_X_S0,  CS_X_S1,  CS_X_P,    CS_X_BYTES, CS_V_REPS, CS_V_MEDIAN, CS_V_MEAN,
    CS_V_MIN, CS_V_MAX, CS_V_CILO, CS_V_CIHI,  CS_X_RAN,  -1,          -1};
static const int predict_slot[CS_PREDICT_NCOL] = {
    CS_X_S0, CS_X_S1, CS_X_P, CS_X_BYTES, CS_V_TABLE1, CS_V_MODEL, CS_V_SIM, CS_V_RELERR, -1};
static const int validate_slot[CS_VALIDATE_NCOL] = {
    CS_X_S0,  CS_X_S1,  CS_X_P,    CS_X_BYTES, CS_V_MODEL, CS_V_SIM, CS_V_MEAS,
    CS_V_MLO, CS_V_MHI, CS_V_ERRM, CS_V_ERRS,  -1,         -1,       -1};
static const int guide_slot[CS_GUIDE_NCOL] = {CS_X_S0,    CS_X_S1,   CS_X_S2,  CS_X_P,
                                              CS_X_BYTES, CS_V_LHS,  CS_V_RHS, CS_V_RATIO,
                                              CS_V_TOL,   CS_V_VIOL, CS_X_S3};
static const int *const kind_slot[NKIND] = {bench_slot, predict_slot, validate_slot, guide_slot};
/* Most specific first: a header is of the first kind whose key columns it has. */
static const cs_csv_kind kind_order[NKIND] = {CS_CSV_GUIDELINES, CS_CSV_VALIDATE, CS_CSV_PREDICT,
                                              CS_CSV_BENCH};

void *cs_csv_xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "collsim plot: out of memory\n");
    exit(1);
  }
  return q;
}

char *cs_csv_xstrdup(const char *s) {
  char *d = strdup(s);
  if (!d) {
    fprintf(stderr, "collsim plot: out of memory\n");
    exit(1);
  }
  return d;
}

void cs_csv_bad(cs_csv_table *T, const char *file, long line, const char *fmt, ...) {
  if (++T->nerrors > 20) return;
  if (line > 0)
    fprintf(stderr, "collsim plot: %s:%ld: ", file, line);
  else
    fprintf(stderr, "collsim plot: %s: ", file);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

static void platform_from_comment(cs_csv_file *cf, const char *line) {
  if (cf->platform[0]) return;
  const char *p = line;
  while ((p = strstr(p, "platform=")) != NULL) {
    if (p == line || isspace((unsigned char)p[-1]) || p[-1] == '#') break;
    p++;
  }
  if (!p) return;
  p += 9;
  char val[1024];
  size_t n = 0;
  char q = (*p == '"' || *p == '\'') ? *p++ : 0;
  while (*p && n < sizeof val - 1 && (q ? *p != q : !isspace((unsigned char)*p))) val[n++] = *p++;
  val[n] = '\0';
  const char *base = strrchr(val, '/');
  base = base ? base + 1 : val;
  char b[1024];
  snprintf(b, sizeof b, "%s", base);
  size_t bl = strlen(b);
  if (bl > 4 && !strcmp(b + bl - 4, ".xml")) b[bl - 4] = '\0';
  if (b[0]) {
    free(cf->platform);
    cf->platform = cs_csv_xstrdup(b);
  }
}

#define MAXCOLS 256

void cs_csv_table_read(cs_csv_table *T, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    cs_csv_bad(T, path, 0, "cannot open: %s", strerror(errno));
    return;
  }
  size_t cap = 1 << 16, len = 0;
  char *buf = cs_csv_xrealloc(NULL, cap);
  size_t got;
  while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len < 2) buf = cs_csv_xrealloc(buf, cap *= 2);
  }
  int ioerr = ferror(f);
  fclose(f);
  if (ioerr) {
    cs_csv_bad(T, path, 0, "read error");
    free(buf);
    return;
  }
  buf[len] = '\0';
  if (memchr(buf, '\0', len)) {
    cs_csv_bad(T, path, 0, "not a text file (contains NUL bytes)");
    free(buf);
    return;
  }

  T->files = cs_csv_xrealloc(T->files, (T->nfiles + 1) * sizeof *T->files);
  cs_csv_file *cf = &T->files[T->nfiles];
  cf->path = cs_csv_xstrdup(path);
  cf->platform = cs_csv_xstrdup("");
  cf->kind = -1;
  cf->rows = 0;
  int fi = T->nfiles++;

  char *hdr[MAXCOLS], *fld[MAXCOLS];
  int nh = 0, col_slot[MAXCOLS];
  unsigned col_flags[MAXCOLS];
  char *hdrcopy = NULL;
  int hdr_error = 0, errors_before = T->nerrors;
  long lineno = 0;
  char *p = buf;
  while (*p) {
    char *nl = strchr(p, '\n');
    lineno++;
    if (!nl) {
      /* Rows are complete only when they end with a newline: a writer may
       * still be appending this one. */
      fprintf(stderr, "collsim plot: note: %s:%ld: incomplete last line (no newline) ignored\n",
              path, lineno);
      break;
    }
    *nl = '\0';
    char *line = p;
    p = nl + 1;
    size_t ll = strlen(line);
    if (ll && line[ll - 1] == '\r') line[--ll] = '\0';
    char *t = line;
    while (*t == ' ' || *t == '\t') t++;
    if (*t == '#') {
      platform_from_comment(cf, t);
      continue;
    }
    if (!*t) continue;

    if (cf->kind < 0) { /* the header line */
      hdrcopy = cs_csv_xstrdup(t);
      nh = cs_csv_split(hdrcopy, hdr, MAXCOLS);
      if (nh < 0) {
        cs_csv_bad(T, path, lineno,
                   "cannot read the header line (more than %d columns or a bad quote)", MAXCOLS);
        hdr_error = 1;
        break;
      }
      for (int i = 0; i < nh; i++)
        for (int j = 0; j < i; j++)
          if (!strcmp(hdr[i], hdr[j]) && hdr[i][0]) {
            cs_csv_bad(T, path, lineno, "column '%s' appears twice in the header", hdr[i]);
            hdr_error = 1;
            goto out;
          }
      cf->kind = cs_csv_kind_of(hdr, nh, kind_order, NKIND);
      if (cf->kind < 0) {
        cs_csv_bad(T, path, lineno, "unknown CSV kind: header '%s'", t);
        hdr_error = 1;
        fprintf(stderr,
                "  known headers (docs/csv.md; columns in any order, more columns allowed):\n");
        for (int k = 0; k < NKIND; k++) {
          const cs_csv_schema *sc = cs_csv_schema_of((cs_csv_kind)k);
          char kh[1024];
          fprintf(stderr, "    %-10s %s\n", kind_name(k),
                  cs_csv_header((cs_csv_kind)k, kh, sizeof kh));
          int nmiss = 0;
          char miss[512] = "";
          for (int c = 0; c < sc->ncols; c++)
            if ((sc->cols[c].flags & CS_COL_KEY) &&
                cs_csv_find_col(hdr, nh, sc->cols[c].name) < 0) {
              nmiss++;
              size_t ml = strlen(miss);
              snprintf(miss + ml, sizeof miss - ml, "%s%s", ml ? ", " : "", sc->cols[c].name);
            }
          if (nmiss <= 2) fprintf(stderr, "               (this header lacks: %s)\n", miss);
        }
        goto out;
      }
      const cs_csv_schema *sc = cs_csv_schema_of((cs_csv_kind)cf->kind);
      for (int i = 0; i < nh; i++) {
        col_slot[i] = -1;
        col_flags[i] = 0;
        for (int c = 0; c < sc->ncols; c++)
          if (!strcmp(hdr[i], sc->cols[c].name)) {
            col_slot[i] = kind_slot[cf->kind][c];
            col_flags[i] = sc->cols[c].flags;
          }
      }
      continue;
    }

    /* A data row. */
    int n = cs_csv_split(t, fld, MAXCOLS);
    if (n != nh) {
      if (n < 0)
        cs_csv_bad(T, path, lineno,
                   "cannot split the row into fields (bad quote or too many fields)");
      else
        cs_csv_bad(T, path, lineno, "%d fields, but the header has %d", n, nh);
      continue;
    }
    if (T->nrecs == T->caprecs)
      T->recs = cs_csv_xrealloc(
          T->recs, (T->caprecs = T->caprecs ? 2 * T->caprecs : 1024) * sizeof *T->recs);
    cs_csv_rec *r = &T->recs[T->nrecs];
    memset(r, 0, sizeof *r);
    r->kind = cf->kind;
    r->file = fi;
    r->line = lineno;
    for (int v = 0; v < CS_NV; v++) r->v[v] = NAN;
    int ok = 1;
    for (int i = 0; i < nh && ok; i++) {
      int slot = col_slot[i];
      if (slot < 0) continue; /* a column this kind does not use */
      const char *s = fld[i];
      if (!*s) {
        if (col_flags[i] & CS_COL_VALUE) {
          cs_csv_bad(T, path, lineno, "column %s is empty", hdr[i]);
          ok = 0;
        }
        continue;
      }
      if (slot >= CS_X_S0 && slot <= CS_X_S3) {
        r->s[slot - CS_X_S0] = (char *)s;
        continue;
      }
      if (slot == CS_X_RAN) {
        r->ran = (char *)s;
        continue;
      }
      double x;
      const char *why = cs_csv_number(s, col_flags[i], &x);
      if (why) {
        cs_csv_bad(T, path, lineno, "column %s: '%s' is %s", hdr[i], s, why);
        ok = 0;
      } else if (slot == CS_X_P) {
        if (x < 1) {
          cs_csv_bad(T, path, lineno, "column p: %s is not a process count (>= 1)", s);
          ok = 0;
        }
        r->p = (long)x;
      } else if (slot == CS_X_BYTES) {
        r->bytes = x;
      } else {
        r->v[slot] = x;
      }
    }
    if (!ok) continue;
    for (int k = 0; k < 4; k++) r->s[k] = r->s[k] ? cs_csv_xstrdup(r->s[k]) : NULL;
    r->ran = r->ran ? cs_csv_xstrdup(r->ran) : NULL;
    T->nrecs++;
    cf->rows++;
  }
  if (cf->kind < 0 && !hdr_error)
    cs_csv_bad(T, path, 0, "no header line (empty, or only comments)");
  else if (cf->kind >= 0 && cf->rows == 0 && T->nerrors == errors_before)
    fprintf(stderr, "collsim plot: note: %s: a %s CSV without data rows\n", path,
            kind_name(cf->kind));
out:
  free(hdrcopy);
  free(buf);
}

/* ---- consistency checks of each row ------------------------------------ */

/* Columns computed from others (rel_err, err_*, ratio) are checked against
 * their definition in docs/csv.md, allowing for printing them with 3
 * significant digits: a mix-up of columns is far off. */
#define DERIVED_REL 6e-3

static int le(double a, double b) { return a <= b + 1e-9 * fabs(b) + 1e-15; }
static int close_to(double got, double want, double rel, double abs_) {
  return fabs(got - want) <= rel * fabs(want) + abs_;
}

static void check_row(cs_csv_table *T, const cs_csv_rec *r) {
  const char *fn = T->files[r->file].path;
  const double *v = r->v;
  switch (r->kind) {
  case CS_CSV_BENCH:
    if (!isnan(v[CS_V_REPS]) && v[CS_V_REPS] < 1)
      cs_csv_bad(T, fn, r->line, "reps = %g (must be >= 1)", v[CS_V_REPS]);
    if (!isnan(v[CS_V_MIN]) && !le(v[CS_V_MIN], v[CS_V_MEDIAN]))
      cs_csv_bad(T, fn, r->line, "min_s %.9g > median_s %.9g: columns mixed up?", v[CS_V_MIN],
                 v[CS_V_MEDIAN]);
    if (!isnan(v[CS_V_MAX]) && !le(v[CS_V_MEDIAN], v[CS_V_MAX]))
      cs_csv_bad(T, fn, r->line, "median_s %.9g > max_s %.9g: columns mixed up?", v[CS_V_MEDIAN],
                 v[CS_V_MAX]);
    if (!isnan(v[CS_V_CILO]) && !le(v[CS_V_CILO], v[CS_V_MEDIAN]))
      cs_csv_bad(T, fn, r->line, "ci_lo_s %.9g > median_s %.9g", v[CS_V_CILO], v[CS_V_MEDIAN]);
    if (!isnan(v[CS_V_CIHI]) && !le(v[CS_V_MEDIAN], v[CS_V_CIHI]))
      cs_csv_bad(T, fn, r->line, "median_s %.9g > ci_hi_s %.9g", v[CS_V_MEDIAN], v[CS_V_CIHI]);
    if (!isnan(v[CS_V_MEAN]) && !isnan(v[CS_V_MIN]) && !isnan(v[CS_V_MAX]) &&
        !(le(v[CS_V_MIN], v[CS_V_MEAN]) && le(v[CS_V_MEAN], v[CS_V_MAX])))
      cs_csv_bad(T, fn, r->line, "mean_s %.9g outside min_s..max_s", v[CS_V_MEAN]);
    break;
  case CS_CSV_PREDICT:
    if (!isnan(v[CS_V_RELERR])) {
      if (isnan(v[CS_V_SIM]))
        cs_csv_bad(T, fn, r->line, "rel_err without sim_s");
      else if (v[CS_V_MODEL] > 0 &&
               !close_to(v[CS_V_RELERR], fabs(v[CS_V_SIM] - v[CS_V_MODEL]) / v[CS_V_MODEL],
                         DERIVED_REL, 1e-6))
        cs_csv_bad(T, fn, r->line,
                   "rel_err %.9g is not |sim_s - model_s| / model_s = %.9g: columns mixed up?",
                   v[CS_V_RELERR], fabs(v[CS_V_SIM] - v[CS_V_MODEL]) / v[CS_V_MODEL]);
    }
    break;
  case CS_CSV_VALIDATE:
    if (!isnan(v[CS_V_MLO]) && !le(v[CS_V_MLO], v[CS_V_MEAS]))
      cs_csv_bad(T, fn, r->line, "measured_lo_s %.9g > measured_s %.9g", v[CS_V_MLO], v[CS_V_MEAS]);
    if (!isnan(v[CS_V_MHI]) && !le(v[CS_V_MEAS], v[CS_V_MHI]))
      cs_csv_bad(T, fn, r->line, "measured_s %.9g > measured_hi_s %.9g", v[CS_V_MEAS], v[CS_V_MHI]);
    if (v[CS_V_MEAS] > 0) {
      if (!isnan(v[CS_V_ERRM]) && !isnan(v[CS_V_MODEL]) &&
          !close_to(v[CS_V_ERRM], (v[CS_V_MODEL] - v[CS_V_MEAS]) / v[CS_V_MEAS], DERIVED_REL, 1e-6))
        cs_csv_bad(T, fn, r->line,
                   "err_model %.9g is not (model_s - measured_s) / measured_s = %.9g", v[CS_V_ERRM],
                   (v[CS_V_MODEL] - v[CS_V_MEAS]) / v[CS_V_MEAS]);
      if (!isnan(v[CS_V_ERRS]) && !isnan(v[CS_V_SIM]) &&
          !close_to(v[CS_V_ERRS], (v[CS_V_SIM] - v[CS_V_MEAS]) / v[CS_V_MEAS], DERIVED_REL, 1e-6))
        cs_csv_bad(T, fn, r->line, "err_sim %.9g is not (sim_s - measured_s) / measured_s = %.9g",
                   v[CS_V_ERRS], (v[CS_V_SIM] - v[CS_V_MEAS]) / v[CS_V_MEAS]);
    }
    break;
  case CS_CSV_GUIDELINES:
    if (v[CS_V_VIOL] != 0 && v[CS_V_VIOL] != 1)
      cs_csv_bad(T, fn, r->line, "violated = %g (must be 0 or 1)", v[CS_V_VIOL]);
    if (v[CS_V_RHS] > 0 && !close_to(v[CS_V_RATIO], v[CS_V_LHS] / v[CS_V_RHS], DERIVED_REL, 1e-12))
      cs_csv_bad(T, fn, r->line, "ratio %.9g is not lhs_s / rhs_s = %.9g: columns mixed up?",
                 v[CS_V_RATIO], v[CS_V_LHS] / v[CS_V_RHS]);
    break;
  }
}

void cs_csv_table_check(cs_csv_table *T) {
  for (long i = 0; i < T->nrecs; i++) check_row(T, &T->recs[i]);
}

void cs_csv_table_free(cs_csv_table *T) {
  for (long i = 0; i < T->nrecs; i++) {
    for (int k = 0; k < 3; k++) free(T->recs[i].s[k]);
    free(T->recs[i].ran);
  }
  free(T->recs);
  for (int i = 0; i < T->nfiles; i++) free(T->files[i].path), free(T->files[i].platform);
  free(T->files);
  memset(T, 0, sizeof *T);
}
