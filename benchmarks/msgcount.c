/* collsim-msgcount COLL ALGO P BYTES [TRACE]: the number of messages and of
 * local-work charges of one call of a registered kernel, as its model
 * records them (the kernel itself runs on P coroutines under the recording
 * MPI, models/), for benchmarks/scale.sh's CPU microseconds per simulated
 * message. Prints "messages rounds bytes_sent". With TRACE, also writes
 * every rank's recorded program there (benchmarks/trace.h), for
 * collsim-floor to replay under SMPI with nothing else: the floor of exactly
 * this message pattern. Not a test; library rows (native) have no model. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "collsim.h"
#include "model.h"
#include "trace.h"

/* The programs of case c, as its model just priced them, into path
 * (trace.h); 0, or -1 with a message in err. */
static int write_trace(const char *path, const cs_model *mo, const cs_case *c, char *err,
                       size_t len) {
  const cs_prog *g;
  if (cs_model_programs(mo, c, &g, err, len) != 0) return -1;
  /* The replay (floor.c) knows blocking steps of 32-bit sizes only. */
  if (g->nb || g->nbig) {
    snprintf(err, len,
             "the trace format holds blocking steps of less than 4 GiB only: this case has %s",
             g->nb ? "nonblocking steps" : "messages of 4 GiB or more");
    return -1;
  }
  FILE *f = fopen(path, "wb");
  int64_t p = c->p, at = 0;
  int ok = f && fwrite(CS_TRACE_MAGIC, 8, 1, f) == 1 && fwrite(&p, sizeof p, 1, f) == 1;
  for (int r = 0; r <= c->p && ok; r++) {
    ok = fwrite(&at, sizeof at, 1, f) == 1;
    if (r < c->p) at += g->r[r].n;
  }
  for (int r = 0; r < c->p && ok; r++)
    for (const cs_mop *o = g->r[r].n ? g->r[r].first : NULL; o && ok;
         o = cs_rprog_after(&g->r[r], o))
      ok = fwrite(o, sizeof *o, 1, f) == 1;
  if ((f && fclose(f) != 0) || !ok) {
    snprintf(err, len, "cannot write %s", path);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 5 && argc != 6) {
    fprintf(stderr, "usage: collsim-msgcount COLL ALGO P BYTES [TRACE]\n");
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
  if (cs_model_eval(&mo, &c, &st, err, sizeof err) != 0 ||
      (argc == 6 && write_trace(argv[5], &mo, &c, err, sizeof err) != 0)) {
    fprintf(stderr, "collsim-msgcount: %s\n", err);
    return 2;
  }
  printf("%ld %d %.0f\n", st.messages, st.rounds, st.sent);
  return 0;
}
