/* The MPI library's own collectives, so that every comparison can include
 * the library. Under SMPI, `native:NAME` selects SMPI's algorithm NAME: the
 * launcher passes --cfg=smpi/<collective>:NAME, the call here is the same.
 *
 * One kernel per collective, cs_<C>_native, generated from its colls.def
 * row: it calls MPI_<Name> with the kernel's own arguments (the row's init
 * column makes a cs_args of them, its call column MPI's arguments of that:
 * the same two columns the PMPI wrappers and the dispatcher use). A
 * reduction hands the library cs_native_op's operation when a driver set
 * it (the simulated bench's charged copy: collsim.h). */
#include "../collsim.h"

MPI_Op (*cs_native_op)(MPI_Op op);

#define CS_COLL(id, Name, reduces, rooted, in_place, shape, size_from, init, call) \
  int cs_##id##_native CS_PARAMS_##id {                                            \
    (void)ctx;                                                                     \
    cs_args args = {CS_UNPAREN init};                                              \
    if (reduces && cs_native_op) args.op = cs_native_op(args.op);                  \
    const cs_args *x = &args;                                                      \
    return MPI_##Name(CS_UNPAREN call);                                            \
  }
#include "../colls.def"
#undef CS_COLL
