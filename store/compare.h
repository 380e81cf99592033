/* Two results files side by side (./collsim compare A.csv B.csv): the rows
 * they have in common by their key columns (bench: coll, algo, p, bytes),
 * each with the value of one column in A and in B and the ratio B / A.
 * Pure C (collsim_core); the picture is drawn by run/compare_run.c. */
#ifndef COLLSIM_STORE_COMPARE_H
#define COLLSIM_STORE_COMPARE_H

#include <stdio.h>

#include "provenance.h"

#define CS_CMP_MAXKEYS 8

typedef struct {
  char key[512];    /* the key columns' values joined by ',' */
  char series[512]; /* the same without bytes (one curve of the picture) */
  double x;         /* bytes, or the row's position when there is no bytes key */
  double a, b;      /* the value in A and in B */
} cs_cmp_row;

typedef struct {
  char kind[32]; /* bench, predict, validate, guidelines, samples, calibrate */
  char col[64];  /* the value compared */
  char keys[CS_CMP_MAXKEYS][64];
  int nkeys, xkey; /* xkey: the index of bytes among keys, -1 if none */
  cs_cmp_row *rows;
  int n;
  long na, nb;                     /* rows of A and of B (each key once) */
  char a_first[512], b_first[512]; /* A's and B's first key, for a message */
  cs_prov pa, pb;                  /* the files' first lines (kind "" if none) */
} cs_cmp;

/* Reads a and b and matches their rows: col is the value column (NULL: the
 * kind's: bench median_s, predict sim_s, validate measured_s, guidelines
 * ratio, samples and calibrate time_s); keys, comma-separated, the key
 * columns (NULL: the kind's leading name and integer columns). 0; -1 with
 * why in err (unreadable, not a collsim CSV, kinds or columns that differ);
 * nothing in common is not an error here: C->n is 0. */
int cs_compare_read(const char *a, const char *b, const char *col, const char *keys, cs_cmp *C,
                    char *err, size_t len);
void cs_compare_free(cs_cmp *C);

/* The table for people: the key columns, A, B and B / A, aligned. */
void cs_compare_table(FILE *f, const cs_cmp *C, const char *la, const char *lb);
/* The CSV: "# collsim compare a=... b=... col=...", "# command: ...", then
 * keys...,a_COL,b_COL,ratio. */
void cs_compare_csv(FILE *f, const cs_cmp *C, const char *a, const char *b, const char *command);

#endif
