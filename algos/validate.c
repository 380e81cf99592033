/* Validation of a collective call before any communication (cs_validate),
 * and what an op does on a datatype (cs_op_valid, cs_op_exact).
 *
 * Every kernel call path (the dispatcher cs_run, hence the compositions,
 * the drivers and the models; the PMPI library before it decides to serve a
 * call) checks a call here first, so that no kernel starts communicating on
 * a call that some process will refuse half-way (a local reduction with an
 * op the library does not define on the type used to fail on some ranks
 * only after messages were under way, and their peers waited forever).
 *
 * The checks and their error classes follow Open MPI 4.1's parameter checks
 * (ompi/mpi/c/<collective>.c, in the same order), on this process's
 * arguments only: an error that every process makes (an invalid op/type
 * pair, a negative count everywhere) is found by every process, before
 * anything is sent. An error in arguments that only one process gives
 * (a root or a count that differs between processes) is found by that
 * process only; as with the library, its peers then wait unless the error
 * handler aborts the job (MPI_ERRORS_ARE_FATAL, the default).
 *
 * The op/type table is MPI 4.0 Sec. 6.9.2 (predefined ops x type classes),
 * with every predefined type of MPI 4.0 the library defines in its class
 * (below), and two extensions that both libraries collsim runs on make
 * (measured with MPI_Reduce_local on every pair): MPI_CHAR counts as a C
 * integer (Open MPI 4.1 and SMPI 3.32 reduce it with every op but
 * MINLOC/MAXLOC), and the multi-language types MPI_AINT, MPI_OFFSET,
 * MPI_COUNT also take the logical ops. Pairs beyond the table that one
 * library accepts (Open MPI 4.1: MPI_BYTE with MAX, MIN, SUM, PROD, LAND,
 * LOR and LXOR; MPI_CHARACTER and MPI_LOGICAL1/2/8 with every op but the
 * LOC ones; logical ops on MPI_INTEGER1/2/8. SMPI: logical ops on floating
 * point) are refused with MPI_ERR_OP, as MPI says; the PMPI library lets
 * the library serve every call this table refuses, so an application sees
 * exactly the library's behaviour there. A predefined op on a derived datatype is
 * refused (MPI_ERR_OP), as both libraries do. Whether an op's result
 * depends on the order of evaluation (cs_op_exact) is decided from the
 * library's own reduction: see "exactness" below.
 * NULL buffers are not refused: MPI_BOTTOM is NULL in both libraries, and
 * a derived type with absolute addresses makes it a valid buffer.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collsim.h"
#include "kernel.h"

/* ---- datatypes: MPI 4.0 Sec. 6.9.2's classes ------------------------------
 * Every predefined datatype of MPI 4.0 that the library's C header names
 * (C, Fortran and C++ names, the optional sized ones), in its class. Names a
 * library lacks are left out where it lacks them (#ifdef: both libraries
 * define them as macros); names a library defines as MPI_DATATYPE_NULL
 * (SMPI 3.32: MPI_REAL2, MPI_COMPLEX4, the MPI_CXX_ types in C) are left
 * out at run time. Several names may be one handle (SMPI: MPI_INTEGER and
 * MPI_LOGICAL are MPI_INT, MPI_LOGICAL1 is MPI_UINT8_T, MPI_CHARACTER is
 * MPI_CHAR; both: MPI_LONG_LONG_INT is MPI_LONG_LONG): the first entry
 * gives the handle's class, so the C names come first (a C integer takes
 * every op a Fortran integer or a logical takes). A predefined type in no
 * class (MPI_WCHAR, MPI_PACKED, MPI_CHARACTER in Open MPI, the pairs
 * MPI_2COMPLEX and MPI_2DOUBLE_COMPLEX Open MPI adds, MPI_2LONG SMPI adds)
 * takes no predefined op, as in MPI; K_NONE is also every derived type. */
enum { K_NONE, K_CINT, K_FINT, K_MULTI, K_FLOAT, K_LOGICAL, K_COMPLEX, K_BYTE, K_PAIR };

#define TAB_MAX 96
typedef struct {
  MPI_Datatype dt;
  unsigned char cls;
} tentry;
static tentry tab[TAB_MAX];
static int ntab;
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;

static void add(MPI_Datatype dt, int cls) {
  if (dt == MPI_DATATYPE_NULL || ntab >= TAB_MAX) return;
  for (int i = 0; i < ntab; i++)
    if (tab[i].dt == dt) return; /* another name of a handle listed already */
  tab[ntab++] = (tentry){dt, (unsigned char)cls};
}

static void tab_init(void) {
#define C(dt) add(dt, K_CINT)
  C(MPI_INT), C(MPI_LONG), C(MPI_SHORT), C(MPI_UNSIGNED_SHORT), C(MPI_UNSIGNED);
  C(MPI_UNSIGNED_LONG), C(MPI_LONG_LONG), C(MPI_UNSIGNED_LONG_LONG), C(MPI_SIGNED_CHAR);
  C(MPI_UNSIGNED_CHAR), C(MPI_INT32_T), C(MPI_INT64_T), C(MPI_UINT32_T), C(MPI_UINT64_T);
  /* MPI_CHAR: an extension of Open MPI 4.1 and SMPI 3.32, measured with
   * MPI_Reduce_local on every pair (both reduce it with every op but
   * MINLOC/MAXLOC, as a C integer). */
  C(MPI_CHAR);
  add(MPI_FLOAT, K_FLOAT), add(MPI_DOUBLE, K_FLOAT);
  /* The multi-language types also take the logical ops in both libraries
   * (an extension, like MPI_CHAR). */
  add(MPI_AINT, K_MULTI);
  add(MPI_BYTE, K_BYTE);
  C(MPI_LONG_LONG_INT), C(MPI_INT8_T), C(MPI_INT16_T), C(MPI_UINT8_T), C(MPI_UINT16_T);
  add(MPI_OFFSET, K_MULTI), add(MPI_COUNT, K_MULTI);
  add(MPI_LONG_DOUBLE, K_FLOAT), add(MPI_REAL, K_FLOAT), add(MPI_DOUBLE_PRECISION, K_FLOAT);
  add(MPI_C_BOOL, K_LOGICAL), add(MPI_CXX_BOOL, K_LOGICAL), add(MPI_LOGICAL, K_LOGICAL);
  add(MPI_C_COMPLEX, K_COMPLEX), add(MPI_C_FLOAT_COMPLEX, K_COMPLEX);
  add(MPI_C_DOUBLE_COMPLEX, K_COMPLEX), add(MPI_C_LONG_DOUBLE_COMPLEX, K_COMPLEX);
  add(MPI_CXX_FLOAT_COMPLEX, K_COMPLEX), add(MPI_CXX_DOUBLE_COMPLEX, K_COMPLEX);
  add(MPI_CXX_LONG_DOUBLE_COMPLEX, K_COMPLEX), add(MPI_COMPLEX, K_COMPLEX);
  add(MPI_INTEGER, K_FINT);
  /* The optional Fortran types, where the library defines them. A Fortran
   * integer of 16 bytes has no C type to reduce it with: SMPI 3.32 defines
   * MPI_INTEGER16 and aborts the whole simulation on any op on it (Open
   * MPI 4.1 does not define it on x86-64), so it is in no class here and
   * the library alone decides what such a call does. */
  static const MPI_Datatype fint[] = {
#ifdef MPI_INTEGER1
      MPI_INTEGER1,
#endif
#ifdef MPI_INTEGER2
      MPI_INTEGER2,
#endif
#ifdef MPI_INTEGER4
      MPI_INTEGER4,
#endif
#ifdef MPI_INTEGER8
      MPI_INTEGER8,
#endif
#ifdef MPI_INTEGER16
      MPI_INTEGER16,
#endif
      MPI_DATATYPE_NULL};
  for (size_t i = 0; i + 1 < sizeof fint / sizeof fint[0]; i++) {
    int sz = 0;
    if (fint[i] != MPI_DATATYPE_NULL && MPI_Type_size(fint[i], &sz) == MPI_SUCCESS &&
        (sz == 1 || sz == 2 || sz == 4 || sz == 8))
      add(fint[i], K_FINT);
  }
#ifdef MPI_REAL2
  add(MPI_REAL2, K_FLOAT);
#endif
#ifdef MPI_REAL4
  add(MPI_REAL4, K_FLOAT);
#endif
#ifdef MPI_REAL8
  add(MPI_REAL8, K_FLOAT);
#endif
#ifdef MPI_REAL16
  add(MPI_REAL16, K_FLOAT);
#endif
#ifdef MPI_DOUBLE_COMPLEX
  add(MPI_DOUBLE_COMPLEX, K_COMPLEX);
#endif
#ifdef MPI_COMPLEX4
  add(MPI_COMPLEX4, K_COMPLEX);
#endif
#ifdef MPI_COMPLEX8
  add(MPI_COMPLEX8, K_COMPLEX);
#endif
#ifdef MPI_COMPLEX16
  add(MPI_COMPLEX16, K_COMPLEX);
#endif
#ifdef MPI_COMPLEX32
  add(MPI_COMPLEX32, K_COMPLEX);
#endif
  /* MINLOC/MAXLOC pairs, C and Fortran. */
  add(MPI_2INT, K_PAIR), add(MPI_FLOAT_INT, K_PAIR), add(MPI_DOUBLE_INT, K_PAIR);
  add(MPI_LONG_INT, K_PAIR), add(MPI_SHORT_INT, K_PAIR), add(MPI_LONG_DOUBLE_INT, K_PAIR);
  add(MPI_2REAL, K_PAIR), add(MPI_2DOUBLE_PRECISION, K_PAIR), add(MPI_2INTEGER, K_PAIR);
  /* MPI_LOGICAL1 .. MPI_LOGICAL8 (Open MPI 4.1 defines them; SMPI 3.32
   * makes them MPI_UINT8_T .. MPI_UINT64_T, listed above as C integers) are
   * not in MPI 4.0's table: Open MPI reduces MPI_LOGICAL4 as MPI_LOGICAL and
   * the others with every op but MINLOC/MAXLOC. Left in no class: the
   * library alone serves them. */
#undef C
}

/* dt's class, and its entry in tab (-1: none). */
static int type_class_ix(MPI_Datatype dt, int *ix) {
  pthread_once(&tab_once, tab_init);
  if (ix) *ix = -1;
  if (dt == MPI_DATATYPE_NULL) return K_NONE;
  for (int i = 0; i < ntab; i++)
    if (tab[i].dt == dt) {
      if (ix) *ix = i;
      return tab[i].cls;
    }
  return K_NONE;
}
static int type_class(MPI_Datatype dt) { return type_class_ix(dt, NULL); }
static int integer_class(int k) { return k == K_CINT || k == K_FINT || k == K_MULTI; }

enum { O_USER, O_MAXMIN, O_SUMPROD, O_LOGICAL, O_BITWISE, O_LOC, O_OTHER };

static int op_kind(MPI_Op op) {
  if (op == MPI_MAX || op == MPI_MIN) return O_MAXMIN;
  if (op == MPI_SUM || op == MPI_PROD) return O_SUMPROD;
  if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR) return O_LOGICAL;
  if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR) return O_BITWISE;
  if (op == MPI_MAXLOC || op == MPI_MINLOC) return O_LOC;
  if (op == MPI_REPLACE || op == MPI_NO_OP) return O_OTHER; /* one-sided only */
  return O_USER;
}

int cs_op_valid(MPI_Op op, MPI_Datatype dt) {
  if (op == MPI_OP_NULL) return 0;
  int o = op_kind(op), k = type_class(dt);
  switch (o) {
  case O_USER: return 1;
  case O_MAXMIN: return integer_class(k) || k == K_FLOAT;
  case O_SUMPROD: return integer_class(k) || k == K_FLOAT || k == K_COMPLEX;
  case O_LOGICAL: return k == K_CINT || k == K_MULTI || k == K_LOGICAL;
  case O_BITWISE: return integer_class(k) || k == K_BYTE;
  case O_LOC: return k == K_PAIR;
  default: return 0;
  }
}

/* ---- exactness: what the library's reduction does -------------------------
 * Integer MPI_SUM and MPI_PROD are exact (the same bits in any order of
 * evaluation) iff the library computes them modulo 2^bits, as C's unsigned
 * arithmetic does: a ring, so associative and commutative. Not every library
 * does: Open MPI 4.1's op/avx component (on by default wherever the CPU has
 * SSE/AVX) saturates 8- and 16-bit sums at the type's limits in its vector
 * loop (open-mpi/ompi#8045, closed wontfix) and wraps in its scalar tail, so
 * the result depends on the order and the grouping of the additions. So
 * each integer type's SUM and PROD are probed with the reduction that
 * actually runs (MPI_Reduce_local: the library's under mpirun, SMPI's under
 * smpirun, the recorder's in the models), once per pair at its first use:
 * two calls on 1 KiB of pseudo-random elements that overflow in both
 * directions (aligned and one element off, with a tail shorter than any
 * vector), compared with arithmetic modulo 2^bits. A pair is exact iff every
 * element matches.
 *
 * Every process of a call must decide alike (a process that refuses while
 * its peers run the kernel would leave them waiting): under SMPI and in the
 * recorder all processes run one reduction code in one OS process, so a
 * local probe decides alike; under a real library, processes on CPUs of
 * different kinds could select different reduction code, so the real-MPI
 * driver and the PMPI library probe every pair at MPI_Init and AND the
 * results over MPI_COMM_WORLD (cs_exact_probe_all, cs_exact_agree). */
static unsigned char pstate[TAB_MAX][2]; /* 0 not probed, 1 exact, 2 not */
static int agreed;

static uint64_t lcg(uint64_t *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return *s >> 24;
}

/* Element i of n bytes each at b as an unsigned number (n = 1, 2, 4, 8). */
static uint64_t load(const unsigned char *b, int n, long i) {
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  switch (n) {
  case 1: memcpy(&u8, b + i, 1); return u8;
  case 2: memcpy(&u16, b + 2 * i, 2); return u16;
  case 4: memcpy(&u32, b + 4 * i, 4); return u32;
  default: memcpy(&u64, b + 8 * i, 8); return u64;
  }
}

static int probe(MPI_Datatype dt, int prod) {
  int n = 0;
  if (MPI_Type_size(dt, &n) != MPI_SUCCESS || (n != 1 && n != 2 && n != 4 && n != 8)) return 0;
  const long count = 1024 / n + 7; /* a tail after any vector width */
  unsigned char *a = malloc((size_t)(3 * n * count)), *b = a + n * count, *r = b + n * count;
  if (!a) return 0;
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  for (long i = 0; i < n * count; i++)
    a[i] = (unsigned char)lcg(&seed), b[i] = (unsigned char)lcg(&seed);
  int ok = 1;
  for (int off = 0; off <= 1 && ok; off++) { /* aligned, then one element off */
    memcpy(r, b, (size_t)(n * count));
    long m = count - off;
    if (MPI_Reduce_local(a + off * n, r + off * n, (int)m, dt, prod ? MPI_PROD : MPI_SUM) !=
        MPI_SUCCESS)
      ok = 0;
    const uint64_t mask = n == 8 ? ~0ULL : (1ULL << (8 * n)) - 1;
    for (long i = off; i < count && ok; i++) {
      uint64_t x = load(a, n, i), y = load(b, n, i);
      ok = ((prod ? x * y : x + y) & mask) == load(r, n, i);
    }
  }
  free(a);
  return ok;
}

/* 1 iff SUM (prod = 0) or PROD (1) on the integer type of entry ix is exact. */
static int exact_int(int ix, int prod) {
  unsigned char s = __atomic_load_n(&pstate[ix][prod], __ATOMIC_ACQUIRE);
  if (!s) { /* a race probes twice and stores the same value */
    s = probe(tab[ix].dt, prod) ? 1 : 2;
    if (!__atomic_load_n(&agreed, __ATOMIC_ACQUIRE))
      __atomic_store_n(&pstate[ix][prod], s, __ATOMIC_RELEASE);
    else
      s = __atomic_load_n(&pstate[ix][prod], __ATOMIC_ACQUIRE);
  }
  return s == 1;
}

void cs_exact_probe_all(uint64_t bits[CS_EXACT_WORDS]) {
  pthread_once(&tab_once, tab_init);
  memset(bits, 0, CS_EXACT_WORDS * sizeof bits[0]);
  for (int i = 0; i < ntab && 2 * i + 1 < 64 * CS_EXACT_WORDS; i++)
    if (integer_class(tab[i].cls))
      for (int prod = 0; prod < 2; prod++)
        if (exact_int(i, prod)) bits[(2 * i + prod) / 64] |= 1ULL << ((2 * i + prod) % 64);
}

void cs_exact_agree(const uint64_t bits[CS_EXACT_WORDS]) {
  pthread_once(&tab_once, tab_init);
  for (int i = 0; i < ntab && 2 * i + 1 < 64 * CS_EXACT_WORDS; i++)
    for (int prod = 0; prod < 2; prod++) {
      int on = (bits[(2 * i + prod) / 64] >> ((2 * i + prod) % 64)) & 1;
      __atomic_store_n(&pstate[i][prod], on ? 1 : 2, __ATOMIC_RELEASE);
    }
  __atomic_store_n(&agreed, 1, __ATOMIC_RELEASE);
}

int cs_op_exact(MPI_Op op, MPI_Datatype dt) {
  int ix, o = op_kind(op), k = type_class_ix(dt, &ix);
  if (o == O_USER) return 0; /* collsim cannot see whether a user function is */
  if (o == O_SUMPROD)
    return integer_class(k) && ix < 64 * CS_EXACT_WORDS / 2 && exact_int(ix, op == MPI_PROD);
  return 1; /* logical/bitwise/min/max/loc do not overflow or round */
}

static const char *op_name(MPI_Op op);

void cs_op_inexact_why(MPI_Op op, MPI_Datatype dt, char *why, size_t len) {
  int k = type_class(dt);
  char tn[128] = "this type";
  int n = 0;
  if (k != K_NONE && MPI_MAX_OBJECT_NAME <= (int)sizeof tn) MPI_Type_get_name(dt, tn, &n);
  if (op_kind(op) == O_USER)
    snprintf(why, len,
             "a user op (collsim cannot see whether its function is exactly associative)");
  else if (k == K_FLOAT || k == K_COMPLEX)
    snprintf(why, len, "floating-point %s on %s rounds", op_name(op), tn);
  else if (integer_class(k))
    snprintf(why, len,
             "%s on %s does not wrap around on overflow in this MPI library (it saturates, as Open "
             "MPI 4.1's op/avx does for 8- and 16-bit sums)",
             op_name(op), tn);
  else
    snprintf(why, len, "%s is not defined on %s", op_name(op), tn);
}

/* ---- the call ----------------------------------------------------------- */

#define FAIL(cls, ...)                        \
  do {                                        \
    if (why) snprintf(why, len, __VA_ARGS__); \
    return cls;                               \
  } while (0)

static long long tsize(MPI_Datatype dt) {
  int s = 0;
  MPI_Type_size(dt, &s);
  return s;
}

/* Send or receive side: a type and a count (Open MPI's
 * OMPI_CHECK_DATATYPE_FOR_SEND/RECV). */
static int side(MPI_Datatype dt, long long count, const char *what, char *why, size_t len) {
  if (dt == MPI_DATATYPE_NULL) FAIL(MPI_ERR_TYPE, "%s type is MPI_DATATYPE_NULL", what);
  if (count < 0) FAIL(MPI_ERR_COUNT, "%s count %lld is negative", what, count);
  return MPI_SUCCESS;
}

static int counts_ok(const int *counts, int p, const char *what, char *why, size_t len) {
  if (!counts) FAIL(MPI_ERR_COUNT, "%s is NULL", what);
  if (cs_layout_declared(counts, p)) return MPI_SUCCESS; /* an even split: O(1) at 10^6 ranks */
  for (int i = 0; i < p; i++)
    if (counts[i] < 0) FAIL(MPI_ERR_COUNT, "%s[%d] = %d is negative", what, i, counts[i]);
  return MPI_SUCCESS;
}

/* The type signatures of the own block must agree on both sides (a
 * mismatch would fail in a local copy, possibly after messages). */
static int same_bytes(long long sc, MPI_Datatype st, long long rc, MPI_Datatype rt, char *why,
                      size_t len) {
  if (sc * tsize(st) != rc * tsize(rt))
    FAIL(MPI_ERR_TRUNCATE,
         "this process's own block is %lld bytes by its send arguments but %lld bytes by its "
         "receive arguments (the type signatures must match)",
         sc * tsize(st), rc * tsize(rt));
  return MPI_SUCCESS;
}

static const char *op_name(MPI_Op op) {
#define N(o) \
  if (op == o) return #o
  N(MPI_MAX);
  N(MPI_MIN);
  N(MPI_SUM);
  N(MPI_PROD);
  N(MPI_LAND);
  N(MPI_LOR);
  N(MPI_LXOR);
  N(MPI_BAND);
  N(MPI_BOR);
  N(MPI_BXOR);
  N(MPI_MAXLOC);
  N(MPI_MINLOC);
  N(MPI_REPLACE);
  N(MPI_NO_OP);
#undef N
  return "a user op";
}

static int reduction_op(MPI_Op op, MPI_Datatype dt, char *why, size_t len) {
  if (op == MPI_OP_NULL) FAIL(MPI_ERR_OP, "the op is MPI_OP_NULL");
  if (!cs_op_valid(op, dt)) { /* Open MPI: MPI_ERR_OP for MPI_DATATYPE_NULL too */
    char tn[160] = "a derived datatype";
    /* A predefined type in no class of the table (MPI_WCHAR, MPI_PACKED,
     * a pair with MPI_SUM, ...) is named; a derived one is not. */
    int ni, na, nd, comb = -1, n = 0;
    char nm[128] = "";
    if (dt == MPI_DATATYPE_NULL)
      snprintf(tn, sizeof tn, "MPI_DATATYPE_NULL");
    else if (MPI_Type_get_envelope(dt, &ni, &na, &nd, &comb) == MPI_SUCCESS &&
             comb == MPI_COMBINER_NAMED && MPI_MAX_OBJECT_NAME <= (int)sizeof nm &&
             MPI_Type_get_name(dt, nm, &n) == MPI_SUCCESS)
      snprintf(tn, sizeof tn, "%s", nm);
    FAIL(MPI_ERR_OP,
         "%s is not defined on %s (MPI 4.0 Sec. 6.9.2: the predefined ops take the predefined "
         "types of their classes only)",
         op_name(op), tn);
  }
  return MPI_SUCCESS;
}

#define CHECK(e)                        \
  do {                                  \
    int rc_ = (e);                      \
    if (rc_ != MPI_SUCCESS) return rc_; \
  } while (0)

/* MPI's checks of each collective, one function per collective reached
 * through a table generated from algos/colls.def (a collective without its
 * function does not compile): validate_<C>(coll, x, p, r, why, len), on
 * this process's arguments; the root's range is checked before them. */
typedef int validate_fn(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len);
#define IP MPI_IN_PLACE

static int validate_allreduce(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll, (void)p, (void)r;
  CHECK(reduction_op(x->op, x->dt, why, len));
  if (x->recvbuf == IP) FAIL(MPI_ERR_BUFFER, "MPI_IN_PLACE as recvbuf");
  if (x->sendbuf == x->recvbuf && x->count > 1)
    FAIL(MPI_ERR_BUFFER, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
  return side(x->dt, x->count, "the", why, len);
}

static int validate_reduce(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll;
  const int isroot = r == x->root;
  CHECK(reduction_op(x->op, x->dt, why, len));
  if (!isroot && x->sendbuf == IP)
    FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as sendbuf on a process that is not the root");
  if (isroot && x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  if (isroot && x->sendbuf == x->recvbuf && x->count != 0)
    FAIL(MPI_ERR_ARG, "sendbuf and recvbuf are the same buffer (use MPI_IN_PLACE)");
  CHECK(side(x->dt, x->count, "the", why, len));
  if (x->root < 0 || x->root >= p)
    FAIL(MPI_ERR_ROOT, "root %d is not a rank of the communicator (0 .. %d)", x->root, p - 1);
  return MPI_SUCCESS;
}

static int validate_reduce_scatter_block(cs_coll coll, const cs_args *x, int p, int r, char *why,
                                         size_t len) {
  (void)coll, (void)p, (void)r;
  CHECK(reduction_op(x->op, x->dt, why, len));
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  return side(x->dt, x->count, "the", why, len);
}

static int validate_reduce_scatter(cs_coll coll, const cs_args *x, int p, int r, char *why,
                                   size_t len) {
  (void)coll, (void)r;
  CHECK(reduction_op(x->op, x->dt, why, len));
  if (!x->counts) FAIL(MPI_ERR_COUNT, "recvcounts is NULL");
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  CHECK(counts_ok(x->counts, p, "recvcounts", why, len));
  return side(x->dt, 0, "the", why, len);
}

static int validate_scan(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll, (void)p, (void)r;
  if (x->op == MPI_OP_NULL) FAIL(MPI_ERR_OP, "the op is MPI_OP_NULL");
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  CHECK(reduction_op(x->op, x->dt, why, len));
  return side(x->dt, x->count, "the", why, len);
}

static int validate_exscan(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_scan(coll, x, p, r, why, len);
}

/* allgather and alltoall: the same checks, in Open MPI's order. */
static int validate_allgather(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll, (void)p, (void)r;
  CHECK(side(x->recvtype, x->recvcount, "the receive", why, len));
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  if (x->sendbuf != IP) {
    CHECK(side(x->sendtype, x->sendcount, "the send", why, len));
    CHECK(same_bytes(x->sendcount, x->sendtype, x->recvcount, x->recvtype, why, len));
  }
  return MPI_SUCCESS;
}

static int validate_alltoall(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_allgather(coll, x, p, r, why, len);
}

static int validate_allgatherv(cs_coll coll, const cs_args *x, int p, int r, char *why,
                               size_t len) {
  (void)coll;
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf");
  if (x->recvtype == MPI_DATATYPE_NULL) FAIL(MPI_ERR_TYPE, "the receive type is MPI_DATATYPE_NULL");
  if (x->sendbuf != IP) CHECK(side(x->sendtype, x->sendcount, "the send", why, len));
  CHECK(counts_ok(x->counts, p, "recvcounts", why, len));
  if (!x->displs) FAIL(MPI_ERR_BUFFER, "displs is NULL");
  if (x->sendbuf != IP)
    CHECK(same_bytes(x->sendcount, x->sendtype, x->counts[r], x->recvtype, why, len));
  return MPI_SUCCESS;
}

/* gather(v) and scatter(v): the side every process has (gather: send,
 * scatter: receive) and the root's side, which MPI_IN_PLACE may replace at
 * the root only. */
static int validate_gather(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  const int isroot = r == x->root;
  const int gat = cs_colls[coll].in_place != CS_IP_ROOT_RECV;
  const int vec = cs_colls[coll].shape == CS_SHAPE_SPLIT;
  const void *own = gat ? x->sendbuf : x->recvbuf, *at_root = gat ? x->recvbuf : x->sendbuf;
  MPI_Datatype ot = gat ? x->sendtype : x->recvtype, rt = gat ? x->recvtype : x->sendtype;
  long long oc = gat ? x->sendcount : x->recvcount, rc = gat ? x->recvcount : x->sendcount;
  const char *oname = gat ? "the send" : "the receive", *rname = gat ? "the receive" : "the send";
  if ((!isroot && own == IP) || (isroot && at_root == IP))
    FAIL(MPI_ERR_ARG, "MPI_IN_PLACE %s",
         isroot ? "where the root's data must be" : "on a process that is not the root");
  if (own != IP) CHECK(side(ot, oc, oname, why, len));
  if (!isroot) return MPI_SUCCESS;
  if (vec) {
    if (!x->displs) FAIL(MPI_ERR_ARG, "displs is NULL");
    CHECK(counts_ok(x->counts, p, gat ? "recvcounts" : "sendcounts", why, len));
    CHECK(side(rt, 0, rname, why, len));
    rc = x->counts[r];
  } else {
    CHECK(side(rt, rc, rname, why, len));
  }
  return own != IP ? same_bytes(oc, ot, rc, rt, why, len) : MPI_SUCCESS;
}

static int validate_gatherv(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_gather(coll, x, p, r, why, len);
}
static int validate_scatter(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_gather(coll, x, p, r, why, len);
}
static int validate_scatterv(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  return validate_gather(coll, x, p, r, why, len);
}

static int validate_bcast(cs_coll coll, const cs_args *x, int p, int r, char *why, size_t len) {
  (void)coll, (void)p, (void)r;
  if (x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as the buffer");
  return side(x->dt, x->count, "the", why, len);
}

static validate_fn *const validators[CS_NCOLL] = {
#define CS_COLL(id, Name, reduces, rooted, in_place, shape, size_from, init, call) \
  [CS_##id] = validate_##id,
#include "colls.def"
#undef CS_COLL
};

int cs_validate(cs_coll coll, const cs_args *x, char *why, size_t len) {
  int p, r;
  MPI_Comm_size(x->comm, &p);
  MPI_Comm_rank(x->comm, &r);
  if (why && len) why[0] = '\0';
  if (cs_colls[coll].rooted && (x->root < 0 || x->root >= p) && coll != CS_reduce) {
    /* Open MPI checks the root first for these (after MPI_IN_PLACE, which
     * a root out of range cannot make wrong on a non-root): on the buffer
     * that MPI_IN_PLACE may replace at the root. */
    const int ip = cs_colls[coll].in_place;
    if (ip == CS_IP_ROOT && x->sendbuf == IP)
      FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as sendbuf on a process that is not the root");
    if (ip == CS_IP_ROOT_RECV && x->recvbuf == IP)
      FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as recvbuf on a process that is not the root");
    if (ip == CS_IP_NONE && x->recvbuf == IP) FAIL(MPI_ERR_ARG, "MPI_IN_PLACE as the buffer");
    FAIL(MPI_ERR_ROOT, "root %d is not a rank of the communicator (0 .. %d)", x->root, p - 1);
  }
  return validators[coll](coll, x, p, r, why, len);
}
