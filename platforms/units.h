/* The one parser of numbers with units, for every command: sizes in bytes
 * (--bytes, --block-bytes, --max-bytes), times (--alpha), rates and inverse
 * rates (--beta, --gamma, --Rb) of `platform`, `predict`, `table1`, ...
 * Pure C (collsim_core: the platform generator uses it too). */
#ifndef COLLSIM_UNITS_H
#define COLLSIM_UNITS_H

/* What a value measures. */
enum {
  CS_UNIT_TIME = 't',    /* seconds; SimGrid's units: s, ms, us, ns, ps (also m, h) */
  CS_UNIT_RATE = 'r',    /* bytes/s; Bps and bps with k, M, G, T or Ki, Mi, Gi, Ti */
  CS_UNIT_INVRATE = 'i', /* s/byte; a rate with its unit is inverted: 10GBps = 1e-10 */
  CS_UNIT_BYTES = 'b'    /* bytes, an integer: K, M, G, T binary (KiB ...), optional B */
};

/* Parses all of s as a value of dimension dim; a plain number is in SI units
 * (s, bytes/s, s/byte, bytes). 0, or -1 if s is not such a value (negative
 * values are refused too). */
int cs_parse_unit(const char *s, char dim, double *out);

/* A size in bytes at the start of s (digits, an optional fraction, then K, M,
 * G or T, binary, and an optional B or iB): its value into *v and the rest of
 * s into *end. 0, -1 if s does not start with a size, -2 if it is not a whole
 * number of bytes. */
int cs_parse_bytes(const char *s, const char **end, double *v);

/* What a value of dimension dim looks like, for messages ("a time: seconds,
 * or with a SimGrid unit (1us, 0.5ms, 200ns)"). */
const char *cs_unit_help(char dim);

#endif
