/* What the conformance programs share: deterministic output (world rank 0
 * prints, in world rank order, what every process reports, collected with
 * point-to-point messages only, so that no collective under test carries
 * the output), digests of buffers, the communicators the programs cycle
 * through, and derived types with non-zero lower bounds.
 *
 * Each program is a plain MPI program: it does not know collsim. Run it on
 * the library alone and through libcollsim-pmpi.so (run.sh): the outputs
 * must be identical. */
#ifndef CONF_H
#define CONF_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONF_TAG 9173

static inline uint64_t conf_fnv(const void *p, size_t n) {
  uint64_t h = 14695981039346656037ULL;
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
  return h;
}

/* Each process keeps its lines ("label: value") in memory; conf_finish
 * (every process of MPI_COMM_WORLD, at the end) sends them to world rank 0,
 * which prints them in world rank order. So the output does not depend on
 * timing, and processes may report different numbers of lines (the halves
 * of a split communicator have different sizes). */
static char *conf_log;
static size_t conf_len, conf_cap;
static inline void conf_report(const char *label, const char *line) {
  char buf[700];
  int n = snprintf(buf, sizeof buf, "%s: %s\n", label, line);
  if (n < 0) return;
  if (conf_len + (size_t)n + 1 > conf_cap) {
    conf_cap = 2 * (conf_cap + (size_t)n + 1);
    conf_log = realloc(conf_log, conf_cap);
  }
  memcpy(conf_log + conf_len, buf, (size_t)n + 1);
  conf_len += (size_t)n;
}
static inline void conf_finish(void) {
  int w, wp;
  MPI_Comm_rank(MPI_COMM_WORLD, &w);
  MPI_Comm_size(MPI_COMM_WORLD, &wp);
  if (!conf_log) conf_report("nothing", "");
  if (w != 0) {
    MPI_Send(conf_log, (int)conf_len + 1, MPI_CHAR, 0, CONF_TAG, MPI_COMM_WORLD);
  } else {
    for (int r = 0; r < wp; r++) {
      char *in = conf_log;
      if (r > 0) {
        MPI_Status st;
        int len;
        MPI_Probe(r, CONF_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_CHAR, &len);
        in = malloc((size_t)len);
        MPI_Recv(in, len, MPI_CHAR, r, CONF_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      for (char *l = in, *e; *l; l = e + 1) {
        e = strchr(l, '\n');
        printf("[%d] %.*s\n", r, (int)(e - l), l);
      }
      if (r > 0) free(in);
    }
    printf("done p=%d\n", wp);
    fflush(stdout);
  }
  free(conf_log);
  conf_log = NULL;
}

/* The digest of n bytes (or of the bytes a type map covers: the data of
 * count elements of dt at buf, packed), reported with the return code. */
static inline void conf_digest(const char *label, int rc, const void *buf, int count,
                               MPI_Datatype dt) {
  char line[128];
  int sz = 0;
  if (rc != MPI_SUCCESS) {
    int cls = rc;
    MPI_Error_class(rc, &cls);
    snprintf(line, sizeof line, "error class %d", cls);
  } else if (buf == NULL || count <= 0) {
    snprintf(line, sizeof line, "ok");
  } else {
    MPI_Pack_size(count, dt, MPI_COMM_SELF, &sz);
    char *pk = malloc((size_t)sz + 1);
    int pos = 0;
    MPI_Pack(buf, count, dt, pk, sz, &pos, MPI_COMM_SELF);
    snprintf(line, sizeof line, "%016llx", (unsigned long long)conf_fnv(pk, (size_t)pos));
    free(pk);
  }
  conf_report(label, line);
}

/* The communicators the programs run on, as MPICH's tests cycle them:
 * WORLD, a duplicate, two halves (odd and even world ranks) and the ranks
 * in reverse order, with MPI_ERRORS_RETURN; *p and *r: size and rank.
 * Returns 0 past the last one. */
static inline int conf_comm(int k, MPI_Comm *c, const char **name, int *p, int *r) {
  int w, wp;
  MPI_Comm_rank(MPI_COMM_WORLD, &w);
  MPI_Comm_size(MPI_COMM_WORLD, &wp);
  switch (k) {
  case 0: *c = MPI_COMM_WORLD, *name = "world"; break;
  case 1: MPI_Comm_dup(MPI_COMM_WORLD, c), *name = "dup"; break;
  case 2: MPI_Comm_split(MPI_COMM_WORLD, w % 2, w, c), *name = "parity"; break;
  case 3: MPI_Comm_split(MPI_COMM_WORLD, 0, wp - 1 - w, c), *name = "reversed"; break;
  default: return 0;
  }
  MPI_Comm_size(*c, p);
  MPI_Comm_rank(*c, r);
  MPI_Comm_set_errhandler(*c, MPI_ERRORS_RETURN);
  return 1;
}
static inline void conf_comm_free(MPI_Comm *c) {
  if (*c != MPI_COMM_WORLD) MPI_Comm_free(c);
}

/* A pair of ints resized to extent 16 with lower bound -4 (elements 16
 * bytes apart, 8 bytes of data each, a non-zero lower bound and a gap). */
static inline MPI_Datatype conf_pair_type(void) {
  MPI_Datatype two, t;
  MPI_Type_contiguous(2, MPI_INT, &two);
  MPI_Type_create_resized(two, -4, 16, &t);
  MPI_Type_commit(&t);
  MPI_Type_free(&two);
  return t;
}
/* Element i of a conf_pair_type buffer. */
static inline int *conf_pair(void *buf, long i) { return (int *)((char *)buf + 16 * i); }

#endif
