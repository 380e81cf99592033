/* Routes of a SimGrid platform (routes.h). */
#include "routes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t slot_of(const cs_routes *rt, long k) {
  size_t q = (size_t)((unsigned long)k * 0x9E3779B97F4A7C15UL) & (rt->hcap - 1);
  while (rt->key[q] != -1 && rt->key[q] != k) q = (q + 1) & (rt->hcap - 1);
  return q;
}

static int table_grow(cs_routes *rt) {
  if (2 * (rt->hused + 1) <= rt->hcap) return 0;
  size_t oc = rt->hcap, nc = oc ? 2 * oc : 1024;
  long *ok = rt->key;
  int *ov = rt->val;
  rt->key = malloc(sizeof *rt->key * nc);
  rt->val = malloc(sizeof *rt->val * nc);
  if (!rt->key || !rt->val) return -1;
  rt->hcap = nc;
  for (size_t s = 0; s < nc; s++) rt->key[s] = -1;
  for (size_t s = 0; s < oc; s++)
    if (ok[s] != -1) {
      size_t q = slot_of(rt, ok[s]);
      rt->key[q] = ok[s];
      rt->val[q] = ov[s];
    }
  free(ok);
  free(ov);
  return 0;
}

int cs_routes_open(cs_routes *rt, const char *tool, const char *xml, int nhost,
                   const char *const *host, int np, const int *host_of, char *err, size_t errlen) {
  memset(rt, 0, sizeof *rt);
  snprintf(rt->tool, sizeof rt->tool, "%s", tool);
  snprintf(rt->xml, sizeof rt->xml, "%s", xml);
  rt->tcp_gamma = 1e15;
  rt->np = np;
  rt->host_of = malloc(sizeof(int) * (size_t)(np > 0 ? np : 1));
  rt->host = calloc((size_t)(nhost > 0 ? nhost : 1), sizeof *rt->host);
  if (!rt->host_of || !rt->host) goto oom;
  for (rt->nhost = 0; rt->nhost < nhost; rt->nhost++)
    if (!(rt->host[rt->nhost] = strdup(host[rt->nhost]))) goto oom;
  for (int r = 0; r < np; r++) {
    if (host_of[r] < 0 || host_of[r] >= nhost) {
      snprintf(err, errlen, "routes: rank %d is placed on host %d of %d", r, host_of[r], nhost);
      return -1;
    }
    rt->host_of[r] = host_of[r];
  }
  if (table_grow(rt) == 0) return 0;
oom:
  snprintf(err, errlen, "routes: out of memory");
  return -1;
}

void cs_routes_free(cs_routes *rt) {
  for (int h = 0; h < rt->nhost; h++) free(rt->host[h]);
  free(rt->host);
  free(rt->host_of);
  free(rt->cap);
  free(rt->fatpipe);
  for (int l = 0; l < rt->nlink; l++) free(rt->lname[l]);
  free(rt->lname);
  free(rt->lslot);
  free(rt->links);
  free(rt->route);
  free(rt->key);
  free(rt->val);
  memset(rt, 0, sizeof *rt);
}

const cs_route *cs_routes_find(const cs_routes *rt, int i, int j) {
  if (i < 0 || j < 0 || i >= rt->np || j >= rt->np) return NULL;
  long k = (long)rt->host_of[i] * rt->nhost + rt->host_of[j];
  size_t q = slot_of(rt, k);
  return rt->key[q] == k && rt->val[q] >= 0 ? &rt->route[rt->val[q]] : NULL;
}

static size_t name_hash(const char *n) {
  size_t h = 1469598103934665603UL;
  for (; *n; n++) h = (h ^ (unsigned char)*n) * 1099511628211UL;
  return h;
}

/* The id of link name (its slot in lslot), or where it goes. */
static size_t link_slot(const cs_routes *rt, const char *name) {
  size_t q = name_hash(name) & (rt->lcap - 1);
  while (rt->lslot[q] >= 0 && strcmp(rt->lname[rt->lslot[q]], name) != 0)
    q = (q + 1) & (rt->lcap - 1);
  return q;
}

/* The global id of the link the tool calls name: ids are the tool's own per
 * run, names are SimGrid's. Adds it if new; -1 without memory. */
static int link_id(cs_routes *rt, const char *name, double bw, int fp) {
  if (2 * (size_t)(rt->nlink + 1) > rt->lcap) {
    size_t nc = rt->lcap ? 2 * rt->lcap : 1024;
    int *ns = malloc(sizeof *ns * nc);
    if (!ns) return -1;
    for (size_t q = 0; q < nc; q++) ns[q] = -1;
    free(rt->lslot);
    rt->lslot = ns;
    rt->lcap = nc;
    for (int l = 0; l < rt->nlink; l++) rt->lslot[link_slot(rt, rt->lname[l])] = l;
  }
  size_t q = link_slot(rt, name);
  if (rt->lslot[q] >= 0) return rt->lslot[q];
  if (rt->nlink == rt->clink) {
    int c = rt->clink ? 2 * rt->clink : 256;
    double *cp = realloc(rt->cap, sizeof *cp * (size_t)c);
    if (cp) rt->cap = cp;
    unsigned char *fpp = realloc(rt->fatpipe, (size_t)c);
    if (fpp) rt->fatpipe = fpp;
    char **ln = realloc(rt->lname, sizeof *ln * (size_t)c);
    if (ln) rt->lname = ln;
    if (!cp || !fpp || !ln) return -1;
    rt->clink = c;
  }
  if (!(rt->lname[rt->nlink] = strdup(name))) return -1;
  rt->cap[rt->nlink] = bw;
  rt->fatpipe[rt->nlink] = (unsigned char)fp;
  rt->lslot[q] = rt->nlink;
  return rt->nlink++;
}

/* Reads collsim-routes' answer from f. */
static int read_answer(cs_routes *rt, FILE *f, char *err, size_t errlen) {
  char tag[4];
  int *gid = NULL, ngid = 0; /* the tool's ids of this run -> global ids */
  while (fscanf(f, "%3s", tag) == 1) {
    if (strcmp(tag, "L") == 0) {
      int id, fp;
      double bw, lat;
      char name[1024];
      if (fscanf(f, "%d %lg %lg %d %1023s", &id, &bw, &lat, &fp, name) != 5 || id != ngid) break;
      int *g = realloc(gid, sizeof *g * (size_t)(ngid + 1));
      if (!g) goto oom;
      gid = g;
      if ((gid[ngid++] = link_id(rt, name, bw, fp)) < 0) goto oom;
    } else if (strcmp(tag, "R") == 0) {
      int i, j, n;
      double lat;
      if (fscanf(f, "%d %d %lg %d", &i, &j, &lat, &n) != 4 || i < 0 || j < 0 || i >= rt->nhost ||
          j >= rt->nhost || n < 0)
        break;
      while (rt->nl + n > rt->cl) {
        int c = rt->cl ? 2 * rt->cl : 1024;
        int *l = realloc(rt->links, sizeof *l * (size_t)c);
        if (!l) goto oom;
        rt->links = l;
        rt->cl = c;
      }
      if (rt->nroute == rt->croute) {
        int c = rt->croute ? 2 * rt->croute : 256;
        cs_route *ro = realloc(rt->route, sizeof *ro * (size_t)c);
        if (!ro) goto oom;
        rt->route = ro;
        rt->croute = c;
      }
      cs_route *ro = &rt->route[rt->nroute];
      ro->lat = lat;
      ro->n = n;
      ro->off = rt->nl;
      ro->bound = -1;
      for (int k = 0; k < n; k++) {
        int id;
        if (fscanf(f, "%d", &id) != 1 || id < 0 || id >= ngid) goto bad;
        id = gid[id];
        rt->links[rt->nl++] = id;
        if (ro->bound < 0 || rt->cap[id] < ro->bound) ro->bound = rt->cap[id];
      }
      /* network_cm02.cpp: the user bound (smallest bandwidth), capped by TCP-gamma */
      if (lat > 0) {
        double g = rt->tcp_gamma / (2 * lat);
        if (ro->bound < 0 || g < ro->bound) ro->bound = g;
      }
      if (table_grow(rt)) goto oom;
      long key = (long)i * rt->nhost + j;
      size_t q = slot_of(rt, key);
      if (rt->key[q] != key) rt->hused++;
      rt->key[q] = key;
      rt->val[q] = rt->nroute;
      rt->nroute++;
    } else if (strcmp(tag, "E") == 0) {
      char what[16], name[1024];
      if (fscanf(f, "%15s %1023s", what, name) == 2)
        snprintf(err, errlen, "routes: the hostfile names '%s', which is no host of %s", name,
                 rt->xml);
      else
        goto bad;
      free(gid);
      return -1;
    } else {
      break;
    }
  }
  if (feof(f)) {
    free(gid);
    return 0;
  }
bad:
  snprintf(err, errlen, "routes: unexpected output from %s", rt->tool);
  free(gid);
  return -1;
oom:
  snprintf(err, errlen, "routes: out of memory");
  free(gid);
  return -1;
}

int cs_routes_need(cs_routes *rt, const int *src, const int *dst, size_t n, char *err,
                   size_t errlen) {
  /* the host pairs not known yet, each once: marked in the table with -2 */
  long *ask = NULL;
  size_t nask = 0, cask = 0;
  int rc = -1;
  for (size_t m = 0; m < n; m++) {
    if (src[m] < 0 || dst[m] < 0 || src[m] >= rt->np || dst[m] >= rt->np) continue;
    long k = (long)rt->host_of[src[m]] * rt->nhost + rt->host_of[dst[m]];
    if (table_grow(rt)) goto oom;
    size_t q = slot_of(rt, k);
    if (rt->key[q] == k) continue;
    rt->key[q] = k;
    rt->val[q] = -2;
    rt->hused++;
    if (nask == cask) {
      cask = cask ? 2 * cask : 1024;
      long *a = realloc(ask, sizeof *a * cask);
      if (!a) goto oom;
      ask = a;
    }
    ask[nask++] = k;
  }
  if (nask == 0) return 0;
  char tmp[] = "/tmp/collsim-routes-XXXXXX";
  int fd = mkstemp(tmp);
  FILE *in = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!in) {
    snprintf(err, errlen, "routes: cannot write a temporary file: %s", strerror(errno));
    goto out;
  }
  fprintf(in, "%d\n", rt->nhost);
  for (int h = 0; h < rt->nhost; h++) fprintf(in, "%s\n", rt->host[h]);
  for (size_t a = 0; a < nask; a++)
    fprintf(in, "%ld %ld\n", ask[a] / rt->nhost, ask[a] % rt->nhost);
  if (fclose(in)) {
    unlink(tmp);
    snprintf(err, errlen, "routes: cannot write a temporary file: %s", strerror(errno));
    goto out;
  }
  char cmd[9000];
  snprintf(cmd, sizeof cmd, "'%s' '%s' < '%s'", rt->tool, rt->xml, tmp);
  FILE *f = popen(cmd, "r");
  if (!f) {
    unlink(tmp);
    snprintf(err, errlen, "routes: cannot run %s: %s", rt->tool, strerror(errno));
    goto out;
  }
  rc = read_answer(rt, f, err, errlen);
  int st = pclose(f);
  unlink(tmp);
  if (rc == 0 && st != 0) {
    snprintf(err, errlen, "routes: %s could not read the platform %s (SimGrid's message above)",
             rt->tool, rt->xml);
    rc = -1;
  }
  for (size_t a = 0; rc == 0 && a < nask; a++)
    if (rt->val[slot_of(rt, ask[a])] < 0) {
      snprintf(err, errlen, "routes: %s gave no route for a host pair", rt->tool);
      rc = -1;
    }
  goto out;
oom:
  snprintf(err, errlen, "routes: out of memory");
out:
  free(ask);
  return rc;
}
