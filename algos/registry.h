/* The algorithm registry as data (no MPI needed): collectives, algorithms,
 * families, restrictions and references, all generated from colls.def and
 * registry.def. The CLI, the models and the driver share it. */
#ifndef COLLSIM_REGISTRY_H
#define COLLSIM_REGISTRY_H

#include <stdio.h>

typedef enum {
#define CS_COLL(id, Name, reduces, rooted, in_place, shape, size_from, init, call) CS_##id,
#include "colls.def"
#undef CS_COLL
  CS_NCOLL
} cs_coll;

/* Where MPI allows MPI_IN_PLACE (colls.def): never, as sendbuf on every
 * rank, as sendbuf at the root only, as recvbuf at the root only (scatter). */
enum { CS_IP_NONE, CS_IP_ALL, CS_IP_ROOT, CS_IP_ROOT_RECV };
/* What a size m means (algos/sizes.h). */
typedef enum { CS_SHAPE_VECTOR, CS_SHAPE_BLOCKS, CS_SHAPE_SPLIT } cs_shape;
/* Which arguments of a call give its size on a process (colls.def). */
enum { CS_SZ_DT, CS_SZ_RECV, CS_SZ_GATHER, CS_SZ_SCATTER, CS_SZ_ROOT };

/* One row of colls.def. */
typedef struct {
  const char *name, *mpi_name;
  int reduces, rooted, in_place; /* in_place: CS_IP_* */
  cs_shape shape;
  int size_from; /* CS_SZ_* */
} cs_coll_info;

/* Row flags (registry.def): CS_COMMUTATIVE = needs a commutative op;
 * CS_ASSOCIATIVE = needs an exactly associative op (cs_op_exact) for
 * results that are bitwise the same on every rank (each rank reduces in an
 * order of its own);
 * CS_NATIVE = the MPI library's own collective; CS_BASELINE = the row other
 * algorithms of its collective are divided by in normalized pictures (collsim
 * plot's default --baseline), at most one per collective; CS_NODE_AWARE = the
 * kernel reads its context (nodes, lanes: algos/ctx.h), or the composition
 * has a part on a node, lane or leaders communicator (or a part that reads
 * it; cs_compose_verify holds the flag to the parts both ways): the
 * dispatcher builds the context only for such rows, and passes ctx = NULL
 * to every other kernel, because building it costs every job a world
 * reduction and a split (4 s of simulator CPU at 8192 ranks); drivers build
 * it before timing; CS_NODES_ONLY = a CS_NODE_AWARE kernel that reads only
 * its node communicator: drivers then build no lane communicators before
 * timing (under SMPI every communicator costs each of its processes memory
 * proportional to the job: the lane communicators were 334 MB of NAP's
 * 730 MB at 8192 ranks, and what kept 32768 ranks from fitting), and bench
 * refuses the row's times if its kernel made one anyway; CS_INNER = the row
 * calls collectives inside (COLLSIM_INNER's rows, else the library's): a
 * composition with an `inner` part (cs_compose_verify holds the flag to the
 * parts both ways) or a kernel that asks cs_inner_row (the lane and hier
 * kernels, algos/lane: cs_lanes_get refuses a row without it); only such a
 * row can be named ROW@lib:SEL (cs_algo_at_lib). */
enum {
  CS_COMMUTATIVE = 1,
  CS_NATIVE = 2,
  CS_BASELINE = 4,
  CS_NODE_AWARE = 8,
  CS_ASSOCIATIVE = 16,
  CS_NODES_ONLY = 32,
  CS_INNER = 64
};

/* The papers' closed-form costs a registry row can name (models/table1.c
 * prices them), one per CS_FORMULA line of registry.def; CS_F_none: no
 * paper gives one. */
typedef enum {
  CS_F_none,
#define CS_FORMULA(name) CS_F_##name,
#include "registry.def"
#undef CS_FORMULA
  CS_NFORMULA
} cs_formula;

/* Registry positions: CS_A_<collective>_<name>. */
enum {
#define CS_ALGO(coll, name, family, flags, formula, ref)           CS_A_##coll##_##name,
#define CS_COMPOSE(coll, name, family, flags, formula, parts, ref) CS_A_##coll##_##name,
#include "registry.def"
#undef CS_ALGO
#undef CS_COMPOSE
  CS_NALGO
};

typedef struct {
  cs_coll coll;
  const char *name, *family;
  unsigned flags;
  cs_formula formula;
  const char *parts; /* CS_COMPOSE rows: "collective:algorithm[@communicator] ...";
                        CS_ALGO rows: "" */
  const char *ref;
  int index; /* position in the registry: cs_algos[index] is this row */
} cs_algo_info;

extern const cs_coll_info cs_colls[CS_NCOLL];
extern const cs_algo_info cs_algos[];
extern const int cs_nalgos;

/* -1 if unknown. */
int cs_coll_by_name(const char *name);
/* Looks up "name" or "native:SMPI_NAME" (the part after ':' is the library's
 * algorithm and is not checked here). NULL if unknown. */
const cs_algo_info *cs_algo_find(cs_coll coll, const char *name);
/* Whether an algorithm name stands for the MPI library (native, native:NAME,
 * lib:SELECTOR) rather than one of collsim's own. */
int cs_algo_is_library(const char *algo);
/* ROW@lib:SEL (bench under SMPI): the row ROW, with the library collectives
 * it calls inside (CS_INNER) run by SMPI's selector SEL, as a library's own
 * decompositions would call that library. Returns the length of ROW and sets
 * *sel to SEL, or returns 0 if name has no "@lib:". */
size_t cs_algo_at_lib(const char *name, const char **sel);
/* The row ROW of a name ROW@lib:SEL (NULL: unknown, or no "@lib:"). */
const cs_algo_info *cs_algo_find_at_lib(cs_coll coll, const char *name);
/* The SMPI selector a name runs the library under: SEL of lib:SEL or of
 * ROW@lib:SEL, else NULL. */
const char *cs_algo_selector(const char *name);
/* Writes the valid collective names, or the valid algorithm names of coll,
 * separated by ", ". */
void cs_print_colls(FILE *f);
void cs_print_algos(FILE *f, cs_coll coll);
/* collsim list: a table, or CSV with a header line. */
void cs_registry_print(FILE *f, int csv);

/* Families, derived from the rows: the distinct family names in the order of
 * their first row. Returns the number of families and, if names is not NULL,
 * writes up to max of them. */
int cs_families(const char **names, int max);
/* The position of family name in cs_families(), or -1 if no row has it. */
int cs_family_index(const char *name);
/* 1 iff some row of family is not the library's own (CS_NATIVE). */
int cs_family_is_ours(const char *family);
/* Writes the families separated by ", "; native_too = 0 leaves out the
 * families whose rows are all CS_NATIVE. */
void cs_print_families(FILE *f, int native_too);
/* The non-native rows of coll in registry order: writes up to max names and
 * returns how many there are. */
int cs_algo_names(cs_coll coll, const char **names, int max);
/* The row of coll flagged CS_BASELINE, or NULL. */
const cs_algo_info *cs_algo_baseline(cs_coll coll);
/* The colour of an algorithm name in pictures: 0 for the library's own
 * (native), else 1 + the position of the name among the distinct names of
 * the non-native rows, in registry order (so a new row gets the next
 * colour); -1 for a name no row has. */
int cs_algo_colour(const char *name);

/* SMPI's own algorithms (algos/smpi.def): the smpirun setting that selects
 * collective c's algorithm ("allreduce" for --cfg=smpi/allreduce:NAME), or
 * NULL if SMPI has one algorithm for it and no setting. */
const char *cs_smpi_cfg_key(cs_coll c);
/* Whether NAME is one of SMPI's algorithms for c. */
int cs_smpi_algo_valid(cs_coll c, const char *name);
/* Whether NAME is one of SMPI's selectors (lib:NAME). */
int cs_smpi_selector_valid(const char *name);
/* SMPI's algorithm names for c (sep between them), or "(none: ...)" when SMPI
 * has no setting for it; and SMPI's selectors. */
void cs_print_smpi_algos(FILE *f, cs_coll c, const char *sep);
void cs_print_smpi_selectors(FILE *f, const char *prefix, const char *sep);
/* Checks an algorithm argument that names the library: "native:NAME" (SMPI
 * must have NAME for c) or "lib:SEL". Returns 0 if valid or not such a name,
 * else -1 after printing, on f, what is valid. */
int cs_smpi_check_name(FILE *f, cs_coll c, const char *arg);
/* `collsim list --smpi`: every collective with SMPI's names for it. */
void cs_smpi_print_list(FILE *f);

#endif
