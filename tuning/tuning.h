/* Tuning files: the winners of a fastest-algorithm map (`./collsim map`'s
 * winners CSV) turned into the selection tables that MPI libraries read, and
 * collsim's own table, which the PMPI library (pmpi/) reads at MPI_Init with
 * COLLSIM_TUNING=FILE. docs/tuning.md describes every format, the mapping of
 * candidates to Open MPI's and MPICH's algorithms and how grid points become
 * ranges.
 *
 * Two halves:
 *  - table.c (pure C, no MPI, no store): collsim's table format, read,
 *    checked and asked per call (cs_tuning_load, cs_tuning_pick); linked into
 *    libcollsim-pmpi.so and into the collsim library.
 *  - emit.c (with the results store): winners CSV -> ranges -> one of the
 *    four formats (cs_tuning_emit); in the collsim library only.
 */
#ifndef COLLSIM_TUNING_H
#define COLLSIM_TUNING_H

#include <stddef.h>
#include <stdint.h>

#include "../algos/registry.h"

/* An unbounded range end (p_hi, b_hi), written "inf" in collsim's format. */
#define CS_TUNING_INF (-1LL)

/* One rule: collective coll, p_lo <= p <= p_hi, b_lo <= m <= b_hi (m: the
 * total message size in bytes, docs/csv.md), served by algo (a registry name
 * of coll, or "native": the library's own collective). */
typedef struct {
  cs_coll coll;
  long long p_lo, p_hi, b_lo, b_hi; /* p_hi, b_hi: CS_TUNING_INF = unbounded */
  char algo[64];
  int line; /* line of the file it was read from (0: built) */
} cs_tuning_rule;

typedef struct cs_tuning_table cs_tuning_table;

/* ---- collsim's table (table.c) ------------------------------------------- */

/* Reads and checks a collsim tuning file (version line, rule syntax,
 * collectives, algorithms of the registry that can serve the rule, no two
 * rules of a collective that overlap). 0 and *out, or -1 with ONE sentence in
 * err naming the file, the line and what is valid. */
int cs_tuning_load(const char *path, cs_tuning_table **out, char *err, size_t errlen);
void cs_tuning_free(cs_tuning_table *t);
/* 1 iff the table has a rule for collective c. */
int cs_tuning_covers(const cs_tuning_table *t, cs_coll c);
/* The algorithm of the rule that holds (p, bytes) for c, its index in *rule;
 * NULL (and *rule = -1) if no rule does. A "native" rule gives the registry's
 * native row (CS_NATIVE): the library serves. */
const cs_algo_info *cs_tuning_pick(const cs_tuning_table *t, cs_coll c, long long p,
                                   long long bytes, int *rule);
/* Counts a call of p processes and `bytes` that rule served (thread safe);
 * cs_tuning_report prints one line per (collective, p, bytes) served:
 *   collsim-pmpi: tuning: allreduce p=4 bytes=64 butterfly calls=3 line=5 rank=0
 * (who: the library's name, collsim-pmpi or collsim-smpi, that starts the
 * line; line: the rule's line in the file), through out(line, ctx). */
void cs_tuning_served(cs_tuning_table *t, int rule, long long p, long long bytes);
void cs_tuning_report(const cs_tuning_table *t, const char *who, int rank,
                      void (*out)(const char *, void *), void *ctx);
/* A hash of the rules (for the check that every process read the same). */
uint64_t cs_tuning_hash(const cs_tuning_table *t);
/* The rules read (for tests and messages). */
int cs_tuning_nrules(const cs_tuning_table *t);
const cs_tuning_rule *cs_tuning_rule_at(const cs_tuning_table *t, int i);

/* ---- emitting (emit.c) ----------------------------------------------------- */

/* Writes the winners of winners_csv (the map's winners file: comment lines,
 * then coll,p,bytes,winner,winner_s,runner_up,runner_up_s,ratio) as the
 * tuning file that spec names:
 *   collsim:FILE      collsim's table (COLLSIM_TUNING=FILE, docs/tuning.md)
 *   ompi-rules:FILE   Open MPI's dynamic rules, classic format (4.1 reads it)
 *   ompi-json:FILE    Open MPI's dynamic rules, JSON version 3 (6.0)
 *   mpich-json:FILE   MPICH's collective selection JSON
 * A winner that the target cannot run (no Open MPI or MPICH counterpart,
 * an SMPI algorithm for collsim's table) is an error naming it and the
 * candidates that map. 0, or -1 with one sentence in err (nothing written). */
int cs_tuning_emit(const char *winners_csv, const char *spec, char *err, size_t errlen);
/* 0 if spec has the form cs_tuning_emit takes, else -1 with err (so that a
 * long run that ends with emitting refuses a bad spec before it starts). */
int cs_tuning_spec_check(const char *spec, char *err, size_t errlen);

/* The targets' names of a winner (tuning/targets.def): Open MPI's algorithm
 * id for collective c (-1: none), MPICH's algorithm (NULL: none); Open MPI's
 * collective id, JSON name and whether coll/tuned sizes c per process (m / p;
 * 0: m), or -1 if Open MPI's rules file has no such collective. */
int cs_tuning_ompi_alg(cs_coll c, const char *winner);
const char *cs_tuning_mpich_alg(cs_coll c, const char *winner);
int cs_tuning_ompi_coll(cs_coll c, const char **json, int *per_process);

/* The ranges the winners become (what every format writes): rules sorted by
 * collective, p_lo, b_lo; covering p >= 1 and m >= 0 for every collective of
 * the file. Returns the count and *out (free() it), or -1 with err. */
int cs_tuning_ranges(const char *winners_csv, cs_tuning_rule **out, char *err, size_t errlen);

#endif
