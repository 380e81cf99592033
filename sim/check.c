/* Correctness harness: runs every requested case (collective x algorithm x
 * count x layout x root x in-place x type/op) in ONE MPI job and compares each
 * rank's result, byte for byte, with values computed by formula on that rank.
 * The library's own collective (native) is just another algorithm checked
 * against the same formulas.
 *
 * A case passes iff every rank got exactly the expected bytes in the
 * defined part of its receive buffer, left every byte it must not write
 * untouched (guard elements after the buffer, gaps inside derived types),
 * and returned MPI_SUCCESS; or, for a call the algorithm must refuse (an
 * op/type pair outside MPI's table, a non-commutative op for an algorithm
 * that needs a commutative one, an op whose result depends on the order of
 * evaluation for an algorithm that needs an exact one), iff every rank
 * returned MPI_ERR_OP. A failure prints one line naming the case, the rank,
 * the first wrong element, the expected and the obtained value.
 *
 * Order-dependent cases (fsum, dsum, dprod: floating-point sums with
 * cancellation and products, whose bits depend on the order of evaluation)
 * have no exact formula: each result element must lie within the error
 * bound of any order of evaluation, and an allreduce must give the same
 * bits on every rank (rank 0's result is broadcast and compared).
 * The op sweeps (logical, bitwise) run MPI_LAND/LOR/LXOR or MPI_BAND/BOR/
 * BXOR on every predefined C type: the pairs MPI's table allows are checked
 * by formula, the others must be refused with MPI_ERR_OP on every rank (a
 * library that accepts them is reported as a KNOWN deviation).
 * The overflow sweep runs MPI_SUM and MPI_PROD on 8-, 16-, 32- and 64-bit
 * integer types with values over the whole range, so that sums and
 * products overflow: where the library's reduction wraps around (modulo
 * 2^bits, cs_op_exact says exact) the result is checked by that formula;
 * where it does not (Open MPI 4.1's op/avx saturates 8- and 16-bit sums)
 * no formula holds: "exact op" rows must refuse the call with MPI_ERR_OP,
 * and every other allreduce must give every rank the same bits.
 */
#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/collsim.h"
#include "../algos/kernel.h"
#include "../algos/sched.h"
#include "../algos/sizes.h"
#include "driver.h"
#include "libcharge.h"

/* ---- element types and ops ------------------------------------------- */

/* T_N: the named cases; the op sweeps follow them in types[] (T_SWEEP on,
 * one entry per op and C type). */
enum { T_INT, T_DOUBLE, T_BYTE, T_VEC, T_NONCOMM, T_FSUM, T_DSUM, T_DPROD, T_N };
enum { T_SWEEP = T_N, T_MAX = T_N + 6 * 32 + 2 * 16 };
typedef struct {
  const char *name, *opname;
  MPI_Datatype dt;
  MPI_Op op;
  size_t ext, data;  /* extent and bytes of data per element (vec has a gap) */
  int reduces_only;  /* noncomm, order-dependent and sweeps: reductions only */
  int inexact;       /* order-dependent floating point: bound + consistency */
  const char *group; /* sweeps: "logical", "bitwise" or "overflow" (selects them) */
  int sweep_int;     /* sweeps: an integer-like C type (raw bits are reduced) */
} ctype;

static ctype types[T_MAX];
static int ntypes;
static int gen_p; /* p of the case being generated (order-dependent inputs) */
static const unsigned char SENT = 0xA5, SEND_GAP = 0x3C;

/* vec: {int sum; int max} in 12 bytes (4-byte gap), a commutative user op. */
static void vec_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; i++) {
    int *a = (int *)((char *)in + 12 * (size_t)i), *b = (int *)((char *)inout + 12 * (size_t)i);
    b[0] += a[0];
    if (a[1] > b[1]) b[1] = a[1];
  }
}
/* noncomm: affine maps x -> a x + b mod 251 composed in rank order:
 * (a1,b1) o (a2,b2) = (a1 a2, a1 b2 + b1): associative, not commutative. */
static void affine_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  for (int i = 0; i < *len; i++) {
    int *x = (int *)in + 2 * i, *y = (int *)inout + 2 * i;
    int a = x[0] * y[0] % 251, b = (x[0] * y[1] + x[1]) % 251;
    y[0] = a;
    y[1] = b;
  }
}

/* Under SMPI the library's rows (CS_NATIVE) get the charged operation that
 * bench gives them (sim/libcharge.h) in place of the built-in ones (int,
 * double, byte; bench times no other), so that check proves it computes
 * exactly what the built-in operation does. Shared by all simulated
 * processes; every process creates the same. */
#ifdef SMPI_H
static MPI_Op libops[T_MAX];
#endif
static void libops_init(void) {
#ifdef SMPI_H
  for (int t = T_INT; t <= T_BYTE; t++) cs_libcharge_wrap(types[t].op, &libops[t]);
#endif
}
static MPI_Op case_op(int type, const cs_algo_info *a) {
#ifdef SMPI_H
  if ((a->flags & CS_NATIVE) && libops[type]) return libops[type];
#else
  (void)a;
#endif
  return types[type].op;
}

static void types_init(void) {
  MPI_Datatype pair, vec, aff;
  MPI_Op vop, aop;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_create_resized(pair, 0, 12, &vec);
  MPI_Type_commit(&vec);
  MPI_Type_free(&pair);
  MPI_Type_contiguous(2, MPI_INT, &aff);
  MPI_Type_commit(&aff);
  MPI_Op_create(vec_op, 1, &vop);
  MPI_Op_create(affine_op, 0, &aop);
  types[T_INT] = (ctype){"int", "sum", MPI_INT, MPI_SUM, 4, 4, 0, 0, "", 0};
  types[T_DOUBLE] = (ctype){"double", "max", MPI_DOUBLE, MPI_MAX, 8, 8, 0, 0, "", 0};
  types[T_BYTE] = (ctype){"byte", "bor", MPI_BYTE, MPI_BOR, 1, 1, 0, 0, "", 0};
  types[T_VEC] = (ctype){"vec", "user", vec, vop, 12, 8, 0, 0, "", 0};
  types[T_NONCOMM] = (ctype){"pair", "noncomm", aff, aop, 8, 8, 1, 0, "", 0};
  types[T_FSUM] = (ctype){"fsum", "sum", MPI_FLOAT, MPI_SUM, 4, 4, 1, 1, "", 0};
  types[T_DSUM] = (ctype){"dsum", "sum", MPI_DOUBLE, MPI_SUM, 8, 8, 1, 1, "", 0};
  types[T_DPROD] = (ctype){"dprod", "prod", MPI_DOUBLE, MPI_PROD, 8, 8, 1, 1, "", 0};
  /* The sweeps: every predefined C type MPI names for reductions, integer
   * like (reduced here as raw bits) or not (floating point, complex: never
   * valid for these ops). */
  static const struct {
    const char *name;
    MPI_Datatype dt;
    int intlike;
  } st[] = {{"char", MPI_CHAR, 1},
            {"signed_char", MPI_SIGNED_CHAR, 1},
            {"unsigned_char", MPI_UNSIGNED_CHAR, 1},
            {"short", MPI_SHORT, 1},
            {"unsigned_short", MPI_UNSIGNED_SHORT, 1},
            {"int", MPI_INT, 1},
            {"unsigned", MPI_UNSIGNED, 1},
            {"long", MPI_LONG, 1},
            {"unsigned_long", MPI_UNSIGNED_LONG, 1},
            {"long_long", MPI_LONG_LONG, 1},
            {"unsigned_long_long", MPI_UNSIGNED_LONG_LONG, 1},
            {"int8_t", MPI_INT8_T, 1},
            {"uint16_t", MPI_UINT16_T, 1},
            {"int32_t", MPI_INT32_T, 1},
            {"uint64_t", MPI_UINT64_T, 1},
            {"aint", MPI_AINT, 1},
            {"offset", MPI_OFFSET, 1},
            {"count", MPI_COUNT, 1},
            {"byte", MPI_BYTE, 1},
            {"c_bool", MPI_C_BOOL, 1},
            {"float", MPI_FLOAT, 0},
            {"double", MPI_DOUBLE, 0},
            {"long_double", MPI_LONG_DOUBLE, 0},
            {"c_float_complex", MPI_C_FLOAT_COMPLEX, 0},
            {"c_double_complex", MPI_C_DOUBLE_COMPLEX, 0}};
  static const struct {
    const char *name, *group;
    MPI_Op op;
  } so[] = {{"land", "logical", MPI_LAND}, {"lor", "logical", MPI_LOR},
            {"lxor", "logical", MPI_LXOR}, {"band", "bitwise", MPI_BAND},
            {"bor", "bitwise", MPI_BOR},   {"bxor", "bitwise", MPI_BXOR}};
  ntypes = T_SWEEP;
  for (size_t o = 0; o < sizeof so / sizeof so[0]; o++)
    for (size_t k = 0; k < sizeof st / sizeof st[0] && ntypes < T_MAX; k++) {
      int size;
      MPI_Aint lb, ext;
      MPI_Type_size(st[k].dt, &size);
      MPI_Type_get_extent(st[k].dt, &lb, &ext);
      types[ntypes++] = (ctype){st[k].name,   so[o].name, st[k].dt, so[o].op,    (size_t)ext,
                                (size_t)size, 1,          0,        so[o].group, st[k].intlike};
    }
  /* The overflow sweep: MPI_SUM and MPI_PROD on integer types, 8-bit and
   * 16-bit ones above all (where a library may saturate). */
  static const struct {
    const char *name;
    MPI_Datatype dt;
  } ov[] = {{"char", MPI_CHAR},
            {"signed_char", MPI_SIGNED_CHAR},
            {"unsigned_char", MPI_UNSIGNED_CHAR},
            {"short", MPI_SHORT},
            {"unsigned_short", MPI_UNSIGNED_SHORT},
            {"int8_t", MPI_INT8_T},
            {"uint8_t", MPI_UINT8_T},
            {"int16_t", MPI_INT16_T},
            {"uint16_t", MPI_UINT16_T},
            {"int32_t", MPI_INT32_T},
            {"uint64_t", MPI_UINT64_T}};
  for (int o = 0; o < 2; o++)
    for (size_t k = 0; k < sizeof ov / sizeof ov[0] && ntypes < T_MAX; k++) {
      int size;
      MPI_Type_size(ov[k].dt, &size);
      types[ntypes++] = (ctype){ov[k].name,
                                o ? "prod" : "sum",
                                ov[k].dt,
                                o ? MPI_PROD : MPI_SUM,
                                (size_t)size,
                                (size_t)size,
                                1,
                                0,
                                "overflow",
                                1};
    }
  libops_init();
}

/* Sweeps: an element as raw bits (little-endian machines: the low bytes
 * carry the small values the sweeps use, whatever the width or sign). */
static uint64_t sweep_load(int t, const void *e) {
  uint64_t v = 0;
  memcpy(&v, e, types[t].data < 8 ? types[t].data : 8);
  return v;
}
static void sweep_store(int t, void *e, uint64_t v) {
  memset(e, 0, types[t].data);
  memcpy(e, &v, types[t].data < 8 ? types[t].data : 8);
}

/* The value of order-dependent case t for rank r, element gi: a sum with
 * cancellation (one rank holds +big, another -big, the others small
 * values that the big ones swallow in some orders and not in others), or
 * a product of factors near 1 that round differently in each order. */
static double inexact_value(int t, int r, long gi) {
  int p = gen_p > 0 ? gen_p : 1;
  int a = (int)(gi % p), b = p > 1 ? (int)((a + 1 + (gi / p) % (p - 1)) % p) : -1;
  if (t == T_DPROD) return 1.0 + (double)((r * 7L + gi * 3) % 19 - 9) / 97.0;
  double big = t == T_FSUM ? 1e6 : 1e16;
  if (r == a) return big;
  if (r == b) return -big;
  return (t == T_FSUM ? 1e-2 : 1.0) * (1 + (r + gi) % 5) + (double)((r * 3L + gi) % 7) / 8.0;
}

/* The input element gi of rank r. */
static void gen(int t, int r, long gi, void *e) {
  if (t >= T_SWEEP) {
    const ctype *ty = &types[t];
    if (!strcmp(ty->group, "overflow")) { /* the whole range; products: mostly odd */
      uint64_t h = ((uint64_t)r << 40 ^ (uint64_t)gi) * 0x9e3779b97f4a7c15ULL;
      h ^= h >> 29;
      h *= 0xbf58476d1ce4e5b9ULL;
      h ^= h >> 32;
      sweep_store(t, e, ty->op == MPI_PROD && h % 4 ? h | 1 : h);
      return;
    }
    /* logical: zeros among small non-zero values; bitwise: one or two bits */
    uint64_t v = !strcmp(ty->group, "logical")
                     ? ((r + gi) % 3 == 0 ? 0 : (uint64_t)(1 + (r * 5 + gi) % 7))
                     : (uint64_t)((1u << ((r + gi) % 7)) | (((r * 3 + gi) & 2) << 3));
    if (ty->dt == MPI_C_BOOL) v = v != 0;
    if (ty->sweep_int) {
      sweep_store(t, e, v);
    } else { /* never reduced: only refused; any value of the type */
      memset(e, 0, ty->data);
      if (ty->dt == MPI_FLOAT) *(float *)e = (float)v;
      if (ty->dt == MPI_DOUBLE) *(double *)e = (double)v;
    }
    return;
  }
  switch (t) {
  case T_FSUM: *(float *)e = (float)inexact_value(t, r, gi); break;
  case T_DSUM:
  case T_DPROD: *(double *)e = inexact_value(t, r, gi); break;
  case T_INT: *(int *)e = (int)((r * 131L + gi * 7 + 3) % 1999) - 999; break;
  case T_DOUBLE: *(double *)e = (double)((r * 37L + gi * 11) % 1013) + r * 1e-3; break;
  case T_BYTE:
    *(unsigned char *)e = (unsigned char)((1u << ((r + gi) % 8)) | (((r * 3 + gi) & 2) << 3));
    break;
  case T_VEC:
    ((int *)e)[0] = (int)((r * 17L + gi * 5) % 211) - 100;
    ((int *)e)[1] = (int)((r * 29L + gi * 3) % 97);
    break;
  case T_NONCOMM:
    ((int *)e)[0] = 1 + (int)((r + gi) % 250);
    ((int *)e)[1] = (int)((r * 7L + gi) % 251);
    break;
  }
}

/* op over ranks lo .. hi-1 (in rank order) of element gi. */
static void fold(int t, int lo, int hi, long gi, void *e) {
  unsigned char x[16];
  gen(t, lo, gi, e);
  for (int r = lo + 1; r < hi; r++) {
    gen(t, r, gi, x);
    if (t >= T_SWEEP) {
      if (!types[t].sweep_int) continue; /* never valid: nothing to expect */
      uint64_t a = sweep_load(t, e), b = sweep_load(t, x);
      MPI_Op op = types[t].op;
      /* sums and products modulo 2^bits (sweep_store keeps the low bytes) */
      uint64_t v = op == MPI_SUM    ? a + b
                   : op == MPI_PROD ? a * b
                   : op == MPI_LAND ? (a != 0 && b != 0)
                   : op == MPI_LOR  ? (a != 0 || b != 0)
                   : op == MPI_LXOR ? ((a != 0) != (b != 0))
                   : op == MPI_BAND ? (a & b)
                   : op == MPI_BOR  ? (a | b)
                                    : (a ^ b);
      sweep_store(t, e, v);
      continue;
    }
    switch (t) {
    case T_INT: *(int *)e += *(int *)x; break;
    case T_DOUBLE:
      if (*(double *)x > *(double *)e) *(double *)e = *(double *)x;
      break;
    case T_BYTE: *(unsigned char *)e |= *(unsigned char *)x; break;
    case T_VEC:
      ((int *)e)[0] += ((int *)x)[0];
      if (((int *)x)[1] > ((int *)e)[1]) ((int *)e)[1] = ((int *)x)[1];
      break;
    case T_NONCOMM: {
      int *a = e, *b = (int *)x;
      int na = a[0] * b[0] % 251, nb = (a[0] * b[1] + a[1]) % 251;
      a[0] = na;
      a[1] = nb;
      break;
    }
    }
  }
}

/* The inputs of the named exact cases are periodic in the element index
 * (gen: 8 for byte, 1999 for int, 1013 for double, 211 x 97 for vec,
 * 250 x 251 for the affine pairs), so the fold of element gi is the fold of
 * gi mod the period. Every other case (order-dependent floating point, the
 * op sweeps) is treated as not periodic: LONG_MAX. */
static long gen_period(int t) {
  static const long period[T_N] = {[T_INT] = 1999,
                                   [T_DOUBLE] = 1013,
                                   [T_BYTE] = 8,
                                   [T_VEC] = 211L * 97,
                                   [T_NONCOMM] = 250L * 251};
  return t >= 0 && t < T_N && period[t] > 0 ? period[t] : LONG_MAX;
}

/* Elements [per, n) of out as copies of [0, per): out[i] = out[i mod per],
 * in doubling memcpy blocks. */
static void repeat_period(char *out, long per, long n, long ext) {
  for (long done = per; done < n;) {
    long len = done < n - done ? done : n - done;
    memcpy(out + done * ext, out, (size_t)(len * ext));
    done += len;
  }
}

/* fold(t, lo, hi, gi0 + i) into out + i * ext for i < n, with each residue
 * folded once: expected values of timing-size cases cost O(n + period p),
 * not O(n p). */
static void fold_range(int t, int lo, int hi, long gi0, long n, char *out, long ext) {
  long per = gen_period(t);
  if (n <= per) {
    for (long i = 0; i < n; i++) fold(t, lo, hi, gi0 + i, out + i * ext);
    return;
  }
  for (long i = 0; i < per; i++) fold(t, lo, hi, gi0 + i, out + i * ext);
  repeat_period(out, per, n, ext);
}

/* Fills n elements of rank r's input (global indices gi0, gi0+1, ...) at
 * buf, leaving gaps as SEND_GAP. */
static void fill_gap(int t, int r, long gi0, long n, char *buf, unsigned char gap) {
  const ctype *ty = &types[t];
  long per = gen_period(t), m = n < per ? n : per;
  for (long i = 0; i < m; i++) {
    char *e = buf + i * (long)ty->ext;
    memset(e, gap, ty->ext);
    gen(t, r, gi0 + i, e);
  }
  if (n > per) repeat_period(buf, per, n, (long)ty->ext); /* gen is periodic in gi */
}

static void print_elem(int t, const unsigned char *e, char *out, size_t len) {
  switch (t) {
  case T_FSUM: snprintf(out, len, "%.9g", (double)*(const float *)e); break;
  case T_DSUM:
  case T_DPROD: snprintf(out, len, "%.17g", *(const double *)e); break;
  case T_INT: snprintf(out, len, "%d", *(const int *)e); break;
  case T_DOUBLE: snprintf(out, len, "%.17g", *(const double *)e); break;
  case T_BYTE: snprintf(out, len, "0x%02x", *e); break;
  default: {
    size_t o = 0;
    for (size_t i = 0; i < types[t].ext && o + 3 < len; i++)
      o += (size_t)snprintf(out + o, len - o, "%02x", e[i]);
  }
  }
}

/* Input in a send buffer: gaps carry SEND_GAP, which must never reach a
 * receive buffer. */
static void fill_input(int t, int r, long gi0, long n, char *buf) {
  fill_gap(t, r, gi0, n, buf, SEND_GAP);
}
/* Input placed in a receive buffer (MPI_IN_PLACE): gaps stay SENT. */
static void fill_inplace(int t, int r, long gi0, long n, char *buf) {
  fill_gap(t, r, gi0, n, buf, SENT);
}

/* Defects of MPI libraries that this harness found. Such cases still run
 * and are still checked; a failure is reported as KNOWN (not counted as a
 * failure of collsim), and a pass as a note that the defect is gone. */
typedef struct {
  int smpi; /* 1: SMPI, 0: a real MPI library */
  cs_coll coll;
  int type;         /* -1: every type */
  const char *algo; /* NULL: every native algorithm; else this --algos name */
  const char *what;
} known_defect;
static const known_defect known_defects[] = {
    {1, CS_scan, T_NONCOMM, NULL,
     "SMPI 3.32 MPI_Scan computes wrong results for a non-commutative op"},
    {1, CS_exscan, T_NONCOMM, NULL,
     "SMPI 3.32 MPI_Exscan computes wrong results for a non-commutative op"},
    {1, CS_reduce_scatter, -1, "native:ompi_basic_recursivehalving",
     "SMPI 3.32 reduce_scatter ompi_basic_recursivehalving returns wrong data for uneven blocks "
     "(e.g. one non-empty block; some uneven layouts abort the simulation)"},
    {1, CS_alltoall, -1, "native:2dmesh",
     "SMPI 3.32 alltoall 2dmesh fails (error code 12 on some ranks) for some p (seen for 5 and 7; "
     "right for 2, 3, 4, 6, 8, 9, 12, 16)"},
    {1, CS_alltoall, -1, "native:pair_rma",
     "SMPI 3.32 alltoall pair_rma returns wrong data (p = 2, 4, 8, 16; other p abort the "
     "simulation)"},
};

/* A decomposition inherits the defects of every native algorithm of the
 * library collectives it calls inside (its inner row native: COLLSIM_INNER
 * names none of collsim's): every scan and exscan decomposition calls
 * MPI_Exscan, the scan ones MPI_Scan too (algos/lane/scan.c). */
static const known_defect *find_inherited(cs_coll coll, int type) {
#ifdef SMPI_H
  static const struct {
    cs_coll row, inner;
  } uses[] = {{CS_scan, CS_scan}, {CS_scan, CS_exscan}, {CS_exscan, CS_exscan}};
  for (size_t u = 0; u < sizeof uses / sizeof uses[0]; u++) {
    const cs_algo_info *r;
    char err[256];
    if (uses[u].row != coll || cs_inner_row(uses[u].inner, &r, err, sizeof err) ||
        !(r->flags & CS_NATIVE))
      continue;
    for (size_t i = 0; i < sizeof known_defects / sizeof known_defects[0]; i++)
      if (known_defects[i].smpi && known_defects[i].coll == uses[u].inner &&
          !known_defects[i].algo && known_defects[i].type == type) {
        /* the same words for every process (they share this under SMPI) */
        static known_defect inherited;
        static char what[320];
        snprintf(what, sizeof what, "called inside the decomposition: %s", known_defects[i].what);
        inherited = known_defects[i];
        inherited.what = what;
        return &inherited;
      }
  }
#else
  (void)coll, (void)type;
#endif
  return NULL;
}

static const known_defect *find_known(cs_coll coll, const cs_algo_info *a, const char *name,
                                      int type) {
#ifdef SMPI_H
  int smpi = 1;
#else
  int smpi = 0;
#endif
  if (a->flags & CS_INNER) return find_inherited(coll, type);
  if (!(a->flags & CS_NATIVE)) return NULL;
  for (size_t i = 0; i < sizeof known_defects / sizeof known_defects[0]; i++)
    if (known_defects[i].smpi == smpi && known_defects[i].coll == coll &&
        (known_defects[i].type < 0 || known_defects[i].type == type) &&
        (!known_defects[i].algo || !strcmp(known_defects[i].algo, name)))
      return &known_defects[i];
  return NULL;
}

/* ---- case description ------------------------------------------------- */

enum { L_EVEN, L_ONE, L_RAMP, L_REV, L_EXPLICIT, L_N };
static const char *layout_names[L_N] = {"even", "one", "ramp", "rev", "explicit"};
static int *explicit_counts; /* --counts c0,c1,...: one per rank */

typedef struct {
  cs_coll coll;
  const cs_algo_info *algo;
  const char *algo_name;
  long count; /* as given: total (v-collectives, reduce_scatter) or per call */
  int layout, root, inplace, type;
  const char *comm; /* world, dup, split, rev */
  const int *expl;  /* layout explicit: the p counts (NULL: --counts) */
} ccase;

/* Counts and displacements of the p blocks of a v-collective or
 * reduce_scatter for total n in a layout. */
static void make_layout(int layout, const int *expl, int p, long n, int *counts, int *displs) {
  switch (layout) {
  case L_ONE:
    for (int i = 0; i < p; i++) counts[i] = i == p / 2 ? (int)n : 0;
    break;
  case L_RAMP: {
    long s = 0, tri = (long)p * (p - 1) / 2;
    for (int i = 0; i < p; i++) {
      counts[i] = tri ? (int)((n * i) / tri) : 0;
      s += counts[i];
    }
    counts[p - 1] += (int)(n - s);
    break;
  }
  case L_EXPLICIT:
    for (int i = 0; i < p; i++) counts[i] = (expl ? expl : explicit_counts)[i];
    break;
  default: cs_split_even(n, p, counts, NULL);
  }
  long d = 0;
  if (layout == L_REV) {
    for (int i = p - 1; i >= 0; i--) {
      displs[i] = (int)d;
      d += counts[i] + 1; /* a one-element hole between blocks */
    }
  } else {
    for (int i = 0; i < p; i++) {
      displs[i] = (int)d;
      d += counts[i];
    }
  }
}

static long layout_extent(int p, const int *counts, const int *displs) {
  long e = 0;
  for (int i = 0; i < p; i++)
    if ((long)displs[i] + counts[i] > e) e = (long)displs[i] + counts[i];
  return e;
}

#define GUARD 2

typedef struct {
  unsigned char *failed_flags; /* per case, this rank */
  long ncase, capcase;
} tally;

static void note(tally *ty, int fail) {
  if (ty->ncase == ty->capcase) {
    ty->capcase = ty->capcase ? 2 * ty->capcase : 1024;
    ty->failed_flags = realloc(ty->failed_flags, (size_t)ty->capcase);
  }
  ty->failed_flags[ty->ncase++] = (unsigned char)fail;
}

static void describe(const ccase *c, int p, char *out, size_t len) {
  const ctype *t = &types[c->type];
  int v = cs_coll_shape(c->coll) == CS_SHAPE_SPLIT;
  snprintf(out, len, "coll=%s algo=%s comm=%s p=%d count=%ld%s%s root=%d in_place=%d type=%s op=%s",
           cs_colls[c->coll].name, c->algo_name, c->comm, p, c->count, v ? " layout=" : "",
           v ? layout_names[c->layout] : "", cs_colls[c->coll].rooted ? c->root : -1, c->inplace,
           t->name, cs_colls[c->coll].reduces ? t->opname : "-");
}

/* Library defects that crash the whole simulation: such cases cannot run
 * at all (a crash would also lose every later case), so they are listed as
 * KNOWN and skipped. */
static const char *known_crash(const ccase *c, int p) {
#ifdef SMPI_H
  if (c->coll == CS_allreduce && (c->algo->flags & CS_NATIVE) && c->count == 0 &&
      c->type == T_VEC && p >= 16 && !(p >= 64 && !(p & (p - 1))))
    return "SMPI 3.32 MPI_Allreduce dies of SIGFPE for count 0 with a derived datatype "
           "(seen for every p in 16..63 and 65..100 tried; not for p < 16, 64, 128): not run";
  if (c->coll == CS_alltoall && (c->algo->flags & CS_NATIVE) && (p & (p - 1)) &&
      !strncmp(c->algo_name, "native:pair", 11))
    return "SMPI 3.32's alltoall pair algorithms (pair, pair_rma, pair_*_barrier) abort the "
           "simulation when p is not a power of two: not run";
#else
  (void)c;
  (void)p;
#endif
  return NULL;
}

/* Runs one case on every rank; returns 1 if this rank saw a failure, 2 for
 * a known library defect. */
static int run_case(const ccase *c, MPI_Comm comm, char *msg, size_t msglen) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  const char *crash = known_crash(c, p);
  if (crash) {
    char desc[400];
    describe(c, p, desc, sizeof desc);
    if (msg)
      snprintf(msg, msglen, "KNOWN %s -- %s", desc, crash);
    else if (r == 0)
      printf("KNOWN %s -- %s\n", desc, crash);
    return 2;
  }
  const ctype *ty = &types[c->type];
  long E = (long)ty->ext;
  int root = c->root, isroot = r == root;
  gen_p = p;
  int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
  long n = c->count;
  make_layout(c->layout, c->expl, p, n, counts, displs);

  /* Sizes in elements of the send buffer, the receive buffer, and the
   * checked range of the receive buffer [clo, chi). */
  long sn = 0, rn = 0, clo = 0, chi = 0;
  int check = 1, formula = 1;
  cs_args x = {0};
  x.dt = x.sendtype = x.recvtype = ty->dt;
  x.op = case_op(c->type, c->algo);
  x.root = root;
  x.comm = comm;
  switch (c->coll) {
  case CS_allreduce:
  case CS_scan:
  case CS_exscan:
    sn = rn = chi = n;
    x.count = (int)n;
    if (c->coll == CS_exscan && r == 0) check = 0; /* undefined on rank 0 */
    break;
  case CS_reduce:
    sn = n;
    rn = isroot ? n : 0;
    chi = rn;
    x.count = (int)n;
    break;
  case CS_reduce_scatter_block:
    sn = n * p;
    rn = c->inplace ? n * p : n;
    chi = n;
    x.count = (int)n;
    break;
  case CS_reduce_scatter: {
    long tot = 0;
    for (int i = 0; i < p; i++) tot += counts[i];
    sn = tot;
    rn = c->inplace ? tot : counts[r];
    chi = counts[r];
    x.counts = counts;
    /* reduce_scatter's blocks are consecutive: recompute packed displs */
    break;
  }
  case CS_allgather:
    sn = n;
    rn = chi = n * p;
    x.sendcount = x.recvcount = (int)n;
    break;
  case CS_alltoall:
    sn = n * p;
    rn = chi = n * p;
    x.sendcount = x.recvcount = (int)n;
    break;
  case CS_allgatherv:
    sn = counts[r];
    rn = chi = layout_extent(p, counts, displs);
    x.sendcount = counts[r];
    x.counts = counts;
    x.displs = displs;
    break;
  case CS_gather:
    sn = n;
    rn = isroot ? n * p : 0;
    chi = rn;
    x.sendcount = x.recvcount = (int)n;
    break;
  case CS_gatherv:
    sn = counts[r];
    rn = isroot ? layout_extent(p, counts, displs) : 0;
    chi = rn;
    x.sendcount = counts[r];
    x.counts = counts;
    x.displs = displs;
    break;
  case CS_scatter:
    sn = isroot ? n * p : 0;
    rn = chi = n;
    x.sendcount = x.recvcount = (int)n;
    break;
  case CS_scatterv:
    sn = isroot ? layout_extent(p, counts, displs) : 0;
    rn = chi = counts[r];
    x.recvcount = counts[r];
    x.counts = counts;
    x.displs = displs;
    break;
  case CS_bcast:
    rn = chi = n;
    x.count = (int)n;
    break;
  default: formula = 0; break; /* a collective without its case here fails below */
  }
  if (c->coll == CS_reduce_scatter) {
    for (int i = 0, d = 0; i < p; d += counts[i++]) displs[i] = d;
  }
  int inplace_here = c->inplace && (cs_colls[c->coll].in_place == 1 || isroot);
  /* Buffers with guard elements after them. */
  char *sbuf = malloc((size_t)((sn + GUARD) * E));
  char *rbuf = malloc((size_t)((rn + GUARD) * E));
  char *ebuf = malloc((size_t)((rn + GUARD) * E));
  memset(sbuf, SEND_GAP, (size_t)((sn + GUARD) * E));
  memset(rbuf, SENT, (size_t)((rn + GUARD) * E));
  memset(ebuf, SENT, (size_t)((rn + GUARD) * E));

  /* Inputs (global element index = index in the rank's send vector) and
   * the expected image of the receive buffer. */
  switch (c->coll) {
  case CS_allreduce:
  case CS_reduce:
  case CS_scan:
  case CS_exscan:
    if (inplace_here)
      fill_inplace(c->type, r, 0, n, rbuf);
    else
      fill_input(c->type, r, 0, n, sbuf);
    if (c->coll != CS_reduce || isroot) {
      int lo = 0, hi = p;
      if (c->coll == CS_scan) hi = r + 1;
      if (c->coll == CS_exscan) hi = r;
      if (hi > lo) fold_range(c->type, lo, hi, 0, chi, ebuf, E);
    }
    if (c->coll == CS_exscan && r == 0) memcpy(ebuf, rbuf, (size_t)(rn * E));
    break;
  case CS_reduce_scatter_block:
  case CS_reduce_scatter: {
    long tot = c->coll == CS_reduce_scatter ? sn : n * p;
    if (inplace_here)
      fill_inplace(c->type, r, 0, tot, rbuf);
    else
      fill_input(c->type, r, 0, tot, sbuf);
    long d = c->coll == CS_reduce_scatter ? displs[r] : n * r;
    fold_range(c->type, 0, p, d, chi, ebuf, E);
    break;
  }
  case CS_allgather:
  case CS_gather:
    if (inplace_here)
      fill_inplace(c->type, r, 0, n, rbuf + n * r * E);
    else
      fill_input(c->type, r, 0, n, sbuf);
    if (c->coll == CS_allgather || isroot)
      for (int j = 0; j < p; j++) fill_input(c->type, j, 0, n, ebuf + n * j * E);
    break;
  case CS_alltoall:
    /* rank r's send vector is its p blocks (block j for rank j, global
     * index n j + i); its block j of the result is rank j's block r */
    if (inplace_here)
      fill_inplace(c->type, r, 0, n * p, rbuf);
    else
      fill_input(c->type, r, 0, n * p, sbuf);
    for (int j = 0; j < p; j++) fill_input(c->type, j, n * r, n, ebuf + n * j * E);
    break;
  case CS_allgatherv:
  case CS_gatherv:
    if (inplace_here)
      fill_inplace(c->type, r, 0, counts[r], rbuf + (long)displs[r] * E);
    else
      fill_input(c->type, r, 0, counts[r], sbuf);
    if (c->coll == CS_allgatherv || isroot)
      for (int j = 0; j < p; j++) fill_input(c->type, j, 0, counts[j], ebuf + (long)displs[j] * E);
    /* the holes between blocks (layout rev) must stay untouched */
    for (long i = 0; i < rn; i++) {
      int inblock = 0;
      for (int j = 0; j < p && !inblock; j++)
        inblock = i >= displs[j] && i < (long)displs[j] + counts[j];
      if (!inblock) memset(ebuf + i * E, SENT, (size_t)E);
    }
    break;
  case CS_scatter:
    if (isroot) fill_input(c->type, r, 0, n * p, sbuf);
    fill_input(c->type, root, (long)n * r, n, ebuf);
    if (inplace_here) memcpy(ebuf, rbuf, (size_t)(rn * E)); /* root: nothing is written */
    break;
  case CS_scatterv:
    if (isroot) fill_input(c->type, r, 0, sn, sbuf);
    fill_input(c->type, root, displs[r], counts[r], ebuf);
    if (inplace_here) memcpy(ebuf, rbuf, (size_t)(rn * E));
    break;
  case CS_bcast:
    if (isroot) fill_inplace(c->type, r, 0, n, rbuf);
    fill_input(c->type, root, 0, n, ebuf);
    break;
  default: break;
  }
  /* Gaps inside derived-type elements of the result must stay untouched. */
  if (ty->data < ty->ext)
    for (long i = clo; i < chi; i++) memset(ebuf + i * E + ty->data, SENT, ty->ext - ty->data);

  x.sendbuf = inplace_here ? MPI_IN_PLACE : sbuf;
  x.recvbuf = rbuf;
  if (c->coll == CS_scatter || c->coll == CS_scatterv) {
    x.sendbuf = sbuf;
    x.recvbuf = inplace_here ? MPI_IN_PLACE : rbuf;
  }
  if (c->coll == CS_bcast) x.recvbuf = rbuf;

  int rc = cs_run(c->algo, &x);

  /* What the call must do: MPI_ERR_OP for an op/type pair outside MPI's
   * table (every algorithm, the library's too) and for an op the row's
   * flags refuse; else succeed. */
  int expect_err = 0, lib_deviation = 0;
  /* An overflow case the library does not compute modulo 2^bits: no
   * formula, only the same bits on every rank of an allreduce. */
  const int noformula = ty->group[0] && !strcmp(ty->group, "overflow") &&
                        cs_colls[c->coll].reduces && !cs_op_exact(ty->op, ty->dt);
  if (cs_colls[c->coll].reduces) {
    int commute = 1;
    MPI_Op_commutative(ty->op, &commute);
    if (!cs_op_valid(ty->op, ty->dt)) expect_err = lib_deviation = 1;
    if (!commute && (c->algo->flags & CS_COMMUTATIVE)) expect_err = 1;
    if ((c->algo->flags & CS_ASSOCIATIVE) && !cs_op_exact(ty->op, ty->dt)) expect_err = 1;
  }
  int fail = 0;
  char desc[400], ev[160] = "", gv[80] = "";
  long bad = -1;
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  if (!formula) {
    fail = 1;
    snprintf(ev, sizeof ev, "the collective's buffers and expected values (sim/check.c run_case)");
    snprintf(gv, sizeof gv, "none: nothing was checked");
  } else if (expect_err) {
    if (cls != MPI_ERR_OP) {
      fail = 1;
      snprintf(ev, sizeof ev, "MPI_ERR_OP");
      snprintf(gv, sizeof gv, "return code %d (class %d)", rc, cls);
    }
  } else if (rc != MPI_SUCCESS) {
    fail = 1;
    snprintf(ev, sizeof ev, "MPI_SUCCESS");
    snprintf(gv, sizeof gv, "return code %d", rc);
  } else if (check && (ty->inexact || noformula)) {
    /* No formula: each element within the error bound of any order of
     * evaluation (sum: (n-1) eps sum|x_i|; product: (n-1) eps |prod| plus
     * slack; none for noformula), and an allreduce's bits the same on
     * every rank. */
    double eps = ty->dt == MPI_FLOAT ? FLT_EPSILON : DBL_EPSILON;
    for (long i = clo; i < chi && bad < 0 && ty->inexact; i++) {
      int lo = 0, hi = p;
      long gi = i;
      if (c->coll == CS_scan) hi = r + 1;
      if (c->coll == CS_exscan) hi = r;
      if (c->coll == CS_reduce_scatter_block) gi = n * r + i;
      if (c->coll == CS_reduce_scatter) gi = displs[r] + i;
      long double exact = ty->op == MPI_PROD ? 1 : 0, mag = 0;
      for (int k = lo; k < hi; k++) {
        double v = inexact_value(c->type, k, gi);
        if (ty->op == MPI_PROD)
          exact *= v;
        else
          exact += v, mag += fabs(v);
      }
      if (ty->op == MPI_PROD) mag = fabsl(exact) * 1.01L;
      double got =
          ty->dt == MPI_FLOAT ? (double)*(float *)(rbuf + i * E) : *(double *)(rbuf + i * E);
      if (!(fabsl((long double)got - exact) <= (hi - lo) * eps * mag)) {
        bad = i;
        snprintf(ev, sizeof ev, "%.17Lg +- %.3Lg", exact, (hi - lo) * eps * mag);
        print_elem(c->type, (unsigned char *)rbuf + i * E, gv, sizeof gv);
      }
    }
    for (long i = rn; i < rn + GUARD && bad < 0; i++)
      if (memcmp(rbuf + i * E, ebuf + i * E, (size_t)E)) {
        bad = i;
        snprintf(ev, sizeof ev, "untouched guard");
        print_elem(c->type, (unsigned char *)rbuf + i * E, gv, sizeof gv);
      }
    if (c->coll == CS_allreduce && rn > 0) {
      char *r0 = malloc((size_t)(rn * E));
      memcpy(r0, rbuf, (size_t)(rn * E));
      MPI_Bcast(r0, (int)(rn * E), MPI_BYTE, 0, comm);
      for (long i = 0; i < rn && bad < 0; i++)
        if (memcmp(rbuf + i * E, r0 + i * E, (size_t)E)) {
          bad = i;
          char v0[64];
          print_elem(c->type, (unsigned char *)r0 + i * E, v0, sizeof v0);
          snprintf(ev, sizeof ev, "%s (rank 0's bits: every rank must get the same)", v0);
          print_elem(c->type, (unsigned char *)rbuf + i * E, gv, sizeof gv);
        }
      free(r0);
    }
    if (bad >= 0) fail = 1;
  } else if (check) {
    /* the checked range, then the guard after the whole buffer */
    if (chi > clo && memcmp(rbuf + clo * E, ebuf + clo * E, (size_t)((chi - clo) * E)))
      for (long i = clo; i < chi && bad < 0; i++)
        if (memcmp(rbuf + i * E, ebuf + i * E, (size_t)E)) bad = i;
    for (long i = rn; i < rn + GUARD && bad < 0; i++)
      if (memcmp(rbuf + i * E, ebuf + i * E, (size_t)E)) bad = i;
    /* outside [clo, chi) but inside the buffer: untouched unless in place
     * (an in-place reduce_scatter may leave anything behind its block) */
    if (!inplace_here && rn > chi && bad < 0 &&
        memcmp(rbuf + chi * E, ebuf + chi * E, (size_t)((rn - chi) * E)))
      for (long i = chi; i < rn && bad < 0; i++)
        if (memcmp(rbuf + i * E, ebuf + i * E, (size_t)E)) bad = i;
    if (bad >= 0) {
      fail = 1;
      print_elem(c->type, (unsigned char *)ebuf + bad * E, ev, sizeof ev);
      print_elem(c->type, (unsigned char *)rbuf + bad * E, gv, sizeof gv);
    }
  }
  const known_defect *kd = find_known(c->coll, c->algo, c->algo_name, c->type);
  static const known_defect lax = {0, CS_allreduce, -1, NULL,
                                   "the library accepts an op/type pair outside MPI's table "
                                   "(MPI 4.0 Sec. 6.9.2)"};
  if (!kd && lib_deviation && (c->algo->flags & CS_NATIVE)) kd = &lax;
  if (fail) {
    describe(c, p, desc, sizeof desc);
    if (msg)
      snprintf(msg, msglen, "%s %s rank=%d index=%ld expected=%s got=%s%s%s", kd ? "KNOWN" : "FAIL",
               desc, r, bad, ev, gv, kd ? " -- " : "", kd ? kd->what : "");
    else
      printf("%s %s rank=%d index=%ld expected=%s got=%s%s%s\n", kd ? "KNOWN" : "FAIL", desc, r,
             bad, ev, gv, kd ? " -- " : "", kd ? kd->what : "");
    fflush(stdout);
  }
  if (kd && fail) fail = 2;
  free(sbuf);
  free(rbuf);
  free(ebuf);
  free(counts);
  free(displs);
  return fail;
}

/* ---- communicators and the kernel context ------------------------------ */

/* The communicators the cases run on, as MPICH's test suite cycles them:
 * world itself, a duplicate, two halves (first and second; each half runs
 * the cases on its own), and the ranks in reverse order. */
static int make_comm(MPI_Comm world, const char *kind, MPI_Comm *out) {
  int p, r;
  MPI_Comm_size(world, &p);
  MPI_Comm_rank(world, &r);
  if (!strcmp(kind, "world")) {
    *out = world;
    return MPI_SUCCESS;
  }
  int rc = MPI_ERR_ARG;
  if (!strcmp(kind, "dup")) rc = MPI_Comm_dup(world, out);
  if (!strcmp(kind, "split")) rc = MPI_Comm_split(world, r >= (p + 1) / 2, r, out);
  if (!strcmp(kind, "rev")) rc = MPI_Comm_split(world, 0, p - 1 - r, out);
  if (rc == MPI_SUCCESS) {
    /* MPI: a new communicator inherits its parent's error handler; SMPI 3.32
     * gives dup/split ones MPI_ERRORS_ARE_FATAL, so say it explicitly. */
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(world, &eh);
    MPI_Comm_set_errhandler(*out, eh);
  }
  return rc;
}

/* Builds the kernel context of comm (with its lane communicator) and checks
 * it against the placement: world rank w runs on node w / ppn (ppn = 0: all
 * of the job on one node). Computes what the context must say from the
 * world ranks of comm's members, and checks the members of its node and
 * lane communicators by sums of world ranks. Returns 1 if this rank saw a
 * mismatch. Rank 0 of comm prints one line "CTX ..." with what was found. */
static int check_context(MPI_Comm comm, int ppn, const char *kind) {
  int p, r, w, wp;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Comm_rank(MPI_COMM_WORLD, &w);
  MPI_Comm_size(MPI_COMM_WORLD, &wp);
  const cs_ctx *ctx = NULL;
  MPI_Comm nodec = MPI_COMM_NULL, lane = MPI_COMM_NULL;
  int rc = cs_ctx_prepare(comm, CS_CTX_NODES | CS_CTX_LANES);
  if (rc == MPI_SUCCESS) rc = cs_ctx_get(comm, &ctx);
  if (rc == MPI_SUCCESS) rc = cs_ctx_nodecomm(ctx, &nodec);
  if (rc == MPI_SUCCESS) rc = cs_ctx_lanecomm(ctx, &lane);
  if (rc != MPI_SUCCESS) {
    printf("FAIL context comm=%s p=%d rank=%d: creation returned %d\n", kind, p, r, rc);
    return 1;
  }
  int *worlds = malloc(sizeof(int) * (size_t)p), *node = malloc(sizeof(int) * (size_t)p);
  int *size = calloc((size_t)wp + 1, sizeof(int)), *first = malloc(sizeof(int) * ((size_t)wp + 1));
  MPI_Allgather(&w, 1, MPI_INT, worlds, 1, MPI_INT, comm);
  for (int i = 0; i <= wp; i++) first[i] = -1;
  /* Expected: node sizes, regularity (equal sizes, consecutive ranks). */
  int found = 0, mn = p, mx = 0, consecutive = 1;
  for (int i = 0; i < p; i++) {
    node[i] = ppn > 0 ? worlds[i] / ppn : 0;
    if (size[node[i]]++ == 0) {
      found++;
      first[node[i]] = i;
    } else if (node[i - 1] != node[i]) {
      consecutive = 0;
    }
  }
  for (int i = 0; i < p; i++) {
    if (size[node[i]] < mn) mn = size[node[i]];
    if (size[node[i]] > mx) mx = size[node[i]];
  }
  int regular = consecutive && mn == mx;
  int n = regular ? mx : 1, my_local = regular ? r - first[node[r]] : 0;
  long node_sum = 0, lane_sum = 0, got[2];
  for (int i = 0; i < p; i++) {
    if (regular ? node[i] == node[r] : i == r) node_sum += worlds[i];
    if (!regular || i % n == my_local) lane_sum += worlds[i];
  }
  long mine[2] = {w, w};
  MPI_Allreduce(&mine[0], &got[0], 1, MPI_LONG, MPI_SUM, nodec);
  MPI_Allreduce(&mine[1], &got[1], 1, MPI_LONG, MPI_SUM, lane);
  int ns, ls;
  MPI_Comm_size(nodec, &ns);
  MPI_Comm_size(lane, &ls);
  char what[200] = "";
#define EXPECT(cond, ...) \
  if (!what[0] && !(cond)) snprintf(what, sizeof what, __VA_ARGS__)
  EXPECT(ctx->regular == regular, "regular=%d, expected %d", ctx->regular, regular);
  EXPECT(ctx->found_nodes == found, "found_nodes=%d, expected %d", ctx->found_nodes, found);
  EXPECT(ctx->min_ppn == mn && ctx->max_ppn == mx, "node sizes %d..%d, expected %d..%d",
         ctx->min_ppn, ctx->max_ppn, mn, mx);
  EXPECT(ctx->ppn == n && ctx->nnodes == p / n, "ppn=%d nnodes=%d, expected %d and %d", ctx->ppn,
         ctx->nnodes, n, p / n);
  EXPECT(ctx->node == r / n && ctx->local == my_local, "node=%d local=%d, expected %d and %d",
         ctx->node, ctx->local, r / n, my_local);
  EXPECT(ns == n && ls == p / n, "nodecomm size %d, lanecomm size %d, expected %d and %d", ns, ls,
         n, p / n);
  EXPECT(got[0] == node_sum && got[1] == lane_sum,
         "members (sums of world ranks): node %ld lane %ld, expected %ld and %ld", got[0], got[1],
         node_sum, lane_sum);
#undef EXPECT
  if (what[0]) printf("FAIL context comm=%s p=%d ppn=%d rank=%d: %s\n", kind, p, ppn, r, what);
  if (r == 0)
    printf(
        "CTX comm=%s p=%d placement_ppn=%d: nodes found %d, sizes %d..%d, regular=%d, "
        "nodecomm %d, lanecomm %d\n",
        kind, p, ppn, ctx->found_nodes, ctx->min_ppn, ctx->max_ppn, ctx->regular, ns, ls);
  fflush(stdout);
  free(worlds);
  free(node);
  free(size);
  free(first);
  return what[0] != 0;
}

/* ---- counts that cannot overflow silently ------------------------------- */

/* The helpers that hand counts to MPI must refuse a total above INT_MAX
 * (MPI_ERR_COUNT) instead of truncating it, without touching memory: an
 * allgather whose p blocks add up to 2^31 elements, a wrapped range given as
 * an hindexed type, a message and a local copy. No 2 GiB is allocated: the
 * refusals come before any access. Returns 1 if a guard is missing. */
static int check_count_guards(void) {
  char small[16];
  cs_view v;
  int bad = 0;
  cs_count_quiet = 1;
  cs_layout big = cs_layout_regular(4, (1L << 29) + 1); /* 4 blocks: 2^31 + 4 elements */
  cs_layout ok = cs_layout_regular(4, 1000);
  if (cs_view_range(&v, small, MPI_BYTE, &big, 0, 4) != MPI_ERR_COUNT) bad |= 1;
  if (cs_view_range(&v, small, MPI_BYTE, &big, 3, 4) != MPI_ERR_COUNT) bad |= 2; /* wraps */
  if (cs_view_range(&v, small, MPI_BYTE, &ok, 0, 4) != MPI_SUCCESS || v.count != 4000) bad |= 4;
  cs_view_free(&v);
  if (cs_sendrecv(small, (long)INT_MAX + 1, MPI_BYTE, 0, small, 0, MPI_BYTE, 0, MPI_COMM_SELF) !=
      MPI_ERR_COUNT)
    bad |= 8;
  if (cs_copy(small, 1L << 31, MPI_BYTE, small + 8, 1L << 31, MPI_BYTE) != MPI_ERR_COUNT) bad |= 16;
  if (cs_reduce_local(small, small + 8, 1L << 31, MPI_BYTE, MPI_BOR) != MPI_ERR_COUNT) bad |= 32;
  cs_count_quiet = 0;
  if (bad)
    printf(
        "FAIL count guards: a count above INT_MAX was not refused with MPI_ERR_COUNT "
        "(mask %d: 1 view, 2 wrapped view, 4 small view, 8 message, 16 copy, 32 reduction)\n",
        bad);
  return bad != 0;
}

/* ---- erroneous calls ------------------------------------------------------ */

/* The kinds of error every call path must find before any communication,
 * with the class Open MPI 4.1 returns for each (ompi/mpi/c/<coll>.c). */
enum { E_OP, E_COUNT, E_ROOT, E_TYPE, E_INPLACE, E_N };
static const char *err_names[E_N] = {"op", "count", "root", "type", "inplace"};

static int err_applies(cs_coll c, int kind) {
  if (kind == E_OP) return cs_colls[c].reduces;
  if (kind == E_ROOT) return cs_colls[c].rooted;
  return 1;
}

static int err_class(cs_coll c, int kind) {
  switch (kind) {
  case E_OP: return MPI_ERR_OP;
  case E_COUNT: return MPI_ERR_COUNT;
  case E_ROOT: return MPI_ERR_ROOT;
  case E_TYPE:
    return cs_colls[c].reduces ? MPI_ERR_OP : MPI_ERR_TYPE; /* Open MPI checks the op
                                                               on the type first */
  default: return c == CS_allreduce ? MPI_ERR_BUFFER : MPI_ERR_ARG;
  }
}

/* The arguments of a valid call of c with n ints per block, then the error
 * of kind (-1: none) made in them. Every process that makes it can see it
 * on its own arguments (v-collectives: the own count, not the root's array). */
static void err_args(cs_args *x, cs_coll c, int kind, int p, int r, int *counts, int *displs,
                     int *sbuf, int *rbuf, MPI_Comm comm) {
  const int n = 2;
  memset(x, 0, sizeof *x);
  for (int i = 0; i < p; i++) counts[i] = n, displs[i] = n * i;
  x->sendbuf = sbuf;
  x->recvbuf = rbuf;
  x->count = x->sendcount = x->recvcount = n;
  x->dt = x->sendtype = x->recvtype = MPI_INT;
  x->op = MPI_SUM;
  x->counts = counts;
  x->displs = displs;
  x->comm = comm;
  x->root = 0;
  const int isroot = r == x->root, gat = c == CS_gather || c == CS_gatherv || c == CS_reduce,
            sca = c == CS_scatter || c == CS_scatterv;
  switch (kind) {
  case E_OP: x->dt = MPI_FLOAT, x->op = MPI_LAND; break;
  case E_COUNT:
    if (c == CS_reduce_scatter)
      counts[0] = -1;
    else if (c == CS_allgatherv || c == CS_gatherv)
      x->sendcount = -1;
    else if (c == CS_scatterv)
      x->recvcount = -1;
    else
      x->count = x->sendcount = x->recvcount = -1;
    break;
  case E_ROOT: x->root = p; break;
  case E_TYPE: x->dt = x->sendtype = x->recvtype = MPI_DATATYPE_NULL; break;
  case E_INPLACE:
    if (gat)
      if (isroot)
        x->recvbuf = MPI_IN_PLACE;
      else
        x->sendbuf = MPI_IN_PLACE;
    else if (sca)
      if (isroot)
        x->sendbuf = MPI_IN_PLACE;
      else
        x->recvbuf = MPI_IN_PLACE;
    else
      x->recvbuf = MPI_IN_PLACE;
    break;
  default: break;
  }
}

/* --errors all: every process makes each kind of error in every selected
 * collective and algorithm, under MPI_ERRORS_RETURN: every process must get
 * the class, and nothing may hang (the job ends). The library's own
 * (native) may differ from Open MPI's classes: reported as KNOWN.
 * --errors one:KIND: under MPI_ERRORS_ARE_FATAL, only the last rank makes
 * the error, in the first selected algorithm of the first selected
 * collective; the job must abort (the script checks that it ends). */
static int run_error_cases(MPI_Comm comm, const char *mode, const cs_algo_info **sel, int nsel) {
  int p, r, bad = 0;
  long cases = 0, known = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  int *counts = malloc(sizeof(int) * (size_t)p), *displs = malloc(sizeof(int) * (size_t)p);
  int *sbuf = calloc((size_t)p * 2 + 8, sizeof(int)),
      *rbuf = calloc((size_t)p * 2 + 8, sizeof(int));
  cs_args x;
  if (!strncmp(mode, "one:", 4)) {
    int kind = -1;
    for (int k = 0; k < E_N; k++)
      if (!strcmp(mode + 4, err_names[k])) kind = k;
    if (kind < 0 || nsel == 0 || !err_applies(sel[0]->coll, kind)) {
      if (r == 0)
        fprintf(
            stderr,
            "collsim: --errors one:KIND needs a kind that applies (op, count, root, type, inplace)\n");
      return 2;
    }
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_ARE_FATAL);
    err_args(&x, sel[0]->coll, r == p - 1 ? kind : -1, p, r, counts, displs, sbuf, rbuf, comm);
    int rc = cs_run(sel[0], &x);
    /* Its peers may finish their part of the collective and return before
     * the abort reaches them (a reduce's leaves): only the erring process
     * must never return. The others wait here for the abort (going on to
     * MPI_Finalize made Open MPI's abort hang once in a few runs); if the
     * erring process does return, it says so and releases them. */
    int dummy = 0;
    if (r == p - 1) {
      printf("FAIL one-rank error %s in %s/%s: rank %d returned %d instead of aborting the job\n",
             err_names[kind], cs_colls[sel[0]->coll].name, sel[0]->name, r, rc);
      fflush(stdout);
      for (int q = 0; q < p - 1; q++) MPI_Send(&dummy, 1, MPI_INT, q, CS_TAG + 1, comm);
    } else {
      MPI_Recv(&dummy, 1, MPI_INT, p - 1, CS_TAG + 1, comm, MPI_STATUS_IGNORE);
    }
    return 1;
  }
  for (int i = 0; i < nsel; i++)
    for (int k = 0; k < E_N; k++) {
      const cs_algo_info *a = sel[i];
      if (!err_applies(a->coll, k)) continue;
#ifdef SMPI_H
      /* SMPI 3.32's own collectives crash (SIGSEGV) on several erroneous
       * calls (reduce_scatter_block, bcast, scan, exscan), which would end
       * the job: the library is held to Open MPI's classes under mpirun. */
      if (a->flags & CS_NATIVE) continue;
#else
      /* Open MPI 4.1's MPI_Exscan does not check MPI_IN_PLACE as recvbuf
       * and crashes (SIGSEGV): not run, listed. */
      if ((a->flags & CS_NATIVE) && a->coll == CS_exscan && k == E_INPLACE) {
        if (r == 0)
          printf(
              "KNOWN error=inplace coll=exscan algo=native p=%d -- Open MPI 4.1's MPI_Exscan "
              "crashes on MPI_IN_PLACE as recvbuf: not run\n",
              p);
        known++;
        cases++;
        continue;
      }
#endif
      err_args(&x, a->coll, k, p, r, counts, displs, sbuf, rbuf, comm);
      int rc = cs_run(a, &x), cls = rc, want = err_class(a->coll, k);
      if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
      int f = cls != want, fmax;
      MPI_Allreduce(&f, &fmax, 1, MPI_INT, MPI_MAX, comm);
      cases++;
      if (fmax && (a->flags & CS_NATIVE))
        known++;
      else
        bad += fmax;
      if (f)
        printf("%s error=%s coll=%s algo=%s p=%d rank=%d expected class %d got %d (rc %d)%s\n",
               a->flags & CS_NATIVE ? "KNOWN" : "FAIL", err_names[k], cs_colls[a->coll].name,
               a->name, p, r, want, cls, rc,
               a->flags & CS_NATIVE ? " -- the library's class differs from Open MPI 4.1's" : "");
    }
  if (r == 0)
    printf("RESULT p=%d passed=%ld failed=%d known=%ld\n", p, cases - bad - known, bad, known);
  fflush(stdout);
  free(counts);
  free(displs);
  free(sbuf);
  free(rbuf);
  return 0;
}

/* ---- option parsing and the case loops -------------------------------- */

/* Parses a count expression: a number, or p, p-1, p+1, p/2, 2p ... */
static long eval_expr(const char *s, int p, int *ok) {
  char *end;
  *ok = 1;
  if (s[0] == 'p') {
    long v = p;
    const char *t = s + 1;
    if (*t == '\0') return v;
    long k = strtol(t + 1, &end, 10);
    if (*end || t[1] == '\0') *ok = 0;
    switch (*t) {
    case '-': return v - k;
    case '+': return v + k;
    case '/': return k ? v / k : (*ok = 0, 0);
    case '*': return v * k;
    default: *ok = 0; return 0;
    }
  }
  long v = strtol(s, &end, 10);
  if (*end || end == s) *ok = 0;
  return v;
}

/* Splits a comma list into items (modifies s). */
static int split(char *s, char **items, int max) {
  int n = 0;
  for (char *t = strtok(s, ","); t && n < max; t = strtok(NULL, ",")) items[n++] = t;
  return n;
}

int cs_check_main(int argc, char **argv, MPI_Comm comm) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  types_init();
  const char *colls = "all", *algos = "all", *counts = "0,1,p-1,p,p+1,1009", *roots = "auto",
             *inplace = "0,1", *tlist = "int,double,byte,vec,noncomm",
             *layouts = "even,one,ramp,rev", *comm_kinds = "world", *errors = NULL;
  int expect_ppn = 1, types_given = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--coll"))
      colls = argv[i + 1];
    else if (!strcmp(argv[i], "--algo"))
      algos = argv[i + 1];
    else if (!strcmp(argv[i], "--count"))
      counts = argv[i + 1];
    else if (!strcmp(argv[i], "--root"))
      roots = argv[i + 1];
    else if (!strcmp(argv[i], "--in-place"))
      inplace = argv[i + 1];
    else if (!strcmp(argv[i], "--type"))
      tlist = argv[i + 1], types_given = 1;
    else if (!strcmp(argv[i], "--layout"))
      layouts = argv[i + 1];
    else if (!strcmp(argv[i], "--comm"))
      comm_kinds = argv[i + 1];
    else if (!strcmp(argv[i], "--errors"))
      errors = argv[i + 1];
    else if (!strcmp(argv[i], "--ppn"))
      expect_ppn = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--counts")) {
      char *cb = strdup(argv[i + 1]), **items = malloc(sizeof(char *) * 65536);
      int k = split(cb, items, 65536);
      if (k != p) {
        if (r == 0)
          fprintf(stderr, "collsim: --counts gives %d counts, but p = %d needs one per rank\n", k,
                  p);
        return 2;
      }
      explicit_counts = malloc(sizeof(int) * (size_t)p);
      long tot = 0;
      for (int j = 0; j < p; j++) {
        char *end;
        long v = strtol(items[j], &end, 10);
        if (*end || v < 0) {
          if (r == 0)
            fprintf(stderr, "collsim: bad count '%s' in --counts (numbers >= 0)\n", items[j]);
          return 2;
        }
        explicit_counts[j] = (int)v;
        tot += v;
      }
      static char totbuf[32];
      snprintf(totbuf, sizeof totbuf, "%ld", tot);
      counts = totbuf;
      layouts = "explicit";
      free(items);
      free(cb);
    } else {
      if (r == 0) fprintf(stderr, "collsim check driver: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  char *citems[64], *aitems[64], *nitems[64], *ritems[64], *iitems[4], *titems[16], *litems[8];
  char *cbuf = strdup(colls), *abuf = strdup(algos), *nbuf = strdup(counts), *rbuf = strdup(roots),
       *ibuf = strdup(inplace), *tbuf = strdup(tlist), *lbuf = strdup(layouts);
  int nc = split(cbuf, citems, 64), na = split(abuf, aitems, 64), nn = split(nbuf, nitems, 64),
      nroot = split(rbuf, ritems, 64), ni = split(ibuf, iitems, 4), nt = split(tbuf, titems, 16),
      nl = split(lbuf, litems, 8);
  int all_colls = nc == 1 && !strcmp(citems[0], "all");
  int all_algos = na == 1 && !strcmp(aitems[0], "all");
  int tsel[T_MAX] = {0}, lsel[L_N] = {0};
  for (int i = 0; i < nt; i++) {
    int found = 0;
    for (int t = 0; t < ntypes; t++)
      if (t >= T_SWEEP ? !strcmp(titems[i], types[t].group) || !strcmp(titems[i], "all")
                       : !strcmp(titems[i], types[t].name) || !strcmp(titems[i], "all") ||
                             (t < T_FSUM && !strcmp(titems[i], types[t].opname)))
        tsel[t] = found = 1;
    if (!found) {
      if (r == 0)
        fprintf(stderr,
                "collsim: unknown --type %s (valid: int, double, byte, vec, noncomm, fsum, dsum, "
                "dprod, logical, bitwise, overflow, all)\n",
                titems[i]);
      return 2;
    }
  }
  for (int i = 0; i < nl; i++) {
    int found = 0;
    for (int t = 0; t < L_N; t++)
      if (t == L_EXPLICIT && !explicit_counts)
        continue;
      else if (!strcmp(litems[i], layout_names[t]))
        lsel[t] = found = 1;
    if (!found) {
      if (r == 0)
        fprintf(stderr, "collsim: unknown --layout %s (valid: even, one, ramp, rev)\n", litems[i]);
      return 2;
    }
  }
  if (explicit_counts && strcmp(comm_kinds, "world")) {
    if (r == 0)
      fprintf(stderr,
              "collsim: --counts gives one count per rank of the world: use --comm world\n");
    return 2;
  }
  if (errors) { /* the erroneous calls instead of the cases */
    const cs_algo_info **sel = malloc(sizeof *sel * (size_t)cs_nalgos);
    int nsel = 0;
    for (int ai = 0; ai < cs_nalgos; ai++) {
      const cs_algo_info *a = &cs_algos[ai];
      int want = all_colls, walg = all_algos;
      for (int i = 0; i < nc && !want; i++) want = !strcmp(citems[i], cs_colls[a->coll].name);
      for (int i = 0; i < na && !walg; i++) walg = !strcmp(aitems[i], a->name);
      if (want && walg) sel[nsel++] = a;
    }
    int rc = run_error_cases(comm, errors, sel, nsel);
    free(sel);
    return rc == 2 ? 2 : 0;
  }
  const int world_p = p;
  long total[3] = {0, 0, 0}; /* passed, failed, known over all communicators */
  char *kbuf = strdup(comm_kinds), *kitems[8];
  int nk = split(kbuf, kitems, 8);
  for (int ki = 0; ki < nk; ki++) {
    MPI_Comm cc;
    if (make_comm(comm, kitems[ki], &cc) != MPI_SUCCESS) {
      if (r == 0) fprintf(stderr, "collsim: cannot create the %s communicator\n", kitems[ki]);
      return 2;
    }
    MPI_Comm_size(cc, &p);
    MPI_Comm_rank(cc, &r);
    tally ty = {0};
    /* The kernel context first (it costs simulated time), with the lane
     * communicator, then the check that it sees the nodes. */
    note(&ty, check_context(cc, expect_ppn, kitems[ki]));
    note(&ty, ki == 0 && r == 0 ? check_count_guards() : 0);
    note(&ty, ki == 0 && r == 0 ? cs_dispatch_verify(stderr) != 0 : 0);
    for (int ci = 0; ci < CS_NCOLL; ci++) {
      int want = all_colls;
      for (int i = 0; i < nc && !want; i++) want = !strcmp(citems[i], cs_colls[ci].name);
      if (!want) continue;
      const cs_coll_info *ci_info = &cs_colls[ci];
      int v = cs_coll_shape((cs_coll)ci) == CS_SHAPE_SPLIT;
      for (int ai = 0; ai < (all_algos ? cs_nalgos : na); ai++) {
        const cs_algo_info *a;
        const char *aname;
        if (all_algos) {
          a = &cs_algos[ai];
          if (a->coll != (cs_coll)ci) continue;
          aname = a->name;
        } else {
          a = cs_algo_find((cs_coll)ci, aitems[ai]);
          if (!a) continue; /* the front door validates names */
          aname = aitems[ai];
        }
        for (int ni_ = 0; ni_ < nn; ni_++) {
          int ok;
          long n = eval_expr(nitems[ni_], p, &ok);
          if (!ok || n < 0) {
            if (r == 0)
              fprintf(stderr, "collsim: bad count '%s' (a number >= 0 or p, p-1, p+1, p/2, p*2)\n",
                      nitems[ni_]);
            return 2;
          }
          /* dedupe counts that coincide for this p */
          int dup = 0;
          for (int k = 0; k < ni_ && !dup; k++) {
            int ok2;
            dup = eval_expr(nitems[k], p, &ok2) == n;
          }
          if (dup) continue;
          for (int li = 0; li < L_N; li++) {
            /* Collectives without blocks run once: with the total of
             * --counts if given, else with the count itself. */
            if (!v && li != (explicit_counts ? L_EXPLICIT : L_EVEN)) continue;
            if (v && !lsel[li]) continue;
            if (ci == CS_reduce_scatter && li == L_REV) continue; /* no displs */
            /* roots */
            int rootlist[4096], nr = 0;
            if (!ci_info->rooted)
              rootlist[nr++] = 0;
            else if (!strcmp(ritems[0], "auto")) {
              if (p <= 16)
                for (int k = 0; k < p; k++) rootlist[nr++] = k;
              else {
                int cand[4] = {0, 1, p / 2, p - 1};
                for (int k = 0; k < 4; k++) rootlist[nr++] = cand[k];
              }
            } else if (!strcmp(ritems[0], "all")) {
              for (int k = 0; k < p && k < 4096; k++) rootlist[nr++] = k;
            } else
              for (int k = 0; k < nroot; k++) {
                int ok3;
                long rv = eval_expr(ritems[k], p, &ok3);
                if (!ok3 || rv < 0 || rv >= p) {
                  if (r == 0)
                    fprintf(stderr,
                            "collsim: bad --root %s for p = %d (valid: 0 .. %d, p/2, p-1)\n",
                            ritems[k], p, p - 1);
                  return 2;
                }
                rootlist[nr++] = (int)rv;
              }
            for (int ri = 0; ri < nr; ri++) {
              int seen = 0;
              for (int k = 0; k < ri; k++) seen |= rootlist[k] == rootlist[ri];
              if (seen) continue;
              for (int ii = 0; ii < ni; ii++) {
                int ip = atoi(iitems[ii]);
                if (ip && !ci_info->in_place) continue;
                for (int t = 0; t < ntypes; t++) {
                  if (!tsel[t]) continue;
                  if (types[t].reduces_only && !ci_info->reduces) continue;
                  /* alltoall sends p (p-1) messages per case: above p = 16
                   * the default types are int (plain data) and vec (a
                   * derived type with gaps); double and byte move the same
                   * bytes. --type int,double,byte,vec runs them all. */
                  if (ci == CS_alltoall && p > 16 && !types_given && (t == T_DOUBLE || t == T_BYTE))
                    continue;
                  /* ops do not matter for data movement: int and byte
                   * cover vec's work except the gaps, so all types run */
                  ccase c = {(cs_coll)ci, a, aname, n, li, rootlist[ri], ip, t, kitems[ki], NULL};
                  int f = run_case(&c, cc, NULL, 0);
                  note(&ty, f);
                }
              }
            }
          }
        }
      }
    }
    /* A case failed iff it failed on some rank. */
    unsigned char *all = r == 0 ? malloc((size_t)(ty.ncase + 1)) : NULL;
    MPI_Reduce(ty.failed_flags, all, (int)ty.ncase, MPI_UNSIGNED_CHAR, MPI_MAX, 0, cc);
    if (r == 0) {
      long failed = 0, known = 0;
      for (long i = 0; i < ty.ncase; i++) {
        failed += all[i] == 1;
        known += all[i] == 2;
      }
      total[0] += ty.ncase - failed - known;
      total[1] += failed;
      total[2] += known;
      free(all);
    }
    free(ty.failed_flags);
    if (cc != comm) MPI_Comm_free(&cc);
    MPI_Comm_rank(comm, &r);
  }
  free(kbuf);
  long sum[3];
  MPI_Reduce(total, sum, 3, MPI_LONG, MPI_SUM, 0, comm);
  if (r == 0) {
    printf("RESULT p=%d passed=%ld failed=%ld known=%ld\n", world_p, sum[0], sum[1], sum[2]);
    fflush(stdout);
  }
  free(cbuf);
  free(abuf);
  free(nbuf);
  free(rbuf);
  free(ibuf);
  free(tbuf);
  free(lbuf);
  return 0;
}

/* ---- verification of timing runs ----------------------------------------- */

/* Gathers (status, message) to rank 0 by point-to-point messages only: the
 * timing run may have replaced any collective of the library by an
 * algorithm under test. Every rank returns the worst status; rank 0 gets the
 * message of the lowest rank with that status. */
static int verdict_to_root(int f, const char *msg, char *what, size_t len, MPI_Comm comm) {
  int p, r, worst = f;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  char buf[600];
  if (r == 0) {
    if (f) snprintf(what, len, "%s", msg);
    for (int k = 1; k < p; k++) {
      int g;
      MPI_Recv(&g, 1, MPI_INT, k, CS_TAG + 7, comm, MPI_STATUS_IGNORE);
      MPI_Recv(buf, (int)sizeof buf, MPI_CHAR, k, CS_TAG + 8, comm, MPI_STATUS_IGNORE);
      if (g > worst || (g && g == worst && !what[0])) snprintf(what, len, "%s", buf);
      if (g > worst) worst = g;
    }
    for (int k = 1; k < p; k++) MPI_Send(&worst, 1, MPI_INT, k, CS_TAG + 9, comm);
  } else {
    snprintf(buf, sizeof buf, "%s", msg);
    MPI_Send(&f, 1, MPI_INT, 0, CS_TAG + 7, comm);
    MPI_Send(buf, (int)sizeof buf, MPI_CHAR, 0, CS_TAG + 8, comm);
    MPI_Recv(&worst, 1, MPI_INT, 0, CS_TAG + 9, comm, MPI_STATUS_IGNORE);
  }
  return worst;
}

int cs_check_verify(cs_coll coll, const cs_algo_info *a, const char *name, long count,
                    const int *counts, int root, int inplace, MPI_Datatype dt, MPI_Comm comm,
                    char *what, size_t len) {
  static int inited;
  if (!inited) { /* shared by SMPI's ranks: the first one creates the types */
    inited = 1;
    types_init();
  }
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  what[0] = '\0';
  /* The harness's type of the timed datatype (double: max, as check does,
   * so that the expected values are exact). */
  int t = dt == MPI_BYTE ? T_BYTE : dt == MPI_INT ? T_INT : dt == MPI_DOUBLE ? T_DOUBLE : -1;
  if (t < 0) {
    snprintf(what, len, "no formula for this datatype");
    return CS_VERIFY_SKIPPED;
  }
  /* Real buffers (send, receive, expected) of up to the whole collective
   * per rank, and the folds of the expected values: refuse what would not
   * fit (the timing run itself uses shared buffers). */
  long total = cs_coll_shape(coll) == CS_SHAPE_BLOCKS ? count * p : count;
  double mem = 3.0 * (double)p * (double)total * (double)types[t].ext, waits = 0;
#ifdef SMPI_H
  /* SMPI 3.32's scan and exscan (one linear algorithm under every selector:
   * smpi_coll.cpp) post a receive into a temporary of its own for every
   * earlier rank at once: p (p - 1) / 2 vectors alive, real memory in a
   * verification (305 GB at p = 1152 and 115200 ints). */
  /* Their waits cost SMPI p (p - 1)^2 / 2 request registrations (p - 1
   * Request::waitany over the p - 1 requests, per rank): 7.6e8 at p = 1152,
   * minutes of wall time for one call; counted with the element folds. */
  if ((a->flags & CS_NATIVE) && (coll == CS_scan || coll == CS_exscan)) {
    mem += 0.5 * (double)p * (double)(p - 1) * (double)count * (double)types[t].ext;
    waits = 0.5 * (double)p * (double)(p - 1) * (double)(p - 1);
  }
#endif
  double work = cs_colls[coll].reduces ? (double)p * p * (double)gen_period(t) : 0;
  if (mem > CS_VERIFY_MAX_BYTES || work + 10 * waits > 4e9) {
    /* Only rank 0's what is read: 8192 ranks formatting it cost 0.3 s. */
    if (r == 0 && waits > 0)
      snprintf(what, len,
               "not verified: its check would take %.3g GB of real buffers, %.3g element "
               "folds and %.3g request waits in SMPI's linear scan (limits %.3g GB, 4e9 folds, "
               "a wait counted as 10)",
               mem / 1e9, work, waits, CS_VERIFY_MAX_BYTES / 1e9);
    else if (r == 0)
      snprintf(what, len,
               "not verified: its check would take %.3g GB of real buffers and %.3g element "
               "folds (limits %.3g GB, 4e9)",
               mem / 1e9, work, CS_VERIFY_MAX_BYTES / 1e9);
    return CS_VERIFY_SKIPPED;
  }
  ccase c = {coll, a, name, count, counts ? L_EXPLICIT : L_EVEN, root, inplace, t, "world", counts};
  int skip = cs_skip_compute, shared = cs_shared_buffers;
  char msg[600] = "";
  /* Process-global switches of the kernels (one OS process for all of
   * SMPI's ranks): changed only while no rank is inside a collective. */
  MPI_Barrier(comm);
  cs_skip_compute = 0;
  cs_shared_buffers = 0;
  int f = run_case(&c, comm, msg, sizeof msg);
  MPI_Barrier(comm);
  cs_skip_compute = skip;
  cs_shared_buffers = shared;
  f = f == 1 ? CS_VERIFY_WRONG : f == 2 ? CS_VERIFY_KNOWN : CS_VERIFY_OK;
  return verdict_to_root(f, msg, what, len, comm);
}
