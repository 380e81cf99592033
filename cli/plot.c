/* ./collsim plot: its options, then the drawing (plots/plot.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot.h"

static void plot_usage(FILE *f) {
  fprintf(f,
          "usage: collsim plot CSV... [options]\n"
          "Draws PNG and SVG pictures from collsim CSV files (docs/csv.md); the kind of each file\n"
          "is read from its header line. Prints the path of every picture written.\n"
          "  --out DIR         where the pictures go (default results/plots)\n"
          "  --kind K[,K..]    time, normalized, speedup (bench CSVs), model (predict CSVs),\n"
          "                    validate, guidelines, or all (default: every kind the files fit)\n"
          "  --baseline ALGO   the algorithm others are divided by in 'normalized' pictures\n"
          "                    (default: ");
  cs_plot_print_baselines(f);
  fprintf(f,
          "; other collectives need it)\n"
          "  --format F[,F..]  png, svg (default png,svg)\n"
          "  --errorbars E     minmax (default), ci (95%% CI of the median) or none; bars are\n"
          "                    drawn when some repetition count (reps) is > 1\n"
          "  --data DIR        keep the per-series data files gnuplot draws, in DIR/<picture>/\n"
          "Pictures (plots/README.md): time-COLL-pN (time vs message size, log-log),\n"
          "normalized-COLL-pN (time / time(baseline)), speedup-COLL-pN-vs-LIB (time(library) /\n"
          "time(algo)), model-COLL-pN (Table I, exact model, simulation, relative error),\n"
          "validate-COLL (predicted vs measured), guideline-ID-pN (ratio, violations circled);\n"
          "a -PLATFORM suffix when the CSV names its platform.\n"
          "Environment: COLLSIM_GNUPLOT (the gnuplot to run), COLLSIM_PLOTS_DIR (the scripts).\n"
          "Exit status: 0 all drawn, 1 gnuplot missing or failed, 2 bad options or input.\n");
}

static int parse_list(const char *s, const char *what, const char *const *names, int n, int *on) {
  char *dup = strdup(s), *save = NULL;
  if (!dup) {
    perror("collsim plot");
    return -1;
  }
  int rc = 0;
  for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    int found = -1;
    for (int i = 0; i < n; i++)
      if (!strcmp(tok, names[i])) found = i;
    if (found < 0 && strcmp(tok, "all")) {
      fprintf(stderr, "collsim plot: unknown %s '%s' (valid:", what, tok);
      for (int i = 0; i < n; i++) fprintf(stderr, "%s %s", i ? "," : "", names[i]);
      fprintf(stderr, "%s)\n", names == cs_plot_kind_name ? ", all" : "");
      rc = -1;
    } else if (found < 0) {
      for (int i = 0; i < n; i++) on[i] = 2; /* all that fit */
    } else if (!on[found]) {
      on[found] = 1;
    }
  }
  free(dup);
  return rc;
}

int cmd_plot(int argc, char **argv) {
  const char *csv[1024];
  int ncsv = 0;
  cs_plot_opts opt;
  cs_plot_defaults(&opt);
  memset(opt.want, 0, sizeof opt.want);
  int explicit_kind = 0;
  static const char *const fmt_names[2] = {"png", "svg"};
  static const char *const eb_names[3] = {"minmax", "ci", "none"};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *val = NULL;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      plot_usage(stdout);
      return 0;
    }
    static const char *const withval[] = {"--out",    "--kind",      "--baseline",
                                          "--format", "--errorbars", "--data"};
    int known = -1;
    for (int k = 0; k < 6; k++) {
      size_t l = strlen(withval[k]);
      if (!strncmp(a, withval[k], l) && (a[l] == '\0' || a[l] == '=')) {
        known = k;
        if (a[l] == '=')
          val = a + l + 1;
        else if (i + 1 < argc)
          val = argv[++i];
        else {
          fprintf(stderr, "collsim plot: %s needs a value\n", withval[k]);
          return 2;
        }
      }
    }
    if (known < 0 && a[0] == '-' && a[1]) {
      fprintf(
          stderr,
          "collsim plot: unknown option %s (valid: --out, --kind, --baseline, --format, --errorbars, --data, "
          "--help)\n",
          a);
      return 2;
    }
    if (known < 0) {
      if (ncsv == 1024) {
        fprintf(stderr, "collsim plot: too many files (at most 1024)\n");
        return 2;
      }
      csv[ncsv++] = a;
      continue;
    }
    if (!*val) {
      fprintf(stderr, "collsim plot: %s needs a non-empty value\n", withval[known]);
      return 2;
    }
    switch (known) {
    case 0: opt.out = val; break;
    case 1:
      explicit_kind = 1;
      if (parse_list(val, "--kind", cs_plot_kind_name, CS_PLOT_NKINDS, opt.want)) return 2;
      break;
    case 2: opt.baseline = val; break;
    case 3: {
      int on[2] = {0, 0};
      if (parse_list(val, "--format", fmt_names, 2, on)) return 2;
      opt.png = on[0] != 0, opt.svg = on[1] != 0;
      break;
    }
    case 4: {
      int on[3] = {0, 0, 0};
      if (parse_list(val, "--errorbars", eb_names, 3, on) || on[0] + on[1] + on[2] != 1) {
        fprintf(stderr, "collsim plot: --errorbars takes one of minmax, ci, none\n");
        return 2;
      }
      opt.errorbars = on[1] ? 1 : on[2] ? 2 : 0;
      break;
    }
    case 5: opt.data = val; break;
    }
  }
  if (strlen(opt.out) > 3000 || (opt.data && strlen(opt.data) > 3000)) {
    fprintf(stderr, "collsim plot: --out / --data: path too long\n");
    return 2;
  }
  if (ncsv == 0) {
    fprintf(stderr, "collsim plot: no CSV file given\n");
    plot_usage(stderr);
    return 2;
  }
  if (!explicit_kind)
    for (int k = 0; k < CS_PLOT_NKINDS; k++) opt.want[k] = 2;
  return cs_plot_run(&opt, csv, ncsv);
}
