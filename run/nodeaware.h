/* ./collsim nodeaware: the NAP seed's study (Bienz, Olson, Gropp 2019, Sec.
 * IV-V, Figs. 10-15) of the node-aware allreduce rows: recursive doubling
 * (the registry's allreduce row of formula butterfly), SMP (formula smp, with
 * the paper's inner algorithms: binomial reduce, recursive doubling among the
 * node leaders, binomial bcast, taken from the registry by formula) and NAP
 * (formula nap), 16 processes per node on the bluewaters platform.
 *  - from the models (Figs. 10-11): eqs. 4-6 (models/table1.c) for every
 *    p = 16 n, n = 1 .. 2048, and the exact models of the kernels at a sample
 *    of p; both against the size at 32768 processes;
 *  - from simulation (Figs. 12-15): one 8-byte value (a double) against p at a
 *    sample of p, and cost and speedup against the size at the largest p
 *    simulated, with SMPI's node-aware library algorithms beside (native:
 *    smp_rdb, lib:mpich, lib:mvapich2) up to the p where a run of theirs
 *    exceeded the per-run wall cap;
 *  - pictures (plots/nodeaware.gp) and DIR/summary.md with the crossover size
 *    at 32768 processes, computed, beside the paper's claims.
 * CSV columns: docs/csv.md, "nodeaware". Files of bench runs are kept in
 * DIR/sim/ and resumed: a second run of the same command runs what is missing. */
#ifndef COLLSIM_RUN_NODEAWARE_H
#define COLLSIM_RUN_NODEAWARE_H

typedef struct {
  const char *dir; /* output directory */
  int quick;       /* ctest: models up to 1024 processes, simulation up to 64 */
  int max_p;       /* largest p simulated (0: 32768; quick 64); a multiple of 16 */
  double cap;      /* wall seconds: a library row whose run took longer is not run at larger p */
  int no_sim;      /* 1: the models only (Figs. 10-11) */
} cs_nodeaware_req;

/* 0 on success, 2 bad input, 1 a failed run. */
int cs_nodeaware_study(const cs_nodeaware_req *q);

#endif
