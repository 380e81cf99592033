/* Which algorithm SMPI 3.32 runs for a library call (docs/library.md).
 *
 * SMPI does not tell which algorithm its selector picked, so collsim
 * reproduces the decision rules of SMPI 3.32's selectors
 * (src/smpi/colls/smpi_{default,openmpi,mpich,intel_mpi,mvapich2}_selector.cpp) for
 * the collectives and selectors listed in cs_lib_algo; tests/lib_selector.sh
 * proves each rule: the simulated time of lib:SEL equals that of
 * native:<the predicted name>, over a grid of p and sizes across every
 * threshold. Pure functions, no MPI. */
#ifndef CS_LIBALGO_H
#define CS_LIBALGO_H

#include <stddef.h>

#include "../algos/collsim.h"

/* What algo_ran says for the automatic selector: SMPI 3.32's automatic
 * runs, inside every call, each algorithm of the collective in turn (with
 * a barrier and a reduce of its time after each) and only logs the fastest;
 * no rule predicts a single algorithm, and its time is their sum
 * (docs/library.md). */
#define CS_LIB_AUTOMATIC "automatic: chosen at run time"

/* The SMPI algorithm name (as --cfg=smpi/<collective>:NAME takes it) that
 * selector `sel` (default, ompi, mpich, impi; automatic: CS_LIB_AUTOMATIC)
 * runs for collective `coll` on p processes with `elems` elements in total
 * (the vector of vector collectives, all p blocks of the others, as
 * cs_size_elems) of `size` bytes each, `regular` = all blocks equal,
 * `commutative` = the operation's property, `ppn` = the processes per node
 * SMPI sees (per SimGrid host) when every node holds that many, 0 when
 * nodes differ. gatherv, scatterv, scan and exscan have one algorithm in
 * SMPI, named "default" (it has no setting). An impi rule that hands over
 * to the mvapich2 selector gives the mvapich2 selector's choice. The
 * mvapich2 selector's two-level choices read "ALGORITHM inter:X intra:Y"
 * (libalgo.c: reproduced from its rules, not provable by forcing one --cfg
 * name). NULL when collsim does
 * not reproduce the selector for that collective. */
const char *cs_lib_algo(const char *sel, cs_coll coll, int p, long elems, int size, int regular,
                        int commutative, int ppn);

/* The algorithm a library row of the driver ran: `algo` is native,
 * native:NAME or lib:SEL; `cfg` the extra smpirun options of the run (NULL:
 * none), whose --cfg=smpi/coll-selector:SEL and --cfg=smpi/<collective>:NAME
 * override as they do in SMPI. Writes the name into buf, "" if unknown;
 * returns buf. */
const char *cs_lib_algo_of_row(const char *algo, const char *cfg, cs_coll coll, int p, long elems,
                               int size, int regular, int commutative, int ppn, char *buf,
                               size_t len);

/* Why SMPI 3.32's algorithm `name` (as algo_ran says) of collective coll
 * aborts the simulation on p processes, or NULL: the driver does not run
 * such a case (a crash would lose every later row). */
const char *cs_lib_algo_aborts(cs_coll coll, const char *name, int p);

#endif
