/* The algorithm registry as data (no MPI needed): collectives, algorithms,
 * families, restrictions and references, all generated from colls.def and
 * registry.def. The CLI, the models and the driver share it. */
#ifndef COLLSIM_REGISTRY_H
#define COLLSIM_REGISTRY_H

#include <stdio.h>

typedef enum {
#define CS_COLL(id, mpi, reduces, rooted, inplace) CS_##id,
#include "colls.def"
#undef CS_COLL
  CS_NCOLL
} cs_coll;

typedef struct {
  const char *name, *mpi_name;
  int reduces, rooted, in_place; /* in_place: 0 never, 1 all ranks, 2 root only */
} cs_coll_info;

enum { CS_COMMUTATIVE = 1, CS_NATIVE = 2 };

/* The papers' closed-form costs a registry row can name (models/ prices
 * them); CS_F_none: no paper gives one. */
typedef enum {
  CS_F_none,
  CS_F_circulant,
  CS_F_circulant_rsag,
  CS_F_circulant_rsg,
  CS_F_ceilhalf,
  CS_F_butterfly,
  CS_F_bruck,
  CS_NFORMULA
} cs_formula;

/* Registry positions: CS_A_<collective>_<name>. */
enum {
#define CS_ALGO(coll, name, family, flags, formula, parts, ref) CS_A_##coll##_##name,
#include "registry.def"
#undef CS_ALGO
  CS_NALGO
};

typedef struct {
  cs_coll coll;
  const char *name, *family;
  unsigned flags;
  cs_formula formula;
  const char *parts; /* "collective:algorithm ..." for a composition, else "" */
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
/* Writes the valid collective names, or the valid algorithm names of coll,
 * separated by ", ". */
void cs_print_colls(FILE *f);
void cs_print_algos(FILE *f, cs_coll coll);
/* collsim list: a table, or CSV with a header line. */
void cs_registry_print(FILE *f, int csv);

#endif
