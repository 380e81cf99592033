/* Which algorithm SMPI 3.32 runs for a library call (docs/library.md).
 *
 * SMPI does not tell which algorithm its selector picked, so collsim
 * reproduces the decision rules of SMPI 3.32's selectors
 * (src/smpi/colls/smpi_{default,openmpi,mpich}_selector.cpp) for the
 * collectives and selectors listed in cs_lib_algo; tests/lib_selector.sh
 * proves each rule: the simulated time of lib:SEL equals that of
 * native:<the predicted name>, over a grid of p and sizes across every
 * threshold. Pure functions, no MPI. */
#ifndef CS_LIBALGO_H
#define CS_LIBALGO_H

#include <stddef.h>

#include "../algos/collsim.h"

/* The SMPI algorithm name (as --cfg=smpi/<collective>:NAME takes it) that
 * selector `sel` (default, ompi, mpich) runs for collective `coll`
 * (allreduce, reduce, reduce_scatter_block, reduce_scatter) on p processes
 * with `elems` elements in total (the vector of allreduce and reduce, all
 * blocks of reduce_scatter(_block)) of `size` bytes each, `regular` = all
 * blocks equal, `commutative` = the operation's property. NULL when collsim
 * does not reproduce that selector for that collective. */
const char *cs_lib_algo(const char *sel, cs_coll coll, int p, long elems, int size, int regular,
                        int commutative);

/* The algorithm a library row of the driver ran: `algo` is native,
 * native:NAME or lib:SEL; `cfg` the extra smpirun options of the run (NULL:
 * none), whose --cfg=smpi/coll-selector:SEL and --cfg=smpi/<collective>:NAME
 * override as they do in SMPI. Writes the name into buf, "" if unknown;
 * returns buf. */
const char *cs_lib_algo_of_row(const char *algo, const char *cfg, cs_coll coll, int p, long elems,
                               int size, int regular, int commutative, char *buf, size_t len);

#endif
