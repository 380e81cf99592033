/* The lists that options take, for the front door and for runs that build
 * their own (the demo): sizes and process counts. */
#ifndef COLLSIM_LISTS_H
#define COLLSIM_LISTS_H

#include <stddef.h>

/* Parses "1-40", "2,5,33", "1-16,33,48": fills out (sorted as given) and
 * returns the count, or -1 with a message. */
int cs_parse_np_list(const char *s, int *out, int max);

/* Parses sizes: "1K", "16M", "8,1K,1M", "1-16M:x2" (geometric, the
 * default), "0-4096:+512" (arithmetic), each size read by the one size
 * parser (platforms/units.h). A range includes its end B when B lies on its
 * step (1K-1M:x4 ends at 1M), else it ends at the last step below B and a
 * note says so (8-1M:x8 ends at 256K: 1M is not 8 x 8^k). The sizes come out
 * sorted, each once. Returns the count or -1 with a message. */
int cs_parse_sizes(const char *s, long *out, int max);

#endif
