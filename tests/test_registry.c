/* The registry as data (algos/registry.h): what the derived lists rely on.
 * Each row knows its position; at most one row per collective is the
 * baseline; families, colours and name lists come out of the rows. */
#include <stdio.h>
#include <string.h>

#include "assert.h"
#include "registry.h"

int main(void) {
  ASSERT(cs_nalgos == CS_NALGO, "cs_nalgos %d, CS_NALGO %d", cs_nalgos, (int)CS_NALGO);
  for (int i = 0; i < cs_nalgos; i++) {
    const cs_algo_info *a = &cs_algos[i];
    const char *c = cs_colls[a->coll].name;
    ASSERT(a->index == i, "%s/%s has index %d at position %d", c, a->name, a->index, i);
    ASSERT(cs_algo_find(a->coll, a->name) == a, "%s/%s is not found by name", c, a->name);
    ASSERT(a->formula >= CS_F_none && a->formula < CS_NFORMULA, "%s/%s formula %d", c, a->name,
           (int)a->formula);
    ASSERT(cs_family_index(a->family) >= 0, "%s/%s family %s not listed", c, a->name, a->family);
    int colour = cs_algo_colour(a->name);
    ASSERT((colour == 0) == !!(a->flags & CS_NATIVE), "%s/%s colour %d", c, a->name, colour);
    /* Distinct names, distinct colours. */
    for (int k = 0; k < i; k++)
      if (strcmp(cs_algos[k].name, a->name))
        ASSERT(cs_algo_colour(cs_algos[k].name) != colour, "%s and %s share colour %d",
               cs_algos[k].name, a->name, colour);
  }
  for (int c = 0; c < CS_NCOLL; c++) {
    int base = 0, n = 0;
    for (int i = 0; i < cs_nalgos; i++)
      if (cs_algos[i].coll == (cs_coll)c) {
        base += !!(cs_algos[i].flags & CS_BASELINE);
        n += !(cs_algos[i].flags & CS_NATIVE);
      }
    ASSERT(base <= 1, "%s has %d baselines", cs_colls[c].name, base);
    const char *names[64];
    ASSERT(cs_algo_names((cs_coll)c, names, 64) == n, "%s: cs_algo_names", cs_colls[c].name);
  }
  const char *fam[64];
  int nf = cs_families(fam, 64);
  ASSERT(nf >= 1 && nf <= 64, "%d families", nf);
  for (int i = 0; i < nf; i++)
    for (int k = 0; k < i; k++) ASSERT(strcmp(fam[i], fam[k]), "family %s twice", fam[i]);
  ASSERT(cs_family_index("no such family") < 0, "an unknown family is found");
  ASSERT(cs_algo_colour("no such algorithm") < 0, "an unknown name has a colour");
  printf("test_registry: %d rows, %d families\n", cs_nalgos, nf);
  return cs_test_end();
}
