/* Reproduction of SMPI 3.32's selector decisions (libalgo.h). The bands
 * below transcribe the if/else ladders of SimGrid 3.32 (release commit
 * e8d2ff8dab, src/smpi/colls/smpi_*_selector.cpp) into data: one line per
 * range of communicator sizes, "LIMIT:NAME" pairs meaning "total bytes <
 * LIMIT runs NAME", "*" for the rest. */
#include "libalgo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int p_below; /* the band holds p < p_below (0: every larger p) */
  const char *rule;
} band;

/* allreduce__ompi, commutative operations (alg 1-2 redbcast, 3 rdb, 4 lr,
 * 5 ompi_ring_segmented, 6 rab_rdb). */
static const band ompi_allreduce[] = {
    {4, "8:lr 4096:rdb 8192:lr 16384:rdb 65536:lr 262144:ompi_ring_segmented *:rab_rdb"},
    {8, "16:lr 8192:rdb *:rab_rdb"},
    {16, "8192:rdb *:rab_rdb"},
    {32, "64:ompi_ring_segmented 4096:rdb *:rab_rdb"},
    {64, "128:ompi_ring_segmented *:rab_rdb"},
    {128, "262144:rdb *:rab_rdb"},
    {256, "131072:redbcast 262144:rdb *:rab_rdb"},
    {512, "4096:redbcast *:rab_rdb"},
    {2048, "2048:redbcast 16384:rdb *:rab_rdb"},
    {4096, "2048:redbcast 4096:ompi_ring_segmented 16384:rdb *:rab_rdb"},
    {0, "2048:redbcast 16384:ompi_ring_segmented 32768:rdb *:rab_rdb"}};

/* allreduce__ompi, non-commutative operations. */
static const band ompi_allreduce_nc[] = {{4, "131072:rdb *:redbcast"},
                                         {8, "*:rdb"},
                                         {16, "1048576:rdb *:redbcast"},
                                         {128, "*:rdb"},
                                         {256, "131072:redbcast 524288:rdb *:redbcast"},
                                         {512, "4096:redbcast 524288:rdb *:redbcast"},
                                         {0, "2048:redbcast *:rdb"}};

/* reduce_scatter__ompi, commutative operations (1 default, 2
 * ompi_basic_recursivehalving, 3 ompi_ring, 4 ompi_butterfly). */
#define RH "ompi_basic_recursivehalving"
static const band ompi_reduce_scatter[] = {
    {4, "65536:ompi_ring 131072:ompi_butterfly *:ompi_ring"},
    {8, "8:default 262144:" RH " *:ompi_ring"},
    {32, "262144:" RH " *:ompi_ring"},
    {64, "64:default 2048:" RH " 524288:ompi_butterfly *:ompi_ring"},
    {128, "256:default 512:" RH " 2048:ompi_butterfly 4096:" RH " *:ompi_butterfly"},
    {256, "256:default 512:" RH " *:ompi_butterfly"},
    {512, "256:default 1024:" RH " *:ompi_butterfly"},
    {1024, "512:default 2048:" RH " 8192:ompi_butterfly 16384:" RH " *:ompi_butterfly"},
    {2048, "512:default 4096:" RH " 16384:ompi_butterfly 32768:" RH " *:ompi_butterfly"},
    {4096, "512:default 4096:" RH " *:ompi_butterfly"},
    {0, "1024:default 8192:" RH " *:ompi_butterfly"}};
#undef RH

/* reduce__ompi, commutative operations (1 ompi_basic_linear, 2 ompi_chain,
 * 3 ompi_pipeline, 4 ompi_binary, 5 ompi_binomial, 6 ompi_in_order_binary,
 * 7 "rabenseifner", which SMPI maps to ompi_basic_linear). */
#define LIN "ompi_basic_linear"
#define IOB "ompi_in_order_binary"
static const band ompi_reduce[] = {
    {4, "8:" LIN " 16:ompi_binary 32:ompi_pipeline 262144:" LIN
        " 524288:ompi_pipeline 1048576:ompi_chain *:ompi_pipeline"},
    {8, "4096:ompi_binary 65536:ompi_chain 262144:ompi_binomial 524288:" LIN
        " 1048576:ompi_binomial *:" LIN},
    {16, "8192:ompi_binary *:ompi_binomial"},
    {32, "4096:ompi_binary *:ompi_binomial"},
    {256, "*:ompi_binomial"},
    {512, "8192:ompi_binomial 16384:" IOB " *:ompi_binomial"},
    {2048, "*:ompi_binomial"},
    {4096, "512:ompi_binomial 1024:" IOB " 8192:ompi_binomial 16384:" IOB " *:ompi_binomial"},
    {0, "16:ompi_binomial 32:" IOB " 1024:ompi_binomial 2048:" IOB " 8192:ompi_binomial 16384:" IOB
        " *:ompi_binomial"}};

/* reduce__ompi, non-commutative operations. */
static const band ompi_reduce_nc[] = {
    {4, "8:" IOB " *:" LIN},
    {8, "*:" LIN},
    {16, "1024:" IOB " 8192:" LIN " 16384:" IOB " 262144:" LIN " *:" IOB},
    {128, "*:" IOB},
    {256, "512:" IOB " 1024:" LIN " *:" IOB},
    {0, "*:" IOB}};
#undef LIN
#undef IOB

/* The name a rule gives to `bytes` (static storage: the rule's text). */
static const char *pick(const band *b, int p, long bytes, char *buf, size_t len) {
  while (b->p_below && p >= b->p_below) b++;
  for (const char *r = b->rule; *r;) {
    char *end;
    long limit = *r == '*' ? -1 : strtol(r, &end, 10);
    const char *name = strchr(r, ':') + 1;
    size_t n = strcspn(name, " ");
    if (limit < 0 || bytes < limit) {
      snprintf(buf, len, "%.*s", (int)n, name);
      return buf;
    }
    r = name + n + (name[n] == ' ');
  }
  return NULL; /* not reached: every rule ends with "*" */
}

static char name_buf[64];

/* reduce_scatter__mpich: commutative and more than 524288 ELEMENTS in all
 * (SMPI counts elements here, not bytes): mpich_pair; non-commutative,
 * regular blocks and p a power of two: mpich_noncomm; else mpich_rdb. */
static const char *mpich_reduce_scatter(int p, long elems, int regular, int commutative) {
  if (commutative && elems > 524288) return "mpich_pair";
  if (!commutative && regular && (p & (p - 1)) == 0) return "mpich_noncomm";
  return "mpich_rdb";
}

const char *cs_lib_algo(const char *sel, cs_coll coll, int p, long elems, int size, int regular,
                        int commutative) {
  long bytes = elems * size;
  int split = coll == CS_reduce_scatter || coll == CS_reduce_scatter_block;
  if (coll == CS_reduce) {
    /* reduce__default: commutative on a built-in datatype: the
     * non-blocking linear reduce ("default"), else ompi_basic_linear.
     * reduce__mpich: like its allreduce, mvapich2_two_level for
     * commutative operations on MPI_COMM_WORLD, else binomial. */
    if (!strcmp(sel, "default")) return commutative ? "default" : "ompi_basic_linear";
    if (!strcmp(sel, "ompi"))
      return pick(commutative ? ompi_reduce : ompi_reduce_nc, p, bytes, name_buf, sizeof name_buf);
    if (!strcmp(sel, "mpich")) return commutative ? "mvapich2_two_level" : "binomial";
    return NULL;
  }
  if (coll != CS_allreduce && !split) return NULL;
  if (!strcmp(sel, "default")) {
    /* allreduce__default: reduce__default + bcast__default (derived
     * datatypes go to ompi; collsim's bench types are not derived).
     * reduce_scatter__default: reduce + scatterv for regular blocks, else
     * the mpich selector's choice. */
    if (split && !regular) return mpich_reduce_scatter(p, elems, regular, commutative);
    return "default";
  }
  if (!strcmp(sel, "ompi")) {
    if (split) {
      if (!commutative) /* alg 1: reduce_scatter__default, which hands irregular blocks on */
        return regular ? "default" : mpich_reduce_scatter(p, elems, 0, 0);
      const char *n = pick(ompi_reduce_scatter, p, bytes, name_buf, sizeof name_buf);
      if (!strcmp(n, "default") && !regular) return mpich_reduce_scatter(p, elems, 0, 1);
      return n;
    }
    return pick(commutative ? ompi_allreduce : ompi_allreduce_nc, p, bytes, name_buf,
                sizeof name_buf);
  }
  if (!strcmp(sel, "mpich")) {
    if (split) return mpich_reduce_scatter(p, elems, regular, commutative);
    /* allreduce__mpich: a communicator that is not itself a node's goes to
     * mvapich2_two_level for commutative operations (MPI_COMM_WORLD always);
     * else rab_rdb above 2048 bytes when count >= the largest power of two
     * <= p, else rdb. */
    if (commutative) return "mvapich2_two_level";
    return "rdb";
  }
  return NULL;
}

/* The value of option `key` (e.g. "smpi/coll-selector") in a list of
 * smpirun options, into buf; NULL if absent. */
static const char *cfg_value(const char *cfg, const char *key, char *buf, size_t len) {
  if (!cfg) return NULL;
  const char *found = NULL;
  char pat[128];
  snprintf(pat, sizeof pat, "--cfg=%s:", key);
  for (const char *s = strstr(cfg, pat); s; s = strstr(s + 1, pat)) found = s + strlen(pat);
  if (!found) return NULL;
  snprintf(buf, len, "%.*s", (int)strcspn(found, " \t"), found);
  return buf;
}

const char *cs_lib_algo_of_row(const char *algo, const char *cfg, cs_coll coll, int p, long elems,
                               int size, int regular, int commutative, char *buf, size_t len) {
  char key[64], sel[64], forced[128];
  /* SMPI has no reduce_scatter_block table: it calls reduce_scatter. */
  const char *smpi_coll = coll == CS_reduce_scatter_block ? "reduce_scatter" : cs_colls[coll].name;
  snprintf(key, sizeof key, "smpi/%s", smpi_coll);
  buf[0] = '\0';
  if (!strncmp(algo, "native:", 7)) {
    snprintf(buf, len, "%s", algo + 7);
    return buf;
  }
  if (cfg_value(cfg, key, forced, sizeof forced)) {
    snprintf(buf, len, "%s", forced);
    return buf;
  }
  if (!strncmp(algo, "lib:", 4))
    snprintf(sel, sizeof sel, "%s", algo + 4);
  else if (!strcmp(algo, "native")) {
    if (!cfg_value(cfg, "smpi/coll-selector", sel, sizeof sel))
      snprintf(sel, sizeof sel, "default");
  } else
    return buf;
  const char *n = cs_lib_algo(sel, coll, p, elems, size, regular, commutative);
  if (n) snprintf(buf, len, "%s", n);
  return buf;
}
