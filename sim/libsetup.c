/* SMPI's node set-up without simulated messages in untimed calls (libsetup.h). */
#include "libsetup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "got.h"

#ifdef SMPI_H
#include <simgrid/barrier.h>

/* SimGrid 3.32's members, called through their mangled names (MPI_Comm is
 * simgrid::smpi::Comm* in SMPI's C mpi.h, the object pointer comes first). */
#define INIT_SYM    "_ZN7simgrid4smpi4Comm8init_smpEv"
#define RING_SYM    "_ZN7simgrid4smpi15allgather__ringEPKviPNS0_8DatatypeEPviS4_PNS0_4CommE"
#define LEADERS_SYM "_ZNK7simgrid4smpi4Comm16get_leaders_commEv"
extern void smpi_comm_init_smp(MPI_Comm self) __asm__(INIT_SYM);
extern int smpi_allgather_ring(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                               int rcount, MPI_Datatype rtype, MPI_Comm comm) __asm__(RING_SYM);
extern MPI_Comm smpi_comm_leaders(MPI_Comm self) __asm__(LEADERS_SYM);

/* One OS process runs every simulated process, one at a time (SimGrid's
 * default contexts/nthreads:1): this state is shared and needs no lock. */
static MPI_Comm target;     /* the run's communicator */
static unsigned char *busy; /* per world rank: inside init_smp (depth), or timed (bit 7) */
#define TIMED 0x80

/* A gathering board of a communicator: its processes write their blocks
 * into a slot, meet at the barrier, and read the whole. Two slots alternate
 * per process (parity), as in bench's agree_max: a process that is already
 * at its next gathering never writes into a slot still being read. */
typedef struct board {
  MPI_Comm comm;
  int n;
  sg_bar_t bar;
  unsigned char *parity; /* per rank of comm */
  struct {
    int in, out;
    size_t bytes; /* per block */
    char *data;   /* n blocks */
  } slot[2];
  struct board *next;
} board;
static board *boards;

static board *board_of(MPI_Comm comm, int n) {
  for (board *b = boards; b; b = b->next)
    if (b->comm == comm && b->n == n) return b;
  board *b = calloc(1, sizeof *b);
  if (b) b->parity = calloc((size_t)n, 1);
  if (!b || !b->parity) {
    fprintf(stderr, "collsim bench: out of memory for the library's set-up\n");
    abort();
  }
  b->comm = comm;
  b->n = n;
  b->bar = sg_barrier_init((unsigned)n);
  b->next = boards;
  boards = b;
  return b;
}

static int world_rank(void) {
  int w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w);
  return w;
}

static void init_hook(MPI_Comm self) {
  int w = world_rank();
  busy[w]++;
  smpi_comm_init_smp(self);
  busy[w]--;
}

/* Whether this allgather__ring is init_smp's on the run's communicator (or
 * its leaders'), untimed, on one contiguous block per process. */
static int gathered_here(const void *sbuf, int scount, MPI_Datatype stype, int rcount,
                         MPI_Datatype rtype, MPI_Comm comm, size_t *bytes) {
  int w = world_rank();
  if (!(busy[w] & ~TIMED) || (busy[w] & TIMED)) return 0;
  if (comm != target && comm != smpi_comm_leaders(target)) return 0;
  if (sbuf == MPI_IN_PLACE || stype != rtype || scount != rcount || scount < 0) return 0;
  int size;
  MPI_Aint lb, extent;
  MPI_Type_size(stype, &size);
  MPI_Type_get_extent(stype, &lb, &extent);
  if (lb != 0 || extent != size) return 0;
  *bytes = (size_t)scount * (size_t)size;
  return 1;
}

static int ring_hook(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                     MPI_Datatype rtype, MPI_Comm comm) {
  size_t bytes;
  if (!gathered_here(sbuf, scount, stype, rcount, rtype, comm, &bytes))
    return smpi_allgather_ring(sbuf, scount, stype, rbuf, rcount, rtype, comm);
  int r, n;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &n);
  board *b = board_of(comm, n);
  int s = b->parity[r];
  b->parity[r] ^= 1;
  if (!b->slot[s].data) {
    b->slot[s].data = malloc((size_t)n * bytes + 1);
    b->slot[s].bytes = bytes;
    if (!b->slot[s].data) {
      fprintf(stderr, "collsim bench: out of memory for the library's set-up\n");
      abort();
    }
  }
  memcpy(b->slot[s].data + (size_t)r * bytes, sbuf, bytes);
  b->slot[s].in++;
  sg_barrier_wait(b->bar);
  memcpy(rbuf, b->slot[s].data, (size_t)n * bytes);
  if (++b->slot[s].out == n) {
    free(b->slot[s].data);
    b->slot[s].data = NULL;
    b->slot[s].in = b->slot[s].out = 0;
  }
  return MPI_SUCCESS;
}

int cs_libsetup_fast(MPI_Comm comm, char *why, size_t len) {
  static int done, failed;
  if (done) return 0;
  if (failed) {
    snprintf(why, len, "not installed");
    return -1;
  }
  const char *e = getenv("COLLSIM_LIB_SETUP");
  if (e && !strcmp(e, "smpi")) {
    failed = 1;
    snprintf(why, len, "COLLSIM_LIB_SETUP=smpi");
    return -1;
  }
  int p;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  busy = calloc((size_t)p, 1);
  if (!busy) {
    failed = 1;
    snprintf(why, len, "out of memory");
    return -1;
  }
  target = comm;
  /* the ring first: while init_smp is not hooked, nothing takes its fast path */
  if (cs_got_patch(RING_SYM, (void *)smpi_allgather_ring, (void *)ring_hook, why, len) ||
      cs_got_patch(INIT_SYM, (void *)smpi_comm_init_smp, (void *)init_hook, why, len)) {
    failed = 1;
    return -1;
  }
  done = 1;
  return 0;
}

void cs_libsetup_timed(int on) {
  if (!busy) return;
  int w = world_rank();
  busy[w] = (unsigned char)(on ? busy[w] | TIMED : busy[w] & ~TIMED);
}
#endif
