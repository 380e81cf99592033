/* What "size m" means, in one place (pure C, no MPI): the models, the front
 * door, the driver (bench and check) and the PMPI library all ask here.
 *
 * A size m is the total message size of a collective in bytes (docs/csv.md
 * "bytes"). By the shape of the collective:
 * The shape of each collective is a column of algos/colls.def.
 *  - vector collectives (allreduce, reduce, bcast, scan, exscan) move a
 *    vector of m bytes: the count of a call is m / size elements;
 *  - block collectives (reduce_scatter_block, allgather, gather, scatter,
 *    alltoall)
 *    use p blocks of floor(m / p) bytes and report p floor(m / p): the count
 *    of a call is the block, floor(floor(m / size) / p) elements;
 *  - split collectives (reduce_scatter and the v-collectives) spread m over
 *    the p blocks as evenly as possible (the first m % p blocks one element
 *    larger, as cs_split_even): the count given is the total.
 * For an element type of size bytes, m counts whole elements: floor(m /
 * size) of them.
 *
 * Also here: the bytes SMPI adds to every message, CS_SMPI_ENVELOPE. */
#ifndef COLLSIM_SIZES_H
#define COLLSIM_SIZES_H

#include "registry.h"

/* SimGrid/SMPI 3.32 charges alpha + beta (m + 16) for a message of m bytes:
 * it adds a 16-byte envelope to every message (measured to 1e-15 relative,
 * /work/shared/notes/smpi.md "Network: getting an exact alpha-beta"). The
 * models add it to every message, the calibration removes it from fitted
 * intercepts, and the platform comments state it. */
#define CS_SMPI_ENVELOPE 16

/* The shape of a collective (above; cs_shape is in registry.h, the shape
 * column of algos/colls.def). */
cs_shape cs_coll_shape(cs_coll coll);

/* Elements of the whole collective for size m bytes and elements of size
 * bytes: p floor(floor(m / size) / p) for block collectives, floor(m / size)
 * for the others. */
long cs_size_elems(cs_coll coll, int p, long m, int size);

/* A size for people, exact: "8 B", "4 KiB", "2 MiB", "1536 B", "1048575 B"
 * (a binary unit only where the size is a whole number of it); returns buf.
 * The one byte formatter: plots, reports, calibration and validation. */
const char *cs_size_str(double bytes, char *buf, size_t len);
/* Bytes the collective really moves for size m: cs_size_elems * size. */
long cs_size_bytes(cs_coll coll, int p, long m, int size);
/* The count argument of a call that moves elems elements in all (elems from
 * cs_size_elems): the block, elems / p, for block collectives; elems for the
 * others (split collectives spread it with cs_split_even). */
long cs_size_count(cs_coll coll, int p, long elems);
/* The inverse, from a call's count argument: p count for block collectives,
 * count for vector collectives. Split collectives have no single count: sum
 * their counts instead (returns -1). */
long long cs_size_total(cs_coll coll, int p, long long count);

/* The size m of a collective whose p processes each get (or give) a block of
 * b bytes, the x axis of the papers' block-collective figures: p b for block
 * and split collectives (split: p equal blocks); -1 for vector collectives
 * (they have no blocks) and when p b overflows a long. */
long cs_size_from_block(cs_coll coll, int p, long b);

/* Sizes of the p blocks of a collective of m units: floor(m / p) each for
 * block collectives, the even split of m for split collectives, 0 for vector
 * collectives (they have no blocks). */
void cs_size_blocks(cs_coll coll, int p, long m, long blocks[]);
/* 1 iff all p blocks of m units have the same size. */
int cs_size_equal_blocks(cs_coll coll, int p, long m);

#endif
