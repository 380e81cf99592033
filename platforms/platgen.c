/*
 * platgen.c: the SimGrid/SMPI platform generator of collsim (see platgen.h).
 *
 * Every kind is a parameter set of one generator with four network descriptions:
 *   flat       one host per rank, each with a private full-duplex link; no backbone, so
 *              nothing is shared (kind abg);
 *   hier       one Floyd-routed zone per (node, lane); the zones meet in a DijkstraCache-
 *              routed top zone through a one-router "fabric" zone (maxrate, lanes, hydra,
 *              vsc3, bluewaters).  With one lane per node the zone holds ONE host with ppn
 *              cores and per-flow (FATPIPE) links (write_node_zone), so that SMPI sees the
 *              node; with more lanes it holds one host per rank of that lane, a memory
 *              router and a NIC gateway router (write_lane_zone);
 *   fat tree   SimGrid's FAT_TREE cluster, one host per node with ppn cores (irene);
 *   dragonfly  SimGrid's DRAGONFLY cluster, one host per node with ppn cores (theta).
 * The hier layouts give the max-rate model exactly and need O(ranks) lines: routes in a
 * zone are found by Floyd's algorithm, routes between zones by Dijkstra's, both of which
 * SimGrid minimises over the number of links.  Inside a zone a rank reaches another rank
 * through the memory router (2 links) and the NIC gateway through its injection link and
 * the NIC (2 links), so intra-node paths never touch the NIC (via the gateway they would
 * need 4 links).  Between zones, a lane zone reaches the fabric through its NIC cable
 * (1 link) and another lane of its node through the inter-socket link (1 link), so all
 * minimal routes are unique.
 */
#include "platgen.h"
#include "units.h"
#include "topo.h"
#include "sizes.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The largest number of ranks the generator accepts (hostfiles beyond are impractical). */
#define CS_MAX_RANKS (1 << 22)

/* Host speed written when gamma is 0, so that local work costs (practically) nothing. */
#define CS_HUGE_SPEED 1e30

static const char *const kind_names[CS_PLAT_NKINDS + 1] = {
    "abg", "maxrate", "lanes", "hydra", "irene", "theta", "vsc3", "bluewaters", NULL};

/*
 * The smpirun options for exact, deterministic costs.  network/model:CM02 replaces the SMPI
 * model that smpirun sets (a model named in a platform file is ignored under smpirun);
 * crosstraffic:0 removes the 5% reverse-route load, TCP-gamma removes the window cap,
 * wtime:0 makes MPI_Wtime free, simulate-computation:no stops charging measured host CPU
 * time.  send-is-detached-thresh:0 makes every MPI_Send rendezvous: a send completes when
 * its data has arrived, as in the alpha-beta models, and large runs avoid a cost of eager
 * sends that grows quadratically (8192 ranks on theta, a 1 KiB allreduce: 3 s instead of
 * 23 s; with a barrier and two reduces as well: 7 s instead of 184 s); programs must then
 * not rely on eager buffering (an unsafe exchange of two blocking sends deadlocks).
 */
static const char *const smpirun_flags =
    "--cfg=network/model:CM02 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:1e15 "
    "--cfg=smpi/wtime:0 --cfg=smpi/simulate-computation:no "
    "--cfg=smpi/send-is-detached-thresh:0 --cfg=surf/precision:1e-12";

/*
 * The configuration every generated file carries.  smpirun forces network/model:SMPI, whose
 * piecewise factors these settings reduce to 1, so that a message costs exactly latency +
 * (size + 16) / bandwidth; the command-line flags above give the same with CM02.
 */
static const char *const config_props[][2] = {
    {"smpi/bw-factor", "0:1"},          /* no piecewise bandwidth correction */
    {"smpi/lat-factor", "0:1"},         /* no piecewise latency correction */
    {"network/weight-S", "0"},          /* no RTT-dependent bandwidth penalty term */
    {"network/crosstraffic", "0"},      /* no 5% reverse-route load for acknowledgements */
    {"network/TCP-gamma", "1e15"},      /* no TCP window cap gamma / (2 latency) */
    {"smpi/wtime", "0"},                /* MPI_Wtime costs no simulated time */
    {"smpi/simulate-computation", "no"} /* only smpi_execute_* charges computation */
};

/* ------------------------------------------------------------------------------------ */
/* Named machines: parameter sets with the facts and sources written into the files.    */
/* ------------------------------------------------------------------------------------ */

typedef struct cs_machine {
  cs_platform_kind kind;
  cs_topology topology;
  int nodes, ppn, lanes;  /* default job size and lanes per node */
  int max_nodes, max_ppn; /* machine size: compute nodes and cores per node */
  int slots;              /* node slots of a compact topology (0 for hier) */
  const char *topo_parameters;
  double alpha, Rb, RN, Rx, alpha_l, beta_l, link_bw, link_lat;
  const char *facts;   /* the machine's facts and the source of every number */
  const char *picture; /* an ASCII picture of the topology */
} cs_machine;

static const cs_machine machines[] = {
    {CS_PLAT_HYDRA, CS_TOPO_HIER, 36, 32, 2, 36, 32, 0, "", 1e-6, 12.5e9, 12.5e9, 62.4e9, 0.3e-6,
     1e-10, 0, 0,
     "Hydra (TU Wien), as the seed papers describe it:\n"
     "  36 compute nodes x 32 cores: 2 x 16-core Intel Xeon Gold 6130 (Skylake) at 2.1 GHz\n"
     "    [multilane-collectives-traff-hunold-2020 (multilane), Sec. II and Table I;\n"
     "     circulant-collectives-traff-2023 (circulant), Table III].\n"
     "  Dual-rail Intel Omni-Path 100 with two switches; the processes of each socket use their\n"
     "    own HFI on their own network [multilane, Sec. II].\n"
     "  Ranks are mapped cyclically to the sockets [multilane, Sec. IV]: local rank j is on\n"
     "    socket (lane) j mod 2.  The papers ran 36 x 32 and 32 x 1 processes.\n"
     "Numbers used here:\n"
     "  RN = 12.5 GB/s per rail: Omni-Path 100 Series, 100 Gb/s per port (Intel product spec).\n"
     "  Rb = 12.5 GB/s: assumption that one process can drive one rail (the hypothesis of\n"
     "    multilane Sec. II: processes on the two sockets get twice the bandwidth of one).\n"
     "  Rx = 62.4 GB/s per direction between the sockets: 3 UPI links x 10.4 GT/s x 2 bytes\n"
     "    (Intel ARK, Xeon Gold 6130).\n"
     "  alpha = 1 us, alpha_l = 0.3 us, beta_l = 0.1 ns/byte (10 GB/s): assumptions; the seed\n"
     "    papers give no latencies.\n"
     "  Both rails are modelled as one contention-free fabric: all limits are at the NICs.\n",
     "      contention-free fabric (stands for the two Omni-Path switches)\n"
     "        |            |                 |            |\n"
     "     cable 0      cable 1   ...    cable 0      cable 1      (RN, alpha/2 each)\n"
     "      NIC 0        NIC 1            NIC 0        NIC 1       (RN each)\n"
     "   +==|============|====+        +==|============|====+\n"
     "   | socket 0  socket 1 |        | socket 0  socket 1 |\n"
     "   | even      odd      |        | even      odd      |  each rank: injection link\n"
     "   | local     local    |        | local     local    |  (Rb) to its NIC, and link\n"
     "   | ranks     ranks    |        | ranks     ranks    |  (alpha_l/2, 1/beta_l) to\n"
     "   |    |= UPI (Rx) =|  |        |    |= UPI (Rx) =|  |  the socket's memory router\n"
     "   +====== node 0 ======+  ...   +===== node N-1 =====+\n"},
    {CS_PLAT_IRENE, CS_TOPO_FAT_TREE, 100, 48, 1, 1656, 48, 1656, "2;18,92;1,18;1,1", 0, 0, 0, 0,
     0.3e-6, 1e-10, 12.5e9, 0.25e-6,
     "Irene SKL (TGCC, France) [circulant-collectives-traff-2023 (circulant), Table III]:\n"
     "  1656 compute nodes (Atos), 2 x 24-core Intel Skylake at 2.7 GHz; InfiniBand EDR.\n"
     "  The paper ran 100 x 48 and 256 x 1 processes [circulant, Sec. IV, Fig. 3].\n"
     "Numbers used here:\n"
     "  link_bw = 12.5 GB/s: InfiniBand EDR, 4 lanes x 25 Gb/s = 100 Gb/s of data (IBTA spec).\n"
     "  Fat tree: assumption, 2 levels with full bisection, built from 36-port EDR switches\n"
     "    (Mellanox Switch-IB 2 has 36 ports): 92 leaf switches with 18 nodes and 18 uplinks\n"
     "    each, and 18 top switches; 18 x 92 = 1656 node slots, the node count of Table III.\n"
     "    SimGrid routes fat trees statically (the up port is chosen by destination).\n"
     "  link_lat = 0.25 us per link: assumption (0.5 us between nodes of one leaf switch,\n"
     "    1 us otherwise).  alpha_l = 0.3 us, beta_l = 0.1 ns/byte: assumptions.\n"
     "  One host per node with one core per rank; its ranks share its EDR link (no per-process\n"
     "    limit: Rb = RN = link_bw) and talk to each other through a loopback link.\n",
     "              top 0     top 1    ...    top 17        (18 top switches)\n"
     "              /  |  \\    /  |  \\          /  |  \\\n"
     "         each leaf has one uplink to every top switch\n"
     "       leaf 0        leaf 1       ...      leaf 91    (36 ports: 18 down, 18 up)\n"
     "      / |  \\        / |  \\                 / |  \\\n"
     "  node0 .. node17  node18 .. node35   node1638 .. node1655\n"
     "  (each node: 48 cores, intra-node messages on a loopback link)\n"},
    {CS_PLAT_THETA, CS_TOPO_DRAGONFLY, 128, 64, 1, 4392, 64, 4608, "12,87;6,3;16,1;4", 0, 0, 0, 0,
     0.5e-6, 2e-10, 5.25e9, 0.25e-6,
     "Theta (ALCF) [circulant-collectives-traff-2023 (circulant), Table III]:\n"
     "  4392 compute nodes, Cray XC40, one 64-core Intel Xeon Phi 7230 (KNL) at 1.3 GHz each;\n"
     "  Aries interconnect.  The paper ran 128 x 64 and 150 x 1 processes [circulant, Sec. IV,\n"
     "  Figs. 4 and 5].\n"
     "Aries dragonfly (B. Alverson, E. Froese, L. Kaplan, D. Roweth, \"Cray XC Series Network\",\n"
     "  Cray white paper WP-Aries01-1112; NeSI, \"XC50 Aries Network Architecture\"):\n"
     "  4 nodes per Aries router; 16 routers per chassis, all-to-all over the backplane (green,\n"
     "  14 Gb/s lanes); 6 chassis per group (2 cabinets of 3), each router linked to the router\n"
     "  in the same slot of every other chassis by 3 copper links (black: 15 links in 5\n"
     "  connectors, 14 Gb/s lanes); 10 optical links per router between groups (blue, 12.5 Gb/s\n"
     "  lanes).\n"
     "Numbers used here:\n"
     "  12 groups x 6 chassis x 16 routers x 4 nodes = 4608 node slots; Theta has 4392 nodes.\n"
     "  link_bw = 5.25 GB/s: a link of 3 lanes x 14 Gb/s (white paper: 3 lanes per link).\n"
     "    SimGrid's DRAGONFLY gives every link this bandwidth times its level's link count:\n"
     "    node links x1, green x1, black x3, blue x87.\n"
     "  87 blue links per pair of groups: assumption that all 96 x 10 optical ports of a group\n"
     "    are cabled and spread evenly over the 11 other groups (floor(960 / 11)).\n"
     "  link_lat = 0.25 us per link: assumption (0.5 us between nodes of one router, 1.75 us on\n"
     "    the longest minimal route of 7 links).\n"
     "  alpha_l = 0.5 us, beta_l = 0.2 ns/byte (5 GB/s): assumptions for KNL cores.\n"
     "  SimGrid routes minimally and statically; Aries routes adaptively.  One host per node\n"
     "    with one core per rank; its ranks share the node link and use a loopback link.\n",
     "  group 0 (2 cabinets)                  group 1              ...  group 11\n"
     "  +==================================+  +==================+\n"
     "  | chassis 0: Aries 0 .. Aries 15     |  |     (same)       |\n"
     "  |   all-to-all by green links        |  |                  |\n"
     "  |   each Aries: 4 nodes (KNL)        |  |                  |\n"
     "  | chassis 1 .. 5: the same; the      |  |                  |\n"
     "  |   Aries in slot r of each chassis  |  |                  |\n"
     "  |   joined to slot r of the others   |  |                  |\n"
     "  |   by black links (3 each)          |  |                  |\n"
     "  +=================|=================+  +=========|========+\n"
     "                    |= blue optical links (87 per group pair) =|\n"
     "  Node slot n sits on router n / 4, routers numbered by group, then chassis, then\n"
     "  slot; the job's nodes are slots 0 .. N-1.\n"},
    {CS_PLAT_VSC3, CS_TOPO_HIER, 100, 16, 2, 2020, 16, 0, "", 1.5e-6, 4e9, 4e9, 32e9, 0.4e-6, 2e-10,
     0, 0,
     "VSC-3 (Vienna Scientific Cluster) [multilane-collectives-traff-hunold-2020 (multilane),\n"
     "  Sec. II and Table I]: 2020 nodes x 16 cores, 2 x Intel Xeon E5-2650v2 at 2.6 GHz;\n"
     "  dual-rail InfiniBand (two HCAs), Intel QDR-80.  The paper ran N x n = 100 x 16\n"
     "  [multilane, Figs. 3 and 6] and mapped ranks cyclically to the sockets [Sec. IV]:\n"
     "  local rank j uses lane j mod 2.\n"
     "Numbers used here:\n"
     "  RN = 4 GB/s per rail: InfiniBand QDR, 4 lanes x 10 Gb/s signalling with 8b/10b coding\n"
     "    = 32 Gb/s of data (IBTA spec).\n"
     "  Rb = 4 GB/s: assumption that one process can drive one HCA.  The paper expects the\n"
     "    two ports to give possibly less than double bandwidth; this model gives exactly\n"
     "    double (the fabric has no contention).\n"
     "  Rx = 32 GB/s per direction between the sockets: 2 QPI links x 8 GT/s x 2 bytes\n"
     "    (Intel ARK, Xeon E5-2650 v2).\n"
     "  alpha = 1.5 us, alpha_l = 0.4 us, beta_l = 0.2 ns/byte (5 GB/s): assumptions.\n",
     "      contention-free fabric (stands for the QDR-80 InfiniBand fabric)\n"
     "        |            |                 |            |\n"
     "     cable 0      cable 1   ...    cable 0      cable 1      (RN, alpha/2 each)\n"
     "     HCA 0        HCA 1             HCA 0        HCA 1       (RN each)\n"
     "   +==|============|====+        +==|============|====+\n"
     "   | socket 0  socket 1 |        | socket 0  socket 1 |\n"
     "   | even      odd      |        | even      odd      |  each rank: injection link\n"
     "   | local     local    |        | local     local    |  (Rb) to its HCA, and link\n"
     "   | ranks     ranks    |        | ranks     ranks    |  (alpha_l/2, 1/beta_l) to\n"
     "   |    |= QPI (Rx) =|  |        |    |= QPI (Rx) =|  |  the socket's memory router\n"
     "   +====== node 0 ======+  ...   +===== node N-1 =====+\n"},
    {CS_PLAT_BLUEWATERS, CS_TOPO_HIER, 64, 16, 1, 22640, 32, 0, "", 1.541064e-6, 1.0 / 1.097653e-9,
     8.3e9, 0, 8.158429e-7, 1.059116e-10, 0, 0,
     "Blue Waters (NCSA), Cray XE6 [nap-allreduce-bienz-2019 (NAP), Secs. III and V]:\n"
     "  all NAP measurements used 16 processes per node, up to 32768 processes.  An XE6 node\n"
     "  has 2 AMD Opteron 6276 (Interlagos) processors, 32 integer cores in 16 modules; 22640\n"
     "  XE6 nodes; Gemini 3D torus with two nodes per Gemini router.\n"
     "Max-rate parameters: the NAP paper states the model (eqs. 2 to 6) and says that its\n"
     "  parameters were measured with ping-pong tests (its refs. 11, 12), but prints no values\n"
     "  (Figs. 5, 10 and 11 are plots).  Values used here:\n"
     "  alpha = 1.541064 us (alpha_short), Rb = 1 / (1.097653e-9 s/byte) = 911 MB/s (beta_rend),\n"
     "  alpha_l = 0.8158429 us (alpha_short_l), beta_l = 1.059116e-10 s/byte (beta_rend_l):\n"
     "    RAPtor, raptor/core/topology_params.hpp (A. Bienz, commit 038fae4, 2 April 2019),\n"
     "    written by RAPtor's examples/calc_model_params.cpp run with PPN = 16; the file does\n"
     "    not name the machine.  RAPtor fits three protocols; here alpha is the short-message\n"
     "    latency and Rb the rendezvous (large message) rate.\n"
     "  RN = 8.3 GB/s: Gemini NIC, 64 bytes every 5 cycles at 650 MHz per direction\n"
     "    (Alverson, Roweth, Kaplan, \"The Gemini System Interconnect\", HOTI 2010, as quoted by\n"
     "    the EuroBen report on the Cray XE6).  RAPtor's fitted beta_N (R_N = 42.5 GB/s)\n"
     "    exceeds that peak and is not used.  With these values RN binds from 10 ranks per\n"
     "    node sending at once (16 Rb = 14.6 GB/s > RN).\n"
     "  The torus is not modelled: as in the max-rate model, only injection limits.\n",
     "      contention-free fabric (stands for the Gemini 3D torus)\n"
     "        |                               |\n"
     "      cable (RN, alpha/2)             cable\n"
     "      NIC (RN)                        NIC\n"
     "      inj (Rb per flow)               inj\n"
     "   +==|===========================+  +==|=======+\n"
     "   | host node0: ppn cores; on-   |  |  (same)  |\n"
     "   |   node messages on loc       |  |          |\n"
     "   |   (alpha_l, 1/beta_l per     |  |          |\n"
     "   |   flow)                      |  |          |\n"
     "   +========== node 0 ============+  += node 1 =+  ...\n"},
};

static const cs_machine *find_machine(cs_platform_kind kind) {
  for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++)
    if (machines[i].kind == kind) return &machines[i];
  return NULL;
}

/* ------------------------------------------------------------------------------------ */
/* Small helpers.                                                                        */
/* ------------------------------------------------------------------------------------ */

static void set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (err == NULL || errlen == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* Append the list of valid kinds to a message, as "abg, maxrate, ...". */
static void kinds_list(char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int k = 0; k < CS_PLAT_NKINDS && used < len; k++) {
    int n = snprintf(buf + used, len - used, "%s%s", k ? ", " : "", kind_names[k]);
    if (n < 0) break;
    used += (size_t)n;
  }
}

/*
 * Format x with the fewest significant digits that read back as exactly x, so that files
 * are readable and exact.  The C locale's decimal point is assumed.
 */
static void fmt_num(char *buf, size_t len, double x) {
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, len, "%.*g", prec, x);
    if (strtod(buf, NULL) == x) break;
  }
  /* Shorten the exponent: "1e+10" becomes "1e10" and "5e-07" becomes "5e-7". */
  char *e = strchr(buf, 'e');
  if (e != NULL) {
    char *src = e + 1, *dst = e + 1;
    if (*src == '+')
      src++;
    else if (*src == '-')
      *dst++ = *src++;
    while (*src == '0' && src[1] != '\0') src++;
    memmove(dst, src, strlen(src) + 1);
  }
}

/* A formatted number with a unit suffix, in a caller-provided buffer. */
static const char *num(char *buf, size_t len, double x, const char *unit) {
  char tmp[40];
  fmt_num(tmp, sizeof tmp, x);
  snprintf(buf, len, "%s%s", tmp, unit);
  return buf;
}

static int kind_from_name(const char *name) {
  if (name == NULL) return -1;
  for (int k = 0; k < CS_PLAT_NKINDS; k++)
    if (strcmp(name, kind_names[k]) == 0) return k;
  return -1;
}

/* ------------------------------------------------------------------------------------ */
/* Public: kinds, defaults, validation.                                                  */
/* ------------------------------------------------------------------------------------ */

const char *const *cs_platform_kind_names(void) { return kind_names; }

const char *cs_platform_kind_name(cs_platform_kind kind) {
  if ((int)kind < 0 || kind >= CS_PLAT_NKINDS) return NULL;
  return kind_names[kind];
}

int cs_platform_kind_is_named(cs_platform_kind kind) { return find_machine(kind) != NULL; }

const char *cs_platform_smpirun_flags(void) { return smpirun_flags; }

const char *cs_platform_smpirun_flags_for(const char *xml) {
  cs_platform pl;
  if (xml == NULL || cs_platform_read(xml, &pl, NULL, 0) != 0) return smpirun_flags;
  return cs_platform_smpirun_flags_of(&pl);
}

const char *cs_platform_smpirun_flags_of(const cs_platform *pl) {
  static char buf[512];
  if (pl == NULL || pl->net.n == 0) return smpirun_flags;
  const char *cm02 = "--cfg=network/model:CM02", *at = strstr(smpirun_flags, cm02);
  snprintf(buf, sizeof buf, "%.*s--cfg=network/model:SMPI%s", (int)(at - smpirun_flags),
           smpirun_flags, at + strlen(cm02));
  return buf;
}

static void init_from_machine(cs_platform *pl, const cs_machine *m) {
  memset(pl, 0, sizeof *pl);
  pl->kind = m->kind;
  pl->topology = m->topology;
  pl->nodes = m->nodes;
  pl->ppn = m->ppn;
  pl->lanes = m->lanes;
  pl->gamma = 2.5e-10;
  pl->alpha_l = m->alpha_l;
  pl->beta_l = m->beta_l;
  if (m->topology == CS_TOPO_HIER) {
    pl->alpha = m->alpha;
    pl->Rb = m->Rb;
    pl->RN = m->RN;
    pl->Rx = m->Rx;
  } else {
    /* A compact topology: the figures follow from the uniform link parameters. */
    pl->slots = m->slots;
    snprintf(pl->topo_parameters, sizeof pl->topo_parameters, "%s", m->topo_parameters);
    pl->link_bw = m->link_bw;
    pl->link_lat = m->link_lat;
  }
}

int cs_platform_init(const char *name, cs_platform *pl, char *err, size_t errlen) {
  int kind = kind_from_name(name);
  if (kind < 0) {
    char list[160];
    kinds_list(list, sizeof list);
    set_err(err, errlen, "unknown platform kind '%s'; valid kinds: %s", name ? name : "(null)",
            list);
    return -1;
  }
  const cs_machine *m = find_machine((cs_platform_kind)kind);
  if (m != NULL) {
    init_from_machine(pl, m);
    return cs_platform_check(pl, err, errlen);
  }
  memset(pl, 0, sizeof *pl);
  pl->kind = (cs_platform_kind)kind;
  pl->gamma = 2.5e-10;
  switch (pl->kind) {
  case CS_PLAT_ABG:
    pl->topology = CS_TOPO_FLAT;
    pl->np = 8;
    pl->alpha = 1e-6;
    pl->beta = 1e-10;
    break;
  case CS_PLAT_MAXRATE:
  case CS_PLAT_LANES:
    pl->topology = CS_TOPO_HIER;
    pl->nodes = 4;
    pl->ppn = 8;
    pl->lanes = pl->kind == CS_PLAT_LANES ? 2 : 1;
    pl->alpha = 1e-6;
    pl->Rb = pl->kind == CS_PLAT_LANES ? 12.5e9 : 5e9;
    pl->RN = 12.5e9;
    pl->Rx = 50e9;
    pl->alpha_l = 0.2e-6;
    pl->beta_l = 5e-11;
    break;
  default: break;
  }
  return cs_platform_check(pl, err, errlen);
}

int cs_platform_named(const char *name, cs_platform *pl, char *err, size_t errlen) {
  int kind = kind_from_name(name);
  const cs_machine *m = kind < 0 ? NULL : find_machine((cs_platform_kind)kind);
  if (m == NULL) {
    set_err(err, errlen,
            "'%s' is not a named machine; valid names: hydra, irene, theta, vsc3, bluewaters",
            name ? name : "(null)");
    return -1;
  }
  init_from_machine(pl, m);
  return cs_platform_check(pl, err, errlen);
}

/* Check that a rate or time parameter is finite and positive (or non-negative). */
static int check_pos(double x, const char *what, int allow_zero, char *err, size_t errlen) {
  if (!isfinite(x) || x < 0 || (!allow_zero && x == 0)) {
    set_err(err, errlen, "%s must be a finite number %s 0 (got %g)", what, allow_zero ? ">=" : ">",
            x);
    return -1;
  }
  return 0;
}

int cs_platform_check(cs_platform *pl, char *err, size_t errlen) {
  if (pl == NULL || (int)pl->kind < 0 || pl->kind >= CS_PLAT_NKINDS) {
    set_err(err, errlen, "invalid platform kind");
    return -1;
  }
  const cs_machine *m = find_machine(pl->kind);
  /* The kind decides the network description. */
  pl->topology = m != NULL ? m->topology : (pl->kind == CS_PLAT_ABG ? CS_TOPO_FLAT : CS_TOPO_HIER);
  if (check_pos(pl->gamma, "gamma (s/byte)", 1, err, errlen)) return -1;
  if (pl->copy.n == 1 && check_pos(pl->copy.b[0], "gamma-copy (s/byte)", 1, err, errlen)) return -1;
  if (pl->kind == CS_PLAT_ABG) {
    if (pl->np < 1 || pl->np > CS_MAX_RANKS) {
      set_err(err, errlen, "np must be between 1 and %d (got %d)", CS_MAX_RANKS, pl->np);
      return -1;
    }
    if (check_pos(pl->alpha, "alpha (s)", 1, err, errlen) ||
        check_pos(pl->beta, "beta (s/byte)", 0, err, errlen))
      return -1;
    pl->nodes = pl->np;
    pl->ppn = 1;
    pl->lanes = 1;
    pl->Rb = pl->RN = 1.0 / pl->beta;
    return 0;
  }
  int max_nodes = m ? m->max_nodes : CS_MAX_RANKS;
  int max_ppn = m ? m->max_ppn : 4096;
  if (pl->nodes < 1 || pl->nodes > max_nodes) {
    set_err(err, errlen, "nodes must be between 1 and %d for %s (got %d)", max_nodes,
            kind_names[pl->kind], pl->nodes);
    return -1;
  }
  if (pl->ppn < 1 || pl->ppn > max_ppn) {
    set_err(err, errlen, "ppn must be between 1 and %d for %s (got %d)", max_ppn,
            kind_names[pl->kind], pl->ppn);
    return -1;
  }
  if ((long long)pl->nodes * pl->ppn > CS_MAX_RANKS) {
    set_err(err, errlen, "nodes x ppn must be at most %d (got %lld)", CS_MAX_RANKS,
            (long long)pl->nodes * pl->ppn);
    return -1;
  }
  pl->np = pl->nodes * pl->ppn;
  if (check_pos(pl->alpha_l, "alpha_l (s)", 1, err, errlen) ||
      check_pos(pl->beta_l, "beta_l (s/byte)", 0, err, errlen))
    return -1;
  if (pl->topology == CS_TOPO_HIER) {
    if (m == NULL)
      pl->lanes = pl->kind == CS_PLAT_LANES ? pl->lanes : 1;
    else
      /* A named machine's ranks alternate over its lanes: with fewer ranks than
       * lanes per node (Hydra 32 x 1 in the papers), only ppn lanes are used. */
      pl->lanes = m->lanes < pl->ppn ? m->lanes : pl->ppn;
    if (pl->lanes < 1 || pl->lanes > pl->ppn) {
      set_err(err, errlen, "lanes must be between 1 and ppn = %d (got %d)", pl->ppn, pl->lanes);
      return -1;
    }
    if (check_pos(pl->alpha, "alpha (s)", 1, err, errlen) ||
        check_pos(pl->Rb, "Rb (bytes/s)", 0, err, errlen) ||
        check_pos(pl->RN, "RN (bytes/s)", 0, err, errlen))
      return -1;
    if (pl->lanes > 1 && check_pos(pl->Rx, "Rx (bytes/s)", 0, err, errlen)) return -1;
    pl->beta = 1.0 / (pl->Rb < pl->RN ? pl->Rb : pl->RN);
    pl->slots = 0;
    pl->topo_parameters[0] = '\0';
    pl->link_bw = pl->link_lat = 0;
    return 0;
  }
  /*
   * A compact topology (named machines only): one host per node on a SimGrid cluster whose
   * shape is the whole machine's; the job uses its first nodes slots.
   */
  pl->slots = m->slots;
  snprintf(pl->topo_parameters, sizeof pl->topo_parameters, "%s", m->topo_parameters);
  if (check_pos(pl->link_bw, "link_bw (bytes/s)", 0, err, errlen) ||
      check_pos(pl->link_lat, "link_lat (s)", 1, err, errlen))
    return -1;
  pl->lanes = 1;
  pl->alpha = 2 * pl->link_lat;
  pl->beta = 1.0 / pl->link_bw;
  pl->Rb = pl->RN = pl->link_bw;
  pl->Rx = 0;
  return 0;
}

/* ------------------------------------------------------------------------------------ */
/* Rank placement and host names.                                                        */
/* ------------------------------------------------------------------------------------ */

/* Placement and names follow the topology module (algos/topo.h), which the
 * kernel context, the calibration driver and the models share. */
int cs_platform_locate(const cs_platform *pl, int rank, int *node, int *local, int *lane) {
  if (pl == NULL || rank < 0 || rank >= pl->np || pl->ppn < 1) return -1;
  cs_topo_locate(rank, pl->ppn, pl->lanes, node, local, lane);
  return 0;
}

int cs_platform_hosts_per_rank(const cs_platform *pl) {
  return pl != NULL && pl->topology == CS_TOPO_HIER && pl->lanes > 1;
}

int cs_platform_one_host_per_node(const cs_platform *pl, cs_platform *out, char *err,
                                  size_t errlen) {
  if (pl == NULL || pl->topology != CS_TOPO_HIER) {
    set_err(err, errlen,
            "one host per node: only for the max-rate kinds (maxrate, lanes, hydra, "
            "vsc3), which place ranks on hosts themselves");
    return -1;
  }
  *out = *pl;
  out->kind = CS_PLAT_MAXRATE;
  out->RN = pl->RN * pl->lanes;
  out->lanes = 1;
  out->Rx = 0;
  return cs_platform_check(out, err, errlen);
}

int cs_platform_host_name(const cs_platform *pl, int rank, char *buf, size_t len) {
  int node, local;
  if (cs_platform_locate(pl, rank, &node, &local, NULL) != 0) return -1;
  return cs_topo_host_name(buf, len, node, cs_platform_hosts_per_rank(pl) ? local : -1);
}

int cs_platform_host_count(const cs_platform *pl) {
  switch (pl->topology) {
  case CS_TOPO_FLAT: return pl->np;
  case CS_TOPO_HIER: return cs_platform_hosts_per_rank(pl) ? pl->np : pl->nodes;
  default: return pl->slots;
  }
}

int cs_platform_host_at(const cs_platform *pl, int i, char *buf, size_t len, int *cores,
                        double *speed) {
  if (i < 0 || i >= cs_platform_host_count(pl)) return -1;
  /* speed_attr writes the shortest decimal that reads back as this double */
  *speed = pl->gamma > 0 ? 1.0 / pl->gamma : CS_HUGE_SPEED;
  if (pl->topology == CS_TOPO_FLAT || cs_platform_hosts_per_rank(pl)) {
    *cores = 1; /* write_flat's cluster and write_lane_zone's hosts give no core count */
    return cs_platform_host_name(pl, i, buf, len);
  }
  *cores = pl->ppn; /* write_node_zone's host, write_compact's cluster */
  return cs_topo_host_name(buf, len, i, -1);
}

int cs_platform_parse_host(const char *host, int *node, int *local) {
  return cs_topo_parse_host(host, node, local);
}

/* ------------------------------------------------------------------------------------ */
/* The XML writer.                                                                       */
/* ------------------------------------------------------------------------------------ */

/*
 * Write text inside an XML comment, indented, never emitting "--" (which XML forbids in
 * comments): a dash that follows a dash is written as a space and a dash.
 */
static void comment_text(FILE *f, const char *indent, const char *text) {
  int at_line_start = 1;
  char prev = '\0';
  for (const char *p = text; *p; p++) {
    if (at_line_start && *p != '\n') fputs(indent, f);
    at_line_start = 0;
    if (*p == '-' && prev == '-') fputc(' ', f);
    fputc(*p, f);
    prev = *p;
    if (*p == '\n') {
      at_line_start = 1;
      prev = '\0';
    }
  }
  if (!at_line_start) fputc('\n', f);
}

/*
 * printf into a comment through comment_text, so that the "--" rule always holds.  Lines
 * longer than 90 characters are wrapped at a space, continuing two columns further in.
 */
static void comment_printf(FILE *f, const char *fmt, ...) {
  enum { WIDTH = 90 };
  char buf[4096], out[4608];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  size_t o = 0;
  const char *line = buf;
  while (*line && o + WIDTH + 8 < sizeof out) {
    size_t len = strcspn(line, "\n");
    size_t lead = strspn(line, " ");
    int first = 1;
    while (len > 0 && o + WIDTH + 8 < sizeof out) {
      size_t room = first ? WIDTH : WIDTH - lead - 2;
      size_t take = len;
      if (len > room) {
        take = room;
        while (take > 0 && line[take] != ' ') take--;
        if (take == 0) take = room;
      }
      if (!first) {
        memset(out + o, ' ', lead + 2);
        o += lead + 2;
      }
      memcpy(out + o, line, take);
      o += take;
      out[o++] = '\n';
      while (take < len && line[take] == ' ') take++;
      line += take;
      len -= take;
      first = 0;
    }
    if (first) out[o++] = '\n'; /* An empty line. */
    if (*line == '\n') line++;
  }
  out[o] = '\0';
  comment_text(f, "  ", out);
}

/* The regeneration command, with options written as "option value" (no dashes). */
static void regen_command(const cs_platform *pl, char *buf, size_t len) {
  char a[40], b[40], c[40], d[40], e[40], g[40], h[80], x[40], gc[80] = "";
  const char *kind = kind_names[pl->kind];
  fmt_num(g, sizeof g, pl->gamma);
  if (pl->copy.n == 1 && pl->copy.a[0] == 0) { /* --gamma-copy (calibrated: the comment says) */
    fmt_num(c, sizeof c, pl->copy.b[0]);
    snprintf(gc, sizeof gc, ", gamma-copy %s", c);
  }
  switch (pl->kind) {
  case CS_PLAT_ABG:
    fmt_num(a, sizeof a, pl->alpha);
    fmt_num(b, sizeof b, pl->beta);
    snprintf(buf, len, "collsim platform abg, options: np %d, alpha %s, beta %s, gamma %s%s%s",
             pl->np, a, b, g, gc, pl->half_duplex ? ", duplex half" : "");
    break;
  case CS_PLAT_MAXRATE:
  case CS_PLAT_LANES:
    fmt_num(a, sizeof a, pl->alpha);
    fmt_num(b, sizeof b, pl->Rb);
    fmt_num(c, sizeof c, pl->RN);
    fmt_num(d, sizeof d, pl->alpha_l);
    fmt_num(e, sizeof e, pl->beta_l);
    fmt_num(x, sizeof x, pl->Rx);
    h[0] = '\0';
    if (pl->kind == CS_PLAT_LANES) snprintf(h, sizeof h, ", lanes %d, Rx %s", pl->lanes, x);
    snprintf(buf, len,
             "collsim platform %s, options: nodes %d, ppn %d%s, alpha %s, Rb %s, RN %s, "
             "alpha-l %s, beta-l %s, gamma %s%s",
             kind, pl->nodes, pl->ppn, h, a, b, c, d, e, g, gc);
    break;
  default:
    snprintf(buf, len, "collsim platform %s, options: nodes %d, ppn %d, gamma %s", kind, pl->nodes,
             pl->ppn, g);
    break;
  }
}

/* The calibrated segments on the collsim-model line (only when there are any, so
 * that the line of an uncalibrated platform is unchanged). */
static void write_segments(FILE *f, const cs_platform *pl) {
  char buf[CS_PW_MAX * 80];
  if (pl->net.n > 0) {
    cs_pw_format(&pl->net, buf, sizeof buf);
    fprintf(f, " net=%s", buf);
  }
  if (pl->local.n > 0) {
    cs_pw_format(&pl->local, buf, sizeof buf);
    fprintf(f, " local=%s", buf);
  }
  if (pl->copy.n > 0) {
    cs_pw_format(&pl->copy, buf, sizeof buf);
    fprintf(f, " copy=%s", buf);
  }
}

/* The header comment: facts, sources, picture, cost model, placement and flags. */
static void write_header(FILE *f, const cs_platform *pl) {
  const cs_machine *m = find_machine(pl->kind);
  char cmd[512], a[40], b[40], c[40], d[40], e[40], g[40], x[40];
  regen_command(pl, cmd, sizeof cmd);
  fputs("<!--\n", f);
  comment_printf(f, "collsim platform \"%s\": %d ranks on %d node%s x %d rank%s per node.\n",
                 kind_names[pl->kind], pl->np, pl->nodes, pl->nodes == 1 ? "" : "s", pl->ppn,
                 pl->ppn == 1 ? "" : "s");
  comment_printf(f, "Generated by: %s\n(see platforms/README.md and platforms/regen.sh).\n", cmd);
  /* One machine-readable line for the models (cs_platform_read). */
  fprintf(f,
          "  collsim-model: kind=%s np=%d nodes=%d ppn=%d lanes=%d alpha=%.17g beta=%.17g "
          "gamma=%.17g alpha_l=%.17g beta_l=%.17g Rb=%.17g RN=%.17g Rx=%.17g",
          kind_names[pl->kind], pl->np, pl->nodes, pl->ppn, pl->lanes, pl->alpha, pl->beta,
          pl->gamma, pl->alpha_l, pl->beta_l, pl->Rb, pl->RN, pl->Rx);
  write_segments(f, pl);
  if (pl->half_duplex) fputs(" duplex=half", f);
  fputs("\n\n", f);
  if (m != NULL) {
    comment_text(f, "  ", m->facts);
    fputc('\n', f);
    comment_text(f, "  ", "Topology:\n");
    comment_text(f, "    ", m->picture);
    fputc('\n', f);
  }
  fmt_num(a, sizeof a, pl->alpha);
  fmt_num(b, sizeof b, pl->beta);
  fmt_num(g, sizeof g, pl->gamma);
  fmt_num(d, sizeof d, pl->alpha_l);
  fmt_num(e, sizeof e, pl->beta_l);
  fmt_num(c, sizeof c, pl->Rb);
  fmt_num(x, sizeof x, pl->RN);
  switch (pl->topology) {
  case CS_TOPO_FLAT:
    if (pl->half_duplex) {
      comment_text(f, "  ",
                   "Kind abg, half duplex: a contention-free alpha-beta-gamma machine whose\n"
                   "links carry one direction at a time.\n"
                   "Topology: every host (one per rank) has a private SHARED link of bandwidth\n"
                   "  1/beta and latency alpha/2 to a star centre, used by its messages in both\n"
                   "  directions; there is no backbone:\n"
                   "      node0   node1   node2  ...  node<P-1>\n"
                   "        |       |       |             |      (1/beta, alpha/2, both ways)\n"
                   "        +=======+== star centre ======+\n");
      comment_printf(f,
                     "Cost: one message of m bytes alone takes alpha + beta (m + 16) s (SMPI adds\n"
                     "  a 16-byte envelope); an exchange (Sendrecv) takes alpha + 2 beta (m + 16)\n"
                     "  s, as the two messages share both links (Rabenseifner's f_beta = 1/2).\n"
                     "  alpha = %s s, beta = %s s/byte.\n",
                     a, b);
      break;
    }
    comment_text(f, "  ",
                 "Kind abg: a contention-free, full-duplex alpha-beta-gamma machine.\n"
                 "Topology: every host (one per rank) has a private SPLITDUPLEX link of\n"
                 "  bandwidth 1/beta and latency alpha/2 to a star centre; there is no backbone,\n"
                 "  so no two routes share a resource in the same direction:\n"
                 "      node0   node1   node2  ...  node<P-1>\n"
                 "        |       |       |             |      (1/beta, alpha/2 each way)\n"
                 "        +=======+== star centre ======+\n");
    comment_printf(f,
                   "Cost: one message of m bytes takes alpha + beta (m + 16) s (SMPI adds a\n"
                   "  16-byte envelope); an exchange (Sendrecv) takes the same; disjoint pairs do\n"
                   "  not slow each other down.  alpha = %s s, beta = %s s/byte.\n",
                   a, b);
    break;
  case CS_TOPO_HIER:
    if (m == NULL)
      comment_printf(
          f, "Kind %s: the max-rate model of Bienz, Olson and Gropp (NAP paper, eq. 3)%s.\n",
          kind_names[pl->kind],
          pl->kind == CS_PLAT_LANES
              ? ", with k NICs (lanes) per node after Traff and Hunold (multilane paper)"
              : "");
    if (!cs_platform_hosts_per_rank(pl))
      comment_printf(
          f,
          "Topology: one host per node with %d cores (SMPI groups ranks into nodes by host, so\n"
          "  its node-aware algorithms see the real nodes).  An off-node message crosses the\n"
          "  node's FATPIPE link inj (Rb per flow: flows do not share it), the node's NIC (RN,\n"
          "  shared) and its cable (RN, alpha/2) to a contention-free fabric, then the same\n"
          "  links of the receiving node; an on-node message takes the host's route to itself,\n"
          "  the FATPIPE link loc (alpha_l, 1/beta_l per flow):\n"
          "      fabric (no contention)\n"
          "        |  cable: RN, alpha/2\n"
          "       NIC: RN, SPLITDUPLEX (shared by the node's flows, per direction)\n"
          "        |\n"
          "       inj: Rb, FATPIPE (each flow up to Rb)\n"
          "        |\n"
          "       host node<N>: ppn cores\n"
          "        loc: its route to itself, alpha_l, 1/beta_l, FATPIPE\n"
          "  This equals one host per rank with private links (the layout kept for lanes > 1)\n"
          "  while a rank has at most one message in flight per direction, as the max-rate\n"
          "  model assumes; a rank with two concurrent sends (or receives) gets Rb for each\n"
          "  here, not Rb in all.\n",
          pl->ppn);
    else if (m == NULL) {
      comment_printf(
          f,
          "Topology: one host per rank.  Each (node, lane) is a zone: its ranks each have an\n"
          "  injection link (Rb) to the lane's NIC (RN) and a link (alpha_l/2, 1/beta_l) to the\n"
          "  lane's memory router; the NIC's cable (RN, alpha/2) leads to a contention-free\n"
          "  fabric; %s\n"
          "      fabric (no contention)\n"
          "        |  cable: RN, alpha/2\n"
          "       NIC: RN%s\n"
          "        |\n"
          "   +== node N, lane l =====================+\n"
          "   | rank j: inj link (Rb) to the NIC       |\n"
          "   |         loc link to the memory router  |\n"
          "   +========================================+\n",
          pl->lanes > 1 ? "the lanes of a node are joined in pairs by links of bandwidth Rx."
                        : "one lane per node.",
          pl->lanes > 1 ? " (one per lane; a node has lanes NICs)" : "");
    }
    comment_printf(
        f,
        "Cost: k ranks of one lane each sending m bytes off-node at once take\n"
        "  alpha + k (m + 16) / min(RN, k Rb) s (the max-rate model, RN per NIC);\n"
        "  an intra-node message takes alpha_l + beta_l (m + 16) s%s.\n"
        "  alpha = %s s, Rb = %s B/s, RN = %s B/s per NIC,\n"
        "  alpha_l = %s s, beta_l = %s s/byte,",
        pl->lanes > 1 ? "; between two lanes\n  of a node the link Rx also bounds its rate" : "", a,
        c, x, d, e);
    if (pl->lanes > 1) {
      char r[40];
      fmt_num(r, sizeof r, pl->Rx);
      comment_printf(f, "  lanes = %d, Rx = %s B/s.\n", pl->lanes, r);
    } else {
      comment_printf(f, "  lanes = 1.\n");
    }
    break;
  case CS_TOPO_FAT_TREE:
  case CS_TOPO_DRAGONFLY: {
    char bw[40], lat[40];
    fmt_num(bw, sizeof bw, pl->link_bw);
    fmt_num(lat, sizeof lat, pl->link_lat);
    comment_printf(
        f,
        "Cost: a message of m bytes between nodes takes h link_lat + (m + 16) / link_bw s,\n"
        "  where h is the number of links of its route (2 between nodes on one %s,\n"
        "  which gives alpha = %s s); within a node alpha_l + beta_l (m + 16) s on the\n"
        "  loopback link.\n"
        "  link_bw = %s B/s, link_lat = %s s, alpha_l = %s s, beta_l = %s s/byte.\n"
        "  SimGrid %s topo_parameters=\"%s\": %d node slots, of which the\n"
        "  job uses the first %d.\n"
        "  Note: SMPI shares a link among flows in proportion to 1/(route latency), so flows of\n"
        "  different hop counts do not get equal shares.\n",
        pl->topology == CS_TOPO_FAT_TREE ? "leaf switch" : "router", a, bw, lat, d, e,
        pl->topology == CS_TOPO_FAT_TREE ? "FAT_TREE" : "DRAGONFLY", pl->topo_parameters, pl->slots,
        pl->nodes);
    break;
  }
  }
  comment_printf(
      f,
      "Local work: host speed 1/gamma flop/s, so smpi_execute_flops(b) charges gamma b s;\n"
      "  gamma = %s s/byte%s.\n\n",
      g, pl->gamma == 0 ? " (written as a speed of 1e30 flop/s)" : "");
  if (cs_platform_hosts_per_rank(pl))
    comment_printf(
        f,
        "Ranks and hosts: rank r runs on host node<N>-<j> with N = r / %d (node) and\n"
        "  j = r mod %d (local rank); its lane (socket, NIC) is j mod %d.  Hosts carry the\n"
        "  properties node, lane and local.  MPI_Get_processor_name returns the host name.\n"
        "  One host per rank, because a rank's host ties it to its lane's NIC: SMPI then\n"
        "  sees one-rank nodes (its node-aware algorithms run flat).\n",
        pl->ppn, pl->ppn, pl->lanes);
  else if (pl->topology == CS_TOPO_FLAT)
    comment_printf(f,
                   "Ranks and hosts: rank r runs alone on host node<r>.  MPI_Get_processor_name\n"
                   "  returns the host name.\n");
  else
    comment_printf(
        f,
        "Ranks and hosts: one host node<N> per node with %d cores; rank r runs on node\n"
        "  r / %d (block placement, hostfile line r).  MPI_Get_processor_name returns the\n"
        "  host name; MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) groups a node's ranks%s.\n",
        pl->ppn, pl->ppn,
        pl->topology == CS_TOPO_HIER ? "; the host carries the properties node and lane" : "");
  comment_printf(
      f,
      "\nsmpirun needs the hostfile (-hostfile) and, for exact costs, the options below,\n"
      "each written with two leading dashes (XML comments cannot hold two dashes):\n"
      "  cfg=network/model:CM02 cfg=network/crosstraffic:0 cfg=network/TCP-gamma:1e15\n"
      "  cfg=smpi/wtime:0 cfg=smpi/simulate-computation:no\n"
      "  cfg=smpi/send-is-detached-thresh:0 (every send rendezvous: a send completes\n"
      "  when its data has arrived; much faster for thousands of ranks)\n"
      "The config section below already makes smpirun's default SMPI model exact.\n");
  fputs("-->\n", f);
}

/* SimGrid's piecewise factors for the network segments: an m-byte message is
 * looked up with its envelope (m + 16 bytes), a threshold's factor applies to
 * sizes strictly above it, and segment i's message costs
 * lat_i alpha + (m + 16) beta / bw_i = a_i + b_i m (pwcost.h) with
 * lat_i = (a_i - 16 b_i) / alpha and bw_i = beta / b_i. */
static void net_factors(const cs_platform *pl, int bw, char *buf, size_t len) {
  size_t n = 0;
  for (int i = 0; i < pl->net.n; i++) {
    double a = pl->net.a[i], b = pl->net.b[i];
    double v = bw ? pl->beta / b : (a - CS_SMPI_ENVELOPE * b) / pl->alpha;
    n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, "%s%.0f:%.17g",
                          i ? ";" : "", i ? pl->net.from[i] + CS_SMPI_ENVELOPE : 0.0, v);
  }
}

static void write_config(FILE *f, const cs_platform *pl) {
  char seg[CS_PW_MAX * 48];
  fputs("  <config>\n", f);
  for (size_t i = 0; i < sizeof config_props / sizeof config_props[0]; i++) {
    const char *v = config_props[i][1];
    int bw = strcmp(config_props[i][0], "smpi/bw-factor") == 0;
    if (pl->net.n > 0 && (bw || strcmp(config_props[i][0], "smpi/lat-factor") == 0)) {
      net_factors(pl, bw, seg, sizeof seg);
      v = seg;
    }
    fprintf(f, "    <prop id=\"%s\" value=\"%s\"/>\n", config_props[i][0], v);
  }
  /* One host per node (write_node_zone) caps flows with FATPIPE links.  SimGrid 3.32's
   * default lazy network update then gets some flows wrong after a run of unequal flows
   * (measured: a 100-byte butterfly reduce_scatter on maxrate 2 x 4 timed after a 1-byte
   * one took 16 / RN s less than the max-rate model and the per-rank layout); the full
   * update gives the per-rank layout's times. */
  if (pl->topology == CS_TOPO_HIER && !cs_platform_hosts_per_rank(pl))
    fputs("    <prop id=\"network/optim\" value=\"Full\"/>\n", f);
  /* Fat trees and dragonflies: where routes of different lengths share links, the lazy
   * update gives some flows stale rates (irene, 1024 ranks, circulant allreduce 1 KiB:
   * 0.49% off the full update, and a row's time depended on the rows simulated before it);
   * the full one equals the fluid evaluator there, at the lazy one's cost
   * (benchmarks/network_optim.sh; docs/models.md). */
  if (pl->topology == CS_TOPO_FAT_TREE || pl->topology == CS_TOPO_DRAGONFLY)
    fputs("    <prop id=\"network/optim\" value=\"Full\"/>\n", f);
  fputs("  </config>\n", f);
}

static void speed_attr(char *buf, size_t len, const cs_platform *pl) {
  num(buf, len, pl->gamma > 0 ? 1.0 / pl->gamma : CS_HUGE_SPEED, "f");
}

/* The calibrated local work as host properties (algos/local.c charges from them):
 * each one as indent<prop .../>end. */
static void local_props(FILE *f, const cs_platform *pl, const char *indent, const char *end) {
  const struct {
    const char *prop;
    const cs_pw *pw;
  } props[2] = {{CS_LOCAL_PROP, &pl->local}, {CS_LOCAL_COPY_PROP, &pl->copy}};
  char seg[CS_PW_MAX * 80];
  for (int i = 0; i < 2; i++) {
    if (props[i].pw->n == 0) continue;
    cs_pw_format(props[i].pw, seg, sizeof seg);
    fprintf(f, "%s<prop id=\"%s\" value=\"%s\"/>%s", indent, props[i].prop, seg, end);
  }
}

static void write_flat(FILE *f, const cs_platform *pl) {
  char speed[48], bw[48], lat[48];
  speed_attr(speed, sizeof speed, pl);
  fprintf(f,
          "  <cluster id=\"abg\" prefix=\"node\" suffix=\"\" radical=\"0-%d\" speed=\"%s\"\n"
          "           bw=\"%s\" lat=\"%s\" sharing_policy=\"%s\"",
          pl->np - 1, speed, num(bw, sizeof bw, 1.0 / pl->beta, "Bps"),
          num(lat, sizeof lat, pl->alpha / 2, "s"), pl->half_duplex ? "SHARED" : "SPLITDUPLEX");
  if (pl->local.n > 0 || pl->copy.n > 0) {
    /* SimGrid gives a cluster's properties to each of its hosts. */
    fputs(">\n", f);
    local_props(f, pl, "    ", "\n");
    fputs("  </cluster>\n", f);
  } else {
    fputs("/>\n", f);
  }
}

/* The zone holding the ranks of lane l of node n (hier topology). */
static void write_lane_zone(FILE *f, const cs_platform *pl, int n, int l, const char *speed,
                            const char *rb, const char *rn, const char *lbw, const char *llat) {
  fprintf(f, "    <zone id=\"node%d_lane%d\" routing=\"Floyd\">\n", n, l);
  fprintf(f, "      <router id=\"node%d_lane%d_mem\"/>\n", n, l);
  fprintf(f, "      <router id=\"node%d_lane%d_gw\"/>\n", n, l);
  for (int j = l; j < pl->ppn; j += pl->lanes) {
    fprintf(f,
            "      <host id=\"node%d-%d\" speed=\"%s\"><prop id=\"node\" value=\"%d\"/>"
            "<prop id=\"lane\" value=\"%d\"/><prop id=\"local\" value=\"%d\"/>",
            n, j, speed, n, l, j);
    local_props(f, pl, "", "");
    fputs("</host>\n", f);
  }
  fprintf(f,
          "      <link id=\"node%d_lane%d_nic\" bandwidth=\"%s\" latency=\"0s\""
          " sharing_policy=\"SPLITDUPLEX\"/>\n",
          n, l, rn);
  for (int j = l; j < pl->ppn; j += pl->lanes) {
    fprintf(f,
            "      <link id=\"node%d-%d_loc\" bandwidth=\"%s\" latency=\"%s\""
            " sharing_policy=\"SPLITDUPLEX\"/>\n",
            n, j, lbw, llat);
    fprintf(f,
            "      <link id=\"node%d-%d_inj\" bandwidth=\"%s\" latency=\"0s\""
            " sharing_policy=\"SPLITDUPLEX\"/>\n",
            n, j, rb);
  }
  for (int j = l; j < pl->ppn; j += pl->lanes) {
    fprintf(f,
            "      <route src=\"node%d-%d\" dst=\"node%d_lane%d_mem\">"
            "<link_ctn id=\"node%d-%d_loc\" direction=\"UP\"/></route>\n",
            n, j, n, l, n, j);
    fprintf(f,
            "      <route src=\"node%d-%d\" dst=\"node%d_lane%d_gw\">"
            "<link_ctn id=\"node%d-%d_inj\" direction=\"UP\"/>"
            "<link_ctn id=\"node%d_lane%d_nic\" direction=\"UP\"/></route>\n",
            n, j, n, l, n, j, n, l);
  }
  fputs("    </zone>\n", f);
}

/*
 * The zone of node n when it has one lane: ONE host node<n> with ppn cores, so that SMPI
 * (which groups ranks into nodes by host) sees the node.  What the per-rank links of
 * write_lane_zone did is done per flow, which is the same as long as a rank has at most
 * one message in flight in each direction (the max-rate model's assumption):
 *   - off-node, a flow crosses the FATPIPE link inj (Rb: every flow through a FATPIPE link
 *     gets up to its bandwidth, flows do not share it), then the node's SPLITDUPLEX NIC
 *     (RN, shared by the node's flows in one direction); k concurrent flows thus get
 *     min(Rb, RN / k) each, and the receiving node's inj and NIC bound it the same way;
 *   - within the node, a message takes the explicit route from the host to itself over
 *     the FATPIPE link loc (latency alpha_l, bandwidth 1/beta_l per flow).
 * The total latency of a route is unchanged (alpha off-node, alpha_l on-node), so SMPI's
 * latency-weighted sharing is too.
 */
static void write_node_zone(FILE *f, const cs_platform *pl, int n, const char *speed,
                            const char *rb, const char *rn, const char *lbw, const char *alat) {
  fprintf(f, "    <zone id=\"node%d_lane0\" routing=\"Floyd\">\n", n);
  fprintf(f, "      <router id=\"node%d_lane0_gw\"/>\n", n);
  fprintf(f,
          "      <host id=\"node%d\" speed=\"%s\" core=\"%d\"><prop id=\"node\" value=\"%d\"/>"
          "<prop id=\"lane\" value=\"0\"/>",
          n, speed, pl->ppn, n);
  local_props(f, pl, "", "");
  fputs("</host>\n", f);
  fprintf(f,
          "      <link id=\"node%d_lane0_nic\" bandwidth=\"%s\" latency=\"0s\""
          " sharing_policy=\"SPLITDUPLEX\"/>\n",
          n, rn);
  fprintf(f,
          "      <link id=\"node%d_inj\" bandwidth=\"%s\" latency=\"0s\""
          " sharing_policy=\"FATPIPE\"/>\n",
          n, rb);
  fprintf(f,
          "      <link id=\"node%d_loc\" bandwidth=\"%s\" latency=\"%s\""
          " sharing_policy=\"FATPIPE\"/>\n",
          n, lbw, alat);
  fprintf(
      f,
      "      <route src=\"node%d\" dst=\"node%d\" symmetrical=\"NO\"><link_ctn id=\"node%d_loc\"/>"
      "</route>\n",
      n, n, n);
  fprintf(f,
          "      <route src=\"node%d\" dst=\"node%d_lane0_gw\"><link_ctn id=\"node%d_inj\"/>"
          "<link_ctn id=\"node%d_lane0_nic\" direction=\"UP\"/></route>\n",
          n, n, n, n);
  fputs("    </zone>\n", f);
}

static void write_hier(FILE *f, const cs_platform *pl) {
  char speed[48], rb[48], rn[48], rx[48], lbw[48], llat[48], wlat[48], alat[48];
  speed_attr(speed, sizeof speed, pl);
  num(rb, sizeof rb, pl->Rb, "Bps");
  num(rn, sizeof rn, pl->RN, "Bps");
  num(rx, sizeof rx, pl->Rx, "Bps");
  num(lbw, sizeof lbw, 1.0 / pl->beta_l, "Bps");
  num(llat, sizeof llat, pl->alpha_l / 2, "s");
  num(wlat, sizeof wlat, pl->alpha / 2, "s");
  fputs("  <zone id=\"world\" routing=\"DijkstraCache\">\n", f);
  fputs(
      "    <zone id=\"fabric\" routing=\"Full\">\n"
      "      <router id=\"fabric_switch\"/>\n"
      "    </zone>\n",
      f);
  num(alat, sizeof alat, pl->alpha_l, "s");
  for (int n = 0; n < pl->nodes; n++) {
    for (int l = 0; l < pl->lanes; l++) {
      if (cs_platform_hosts_per_rank(pl))
        write_lane_zone(f, pl, n, l, speed, rb, rn, lbw, llat);
      else
        write_node_zone(f, pl, n, speed, rb, rn, lbw, alat);
      fprintf(f,
              "    <link id=\"node%d_lane%d_cable\" bandwidth=\"%s\" latency=\"%s\""
              " sharing_policy=\"SPLITDUPLEX\"/>\n",
              n, l, rn, wlat);
    }
    for (int l = 0; l < pl->lanes; l++)
      for (int l2 = l + 1; l2 < pl->lanes; l2++)
        fprintf(f,
                "    <link id=\"node%d_x%d_%d\" bandwidth=\"%s\" latency=\"0s\""
                " sharing_policy=\"SPLITDUPLEX\"/>\n",
                n, l, l2, rx);
  }
  for (int n = 0; n < pl->nodes; n++) {
    for (int l = 0; l < pl->lanes; l++)
      fprintf(f,
              "    <zoneRoute src=\"node%d_lane%d\" dst=\"fabric\" gw_src=\"node%d_lane%d_gw\""
              " gw_dst=\"fabric_switch\"><link_ctn id=\"node%d_lane%d_cable\" direction=\"UP\"/>"
              "</zoneRoute>\n",
              n, l, n, l, n, l);
    for (int l = 0; l < pl->lanes; l++)
      for (int l2 = l + 1; l2 < pl->lanes; l2++)
        fprintf(f,
                "    <zoneRoute src=\"node%d_lane%d\" dst=\"node%d_lane%d\""
                " gw_src=\"node%d_lane%d_mem\" gw_dst=\"node%d_lane%d_mem\">"
                "<link_ctn id=\"node%d_x%d_%d\" direction=\"UP\"/></zoneRoute>\n",
                n, l, n, l2, n, l, n, l2, n, l, l2);
  }
  fputs("  </zone>\n", f);
}

static void write_compact(FILE *f, const cs_platform *pl) {
  char speed[48], bw[48], lat[48], lbw[48], llat[48];
  speed_attr(speed, sizeof speed, pl);
  fprintf(f,
          "  <cluster id=\"%s\" prefix=\"node\" suffix=\"\" radical=\"0-%d\" speed=\"%s\""
          " core=\"%d\"\n"
          "           bw=\"%s\" lat=\"%s\" sharing_policy=\"SPLITDUPLEX\"\n"
          "           topology=\"%s\" topo_parameters=\"%s\"\n"
          "           loopback_bw=\"%s\" loopback_lat=\"%s\"/>\n",
          kind_names[pl->kind], pl->slots - 1, speed, pl->ppn,
          num(bw, sizeof bw, pl->link_bw, "Bps"), num(lat, sizeof lat, pl->link_lat, "s"),
          pl->topology == CS_TOPO_FAT_TREE ? "FAT_TREE" : "DRAGONFLY", pl->topo_parameters,
          num(lbw, sizeof lbw, 1.0 / pl->beta_l, "Bps"), num(llat, sizeof llat, pl->alpha_l, "s"));
}

int cs_platform_write(FILE *xml, FILE *hostfile, const cs_platform *pl) {
  cs_platform copy;
  if (xml == NULL || pl == NULL) return -1;
  /* Work on a checked copy, so that the derived fields are always consistent. */
  copy = *pl;
  if (cs_platform_check(&copy, NULL, 0) != 0) return -1;
  pl = &copy;
  write_header(xml, pl);
  fputs("<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n", xml);
  fputs("<platform version=\"4.1\">\n", xml);
  write_config(xml, pl);
  switch (pl->topology) {
  case CS_TOPO_FLAT: write_flat(xml, pl); break;
  case CS_TOPO_HIER: write_hier(xml, pl); break;
  case CS_TOPO_FAT_TREE:
  case CS_TOPO_DRAGONFLY: write_compact(xml, pl); break;
  }
  fputs("</platform>\n", xml);
  if (fflush(xml) != 0 || ferror(xml)) return -1;
  if (hostfile != NULL) {
    char name[64];
    for (int r = 0; r < pl->np; r++) {
      if (cs_platform_host_name(pl, r, name, sizeof name) != 0) return -1;
      fprintf(hostfile, "%s\n", name);
    }
    if (fflush(hostfile) != 0 || ferror(hostfile)) return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------------------------ */
/* The CLI.                                                                              */
/* ------------------------------------------------------------------------------------ */

static void usage(FILE *f) {
  fprintf(
      f,
      "usage: collsim platform KIND [options]\n"
      "       collsim platform --print-flags\n"
      "Writes a SimGrid platform (XML, version 4.1) and optionally an smpirun hostfile.\n"
      "KIND is one of:\n"
      "  abg         contention-free full-duplex alpha-beta-gamma machine, one rank per host\n"
      "  maxrate     max-rate machine (per-process rate Rb, per-node NIC rate RN)\n"
      "  lanes       k-lane machine (k NICs per node, ranks alternate over them)\n"
      "  hydra irene theta vsc3 bluewaters   named machines\n"
      "Options ('--opt value' or '--opt=value'): plain numbers are in SI units (s, s/byte,\n"
      "bytes/s); SimGrid's units are accepted too: times 1us, 0.5ms, 200ns; rates 10GBps,\n"
      "100Gbps, 1GiBps; an s/byte option takes a rate and inverts it (--beta 10GBps = 1e-10)\n"
      "  all kinds:        --out FILE (default stdout)  --hostfile FILE  --gamma S_PER_BYTE\n"
      "  abg:              --np P (8)  --alpha S (1e-6)  --beta S_PER_BYTE (1e-10)\n"
      "                    --duplex full|half (full: SPLITDUPLEX links; half: SHARED, an\n"
      "                    exchange costs alpha + 2 beta m, a one-way message alpha + beta m)\n"
      "  abg, maxrate, lanes: --gamma-copy S_PER_BYTE (a local copy's cost; default: gamma)\n"
      "  maxrate, lanes:   --nodes N (4)  --ppn n (8)  --alpha S (1e-6)  --Rb BPS\n"
      "                    (5e9; lanes 12.5e9)  --RN BPS (12.5e9, per NIC)  --alpha-l S (2e-7)\n"
      "                    --beta-l S_PER_BYTE (5e-11)\n"
      "  lanes only:       --lanes k (2)  --Rx BPS (5e10, link between two lanes of a node)\n"
      "  named machines:   --nodes N  --ppn n\n"
      "  maxrate, lanes, hydra, vsc3: --one-host-per-node  one host of ppn cores per node, its\n"
      "                    lanes merged into one NIC, so SMPI's node-aware library algorithms\n"
      "                    see the nodes (otherwise each rank is its own host when lanes > 1)\n"
      "  --print-flags     print the smpirun options needed for exact costs, then exit\n"
      "gamma defaults to 2.5e-10; gamma 0 makes local work free (host speed 1e30 flop/s).\n");
}

/* The options each kind accepts, as a bit set. */
enum {
  OPT_NP = 1 << 0,
  OPT_ALPHA = 1 << 1,
  OPT_BETA = 1 << 2,
  OPT_GAMMA = 1 << 3,
  OPT_NODES = 1 << 4,
  OPT_PPN = 1 << 5,
  OPT_LANES = 1 << 6,
  OPT_RB = 1 << 7,
  OPT_RN = 1 << 8,
  OPT_ALPHA_L = 1 << 9,
  OPT_BETA_L = 1 << 10,
  OPT_RX = 1 << 11,
  OPT_GAMMA_COPY = 1 << 12
};

/* is_int: 1 an integer; 0 a number of dimension dim: 't' a time (s),
 * 'r' a rate (bytes/s), 'i' an inverse rate (s/byte; a rate with its unit is
 * inverted, "--beta 10GBps" = 1e-10). */
static const struct {
  const char *name;
  int bit;
  int is_int;
  char dim;
} option_table[] = {{"np", OPT_NP, 1, 0},
                    {"alpha", OPT_ALPHA, 0, 't'},
                    {"beta", OPT_BETA, 0, 'i'},
                    {"gamma", OPT_GAMMA, 0, 'i'},
                    {"nodes", OPT_NODES, 1, 0},
                    {"ppn", OPT_PPN, 1, 0},
                    {"lanes", OPT_LANES, 1, 0},
                    {"Rb", OPT_RB, 0, 'r'},
                    {"RN", OPT_RN, 0, 'r'},
                    {"alpha-l", OPT_ALPHA_L, 0, 't'},
                    {"beta-l", OPT_BETA_L, 0, 'i'},
                    {"Rx", OPT_RX, 0, 'r'},
                    {"gamma-copy", OPT_GAMMA_COPY, 0, 'i'}};

static int allowed_options(cs_platform_kind kind) {
  switch (kind) {
  case CS_PLAT_ABG: return OPT_NP | OPT_ALPHA | OPT_BETA | OPT_GAMMA | OPT_GAMMA_COPY;
  case CS_PLAT_MAXRATE:
    return OPT_NODES | OPT_PPN | OPT_ALPHA | OPT_RB | OPT_RN | OPT_ALPHA_L | OPT_BETA_L |
           OPT_GAMMA | OPT_GAMMA_COPY;
  case CS_PLAT_LANES:
    return OPT_NODES | OPT_PPN | OPT_LANES | OPT_ALPHA | OPT_RB | OPT_RN | OPT_ALPHA_L |
           OPT_BETA_L | OPT_RX | OPT_GAMMA | OPT_GAMMA_COPY;
  default: return OPT_NODES | OPT_PPN | OPT_GAMMA;
  }
}

/* Write the names of the options in a bit set, as "--np, --alpha, ...". */
static void options_list(int bits, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof option_table / sizeof option_table[0] && used < len; i++) {
    if (!(bits & option_table[i].bit)) continue;
    int n = snprintf(buf + used, len - used, "%s--%s", used ? ", " : "", option_table[i].name);
    if (n < 0) break;
    used += (size_t)n;
  }
  if (used < len)
    snprintf(buf + used, len - used, "%s, --out, --hostfile",
             (bits & OPT_NP) ? ", --duplex" : ""); /* --duplex: abg, the kind with --np */
}

/* Parse a whole string as an int. */
static int parse_int(const char *s, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno == ERANGE || v < -2147483647L || v > 2147483647L) return -1;
  *out = (int)v;
  return 0;
}

/* Store a parsed option value into the platform description. */
static void apply_option(cs_platform *pl, int bit, double dv, int iv) {
  switch (bit) {
  case OPT_NP: pl->np = iv; break;
  case OPT_ALPHA: pl->alpha = dv; break;
  case OPT_BETA: pl->beta = dv; break;
  case OPT_GAMMA: pl->gamma = dv; break;
  case OPT_NODES: pl->nodes = iv; break;
  case OPT_PPN: pl->ppn = iv; break;
  case OPT_LANES: pl->lanes = iv; break;
  case OPT_RB: pl->Rb = dv; break;
  case OPT_RN: pl->RN = dv; break;
  case OPT_ALPHA_L: pl->alpha_l = dv; break;
  case OPT_BETA_L: pl->beta_l = dv; break;
  case OPT_RX: pl->Rx = dv; break;
  case OPT_GAMMA_COPY: /* one segment through 0: copies cost gamma-copy per byte */
    memset(&pl->copy, 0, sizeof pl->copy);
    pl->copy.n = 1;
    pl->copy.b[0] = dv;
    break;
  default: break;
  }
}

static int bad_usage(const char *fmt, ...) {
  va_list ap;
  fputs("collsim platform: ", stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\n(run 'collsim platform --help' for the usage)\n", stderr);
  return 2;
}

int cs_platform_main(int argc, char **argv) {
  char err[512], list[512];
  cs_platform pl;
  const char *out = NULL, *hostfile = NULL;
  int one_host_per_node = 0;

  if (argc < 2)
    return bad_usage(
        "missing KIND; valid kinds: abg, maxrate, lanes, hydra, irene, theta, "
        "vsc3, bluewaters");
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--print-flags") == 0) {
    printf("%s\n", smpirun_flags);
    return 0;
  }
  if (cs_platform_init(argv[1], &pl, err, sizeof err) != 0) return bad_usage("%s", err);

  int allowed = allowed_options(pl.kind);
  for (int i = 2; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(arg, "--print-flags") == 0) {
      printf("%s\n", smpirun_flags);
      return 0;
    }
    if (strcmp(arg, "--one-host-per-node") == 0) {
      one_host_per_node = 1;
      continue;
    }
    if (strncmp(arg, "--", 2) != 0) {
      options_list(allowed, list, sizeof list);
      return bad_usage("unexpected argument '%s' for kind %s; valid options: %s", arg,
                       kind_names[pl.kind], list);
    }
    /* Split "--name=value" or take the value from the next argument. */
    char name[32];
    const char *value;
    const char *eq = strchr(arg + 2, '=');
    size_t nlen = eq ? (size_t)(eq - (arg + 2)) : strlen(arg + 2);
    if (nlen >= sizeof name) {
      options_list(allowed, list, sizeof list);
      return bad_usage("unknown option '%s' for kind %s; valid options: %s", arg,
                       kind_names[pl.kind], list);
    }
    memcpy(name, arg + 2, nlen);
    name[nlen] = '\0';
    for (char *p = name; *p; p++)
      if (*p == '_') *p = '-';
    if (eq) {
      value = eq + 1;
    } else {
      if (i + 1 >= argc) return bad_usage("option --%s needs a value", name);
      value = argv[++i];
    }
    if (strcmp(name, "out") == 0) {
      out = value;
      continue;
    }
    if (strcmp(name, "hostfile") == 0) {
      hostfile = value;
      continue;
    }
    if (strcmp(name, "duplex") == 0) {
      if (pl.kind != CS_PLAT_ABG)
        return bad_usage("option --duplex is valid for kind abg only (got kind %s)",
                         kind_names[pl.kind]);
      if (strcmp(value, "full") != 0 && strcmp(value, "half") != 0)
        return bad_usage("option --duplex needs full or half, got '%s'", value);
      pl.half_duplex = strcmp(value, "half") == 0;
      continue;
    }
    size_t k;
    for (k = 0; k < sizeof option_table / sizeof option_table[0]; k++)
      if (strcmp(name, option_table[k].name) == 0) break;
    if (k == sizeof option_table / sizeof option_table[0] || !(allowed & option_table[k].bit)) {
      options_list(allowed, list, sizeof list);
      return bad_usage("option --%s is not valid for kind %s; valid options: %s", name,
                       kind_names[pl.kind], list);
    }
    double dv = 0;
    int iv = 0;
    char dim = option_table[k].dim;
    if (option_table[k].is_int ? parse_int(value, &iv) : cs_parse_unit(value, dim, &dv))
      return bad_usage("option --%s needs %s, got '%s'", name,
                       option_table[k].is_int ? "an integer" : cs_unit_help(dim), value);
    apply_option(&pl, option_table[k].bit, dv, iv);
  }
  if (cs_platform_check(&pl, err, sizeof err) != 0) return bad_usage("%s", err);
  if (one_host_per_node) {
    cs_platform whole = pl;
    if (cs_platform_one_host_per_node(&whole, &pl, err, sizeof err) != 0)
      return bad_usage("%s", err);
  }

  FILE *xf = stdout, *hf = NULL;
  if (out != NULL && (xf = fopen(out, "w")) == NULL) {
    fprintf(stderr, "collsim platform: cannot write %s: %s\n", out, strerror(errno));
    return 1;
  }
  if (hostfile != NULL && (hf = fopen(hostfile, "w")) == NULL) {
    fprintf(stderr, "collsim platform: cannot write %s: %s\n", hostfile, strerror(errno));
    if (xf != stdout) fclose(xf);
    return 1;
  }
  int rc = cs_platform_write(xf, hf, &pl);
  if (xf != stdout && fclose(xf) != 0) rc = -1;
  if (hf != NULL && fclose(hf) != 0) rc = -1;
  if (rc != 0) {
    fprintf(stderr, "collsim platform: write failed\n");
    return 1;
  }
  return 0;
}

int cs_platform_read(const char *path, cs_platform *pl, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    snprintf(err, errlen, "cannot open platform file %s", path);
    return -1;
  }
  char line[4096], kind[64];
  int found = 0;
  for (int n = 0; n < 400 && fgets(line, sizeof line, f) != NULL; n++) {
    const char *m = strstr(line, "collsim-model:");
    if (m == NULL) continue;
    memset(pl, 0, sizeof *pl);
    if (sscanf(m,
               "collsim-model: kind=%63s np=%d nodes=%d ppn=%d lanes=%d alpha=%lg beta=%lg "
               "gamma=%lg alpha_l=%lg beta_l=%lg Rb=%lg RN=%lg Rx=%lg",
               kind, &pl->np, &pl->nodes, &pl->ppn, &pl->lanes, &pl->alpha, &pl->beta, &pl->gamma,
               &pl->alpha_l, &pl->beta_l, &pl->Rb, &pl->RN, &pl->Rx) == 13) {
      found = 1;
      const char *net = strstr(m, " net="), *loc = strstr(m, " local="), *cpy = strstr(m, " copy=");
      if ((net != NULL && cs_pw_parse(net + 5, &pl->net) != 0) ||
          (loc != NULL && cs_pw_parse(loc + 7, &pl->local) != 0) ||
          (cpy != NULL && cs_pw_parse(cpy + 6, &pl->copy) != 0)) {
        snprintf(err, errlen, "%s: malformed segments on its collsim-model line", path);
        fclose(f);
        return -1;
      }
      for (int k = 0; k < CS_PLAT_NKINDS; k++)
        if (strcmp(kind_names[k], kind) == 0) pl->kind = (cs_platform_kind)k;
      pl->half_duplex = strstr(m, " duplex=half") != NULL;
      /* The kind decides the network description, as in cs_platform_check. */
      const cs_machine *mach = find_machine(pl->kind);
      pl->topology =
          mach != NULL ? mach->topology : (pl->kind == CS_PLAT_ABG ? CS_TOPO_FLAT : CS_TOPO_HIER);
    }
    break;
  }
  fclose(f);
  if (!found) {
    snprintf(err, errlen,
             "%s has no 'collsim-model:' line (it was not written by `collsim platform`), so "
             "its model parameters are unknown; regenerate it with `collsim platform`, or give "
             "the model explicitly (--model abg --alpha A --beta B --gamma G)",
             path);
    return -1;
  }
  return 0;
}

int cs_platform_read_generated(const char *path, cs_platform *pl) {
  cs_platform r;
  if (cs_platform_read(path, &r, NULL, 0) != 0) return -1;
  return cs_platform_is_generated(path, &r, pl);
}

int cs_platform_is_generated(const char *path, const cs_platform *line, cs_platform *pl) {
  cs_platform r = *line, g;
  if (cs_platform_init(kind_names[r.kind], &g, NULL, 0) != 0) return -1;
  /* The kind's defaults (a compact machine's links, which the line does not
   * carry), then everything the line says. */
  g.np = r.np;
  g.nodes = r.nodes;
  g.ppn = r.ppn;
  g.lanes = r.lanes;
  g.alpha = r.alpha;
  g.beta = r.beta;
  g.gamma = r.gamma;
  g.alpha_l = r.alpha_l;
  g.beta_l = r.beta_l;
  g.Rb = r.Rb;
  g.RN = r.RN;
  g.Rx = r.Rx;
  g.net = r.net;
  g.local = r.local;
  g.copy = r.copy;
  g.half_duplex = r.half_duplex;
  if (cs_platform_check(&g, NULL, 0) != 0) return -1;
  /* Written anew into a temporary file (standard C: this module needs no POSIX),
   * then compared. */
  enum { CHUNK = 65536 };
  FILE *m = tmpfile(), *f = NULL;
  char *a = malloc(2 * CHUNK);
  int rc = a != NULL && m != NULL && cs_platform_write(m, NULL, &g) == 0 &&
                   fseek(m, 0, SEEK_SET) == 0 && (f = fopen(path, "rb")) != NULL
               ? 0
               : -1;
  size_t na, nb;
  while (rc == 0 && (na = fread(a, 1, CHUNK, m), nb = fread(a + CHUNK, 1, CHUNK, f), na + nb > 0))
    if (na != nb || memcmp(a, a + CHUNK, na) != 0) rc = -1;
  if (rc == 0 && (ferror(m) || ferror(f))) rc = -1;
  if (m != NULL) fclose(m);
  if (f != NULL) fclose(f);
  free(a);
  if (rc == 0) *pl = g;
  return rc;
}
