/* Pictures from collsim's CSV files (docs/csv.md): every row read and
 * checked, the data split into one small data file per series, and the
 * gnuplot scripts of plots/ drawing PNG and SVG from them (plots/plot.c). */
#ifndef COLLSIM_PLOT_H
#define COLLSIM_PLOT_H

#include <stdio.h>

/* The kinds of picture (plots/README.md). */
typedef enum {
  CS_PLOT_TIME,
  CS_PLOT_NORM,
  CS_PLOT_MODEL,
  CS_PLOT_SPEEDUP,
  CS_PLOT_VALIDATE,
  CS_PLOT_GUIDE,
  CS_PLOT_NKINDS
} cs_plot_kind;
extern const char *const cs_plot_kind_name[CS_PLOT_NKINDS];

typedef struct {
  const char *out;      /* the directory the pictures go to */
  const char *baseline; /* what normalized pictures divide by (NULL: the registry's) */
  const char *data;     /* keep the data files in DATA/<picture>/ (NULL: a temporary dir) */
  /* per kind: 0 not drawn, 1 asked for (an error if no input fits it), 2 drawn
   * where an input fits it */
  int want[CS_PLOT_NKINDS];
  int png, svg;
  int errorbars; /* 0 minmax, 1 ci, 2 none */
  FILE *printed; /* where the path of every picture written goes */
} cs_plot_opts;

/* results/plots, png and svg, every kind that fits, paths to stdout. */
void cs_plot_defaults(cs_plot_opts *o);
/* Reads and checks the files csv[0..n), plans and draws. Nothing is drawn
 * unless every file was read without error. 0 all drawn, 1 gnuplot missing
 * or failed, 2 bad input. */
int cs_plot_run(const cs_plot_opts *o, const char *const *csv, int n);
/* cs_plot_run with the defaults but outdir, png, svg and out. */
int cs_plot_files(const char *const *csv, int n, const char *outdir, int png, int svg, FILE *out);
/* The directory of the gnuplot scripts (COLLSIM_PLOTS_DIR, the source tree's
 * plots/, or beside the binary), or NULL with a message. */
const char *cs_plot_scripts_dir(void);
/* Runs gnuplot (COLLSIM_GNUPLOT, else gnuplot on the PATH) on
 * cs_plot_scripts_dir()/script with -e assign; 0 on success, else 1 with a
 * message naming cmd (e.g. "collsim lanes") and the script. */
int cs_gnuplot_script(const char *cmd, const char *script, const char *assign);
/* Writes the registry's default baselines, e.g. "X for allreduce". */
void cs_plot_print_baselines(FILE *f);

/* The gnuplot line style (plots/common.gp) of a series of algorithm algo:
 * the library's own 6, a registry name its own colour (cs_algo_colour), the
 * same in every picture; anything else (lib:*, native:*) the next of 13..18
 * (*other counts them per picture). */
int cs_plot_style(const char *algo, int *other);

#endif
