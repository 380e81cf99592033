/* collsim-msgcount COLL ALGO P BYTES: the number of messages and of local-work
 * charges of one call of a registered kernel, as its model records them (the
 * kernel itself runs on P coroutines under the recording MPI, models/), for
 * benchmarks/scale.sh's CPU microseconds per simulated message. Prints
 * "messages rounds bytes_sent". Not a test; library rows (native) have no model. */
#include <stdio.h>
#include <stdlib.h>

#include "collsim.h"
#include "model.h"

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: collsim-msgcount COLL ALGO P BYTES\n");
    return 2;
  }
  int coll = cs_coll_by_name(argv[1]);
  long bytes = strtol(argv[4], NULL, 10);
  int p = atoi(argv[3]);
  if (coll < 0 || p < 1 || bytes < 0 || !cs_model_has((cs_coll)coll, argv[2])) {
    fprintf(stderr, "collsim-msgcount: no model of %s/%s (p = %s, %s bytes)\n", argv[1], argv[2],
            argv[3], argv[4]);
    return 2;
  }
  cs_case c = {(cs_coll)coll, argv[2], p, bytes, 0, 0};
  cs_model mo = cs_model_abg(1e-6, 1e-10, 2.5e-10);
  cs_model_stats st;
  char err[256];
  if (cs_model_eval(&mo, &c, &st, err, sizeof err) != 0) {
    fprintf(stderr, "collsim-msgcount: %s\n", err);
    return 2;
  }
  printf("%ld %d %.0f\n", st.messages, st.rounds, st.sent);
  return 0;
}
