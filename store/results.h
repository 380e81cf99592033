/* The results store: every CSV file collsim writes, written and read here.
 *
 * A schema (docs/csv.md) is a kind of file with its column list, its comment
 * lines (how the file was made: `# collsim bench ...`, `# smpi-cfg: ...`) and
 * the format of each row. Writers (the front door in cli/, the driver in sim/)
 * and readers (resuming a bench, looking a time up, `collsim plot`,
 * `collsim calibrate`) share these definitions, so that a schema is written in
 * one place. Pure C without MPI: it is part of collsim_core and is also
 * compiled into the driver. Nothing here keeps writable state, since the
 * simulated ranks of smpirun -no-privatize share one copy of it. */
#ifndef COLLSIM_STORE_RESULTS_H
#define COLLSIM_STORE_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include "provenance.h"

/* The kinds of file. */
typedef enum {
  CS_CSV_BENCH,      /* timing runs: ./collsim bench and the driver */
  CS_CSV_PREDICT,    /* formula, model and simulation: predict, table1 */
  CS_CSV_VALIDATE,   /* predictions against measurements: validate */
  CS_CSV_GUIDELINES, /* both sides of each guideline: guidelines */
  CS_CSV_SAMPLES,    /* every repetition of a bench: the driver's --samples */
  CS_CSV_CALIB,      /* raw calibration samples: the driver's calibrate mode */
  CS_CSV_APP,        /* an application's time per algorithm: collsim app */
  CS_CSV_MAP,        /* every candidate's time per (p, bytes): map's raw file */
  CS_CSV_MAPWIN,     /* the fastest candidate per (p, bytes): map's winners file */
  CS_CSV_LANES,      /* the lane pattern and multi-collective benchmarks: collsim lanes */
  CS_CSV_NKIND
} cs_csv_kind;

/* What a reader may demand of a column. */
enum {
  CS_COL_KEY = 1,    /* a header of the kind has the column (it identifies the kind) */
  CS_COL_VALUE = 2,  /* where the column exists, every row has a value */
  CS_COL_INT = 4,    /* an integer */
  CS_COL_SIGNED = 8, /* a number that may be negative */
  CS_COL_TEXT = 16,  /* a name, not a number */
};

typedef struct {
  const char *name;
  unsigned flags;
} cs_csv_column;

typedef struct {
  const char *name; /* "bench", "predict", ... */
  const cs_csv_column *cols;
  int ncols;
} cs_csv_schema;

/* The columns of each kind, in the order they are written. */
enum {
  CS_BENCH_COLL,
  CS_BENCH_ALGO,
  CS_BENCH_P,
  CS_BENCH_BYTES,
  CS_BENCH_REPS,
  CS_BENCH_MEDIAN,
  CS_BENCH_MEAN,
  CS_BENCH_MIN,
  CS_BENCH_MAX,
  CS_BENCH_CILO,
  CS_BENCH_CIHI,
  CS_BENCH_RAN,     /* algo_ran: the algorithm that ran (a library row: SMPI's name) */
  CS_BENCH_REDUCED, /* reduced_bytes: local reduction bytes of one call, all processes */
  CS_BENCH_COPIED,  /* copied_bytes: local copy bytes of one call, all processes */
  CS_BENCH_NCOL
};
enum {
  CS_PREDICT_COLL,
  CS_PREDICT_ALGO,
  CS_PREDICT_P,
  CS_PREDICT_BYTES,
  CS_PREDICT_TABLE1,
  CS_PREDICT_MODEL,
  CS_PREDICT_SIM,
  CS_PREDICT_RELERR,
  CS_PREDICT_KIND, /* model_kind: the cost model and evaluator of model_s (docs/csv.md) */
  CS_PREDICT_NCOL
};
enum {
  CS_VALIDATE_COLL,
  CS_VALIDATE_ALGO,
  CS_VALIDATE_P,
  CS_VALIDATE_BYTES,
  CS_VALIDATE_MODEL,
  CS_VALIDATE_SIM,
  CS_VALIDATE_MEAS,
  CS_VALIDATE_MEAS_LO,
  CS_VALIDATE_MEAS_HI,
  CS_VALIDATE_ERR_MODEL,
  CS_VALIDATE_ERR_SIM,
  CS_VALIDATE_LAUNCHES,   /* mpirun launches the measurement is the median of */
  CS_VALIDATE_LAUNCH_MIN, /* smallest and largest per-launch median */
  CS_VALIDATE_LAUNCH_MAX,
  CS_VALIDATE_NCOL
};
enum {
  CS_GUIDE_ID,
  CS_GUIDE_LHS,
  CS_GUIDE_RHS,
  CS_GUIDE_P,
  CS_GUIDE_BYTES,
  CS_GUIDE_LHS_S,
  CS_GUIDE_RHS_S,
  CS_GUIDE_RATIO,
  CS_GUIDE_TOL,
  CS_GUIDE_VIOLATED,
  CS_GUIDE_SIDE,
  CS_GUIDE_NCOL
};
enum {
  CS_SAMPLES_COLL,
  CS_SAMPLES_ALGO,
  CS_SAMPLES_P,
  CS_SAMPLES_BYTES,
  CS_SAMPLES_REP,
  CS_SAMPLES_TIME,
  CS_SAMPLES_NCOL
};
enum {
  CS_APP_COLL,
  CS_APP_ALGO,
  CS_APP_P,
  CS_APP_TIME,     /* app_s: the application's simulated time */
  CS_APP_SPEEDUP,  /* speedup: app_s of the library's selector / app_s */
  CS_APP_COLL_S,   /* coll_s: time inside this collective */
  CS_APP_CALLS,    /* calls: calls of this collective */
  CS_APP_SERVED,   /* served: calls the algorithm computed */
  CS_APP_FALLBACK, /* fallback: calls the library served for a reason */
  CS_APP_ALL_S,    /* collectives_s: time inside every collective */
  CS_APP_SHARE,    /* share: collectives_s / app_s */
  CS_APP_NCOL
};
enum {
  CS_CALIB_KIND,
  CS_CALIB_PAIR,
  CS_CALIB_K,
  CS_CALIB_BYTES,
  CS_CALIB_REP,
  CS_CALIB_TIME,
  CS_CALIB_LAUNCH, /* 1.. (older files lack it: one launch) */
  CS_CALIB_NCOL
};

enum { CS_MAP_COLL, CS_MAP_ALGO, CS_MAP_P, CS_MAP_BYTES, CS_MAP_TIME, CS_MAP_NOTE, CS_MAP_NCOL };
/* collsim lanes (docs/csv.md): one row per (pattern, k, count); count in
 * MPI_INT elements (per node for the lane pattern, per process and lane for
 * multi), bytes = 4 count. */
enum {
  CS_LANES_PATTERN,
  CS_LANES_P,
  CS_LANES_NODES,
  CS_LANES_PPN,
  CS_LANES_K,
  CS_LANES_COUNT,
  CS_LANES_BYTES,
  CS_LANES_REPS,
  CS_LANES_MEAN,
  CS_LANES_MIN,
  CS_LANES_MAX,
  CS_LANES_NCOL
};
/* The winners file's columns: a FIXED schema (the tuning-file writers read it). */
enum {
  CS_MAPWIN_COLL,
  CS_MAPWIN_P,
  CS_MAPWIN_BYTES,
  CS_MAPWIN_WINNER,
  CS_MAPWIN_WINNER_S,
  CS_MAPWIN_RUNNER,
  CS_MAPWIN_RUNNER_S,
  CS_MAPWIN_RATIO,
  CS_MAPWIN_NCOL
};

const cs_csv_schema *cs_csv_schema_of(cs_csv_kind kind);
/* The name of column col (e.g. CS_BENCH_MEDIAN) of kind. */
const char *cs_csv_colname(cs_csv_kind kind, int col);

/* The header line of a kind, "coll,algo,..." (the column names joined by
 * commas, no newline) into buf; returns buf. */
const char *cs_csv_header(cs_csv_kind kind, char *buf, size_t len);
/* Writes the header line with its newline. */
void cs_csv_write_header(FILE *f, cs_csv_kind kind);

/* ---- writing: comment lines ------------------------------------------------ */

/* What a bench file's results depend on (its first line, compared key by
 * key with cs_prov_diff when a run resumes the file: store/provenance.h).
 * cfg, layout, op, platform_digest and placement may be NULL. */
typedef struct {
  const char *backend, *platform, *coll, *type, *cfg, *layout;
  int np, root, in_place, reps, warmup;
  const char *network; /* NULL: collsim's exact-timing settings; "smpi": SMPI's network model */
  /* 1: the library's reductions and copies are charged as collsim's (the
   * default under SMPI, written as " lib_charge=reductions,copies"; files
   * made when only reductions were charged say " lib_charge=gamma"); 0:
   * SMPI's own behaviour, written as nothing, as in files made before
   * charging existed. */
  int lib_charge;
  const char *op;              /* the reduction op of type (bor, sum, max) */
  const char *platform_digest; /* the platform file's digest (cs_digest_file) */
  const char *placement;       /* the digest of the ranks' hosts, one per rank (mpi: of the
                                  hostfile's bytes; "none" without one) */
  double gamma;                /* smpi: the gamma of local work, s/byte; < 0: none */
} cs_bench_meta;

/* The first line of a bench file, "# collsim bench backend=... \n", and the
 * same as key=value pairs. */
void cs_csv_bench_comment(char *buf, size_t len, const cs_bench_meta *m);
void cs_bench_prov(const cs_bench_meta *m, cs_prov *p);
/* "# command: ./collsim ARGS": the command that made a file, for people
 * (not compared on resume); nothing if command is NULL or "". */
void cs_csv_command(FILE *f, const char *command);
/* "# smpi-cfg: FLAGS": the smpirun options that timing runs use. */
void cs_csv_smpi_cfg(FILE *f, const char *flags);
/* "# KEY: TEXT": a fact about how a file was made (e.g. placement, gamma),
 * for people; readers skip it. */
void cs_csv_note(FILE *f, const char *key, const char *text);
/* "# library: ...": what the library's rows were charged for (smpi runs;
 * docs/library.md). */
void cs_csv_bench_lib_note(FILE *f, int charged);
/* "# sync=window|barrier": how the driver started each repetition. */
void cs_csv_bench_sync(FILE *f, int window);
/* The verification of a case before it is timed (sim/check.c
 * cs_check_verify), as a comment line before its row:
 *   "# verify: algo=A bytes=M p=P status=S: WHY"
 * status "wrong" or "known-defect" (a KNOWN defect of the library): the
 * case was not timed and has no row; "unverified": too large to check, the
 * row follows. A verified case has no such line. */
void cs_csv_bench_verify(FILE *f, const char *algo, long bytes, int p, const char *status,
                         const char *why);
/* The status of (algo, effective bytes) in a bench CSV's verify lines
 * ("wrong", "known-defect", "unverified") into status, and why; 0 if it has
 * none (verified, or not run), 1 if it has. */
int cs_bench_lookup_verify(const char *path, const char *algo, long bytes, char *status,
                           size_t slen, char *why, size_t wlen);

/* The first line of guidelines.csv: what both sides were timed on
 * (placement: the digest as in bench files; gamma < 0: none). */
void cs_csv_guidelines_comment(FILE *f, const char *backend, const char *platform, int np,
                               const char *lib, const char *ours, double tol, int wilcoxon,
                               const char *placement, double gamma);
/* The first line of a validate CSV: the simulated run's settings (sim: its
 * bench file's first line: platform and its digest, placement, type, op,
 * ...), the measured runs' as measured_KEY (placement, reps, ...), and the
 * launches. Either may be NULL (not run). */
void cs_csv_validate_comment(FILE *f, const cs_prov *sim, const cs_prov *measured, int launches);

/* The comment lines of a calibration samples file. */
typedef struct {
  char backend[16];
  int np, nodes, quick, reps, warmup;
  long max_bytes;
} cs_calib_meta;
void cs_csv_calib_comment(FILE *f, const cs_calib_meta *m);
/* The values of a calibration file's kind column (docs/calibrate.md). */
enum {
  CS_CALIB_PP_INTRA,
  CS_CALIB_PP_INTER,
  CS_CALIB_FLOW_INTER,
  CS_CALIB_FLOW_INTRA,
  CS_CALIB_REDUCE,
  CS_CALIB_MEMCPY,
  CS_CALIB_XCHG_INTRA, /* MPI_Sendrecv both ways at once (what the kernels do) */
  CS_CALIB_XCHG_INTER,
  CS_CALIB_NSERIES
};
/* The name of a kind ("pp_intra", ...), and the kind of a name (-1: none). */
const char *cs_csv_calib_kind(int kind);
int cs_csv_calib_kind_of(const char *name);
void cs_csv_calib_library(FILE *f, const char *library);
void cs_csv_calib_node(FILE *f, int node, int ranks, int first, const char *host);

/* ---- writing: rows -------------------------------------------------------- */

/* The columns a bench file got after its first schema (docs/csv.md). A
 * value that is NAN is written as an empty field, algo_ran "" as empty. */
typedef struct {
  const char *algo_ran;
  double reduced_bytes, copied_bytes;
} cs_bench_extra;
/* The median of t[0..n) (sorted in place) and the distribution-free 95%
 * confidence interval of the median from order statistics, [t_(j), t_(n-j+1)]
 * with the largest j <= n/2 such that P(B <= j - 1) <= 0.025 for B ~
 * binomial(n, 1/2); [min, max] for n < 6. The ci_lo, ci_hi of bench rows, and
 * of validate's drift probes. NAN for n < 1. */
void cs_median_ci(double *t, int n, double *med, double *lo, double *hi);

/* One bench row; x NULL writes the row of a file whose header predates the
 * extra columns (see cs_bench_file_extra). */
void cs_csv_bench_row(FILE *f, const char *coll, const char *algo, int p, long bytes, int reps,
                      double median, double mean, double min, double max, double ci_lo,
                      double ci_hi, const cs_bench_extra *x);
/* 1 iff the bench file at path has the extra columns in its header, 0 if
 * its header has none of them (an older file, resumed as it is), -1 if it
 * cannot be read or has no header. */
int cs_bench_file_extra(const char *path);
void cs_csv_samples_row(FILE *f, const char *coll, const char *algo, int p, long bytes, int rep,
                        double t);
void cs_csv_predict_row(FILE *f, const char *coll, const char *algo, int p, long bytes,
                        double table1, double model, double sim, double rel_err, const char *kind);
void cs_csv_validate_row(FILE *f, const char *coll, const char *algo, int p, long bytes,
                         double model, double sim, double meas, double meas_lo, double meas_hi,
                         double err_model, double err_sim, int launches, double launch_min,
                         double launch_max);
void cs_csv_guidelines_row(FILE *f, const char *id, const char *lhs, const char *rhs, int p,
                           long bytes, double lhs_s, double rhs_s, double ratio, double tol,
                           int violated, const char *side);
void cs_csv_app_row(FILE *f, const char *coll, const char *algo, int p, double app_s,
                    double speedup, double coll_s, long calls, long served, long fallback,
                    double all_s, double share);
void cs_csv_calib_row(FILE *f, const char *kind, const char *pair, int k, long bytes, int rep,
                      double t, int launch);
/* One row of a map's raw file: t NAN (no time) is written empty, with note
 * saying why (NULL or "" otherwise). */
void cs_csv_map_row(FILE *f, const char *coll, const char *algo, int p, long bytes, double t,
                    const char *note);
/* One row of a map's winners file; runner NULL (one candidate had a time)
 * leaves runner_up, runner_up_s and ratio empty, winner NULL (none had) all
 * five. ratio = runner_s / winner_s. */
void cs_csv_lanes_row(FILE *f, const char *pattern, int p, int nodes, int ppn, int k, long count,
                      int reps, double mean_s, double min_s, double max_s);
void cs_csv_map_winner_row(FILE *f, const char *coll, int p, long bytes, const char *winner,
                           double winner_s, const char *runner, double runner_s);

/* ---- reading ---------------------------------------------------------------- */

#define CS_CSV_MAXCOLS 256

/* Splits one line into fields, in place. Fields may be double-quoted ("" is a
 * quote inside); unquoted fields are trimmed. Returns the count, or -1. */
int cs_csv_split(char *line, char **f, int max);

/* Reads a number: the whole field, finite; CS_COL_INT: integral; without
 * CS_COL_SIGNED: >= 0. Returns NULL, or why the field is not such a number. */
const char *cs_csv_number(const char *s, unsigned flags, double *out);

/* The first of kinds[0..n) whose key columns the header hdr[0..nh) has, or -1. */
int cs_csv_kind_of(char *const *hdr, int nh, const cs_csv_kind *kinds, int n);

/* The index of column name in hdr[0..nh), or -1. */
int cs_csv_find_col(char *const *hdr, int nh, const char *name);

/* A file read line by line: comment lines are given whole, the header line
 * is kept, rows are split into fields found by column name. A last line
 * without a newline (a row being written) ends the file. */
typedef struct {
  FILE *f;
  char line[8192]; /* the current line, without its end (split in place for rows) */
  char hdrline[8192];
  char *hdr[CS_CSV_MAXCOLS], *fld[CS_CSV_MAXCOLS];
  int nh, nf;
  long lineno;
} cs_csv_reader;

/* Opens path; 0, or -1 if it cannot be read. */
int cs_csv_open(cs_csv_reader *r, const char *path);
/* The next line: 1 a row (fld[0..nf)), 2 a comment (line), 0 the end. */
int cs_csv_next(cs_csv_reader *r);
/* The index of a column of the header, -1 if it has none (or no header yet). */
int cs_csv_col(const cs_csv_reader *r, const char *name);
/* col[i] = the header's index of column i of schema kind (-1 where the
 * file has none), for every column of the schema (kind's *_NCOL entries). */
void cs_csv_cols(const cs_csv_reader *r, cs_csv_kind kind, int *col);
/* Field i of the current row, or NULL if i < 0 or the row is shorter. */
const char *cs_csv_get(const cs_csv_reader *r, int i);
void cs_csv_close(cs_csv_reader *r);

/* Median time of (algo, effective bytes) in a bench CSV, or -1. */
double cs_bench_lookup(const char *path, const char *algo, long bytes);
/* Column col of (algo, effective bytes) in a bench CSV (the last such row), or -1. */
double cs_bench_lookup_col(const char *path, const char *algo, long bytes, const char *col);

/* Reads the complete rows of a bench CSV and truncates the file after the
 * last of them (a row being written when a run was killed is dropped).
 * Calls fn for each row with its algo and bytes, and for each case found
 * wrong (a verify line "wrong" or "known-defect": done, never timed). Returns the number of
 * rows, or -1 if the file's first line records another configuration than
 * first_line (cs_prov_diff: any key differs; the file is left alone). A
 * missing file has 0 rows. */
int cs_bench_scan_rows(const char *path, const char *first_line,
                       void (*fn)(const char *algo, long bytes, void *), void *ctx);

/* Read-only, while a run appends to the file: the number of complete rows
 * and verify lines that mark a case done, and into *work the sum over them
 * of bytes + floor (the progress of a run: run/progress.h). -1 if the file
 * cannot be read. */
long cs_bench_count_done(const char *path, double floor, double *work);

/* Rep-level times of (coll, algo, bytes) from a samples CSV, up to max; a
 * later run of the same case (rep 0 again) replaces an earlier one. */
int cs_bench_read_samples(const char *path, const char *coll, const char *algo, long bytes,
                          double *t, int max);

/* Parses a comment line of a calibration samples file: 1 the first line
 * (backend, np, nodes of m), 2 "# library: " (library), 3 a node line
 * (*node, *ranks, host), 0 another line. */
int cs_csv_calib_parse(const char *line, cs_calib_meta *m, char *library, size_t liblen, int *node,
                       int *ranks, char *host, size_t hostlen);

#endif
