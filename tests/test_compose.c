/* Composition rows (algos/compose/compose.c): every CS_COMPOSE row of the
 * registry follows the rules, and a row that breaks one is reported with
 * the part and what is valid (cs_compose_check, which cs_compose_verify
 * runs over the registry at start and the engine before it runs a row).
 * Links the kernels' library (built against the recording MPI). */
#include <stdio.h>
#include <string.h>

#include "assert.h"
#include "collsim.h"

/* A row of coll with flags and parts must be refused with a message that
 * contains every string of want (NULL-terminated), or accepted if want[0]
 * is NULL. */
static void expect(cs_coll coll, unsigned flags, const char *parts, const char *const *want) {
  cs_algo_info a = {coll, "test", "test", flags, CS_F_none, parts, "test row", 0};
  char err[512] = "";
  int rc = cs_compose_check(&a, err, sizeof err);
  if (!want[0]) {
    ASSERT(rc == 0, "%s \"%s\" refused: %s", cs_colls[coll].name, parts, err);
    return;
  }
  ASSERT(rc != 0, "%s \"%s\" accepted, expected: %s", cs_colls[coll].name, parts, want[0]);
  for (int i = 0; rc != 0 && want[i]; i++)
    ASSERT(strstr(err, want[i]) != NULL, "%s \"%s\": message\n  %s\nlacks \"%s\"",
           cs_colls[coll].name, parts, err, want[i]);
}

#define WANT(...) ((const char *const[]){__VA_ARGS__, NULL})
#define OK        ((const char *const[]){NULL})

int main(void) {
  ASSERT_EQ(cs_dispatch_verify(stderr), 0, "the registry's composition rows do not verify");
  int rows = 0;
  for (int i = 0; i < cs_nalgos; i++) rows += cs_algos[i].parts[0] != '\0';
  ASSERT_GE(rows, 4, "composition rows in the registry");
  const unsigned C = CS_COMMUTATIVE, N = CS_NODE_AWARE, I = CS_INNER;
  /* Accepted: the shapes the header describes. */
  expect(CS_allreduce, C, "reduce_scatter:butterfly allgatherv:ceilhalf", OK);
  expect(CS_allreduce, C | N,
         "reduce_scatter:circulant@node allreduce:butterfly@lane allgatherv:circulant@node", OK);
  expect(CS_allreduce, C | N, "reduce:binomial@node allreduce:native@leaders bcast:native@node",
         OK);
  expect(CS_allreduce, C, "reduce:binomial bcast:binomial", OK);
  expect(CS_allreduce, C | N,
         "reduce:binomial@node allreduce:circulant_rsag@leaders bcast:binomial@node", OK);
  expect(CS_bcast, 0, "bcast:binomial", OK);
  /* Names: collective, algorithm, communicator, syntax, with what is valid. */
  expect(CS_allreduce, C, "reduce_scatter:circulant allgather:circulant",
         WANT("'allgather:circulant'", "not a collective a part can be", "valid: reduce_scatter"));
  expect(CS_allreduce, C, "reduce_scatter:circulant allgatherv:nosuch",
         WANT("allgatherv has no algorithm 'nosuch'",
              "valid: inner, circulant, ceilhalf, butterfly, pairring, native)"));
  /* A split or join without a piece runs through the dispatcher. */
  expect(CS_allreduce, C, "reduce_scatter:native allgatherv:circulant", OK);
  expect(CS_allreduce, C | N | I,
         "reduce_scatter:inner@node allreduce:inner@lane allgatherv:inner@node", OK);
  expect(CS_bcast, N | I, "scatterv:inner@node bcast:inner@lane allgatherv:inner@node", OK);
  /* CS_INNER (ROW@lib:SEL) goes with the `inner` parts, both ways. */
  expect(CS_bcast, N, "scatterv:inner@node bcast:binomial@lane allgatherv:circulant@node",
         WANT("has an `inner` part, so the row must carry CS_INNER"));
  expect(CS_bcast, N | I, "bcast:binomial@leaders bcast:binomial@node",
         WANT("carries CS_INNER but no part is `inner`"));
  expect(CS_allreduce, C | N, "allreduce:butterfly@socket",
         WANT("unknown communicator 'socket'", "valid: comm, node, lane, leaders"));
  expect(CS_allreduce, C, "allreduce", WANT("'allreduce' is not COLLECTIVE:ALGORITHM"));
  expect(CS_allreduce, C, "allreduce:native:rdb", WANT("cannot be chosen per part"));
  /* Structure and flags. */
  expect(CS_allreduce, C, "reduce_scatter:circulant", WANT("never joined"));
  expect(CS_allreduce, C, "allgatherv:circulant",
         WANT("joins a split that no part before it made"));
  expect(CS_allreduce, C | N, "reduce_scatter:circulant@node allgatherv:circulant@lane",
         WANT("made on node"));
  expect(CS_allreduce, C, "reduce:binomial@node allreduce:butterfly@leaders bcast:binomial@node",
         WANT("must be CS_NODE_AWARE"));
  expect(CS_allreduce, C | N, "reduce:binomial bcast:binomial", WANT("for nothing"));
  expect(CS_allreduce, N, "reduce:binomial@node allreduce:butterfly@leaders bcast:binomial@node",
         WANT("'reduce:binomial@node' needs a commutative op", "CS_COMMUTATIVE"));
  expect(CS_allreduce, C | N, "reduce_scatter:circulant@leaders allgatherv:circulant@leaders",
         WANT("splits and joins on leaders are not supported"));
  /* Rooted rows run parts on node (root: the root's local rank) and on
   * leaders (the lane of the root's local rank). */
  expect(CS_reduce, C | N, "reduce:binomial@node reduce:binomial@leaders", OK);
  expect(CS_reduce, C | N | I, "reduce:inner@node reduce:nosuch@leaders",
         WANT("reduce has no algorithm 'nosuch'", "valid: inner,"));
  expect(CS_allgather, 0, "allreduce:butterfly", WANT("no composition engine for allgather rows"));
  /* The context's communicators a driver prepares (cs_row_ctx_needs): hier
   * reads node and the leaders' lane only, lane every lane, NAP its node's,
   * a row without a context none; a part on comm adds what its row reads. */
  const int NODES = CS_CTX_NODES, LANES = CS_CTX_LANES, LEADERS = CS_CTX_LEADERS;
  ASSERT_EQ(cs_row_ctx_needs(cs_algo_find(CS_allreduce, "hier")), NODES | LEADERS,
            "allreduce hier");
  ASSERT_EQ(cs_row_ctx_needs(cs_algo_find(CS_reduce, "hier")), NODES | LEADERS, "reduce hier");
  ASSERT_EQ(cs_row_ctx_needs(cs_algo_find(CS_bcast, "hier")), NODES | LEADERS, "bcast hier");
  ASSERT_EQ(cs_row_ctx_needs(cs_algo_find(CS_allreduce, "lane")), NODES | LANES, "allreduce lane");
  ASSERT_EQ(cs_row_ctx_needs(cs_algo_find(CS_allreduce, "nap")), NODES, "allreduce nap");
  ASSERT_EQ(cs_row_ctx_needs(cs_algo_find(CS_allreduce, "butterfly")), 0, "allreduce butterfly");
  const struct {
    unsigned flags;
    const char *parts;
    int need;
  } rows_need[] = {
      {C | N,
       "reduce:binomial@node allreduce:butterfly@lane allreduce:butterfly@leaders "
       "bcast:binomial@node",
       NODES | LANES},
      {C | N, "allreduce:nap", NODES},
      {C | N, "reduce:binomial@node allreduce:hier bcast:binomial@node", NODES | LEADERS},
      {C | N, "bcast:binomial@leaders allreduce:lane", NODES | LANES},
  };
  for (size_t i = 0; i < sizeof rows_need / sizeof rows_need[0]; i++) {
    /* index -1: not a registry row (the engine caches those by index) */
    cs_algo_info a = {CS_allreduce,       "test",     "test", rows_need[i].flags, CS_F_none,
                      rows_need[i].parts, "test row", -1};
    ASSERT_EQ(cs_row_ctx_needs(&a), rows_need[i].need, "needs of \"%s\"", rows_need[i].parts);
  }
  return cs_test_end();
}
