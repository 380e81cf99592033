/* Conformance: every predefined datatype of MPI 4.0 that the library's C
 * header names (C, Fortran and C++ names, the optional sized ones, and the
 * pairs for MINLOC/MAXLOC) with every predefined op, in MPI_Allreduce,
 * MPI_Reduce (root p-1) and MPI_Reduce_scatter_block, under
 * MPI_ERRORS_RETURN. Each process prints, per type and op, the error class
 * of each call or a digest of its result. The data are small values whose
 * sums, products, minima and maxima are exact in any order of evaluation
 * (no overflow, integer-valued floating point), so the library alone and
 * the PMPI library with every algorithm must print the same (run.sh); calls
 * MPI forbids must give the library's own answer (the PMPI library leaves
 * them to it).
 *
 *   mpirun -np P optypes [valid]
 *
 * With "valid", only the pairs MPI 4.0 Sec. 6.9.2 allows (the classes as
 * written here from the standard, independently of algos/validate.c): the
 * PMPI library must then print no "erroneous call" warning (run.sh checks
 * its log), since every such call is valid.
 */
#include <complex.h>
#include <stdbool.h>

#include "conf.h"

/* How an element is laid out in C, to write values of it: an integer of
 * the type's size (I), floating point (F: float, double, long double by
 * size; F16 of unknown encoding gets zeros), complex (C, component size),
 * a logical (B: 0 and 1), a MINLOC/MAXLOC pair (value of kind v and size
 * vs, then an int). cls: MPI 4.0's class (c: C integer, f: Fortran integer,
 * r: floating point, l: logical, x: complex, b: byte, m: multi-language,
 * p: pair, -: none). */
typedef struct {
  const char *name;
  MPI_Datatype dt;
  char kind, cls;
  int csize;   /* F, C: component size; P: value size */
  char vk;     /* P: value kind (I, F) */
  int unsureF; /* floating point of unknown encoding: zeros only */
} tdesc;

#define T(n, k, c, s) {#n, n, k, c, s, 0, 0},
#define TP(n, vk, vs) {#n, n, 'P', 'p', vs, vk, 0},
static const tdesc ts[] = {
    /* C */
    T(MPI_CHAR, 'I', '-', 1) T(MPI_SHORT, 'I', 'c', 2) T(MPI_INT, 'I', 'c', 4) T(
        MPI_LONG, 'I', 'c', 8) T(MPI_LONG_LONG_INT, 'I', 'c', 8) T(MPI_LONG_LONG, 'I', 'c', 8)
        T(MPI_SIGNED_CHAR, 'I', 'c', 1) T(MPI_UNSIGNED_CHAR, 'I', 'c', 1) T(
            MPI_UNSIGNED_SHORT, 'I', 'c', 2) T(MPI_UNSIGNED, 'I', 'c', 4)
            T(MPI_UNSIGNED_LONG, 'I', 'c', 8) T(MPI_UNSIGNED_LONG_LONG, 'I', 'c', 8) T(
                MPI_FLOAT, 'F', 'r', 4) T(MPI_DOUBLE, 'F', 'r', 8) T(MPI_LONG_DOUBLE, 'F', 'r', 16)
                T(MPI_WCHAR, 'I', '-', 4) T(MPI_C_BOOL, 'B', 'l', 1) T(MPI_INT8_T, 'I', 'c', 1)
                    T(MPI_INT16_T, 'I', 'c', 2) T(MPI_INT32_T, 'I', 'c', 4)
                        T(MPI_INT64_T, 'I', 'c', 8) T(MPI_UINT8_T, 'I', 'c', 1)
                            T(MPI_UINT16_T, 'I', 'c', 2) T(MPI_UINT32_T, 'I', 'c', 4)
                                T(MPI_UINT64_T, 'I', 'c', 8) T(MPI_C_COMPLEX, 'C', 'x', 4)
                                    T(MPI_C_FLOAT_COMPLEX, 'C', 'x', 4)
                                        T(MPI_C_DOUBLE_COMPLEX, 'C', 'x', 8)
                                            T(MPI_C_LONG_DOUBLE_COMPLEX, 'C', 'x', 16) T(
                                                MPI_BYTE, 'I', 'b', 1) T(MPI_PACKED, 'I', '-', 1)
                                                T(MPI_AINT, 'I', 'm', 8) T(MPI_OFFSET, 'I', 'm', 8)
                                                    T(MPI_COUNT, 'I', 'm', 8)
    /* Fortran (C handles) */
    T(MPI_INTEGER, 'I', 'f', 4) T(MPI_REAL, 'F', 'r', 4) T(MPI_DOUBLE_PRECISION, 'F', 'r', 8)
        T(MPI_COMPLEX, 'C', 'x', 4) T(MPI_LOGICAL, 'B', 'l', 4) T(MPI_CHARACTER, 'I', '-', 1)
            T(MPI_DOUBLE_COMPLEX, 'C', 'x', 8)
#ifdef MPI_INTEGER1
                T(MPI_INTEGER1, 'I', 'f', 1)
#endif
#ifdef MPI_INTEGER2
                    T(MPI_INTEGER2, 'I', 'f', 2)
#endif
#ifdef MPI_INTEGER4
                        T(MPI_INTEGER4, 'I', 'f', 4)
#endif
#ifdef MPI_INTEGER8
                            T(MPI_INTEGER8, 'I', 'f', 8)
#endif
#ifdef MPI_REAL2
                                T(MPI_REAL2, 'F', 'r', 2)
#endif
#ifdef MPI_REAL4
                                    T(MPI_REAL4, 'F', 'r', 4)
#endif
#ifdef MPI_REAL8
                                        T(MPI_REAL8, 'F', 'r', 8)
#endif
#ifdef MPI_COMPLEX4
                                            T(MPI_COMPLEX4, 'C', 'x', 2)
#endif
#ifdef MPI_COMPLEX8
                                                T(MPI_COMPLEX8, 'C', 'x', 4)
#endif
#ifdef MPI_COMPLEX16
                                                    T(MPI_COMPLEX16, 'C', 'x', 8)
#endif
/* MPI_INTEGER16, MPI_REAL16 and MPI_COMPLEX32 are left out: SMPI 3.32
 * aborts on any op on MPI_INTEGER16 (Open MPI 4.1 does not define it
 * here), and the C type of a 16-byte Fortran real is not known here. */
#ifdef MPI_LOGICAL1
                                                        T(MPI_LOGICAL1, 'B', '-', 1)
                                                            T(MPI_LOGICAL2, 'B', '-', 2)
                                                                T(MPI_LOGICAL4, 'B', '-', 4)
                                                                    T(MPI_LOGICAL8, 'B', '-', 8)
#endif
    /* C++ */
    T(MPI_CXX_BOOL, 'B', 'l', 1) T(MPI_CXX_FLOAT_COMPLEX, 'C', 'x', 4)
        T(MPI_CXX_DOUBLE_COMPLEX, 'C', 'x', 8) T(MPI_CXX_LONG_DOUBLE_COMPLEX, 'C', 'x', 16)
    /* MINLOC/MAXLOC pairs */
    TP(MPI_FLOAT_INT, 'F', 4) TP(MPI_DOUBLE_INT, 'F', 8) TP(MPI_LONG_INT, 'I', 8)
        TP(MPI_2INT, 'I', 4) TP(MPI_SHORT_INT, 'I', 2) TP(MPI_LONG_DOUBLE_INT, 'F', 16)
            TP(MPI_2REAL, 'F', 4) TP(MPI_2DOUBLE_PRECISION, 'F', 8) TP(MPI_2INTEGER, 'I', 4)};

static const struct {
  const char *name;
  MPI_Op op;
  const char *classes; /* MPI 4.0 Sec. 6.9.2 */
} os[] = {{"MPI_MAX", MPI_MAX, "cfrm"},     {"MPI_MIN", MPI_MIN, "cfrm"},
          {"MPI_SUM", MPI_SUM, "cfrxm"},    {"MPI_PROD", MPI_PROD, "cfrxm"},
          {"MPI_LAND", MPI_LAND, "cl"},     {"MPI_LOR", MPI_LOR, "cl"},
          {"MPI_LXOR", MPI_LXOR, "cl"},     {"MPI_BAND", MPI_BAND, "cfbm"},
          {"MPI_BOR", MPI_BOR, "cfbm"},     {"MPI_BXOR", MPI_BXOR, "cfbm"},
          {"MPI_MAXLOC", MPI_MAXLOC, "p"},  {"MPI_MINLOC", MPI_MINLOC, "p"},
          {"MPI_REPLACE", MPI_REPLACE, ""}, {"MPI_NO_OP", MPI_NO_OP, ""}};

static void put_int(char *e, int size, long long v) {
  memset(e, 0, (size_t)size);
  memcpy(e, &v, size < 8 ? (size_t)size : 8); /* little-endian: the low bytes */
}
static void put_float(char *e, int csize, double v) {
  if (csize == 4) *(float *)e = (float)v;
  if (csize == 8) *(double *)e = v;
  if (csize == 16) *(long double *)e = v;
}

/* Element i of rank r for op o: small values, exact in any order. */
static void gen(const tdesc *t, int size, int o, int r, int p, long i, char *e) {
  MPI_Op op = os[o].op;
  long v;
  if (op == MPI_PROD)
    v = r == (int)(i % p) ? 2 : 1; /* one factor 2 per element */
  else if (op == MPI_SUM)
    v = (r + i) % 4;
  else if (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR)
    v = (1 << ((r + i) % 7)) | (((r * 3 + i) & 2) << 3);
  else if (op == MPI_LAND || op == MPI_LOR || op == MPI_LXOR)
    v = (r + i) % 3 != 0;
  else
    v = (r * 5 + i * 3) % 11;
  memset(e, 0, (size_t)size);
  switch (t->kind) {
  case 'I': put_int(e, size, v); break;
  case 'B': put_int(e, size, v != 0); break;
  case 'F':
    if (t->csize == size) put_float(e, t->csize, (double)v);
    break;
  case 'C':
    if (2 * t->csize == size) {
      put_float(e, t->csize, (double)v);
      put_float(e + t->csize, t->csize, op == MPI_PROD ? 0.0 : (double)((r + 2 * i) % 3));
    }
    break;
  case 'P': {
    /* value, then the index (the rank): ties between ranks are common */
    int vs = t->csize;
    if (t->vk == 'I')
      put_int(e, vs, (r * 5 + i * 3) % 4);
    else if (vs + (int)sizeof(int) <= size || vs == 16)
      put_float(e, vs, (double)((r * 5 + i * 3) % 4));
    size_t off = (size_t)size - sizeof(int); /* the int is last (MPI_Type_size: no gaps) */
    int idx = (r * 7) % p;
    memcpy(e + off, &idx, sizeof idx);
    break;
  }
  }
}

/* Elements are built packed (size bytes each) and unpacked into the type's
 * layout, so that gaps and padding (long double, pairs) are zero. */
static void fill(const tdesc *t, int size, int o, int r, int p, int n, void *buf) {
  char *packed = calloc((size_t)n + 1, (size_t)size);
  for (int i = 0; i < n; i++) gen(t, size, o, r, p, i, packed + (size_t)i * size);
  int pos = 0;
  MPI_Unpack(packed, n * size, &pos, buf, n, t->dt, MPI_COMM_SELF);
  free(packed);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int valid_only = argc > 1 && !strcmp(argv[1], "valid");
  int p, r;
  MPI_Comm comm = MPI_COMM_WORLD;
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  const int n = 2 * p + 3, blk = 3; /* per call; per block of reduce_scatter_block */
  for (size_t t = 0; t < sizeof ts / sizeof ts[0]; t++) {
    if (ts[t].dt == MPI_DATATYPE_NULL) continue; /* a name the library does not provide */
    int size = 0;
    MPI_Aint lb, ext;
    MPI_Type_size(ts[t].dt, &size);
    MPI_Type_get_extent(ts[t].dt, &lb, &ext);
    if (size <= 0) continue;
    for (size_t o = 0; o < sizeof os / sizeof os[0]; o++) {
      int valid = ts[t].cls != '-' && strchr(os[o].classes, ts[t].cls) != NULL;
      if (valid_only && !valid) continue;
      size_t len = (size_t)ext * (size_t)(n > p * blk ? n : p * blk) + 64;
      char *s = calloc(1, len), *d = calloc(1, len), line[400];
      int at = snprintf(line, sizeof line, "%s", valid ? "" : "(not in MPI's table) ");
      for (int c = 0; c < 3; c++) {
        int rc, cnt = c == 2 ? blk : n, rn = c == 2 ? blk : n;
        fill(&ts[t], size, (int)o, r, p, c == 2 ? p * blk : n, s);
        memset(d, 0, len);
        if (c == 0)
          rc = MPI_Allreduce(s, d, cnt, ts[t].dt, os[o].op, comm);
        else if (c == 1)
          rc = MPI_Reduce(s, d, cnt, ts[t].dt, os[o].op, p - 1, comm);
        else
          rc = MPI_Reduce_scatter_block(s, d, cnt, ts[t].dt, os[o].op, comm);
        if (c == 1 && r != p - 1) rn = 0;
        char one[128] = "";
        if (rc != MPI_SUCCESS) {
          int cls = rc;
          MPI_Error_class(rc, &cls);
          snprintf(one, sizeof one, "class %d", cls);
        } else if (rn > 0) {
          int psz = 0, pos = 0;
          MPI_Pack_size(rn, ts[t].dt, MPI_COMM_SELF, &psz);
          char *pk = malloc((size_t)psz + 1);
          MPI_Pack(d, rn, ts[t].dt, pk, psz, &pos, MPI_COMM_SELF);
          snprintf(one, sizeof one, "%016llx", (unsigned long long)conf_fnv(pk, (size_t)pos));
          free(pk);
        } else {
          snprintf(one, sizeof one, "ok");
        }
        static const char *cn[3] = {"allreduce", "reduce", "reduce_scatter_block"};
        if (at < (int)sizeof line)
          at += snprintf(line + at, sizeof line - (size_t)at, "%s%s %s", c ? ", " : "", cn[c], one);
      }
      char label[160];
      snprintf(label, sizeof label, "%s %s", ts[t].name, os[o].name);
      conf_report(label, line);
      free(s), free(d);
    }
  }
  conf_finish();
  MPI_Finalize();
  return 0;
}
