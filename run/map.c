/* ./collsim map (run/map.h): every candidate's time per cell (p, bytes) of a
 * grid, the winner of each cell, and the pictures.
 *
 * Files in the output directory DIR, for collective C (docs/csv.md):
 *   map-C-raw.csv       every candidate's time per cell (store: CS_CSV_MAP)
 *   map-C-winners.csv   the fastest and the runner-up per cell (CS_CSV_MAPWIN)
 *   map-C-fastest.png/svg, map-C-ratio.png/svg   the pictures (plots/map_plot.c)
 *   sim-C/pP.csv        simulation: the bench file of p = P (resumable)
 * A shard K of N writes map-C-raw.K-of-N.csv and sim-C/pP.K-of-N.csv only;
 * merging the N shard files (--merge) writes the first three.
 *
 * The first line of a raw file is what its times depend on (source,
 * collective, platform or model, root, in place); the second the grid and
 * the candidates; a shard's third says which shard. A run refuses a raw
 * file whose first line differs (another configuration) unless --redo, and
 * merging refuses shards whose first two lines differ, a shard twice, or a
 * shard missing. */
#include "map.h"
#include "topo.h"
#include "tuning.h"

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files.h"
#include "foreign.h"
#include "launch.h"
#include "lists.h"
#include "map_plot.h"
#include "model.h"
#include "platmodel.h"
#include "results.h"
#include "sizes.h"

/* One cell of the grid: p, the bytes it moves (bench's bytes column) and
 * the size asked for it (what bench is given). */
typedef struct {
  int p;
  long bytes, asked;
} cell;

#define NOTE_LEN 160

/* A map in the making: the cells, the candidates and, per cell and
 * candidate, a time (NAN: none) and a note (why none). t and note live in
 * memory shared with the worker processes of a model map. */
typedef struct {
  cs_map_req *q;
  cell *cells;
  int ncells;
  const char *cand[CS_MAX_ALGOS];
  int nc;
  double *t;
  char (*note)[NOTE_LEN];
  size_t shared_len;
  char config[2048], grid[8192], model_note[1024], source[1200];
  /* A model map on a platform's own routes (cs_platform_pricing): its file
   * and hostfile ("" default placement), routes opened per p. */
  cs_platform_file *routes_pf;
  const char *routes_hosts;
  /* A max-rate or k-lane line priced by its closed form: its file for the
   * cases that form does not price (cs_routes_when_needed, as predict). */
  cs_platform_file *nb_pf;
} map;

static double *tcell(map *m, int c, int a) { return &m->t[(size_t)c * m->nc + a]; }

/* A time as the raw file writes it (%.10g) and reads it back: winners are
 * chosen from exactly what the raw file says, so that a map merged from
 * shard files equals the unsharded one. */
static double as_written(double t) {
  char b[64];
  snprintf(b, sizeof b, "%.10g", t);
  return strtod(b, NULL);
}
static char *ncell(map *m, int c, int a) { return m->note[(size_t)c * m->nc + a]; }

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
static int cmp_cell(const void *a, const void *b) {
  const cell *x = a, *y = b;
  if (x->p != y->p) return (x->p > y->p) - (x->p < y->p);
  return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* "2-512" style: runs of consecutive numbers joined by commas. */
static void np_ranges(const int *np, int n, char *buf, size_t len) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && k < len;) {
    int j = i;
    while (j + 1 < n && np[j + 1] == np[j] + 1) j++;
    if (j > i)
      k += (size_t)snprintf(buf + k, len - k, "%s%d-%d", k ? "," : "", np[i], np[j]);
    else
      k += (size_t)snprintf(buf + k, len - k, "%s%d", k ? "," : "", np[i]);
    i = j + 1;
  }
}

void cs_map_shards(const int *p, int ncells, int n, int *shard) {
  double total = 0, run = 0;
  for (int i = 0; i < ncells; i++) total += p[i] * ceil(log2(p[i] + 1.0));
  for (int i = 0; i < ncells; i++) {
    double w = p[i] * ceil(log2(p[i] + 1.0));
    /* the shard whose share of the cost holds the middle of this cell */
    int k = total > 0 ? (int)((run + w / 2) * n / total) : 0;
    shard[i] = (k < n ? k : n - 1) + 1;
    run += w;
  }
}

void cs_map_defaults(cs_map_req *q) {
  memset(q, 0, sizeof *q);
  q->coll = CS_allreduce;
  q->alpha = 1e-6;
  q->beta = 1e-10;
  q->gamma = 2.5e-10;
  q->out = "results/map";
  q->jobs = 2;
}

static int is_library(const char *a) { return cs_algo_is_library(a) || cs_algo_at_lib(a, NULL); }

/* The candidates: q's, checked, or every non-native row of the collective. */
static int pick_candidates(map *m) {
  cs_map_req *q = m->q;
  if (q->nalgos == 0) {
    m->nc = cs_algo_names(q->coll, m->cand, CS_MAX_ALGOS);
    if (m->nc > CS_MAX_ALGOS) m->nc = CS_MAX_ALGOS;
    if (m->nc == 0) {
      fprintf(stderr,
              "collsim map: %s has no collsim algorithm; give --algos native:NAME,lib:SEL with "
              "--sim\n",
              cs_colls[q->coll].name);
      return 2;
    }
    return 0;
  }
  if (cs_check_algos(q->coll, q->algos, q->nalgos)) return 2;
  for (int i = 0; i < q->nalgos; i++) {
    for (int k = 0; k < i; k++)
      if (!strcmp(q->algos[k], q->algos[i])) {
        fprintf(stderr, "collsim map: --algos names %s twice\n", q->algos[i]);
        return 2;
      }
    if (!q->sim && is_library(q->algos[i])) {
      fprintf(stderr,
              "collsim map: %s is the library's own algorithm: it has no model, only a "
              "simulated time (add --sim and --platform F)\n",
              q->algos[i]);
      return 2;
    }
    m->cand[m->nc++] = q->algos[i];
  }
  return 0;
}

/* With one process per node (an abg model without COLLSIM_VNODE; not a
 * platform priced on its routes, whose hosts may hold several) the
 * node-aware rows (lane, hier, nap: CS_NODE_AWARE) run their inner algorithm on
 * the whole communicator: the same schedule as a flat candidate plus empty
 * node steps. Among the default candidates they would tie with it and flip
 * the winner on rounding, so they are left out (with a note); --algos names
 * them where wanted. */
static void drop_node_aware(map *m, const cs_model *mo) {
  if (mo->kind != CS_MODEL_ABG || cs_topo_vnode_env() > 0) return;
  int n = 0;
  char dropped[512] = "";
  size_t k = 0;
  for (int a = 0; a < m->nc; a++) {
    const cs_algo_info *i = cs_algo_find(m->q->coll, m->cand[a]);
    if (i && (i->flags & CS_NODE_AWARE)) {
      if (k < sizeof dropped)
        k += (size_t)snprintf(dropped + k, sizeof dropped - k, "%s%s", k ? ", " : "", i->name);
      continue;
    }
    m->cand[n++] = m->cand[a];
  }
  if (n == m->nc || n == 0) return;
  m->nc = n;
  if (!m->q->quiet)
    fprintf(stderr,
            "collsim map: note: one process per node on this machine: %s run their inner "
            "algorithm on the whole communicator here and are left out (name them in --algos "
            "to include them; COLLSIM_VNODE=n or a maxrate/lanes platform gives nodes)\n",
            dropped);
}

/* The cells of the grid, sorted; sizes that move the same bytes at a p
 * (block collectives) are one cell. */
static int make_cells(map *m) {
  cs_map_req *q = m->q;
  qsort(q->np, (size_t)q->nnp, sizeof q->np[0], cmp_int);
  int n = 0;
  for (int i = 0; i < q->nnp; i++)
    if (n == 0 || q->np[n - 1] != q->np[i]) q->np[n++] = q->np[i];
  q->nnp = n;
  m->cells = malloc(sizeof(cell) * (size_t)q->nnp * (size_t)q->nbytes);
  if (!m->cells) return 1;
  for (int i = 0; i < q->nnp; i++) {
    int first = m->ncells;
    for (int b = 0; b < q->nbytes; b++) {
      long eff = cs_size_bytes(q->coll, q->np[i], q->bytes[b], 1);
      int dup = 0;
      for (int c = first; c < m->ncells; c++) dup |= m->cells[c].bytes == eff;
      if (!dup) m->cells[m->ncells++] = (cell){q->np[i], eff, q->bytes[b]};
    }
  }
  qsort(m->cells, (size_t)m->ncells, sizeof(cell), cmp_cell);
  return 0;
}

static int alloc_results(map *m) {
  size_t n = (size_t)m->ncells * (size_t)m->nc;
  m->shared_len = n * (sizeof(double) + NOTE_LEN) + 64;
  /* Shared with the worker processes; pages untouched cost nothing. */
  char *s = mmap(NULL, m->shared_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (s == MAP_FAILED) {
    fprintf(stderr, "collsim map: no memory for %zu results\n", n);
    return 1;
  }
  m->t = (double *)(void *)s;
  m->note = (char(*)[NOTE_LEN])(s + n * sizeof(double));
  for (size_t i = 0; i < n; i++) m->t[i] = NAN;
  return 0;
}

static void free_map(map *m) {
  if (m->t) munmap(m->t, m->shared_len);
  free(m->cells);
}

static void grid_line(map *m) {
  cs_map_req *q = m->q;
  char np[4096];
  np_ranges(q->np, q->nnp, np, sizeof np);
  size_t k = (size_t)snprintf(m->grid, sizeof m->grid, "# grid: np=%s bytes=", np);
  for (int b = 0; b < q->nbytes && k < sizeof m->grid; b++)
    k += (size_t)snprintf(m->grid + k, sizeof m->grid - k, "%s%ld", b ? "," : "", q->bytes[b]);
  k += (size_t)snprintf(m->grid + k, sizeof m->grid - k, " candidates=");
  for (int a = 0; a < m->nc && k < sizeof m->grid; a++)
    k += (size_t)snprintf(m->grid + k, sizeof m->grid - k, "%s%s", a ? "," : "", m->cand[a]);
  if (k < sizeof m->grid) snprintf(m->grid + k, sizeof m->grid - k, "\n");
}

static void path_of(char *buf, size_t len, const cs_map_req *q, const char *what) {
  snprintf(buf, len, "%s/map-%s-%s.csv", q->out, cs_colls[q->coll].name, what);
}
static void raw_path(char *buf, size_t len, const cs_map_req *q) {
  if (q->shard_n > 0) {
    char w[64];
    snprintf(w, sizeof w, "raw.%d-of-%d", q->shard_k, q->shard_n);
    path_of(buf, len, q, w);
  } else {
    path_of(buf, len, q, "raw");
  }
}

/* The first line of a file ("" if none), with its newline. */
static void first_line(const char *path, char *buf, size_t len) {
  buf[0] = '\0';
  FILE *f = fopen(path, "r");
  if (!f) return;
  if (!fgets(buf, (int)len, f)) buf[0] = '\0';
  fclose(f);
}

/* 1 (said on stderr) if the raw file m would write holds a map of another
 * configuration and m's request does not say --redo. */
static int other_config(map *m) {
  char raw[4200], old[2048];
  raw_path(raw, sizeof raw, m->q);
  first_line(raw, old, sizeof old);
  if (!old[0] || !strcmp(old, m->config) || m->q->redo) return 0;
  fprintf(stderr,
          "collsim map: %s holds a map of another configuration (its first line differs "
          "from:\n  %s); use another --out, or --redo to start it over\n",
          raw, m->config);
  return 1;
}

/* ---- the raw and winners files -------------------------------------------- */

/* Writes the raw file of m's cells (only those of shard k when k > 0) to
 * path, under a temporary name renamed when complete. */
/* Opens path's temporary name (path.part) and writes the map's first
 * lines: configuration, grid, then shard (k > 0) and model note. */
static FILE *open_part(map *m, const char *path, char *tmp, size_t len, int k) {
  snprintf(tmp, len, "%s.part", path);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "collsim map: cannot write %s: %s\n", tmp, strerror(errno));
    return NULL;
  }
  fputs(m->config, f);
  fputs(m->grid, f);
  if (k > 0) fprintf(f, "# shard: %d/%d\n", k, m->q->shard_n);
  if (m->model_note[0]) cs_csv_note(f, "model", m->model_note);
  return f;
}

/* Closes f and gives it its name: a file is complete or absent. */
static int close_part(FILE *f, const char *tmp, const char *path) {
  if (fclose(f) || rename(tmp, path)) {
    fprintf(stderr, "collsim map: cannot write %s: %s\n", path, strerror(errno));
    return 1;
  }
  return 0;
}

static int write_raw(map *m, const char *path, const int *shard, int k, const char *extra) {
  char tmp[4300];
  FILE *f = open_part(m, path, tmp, sizeof tmp, k);
  if (!f) return 1;
  if (extra) fputs(extra, f);
  cs_csv_write_header(f, CS_CSV_MAP);
  const char *coll = cs_colls[m->q->coll].name;
  for (int c = 0; c < m->ncells; c++) {
    if (k > 0 && shard[c] != k) continue;
    for (int a = 0; a < m->nc; a++)
      cs_csv_map_row(f, coll, m->cand[a], m->cells[c].p, m->cells[c].bytes, *tcell(m, c, a),
                     ncell(m, c, a));
  }
  return close_part(f, tmp, path);
}

/* The winner (fastest, the first candidate of equal time) and the
 * runner-up of cell c among the candidates with a time. */
static void rank_cell(map *m, int c, int *w, int *r) {
  *w = *r = -1;
  for (int a = 0; a < m->nc; a++) {
    double t = *tcell(m, c, a);
    if (isnan(t)) continue;
    if (*w < 0 || t < *tcell(m, c, *w)) {
      *r = *w;
      *w = a;
    } else if (*r < 0 || t < *tcell(m, c, *r)) {
      *r = a;
    }
  }
}

static int write_winners(map *m, const char *path, int *winner) {
  char tmp[4300];
  FILE *f = open_part(m, path, tmp, sizeof tmp, 0);
  if (!f) return 1;
  cs_csv_note(f, "winners",
              "the fastest candidate per (p, bytes), the first of equal times in the candidates' "
              "order; ratio = runner_up_s / winner_s");
  cs_csv_write_header(f, CS_CSV_MAPWIN);
  const char *coll = cs_colls[m->q->coll].name;
  int none = 0;
  for (int c = 0; c < m->ncells; c++) {
    int w, r;
    rank_cell(m, c, &w, &r);
    winner[c] = w;
    none += w < 0;
    cs_csv_map_winner_row(f, coll, m->cells[c].p, m->cells[c].bytes, w >= 0 ? m->cand[w] : NULL,
                          w >= 0 ? *tcell(m, c, w) : NAN, r >= 0 ? m->cand[r] : NULL,
                          r >= 0 ? *tcell(m, c, r) : NAN);
  }
  if (close_part(f, tmp, path)) return 1;
  if (none)
    fprintf(stderr,
            "collsim map: %d cell%s without any candidate's time (empty winner; the raw "
            "file's notes say why)\n",
            none, none == 1 ? "" : "s");
  return 0;
}

/* The ratio picture's baseline (index) and set (mask): q's, or the
 * registry's baseline row when it is a candidate, else the first
 * candidate; the set: every other candidate. -1 when the baseline is not a
 * candidate, -2 when there is no set. */
static int ratio_set(map *m, int *inset, char *setname, size_t len) {
  cs_map_req *q = m->q;
  const char *bname = q->baseline;
  if (!bname) {
    const cs_algo_info *b = cs_algo_baseline(q->coll);
    bname = m->cand[0];
    for (int a = 0; b && a < m->nc; a++)
      if (!strcmp(m->cand[a], b->name)) bname = b->name;
  }
  int base = -1;
  for (int a = 0; a < m->nc; a++)
    if (!strcmp(m->cand[a], bname)) base = a;
  if (base < 0) {
    fprintf(stderr, "collsim map: --baseline %s is not a candidate (candidates:", bname);
    for (int a = 0; a < m->nc; a++) fprintf(stderr, "%s %s", a ? "," : "", m->cand[a]);
    fprintf(stderr, ")\n");
    return -1;
  }
  int n = 0;
  size_t k = 0;
  setname[0] = '\0';
  for (int a = 0; a < m->nc; a++) {
    inset[a] = 0;
    if (q->nset) {
      for (int s = 0; s < q->nset; s++) inset[a] |= !strcmp(q->set[s], m->cand[a]);
    } else {
      inset[a] = a != base;
    }
    if (inset[a] && k < len)
      k += (size_t)snprintf(setname + k, len - k, "%s%s", n ? "," : "", m->cand[a]);
    n += inset[a];
  }
  for (int s = 0; s < q->nset; s++) {
    int found = 0;
    for (int a = 0; a < m->nc; a++) found |= !strcmp(q->set[s], m->cand[a]);
    if (!found) {
      fprintf(stderr, "collsim map: --set names %s, which is not a candidate\n", q->set[s]);
      return -1;
    }
  }
  if (n == 0) return -2;
  return base;
}

/* The outputs of a complete map: raw file, winners, pictures. */
static int finish(map *m, const char *extra) {
  cs_map_req *q = m->q;
  char raw[4200], win[4200];
  raw_path(raw, sizeof raw, q);
  path_of(win, sizeof win, q, "winners");
  int *winner = malloc(sizeof(int) * (size_t)m->ncells);
  int *ps = malloc(sizeof(int) * (size_t)m->ncells);
  long *bs = malloc(sizeof(long) * (size_t)m->ncells);
  double *ratio = malloc(sizeof(double) * (size_t)m->ncells);
  int rc = 0;
  if (!winner || !ps || !bs || !ratio) {
    rc = 1;
    goto out;
  }
  if (write_raw(m, raw, NULL, 0, extra) || write_winners(m, win, winner)) {
    rc = 1;
    goto out;
  }
  if (!q->quiet) fprintf(stderr, "collsim map: %s\ncollsim map: %s\n", raw, win);
  /* --emit: the tuning files, from the winners file just written (tuning/). */
  for (int e = 0; e < q->nemit; e++) {
    char err[1024];
    if (cs_tuning_emit(win, q->emit[e], err, sizeof err)) {
      fprintf(stderr, "collsim map: %s\n", err);
      rc = 1;
    } else if (!q->quiet)
      fprintf(stderr, "collsim map: %s\n", strchr(q->emit[e], ':') + 1);
  }
  if (q->nopics) goto out;
  int inset[CS_MAX_ALGOS];
  char setname[2048];
  int base = ratio_set(m, inset, setname, sizeof setname);
  if (base == -1) {
    rc = 2;
    goto out;
  }
  for (int c = 0; c < m->ncells; c++) {
    ps[c] = m->cells[c].p;
    bs[c] = m->cells[c].bytes;
    ratio[c] = NAN;
    if (base < 0) continue;
    double tb = *tcell(m, c, base), best = NAN;
    for (int a = 0; a < m->nc; a++) {
      double t = *tcell(m, c, a);
      if (inset[a] && !isnan(t) && (isnan(best) || t < best)) best = t;
    }
    if (!isnan(tb) && !isnan(best) && best > 0) ratio[c] = tb / best;
  }
  if (base == -2)
    fprintf(stderr,
            "collsim map: one candidate only: no ratio picture (it needs a set besides "
            "the baseline)\n");
  cs_map_pics pic = {cs_colls[q->coll].name,
                     m->source,
                     m->ncells,
                     ps,
                     bs,
                     m->nc,
                     m->cand,
                     winner,
                     base >= 0 ? ratio : NULL,
                     base >= 0 ? m->cand[base] : NULL,
                     setname,
                     q->out,
                     NULL,
                     q->quiet ? NULL : stderr};
  char stem[256];
  snprintf(stem, sizeof stem, "map-%s", cs_colls[q->coll].name);
  pic.stem = stem;
  rc = cs_map_plot(&pic);
out:
  free(winner);
  free(ps);
  free(bs);
  free(ratio);
  return rc;
}

/* ---- from the models ------------------------------------------------------- */

/* Prices every candidate at every cell of p = np[u] (cells [c0, c1)). */
static void price_p(map *m, const cs_model *mo, int c0, int c1) {
  cs_model on_routes, on_nb;
  cs_routes rt = {0};
  /* every cell of c0..c1 has one p: the ranks placed for it */
  cs_routes_later lz = {.pf = m->nb_pf, .hosts = m->routes_hosts, .np = m->cells[c0].p};
  if (m->nb_pf) {
    on_nb = *mo;
    mo = &on_nb;
  }
  if (m->routes_pf) { /* every cell of c0..c1 has one p: the ranks placed for it */
    on_routes = *mo;
    if (cs_routes_attach("map", m->routes_pf, m->routes_hosts, m->cells[c0].p, 1, &rt,
                         &on_routes)) {
      for (int a = 0; a < m->nc; a++)
        for (int c = c0; c < c1; c++)
          snprintf(ncell(m, c, a), NOTE_LEN, "no routes for p = %d (message above)", m->cells[c].p);
      return;
    }
    mo = &on_routes;
  }
  for (int a = 0; a < m->nc; a++)
    for (int c = c0; c < c1; c++) {
      cs_case k = {m->q->coll,        m->cand[a], m->cells[c].p,
                   m->cells[c].bytes, m->q->root, m->q->inplace};
      /* the model takes the size as asked: it builds the arguments as the driver does */
      k.bytes = m->cells[c].asked;
      char err[512];
      double t;
      if (m->nb_pf) cs_routes_when_needed("map", &on_nb, &k, &lz);
      if (cs_model_time(mo, &k, &t, err, sizeof err) == 0)
        *tcell(m, c, a) = as_written(t);
      else
        snprintf(ncell(m, c, a), NOTE_LEN, "%.159s", err);
    }
  cs_routes_free(&rt);
  cs_routes_free(&lz.rt);
}

/* The cells of this run, grouped by p: unit u is cells [first[u], first[u + 1]). */
static int units_of(map *m, const int *shard, int k, int **firstp, int **lastp) {
  int *first = malloc(sizeof(int) * (size_t)(m->ncells + 1));
  int *last = malloc(sizeof(int) * (size_t)(m->ncells + 1));
  int n = 0;
  if (!first || !last) {
    free(first);
    free(last);
    return -1;
  }
  for (int c = 0; c < m->ncells; c++) {
    if (k > 0 && shard[c] != k) continue;
    if (n > 0 && m->cells[last[n - 1] - 1].p == m->cells[c].p && last[n - 1] == c) {
      last[n - 1] = c + 1;
      continue;
    }
    first[n] = c;
    last[n] = c + 1;
    n++;
  }
  *firstp = first;
  *lastp = last;
  return n;
}

static int from_models(map *m, const cs_model *mo, const int *shard, int k) {
  int *first, *last, nu = units_of(m, shard, k, &first, &last);
  if (nu < 0) return 1;
  int jobs = m->q->jobs < 1 ? 1 : m->q->jobs;
  if (jobs > nu) jobs = nu;
  int rc = 0;
  if (jobs <= 1) {
    for (int u = nu - 1; u >= 0; u--) price_p(m, mo, first[u], last[u]);
  } else {
    /* Worker processes take the process counts largest first from a shared
     * counter, so that they finish together; each writes its cells' times
     * into the shared results. */
    int *next = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    pid_t pid[64];
    int started = 0;
    if (next == MAP_FAILED) {
      free(first);
      free(last);
      return 1;
    }
    *next = 0;
    if (jobs > 64) jobs = 64;
    fflush(NULL);
    for (int w = 0; w < jobs; w++) {
      pid_t c = fork();
      if (c < 0) {
        fprintf(stderr, "collsim map: cannot start a worker: %s\n", strerror(errno));
        rc = 1;
        break;
      }
      if (c == 0) {
        for (int u; (u = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED)) < nu;)
          price_p(m, mo, first[nu - 1 - u], last[nu - 1 - u]);
        _exit(0);
      }
      pid[started++] = c;
    }
    for (int w = 0; w < started; w++) {
      int st;
      while (waitpid(pid[w], &st, 0) < 0 && errno == EINTR) {}
      if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "collsim map: a worker process failed (status %d)\n", st);
        rc = 1;
      }
    }
    munmap(next, sizeof(int));
  }
  free(first);
  free(last);
  return rc;
}

/* ---- from simulation -------------------------------------------------------- */

static int from_sim(map *m, cs_platform_file *pf, const char *xml, const char *hosts,
                    const int *shard, int k) {
  cs_map_req *q = m->q;
  int *first, *last, nu = units_of(m, shard, k, &first, &last);
  if (nu < 0) return 1;
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/sim-%s", q->out, cs_colls[q->coll].name);
  if (cs_mkdir_p(dir)) {
    fprintf(stderr, "collsim map: cannot create %s: %s\n", dir, strerror(errno));
    free(first);
    free(last);
    return 1;
  }
  int rc = 0, failed = 0;
  for (int u = 0; u < nu && rc == 0; u++) {
    int p = m->cells[first[u]].p;
    char csv[4400];
    if (k > 0)
      snprintf(csv, sizeof csv, "%s/p%d.%d-of-%d.csv", dir, p, k, q->shard_n);
    else
      snprintf(csv, sizeof csv, "%s/p%d.csv", dir, p);
    cs_bench_req b;
    cs_bench_defaults(&b);
    snprintf(b.xml, sizeof b.xml, "%s", xml);
    snprintf(b.hosts, sizeof b.hosts, "%s", hosts);
    b.hostfile = q->hostfile;
    b.pf = pf;
    b.np = p;
    b.coll = q->coll;
    for (int a = 0; a < m->nc; a++) b.algos[b.nalgos++] = m->cand[a];
    for (int c = first[u]; c < last[u]; c++) b.bytes[b.nbytes++] = m->cells[c].asked;
    b.out = csv;
    b.quiet = 1;
    b.verify = 1; /* the library's rows; collsim's kernels are proven by check */
    b.root = q->root;
    b.inplace = q->inplace;
    b.redo = q->redo;
    if (!q->quiet)
      fprintf(stderr, "collsim map: simulating p = %d, %d size%s x %d candidates (%d/%d)\n", p,
              b.nbytes, b.nbytes == 1 ? "" : "s", m->nc, u + 1, nu);
    int r = cs_bench_run(&b);
    if (r == CS_EXIT_INTERRUPTED || cs_interrupted()) {
      rc = CS_EXIT_INTERRUPTED;
      break;
    }
    if (r == 2) {
      rc = 2;
      break;
    }
    if (r != 0) failed++;
    for (int c = first[u]; c < last[u]; c++)
      for (int a = 0; a < m->nc; a++) {
        double t = cs_bench_lookup(csv, m->cand[a], m->cells[c].bytes);
        char st[32], why[1024];
        if (t >= 0)
          *tcell(m, c, a) = as_written(t);
        else if (cs_bench_lookup_verify(csv, m->cand[a], m->cells[c].bytes, st, sizeof st, why,
                                        sizeof why))
          snprintf(ncell(m, c, a), NOTE_LEN, "%.20s: %.130s", st, why);
        else
          snprintf(ncell(m, c, a), NOTE_LEN, "the simulation gave no time (%.120s)", csv);
      }
  }
  free(first);
  free(last);
  if (rc == CS_EXIT_INTERRUPTED)
    fprintf(stderr,
            "collsim map: interrupted; the finished cells are kept in %s (the same command "
            "resumes)\n",
            dir);
  if (rc == 0 && failed)
    fprintf(stderr,
            "collsim map: the simulation failed for %d process count%s (above); their "
            "cells have notes, not times\n",
            failed, failed == 1 ? "" : "s");
  return rc ? rc : failed ? 1 : 0;
}

/* ---- merging shards ------------------------------------------------------- */

/* A shard file: its first lines and rows. */
typedef struct {
  char path[4200];
  char config[2048], grid[8192];
  int k, n;
} shardfile;

static int read_shard_head(shardfile *s) {
  FILE *f = fopen(s->path, "r");
  if (!f) {
    fprintf(stderr, "collsim map: cannot read %s: %s\n", s->path, strerror(errno));
    return -1;
  }
  char line[8192];
  s->config[0] = s->grid[0] = '\0';
  s->k = s->n = 0;
  for (int i = 0; i < 3 && fgets(line, sizeof line, f); i++) {
    if (i == 0) snprintf(s->config, sizeof s->config, "%.2040s", line);
    if (i == 1) snprintf(s->grid, sizeof s->grid, "%s", line);
    if (i == 2) sscanf(line, "# shard: %d/%d", &s->k, &s->n);
  }
  fclose(f);
  if (strncmp(s->config, "# collsim map ", 14) || strncmp(s->grid, "# grid: ", 8) || s->n < 1 ||
      s->k < 1 || s->k > s->n) {
    fprintf(stderr,
            "collsim map: %s is not a shard of a map (its first lines should be '# collsim map "
            "...', '# grid: ...', '# shard: K/N')\n",
            s->path);
    return -1;
  }
  return 0;
}

/* The shard files named by q->merge: files, or directories whose
 * map-*-raw.K-of-N.csv files are taken. */
static int list_shards(cs_map_req *q, shardfile **out) {
  int n = 0, cap = 0;
  shardfile *s = NULL;
  for (int i = 0; i < q->nmerge; i++) {
    struct stat st;
    if (stat(q->merge[i], &st)) {
      fprintf(stderr, "collsim map: --merge %s: %s\n", q->merge[i], strerror(errno));
      free(s);
      return -1;
    }
    char pat[4400];
    if (S_ISDIR(st.st_mode))
      snprintf(pat, sizeof pat, "%s/map-*-raw.*-of-*.csv", q->merge[i]);
    else
      snprintf(pat, sizeof pat, "%s", q->merge[i]);
    glob_t gl;
    int found = 0;
    if (glob(pat, S_ISDIR(st.st_mode) ? 0 : GLOB_NOCHECK, NULL, &gl) == 0) {
      for (size_t j = 0; j < gl.gl_pathc; j++) {
        if (n == cap) {
          cap = cap ? 2 * cap : 16;
          shardfile *t = realloc(s, sizeof *s * (size_t)cap);
          if (!t) break;
          s = t;
        }
        snprintf(s[n].path, sizeof s[n].path, "%s", gl.gl_pathv[j]);
        n++;
        found++;
      }
      globfree(&gl);
    }
    if (!found) {
      fprintf(stderr, "collsim map: --merge %s: no shard files (map-COLL-raw.K-of-N.csv) there\n",
              q->merge[i]);
      free(s);
      return -1;
    }
  }
  *out = s;
  return n;
}

/* The request a shard's first lines describe, into q (coll, np, bytes,
 * candidates, root, in place). */
static int parse_head(const shardfile *s, cs_map_req *q, char *cands, size_t clen) {
  char coll[64] = "", np[4096] = "", bytes[4096] = "";
  const char *c = strstr(s->config, " coll=");
  if (c) sscanf(c + 6, "%63[^ \n]", coll);
  const char *r = strstr(s->config, " root="), *ip = strstr(s->config, " in_place=");
  q->root = r ? atoi(r + 6) : 0;
  q->inplace = ip ? atoi(ip + 10) : 0;
  int k = cs_coll_by_name(coll);
  if (k < 0 || sscanf(s->grid, "# grid: np=%4095s bytes=%4095s candidates=%*s", np, bytes) != 2) {
    fprintf(stderr, "collsim map: %s: cannot read its first lines\n", s->path);
    return -1;
  }
  const char *cl = strstr(s->grid, " candidates=");
  snprintf(cands, clen, "%s", cl ? cl + 12 : "");
  cands[strcspn(cands, "\n")] = '\0';
  q->coll = (cs_coll)k;
  if ((q->nnp = cs_parse_np_list(np, q->np, CS_MAP_MAX_NP)) < 0 ||
      (q->nbytes = cs_parse_sizes(bytes, q->bytes, CS_MAX_SIZES)) < 0)
    return -1;
  q->nalgos = 0;
  for (char *save = NULL, *t = strtok_r(cands, ",", &save); t && q->nalgos < CS_MAX_ALGOS;
       t = strtok_r(NULL, ",", &save))
    q->algos[q->nalgos++] = t;
  return 0;
}

static int merge(cs_map_req *q) {
  struct stat st;
  static char outdir[4200];
  if (!stat(q->out, &st) && S_ISREG(st.st_mode)) { /* a shard file: its directory */
    snprintf(outdir, sizeof outdir, "%s", q->out);
    char *slash = strrchr(outdir, '/');
    if (slash)
      *slash = '\0';
    else
      snprintf(outdir, sizeof outdir, ".");
    q->out = outdir;
  }
  shardfile *s;
  int ns = list_shards(q, &s), rc = 0;
  if (ns < 0) return 2;
  for (int i = 0; i < ns; i++)
    if (read_shard_head(&s[i])) {
      free(s);
      return 2;
    }
  /* One configuration, one grid, every shard once. */
  int n = s[0].n;
  char *seen = calloc((size_t)n + 1, 1);
  for (int i = 0; i < ns && rc == 0; i++) {
    if (strcmp(s[i].config, s[0].config) || strcmp(s[i].grid, s[0].grid) || s[i].n != n) {
      fprintf(stderr,
              "collsim map: %s and %s are shards of different maps (their first lines "
              "differ):\n  %s  %s",
              s[0].path, s[i].path, s[i].n != n ? s[i].grid : s[0].config,
              s[i].n != n ? s[0].grid : s[i].config);
      rc = 2;
    } else if (seen[s[i].k]++) {
      fprintf(stderr, "collsim map: shard %d/%d is given twice (%s)\n", s[i].k, n, s[i].path);
      rc = 2;
    }
  }
  for (int k = 1; k <= n && rc == 0; k++)
    if (!seen[k]) {
      fprintf(stderr, "collsim map: shard %d/%d is missing (have:", k, n);
      for (int i = 0; i < ns; i++) fprintf(stderr, " %s", s[i].path);
      fprintf(stderr, "); run it with --shard %d/%d, then merge again\n", k, n);
      rc = 2;
    }
  free(seen);
  if (rc) {
    free(s);
    return rc;
  }
  char cands[8192];
  cs_map_req g = *q;
  g.nmerge = 0;
  g.shard_k = g.shard_n = 0;
  if (parse_head(&s[0], &g, cands, sizeof cands)) {
    free(s);
    return 2;
  }
  map m = {0};
  m.q = &g;
  for (int a = 0; a < g.nalgos; a++) m.cand[m.nc++] = g.algos[a];
  if (make_cells(&m) || alloc_results(&m)) {
    free_map(&m);
    free(s);
    return 1;
  }
  snprintf(m.config, sizeof m.config, "%s", s[0].config);
  snprintf(m.grid, sizeof m.grid, "%s", s[0].grid);
  /* The rows: each (cell, candidate) exactly once over all shards. */
  char *have = calloc((size_t)m.ncells * (size_t)m.nc, 1);
  for (int i = 0; i < ns && rc == 0; i++) {
    cs_csv_reader r;
    if (cs_csv_open(&r, s[i].path)) {
      rc = 2;
      break;
    }
    int col[CS_MAP_NCOL], kk, hdr = 0;
    while (rc == 0 && (kk = cs_csv_next(&r)) != 0) {
      if (kk == 2) {
        if (!strncmp(r.line, "# model: ", 9))
          snprintf(m.model_note, sizeof m.model_note, "%.1000s", r.line + 9);
        continue;
      }
      if (!hdr) cs_csv_cols(&r, CS_CSV_MAP, col);
      hdr = 1;
      const char *al = cs_csv_get(&r, col[CS_MAP_ALGO]), *ps = cs_csv_get(&r, col[CS_MAP_P]),
                 *bs = cs_csv_get(&r, col[CS_MAP_BYTES]), *ts = cs_csv_get(&r, col[CS_MAP_TIME]),
                 *no = cs_csv_get(&r, col[CS_MAP_NOTE]);
      int p = ps ? atoi(ps) : -1, a = -1, c = -1;
      long b = bs ? atol(bs) : -1;
      for (int x = 0; al && x < m.nc; x++)
        if (!strcmp(al, m.cand[x])) a = x;
      for (int x = 0; x < m.ncells; x++)
        if (m.cells[x].p == p && m.cells[x].bytes == b) c = x;
      if (a < 0 || c < 0 || have[(size_t)c * m.nc + a]++) {
        fprintf(stderr, "collsim map: %s line %ld: %s (p = %d, %ld bytes, %s)\n", s[i].path,
                r.lineno, a < 0 || c < 0 ? "a row outside the grid" : "a row given twice", p, b,
                al ? al : "?");
        rc = 2;
        break;
      }
      if (ts && *ts) *tcell(&m, c, a) = as_written(atof(ts));
      if (no && *no) snprintf(ncell(&m, c, a), NOTE_LEN, "%.159s", no);
    }
    cs_csv_close(&r);
  }
  for (size_t x = 0; rc == 0 && x < (size_t)m.ncells * m.nc; x++)
    if (!have[x]) {
      fprintf(stderr,
              "collsim map: the shards lack p = %d, %ld bytes, %s (a shard file cut short?)\n",
              m.cells[x / m.nc].p, m.cells[x / m.nc].bytes, m.cand[x % m.nc]);
      rc = 2;
    }
  free(have);
  if (rc == 0) {
    const char *src = strstr(m.config, " source=");
    snprintf(m.source, sizeof m.source, "%.1100s", src ? src + 8 : "");
    m.source[strcspn(m.source, "\n")] = '\0';
    char extra[600];
    snprintf(extra, sizeof extra, "# merged: %d shards\n", n);
    if (other_config(&m)) {
      rc = 2;
    } else if (cs_mkdir_p(g.out)) {
      fprintf(stderr, "collsim map: cannot create %s: %s\n", g.out, strerror(errno));
      rc = 1;
    } else {
      rc = finish(&m, extra);
    }
  }
  free_map(&m);
  free(s);
  return rc;
}

/* ---- the run ------------------------------------------------------------------ */

int cs_map_run(cs_map_req *q) {
  if (q->nmerge) return merge(q);
  map m = {0};
  m.q = q;
  int rc = pick_candidates(&m);
  if (rc) return rc;
  if (q->nnp < 1 || q->nbytes < 1) {
    fprintf(stderr, "collsim map: --np and --bytes are required (see collsim map --help)\n");
    return 2;
  }
  if (cs_colls[q->coll].rooted && q->root != 0) {
    int pmin = q->np[0];
    for (int i = 0; i < q->nnp; i++)
      if (q->np[i] < pmin) pmin = q->np[i];
    if (q->root < 0 || q->root >= pmin) {
      fprintf(stderr, "collsim map: --root %d is not a rank of p = %d (valid: 0..%d)\n", q->root,
              pmin, pmin - 1);
      return 2;
    }
  }
  if (q->inplace && !cs_colls[q->coll].in_place) {
    fprintf(stderr, "collsim map: %s has no MPI_IN_PLACE form\n", cs_colls[q->coll].name);
    return 2;
  }
  /* What the times depend on, and where they come from. */
  char xml[4096] = "", hosts[4096] = "";
  cs_model mo;
  cs_platform_file pf = {0};
  if (q->platform && cs_resolve_platform(q->platform, q->hostfile, xml, hosts, sizeof xml))
    return 2;
  if (q->sim) {
    if (!q->platform) {
      fprintf(stderr,
              "collsim map: --sim needs --platform F (a file, or a machine such as hydra; e.g. "
              "collsim platform abg --np 64 --out abg.xml)\n");
      return 2;
    }
    if (q->abg_given)
      fprintf(stderr, "collsim map: note: --alpha/--beta/--gamma are ignored with --sim\n");
    snprintf(m.config, sizeof m.config,
             "# collsim map coll=%s source=sim platform=%s hostfile=%s root=%d in_place=%d\n",
             cs_colls[q->coll].name, xml, hosts[0] ? hosts : "-", q->root, q->inplace);
    snprintf(m.source, sizeof m.source, "SMPI on %s", xml);
  } else if (q->platform) {
    if (q->abg_given) {
      fprintf(stderr,
              "collsim map: give either --platform F (its model or routes price the cells) "
              "or --alpha/--beta/--gamma (an abg machine), not both\n");
      return 2;
    }
    /* The pricing the platform gets (platforms/foreign.h): a closed-form
     * line by its model, any other platform on its own routes. */
    cs_platform_load(&pf, xml);
    int r = cs_platform_pricing("map", &pf, 0, &mo, m.model_note, sizeof m.model_note);
    if (r < 0) {
      cs_platform_file_free(&pf);
      return 2;
    }
    if (r == 1) {
      m.routes_pf = &pf;
      m.routes_hosts = hosts;
    } else if (mo.kind != CS_MODEL_ABG) {
      m.nb_pf = &pf;
      m.routes_hosts = hosts;
    }
    if (m.model_note[0] && !q->quiet)
      fprintf(stderr, "collsim map: note: the times are a %s\n", m.model_note);
    snprintf(m.config, sizeof m.config,
             "# collsim map coll=%s source=model platform=%s%s%s root=%d in_place=%d\n",
             cs_colls[q->coll].name, xml, r == 1 ? " pricing=routes hostfile=" : "",
             r == 1 ? (hosts[0] ? hosts : "-") : "", q->root, q->inplace);
    snprintf(m.source, sizeof m.source, "model of %s%s", xml, r == 1 ? " on its routes" : "");
  } else {
    mo = cs_model_abg(q->alpha, q->beta, q->gamma);
    snprintf(m.config, sizeof m.config,
             "# collsim map coll=%s source=model model=abg alpha=%g beta=%g gamma=%g root=%d "
             "in_place=%d\n",
             cs_colls[q->coll].name, q->alpha, q->beta, q->gamma, q->root, q->inplace);
    snprintf(m.source, sizeof m.source, "model abg alpha=%g s, beta=%g s/B, gamma=%g s/B", q->alpha,
             q->beta, q->gamma);
  }
  if (!q->sim && q->nalgos == 0 && !m.routes_pf) drop_node_aware(&m, &mo);
  if (!q->nopics) { /* the ratio picture's baseline and set, checked before any work */
    int inset[CS_MAX_ALGOS];
    char setname[2048];
    if (ratio_set(&m, inset, setname, sizeof setname) == -1) return 2;
  }
  if (make_cells(&m) || alloc_results(&m)) {
    free_map(&m);
    return 1;
  }
  grid_line(&m);
  int *shard = malloc(sizeof(int) * (size_t)m.ncells), *ps = malloc(sizeof(int) * (size_t)m.ncells);
  char raw[4200];
  if (!shard || !ps) {
    rc = 1;
    goto out;
  }
  for (int c = 0; c < m.ncells; c++) ps[c] = m.cells[c].p;
  if (q->shard_n > 0) cs_map_shards(ps, m.ncells, q->shard_n, shard);
  if (cs_mkdir_p(q->out)) {
    fprintf(stderr, "collsim map: cannot create %s: %s\n", q->out, strerror(errno));
    rc = 1;
    goto out;
  }
  /* A raw file of another configuration is not overwritten (it may hold
   * hours of simulation): --redo, or another --out. */
  if (other_config(&m)) {
    rc = 2;
    goto out;
  }
  if (q->sim) {
    /* bench catches an interrupt during its runs (and keeps what finished);
     * one between two runs ends the process, the files as complete. */
    cs_platform_load(&pf, xml);
    rc = from_sim(&m, &pf, xml, hosts, shard, q->shard_n > 0 ? q->shard_k : 0);
  } else {
    rc = from_models(&m, &mo, shard, q->shard_n > 0 ? q->shard_k : 0);
  }
  if (rc == 2 || rc == CS_EXIT_INTERRUPTED) goto out;
  int rc2;
  if (q->shard_n > 0) {
    raw_path(raw, sizeof raw, q);
    rc2 = write_raw(&m, raw, shard, q->shard_k, NULL);
    if (!rc2 && !q->quiet)
      fprintf(stderr,
              "collsim map: shard %d/%d in %s; when every shard is done: collsim map --merge "
              "DIR[,DIR2...] --out DIR\n",
              q->shard_k, q->shard_n, raw);
  } else {
    rc2 = finish(&m, NULL);
  }
  if (rc2) rc = rc2;
out:
  free(shard);
  free(ps);
  cs_platform_file_free(&pf);
  free_map(&m);
  return rc;
}
