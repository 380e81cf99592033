/* Two results files side by side (store/compare.h). */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"

/* The value column of each kind when none is given. */
static const char *default_col(int kind) {
  switch (kind) {
  case CS_CSV_BENCH: return "median_s";
  case CS_CSV_PREDICT: return "sim_s";
  case CS_CSV_VALIDATE: return "measured_s";
  case CS_CSV_GUIDELINES: return "ratio";
  default: return "time_s";
  }
}

typedef struct {
  cs_cmp_row *r;
  int n, cap;
} rowset;

static int by_key(const void *x, const void *y) {
  return strcmp(((const cs_cmp_row *)x)->key, ((const cs_cmp_row *)y)->key);
}

/* Reads the rows of path: key columns and value (as in C); 0 or -1. */
/* The header of r as one line (its fields are split in place). */
static const char *header_text(const cs_csv_reader *r, char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < r->nh && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "," : "", r->hdr[i]);
  return buf;
}

/* first: A, whose kind chooses the columns; else B, which must be of kind
 * *kind (A's). */
static int read_rows(const char *path, cs_cmp *C, int *kind, rowset *S, char *err, size_t len,
                     int first) {
  char hb[2048];
  cs_csv_reader r;
  if (cs_csv_open(&r, path)) {
    snprintf(err, len, "cannot read %s", path);
    return -1;
  }
  int k, kcol[CS_CMP_MAXKEYS], vcol = -1, pos = 0;
  while ((k = cs_csv_next(&r)) != 0) {
    if (k != 1) continue;
    if (vcol < 0) { /* the header is known once the first row is read */
      static const cs_csv_kind all[] = {CS_CSV_BENCH,      CS_CSV_PREDICT, CS_CSV_VALIDATE,
                                        CS_CSV_GUIDELINES, CS_CSV_SAMPLES, CS_CSV_CALIB};
      int kd = cs_csv_kind_of(r.hdr, r.nh, all, 6);
      if (kd < 0) {
        snprintf(err, len, "%s is not a collsim results file (its header is: %s)", path,
                 header_text(&r, hb, sizeof hb));
        cs_csv_close(&r);
        return -1;
      }
      if (!first && kd != *kind) {
        snprintf(err, len, "%s is a %s file, the first a %s file: compare files of one kind", path,
                 cs_csv_schema_of((cs_csv_kind)kd)->name,
                 cs_csv_schema_of((cs_csv_kind)*kind)->name);
        cs_csv_close(&r);
        return -1;
      }
      *kind = kd;
      if (first) {
        const cs_csv_schema *s = cs_csv_schema_of((cs_csv_kind)*kind);
        snprintf(C->kind, sizeof C->kind, "%s", s->name);
        if (!C->col[0]) snprintf(C->col, sizeof C->col, "%s", default_col(*kind));
        if (!C->nkeys)
          for (int c = 0; c < s->ncols && C->nkeys < CS_CMP_MAXKEYS; c++) {
            unsigned fl = s->cols[c].flags;
            if (!(fl & CS_COL_KEY) || !(fl & (CS_COL_TEXT | CS_COL_INT))) break;
            snprintf(C->keys[C->nkeys++], sizeof C->keys[0], "%s", s->cols[c].name);
          }
        C->xkey = -1;
        for (int i = 0; i < C->nkeys; i++)
          if (!strcmp(C->keys[i], "bytes")) C->xkey = i;
      }
      for (int i = 0; i < C->nkeys; i++)
        if ((kcol[i] = cs_csv_col(&r, C->keys[i])) < 0) {
          snprintf(err, len, "%s has no column %s (its header: %s)", path, C->keys[i],
                   header_text(&r, hb, sizeof hb));
          cs_csv_close(&r);
          return -1;
        }
      if ((vcol = cs_csv_col(&r, C->col)) < 0) {
        snprintf(err, len, "%s has no column %s (its header: %s)", path, C->col,
                 header_text(&r, hb, sizeof hb));
        cs_csv_close(&r);
        return -1;
      }
    }
    const char *v = cs_csv_get(&r, vcol);
    double val;
    if (!v || cs_csv_number(v, CS_COL_SIGNED, &val)) continue; /* an empty value: no case */
    cs_cmp_row row;
    memset(&row, 0, sizeof row);
    size_t kl = 0, sl = 0;
    int ok = 1;
    for (int i = 0; i < C->nkeys && ok; i++) {
      const char *f = cs_csv_get(&r, kcol[i]);
      if (!f) ok = 0;
      if (!ok) break;
      kl += (size_t)snprintf(row.key + kl, kl < sizeof row.key ? sizeof row.key - kl : 0, "%s%s",
                             i ? "," : "", f);
      if (i == C->xkey)
        row.x = atof(f);
      else
        sl += (size_t)snprintf(row.series + sl, sl < sizeof row.series ? sizeof row.series - sl : 0,
                               "%s%s", sl ? " " : "", f);
    }
    if (!ok) continue;
    if (C->xkey < 0) row.x = pos;
    pos++;
    row.a = val;
    if (S->n == S->cap) {
      S->cap = S->cap ? 2 * S->cap : 256;
      cs_cmp_row *g = realloc(S->r, (size_t)S->cap * sizeof *g);
      if (!g) {
        snprintf(err, len, "out of memory");
        cs_csv_close(&r);
        return -1;
      }
      S->r = g;
    }
    S->r[S->n++] = row;
  }
  cs_csv_close(&r);
  if (vcol < 0) {
    snprintf(err, len, "%s has no rows", path);
    return -1;
  }
  return 0;
}

/* Keeps the last row of each key (a later run of the same case replaces an
 * earlier one, as the store's lookups do), in the order of first sight. */
static void last_of_each(rowset *S) {
  int k = 0;
  for (int i = 0; i < S->n; i++) {
    int j = 0;
    while (j < k && strcmp(S->r[j].key, S->r[i].key)) j++;
    if (j < k)
      S->r[j] = S->r[i];
    else
      S->r[k++] = S->r[i];
  }
  S->n = k;
}

int cs_compare_read(const char *a, const char *b, const char *col, const char *keys, cs_cmp *C,
                    char *err, size_t len) {
  memset(C, 0, sizeof *C);
  if (col) snprintf(C->col, sizeof C->col, "%s", col);
  if (keys) {
    char w[1024];
    snprintf(w, sizeof w, "%s", keys);
    for (char *s = NULL, *t = strtok_r(w, ",", &s); t && C->nkeys < CS_CMP_MAXKEYS;
         t = strtok_r(NULL, ",", &s))
      snprintf(C->keys[C->nkeys++], sizeof C->keys[0], "%s", t);
  }
  if (cs_prov_read(a, &C->pa)) cs_prov_init(&C->pa, "");
  if (cs_prov_read(b, &C->pb)) cs_prov_init(&C->pb, "");
  rowset A = {0}, B = {0};
  int ka = -1, kb = -1, rc = -1;
  if (read_rows(a, C, &ka, &A, err, len, 1)) goto out;
  kb = ka;
  if (read_rows(b, C, &kb, &B, err, len, 0)) goto out;
  last_of_each(&A);
  last_of_each(&B);
  C->na = A.n;
  C->nb = B.n;
  if (A.n) snprintf(C->a_first, sizeof C->a_first, "%s", A.r[0].key);
  if (B.n) snprintf(C->b_first, sizeof C->b_first, "%s", B.r[0].key);
  qsort(B.r, (size_t)B.n, sizeof *B.r, by_key);
  C->rows = malloc((size_t)(A.n ? A.n : 1) * sizeof *C->rows);
  if (!C->rows) {
    snprintf(err, len, "out of memory");
    goto out;
  }
  for (int i = 0; i < A.n; i++) {
    const cs_cmp_row *m = B.n ? bsearch(&A.r[i], B.r, (size_t)B.n, sizeof *B.r, by_key) : NULL;
    if (!m) continue;
    C->rows[C->n] = A.r[i];
    C->rows[C->n].b = m->a;
    C->n++;
  }
  rc = 0;
out:
  free(A.r);
  free(B.r);
  return rc;
}

void cs_compare_free(cs_cmp *C) {
  free(C->rows);
  C->rows = NULL;
  C->n = 0;
}

static double ratio(const cs_cmp_row *r) { return r->a != 0 ? r->b / r->a : NAN; }

void cs_compare_table(FILE *f, const cs_cmp *C, const char *la, const char *lb) {
  int w = 4;
  for (int i = 0; i < C->nkeys; i++) w += (int)strlen(C->keys[i]) + 1;
  for (int i = 0; i < C->n; i++)
    if ((int)strlen(C->rows[i].key) > w) w = (int)strlen(C->rows[i].key);
  char hdr[600];
  size_t n = 0;
  hdr[0] = '\0';
  for (int i = 0; i < C->nkeys; i++)
    n += (size_t)snprintf(hdr + n, n < sizeof hdr ? sizeof hdr - n : 0, "%s%s", i ? "," : "",
                          C->keys[i]);
  fprintf(f, "%-*s  %14s  %14s  %8s\n", w, hdr, la, lb, "B/A");
  for (int i = 0; i < C->n; i++)
    fprintf(f, "%-*s  %14.6g  %14.6g  %8.3f\n", w, C->rows[i].key, C->rows[i].a, C->rows[i].b,
            ratio(&C->rows[i]));
}

void cs_compare_csv(FILE *f, const cs_cmp *C, const char *a, const char *b, const char *command) {
  cs_prov p;
  char line[4096];
  int ok;
  cs_prov_init(&p, "compare");
  cs_prov_set(&p, "a", "%s", a);
  cs_digest_hex(cs_digest_file(a, &ok), line, 32);
  cs_prov_set(&p, "a_digest", "%s", line);
  cs_prov_set(&p, "b", "%s", b);
  cs_digest_hex(cs_digest_file(b, &ok), line, 32);
  cs_prov_set(&p, "b_digest", "%s", line);
  cs_prov_set(&p, "kind", "%s", C->kind);
  cs_prov_set(&p, "col", "%s", C->col);
  fputs(cs_prov_line(&p, line, sizeof line), f);
  cs_csv_command(f, command);
  for (int i = 0; i < C->nkeys; i++) fprintf(f, "%s,", C->keys[i]);
  fprintf(f, "a_%s,b_%s,ratio\n", C->col, C->col);
  for (int i = 0; i < C->n; i++)
    fprintf(f, "%s,%.10g,%.10g,%.6g\n", C->rows[i].key, C->rows[i].a, C->rows[i].b,
            ratio(&C->rows[i]));
}
