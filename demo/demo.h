/* ./collsim demo as a run (demo/demo.c): the default study in one
 * command. Table I at p = 33, timing runs on a hydra-like 8 x 4 machine and
 * on an abg machine with p = 33, the performance guidelines on both, the
 * plots, and a report linking them (DIR/report.md). Resumes what a previous
 * run finished unless redo. */
#ifndef COLLSIM_DEMO_H
#define COLLSIM_DEMO_H

#include <stddef.h>

#include "registry.h"

int cs_demo_run(const char *dir, int redo, int quick);

/* The library side of the demo: the selectors SMPI reproduces from real
 * libraries. */
enum { CS_DEMO_NLIBS = 4 };
extern const char *const cs_demo_libs[CS_DEMO_NLIBS];

/* The names the demo's text gives algorithms, all from the registry: the
 * non-native rows of coll in registry order, only those of family (NULL:
 * any) and only those that collective `unless` has no row of (CS_NCOLL: no
 * such test), joined by sep. */
void cs_demo_names(char *buf, size_t len, cs_coll coll, const char *family, cs_coll unless,
                   const char *sep);

#endif
