/* The model side of tests/model_nb.sh: runs a test kernel (testk.h) on p
 * ranks under the recording MPI (setup, then the priced call, as
 * models/record.c runs a registered kernel) and prices the records under
 * an abg model with SMPI's envelope.
 *   collsim-testk-model P ALPHA BETA KERNEL PPN [--selector SEL] BYTES...
 * prints "BYTES TIME" per size; a kernel the models cannot price prints
 * the recording's message and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../models/mpirec/mpirec.h"
#include "../../models/record.h"
#include "testk.h"

typedef struct {
  testk_fn fn;
  int ppn, bytes, p;
} job;

static void rank_main(int r, void *arg) {
  const job *j = arg;
  testk_args a;
  int rc = testk_setup(&a, j->ppn);
  a.bytes = j->bytes;
  size_t n = (size_t)(j->bytes + 16) * (size_t)(j->p + 70);
  a.sbuf = csrec_shared_malloc(n);
  a.rbuf = csrec_shared_malloc(n);
  csrec_priced(1);
  if (rc == MPI_SUCCESS) rc = j->fn(&a);
  if (rc != MPI_SUCCESS) csrec_fail("test kernel returned %d at rank %d", rc, r);
  csrec_shared_free(a.sbuf);
  csrec_shared_free(a.rbuf);
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: %s P ALPHA BETA KERNEL PPN [--selector SEL] BYTES... (kernels: %s)\n",
            argv[0], testk_names());
    return 2;
  }
  job j = {testk_find(argv[4]), atoi(argv[5]), 0, atoi(argv[1])};
  if (!j.fn || j.p < 1) {
    fprintf(stderr, "unknown kernel %s (kernels: %s) or bad P\n", argv[4], testk_names());
    return 2;
  }
  cs_model mo = cs_model_abg(atof(argv[2]), atof(argv[3]), 0);
  int i = 6;
  if (!strcmp(argv[i], "--selector") && i + 1 < argc) {
    csrec_set_selector(argv[i + 1]);
    i += 2;
  }
  for (; i < argc; i++) {
    char err[1024];
    cs_prog g;
    cs_model_stats st;
    j.bytes = atoi(argv[i]);
    if (cs_prog_init(&g, j.p)) return 2;
    int rc = csrec_run(j.p, 0, rank_main, &j, &g, err, sizeof err);
    if (rc == 0) rc = cs_model_price(&mo, &g, &st, err, sizeof err);
    cs_prog_free(&g);
    if (rc) {
      printf("%s\n", err);
      return 1;
    }
    printf("%d %.17g\n", j.bytes, st.time);
  }
  return 0;
}
