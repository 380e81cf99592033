/* ./collsim compare as a run (run/compare_run.c): two results files
 * compared row by row (store/compare.h), the table on out, DIR/compare.csv
 * and the picture DIR/compare.png (.svg) of the ratio B / A against the size,
 * one curve per series (e.g. per algorithm). */
#ifndef COLLSIM_COMPARE_RUN_H
#define COLLSIM_COMPARE_RUN_H

#include <stdio.h>

typedef struct {
  const char *a, *b;      /* the two files */
  const char *col, *keys; /* NULL: the kind's (store/compare.h) */
  const char *dir;        /* where compare.csv and the picture go */
  const char *la, *lb;    /* what to call A and B (NULL: their file names) */
  int quiet;
} cs_compare_req;

/* 0; 1 when the files have no row in common (after a message naming the
 * keys and a row of each); 2 on bad input (unreadable files, other kinds). */
int cs_compare_run(const cs_compare_req *r, FILE *out);

#endif
