/* The trace of one call of a kernel, as its model records it: written by
 * collsim-msgcount COLL ALGO P BYTES TRACE (benchmarks/msgcount.c), replayed
 * by collsim-floor --trace (benchmarks/floor.c). Native byte order:
 *   CS_TRACE_MAGIC (8 bytes), int64 p, int64 start[p + 1] (rank r's steps
 *   are start[r] .. start[r + 1] - 1), then the steps, one cs_mop each
 *   (models/record.h: an exchange, one side of one, or local work). */
#ifndef COLLSIM_TRACE_H
#define COLLSIM_TRACE_H

#include "../models/record.h"

#define CS_TRACE_MAGIC "CSTRACE1"

#endif
