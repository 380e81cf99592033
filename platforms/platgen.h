/*
 * platgen.h: the SimGrid/SMPI platform generator of collsim.
 *
 * The generator writes SimGrid platform files (XML, DTD version 4.1) and smpirun hostfiles
 * for the platform kinds collsim simulates on: a contention-free alpha-beta-gamma machine
 * ("abg"), a max-rate machine after Bienz, Olson and Gropp ("maxrate"), a k-lane machine
 * after Traff and Hunold ("lanes"), and parameter sets of five published machines ("hydra",
 * "irene", "theta", "vsc3", "bluewaters").  The output depends only on the parameters, so
 * the same arguments always give byte-identical files.
 *
 * Host naming convention (the way a program learns where a rank runs, for instance with
 * MPI_Get_processor_name, which SMPI answers with the SimGrid host name):
 *   - "node<N>-<j>": one host per rank of a node with more than one lane (lanes, hydra and
 *     vsc3 with ppn > 1: a rank's host ties it to its lane's NIC).  N is the node index and j the
 * local rank on that node; rank r = N * ppn + j.  These hosts also carry the properties "node",
 * "lane" and "local" (lane = j mod lanes: ranks alternate over the sockets/NICs of a node), which
 * an SMPI program reads with sg_host_get_property_value(sg_host_self(), "lane").
 *   - "node<N>": one host per node whose cores are shared by the node's ranks (irene,
 *     theta, and the hier kinds with one lane: maxrate, bluewaters, hydra and vsc3 at
 *     ppn 1), or one host per rank for the single-rank nodes of abg.  The local rank is the
 *     position of the rank among the ranks of that host (ranks are placed in blocks).
 * cs_platform_parse_host() decodes both forms.
 *
 * The module is self-contained C11 and needs neither MPI nor SimGrid.
 */
#ifndef COLLSIM_PLATGEN_H
#define COLLSIM_PLATGEN_H

#include <stddef.h>
#include <stdio.h>

#include "pwcost.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The platform kinds; the first three are generic, the others are named machines. */
typedef enum cs_platform_kind {
  CS_PLAT_ABG = 0,    /* contention-free, full-duplex alpha-beta-gamma machine */
  CS_PLAT_MAXRATE,    /* max-rate machine: per-process rate Rb, per-node NIC rate RN */
  CS_PLAT_LANES,      /* k-lane machine: k NICs per node, ranks alternate over them */
  CS_PLAT_HYDRA,      /* TU Wien Hydra: 36 x 32 cores, dual-rail Omni-Path 100 */
  CS_PLAT_IRENE,      /* TGCC Irene SKL: 2 x 24-core Skylake nodes, InfiniBand EDR fat tree */
  CS_PLAT_THETA,      /* ALCF Theta: Cray XC40, 64-core KNL nodes, Aries dragonfly */
  CS_PLAT_VSC3,       /* VSC-3: 16 cores per node, dual-rail InfiniBand QDR-80 */
  CS_PLAT_BLUEWATERS, /* NCSA Blue Waters: Cray XE6, 16 ranks per node, Gemini */
  CS_PLAT_NKINDS
} cs_platform_kind;

/* How the platform file describes the network. */
typedef enum cs_topology {
  CS_TOPO_FLAT = 0, /* one host per rank, private full-duplex link each, no backbone */
  CS_TOPO_HIER,     /* one zone per (node, lane); the NICs meet in a contention-free
                       fabric.  One lane: one host per node, per-flow links (FATPIPE Rb,
                       a route to itself for intra-node messages); more lanes: one host
                       per rank, per-rank links to a memory router and the lane's NIC */
  CS_TOPO_FAT_TREE, /* one host per node (cores = ppn); SimGrid FAT_TREE cluster */
  CS_TOPO_DRAGONFLY /* one host per node (cores = ppn); SimGrid DRAGONFLY cluster */
} cs_topology;

/*
 * A platform description.  Units are SI: seconds, bytes, bytes per second.
 * Fill one with cs_platform_init() or cs_platform_named(), change fields if wanted, and
 * call cs_platform_check(), which validates it and recomputes the derived fields.
 *
 * Cost of one isolated message of m bytes in the generated file (SMPI adds a 16-byte
 * envelope to every message, hence m + 16):
 *   abg:                       alpha + beta (m + 16)
 *   hier kinds, inter-node:    alpha + (m + 16) / min(Rb, RN)
 *     ppn ranks of a lane each sending m bytes off-node at once:
 *                              alpha + ppn_lane (m + 16) / min(RN, ppn_lane Rb)
 *   hier kinds, intra-node:    alpha_l + beta_l (m + 16)   (across lanes also bounded by Rx)
 *   compact kinds (fat tree, dragonfly), intra-node:  alpha_l + beta_l (m + 16);
 *     inter-node: hops x link_lat + (m + 16) / link_bw, where hops is the number of links
 *     of the route (2 between nodes on one switch/router, which gives alpha)
 * Local work: smpi_execute_flops(b) charges gamma * b seconds (host speed 1/gamma flop/s).
 */
typedef struct cs_platform {
  cs_platform_kind kind;
  cs_topology topology;
  int nodes;      /* number of nodes used by the job */
  int ppn;        /* ranks per node */
  int np;         /* ranks in total (derived: nodes * ppn) */
  int lanes;      /* NICs (lanes, sockets) per node; 1 unless kind is lanes/hydra/vsc3 */
  double alpha;   /* inter-node latency, s (compact kinds: the shortest route, 2 links) */
  double beta;    /* s/byte of one isolated inter-node message (derived) */
  double gamma;   /* s/byte of local work; 0 means free (host speed 1e30 flop/s) */
  double alpha_l; /* intra-node latency, s */
  double beta_l;  /* intra-node s/byte */
  double Rb;      /* per-process injection rate, bytes/s (abg: 1/beta) */
  double RN;      /* injection rate of one NIC, bytes/s; a node has lanes NICs */
  double Rx;      /* bandwidth of the link between two lanes (sockets) of a node, bytes/s */
  /* Compact topologies (fat tree, dragonfly) only; zero or empty otherwise. */
  int slots;                /* node slots the topology holds (the whole machine) */
  char topo_parameters[64]; /* SimGrid topo_parameters of the cluster */
  double link_bw;           /* bandwidth of every network link, bytes/s */
  double link_lat;          /* latency of every network link, s */
  /* Calibrated segments (`collsim calibrate`, abg only; n = 0: none). net: an m-byte
   * message costs cs_pw_eval(net, m) (the 16-byte envelope included), written as
   * SimGrid's smpi/lat-factor and smpi/bw-factor relative to alpha and beta (which
   * needs SMPI's network model: cs_platform_smpirun_flags_for). local: b bytes of
   * local work cost cs_pw_eval(local, b), written as the hosts' collsim-local
   * property that algos/local.c charges from; copy: the same for local copies
   * (collsim-local-copy; n = 0: a copy costs as a reduction). All go into the
   * collsim-model line (net=, local=, copy=). */
  cs_pw net, local, copy;
  /* abg only: 1 = half duplex, every host's link SHARED by both directions (an
   * exchange costs alpha + 2 beta m, a one-way message alpha + beta m;
   * Rabenseifner's f_beta = 1/2); 0 = full duplex, SPLITDUPLEX (the default).
   * On the collsim-model line as duplex=half (absent: full). */
  int half_duplex;
} cs_platform;

/* The valid kind names, in cs_platform_kind order, as a NULL-terminated array. */
const char *const *cs_platform_kind_names(void);

/* The name of a kind, or NULL if kind is out of range. */
const char *cs_platform_kind_name(cs_platform_kind kind);

/* Whether a kind is a named machine (hydra, irene, theta, vsc3, bluewaters). */
int cs_platform_kind_is_named(cs_platform_kind kind);

/*
 * Fill *pl with the defaults of the kind called name (any kind, generic or named).
 * Returns 0, or -1 with a message in err (which lists the valid kinds) if name is unknown.
 */
int cs_platform_init(const char *name, cs_platform *pl, char *err, size_t errlen);

/*
 * Fill *pl with the default parameter set of a named machine (hydra, irene, theta, vsc3,
 * bluewaters).  Returns 0, or -1 with a message in err if name is not a named machine.
 */
int cs_platform_named(const char *name, cs_platform *pl, char *err, size_t errlen);

/*
 * Validate *pl and recompute its derived fields (np, beta, and for abg nodes/ppn/Rb/RN).
 * Returns 0, or -1 with a message in err naming the offending field and its valid range.
 * For abg, set np (nodes is copied from it); for the other kinds set nodes and ppn.
 */
int cs_platform_check(cs_platform *pl, char *err, size_t errlen);

/*
 * Write the platform XML to xml and, if hostfile is not NULL, the smpirun hostfile (line i
 * is the host of rank i).  *pl must have passed cs_platform_check().  Returns 0, or -1 if
 * *pl is invalid or a write failed.
 */
int cs_platform_write(FILE *xml, FILE *hostfile, const cs_platform *pl);

/* The host name of rank (0 <= rank < np) into buf.  Returns 0, or -1 if out of range. */
int cs_platform_host_name(const cs_platform *pl, int rank, char *buf, size_t len);

/*
 * 1 iff the platform gives every rank its own host (node<N>-<j>): the hier kinds with more
 * than one lane per node, where a rank's host ties it to its lane's NIC (a SimGrid route
 * belongs to a pair of hosts, not to the processes on them).  The other hier platforms
 * have one host per node with ppn cores, as the compact kinds do.
 */
int cs_platform_hosts_per_rank(const cs_platform *pl);

/* The same machine with one host per node (ppn cores), so that SMPI, which
 * groups ranks into nodes by host, runs the library's node-aware algorithms
 * on its real nodes: pl (checked) with its lanes merged into one NIC of
 * lanes x RN, written as a maxrate platform (alpha, Rb, alpha_l, beta_l,
 * gamma and copy costs kept). Differs from pl only where a rank's lane
 * mattered (intra-node messages across lanes, each lane's own NIC). Returns 0
 * and fills out, or -1 with a message in err. */
int cs_platform_one_host_per_node(const cs_platform *pl, cs_platform *out, char *err,
                                  size_t errlen);

/*
 * The hosts of the file cs_platform_write writes for *pl (checked), as SimGrid reads it:
 * cs_platform_host_count of them; host i (0 <= i < count) has its name written into buf,
 * its cores into *cores and its speed (flop/s, the file's 1/gamma) into *speed.  Abg: one
 * host per rank (node<r>, 1 core); the hier kinds with more than one lane: one per rank
 * (node<N>-<j>, 1 core); the other hier platforms: one per node (node<N>, ppn cores); the
 * compact kinds: every node slot of the topology (node<s>, ppn cores), used or not.  The
 * front door knows a generated file's hosts from this without starting SimGrid
 * (platforms/foreign.c); tests/platgen_hosts.sh holds it to what SimGrid reads.  Returns 0, or
 * -1 if i is out of range or the name does not fit.
 */
int cs_platform_host_count(const cs_platform *pl);
int cs_platform_host_at(const cs_platform *pl, int i, char *buf, size_t len, int *cores,
                        double *speed);

/* The node, local rank and lane of a rank.  Returns 0, or -1 if rank is out of range. */
int cs_platform_locate(const cs_platform *pl, int rank, int *node, int *local, int *lane);

/*
 * Decode a host name of the convention above: "node<N>" gives node N and local -1 (the
 * local rank then follows from the hostfile order), "node<N>-<j>" gives node N, local j.
 * Returns 0, or -1 if the name does not follow the convention.
 */
int cs_platform_parse_host(const char *host, int *node, int *local);

/*
 * Read the parameters of a platform file written by cs_platform_write (its "collsim-model:"
 * comment line) into *pl (kind, np, nodes, ppn, lanes, alpha, beta, gamma, alpha_l, beta_l,
 * Rb, RN, Rx).  Returns 0, or -1 with a message in err.
 */
int cs_platform_read(const char *path, cs_platform *pl, char *err, size_t errlen);

/*
 * Whether the file at path is, byte for byte, what cs_platform_write writes for the
 * parameters of its collsim-model line (a file `collsim platform` or `collsim calibrate`
 * wrote and nobody changed since).  Returns 0 and the checked parameters in *pl if so, -1
 * if not (no such line, another content, an unreadable file): then only SimGrid knows what
 * the file holds.
 */
int cs_platform_read_generated(const char *path, cs_platform *pl);
/* The same for a file whose collsim-model line was read already into *line
 * (cs_platform_read): only the comparison reads the file again. */
int cs_platform_is_generated(const char *path, const cs_platform *line, cs_platform *pl);

/*
 * The smpirun command-line options that every simulation on these platforms needs for
 * exact, deterministic alpha-beta costs (one line, options separated by spaces).
 */
const char *cs_platform_smpirun_flags(void);
/* The flags for one platform file: those above, except that a file whose
 * collsim-model line carries network segments gets SMPI's network model (the
 * only one that applies smpi/lat-factor and smpi/bw-factor; its other terms are
 * switched off by the file's config). A file that cannot be read gets the above. */
const char *cs_platform_smpirun_flags_for(const char *xml);
/* The same for a platform already read (cs_platform_read; NULL: a file
 * without a collsim-model line). */
const char *cs_platform_smpirun_flags_of(const cs_platform *pl);

/*
 * The CLI subcommand "collsim platform KIND [options]"; argv[0] is "platform".
 * Returns 0 on success, 1 on an I/O error, 2 on bad usage (with a message on stderr).
 */
int cs_platform_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* COLLSIM_PLATGEN_H */
