/* Any SimGrid platform, not only those collsim writes ("bring your own
 * platform", docs/byo-platform.md): the hosts SimGrid reads from the file
 * (collsim-hosts), the default placement when no hostfile is given, a
 * hostfile checked (SMPI's "host" and "host:N" lines) before anything is
 * launched, the gamma a host speed implies, and the smpirun settings a
 * timing run applies. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "files.h"
#include "foreign.h"
#include "platmodel.h"
#include "provenance.h"
#include "record.h"
#include "topo.h"

#ifndef COLLSIM_SOURCE_DIR
#define COLLSIM_SOURCE_DIR "."
#endif

/* Natural order of host names: digit runs compare as numbers, so that
 * node-2 comes before node-10 (SimGrid lists hosts in plain name order). */
static int natural_cmp(const char *a, const char *b) {
  while (*a && *b) {
    if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
      while (*a == '0' && isdigit((unsigned char)a[1])) a++;
      while (*b == '0' && isdigit((unsigned char)b[1])) b++;
      size_t la = strspn(a, "0123456789"), lb = strspn(b, "0123456789");
      if (la != lb) return la < lb ? -1 : 1;
      int c = strncmp(a, b, la);
      if (c) return c;
      a += la;
      b += lb;
    } else {
      if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
      a++;
      b++;
    }
  }
  return *a ? 1 : *b ? -1 : 0;
}

/* Whether a note about xml was already printed by this process (a
 * guidelines run benches many files on one platform): say it once. */
static int said_before(const char *what, const char *xml) {
  static char said[2][4096];
  int k = what[0] == 'g';
  if (!strcmp(said[k], xml)) return 1;
  snprintf(said[k], sizeof said[k], "%s", xml);
  return 0;
}

static int host_cmp(const void *x, const void *y) {
  return natural_cmp(((const cs_host *)x)->name, ((const cs_host *)y)->name);
}

/* The hosts of a file `collsim platform` (or calibrate) wrote, unchanged
 * (cs_platform_is_generated): they follow from its collsim-model line
 * (cs_platform_host_at), without starting SimGrid to read the file once more
 * before the simulation does (collsim-hosts: 0.25 s of CPU for theta's 4608
 * hosts, 0.2-0.3 s of every bench run at 8192 ranks). -1 for any other file. */
static int generated_hosts(const cs_platform_file *pf, cs_host **out) {
  if (!pf->generated) return -1;
  int n = cs_platform_host_count(&pf->model);
  cs_host *h = n > 0 ? malloc((size_t)n * sizeof *h) : NULL;
  if (!h) return -1;
  for (int i = 0; i < n; i++)
    if (cs_platform_host_at(&pf->model, i, h[i].name, sizeof h[i].name, &h[i].cores, &h[i].speed)) {
      free(h);
      return -1;
    }
  *out = h;
  return n;
}

/* The hosts as SimGrid reads them (collsim-hosts); the count, or -1 after
 * a message that holds what SimGrid said, verbatim (its parse and platform
 * errors name the file, the line and what was expected). */
static int simgrid_hosts(const char *xml, cs_host **out) {
  char cmd[8400];
  snprintf(cmd, sizeof cmd, "'%s/collsim-hosts' '%s' 2>&1", cs_self_dir(), xml);
  FILE *p = popen(cmd, "r");
  if (!p) {
    fprintf(stderr, "collsim: cannot run collsim-hosts: %s\n", strerror(errno));
    return -1;
  }
  int n = 0, cap = 0;
  cs_host *h = NULL;
  char line[1024], said[4096] = "";
  size_t sl = 0;
  while (fgets(line, sizeof line, p)) {
    cs_host x;
    if (sscanf(line, "%255s %d %lf", x.name, &x.cores, &x.speed) != 3) {
      if (sl < sizeof said) sl += (size_t)snprintf(said + sl, sizeof said - sl, "  %s", line);
      continue;
    }
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      cs_host *g = realloc(h, (size_t)cap * sizeof *h);
      if (!g) break;
      h = g;
    }
    h[n++] = x;
  }
  int st = pclose(p);
  if (st != 0 || n == 0) {
    const char *how = WIFSIGNALED(st)                  ? strsignal(WTERMSIG(st))
                      : st == -1                       ? "cannot be waited for"
                      : n == 0 && WEXITSTATUS(st) == 0 ? "no hosts"
                                                       : "failed";
    fprintf(stderr, "collsim: SimGrid cannot read the platform %s (%s)%s\n%s", xml, how,
            said[0] ? "; SimGrid says:" : "", said);
    if (said[0] && said[strlen(said) - 1] != '\n') fputc('\n', stderr);
    free(h);
    return -1;
  }
  *out = h;
  return n;
}

void cs_platform_load(cs_platform_file *pf, const char *xml) {
  memset(pf, 0, sizeof *pf);
  snprintf(pf->xml, sizeof pf->xml, "%s", xml);
  char err[512];
  pf->has_model = cs_platform_read(xml, &pf->model, err, sizeof err) == 0;
  cs_platform g;
  if (pf->has_model && cs_platform_is_generated(xml, &pf->model, &g) == 0) {
    pf->generated = 1;
    pf->model = g;
  }
}

void cs_platform_file_free(cs_platform_file *pf) {
  free(pf->hosts);
  pf->hosts = NULL;
  pf->nhosts = 0;
}

int cs_platform_hosts(cs_platform_file *pf, const cs_host **out) {
  if (!pf->hosts) {
    cs_host *h = NULL;
    int n = generated_hosts(pf, &h);
    if (n <= 0) n = simgrid_hosts(pf->xml, &h);
    if (n < 0) return -1;
    qsort(h, (size_t)n, sizeof *h, host_cmp);
    pf->hosts = h;
    pf->nhosts = n;
  }
  *out = pf->hosts;
  return pf->nhosts;
}

/* Host lookup by name in an index of the hosts sorted by strcmp: a hostfile
 * of abg at 32768 ranks names 32768 hosts, which a scan of the list for each
 * line compared 5 x 10^8 times. */
static int by_name(const void *x, const void *y) {
  return strcmp((*(const cs_host *const *)x)->name, (*(const cs_host *const *)y)->name);
}
static const cs_host *find_host(const cs_host *const *index, int n, const char *name) {
  cs_host key;
  if (strlen(name) >= sizeof key.name) return NULL; /* no host has so long a name */
  snprintf(key.name, sizeof key.name, "%s", name);
  const cs_host *k = &key, *const *hit = bsearch(&k, index, (size_t)n, sizeof *index, by_name);
  return hit ? *hit : NULL;
}

/* The hostfiles runs give smpirun, one host per line (what smpirun would
 * unroll 'host:N' lines into itself, in a file smpitmp-hostfXXXXXX of the
 * current directory that it keeps when the simulation fails): written into
 * one temporary directory per process, removed at exit. */
static char place_dir[4096];
static void remove_place_dir(void) {
  if (place_dir[0]) cs_rm_tree(place_dir);
}

/* A new file in place_dir for an unrolled hostfile: its path into path. */
static FILE *unrolled_file(const char *cmd, char *path, size_t len) {
  if (!place_dir[0]) {
    if (cs_make_tmpdir(place_dir, sizeof place_dir)) {
      perror("collsim: temporary directory");
      place_dir[0] = '\0';
      return NULL;
    }
    atexit(remove_place_dir);
  }
  static int seq;
  snprintf(path, len, "%s/place%d.hostfile", place_dir, seq++);
  FILE *f = fopen(path, "w");
  if (!f) fprintf(stderr, "collsim %s: cannot write %s: %s\n", cmd, path, strerror(errno));
  return f;
}

/* Writes k ranks on host (index hidx of the platform's hosts) into the
 * unrolled file f (if not NULL) and, for the first np ranks, into the
 * placement digest h and host_of (if not NULL). */
static void place(FILE *f, uint64_t *h, long *ranks, int np, const char *host, int hidx, long k,
                  int *host_of) {
  for (long i = 0; i < k; i++, ++*ranks) {
    if (f) fprintf(f, "%s\n", host);
    if (*ranks < np) {
      *h = cs_digest_str(*h, host);
      *h = cs_digest_str(*h, "\n");
      if (host_of) host_of[*ranks] = hidx;
    }
  }
}

/* cs_place_ranks; where host_of is not NULL, the index into the platform's
 * hosts (cs_platform_hosts) of each of the np ranks instead of an unrolled
 * hostfile (hosts is left as it is: a model's worker process, which ends
 * without atexit handlers, then leaves no temporary file). */
static int place_ranks(const char *cmd, cs_platform_file *pf, char *hosts, size_t len, int np,
                       int quiet, char *note, size_t notelen, char *digest, size_t dlen,
                       int *host_of);

int cs_place_ranks(const char *cmd, cs_platform_file *pf, char *hosts, size_t len, int np,
                   int quiet, char *note, size_t notelen, char *digest, size_t dlen) {
  return place_ranks(cmd, pf, hosts, len, np, quiet, note, notelen, digest, dlen, NULL);
}

static int place_ranks(const char *cmd, cs_platform_file *pf, char *hosts, size_t len, int np,
                       int quiet, char *note, size_t notelen, char *digest, size_t dlen,
                       int *host_of) {
  const char *xml = pf->xml;
  const cs_host *h;
  int n = cs_platform_hosts(pf, &h);
  if (n < 0) return -1;
  note[0] = '\0';
  int rc = 0;
  uint64_t dg = CS_DIGEST_INIT;
  char unrolled[4200];
  if (!hosts[0]) {
    /* Default: each host's cores in turn, hosts in natural name order. */
    long cap = 0;
    for (int i = 0; i < n; i++) cap += h[i].cores > 0 ? h[i].cores : 1;
    if (cap < np) {
      fprintf(stderr,
              "collsim %s: %s has %d hosts with %ld cores in all, --np %d asks for more; give "
              "a hostfile (--hostfile H, lines 'host' or 'host:N' for N ranks on a host) to "
              "place more ranks per host, or use a larger platform\n",
              cmd, xml, n, cap, np);
      return -1;
    }
    FILE *f = host_of ? NULL : unrolled_file(cmd, unrolled, sizeof unrolled);
    if (!f && !host_of) return -1;
    long placed = 0;
    int used = 0;
    for (int i = 0; i < n && placed < np; i++, used++) {
      long k = h[i].cores > 0 ? h[i].cores : 1;
      if (k > np - placed) k = np - placed;
      place(f, &dg, &placed, np, h[i].name, i, k, host_of);
    }
    if (f) {
      fclose(f);
      snprintf(hosts, len, "%s", unrolled);
    }
    snprintf(note, notelen,
             "default: %d ranks fill the cores of the first %d of %d hosts in natural name "
             "order (%s first)",
             np, used, n, h[0].name);
    if (!quiet && !said_before("placement", xml))
      fprintf(stderr, "collsim %s: no hostfile for %s: placement %s; give --hostfile to choose\n",
              cmd, xml, note);
  } else {
    /* A given hostfile: SMPI's syntax, names checked against the platform. */
    const cs_host **index = malloc((size_t)n * sizeof *index);
    FILE *f = index ? fopen(hosts, "r") : NULL;
    if (!f) {
      fprintf(stderr, "collsim %s: cannot read the hostfile %s: %s\n", cmd, hosts,
              index ? strerror(errno) : "out of memory");
      free(index);
      return -1;
    }
    FILE *u = host_of ? NULL : unrolled_file(cmd, unrolled, sizeof unrolled);
    if (!u && !host_of) {
      fclose(f);
      free(index);
      return -1;
    }
    for (int i = 0; i < n; i++) index[i] = &h[i];
    qsort(index, (size_t)n, sizeof *index, by_name);
    char line[1024];
    long ranks = 0, lineno = 0;
    int over = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
      lineno++;
      line[strcspn(line, "\r\n")] = '\0';
      char *s = line;
      while (isspace((unsigned char)*s)) s++;
      size_t l = strlen(s);
      while (l && isspace((unsigned char)s[l - 1])) s[--l] = '\0';
      if (!*s) continue;
      long k = 1;
      char *colon = strrchr(s, ':');
      if (colon) {
        char *e;
        k = strtol(colon + 1, &e, 10);
        if (*e || e == colon + 1 || k < 1) {
          fprintf(stderr, "collsim %s: %s line %ld: '%s': expected 'host' or 'host:N', N >= 1\n",
                  cmd, hosts, lineno, s);
          rc = -1;
          break;
        }
        *colon = '\0';
      }
      const cs_host *x = find_host(index, n, s);
      if (!x) {
        fprintf(stderr, "collsim %s: %s line %ld: host '%s' is not in %s (its %d hosts: %s", cmd,
                hosts, lineno, s, xml, n, h[0].name);
        for (int i = 1; i < n && i < 4; i++) fprintf(stderr, ", %s", h[i].name);
        fprintf(stderr, "%s)\n", n > 4 ? ", ..." : "");
        rc = -1;
        break;
      }
      if (k > x->cores) over = 1;
      place(u, &dg, &ranks, np, s, (int)(x - h), k, host_of);
    }
    fclose(f);
    if (u) fclose(u);
    free(index);
    if (rc == 0 && ranks < np) {
      fprintf(stderr,
              "collsim %s: %s places %ld ranks, --np %d asks for more (SMPI would wrap ranks "
              "onto hosts); add lines to it ('host:N' puts N ranks on a host), or write a "
              "larger platform: `./collsim calibrate --np %d --out %s` (a calibrated one) or "
              "`./collsim platform KIND ... --out %s --hostfile %s` with room for %d ranks\n",
              cmd, hosts, ranks, np, np, xml, xml, hosts, np);
      rc = -1;
    }
    if (rc == 0 && over && !quiet)
      fprintf(stderr,
              "collsim %s: note: %s places more ranks on a host than it has cores; SMPI "
              "shares the host's speed among them (local work gets slower)\n",
              cmd, hosts);
    if (rc == 0 && u) snprintf(hosts, len, "%s", unrolled);
  }
  if (rc == 0) cs_digest_hex(dg, digest, dlen);
  return rc;
}

int cs_platform_pricing(const char *cmd, cs_platform_file *pf, int force_routes, cs_model *mo,
                        char *note, size_t notelen) {
  note[0] = '\0';
  if (pf->has_model) {
    cs_platform_model(&pf->model, mo, note, notelen);
    const cs_platform_kind k = pf->model.kind;
    if (!force_routes && (k == CS_PLAT_ABG || k == CS_PLAT_MAXRATE || k == CS_PLAT_LANES)) return 0;
    note[0] = '\0'; /* the routes replace any approximation */
    return 1;
  }
  /* Any other SimGrid platform: local work at the gamma its host speed
   * implies (as the timing runs charge it). MAXRATE only so that the
   * recording takes the ranks per node that cs_routes_attach finds. */
  double g = cs_platform_gamma(cmd, pf, 1);
  if (g < 0) return -1;
  *mo = cs_model_abg(0, 0, g);
  mo->kind = CS_MODEL_MAXRATE;
  return 1;
}

void cs_routes_when_needed(const char *cmd, cs_model *mo, const cs_case *c, cs_routes_later *lz) {
  const cs_prog *g;
  char err[512];
  if (!lz || lz->tried || mo->routes || mo->kind == CS_MODEL_ABG ||
      cs_model_programs(mo, c, &g, err, sizeof err) || !cs_model_fluid_prices(mo, g))
    return;
  lz->tried = 1;
  cs_model on = *mo; /* (attaching sets routes and ppn: only the routes are taken) */
  if (cs_routes_attach(cmd, lz->pf, lz->hosts, lz->np, 1, &lz->rt, &on) == 0)
    mo->routes_nb = &lz->rt;
}

int cs_routes_attach(const char *cmd, cs_platform_file *pf, const char *hostfile, int np, int quiet,
                     cs_routes *rt, cs_model *mo) {
  memset(rt, 0, sizeof *rt);
  const cs_host *h;
  int n = cs_platform_hosts(pf, &h);
  if (n < 0) return -1;
  char hosts[4096], note[512], digest[32], tool[4200], err[1024];
  snprintf(hosts, sizeof hosts, "%s", hostfile ? hostfile : "");
  int *host_of = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1));
  const char **names = malloc(sizeof *names * (size_t)n);
  int *key = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1));
  int rc = -1;
  if (!host_of || !names || !key) {
    fprintf(stderr, "collsim %s: out of memory placing %d ranks\n", cmd, np);
    goto out;
  }
  if (place_ranks(cmd, pf, hosts, sizeof hosts, np, quiet, note, sizeof note, digest, sizeof digest,
                  host_of))
    goto out;
  for (int i = 0; i < n; i++) names[i] = h[i].name;
  snprintf(tool, sizeof tool, "%s/collsim-routes", cs_self_dir());
  if (cs_routes_open(rt, tool, pf->xml, n, names, np, host_of, err, sizeof err)) {
    fprintf(stderr, "collsim %s: %s\n", cmd, err);
    cs_routes_free(rt);
    goto out;
  }
  mo->routes = rt;
  /* The recording names hosts node<N>-<L> by ranks per node (node-aware
   * kernels group by them): the placement's, as the kernels find nodes in a
   * timing run (algos/ctx.c: node<N>[-<L>] host names, else the host), when
   * the nodes are equal blocks of consecutive ranks. */
  for (int r = 0; r < np; r++) key[r] = cs_topo_node_key(h[host_of[r]].name);
  int k = 1;
  while (k < np && key[k] == key[0]) k++;
  int blocks = 1;
  for (int r = 0; r < np && blocks; r++)
    blocks = key[r] == key[r - r % k] && (r % k || r == 0 || key[r] != key[r - 1]);
  if (blocks)
    mo->ppn = k;
  else if (!quiet)
    fprintf(stderr,
            "collsim %s: note: the ranks are not placed in equal blocks per node; node-aware "
            "algorithms are recorded with %d ranks per node\n",
            cmd, mo->ppn);
  rc = 0;
out:
  free(host_of);
  free(names);
  free(key);
  return rc;
}

double cs_platform_gamma(const char *cmd, cs_platform_file *pf, int quiet) {
  const char *xml = pf->xml;
  if (pf->has_model) return pf->model.gamma;
  const cs_host *h;
  int n = cs_platform_hosts(pf, &h);
  if (n < 0) return -1;
  double lo = h[0].speed, hi = h[0].speed;
  for (int i = 1; i < n; i++) {
    if (h[i].speed < lo) lo = h[i].speed;
    if (h[i].speed > hi) hi = h[i].speed;
  }
  if (!quiet && !said_before("gamma", xml)) {
    if (lo == hi)
      fprintf(stderr,
              "collsim %s: %s has no collsim-model line: local work (a reduction of b bytes "
              "is charged b flops) costs gamma = 1 / host speed = %.3g s/byte (hosts of %.4g "
              "flop/s)\n",
              cmd, xml, 1 / hi, hi);
    else
      fprintf(stderr,
              "collsim %s: %s has no collsim-model line: local work (a reduction of b bytes "
              "is charged b flops) costs gamma = 1 / host speed, %.3g to %.3g s/byte (hosts "
              "of %.4g to %.4g flop/s); gamma below is the slowest host's\n",
              cmd, xml, 1 / hi, 1 / lo, lo, hi);
  }
  return 1 / lo;
}

/* The smpirun settings of a timing run on xml: collsim's exact-timing flags
 * (platgen.h; SMPI's network model where the platform carries segmented
 * factors, cs_platform_smpirun_flags_for), or with keep_network SMPI's own network model and
 * protocol (the network/... settings and smpi/send-is-detached-thresh dropped; the deterministic
 * computation settings kept). */
void cs_timing_flags(const cs_platform_file *pf, int keep_network, char *buf, size_t len) {
  char all[1024];
  /* A file collsim did not write: SimGrid's full network update, which collsim's fat trees
   * and dragonflies carry in their <config> (platforms/platgen.c): the lazy one gives some
   * flows stale rates where routes of different lengths share links. */
  snprintf(all, sizeof all, "%s%s", cs_platform_smpirun_flags_of(pf->has_model ? &pf->model : NULL),
           pf->has_model ? "" : " --cfg=network/optim:Full");
  size_t n = 0;
  buf[0] = '\0';
  for (char *s = NULL, *t = strtok_r(all, " ", &s); t; t = strtok_r(NULL, " ", &s)) {
    if (keep_network && (!strncmp(t, "--cfg=network/", 14) ||
                         !strncmp(t, "--cfg=smpi/send-is-detached-thresh", 34)))
      continue;
    n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? " " : "", t);
  }
}

/* ---- platforms --------------------------------------------------------- */

int cs_resolve_platform(const char *arg, const char *hostfile, char *xml, char *hosts, size_t len) {
  struct stat st;
  if (stat(arg, &st) == 0 && S_ISREG(st.st_mode)) {
    snprintf(xml, len, "%s", arg);
  } else {
    cs_platform pl;
    char err[512];
    if (strchr(arg, '/') == NULL && cs_platform_named(arg, &pl, err, sizeof err) == 0) {
      snprintf(xml, len, "%s/platforms/%s.xml", COLLSIM_SOURCE_DIR, arg);
    } else {
      fprintf(stderr,
              "collsim: platform '%s' is neither a file nor a named machine (hydra, irene, "
              "theta, vsc3, bluewaters); write one with `collsim platform KIND --out F.xml "
              "--hostfile F.hostfile`\n",
              arg);
      return -1;
    }
  }
  if (hostfile) {
    snprintf(hosts, len, "%s", hostfile);
  } else {
    size_t n = strlen(xml);
    if (n > 4 && !strcmp(xml + n - 4, ".xml"))
      snprintf(hosts, len, "%.*s.hostfile", (int)(n - 4), xml);
    else
      snprintf(hosts, len, "%s.hostfile", xml);
  }
  if (stat(hosts, &st) != 0) {
    if (hostfile) {
      fprintf(stderr, "collsim: no hostfile %s: %s\n", hosts, strerror(errno));
      return -1;
    }
    hosts[0] = '\0'; /* the default placement (cs_place_ranks) */
  }
  return 0;
}
int cs_write_check_platform(const char *dir, int np, int ppn, char *xml, char *hostfile,
                            size_t len) {
  /* Correctness runs: a contention-free abg platform, one rank per host; with
   * ppn > 1 a max-rate platform of ceil(np / ppn) nodes, one host node<N> with
   * ppn cores each (the last node may be partly used), so that the kernel
   * context and SMPI's node-aware algorithms see ppn ranks per node. */
  snprintf(xml, len, "%s/check-%d-%d.xml", dir, np, ppn);
  snprintf(hostfile, len, "%s/check-%d-%d.hosts", dir, np, ppn);
  cs_platform pl;
  char err[256];
  if (cs_platform_init(ppn > 1 ? "maxrate" : "abg", &pl, err, sizeof err)) {
    fprintf(stderr, "collsim: %s\n", err);
    return -1;
  }
  pl.np = np;
  pl.nodes = ppn > 1 ? (np + ppn - 1) / ppn : np;
  pl.ppn = ppn > 1 ? ppn : 1;
  if (cs_platform_check(&pl, err, sizeof err)) {
    fprintf(stderr, "collsim: %s\n", err);
    return -1;
  }
  int rc = cs_write_platform_files(&pl, xml, hostfile);
  if (rc) fprintf(stderr, "collsim: cannot write a platform in %s: %s\n", dir, strerror(errno));
  return rc;
}

int cs_write_platform_files(const cs_platform *pl, const char *xml, const char *hostfile) {
  FILE *f = fopen(xml, "w"), *h = fopen(hostfile, "w");
  int rc = f && h ? cs_platform_write(f, h, pl) : -1;
  if (f && fclose(f)) rc = -1;
  if (h && fclose(h)) rc = -1;
  return rc;
}
