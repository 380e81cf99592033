/* collsim's CSV files of every kind read whole into one table of rows, every
 * row checked against its kind's schema (store/results.h) and against the
 * definitions of its derived columns (docs/csv.md). The reader of
 * `collsim plot` (plots/plot.c); its messages say so. */
#ifndef COLLSIM_CSVTABLE_H
#define COLLSIM_CSVTABLE_H

#include <stddef.h>

/* Value slots of a row (cs_csv_rec.v); NAN = column absent or value empty.
 * CS_X_*: the columns that are not values (names, p, bytes). */
enum {
  CS_V_REPS,
  CS_V_MEDIAN,
  CS_V_MEAN,
  CS_V_MIN,
  CS_V_MAX,
  CS_V_CILO,
  CS_V_CIHI,
  CS_V_TABLE1,
  CS_V_MODEL,
  CS_V_SIM,
  CS_V_RELERR,
  CS_V_MEAS,
  CS_V_MLO,
  CS_V_MHI,
  CS_V_ERRM,
  CS_V_ERRS,
  CS_V_LHS,
  CS_V_RHS,
  CS_V_RATIO,
  CS_V_TOL,
  CS_V_VIOL,
  CS_NV,
  CS_X_S0 = 100,
  CS_X_S1,
  CS_X_S2,
  CS_X_S3,
  CS_X_P,
  CS_X_BYTES,
  CS_X_RAN /* bench: algo_ran, shown in legends, not part of a series' identity */
};

typedef struct {
  char *path, *platform; /* platform: basename without .xml, "" if unknown */
  int kind, rows;        /* kind: a cs_csv_kind, -1 if the file has none */
} cs_csv_file;

typedef struct {
  int kind, file; /* file: index into cs_csv_table.files */
  long line;
  char *s[4]; /* coll, algo / guideline, lhs, rhs, side */
  char *ran;  /* bench: the algorithm that ran (NULL: not recorded) */
  long p;
  double bytes;
  double v[CS_NV];
} cs_csv_rec;

/* Rows of every file read, and the errors found (only the first 20 are
 * printed). Start from {0}. */
typedef struct {
  cs_csv_file *files;
  int nfiles;
  cs_csv_rec *recs;
  long nrecs, caprecs;
  int nerrors;
} cs_csv_table;

/* Reads and checks one CSV file: appends its rows to T; errors are counted
 * in T->nerrors and printed as "collsim plot: FILE:LINE: ...". */
void cs_csv_table_read(cs_csv_table *T, const char *path);
/* Checks every row of T against the definitions of its derived columns. */
void cs_csv_table_check(cs_csv_table *T);
/* Counts an error of file at line (0: the whole file) and prints it. */
void cs_csv_bad(cs_csv_table *T, const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void cs_csv_table_free(cs_csv_table *T);

/* realloc and strdup for the reader and its user, plot: out of memory ends
 * the program with "collsim plot: out of memory". */
void *cs_csv_xrealloc(void *p, size_t n);
char *cs_csv_xstrdup(const char *s);

#endif
