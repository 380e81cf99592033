/* Conformance: the data-movement collectives the way applications call
 * them. MPI_Allgather, MPI_Allgatherv (irregular counts with zeros, holes
 * between blocks, blocks in reverse order), MPI_Gather(v), MPI_Scatter(v),
 * MPI_Bcast at every root; in place and not; counts 0, 1, p+1, 300; ints,
 * and a resized pair type with a non-zero lower bound received from plain
 * ints (same type signature, different types on the two sides); on WORLD,
 * a duplicate, two halves and reversed ranks; ITERS calls in a row with
 * changing data. Prints digests of every rank's result (conf.h).
 *
 *   mpirun -np P movement [ITERS]
 */
#include "conf.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int iters = argc > 1 ? atoi(argv[1]) : 2;
  MPI_Datatype pair = conf_pair_type();
  MPI_Comm comm;
  const char *cname;
  char label[200];
  int p, r;
  for (int k = 0; conf_comm(k, &comm, &cname, &p, &r); k++) {
    const int ns[4] = {0, 1, p + 1, 300};
    int *cnt = malloc(sizeof(int) * (size_t)p), *dsp = malloc(sizeof(int) * (size_t)p);
    for (int it = 0; it < iters; it++)
      for (int ni = 0; ni < 4; ni++) {
        int n = ns[ni];
        size_t tot = (size_t)n * (size_t)p * 2 + (size_t)p * 2 + 8;
        int *s = malloc(tot * sizeof(int)), *d = malloc(tot * sizeof(int));
        char *pd = malloc(tot * 16);
        /* irregular blocks: count (i + n + it) % 4 == 0 ? 0 : n + i % 3,
         * in reverse order with a one-element hole after each */
        int off = 0, mx = 0;
        for (int i = p - 1; i >= 0; i--) {
          cnt[i] = (i + n + it) % 4 == 0 ? 0 : n + i % 3;
          dsp[i] = off;
          off += cnt[i] + 1;
          if (cnt[i] > mx) mx = cnt[i];
        }
        for (int ip = 0; ip < 2; ip++) {
#define LBL(what) \
  snprintf(label, sizeof label, "%s comm=%s n=%d it=%d in_place=%d", what, cname, n, it, ip)
#define FILL()                                                                      \
  do {                                                                              \
    for (size_t i = 0; i < tot; i++) s[i] = (int)((r * 1009 + i * 7 + it) % 65521); \
    memset(d, 0xA5, tot * sizeof(int));                                             \
    memset(pd, 0x3C, tot * 16);                                                     \
  } while (0)
          /* allgather: ints; and 2n ints received as n pairs */
          FILL();
          if (ip) memcpy(d + (size_t)n * r, s, (size_t)n * sizeof(int));
          int rc = MPI_Allgather(ip ? MPI_IN_PLACE : s, n, MPI_INT, d, n, MPI_INT, comm);
          LBL("allgather int");
          conf_digest(label, rc, d, n * p, MPI_INT);
          if (!ip) {
            rc = MPI_Allgather(s, 2 * n, MPI_INT, pd + 4, n, pair, comm);
            LBL("allgather int->pair");
            conf_digest(label, rc, pd + 4, n * p, pair);
          }
          /* allgatherv */
          FILL();
          if (ip) memcpy(d + dsp[r], s, (size_t)cnt[r] * sizeof(int));
          rc = MPI_Allgatherv(ip ? MPI_IN_PLACE : s, cnt[r], MPI_INT, d, cnt, dsp, MPI_INT, comm);
          LBL("allgatherv int");
          conf_digest(label, rc, d, off, MPI_INT);
          for (int root = 0; root < p; root++) {
            char what[80];
            /* gather */
            FILL();
            if (ip && r == root) memcpy(d + (size_t)n * r, s, (size_t)n * sizeof(int));
            rc = MPI_Gather(ip && r == root ? MPI_IN_PLACE : s, n, MPI_INT, d, n, MPI_INT, root,
                            comm);
            snprintf(what, sizeof what, "gather int root=%d", root);
            LBL(what);
            conf_digest(label, rc, r == root ? d : NULL, n * p, MPI_INT);
            /* gatherv */
            FILL();
            if (ip && r == root) memcpy(d + dsp[r], s, (size_t)cnt[r] * sizeof(int));
            rc = MPI_Gatherv(ip && r == root ? MPI_IN_PLACE : s, cnt[r], MPI_INT, d, cnt, dsp,
                             MPI_INT, root, comm);
            snprintf(what, sizeof what, "gatherv int root=%d", root);
            LBL(what);
            conf_digest(label, rc, r == root ? d : NULL, off, MPI_INT);
            /* scatter: ints, and pairs from the root's ints */
            FILL();
            rc = MPI_Scatter(s, n, MPI_INT, ip && r == root ? MPI_IN_PLACE : d, n, MPI_INT, root,
                             comm);
            snprintf(what, sizeof what, "scatter int root=%d", root);
            LBL(what);
            conf_digest(label, rc, ip && r == root ? NULL : d, n, MPI_INT);
            if (!ip) {
              rc = MPI_Scatter(s, 2 * n, MPI_INT, pd + 4, n, pair, root, comm);
              snprintf(what, sizeof what, "scatter int->pair root=%d", root);
              LBL(what);
              conf_digest(label, rc, pd + 4, n, pair);
            }
            /* scatterv */
            FILL();
            rc = MPI_Scatterv(s, cnt, dsp, MPI_INT, ip && r == root ? MPI_IN_PLACE : d, cnt[r],
                              MPI_INT, root, comm);
            snprintf(what, sizeof what, "scatterv int root=%d", root);
            LBL(what);
            conf_digest(label, rc, ip && r == root ? NULL : d, cnt[r], MPI_INT);
            /* bcast of pairs */
            if (!ip) {
              FILL();
              if (r == root)
                for (int i = 0; i < n; i++)
                  conf_pair(pd + 4, i)[0] = i * 3 + it, conf_pair(pd + 4, i)[1] = root;
              rc = MPI_Bcast(pd + 4, n, pair, root, comm);
              snprintf(what, sizeof what, "bcast pair root=%d", root);
              LBL(what);
              conf_digest(label, rc, pd + 4, n, pair);
            }
          }
        }
        (void)mx;
        free(s), free(d), free(pd);
      }
    free(cnt), free(dsp);
    conf_comm_free(&comm);
  }
  MPI_Type_free(&pair);
  conf_finish();
  MPI_Finalize();
  return 0;
}
