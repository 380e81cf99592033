/* ./collsim map as a run: the fastest algorithm of a collective over a grid
 * of process counts and message sizes, from the models (every candidate
 * priced by models/, two worker processes) or from simulation (a bench run
 * per process count, resumable), a deterministic part of the grid with
 * --shard K/N, shards merged into one map, and the files and pictures that
 * say where each candidate wins (docs/commands.md, docs/csv.md). */
#ifndef COLLSIM_RUN_MAP_H
#define COLLSIM_RUN_MAP_H

#include "bench.h"
#include "registry.h"

#define CS_MAP_MAX_NP     8192
#define CS_MAP_MAX_MERGE  64
#define CS_MAP_MAX_SHARDS 100000

#define CS_MAP_MAX_EMIT 8

typedef struct {
  cs_coll coll;
  int np[CS_MAP_MAX_NP]; /* the process counts (sorted and made unique by the run) */
  int nnp;
  long bytes[CS_MAX_SIZES]; /* the sizes as asked (bench's meaning of a size) */
  int nbytes;
  const char *algos[CS_MAX_ALGOS]; /* the candidates; none: every non-native row of coll */
  int nalgos;
  const char *platform; /* a file or named machine; NULL: an abg model of alpha, beta, gamma */
  const char *hostfile; /* simulation: the platform's placement; NULL: its own or collsim's */
  double alpha, beta, gamma;
  int abg_given; /* --alpha/--beta/--gamma given (model source without a platform only) */
  int sim;       /* 1: simulate (smpirun, through bench); 0: the models */
  int root, inplace;
  int shard_k, shard_n; /* 1 <= K <= N: only shard K of N of the grid; 0, 0: all */
  const char *out;      /* the directory of the map's files */
  const char *baseline; /* the ratio picture's baseline; NULL: the registry's, else the first */
  const char *set[CS_MAX_ALGOS]; /* the ratio picture's set; none: every other candidate */
  int nset;
  int jobs; /* worker processes of a model map */
  int redo; /* start over: the raw file and (simulation) the bench files of the grid */
  int quiet, nopics;
  const char *merge[CS_MAP_MAX_MERGE]; /* shard files or directories to merge (no run) */
  int nmerge;
  const char *emit[CS_MAP_MAX_EMIT]; /* tuning files written from the winners (KIND:FILE) */
  int nemit;
} cs_map_req;

/* Defaults: allreduce, abg alpha 1e-6 s, beta 1e-10 s/B, gamma 2.5e-10 s/B,
 * out "results/map", two workers, pictures drawn. */
void cs_map_defaults(cs_map_req *q);

/* Runs the map of q (or merges q->merge): 0, 1 on a failure, 2 on bad input,
 * CS_EXIT_INTERRUPTED after an interrupt (finished cells kept). */
int cs_map_run(cs_map_req *q);

/* The shard (1..n) of each of the ncells cells of a grid whose cell i has
 * p[i] processes, cells in the order of the files (p, then bytes): cells
 * are cut into n consecutive runs of about equal cost, a cell costing
 * p ceil(log2 (p + 1)) (what a simulated case costs grows so). */
void cs_map_shards(const int *p, int ncells, int n, int *shard);

#endif
