/* Conformance: erroneous calls.
 *
 *   errors return      every process makes each kind of error in each
 *                      collective under MPI_ERRORS_RETURN and reports the
 *                      error class it got: invalid op/type pairs (logical
 *                      and bitwise ops on float and double, MPI_SUM on a
 *                      derived type, MPI_OP_NULL), a negative count, a root
 *                      out of range, MPI_DATATYPE_NULL, MPI_IN_PLACE where
 *                      MPI forbids it; also MPI_BYTE with MPI_SUM, which
 *                      MPI forbids but Open MPI computes. Nothing may hang.
 *   errors fatal K C   only the last process makes error K (op, count,
 *                      root, type, inplace) in collective C, under the
 *                      default MPI_ERRORS_ARE_FATAL: the job must abort
 *                      (run.sh checks that it ends, with a failure status).
 */
#include "conf.h"

enum { E_OP, E_COUNT, E_ROOT, E_TYPE, E_INPLACE, E_N };
static const char *kinds[E_N] = {"op", "count", "root", "type", "inplace"};
static const char *colls[] = {"allreduce",      "reduce",    "reduce_scatter_block",
                              "reduce_scatter", "allgather", "allgatherv",
                              "gather",         "gatherv",   "scatter",
                              "scatterv",       "bcast",     "scan",
                              "exscan"};
enum { NCOLL = sizeof colls / sizeof colls[0] };
static int reduces(int c) { return c < 4 || c > 10; }
static int rooted(int c) { return c == 1 || (c >= 6 && c <= 10); }

static int sbuf[4096], rbuf[4096];
static int cnts[512], dsps[512];

/* Calls collective c with n ints per block, with error kind (-1: none) made
 * by this process; dt and op replace MPI_INT and MPI_SUM if not NULL. */
static int call(int c, int kind, MPI_Datatype dt, MPI_Op op, MPI_Comm comm) {
  int p, r, n = 2, root = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  for (int i = 0; i < p; i++) cnts[i] = n, dsps[i] = n * i;
  const void *s = sbuf;
  void *d = rbuf;
  int scount = n, rcount = n, count = n;
  MPI_Datatype st = MPI_INT, rt = MPI_INT;
  if (dt != MPI_DATATYPE_NULL) st = rt = dt;
  if (op == MPI_OP_NULL && kind != E_OP) op = MPI_SUM;
  switch (kind) {
  case E_COUNT: scount = rcount = count = -1, cnts[0] = c == 3 ? -1 : cnts[0]; break;
  case E_ROOT: root = p; break;
  case E_TYPE: st = rt = MPI_DATATYPE_NULL; break;
  case E_INPLACE:
    if (c == 1 || c == 6 || c == 7)
      r == root ? (void)(d = MPI_IN_PLACE) : (void)(s = MPI_IN_PLACE);
    else if (c == 8 || c == 9)
      r == root ? (void)(s = MPI_IN_PLACE) : (void)(d = MPI_IN_PLACE);
    else
      d = MPI_IN_PLACE;
    break;
  default: break;
  }
  switch (c) {
  case 0: return MPI_Allreduce(s, d, count, st, op, comm);
  case 1: return MPI_Reduce(s, d, count, st, op, root, comm);
  case 2: return MPI_Reduce_scatter_block(s, d, count, st, op, comm);
  case 3: return MPI_Reduce_scatter(s, d, cnts, st, op, comm);
  case 4: return MPI_Allgather(s, scount, st, d, rcount, rt, comm);
  case 5: return MPI_Allgatherv(s, scount, st, d, cnts, dsps, rt, comm);
  case 6: return MPI_Gather(s, scount, st, d, rcount, rt, root, comm);
  case 7: return MPI_Gatherv(s, scount, st, d, cnts, dsps, rt, root, comm);
  case 8: return MPI_Scatter(s, scount, st, d, rcount, rt, root, comm);
  case 9: return MPI_Scatterv(s, cnts, dsps, st, d, rcount, rt, root, comm);
  case 10: return MPI_Bcast(d == MPI_IN_PLACE ? d : (void *)s, count, st, root, comm);
  case 11: return MPI_Scan(s, d, count, st, op, comm);
  default: return MPI_Exscan(s, d, count, st, op, comm);
  }
}

static void report(const char *what, int rc) {
  char line[64];
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  if (cls == MPI_SUCCESS) /* the result's first bytes (calls with 2 elements) */
    snprintf(line, sizeof line, "class 0 (success) %016llx",
             (unsigned long long)conf_fnv(rbuf, 64));
  else
    snprintf(line, sizeof line, "class %d", cls);
  conf_report(what, line);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (p > 512) MPI_Abort(MPI_COMM_WORLD, 2);
  const char *mode = argc > 1 ? argv[1] : "return";
  char what[160];
  if (!strcmp(mode, "fatal") && argc > 3) {
    int k = -1, c = -1;
    for (int i = 0; i < E_N; i++)
      if (!strcmp(argv[2], kinds[i])) k = i;
    for (int i = 0; i < NCOLL; i++)
      if (!strcmp(argv[3], colls[i])) c = i;
    if (k < 0 || c < 0) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Datatype dt = k == E_OP ? MPI_FLOAT : MPI_DATATYPE_NULL;
    MPI_Op op = k == E_OP ? MPI_LAND : MPI_SUM;
    int rc = r == p - 1 ? call(c, k, dt, op, MPI_COMM_WORLD)
                        : call(c, -1, MPI_DATATYPE_NULL, MPI_SUM, MPI_COMM_WORLD);
    printf("rank %d returned %d: the job did not abort\n", r, rc);
    MPI_Finalize();
    return 0;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype pair = conf_pair_type();
  const MPI_Op ops[] = {MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
  const char *opn[] = {"land", "lor", "lxor", "band", "bor", "bxor"};
  for (int c = 0; c < NCOLL; c++) {
    memset(rbuf, 0, sizeof rbuf);
    for (int k = 0; k < E_N; k++) {
      if ((k == E_OP && !reduces(c)) || (k == E_ROOT && !rooted(c))) continue;
      /* Open MPI 4.1's MPI_Exscan does not check MPI_IN_PLACE as recvbuf
       * and crashes: not called. */
      if (c == 12 && k == E_INPLACE) continue;
      snprintf(what, sizeof what, "%s error=%s", colls[c], kinds[k]);
      report(what, call(c, k, k == E_OP ? MPI_FLOAT : MPI_DATATYPE_NULL,
                        k == E_OP ? MPI_LAND : MPI_SUM, MPI_COMM_WORLD));
    }
    if (!reduces(c)) continue;
    for (int o = 0; o < 6; o++)
      for (int t = 0; t < 2; t++) {
        snprintf(what, sizeof what, "%s op=%s type=%s", colls[c], opn[o], t ? "double" : "float");
        report(what, call(c, -1, t ? MPI_DOUBLE : MPI_FLOAT, ops[o], MPI_COMM_WORLD));
      }
    snprintf(what, sizeof what, "%s op=sum type=derived", colls[c]);
    report(what, call(c, -1, pair, MPI_SUM, MPI_COMM_WORLD));
    snprintf(what, sizeof what, "%s op=null", colls[c]);
    report(what, call(c, E_OP, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD));
    /* Forbidden by MPI, computed by Open MPI: the library's behaviour. */
    for (int i = 0; i < 4096; i++) sbuf[i] = (r * 31 + i) & 0x0f0f0f0f;
    memset(rbuf, 0, sizeof rbuf);
    snprintf(what, sizeof what, "%s op=sum type=byte", colls[c]);
    int rc = call(c, -1, MPI_BYTE, MPI_SUM, MPI_COMM_WORLD);
    report(what, rc);
  }
  MPI_Type_free(&pair);
  conf_finish();
  MPI_Finalize();
  return 0;
}
