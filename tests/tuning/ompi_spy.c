/* LD_PRELOAD spy for the Open MPI rules test (tests/tuning/ompi_rules.sh):
 * Open MPI 4.1's coll/tuned component (mca_coll_tuned.so) calls the
 * allreduce algorithms of libmpi.so, ompi_coll_base_allreduce_intra_*,
 * through the dynamic symbol table, so these definitions, preloaded, are
 * called instead: each appends "allreduce ALGORITHM count=N" to the file
 * SPY_LOG (one write, O_APPEND) and calls the library's function. Release
 * builds of Open MPI print nothing about their choice; this shows it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void note(const char *algo, int count) {
  const char *path = getenv("SPY_LOG");
  if (!path) return;
  char line[128];
  int n = snprintf(line, sizeof line, "allreduce %s count=%d\n", algo, count);
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) return;
  if (write(fd, line, (size_t)n) != n) {}
  close(fd);
}

/* Open MPI's signature, with its structs as opaque pointers. */
typedef int (*alg_fn)(const void *, void *, int, void *, void *, void *, void *);
typedef int (*seg_fn)(const void *, void *, int, void *, void *, void *, void *, uint32_t);

#define SPY(name)                                                                              \
  int ompi_coll_base_allreduce_intra_##name(const void *s, void *r, int n, void *dt, void *op, \
                                            void *comm, void *module) {                        \
    static alg_fn next;                                                                        \
    if (!next) next = (alg_fn)dlsym(RTLD_NEXT, "ompi_coll_base_allreduce_intra_" #name);       \
    note(#name, n);                                                                            \
    return next(s, r, n, dt, op, comm, module);                                                \
  }
SPY(basic_linear)
SPY(nonoverlapping)
SPY(recursivedoubling)
SPY(ring)
SPY(redscat_allgather)

int ompi_coll_base_allreduce_intra_ring_segmented(const void *s, void *r, int n, void *dt, void *op,
                                                  void *comm, void *module, uint32_t seg) {
  static seg_fn next;
  if (!next) next = (seg_fn)dlsym(RTLD_NEXT, "ompi_coll_base_allreduce_intra_ring_segmented");
  note("ring_segmented", n);
  return next(s, r, n, dt, op, comm, module, seg);
}
