/* The pictures of ./collsim map (plots/map_plot.c, plots/map.gp): like
 * Fig. 3 of Rabenseifner 2004, the fastest candidate per (p, size) as a
 * colour, p on the y axis (every p of the grid), the size on a log x axis;
 * like its Fig. 4, bands of the ratio baseline time / best time of a set. */
#ifndef COLLSIM_MAP_PLOT_H
#define COLLSIM_MAP_PLOT_H

#include <stdio.h>

typedef struct {
  const char *coll;   /* collective name */
  const char *source; /* what priced the cells, for the titles ("model abg ...", "SMPI on F") */
  int ncells;         /* the cells, sorted by p, then bytes */
  const int *p;
  const long *bytes;
  int ncand;
  const char *const *cand;
  const int *winner;    /* per cell: index into cand, -1 none (not drawn) */
  const double *ratio;  /* per cell: baseline time / best time of the set, NAN none; NULL: no
                           ratio picture */
  const char *baseline; /* the ratio's baseline and its set, for the title */
  const char *setname;
  const char *outdir; /* pictures <outdir>/<stem>-fastest.{png,svg}, <stem>-ratio.{png,svg} */
  const char *stem;
  FILE *printed; /* where the path of every picture written goes (NULL: nowhere) */
} cs_map_pics;

/* Draws the pictures: 0, 1 when gnuplot is missing or failed (said on stderr). */
int cs_map_plot(const cs_map_pics *m);

/* The ratio bands of the second picture: band b covers ratios from
 * cs_map_band_lo[b] (inclusive) to cs_map_band_lo[b + 1]. */
#define CS_MAP_NBANDS 7
extern const double cs_map_band_lo[CS_MAP_NBANDS + 1];
/* The band of a ratio r (finite, >= 0). */
int cs_map_band(double r);

#endif
