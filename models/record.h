/* Internal to models/: the recorded per-process programs, the evaluator's input. The
 * recording MPI (models/mpirec/) writes them while the kernels of algos/
 * run; the evaluator (eval.c) prices them. */
#ifndef COLLSIM_RECORD_H
#define COLLSIM_RECORD_H

#include "model.h"

/* One step of a process: a blocking exchange with world ranks to and from
 * (-1 when that side is absent; MPI_Send and MPI_Recv are exchanges with
 * one side) of sb and rb bytes, or local work of `local` bytes of kind
 * `work` (cs_work: reduction or copy; to = from = -1). */
typedef struct {
  int to, from;
  double sb, rb, local;
  int work;
} cs_mop;

typedef struct {
  int p;
  cs_mop **ops;
  int *n, *cap;
  int oom;
} cs_prog;

/* Runs the kernel of (c->coll, c->algo) on the p ranks of the case under
 * the recording MPI, with arguments built as the timing driver
 * (sim/bench.c) builds them for MPI_BYTE data, and writes every rank's
 * program into g (p empty programs). ppn: ranks per node (host names
 * node<N>-<L>), 0 for one host per rank (node<r>, abg platforms).
 * Returns 0, or -1 with a message in err. (models/record.c) */
int cs_record_case(const cs_case *c, int ppn, cs_prog *g, char *err, size_t errlen);

#endif
