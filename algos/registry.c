#include "registry.h"

#include <string.h>

const cs_coll_info cs_colls[CS_NCOLL] = {
#define CS_COLL(id, Name, reduces, rooted, in_place, shape, size_from, init, call) \
  {#id, "MPI_" #Name, reduces, rooted, in_place, shape, size_from},
#include "colls.def"
#undef CS_COLL
};

const cs_algo_info cs_algos[] = {
#define CS_ALGO(coll, name, family, flags, formula, ref) \
  {CS_##coll, #name, family, flags, CS_F_##formula, "", ref, CS_A_##coll##_##name},
#define CS_COMPOSE(coll, name, family, flags, formula, parts, ref) \
  {CS_##coll, #name, family, flags, CS_F_##formula, parts, ref, CS_A_##coll##_##name},
#include "registry.def"
#undef CS_ALGO
#undef CS_COMPOSE
};

const int cs_nalgos = sizeof(cs_algos) / sizeof(cs_algos[0]);

int cs_coll_by_name(const char *name) {
  for (int c = 0; c < CS_NCOLL; c++)
    if (strcmp(cs_colls[c].name, name) == 0) return c;
  return -1;
}

int cs_algo_is_library(const char *algo) {
  return !strcmp(algo, "native") || !strncmp(algo, "native:", 7) || !strncmp(algo, "lib:", 4);
}

size_t cs_algo_at_lib(const char *name, const char **sel) {
  const char *at = strstr(name, "@lib:");
  if (!at) return 0;
  if (sel) *sel = at + 5;
  return (size_t)(at - name);
}

const char *cs_algo_selector(const char *name) {
  const char *sel;
  if (cs_algo_at_lib(name, &sel)) return sel;
  return strncmp(name, "lib:", 4) ? NULL : name + 4;
}

/* The row of coll named by the first len characters of name. */
static const cs_algo_info *find_len(cs_coll coll, const char *name, size_t len) {
  for (int i = 0; i < cs_nalgos; i++)
    if (cs_algos[i].coll == coll && strlen(cs_algos[i].name) == len &&
        strncmp(cs_algos[i].name, name, len) == 0)
      return &cs_algos[i];
  return NULL;
}

const cs_algo_info *cs_algo_find(cs_coll coll, const char *name) {
  size_t len = strcspn(name, ":");
  if (name[len] == ':' && strncmp(name, "native", len) != 0) return NULL;
  return find_len(coll, name, len);
}

const cs_algo_info *cs_algo_find_at_lib(cs_coll coll, const char *name) {
  size_t len = cs_algo_at_lib(name, NULL);
  return len ? find_len(coll, name, len) : NULL;
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
  fprintf(f, "%s native:NAME (SMPI's algorithm NAME: collsim list --smpi)", first ? "" : ",");
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

/* ---- SMPI's own algorithms (algos/smpi.def) ---------------------------------- */

typedef struct {
  const char *key, *names;
} smpi_row;

static const smpi_row *smpi_row_of(cs_coll c) {
  static smpi_row rows[CS_NCOLL];
  static int init;
  if (!init) {
#define CS_SMPI(coll, key, names) rows[CS_##coll] = (smpi_row){key, names};
#define CS_SMPI_SELECTORS(names)
#include "smpi.def"
#undef CS_SMPI
#undef CS_SMPI_SELECTORS
    init = 1;
  }
  return rows[c].key ? &rows[c] : NULL;
}

static const char smpi_selectors[] =
#define CS_SMPI(coll, key, names)
#define CS_SMPI_SELECTORS(names) names
#include "smpi.def"
#undef CS_SMPI
#undef CS_SMPI_SELECTORS
    ;

const char *cs_smpi_cfg_key(cs_coll c) {
  const smpi_row *r = smpi_row_of(c);
  return r ? r->key : NULL;
}

/* Whether name is one of the comma-separated words of list. */
static int in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; n && *p;) {
    size_t w = strcspn(p, ",");
    if (w == n && !strncmp(p, name, n)) return 1;
    p += w + (p[w] == ',');
  }
  return 0;
}

int cs_smpi_algo_valid(cs_coll c, const char *name) {
  const smpi_row *r = smpi_row_of(c);
  return r && in_list(r->names, name);
}

int cs_smpi_selector_valid(const char *name) { return in_list(smpi_selectors, name); }

static void print_list(FILE *f, const char *list, const char *prefix, const char *sep) {
  for (const char *p = list; *p;) {
    size_t w = strcspn(p, ",");
    fprintf(f, "%s%s%.*s", p == list ? "" : sep, prefix, (int)w, p);
    p += w + (p[w] == ',');
  }
}

void cs_print_smpi_algos(FILE *f, cs_coll c, const char *sep) {
  const smpi_row *r = smpi_row_of(c);
  if (r)
    print_list(f, r->names, "", sep);
  else
    fprintf(f, "(none: SMPI has one %s algorithm and no setting; use native)", cs_colls[c].name);
}

void cs_print_smpi_selectors(FILE *f, const char *prefix, const char *sep) {
  print_list(f, smpi_selectors, prefix, sep);
}

int cs_smpi_check_name(FILE *f, cs_coll c, const char *arg) {
  if (!strncmp(arg, "lib:", 4)) {
    if (cs_smpi_selector_valid(arg + 4)) return 0;
    fprintf(f, "collsim: %s: unknown SMPI selector (valid: ", arg);
    cs_print_smpi_selectors(f, "lib:", ", ");
    fprintf(f, ")\n");
    return -1;
  }
  if (strncmp(arg, "native:", 7)) return 0;
  if (cs_smpi_algo_valid(c, arg + 7)) return 0;
  if (!cs_smpi_cfg_key(c)) {
    fprintf(f,
            "collsim: %s: SMPI has one %s algorithm and no setting to choose another; use "
            "native\n",
            arg, cs_colls[c].name);
    return -1;
  }
  fprintf(f,
          "collsim: %s: SMPI 3.32 has no %s algorithm '%s' (valid: native:NAME with NAME one "
          "of ",
          arg, cs_colls[c].name, arg + 7);
  cs_print_smpi_algos(f, c, ", ");
  fprintf(f, "; collsim list --smpi lists them all)\n");
  return -1;
}

void cs_smpi_print_list(FILE *f) {
  fprintf(f,
          "SMPI's own algorithms (SimGrid 3.32), for --algos native:NAME; selectors for "
          "lib:NAME: ");
  cs_print_smpi_selectors(f, "", ", ");
  fprintf(f, "\n");
  for (int c = 0; c < CS_NCOLL; c++) {
    const char *key = cs_smpi_cfg_key((cs_coll)c);
    fprintf(f, "%-21s ", cs_colls[c].name);
    cs_print_smpi_algos(f, (cs_coll)c, " ");
    if (key && strcmp(key, cs_colls[c].name)) fprintf(f, "  (SMPI's %s setting)", key);
    fprintf(f, "\n");
  }
}
