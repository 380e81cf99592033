/* Any SimGrid platform, not only those collsim writes ("bring your own
 * platform", docs/byo-platform.md): a platform file is read once per run into
 * a cs_platform_file, and the placement of ranks, the gamma of local work and
 * the smpirun settings of a timing run are taken from that description. */
#ifndef COLLSIM_FOREIGN_H
#define COLLSIM_FOREIGN_H

#include <stddef.h>

#include "model.h"
#include "platgen.h"
#include "routes.h"

typedef struct {
  char name[256];
  int cores;
  double speed; /* flop/s */
} cs_host;

/* A platform file as one run sees it: its collsim-model line (when it has
 * one), whether collsim wrote it unchanged, and its hosts in natural name
 * order (node-2 before node-10), read when first needed: from the model
 * line for a generated file, else from SimGrid (collsim-hosts). */
typedef struct {
  char xml[4096];
  int has_model; /* model holds the file's collsim-model line */
  int generated; /* the file is what cs_platform_write writes for model */
  cs_platform model;
  cs_host *hosts; /* NULL until read; malloc'ed */
  int nhosts;
} cs_platform_file;

/* Reads xml's collsim-model line, if any (a file without one is still
 * loaded: SimGrid reads it). No message; never fails. */
void cs_platform_load(cs_platform_file *pf, const char *xml);
void cs_platform_file_free(cs_platform_file *pf);

/* The hosts of the platform (read when first asked); the count, or -1 with a
 * message. */
int cs_platform_hosts(cs_platform_file *pf, const cs_host **out);

/* Places np ranks for smpirun on pf. hosts "" (no hostfile): the default
 * placement, each host's cores in turn, hosts in natural name order, and
 * note says so. Otherwise the hostfile hosts ("host" or "host:N" lines) is
 * checked: every name a host of pf, at least np ranks (note ""). Either way hosts then names a
 * temporary hostfile of one host per line (removed at exit: smpirun makes no file of its own in the
 * current directory), and digest holds the placement's digest (16 hex digits of the first np ranks'
 * host names, store/provenance.h): the same ranks on the same hosts give the same digest, however
 * the file spells them. 0, or -1 with a message. */
int cs_place_ranks(const char *cmd, cs_platform_file *pf, char *hosts, size_t len, int np,
                   int quiet, char *note, size_t notelen, char *digest, size_t dlen);

/* How models price cases on pf (predict, map; docs/models.md): the abg,
 * maxrate and lanes lines of `collsim platform` by their closed-form model
 * (returns 0, mo set); every other platform, and any with force_routes, by
 * the fluid evaluator on its own routes (returns 1: mo holds the local work
 * of the platform's collsim-model line, or for any other SimGrid file the
 * gamma its host speed implies; cs_routes_attach then gives it the routes
 * for a process count). note: "" or, for a closed-form model that only
 * approximates the platform, what it is. -1 (after a message) if the
 * platform cannot be read. */
int cs_platform_pricing(const char *cmd, cs_platform_file *pf, int force_routes, cs_model *mo,
                        char *note, size_t notelen);

/* Places np ranks on pf as cs_place_ranks does (hostfile: NULL or "" for
 * the default placement; quiet: no notes), opens rt on pf's routes for them
 * and sets mo->routes = rt, and mo->ppn to the ranks per node of the
 * placement (as the kernels find nodes) when the nodes are equal blocks of
 * consecutive ranks. 0, or -1 after a message (rt then holds nothing). Free
 * rt with cs_routes_free. */
int cs_routes_attach(const char *cmd, cs_platform_file *pf, const char *hostfile, int np, int quiet,
                     cs_routes *rt, cs_model *mo);

/* The routes of a max-rate or k-lane line (priced by its closed-form event
 * evaluator) for the cases that evaluator does not price: a program with
 * nonblocking steps, or a library collective that has them (SMPI's linear
 * scan inside scan and exscan lane and hier). cs_routes_when_needed places
 * np ranks as the timing run does (hosts: a hostfile, NULL or "" for the
 * default placement) and attaches pf's routes to mo->routes_nb the first
 * time such a case c comes (one attempt; without routes the case fails with
 * the event evaluator's message); the fluid evaluator then prices those
 * cases alone on them (models/model.h). predict, map and validate all price
 * through it, so that they make one choice. Free with cs_routes_free(&lz->rt). */
typedef struct {
  cs_platform_file *pf;
  const char *hosts;
  int np, tried;
  cs_routes rt;
} cs_routes_later;
void cs_routes_when_needed(const char *cmd, cs_model *mo, const cs_case *c, cs_routes_later *lz);

/* The gamma (s/byte) of local work on pf: its collsim-model line's, or for
 * any other platform 1 / host speed (the slowest host's), printed unless
 * quiet. -1 if the platform cannot be read. */
double cs_platform_gamma(const char *cmd, cs_platform_file *pf, int quiet);

/* The smpirun settings of a timing run into buf: collsim's exact-timing
 * flags (on a file collsim did not write, with SimGrid's full network update,
 * network/optim:Full), or with keep_network those without the network
 * settings. */
void cs_timing_flags(const cs_platform_file *pf, int keep_network, char *buf, size_t len);

/* A platform argument: a file, or a named machine (hydra, irene, theta,
 * vsc3, bluewaters: platforms/NAME.xml); its hostfile: hostfile if given,
 * else the file's .hostfile beside it, else "" (the default placement).
 * 0, or -1 with a message. */
int cs_resolve_platform(const char *arg, const char *hostfile, char *xml, char *hosts, size_t len);

/* Writes a contention-free platform with at least np hosts and its
 * hostfile into dir: one rank per host and node (ppn <= 1), or ppn ranks per
 * node on hosts node<N>-<j>; returns 0 on success. */
int cs_write_check_platform(const char *dir, int np, int ppn, char *xml, char *hostfile,
                            size_t len);

/* Writes platform pl into the files xml and hostfile; 0 on success. */
int cs_write_platform_files(const cs_platform *pl, const char *xml, const char *hostfile);

#endif
