/* The selection and logging code of collsim's two application libraries
 * (pmpi/select.h): libcollsim-pmpi.so under mpirun (pmpi/pmpi.c) and
 * libcollsim-smpi.o under smpirun (pmpi/smpi.c). pmpi/README.md documents
 * the settings, the fallback rules and the lines both print.
 *
 * Environment (read once, at MPI_Init / MPI_Init_thread; it must be the same
 * on every process, which is checked there):
 *   COLLSIM_<COLL>            algorithm of collective COLL (the collective ids
 *                             of algos/colls.def in upper case); a name from
 *                             algos/registry.def. Unset, empty or "native":
 *                             the library's own collective.
 *   COLLSIM_<COLL>_MIN_BYTES  use the algorithm only when the total message
 *   COLLSIM_<COLL>_MAX_BYTES  size m in bytes (docs/csv.md "bytes") satisfies
 *                             MIN <= m <= MAX (suffixes K, M, G).
 *   COLLSIM_PMPI_VERBOSE      1: configuration at MPI_Init and counters at
 *                             MPI_Finalize on rank 0's stderr; 2: every process.
 *   COLLSIM_PMPI_LOG=FILE     appends the counter lines and every warning.
 *   COLLSIM_PMPI_TIME=1       the time spent inside each collective and the
 *                             application's time, largest over processes,
 *                             printed at MPI_Finalize.
 *   COLLSIM_STRICT=1          a setting that is unknown or refused, or a call
 *                             the chosen algorithm refuses, aborts the job
 *                             (MPI_Abort) instead of a warning and the library.
 *
 * Fallback: whenever the algorithm cannot serve a call (unknown name,
 * non-commutative op for a commutative-only algorithm, an op whose result
 * depends on the order of evaluation for an algorithm that reduces in a
 * different order on each rank (CS_ASSOCIATIVE), an erroneous call by MPI's
 * rules (algos/validate.c: the library then reports it), intercommunicator,
 * counts beyond the kernels' int range, a call made from inside a kernel) the
 * library's PMPI_<Coll> serves it, decided BEFORE anything is sent, on
 * grounds every process of the communicator shares, so all processes take
 * the same path. Each reason is reported by ONE line on stderr per process:
 * the process prints it the first time it meets the reason as rank 0 of the
 * communicator of the call (setting problems: rank 0 of MPI_COMM_WORLD, at
 * MPI_Init).
 *
 * Kernels run on a private duplicate ("shadow") of the user's communicator,
 * created with PMPI_Comm_create at the first call served on that
 * communicator and freed with it (attribute caching), so that their
 * point-to-point messages never meet the application's (wildcard receives,
 * tag 7411). Kernel errors go to the user communicator's error handler.
 * The shadow also carries the kernel context (algos/ctx.h: node and lane
 * communicators), built right after the shadow, outside any kernel; its
 * collectives (MPI_Allreduce on integers) go straight to the library.
 *
 * Recursion: the kernels use point-to-point calls, MPI_Reduce_local and type
 * functions only. algos/native/native.c (linked in for the dispatcher's
 * table) calls MPI_Allreduce & co, which inside this library are the wrappers
 * below; the wrappers never dispatch to a native algorithm (they call
 * PMPI_<Coll> directly), and a collective called while a kernel runs on the
 * same thread goes straight to the library.
 *
 * State: the settings are parsed once per OS process (or per copy of the
 * program under SMPI's privatization) and are the same for every process;
 * what a process counts lives in its cs_sel_proc (cs_sel_self), so that
 * simulated processes sharing this code's globals (smpirun -no-privatize)
 * each keep their own.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../algos/collsim.h"
#include "../algos/kernel.h"
#include "../algos/sizes.h"
#include "../tuning/tuning.h"
#include "select.h"

#define EXPORT __attribute__((visibility("default")))

/* The settings of one collective: the same on every process. */
typedef struct {
  char env[64];             /* COLLSIM_ALLREDUCE */
  const char *given;        /* the value given, NULL if unset/native */
  const cs_algo_info *algo; /* registered non-native algorithm, or NULL */
  int active;               /* algo usable (setting valid, consistent) */
  int tuned;                /* no COLLSIM_<COLL>: the COLLSIM_TUNING table picks per call */
  long long min_bytes, max_bytes;
} coll_state;

static coll_state st[CS_NCOLL];
static int verbose;             /* COLLSIM_PMPI_VERBOSE */
static const char *log_path;    /* COLLSIM_PMPI_LOG */
static int timing;              /* COLLSIM_PMPI_TIME */
static int strict;              /* COLLSIM_STRICT */
static int inconsistent;        /* the settings differ between processes */
static cs_tuning_table *tuning; /* COLLSIM_TUNING (tuning/tuning.h, docs/tuning.md) */
static int tuning_broken;       /* COLLSIM_TUNING names a file that cannot serve */
static pthread_once_t parse_once = PTHREAD_ONCE_INIT;

/* The problems parse_settings found, printed by rank 0 of MPI_COMM_WORLD
 * at MPI_Init (cs_sel_init): the parse may run on any process (under
 * smpirun -no-privatize, the first simulated process to start). */
#define NOTES 48
static char notes[NOTES][640];
static int nnotes;

/* ---- output ---------------------------------------------------------- */

static int world_rank(void) {
  int r = 0, init = 0, fin = 0;
  PMPI_Initialized(&init);
  PMPI_Finalized(&fin);
  if (init && !fin) PMPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

/* Appends one line to the log file (O_APPEND: one write per line, so lines
 * of several processes do not mix). */
static void log_line(const char *line) {
  if (!log_path || !*log_path) return;
  int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) return;
  size_t n = strlen(line);
  while (n > 0) {
    ssize_t w = write(fd, line, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    line += w;
    n -= (size_t)w;
  }
  close(fd);
}

/* One line "<name>: <kind>: <text>" on stderr (one fputs) and in the log. */
static void emit(const char *kind, const char *text) {
  char line[1024];
  snprintf(line, sizeof line - 1, "%s: %s: %s", cs_sel_name, kind, text);
  size_t len = strlen(line);
  line[len] = '\n';
  line[len + 1] = '\0';
  fputs(line, stderr);
  fflush(stderr);
  log_line(line);
}

/* A problem: a warning, or under COLLSIM_STRICT=1 an error that ends the
 * job (every process of which takes the same decision; this one prints it). */
static void problem(const char *text) {
  if (!strict) {
    emit("warning", text);
    return;
  }
  char t[960];
  snprintf(t, sizeof t, "%.900s; COLLSIM_STRICT=1: aborting the job", text);
  emit("error", t);
  cs_sel_abort();
}

/* Records a setting problem for rank 0 to report at MPI_Init. */
static void note(const char *fmt, ...) {
  if (nnotes == NOTES) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(notes[nnotes++], sizeof notes[0], fmt, ap);
  va_end(ap);
}

static const char *mpi_name(cs_coll c) { return cs_colls[c].mpi_name; }

/* A per-call fallback reason: printed once per process, by a process that
 * is rank 0 of the communicator of the call. */
static void warn(cs_coll c, int reason, MPI_Comm comm, const char *what) {
  int *w = &cs_sel_self()->warned[c][reason];
  if (__atomic_load_n(w, __ATOMIC_RELAXED)) return;
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  if (r != 0) return;
  if (__atomic_exchange_n(w, 1, __ATOMIC_RELAXED)) return;
  char text[900];
  if (strict && reason != CS_R_INVALID)
    snprintf(text, sizeof text, "%s %s: %s", cs_colls[c].name, st[c].given, what);
  else
    snprintf(text, sizeof text, "%s %s: %s; using the library's %s (reported once per process)",
             cs_colls[c].name, st[c].given, what, mpi_name(c));
  /* An erroneous call is the application's (the library reports it as MPI
   * says): not a refused setting. */
  if (reason == CS_R_INVALID)
    emit("warning", text);
  else
    problem(text);
}

/* ---- settings --------------------------------------------------------- */

/* Parses "123", "64K", "1M", "2G" (powers of 1024). -1 if malformed. */
static long long parse_bytes(const char *v) {
  char *end;
  errno = 0;
  long long x = strtoll(v, &end, 10);
  if (end == v || errno || x < 0) return -1;
  long long mul = 1;
  switch (*end) {
  case 'k':
  case 'K':
    mul = 1LL << 10;
    end++;
    break;
  case 'm':
  case 'M':
    mul = 1LL << 20;
    end++;
    break;
  case 'g':
  case 'G':
    mul = 1LL << 30;
    end++;
    break;
  default: break;
  }
  if (*end) return -1;
  if (x > LLONG_MAX / mul) return LLONG_MAX;
  return x * mul;
}

/* Collectives whose total size only the root knows. */
static int size_known_everywhere(cs_coll c) { return cs_colls[c].size_from != CS_SZ_ROOT; }

static void valid_names(cs_coll c, char *buf, size_t n) {
  buf[0] = '\0';
  for (int i = 0; i < cs_nalgos; i++)
    if (cs_algos[i].coll == c) {
      size_t len = strlen(buf);
      snprintf(buf + len, n - len, "%s%s", len ? ", " : "", cs_algos[i].name);
    }
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
  return h;
}

/* Edit distance of a and b (both short), for "did you mean". */
static int edit_distance(const char *a, const char *b) {
  int la = (int)strlen(a), lb = (int)strlen(b), d[64][64];
  if (la > 63 || lb > 63) return 99;
  for (int i = 0; i <= la; i++) d[i][0] = i;
  for (int j = 0; j <= lb; j++) d[0][j] = j;
  for (int i = 1; i <= la; i++)
    for (int j = 1; j <= lb; j++) {
      int x = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]), y = d[i - 1][j] + 1, z = d[i][j - 1] + 1;
      d[i][j] = x < y ? (x < z ? x : z) : (y < z ? y : z);
    }
  return d[la][lb];
}

/* A COLLSIM_* variable in the environment that nothing reads is most likely
 * a misspelling (COLLSIM_ALLREDUCES): noted once, with the nearest name this
 * library reads. Called after st[].env is set. */
static void note_unknown_env(void) {
  extern char **environ;
  /* Read by this library (and the topology module), and by collsim's other
   * tools (the ./collsim script, plot), which a shell may well export. */
  static const char *const fixed[] = {
      "COLLSIM_PMPI_VERBOSE", "COLLSIM_PMPI_LOG", "COLLSIM_PMPI_TIME",
      "COLLSIM_STRICT",       "COLLSIM_TUNING",   "COLLSIM_VNODE",
      "COLLSIM_BUILD",        "COLLSIM_GNUPLOT",  "COLLSIM_PLOTS_DIR"};
  const int nfixed = (int)(sizeof fixed / sizeof fixed[0]);
  for (char **e = environ; e && *e; e++) {
    if (strncmp(*e, "COLLSIM_", 8)) continue;
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(*e, "="), *e);
    char best[sizeof st[0].env + 16] = "";
    int bestd = 99, known = 0;
    char cand[sizeof st[0].env + 16];
    for (int i = 0; i < nfixed + 3 * CS_NCOLL && !known; i++) {
      if (i < nfixed)
        snprintf(cand, sizeof cand, "%s", fixed[i]);
      else {
        int c = (i - nfixed) / 3, k = (i - nfixed) % 3;
        snprintf(cand, sizeof cand, "%.63s%s", st[c].env,
                 k == 0   ? ""
                 : k == 1 ? "_MIN_BYTES"
                          : "_MAX_BYTES");
      }
      int d = edit_distance(name, cand);
      known = d == 0;
      if (d < bestd) {
        bestd = d;
        snprintf(best, sizeof best, "%s", cand);
      }
    }
    if (known) continue;
    if (bestd <= 3)
      note("%s is not a setting of this library and is ignored (did you mean %s?)", name, best);
    else
      note(
          "%s is not a setting of this library and is ignored (settings: COLLSIM_<COLL>, "
          "COLLSIM_<COLL>_MIN_BYTES, _MAX_BYTES, COLLSIM_PMPI_VERBOSE, COLLSIM_PMPI_LOG, "
          "COLLSIM_PMPI_TIME, COLLSIM_STRICT, COLLSIM_TUNING, COLLSIM_VNODE; pmpi/README.md)",
          name);
  }
}

/* 0 or 1 from a variable that means a switch; other values are noted. */
static int switch_value(const char *var) {
  const char *v = getenv(var);
  if (!v || !*v || !strcmp(v, "0")) return 0;
  if (!strcmp(v, "1")) return 1;
  note("%s=%s: not 0 or 1; taken as 1", var, v);
  return 1;
}

/* Reads the settings (once per OS process, or per copy of the program
 * under SMPI's privatization: the environment is the same for all). Prints
 * nothing: the problems go to notes[] for rank 0. */
static void parse_settings(void) {
  const char *v = getenv("COLLSIM_PMPI_VERBOSE");
  verbose = v && *v ? atoi(v) : 0;
  if (v && *v && verbose == 0 && strcmp(v, "0") != 0) verbose = 1;
  log_path = getenv("COLLSIM_PMPI_LOG");
  strict = switch_value("COLLSIM_STRICT");
  timing = switch_value("COLLSIM_PMPI_TIME");
  const char *tfile = getenv("COLLSIM_TUNING");
  char terr[1024];
  tuning_broken = tfile && *tfile && cs_tuning_load(tfile, &tuning, terr, sizeof terr) != 0;
  if (tuning_broken) note("COLLSIM_TUNING: %s; the library's own collectives serve the run", terr);

  for (int c = 0; c < CS_NCOLL; c++) {
    coll_state *s = &st[c];
    char up[48];
    size_t k = 0;
    for (const char *q = cs_colls[c].name; *q && k + 1 < sizeof up; q++)
      up[k++] = (char)(*q >= 'a' && *q <= 'z' ? *q - 'a' + 'A' : *q);
    up[k] = '\0';
    snprintf(s->env, sizeof s->env, "COLLSIM_%s", up);
    s->min_bytes = 0;
    s->max_bytes = LLONG_MAX;
    const char *name = getenv(s->env);
    if ((!name || !*name) && cs_tuning_covers(tuning, (cs_coll)c)) /* explicit settings win */
      s->given = "tuning", s->active = s->tuned = 1;
    if (!name || !*name || strcmp(name, "native") == 0) continue;
    s->given = name;
    const cs_algo_info *a = cs_algo_find((cs_coll)c, name);
    if (!a) {
      char names[512];
      valid_names((cs_coll)c, names, sizeof names);
      note("%s=%s: unknown algorithm for %s (valid: %s); using the library's %s", s->env, name,
           cs_colls[c].name, names, mpi_name((cs_coll)c));
      continue;
    }
    if (a->flags & CS_NATIVE) {
      /* native:NAME selects an SMPI algorithm through smpirun's
       * --cfg=smpi/<coll>:NAME; a real library has its own selection (e.g.
       * Open MPI's coll_tuned MCA parameters). */
      const char *key = cs_smpi_cfg_key((cs_coll)c);
      if (key)
        note(
            "%s=%s: native:NAME selects an algorithm of SMPI only, for the whole run (smpirun "
            "--cfg=smpi/%s:NAME); using the library's %s",
            s->env, name, key, mpi_name((cs_coll)c));
      else
        note(
            "%s=%s: native:NAME selects an algorithm of SMPI only (SMPI has one algorithm for "
            "%s); using the library's %s",
            s->env, name, cs_colls[c].name, mpi_name((cs_coll)c));
      s->given = NULL;
      continue;
    }
    s->algo = a;
    s->active = 1;
    const char *which[2] = {"MIN_BYTES", "MAX_BYTES"};
    long long *dst[2] = {&s->min_bytes, &s->max_bytes};
    for (int i = 0; i < 2; i++) {
      char var[sizeof s->env + 16];
      snprintf(var, sizeof var, "%.63s_%s", s->env, which[i]);
      const char *t = getenv(var);
      if (!t || !*t) continue;
      long long x = parse_bytes(t);
      if (x < 0) {
        note("%s=%s: not a byte count (e.g. 4096, 64K, 1M); %s uses the library's %s", var, t,
             cs_colls[c].name, mpi_name((cs_coll)c));
        s->active = 0;
      } else if (!size_known_everywhere((cs_coll)c)) {
        note(
            "%s: no size threshold for %s (only the root knows the total size); %s "
            "uses the library's %s",
            var, cs_colls[c].name, cs_colls[c].name, mpi_name((cs_coll)c));
        s->active = 0;
      } else {
        *dst[i] = x;
      }
    }
  }
  for (int c = 0; c < CS_NCOLL && tuning_broken; c++) st[c].active = 0;
  note_unknown_env();
}

static int shadow_delete(MPI_Comm comm, int key, void *val, void *extra);

/* What each process does at MPI_Init (collective: called by every process
 * of MPI_COMM_WORLD, or lazily by one outside MPI_Init): rank 0 reports the
 * settings' problems (or aborts the job under COLLSIM_STRICT=1), and the
 * processes check that their settings agree. */
static void cs_sel_init(int collective) {
  pthread_once(&parse_once, parse_settings);
  cs_sel_proc *me = cs_sel_self();
  if (me->inited) return;
  me->inited = 1;
  int r0 = world_rank() == 0;
  if (r0)
    for (int i = 0; i < nnotes; i++) problem(notes[i]);
  me->shadow_key = MPI_KEYVAL_INVALID;
  PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, shadow_delete, &me->shadow_key, NULL);

  /* Every process must take the same path in every call: the settings must
   * agree. One allreduce at MPI_Init checks that (not on the lazy path, which
   * may run inside some other collective). */
  if (collective) {
    uint64_t h = 14695981039346656037ULL;
    for (int c = 0; c < CS_NCOLL; c++) {
      coll_state *s = &st[c];
      h = fnv(h, s->given ? s->given : "", s->given ? strlen(s->given) + 1 : 1);
      h = fnv(h, &s->active, sizeof s->active);
      h = fnv(h, &s->min_bytes, sizeof s->min_bytes);
      h = fnv(h, &s->max_bytes, sizeof s->max_bytes);
    }
    uint64_t th = tuning_broken ? 1 : cs_tuning_hash(tuning); /* the same table everywhere */
    h = fnv(h, &th, sizeof th);
    /* The same allreduce ANDs the probes of the library's integer
     * MPI_SUM/MPI_PROD (cs_op_exact) over all processes, so that every
     * process decides alike which of them are exact (the max of ~bits is
     * ~(AND of bits)). */
    uint64_t ex[CS_EXACT_WORDS];
    cs_exact_probe_all(ex);
    uint64_t in[2 + CS_EXACT_WORDS] = {h, ~h}, out[2 + CS_EXACT_WORDS];
    for (int i = 0; i < CS_EXACT_WORDS; i++) in[2 + i] = ~ex[i];
    int arc = PMPI_Allreduce(in, out, 2 + CS_EXACT_WORDS, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (arc == MPI_SUCCESS) {
      for (int i = 0; i < CS_EXACT_WORDS; i++) ex[i] = ~out[2 + i];
      cs_exact_agree(ex);
    }
    if (arc == MPI_SUCCESS && (out[0] != h || out[1] != ~h)) {
      int any = 0;
      for (int c = 0; c < CS_NCOLL; c++) any |= st[c].active;
      inconsistent = 1;
      if (r0)
        problem(any ? "the COLLSIM_* settings differ between processes; every collective uses "
                      "the library"
                    : "the COLLSIM_* settings differ between processes; every collective uses "
                      "the library (no algorithm was set here)");
    }
  }

  if (verbose && r0)
    for (int c = 0; c < CS_NCOLL; c++) {
      coll_state *s = &st[c];
      if (!s->given) continue;
      char hi[32];
      if (s->max_bytes == LLONG_MAX)
        snprintf(hi, sizeof hi, "inf");
      else
        snprintf(hi, sizeof hi, "%lld", s->max_bytes);
      fprintf(stderr, "%s: config: %s=%s min_bytes=%lld max_bytes=%s%s\n", cs_sel_name,
              cs_colls[c].name, s->given, s->min_bytes, hi,
              s->active && !inconsistent ? "" : " (inactive: the library serves every call)");
    }
  me->t_init = cs_sel_clock();
}

/* ---- shadow communicators ---------------------------------------------- */

typedef struct cs_shadow {
  MPI_Comm user, comm;
  cs_sel_proc *owner;
  struct cs_shadow *prev, *next;
} shadow;
static pthread_mutex_t shadow_lock = PTHREAD_MUTEX_INITIALIZER;

static int shadow_delete(MPI_Comm comm, int key, void *val, void *extra) {
  (void)comm, (void)key, (void)extra;
  shadow *s = val;
  pthread_mutex_lock(&shadow_lock);
  if (s->prev)
    s->prev->next = s->next;
  else
    s->owner->shadows = s->next;
  if (s->next) s->next->prev = s->prev;
  pthread_mutex_unlock(&shadow_lock);
  PMPI_Comm_free(&s->comm);
  free(s);
  return MPI_SUCCESS;
}

/* The private communicator of comm (collective the first time: every process
 * of comm gets here in the same call, since the decision to run a kernel is
 * the same everywhere). */
static int get_shadow(MPI_Comm comm, MPI_Comm *out) {
  cs_sel_proc *me = cs_sel_self();
  void *val;
  int flag = 0;
  int rc = PMPI_Comm_get_attr(comm, me->shadow_key, &val, &flag);
  if (rc != MPI_SUCCESS) return rc;
  if (flag) {
    *out = ((shadow *)val)->comm;
    return MPI_SUCCESS;
  }
  MPI_Group g;
  MPI_Comm nc;
  rc = PMPI_Comm_group(comm, &g);
  if (rc != MPI_SUCCESS) return rc;
  /* Comm_create (not Comm_dup): copies no attributes, so no user callback
   * sees the shadow. */
  rc = PMPI_Comm_create(comm, g, &nc);
  PMPI_Group_free(&g);
  if (rc != MPI_SUCCESS) return rc;
  PMPI_Comm_set_errhandler(nc, MPI_ERRORS_RETURN);
  shadow *s = calloc(1, sizeof *s);
  if (!s) {
    PMPI_Comm_free(&nc);
    return MPI_ERR_NO_MEM;
  }
  s->user = comm;
  s->comm = nc;
  s->owner = me;
  pthread_mutex_lock(&shadow_lock);
  s->next = me->shadows;
  if (me->shadows) me->shadows->prev = s;
  me->shadows = s;
  pthread_mutex_unlock(&shadow_lock);
  rc = PMPI_Comm_set_attr(comm, me->shadow_key, s);
  *out = nc;
  return rc;
}

/* ---- the decision and the call -------------------------------------------- */

#define DEFER (-12345) /* "let the library serve this call" */

static long long type_size(MPI_Datatype dt) {
  MPI_Count s = MPI_UNDEFINED;
  if (PMPI_Type_size_x(dt, &s) != MPI_SUCCESS || s == MPI_UNDEFINED || s < 0) return -1;
  return (long long)s;
}

static long long sum_counts(const int *counts, int p, int *neg) {
  long long t = 0;
  for (int i = 0; i < p; i++) {
    if (counts[i] < 0) *neg = 1;
    t += counts[i];
  }
  return t;
}

/* The total message size in bytes (docs/csv.md "bytes") and in elements of
 * the call, from arguments that are significant on this process and agree
 * on all processes. Returns 0, 1 if a count is negative (an erroneous call
 * the library reports), 2 if a type size is undefined (too large), 3 if the
 * size is not known on every process (gatherv, scatterv). */
static int call_size(cs_coll c, const cs_args *x, int p, int r, long long *bytes,
                     long long *elems) {
  long long n = 0, sz = 0;
  int neg = 0, side; /* -1: count and dt; 1: the receive side; 0: the send side */
  /* The total in elements (algos/sizes.h): the count for vector collectives,
   * p blocks for block collectives, the sum of the counts for split ones;
   * read from the arguments the row's size_from column names. */
  switch (cs_colls[c].size_from) {
  case CS_SZ_DT: side = -1; break;
  case CS_SZ_RECV: side = 1; break;
  case CS_SZ_GATHER: side = r == x->root; break;
  case CS_SZ_SCATTER: side = r != x->root; break;
  default: return 3;
  }
  long long count = side < 0 ? x->count : side ? x->recvcount : x->sendcount;
  sz = type_size(side < 0 ? x->dt : side ? x->recvtype : x->sendtype);
  if (cs_coll_shape(c) == CS_SHAPE_SPLIT)
    n = sum_counts(x->counts, p, &neg);
  else
    n = cs_size_total(c, p, count);
  if (neg || n < 0) return 1;
  if (sz < 0) return 2;
  *elems = n;
  *bytes = sz > 0 && n > LLONG_MAX / sz ? LLONG_MAX : n * sz;
  return 0;
}

/* Which algorithm serves the call x of collective c on this process: the
 * registered algorithm that COLLSIM_<COLL> names, or without it the rule of
 * the COLLSIM_TUNING table for the call's p and size (t->rule: its index,
 * else -1; t->p, t->bytes: what it was chosen for), if it can serve the call, or NULL for the
 * library's PMPI_<Coll>. The one place where an algorithm is chosen for a call, for both libraries.
 * Every reason is decided before anything is sent, from facts all processes of the communicator
 * share, and counted in this process's counters. */
typedef struct {
  int rule, p;
  long long bytes;
} tuned_pick;

static const cs_algo_info *cs_sel_choose(cs_coll c, const cs_args *x, tuned_pick *t) {
  coll_state *s = &st[c];
  const cs_algo_info *algo = s->algo;
  t->rule = -1;
  cs_sel_proc *me = cs_sel_self();
  MPI_Comm comm = x->comm;
#define FALLBACK()                                             \
  do {                                                         \
    __atomic_fetch_add(&me->fallback[c], 1, __ATOMIC_RELAXED); \
    return NULL;                                               \
  } while (0)
  if (!s->active || inconsistent || comm == MPI_COMM_NULL) FALLBACK();
  /* Called from inside a collsim kernel: an inner part of a decomposition
   * (the lane and hier rows run the library's collectives inside unless
   * COLLSIM_INNER says otherwise) or a context's setup. The library serves
   * it; it is not the application's call, so neither a fallback nor a
   * warning. */
  if (cs_sel_thread_self()->depth > 0) return NULL;
  int inter = 0, p, r;
  if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS) FALLBACK();
  if (inter) {
    warn(c, CS_R_INTERCOMM, comm, "intercommunicators are not supported");
    FALLBACK();
  }
  PMPI_Comm_size(comm, &p);
  PMPI_Comm_rank(comm, &r);
  /* An erroneous call (MPI's rules, algos/validate.c): the library serves
   * it, so the application gets exactly the library's error class, message
   * and error handler (or, for the few pairs Open MPI accepts beyond MPI's
   * table, its result). Checked on this process's arguments before anything
   * is sent, so no kernel starts on a call some process refuses. */
  char why[256];
  if (cs_validate(c, x, why, sizeof why) != MPI_SUCCESS) {
    char what[320];
    snprintf(what, sizeof what, "an erroneous call by MPI's rules (%s)", why);
    warn(c, CS_R_INVALID, comm, what);
    FALLBACK();
  }
  long long bytes = 0, elems = 0;
  int k = call_size(c, x, p, r, &bytes, &elems);
  if (k == 1) FALLBACK();
  if (k == 2) {
    warn(c, CS_R_SIZE, comm, "a datatype's size does not fit an int");
    FALLBACK();
  }
  if (k == 0) {
    if (bytes < s->min_bytes || bytes > s->max_bytes) {
      __atomic_fetch_add(&me->outside[c], 1, __ATOMIC_RELAXED);
      return NULL;
    }
    if (bytes > INT_MAX || elems > INT_MAX) {
      warn(c, CS_R_SIZE, comm, "more than INT_MAX bytes or elements in one call");
      FALLBACK();
    }
  }
  if (s->tuned) { /* the table's rule for (p, m): an algorithm, or the library */
    algo = cs_tuning_pick(tuning, c, p, bytes, &t->rule);
    t->p = p, t->bytes = bytes;
    if (algo && (algo->flags & CS_NATIVE)) cs_tuning_served(tuning, t->rule, p, bytes);
    if (!algo || (algo->flags & CS_NATIVE)) {
      t->rule = -1;
      __atomic_fetch_add(&me->outside[c], 1, __ATOMIC_RELAXED);
      return NULL;
    }
  }
  if (algo->flags & CS_COMMUTATIVE) {
    int commute = 1;
    if (PMPI_Op_commutative(x->op, &commute) != MPI_SUCCESS) FALLBACK();
    if (!commute) {
      warn(c, CS_R_NONCOMM, comm, "needs a commutative op and this op is not commutative");
      FALLBACK();
    }
  }
  if ((algo->flags & CS_ASSOCIATIVE) && !cs_op_exact(x->op, x->dt)) {
    char why2[320], what[480];
    cs_op_inexact_why(x->op, x->dt, why2, sizeof why2);
    snprintf(what, sizeof what,
             "needs an op whose result does not depend on the order of evaluation for "
             "rank-consistent results: %s",
             why2);
    warn(c, CS_R_INEXACT, comm, what);
    FALLBACK();
  }
#undef FALLBACK
  return algo;
}

/* Runs algorithm a for the call x on the private communicator of x->comm
 * and returns its result (kernel errors also go to the user communicator's
 * error handler). */
static int run_algo(cs_coll c, const cs_algo_info *a, cs_args *x) {
  cs_sel_thread *th = cs_sel_thread_self();
  MPI_Comm comm = x->comm, sh;
  int rc = get_shadow(comm, &sh);
  /* A node-aware algorithm's kernel context (node and lane communicators)
   * on the shadow, built (once: it is cached) outside the kernel, so that
   * its few collectives go to the library; other kernels get none. */
  if (rc == MPI_SUCCESS && (a->flags & CS_NODE_AWARE)) {
    th->building++;
    rc = cs_ctx_prepare(sh, CS_CTX_NODES | CS_CTX_LANES);
    th->building--;
  }
  if (rc == MPI_SUCCESS) {
    x->comm = sh;
    th->depth++;
    rc = cs_run(a, x);
    th->depth--;
    x->comm = comm;
    __atomic_fetch_add(&cs_sel_self()->calls[c], 1, __ATOMIC_RELAXED);
  }
  if (rc != MPI_SUCCESS) PMPI_Comm_call_errhandler(comm, rc);
  return rc;
}

/* Serves the call x of c with the chosen algorithm and returns its result,
 * or DEFER: then the caller calls PMPI_<Coll>. */
static int serve(cs_coll c, cs_args *x) {
  cs_sel_init(0);
  if (!st[c].given) return DEFER;                   /* not configured: not counted */
  if (cs_sel_thread_self()->building) return DEFER; /* the context's own collectives */
  tuned_pick t;
  const cs_algo_info *a = cs_sel_choose(c, x, &t);
  if (!a) return DEFER;
  int rc = run_algo(c, a, x);
  if (rc == MPI_SUCCESS && t.rule >= 0) cs_tuning_served(tuning, t.rule, t.p, t.bytes);
  return rc;
}

/* Adds the time of one call to this process's sum (atomically: threads). */
static void add_time(cs_coll c, double t0) {
  cs_sel_proc *me = cs_sel_self();
  double dt = cs_sel_clock() - t0, old, sum;
  __atomic_load(&me->seconds[c], &old, __ATOMIC_RELAXED);
  do sum = old + dt;
  while (!__atomic_compare_exchange(&me->seconds[c], &old, &sum, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED));
  __atomic_fetch_add(&me->all_calls[c], 1, __ATOMIC_RELAXED);
}

/* ---- the wrappers --------------------------------------------------------- */

/* MPI_<Name> of every collective of algos/colls.def, generated from its
 * row: the wrapper fills cs_args from its arguments (the row's init
 * column), lets serve() run the configured algorithm, and otherwise calls
 * the library's PMPI_<Name> with the same arguments (the call column).
 * Collectives without a registered algorithm besides native (bcast, scan,
 * exscan today) are wrapped too: a setting is reported and a future
 * registry line is served. With COLLSIM_PMPI_TIME=1 the time inside is
 * added up (a call made inside a kernel, or while its context is built, is
 * part of the outer call's time). */
#define CS_COLL(id, Name, reduces, rooted, in_place, shape, size_from, init, call) \
  EXPORT int MPI_##Name(CS_MPI_##id) {                                             \
    cs_args args = {CS_UNPAREN init}, *x = &args;                                  \
    const cs_sel_thread *th_ = cs_sel_thread_self();                               \
    int timed = timing && th_->depth == 0 && th_->building == 0;                   \
    double t0 = timed ? cs_sel_clock() : 0;                                        \
    int rc = serve(CS_##id, x);                                                    \
    if (rc == DEFER) rc = PMPI_##Name(CS_UNPAREN call);                            \
    if (timed) add_time(CS_##id, t0);                                              \
    return rc;                                                                     \
  }
#include "../algos/colls.def"
#undef CS_COLL

/* ---- MPI_Init and MPI_Finalize ------------------------------------------------ */

EXPORT int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) cs_sel_init(1);
  return rc;
}

EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) cs_sel_init(1);
  return rc;
}

static void out_line(const char *line) {
  if (verbose) fputs(line, stderr);
  log_line(line);
}

/* The counter lines of this process (rank 0, or every process with
 * VERBOSE=2) and, with COLLSIM_PMPI_TIME=1, rank 0's time lines: the
 * largest over processes of each process's time inside each collective,
 * inside all of them, and between MPI_Init and MPI_Finalize (a reduction
 * at MPI_Finalize, which every process calls). */
static void tuning_line(const char *line, void *ctx) {
  (void)ctx;
  out_line(line);
}

static void report(void) {
  cs_sel_proc *me = cs_sel_self();
  int r = world_rank();
  char line[512];
  if (verbose >= 2 || r == 0)
    for (int c = 0; c < CS_NCOLL; c++) {
      if (!st[c].given) continue;
      snprintf(line, sizeof line, "%s: %s %s calls=%lu fallback=%lu outside=%lu rank=%d\n",
               cs_sel_name, cs_colls[c].name, st[c].given, me->calls[c], me->fallback[c],
               me->outside[c], r);
      out_line(line);
    }
  if (timing) {
    double in[CS_NCOLL + 2], out[CS_NCOLL + 2];
    in[CS_NCOLL] = 0;
    for (int c = 0; c < CS_NCOLL; c++) {
      in[c] = me->seconds[c];
      in[CS_NCOLL] += me->seconds[c];
    }
    in[CS_NCOLL + 1] = cs_sel_clock() - me->t_init;
    if (PMPI_Reduce(in, out, CS_NCOLL + 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD) == MPI_SUCCESS &&
        r == 0) {
      for (int c = 0; c < CS_NCOLL; c++) {
        if (!me->all_calls[c]) continue;
        snprintf(line, sizeof line, "%s: time %s seconds=%.17g calls=%lu algo=%s\n", cs_sel_name,
                 cs_colls[c].name, out[c], me->all_calls[c],
                 st[c].given && st[c].active && !inconsistent ? st[c].given : "native");
        out_line(line);
      }
      double app = out[CS_NCOLL + 1];
      snprintf(line, sizeof line, "%s: time app seconds=%.17g collectives=%.17g share=%.6f\n",
               cs_sel_name, app, out[CS_NCOLL], app > 0 ? out[CS_NCOLL] / app : 0.0);
      out_line(line);
    }
  }
  if (r == 0 || verbose >= 2) cs_tuning_report(tuning, cs_sel_name, r, tuning_line, NULL);
  if (verbose) fflush(stderr);
}

EXPORT int MPI_Finalize(void) {
  cs_sel_init(0);
  report();
  /* Free the shadows now, while MPI is fully alive (their attributes'
   * delete callback frees them and unlinks them). */
  cs_sel_proc *me = cs_sel_self();
  for (;;) {
    pthread_mutex_lock(&shadow_lock);
    shadow *s = me->shadows;
    MPI_Comm user = s ? s->user : MPI_COMM_NULL;
    pthread_mutex_unlock(&shadow_lock);
    if (!s) break;
    if (PMPI_Comm_delete_attr(user, me->shadow_key) != MPI_SUCCESS) {
      /* Cannot happen for a live communicator; do not loop forever. */
      pthread_mutex_lock(&shadow_lock);
      if (me->shadows == s) me->shadows = s->next;
      if (me->shadows) me->shadows->prev = NULL;
      pthread_mutex_unlock(&shadow_lock);
    }
  }
  if (me->shadow_key != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&me->shadow_key);
  return PMPI_Finalize();
}
