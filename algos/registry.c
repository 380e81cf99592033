#include "registry.h"

#include <string.h>

const cs_coll_info cs_colls[CS_NCOLL] = {
#define CS_COLL(id, mpi, reduces, rooted, inplace) {#id, mpi, reduces, rooted, inplace},
#include "colls.def"
#undef CS_COLL
};

const cs_algo_info cs_algos[] = {
#define CS_ALGO(coll, name, family, flags, formula, parts, ref) \
  {CS_##coll, #name, family, flags, CS_F_##formula, parts, ref, CS_A_##coll##_##name},
#include "registry.def"
#undef CS_ALGO
};

const int cs_nalgos = sizeof(cs_algos) / sizeof(cs_algos[0]);

int cs_coll_by_name(const char *name) {
  for (int c = 0; c < CS_NCOLL; c++)
    if (strcmp(cs_colls[c].name, name) == 0) return c;
  return -1;
}

const cs_algo_info *cs_algo_find(cs_coll coll, const char *name) {
  size_t len = strcspn(name, ":");
  if (name[len] == ':' && strncmp(name, "native", len) != 0) return NULL;
  for (int i = 0; i < cs_nalgos; i++)
    if (cs_algos[i].coll == coll && strlen(cs_algos[i].name) == len &&
        strncmp(cs_algos[i].name, name, len) == 0)
      return &cs_algos[i];
  return NULL;
}

void cs_print_colls(FILE *f) {
  for (int c = 0; c < CS_NCOLL; c++) fprintf(f, "%s%s", c ? ", " : "", cs_colls[c].name);
}

void cs_print_algos(FILE *f, cs_coll coll) {
  int first = 1;
  for (int i = 0; i < cs_nalgos; i++)
    if (cs_algos[i].coll == coll) {
      fprintf(f, "%s%s", first ? "" : ", ", cs_algos[i].name);
      first = 0;
    }
  fprintf(f, "%s native:NAME (an SMPI algorithm)", first ? "" : ",");
}

static const char *restrictions(unsigned flags) {
  if ((flags & CS_COMMUTATIVE) && (flags & CS_ASSOCIATIVE)) return "commutative exact op";
  if (flags & CS_COMMUTATIVE) return "commutative op";
  if (flags & CS_NATIVE) return "library (native:NAME picks an SMPI algorithm)";
  return "none";
}

void cs_registry_print(FILE *f, int csv) {
  if (csv)
    fprintf(f, "collective,algorithm,family,restrictions,reference\n");
  else
    fprintf(f, "%-21s %-15s %-10s %-15s %s\n", "COLLECTIVE", "ALGORITHM", "FAMILY", "RESTRICTIONS",
            "REFERENCE");
  for (int i = 0; i < cs_nalgos; i++) {
    const cs_algo_info *a = &cs_algos[i];
    if (csv)
      fprintf(f, "%s,%s,%s,%s,\"%s\"\n", cs_colls[a->coll].name, a->name, a->family,
              restrictions(a->flags), a->ref);
    else
      fprintf(f, "%-21s %-15s %-10s %-15s %s\n", cs_colls[a->coll].name, a->name, a->family,
              (a->flags & CS_COMMUTATIVE) && (a->flags & CS_ASSOCIATIVE) ? "commut.,exact"
              : a->flags & CS_COMMUTATIVE                                ? "commutative"
              : a->flags & CS_NATIVE                                     ? "library"
                                                                         : "-",
              a->ref);
  }
}

int cs_families(const char **names, int max) {
  int n = 0;
  for (int i = 0; i < cs_nalgos; i++) {
    int seen = 0;
    for (int k = 0; k < i && !seen; k++) seen = !strcmp(cs_algos[k].family, cs_algos[i].family);
    if (seen) continue;
    if (names && n < max) names[n] = cs_algos[i].family;
    n++;
  }
  return n;
}

int cs_family_index(const char *name) {
  const char *fam[64];
  int n = cs_families(fam, 64);
  for (int i = 0; i < n && i < 64; i++)
    if (!strcmp(fam[i], name)) return i;
  return -1;
}

int cs_family_is_ours(const char *family) {
  for (int i = 0; i < cs_nalgos; i++)
    if (!strcmp(cs_algos[i].family, family) && !(cs_algos[i].flags & CS_NATIVE)) return 1;
  return 0;
}

void cs_print_families(FILE *f, int native_too) {
  const char *fam[64];
  int n = cs_families(fam, 64), first = 1;
  for (int i = 0; i < n && i < 64; i++)
    if (native_too || cs_family_is_ours(fam[i])) {
      fprintf(f, "%s%s", first ? "" : ", ", fam[i]);
      first = 0;
    }
}

int cs_algo_names(cs_coll coll, const char **names, int max) {
  int n = 0;
  for (int i = 0; i < cs_nalgos; i++)
    if (cs_algos[i].coll == coll && !(cs_algos[i].flags & CS_NATIVE)) {
      if (names && n < max) names[n] = cs_algos[i].name;
      n++;
    }
  return n;
}

const cs_algo_info *cs_algo_baseline(cs_coll coll) {
  for (int i = 0; i < cs_nalgos; i++)
    if (cs_algos[i].coll == coll && (cs_algos[i].flags & CS_BASELINE)) return &cs_algos[i];
  return NULL;
}

int cs_algo_colour(const char *name) {
  int n = 0;
  for (int i = 0; i < cs_nalgos; i++) {
    const cs_algo_info *a = &cs_algos[i];
    if (!strcmp(a->name, name) && (a->flags & CS_NATIVE)) return 0;
    if (a->flags & CS_NATIVE) continue;
    int seen = 0;
    for (int k = 0; k < i && !seen; k++)
      seen = !(cs_algos[k].flags & CS_NATIVE) && !strcmp(cs_algos[k].name, a->name);
    if (seen) continue;
    n++;
    if (!strcmp(a->name, name)) return n;
  }
  return -1;
}
