/* How a results file was made, and whether a run may add to it.
 *
 * The first line of every file collsim writes for results is
 *   # collsim KIND key=value key=value ...
 * (a value with spaces is double-quoted), the settings its rows depend on:
 * platform and its digest, placement digest, np, collective, type, op,
 * library charging, gamma, ... (docs/csv.md). A run that would add to an
 * existing file (bench's resume, validate's measurements, guidelines' bench
 * files, map's shards) builds the line it would write and compares it with
 * the file's, key by key: cs_prov_diff names every key that differs or that
 * one side lacks, and the option that sets it, so that a refusal says what
 * changed. Lines for people only (the command, the hostfile's path) are
 * separate comment lines ("# command: ...") and are not compared.
 *
 * Pure C, no writable state (also compiled into collsim_core). */
#ifndef COLLSIM_STORE_PROVENANCE_H
#define COLLSIM_STORE_PROVENANCE_H

#include <stddef.h>
#include <stdint.h>

#define CS_PROV_MAX 40

typedef struct {
  char key[32];
  char val[640];
} cs_prov_item;

typedef struct {
  char kind[32]; /* bench, validate, guidelines, ... */
  int n;
  cs_prov_item it[CS_PROV_MAX];
} cs_prov;

void cs_prov_init(cs_prov *p, const char *kind);
/* Sets key to the formatted value (replacing an earlier value of key). A
 * NULL fmt removes the key. */
void cs_prov_set(cs_prov *p, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The value of key, or NULL. */
const char *cs_prov_get(const cs_prov *p, const char *key);

/* "# collsim KIND k=v ...\n" into buf (returns buf). */
const char *cs_prov_line(const cs_prov *p, char *buf, size_t len);
/* Parses such a line (with or without its newline); 0, or -1 if it is not
 * one. A word without '=' (or whose key is not [a-z0-9_]+) continues the
 * previous value, so that the unquoted cfg=... of older files reads whole. */
int cs_prov_parse(const char *line, cs_prov *p);
/* The first line of the file at path, parsed; 0, or -1 (unreadable, or its
 * first line is not such a line). */
int cs_prov_read(const char *path, cs_prov *p);

/* Compares what a file records (file) with what a run would record (run):
 * the number of keys whose values differ or that only one of them has; each
 * is described into why ("--hostfile (placement): the file has A, this run
 * B; ..."), with option(key) naming the option that sets a key (NULL, or a
 * NULL answer: the key alone). The kinds must match too ("kind"). */
int cs_prov_diff(const cs_prov *file, const cs_prov *run, const char *(*option)(const char *key),
                 char *why, size_t len);

/* The same with other words for the two sides ("A has", "B"): the
 * description reads "KEY: la VALUE, lb VALUE". */
int cs_prov_diff_as(const cs_prov *file, const cs_prov *run, const char *(*option)(const char *key),
                    const char *la, const char *lb, char *why, size_t len);

/* The option of the bench run that sets a key of its first line
 * ("placement" -> "--hostfile", ...), or NULL: what bench, validate,
 * guidelines and map pass to cs_prov_diff. */
const char *cs_prov_bench_option(const char *key);

/* FNV-1a 64-bit digests, written as 16 hex digits: of a string, and of a
 * file's bytes (0 if it cannot be read; *ok says which). Not cryptographic:
 * they tell a changed file from the same one. */
uint64_t cs_digest_str(uint64_t h, const char *s);
uint64_t cs_digest_file(const char *path, int *ok);
#define CS_DIGEST_INIT 0xcbf29ce484222325ULL
void cs_digest_hex(uint64_t h, char *buf, size_t len);

#endif
