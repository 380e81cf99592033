/* Reproduction of SMPI 3.32's selector decisions (libalgo.h). The bands
 * below transcribe the if/else ladders of SimGrid 3.32 (release commit
 * e8d2ff8dab, src/smpi/colls/smpi_*_selector.cpp) into data: one line per
 * range of communicator sizes, "LIMIT:NAME" pairs meaning "size < LIMIT
 * runs NAME", "*" for the rest; each table says which size it reads (total
 * bytes unless stated). The Intel MPI selector's measured tables are
 * generated data (impi_tables.def). */
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

/* bcast__ompi (1 NTSL "basic_linear", 2-3 ompi_pipeline "chain",
 * "pipeline", 4 ompi_split_bintree, 5 NTSB "binary_tree", 6 binomial_tree,
 * 7 mvapich2_knomial_intra_node "knomial", 8 scatter_rdb_allgather, 9
 * scatter_LR_allgather), by total bytes. */
#define KN "mvapich2_knomial_intra_node"
static const band ompi_bcast[] = {
    {4, "32:ompi_pipeline 256:NTSB 512:ompi_pipeline 1024:" KN " 32768:NTSL 131072:NTSB "
        "262144:ompi_pipeline 524288:NTSL 1048576:binomial_tree *:NTSB"},
    {8, "64:NTSB 128:binomial_tree 2048:NTSB 8192:binomial_tree 1048576:NTSL *:ompi_pipeline"},
    {16, "8:" KN " 64:NTSB 4096:" KN " 16384:NTSB 32768:binomial_tree *:NTSL"},
    {32, "4096:" KN " 1048576:binomial_tree *:scatter_rdb_allgather"},
    {64, "2048:binomial_tree *:" KN},
    {128, "*:" KN},
    {256, "2:binomial_tree 16384:NTSB 32768:NTSL 65536:NTSB *:" KN},
    {1024, "16384:" KN " 32768:ompi_split_bintree *:" KN},
    {2048, "524288:" KN " *:scatter_rdb_allgather"},
    {4096, "262144:" KN " *:scatter_rdb_allgather"},
    {0, "8192:" KN " 16384:NTSB 262144:" KN " *:scatter_rdb_allgather"}};
#undef KN

/* allgather__ompi (1 NTSLR_NB, 2 bruck, 3 rdb, 4 ring, 5
 * ompi_neighborexchange, 6 pair), by the bytes of one block. p = 2 runs
 * pair (handled in cs_lib_algo). */
#define NX "ompi_neighborexchange"
static const band ompi_allgather[] = {
    {32, "*:rdb"},
    {64, "1024:rdb 65536:" NX " *:ring"},
    {128, "512:rdb 65536:" NX " *:ring"},
    {256, "512:rdb 131072:" NX " 524288:ring 1048576:" NX " *:ring"},
    {512, "32:rdb 128:bruck 1024:rdb 131072:" NX " 524288:ring 1048576:" NX " *:ring"},
    {1024, "64:rdb 256:bruck 2048:rdb *:" NX},
    {2048, "4:rdb 8:bruck 16:rdb 32:bruck 256:rdb 512:bruck 4096:rdb *:" NX},
    {4096, "32:bruck 128:rdb 512:bruck 4096:rdb *:" NX},
    {0, "2:rdb 8:bruck 16:rdb 512:bruck 4096:rdb *:" NX}};

/* allgatherv__ompi (1 GB, 2 ompi_bruck, 3 mpich_ring, 4
 * ompi_neighborexchange, 5 pair), by total bytes / p. */
static const band ompi_allgatherv[] = {
    {3, "2048:mpich_ring 4096:pair 8192:mpich_ring *:pair"},
    {8, "256:GB 4096:" NX " 8192:mpich_ring 16384:" NX " 262144:ompi_bruck *:" NX},
    {16, "1024:GB *:ompi_bruck"},
    {32, "128:GB 262144:ompi_bruck *:mpich_ring"},
    {64, "256:GB 8192:ompi_bruck *:mpich_ring"},
    {128, "256:GB 4096:ompi_bruck *:mpich_ring"},
    {256, "1024:ompi_bruck 65536:" NX " *:mpich_ring"},
    {512, "1024:ompi_bruck *:mpich_ring"},
    {1024, "512:ompi_bruck 1024:GB 4096:ompi_bruck 1048576:" NX " *:mpich_ring"},
    {0, "4096:ompi_bruck *:" NX}};
#undef NX

/* gather__ompi (1 ompi_basic_linear, 2 ompi_binomial, 3
 * ompi_linear_sync), by the bytes of one block. */
static const band ompi_gather[] = {
    {4,
     "2:ompi_linear_sync 4:ompi_basic_linear 32768:ompi_binomial 65536:ompi_basic_linear "
     "131072:ompi_binomial *:ompi_linear_sync"},
    {8,
     "1024:ompi_binomial 8192:ompi_basic_linear 32768:ompi_binomial "
     "262144:ompi_basic_linear *:ompi_linear_sync"},
    {256, "*:ompi_binomial"},
    {512, "2048:ompi_binomial 8192:ompi_basic_linear *:ompi_binomial"},
    {0, "*:ompi_binomial"}};

/* scatter__ompi (1 ompi_basic_linear, 2 ompi_binomial, 3 ompi_linear_nb),
 * by the bytes of one block. */
static const band ompi_scatter[] = {
    {4, "2:ompi_linear_nb 131072:ompi_basic_linear 262144:ompi_linear_nb *:ompi_basic_linear"},
    {8,
     "2048:ompi_binomial 4096:ompi_basic_linear 8192:ompi_binomial 32768:ompi_basic_linear "
     "1048576:ompi_linear_nb *:ompi_basic_linear"},
    {16, "16384:ompi_binomial 1048576:ompi_linear_nb *:ompi_basic_linear"},
    {32, "16384:ompi_binomial 32768:ompi_basic_linear *:ompi_linear_nb"},
    {64, "512:ompi_binomial 8192:ompi_linear_nb 16384:ompi_binomial *:ompi_linear_nb"},
    {0, "512:ompi_binomial *:ompi_linear_nb"}};

/* The measured tables of the Intel MPI and MVAPICH2 selectors, generated
 * from SimGrid 3.32 (impi_tables.def by gen_impi_tables.py,
 * mvapich2_tables.def by gen_mvapich2_tables.py): per collective, processes
 * per node (mvapich2: 0 for a collective's only table) and largest p of a
 * range, a rule by size (impi: block_dsize; mvapich2: the inter-node
 * function, an entry serving bytes <= its max, LIMIT = max + 1, "@2"
 * marking an entry flagged two-level) and, for mvapich2, the intra-node
 * rule. */
typedef struct {
  cs_coll coll;
  int ppn, p_max;
  const char *rule, *intra;
} table_band;
static const table_band impi_bands[] = {
#define CS_IMPI(c, ppn, p_max, rule) {CS_##c, ppn, p_max, rule, ""},
#include "impi_tables.def"
#undef CS_IMPI
};
static const table_band mv2_bands[] = {
#define CS_MV2(c, ppn, p_max, inter, intra) {CS_##c, ppn, p_max, inter, intra},
#include "mvapich2_tables.def"
#undef CS_MV2
};

/* The range of a measured table for coll and p: the first table of the
 * collective whose ppn is `ppn` (*matched = 1; SMPI's partial_sub_ok), else
 * its first table; its first range with p <= p_max (the last serves any p).
 * NULL if the collective has no table. */
static const table_band *table_range(const table_band *t, size_t n, cs_coll coll, int ppn, int p,
                                     int *matched) {
  size_t first = n, i;
  *matched = 0;
  for (i = 0; i < n; i++)
    if (t[i].coll == coll) {
      if (first == n) first = i;
      if (ppn > 0 && t[i].ppn == ppn) {
        *matched = 1;
        break;
      }
    }
  if (first == n) return NULL;
  if (i == n) i = first;
  int table_ppn = t[i].ppn;
  while (i + 1 < n && t[i + 1].coll == coll && t[i + 1].ppn == table_ppn && p > t[i].p_max) i++;
  return &t[i];
}

static char name_buf[64];

/* The Intel MPI selector's choice: the first table of the collective whose
 * ppn is SMPI's processes per node (nodes with unequal numbers of processes
 * count as 1; a ppn absent from the tables takes the first table), its first
 * band with p <= p_max, the rule's name for block_dsize bytes. */
static const char *impi_pick(cs_coll coll, int ppn, int p, long bytes) {
  int matched;
  const table_band *r = table_range(impi_bands, sizeof impi_bands / sizeof impi_bands[0], coll,
                                    ppn > 0 ? ppn : 1, p, &matched);
  if (!r) return NULL;
  band b = {0, r->rule};
  return pick(&b, p, bytes, name_buf, sizeof name_buf);
}

/* reduce_scatter__mpich: commutative and more than 524288 ELEMENTS in all
 * (SMPI counts elements here, not bytes): mpich_pair; non-commutative,
 * regular blocks and p a power of two: mpich_noncomm; else mpich_rdb. */
static const char *mpich_reduce_scatter(int p, long elems, int regular, int commutative) {
  if (commutative && elems > 524288) return "mpich_pair";
  if (!commutative && regular && (p & (p - 1)) == 0) return "mpich_noncomm";
  return "mpich_rdb";
}

/* reduce_scatter__default: reduce + scatterv for regular blocks, else the
 * mpich selector's choice. */
static const char *default_reduce_scatter(int p, long elems, int regular, int commutative) {
  return regular ? "default" : mpich_reduce_scatter(p, elems, regular, commutative);
}

/* The name a MVAPICH2 rule gives to `bytes`, into buf without its "@2"
 * mark; *two_level says whether the entry had it. skip > 0 takes the entry
 * that many places after the chosen one (NULL if none). */
static const char *mv2_pick(const char *rule, long bytes, int skip, int *two_level, char *buf,
                            size_t len) {
  band b = {0, rule};
  char chosen[64];
  if (!pick(&b, 0, bytes, chosen, sizeof chosen)) return NULL;
  /* the entry's position, then the one skip places further */
  const char *e = rule;
  for (;;) {
    const char *name = strchr(e, ':') + 1;
    size_t k = strcspn(name, " ");
    long limit = *e == '*' ? -1 : strtol(e, NULL, 10);
    if (limit < 0 || bytes < limit) {
      while (skip-- > 0) {
        if (!name[k]) return NULL;
        e = name + k + 1;
        name = strchr(e, ':') + 1;
        k = strcspn(name, " ");
      }
      snprintf(buf, len, "%.*s", (int)k, name);
      break;
    }
    e = name + k + 1;
  }
  char *at = strstr(buf, "@2");
  if (two_level) *two_level = at != NULL;
  if (at) *at = '\0';
  return buf;
}

/* The MVAPICH2 selector's choice (smpi_mvapich2_selector.cpp), by
 * collective. Where it runs a two-level algorithm that reads the chosen
 * inter-node and intra-node functions from globals, the name says both:
 * "ALGORITHM inter:X intra:Y" (ALGORITHM alone is a --cfg name; X and Y are
 * SMPI algorithms of the collective, or reduce_p2p / reduce_shmem: a reduce
 * to rank 0 through the selected reduce). */
static char mv2_buf[160];
static const char *mvapich2_algo(cs_coll coll, int p, long elems, long bytes, long block,
                                 int regular, int commutative, int ppn, int smp_built) {
  int matched, two, pow2 = (p & (p - 1)) == 0;
  char x[64], y[64];
  cs_coll table = coll == CS_reduce_scatter_block ? CS_reduce_scatter : coll;
  const table_band *r =
      table_range(mv2_bands, sizeof mv2_bands / sizeof mv2_bands[0], table, ppn, p, &matched);
  if (!r) return NULL;
  switch (coll) {
  case CS_reduce_scatter:
  case CS_reduce_scatter_block:
    if (!commutative) /* SMPI runs mpich_noncomm, then (no return) mpich_rdb */
      return pow2 && regular ? "mpich_noncomm+mpich_rdb" : "mpich_rdb";
    mv2_pick(r->rule, bytes, 0, NULL, x, sizeof x);
    if (strcmp(x, "default")) break;
    return default_reduce_scatter(p, elems, regular, 1);
  case CS_allreduce:
    /* mcast entries (stubs) run rdb; a two-level entry runs
     * mvapich2_two_level for commutative operations, else rdb */
    mv2_pick(r->rule, bytes, 0, &two, x, sizeof x);
    mv2_pick(r->intra, bytes, 0, NULL, y, sizeof y);
    if (!strcmp(x, "mcast")) snprintf(x, sizeof x, "rdb");
    if (!two) break;
    if (!commutative) return "rdb";
    snprintf(mv2_buf, sizeof mv2_buf, "mvapich2_two_level inter:%s intra:%s", x, y);
    return mv2_buf;
  case CS_reduce:
    mv2_pick(r->rule, bytes, 0, &two, x, sizeof x);
    mv2_pick(r->intra, bytes, 0, NULL, y, sizeof y);
    if (two && commutative) {
      snprintf(mv2_buf, sizeof mv2_buf, "mvapich2_two_level inter:%s intra:%s", x, y);
      return mv2_buf;
    }
    if (two || (!commutative && !strcmp(x, "mvapich2_knomial"))) return "binomial";
    if (!strcmp(x, "scatter_gather")) { /* count >= the largest power of two <= p */
      long pof2 = 1;
      while (pof2 * 2 <= p) pof2 *= 2;
      if (elems < pof2) return "binomial";
    }
    break;
  case CS_bcast:
    /* two-level: mvapich2_inter_node (X between the nodes' leaders), then
     * Y on each node (mpich where the table has none) */
    mv2_pick(r->rule, bytes, 0, &two, x, sizeof x);
    mv2_pick(r->intra, bytes, 0, NULL, y, sizeof y);
    if (!two) break;
    snprintf(mv2_buf, sizeof mv2_buf, "mvapich2_inter_node inter:%s intra:%s", x,
             strcmp(y, "none") ? y : "mpich");
    return mv2_buf;
  case CS_allgather:
    /* by the bytes of one block; a two-level entry runs mvapich2_smp on
     * a node structure of a matched ppn table (blocked placement), else rdb */
    mv2_pick(r->rule, block, 0, &two, x, sizeof x);
    if (two) return matched ? "mvapich2_smp" : "rdb";
    break;
  case CS_allgatherv: {
    /* an entry serves total bytes <= p x its max: ceil(total / p) <= max;
     * rdb on p not a power of two runs ompi_bruck */
    mv2_pick(r->rule, (bytes + p - 1) / p, 0, NULL, x, sizeof x);
    if (!strcmp(x, "mpich_rdb") && !pow2) return "ompi_bruck";
    break;
  }
  case CS_gather:
    /* The table's choice runs only when SMPI knows the placement is
     * blocked, which it learns when it builds the communicator's node
     * structure (Comm::init_smp): gather__mvapich2 does not build it, so
     * under lib:mvapich2 (a bench run of gather calls nothing that does)
     * it runs gather__mpich (ompi_binomial); the impi selector builds it
     * before handing over (smp_built), and the table's choice runs
     * (collsim's placements are blocked). */
    if (!smp_built) return "ompi_binomial";
    mv2_pick(r->rule, block, 0, NULL, x, sizeof x);
    if (strcmp(x, "mvapich2_two_level")) break;
    mv2_pick(r->intra, block, 0, NULL, y, sizeof y);
    snprintf(mv2_buf, sizeof mv2_buf, "%s intra:%s", x, y);
    return mv2_buf;
  case CS_scatter: {
    /* by the bytes of one block; an mcast entry (a stub) hands over to the
     * next entry, or ompi_binomial; the two-level algorithms read the
     * intra-node function (placement blocked, as collsim's hostfiles are) */
    mv2_pick(r->rule, block, 0, NULL, x, sizeof x);
    if (!strcmp(x, "mcast") && !mv2_pick(r->rule, block, 1, NULL, x, sizeof x))
      snprintf(x, sizeof x, "ompi_binomial");
    if (strncmp(x, "mvapich2_two_level", 18)) break;
    mv2_pick(r->intra, block, 0, NULL, y, sizeof y);
    snprintf(mv2_buf, sizeof mv2_buf, "%s intra:%s", x, y);
    return mv2_buf;
  }
  default: return NULL;
  }
  snprintf(mv2_buf, sizeof mv2_buf, "%s", x);
  return mv2_buf;
}

/* Collectives SMPI 3.32 implements once, with no selector entry and no
 * --cfg setting: every selector runs that one algorithm. */
static int single_algorithm(cs_coll coll) {
  return coll == CS_gatherv || coll == CS_scatterv || coll == CS_scan || coll == CS_exscan;
}

const char *cs_lib_algo(const char *sel, cs_coll coll, int p, long elems, int size, int regular,
                        int commutative, int ppn) {
  long bytes = elems * size, block = elems / (p > 0 ? p : 1) * size;
  int split = coll == CS_reduce_scatter || coll == CS_reduce_scatter_block;
  int pow2 = (p & (p - 1)) == 0;
  if (single_algorithm(coll)) return "default";
  if (!strcmp(sel, "automatic")) return CS_LIB_AUTOMATIC;
  if (!strcmp(sel, "default")) {
    /* reduce__default: commutative on a built-in datatype: the non-blocking
     * linear reduce ("default"), else ompi_basic_linear. allreduce__default:
     * reduce__default + bcast__default (derived datatypes go to ompi;
     * collsim's bench types are not derived). The other collectives'
     * default is one algorithm each, named "default". */
    if (coll == CS_reduce) return commutative ? "default" : "ompi_basic_linear";
    if (split) return default_reduce_scatter(p, elems, regular, commutative);
    return "default";
  }
  if (!strcmp(sel, "ompi")) {
    switch (coll) {
    case CS_reduce:
      return pick(commutative ? ompi_reduce : ompi_reduce_nc, p, bytes, name_buf, sizeof name_buf);
    case CS_allreduce:
      return pick(commutative ? ompi_allreduce : ompi_allreduce_nc, p, bytes, name_buf,
                  sizeof name_buf);
    case CS_reduce_scatter:
    case CS_reduce_scatter_block: {
      if (!commutative) /* alg 1: reduce_scatter__default */
        return default_reduce_scatter(p, elems, regular, 0);
      const char *n = pick(ompi_reduce_scatter, p, bytes, name_buf, sizeof name_buf);
      return strcmp(n, "default") ? n : default_reduce_scatter(p, elems, regular, 1);
    }
    case CS_bcast: return pick(ompi_bcast, p, bytes, name_buf, sizeof name_buf);
    case CS_allgather:
      return p == 2 ? "pair" : pick(ompi_allgather, p, block, name_buf, sizeof name_buf);
    case CS_allgatherv: return pick(ompi_allgatherv, p, bytes / p, name_buf, sizeof name_buf);
    case CS_gather: return pick(ompi_gather, p, block, name_buf, sizeof name_buf);
    case CS_scatter: return pick(ompi_scatter, p, block, name_buf, sizeof name_buf);
    default: return NULL;
    }
  }
  if (!strcmp(sel, "mpich")) {
    /* SMPI's mpich rules for allreduce, reduce and bcast first ask whether
     * the communicator is a node's own (is_smp_comm): MPI_COMM_WORLD and
     * collsim's communicators never are, so commutative allreduce and reduce
     * go to mvapich2_two_level, and bcast to SMP_binomial when every node
     * holds as many processes (is_uniform). */
    switch (coll) {
    case CS_reduce: return commutative ? "mvapich2_two_level" : "binomial";
    case CS_allreduce: return commutative ? "mvapich2_two_level" : "rdb";
    case CS_reduce_scatter:
    case CS_reduce_scatter_block: return mpich_reduce_scatter(p, elems, regular, commutative);
    case CS_bcast:
      if (ppn > 0) return "SMP_binomial";
      if (bytes < 12288 || p <= 8) return "binomial_tree";
      return bytes < 524288 && p % 2 == 0 ? "scatter_rdb_allgather" : "scatter_LR_allgather";
    case CS_allgather: /* total bytes */
      if (pow2 && bytes < 524288) return "rdb";
      return bytes <= 81920 ? "bruck" : "ring";
    case CS_allgatherv: /* total ELEMENTS, as SMPI counts them */
      if (pow2 && elems < 524288) return "mpich_rdb";
      return elems <= 81920 ? "ompi_bruck" : "mpich_ring";
    case CS_gather:
    case CS_scatter: return "ompi_binomial";
    default: return NULL;
    }
  }
  if (!strcmp(sel, "mvapich2"))
    return mvapich2_algo(coll, p, elems, bytes, block, regular, commutative, ppn, 0);
  if (!strcmp(sel, "impi")) {
    /* block_dsize: the bytes of one block for allgather, gather and
     * scatter, of the whole vector or all blocks for the others. */
    int per_block = coll == CS_allgather || coll == CS_gather || coll == CS_scatter;
    cs_coll table = split ? CS_reduce_scatter : coll;
    const char *n = impi_pick(table, ppn, p, per_block ? block : bytes);
    if (!n) return NULL;
    if (split && !strcmp(n, "default"))
      return default_reduce_scatter(p, elems, regular, commutative);
    if (!strcmp(n, "impi_rh")) n = commutative ? "ompi_basic_recursivehalving" : "mvapich2";
    if (!strcmp(n, "mvapich2")) {
      /* The mvapich2 selector's choice, after the impi selector built the
       * node structure (SMPI's impi selector calls Comm::init_smp first). */
      const char *m = mvapich2_algo(coll, p, elems, bytes, block, regular, commutative, ppn, 1);
      if (m) return m;
    }
    return n;
  }
  return NULL;
}

/* SMPI 3.32 algorithms that abort the whole simulation when p is not a
 * power of two (found by a sweep, /work/shared/notes/smpi.md "SMPI's own
 * collectives"; lib:impi allreduce runs rab1 at p = 12, 15505 .. 52729
 * bytes). */
static const struct {
  cs_coll coll;
  const char *name;
} pow2_only[] = {{CS_allreduce, "rab1"},
                 {CS_allreduce, "smp_rsag_rab"},
                 {CS_allgather, "pair"},
                 {CS_allgather, "rhv"},
                 {CS_reduce, "scatter_gather"},
                 {CS_reduce_scatter, "mpich_noncomm"},
                 {CS_reduce_scatter_block, "mpich_noncomm"},
                 {CS_alltoall, "pair"},
                 {CS_alltoall, "pair_rma"},
                 {CS_alltoall, "pair_light_barrier"},
                 {CS_alltoall, "pair_mpi_barrier"},
                 {CS_alltoall, "pair_one_barrier"}};

const char *cs_lib_algo_aborts(cs_coll coll, const char *name, int p) {
  /* lib:mvapich2 reduce runs it above 1 MiB (p <= 512): found when its
   * rules were reproduced */
  if (coll == CS_reduce && !strcmp(name, "scatter_gather"))
    return "SMPI 3.32's reduce scatter_gather crashes the simulation (segmentation fault) on "
           "real buffers, at p = 4 and 8 too";
  if ((p & (p - 1)) == 0) return NULL;
  for (size_t i = 0; i < sizeof pow2_only / sizeof pow2_only[0]; i++)
    if (pow2_only[i].coll == coll && !strcmp(pow2_only[i].name, name))
      return "SMPI 3.32's algorithm aborts the simulation when p is not a power of two";
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
                               int size, int regular, int commutative, int ppn, char *buf,
                               size_t len) {
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
  const char *n = cs_lib_algo(sel, coll, p, elems, size, regular, commutative, ppn);
  if (n) snprintf(buf, len, "%s", n);
  return buf;
}
