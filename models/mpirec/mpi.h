/* collsim's recording MPI: NOT an MPI library, but the small part of MPI
 * that collsim's kernels (algos/) use, for a third build of the kernel
 * sources whose only purpose is the cost models (models/record.c).
 *
 * The p ranks of a case run in ONE process as coroutines
 * (models/mpirec/mpirec.c). Messages are delivered for real with MPI's
 * matching rules (source, tag, communicator, non-overtaking); sends are
 * buffered, receives block the coroutine until a match exists. For every
 * rank the layer records the operations the evaluator prices: blocking
 * exchanges (MPI_Sendrecv, MPI_PROC_NULL sides dropped), MPI_Send, MPI_Recv,
 * and local work (backends/mpirec.c calls csrec_charge for every charge of
 * algos/local.c), nonblocking posts and waits (MPI_Isend, MPI_Irecv, MPI_Wait,
 * MPI_Waitall), and library collectives inside the priced call (below).
 * Setup before the priced call (communicators, attributes, the setup
 * collectives) is executed among the coroutines but not recorded: it costs
 * nothing. A communicator created inside the priced call fails the case.
 * Records name world ranks. Every other MPI call a kernel might make fails
 * with an error naming it.
 *
 * All MPI names are macros for csrec_* symbols, so nothing here can clash
 * with a real MPI library. What the kernels' helpers need beyond MPI (local
 * work, shared memory) reaches this layer through backends/mpirec.c
 * (algos/backend.h), chosen by the link: nothing in algos/ tests which MPI
 * it is compiled against.
 */
#ifndef CS_MPIREC_H
#define CS_MPIREC_H

#include <stddef.h>

typedef struct csrec_type *MPI_Datatype;
typedef struct csrec_op *MPI_Op;
typedef struct csrec_comm *MPI_Comm;
typedef struct csrec_req *MPI_Request;
typedef ptrdiff_t MPI_Aint;
typedef int MPI_Info;
typedef struct {
  int MPI_SOURCE, MPI_TAG, MPI_ERROR;
  long bytes;
} MPI_Status;
typedef void MPI_User_function(void *in, void *inout, int *len, MPI_Datatype *dt);
typedef int MPI_Comm_copy_attr_function(MPI_Comm comm, int keyval, void *extra, void *in, void *out,
                                        int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int keyval, void *value, void *extra);

enum {
  MPI_SUCCESS = 0,
  MPI_ERR_BUFFER,
  MPI_ERR_COUNT,
  MPI_ERR_TYPE,
  MPI_ERR_TAG,
  MPI_ERR_COMM,
  MPI_ERR_RANK,
  MPI_ERR_ROOT,
  MPI_ERR_OP,
  MPI_ERR_ARG,
  MPI_ERR_TRUNCATE,
  MPI_ERR_NO_MEM,
  MPI_ERR_KEYVAL,
  MPI_ERR_UNSUPPORTED_OPERATION,
  MPI_ERR_OTHER,
  MPI_ERR_INTERN
};

#define MPI_PROC_NULL           (-2)
#define MPI_ANY_SOURCE          (-1)
#define MPI_ANY_TAG             (-1)
#define MPI_UNDEFINED           (-32766)
#define MPI_KEYVAL_INVALID      (-1)
#define MPI_MAX_PROCESSOR_NAME  256
#define MPI_IN_PLACE            ((void *)-1)
#define MPI_STATUS_IGNORE       ((MPI_Status *)0)
#define MPI_STATUSES_IGNORE     ((MPI_Status *)0)
#define MPI_INFO_NULL           0
#define MPI_COMM_NULL           ((MPI_Comm)0)
#define MPI_REQUEST_NULL        ((MPI_Request)0)
#define MPI_DATATYPE_NULL       ((MPI_Datatype)0)
#define MPI_OP_NULL             ((MPI_Op)0)
#define MPI_COMM_NULL_COPY_FN   ((MPI_Comm_copy_attr_function *)0)
#define MPI_COMM_NULL_DELETE_FN ((MPI_Comm_delete_attr_function *)0)
#define MPI_COMM_DUP_FN         csrec_comm_dup_fn
int csrec_comm_dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag);

/* Communicators: the world of the running case, and each rank's self. */
extern MPI_Comm csrec_world, csrec_self;
#define MPI_COMM_WORLD csrec_world
#define MPI_COMM_SELF  csrec_self

/* Predefined datatypes and operations. */
extern struct csrec_type csrec_t_byte, csrec_t_char, csrec_t_signed_char, csrec_t_unsigned_char,
    csrec_t_short, csrec_t_unsigned_short, csrec_t_int, csrec_t_unsigned, csrec_t_long,
    csrec_t_unsigned_long, csrec_t_long_long, csrec_t_unsigned_long_long, csrec_t_float,
    csrec_t_double, csrec_t_aint, csrec_t_packed, csrec_t_int32, csrec_t_int64, csrec_t_uint32,
    csrec_t_uint64;
#define MPI_BYTE               (&csrec_t_byte)
#define MPI_CHAR               (&csrec_t_char)
#define MPI_SIGNED_CHAR        (&csrec_t_signed_char)
#define MPI_UNSIGNED_CHAR      (&csrec_t_unsigned_char)
#define MPI_SHORT              (&csrec_t_short)
#define MPI_UNSIGNED_SHORT     (&csrec_t_unsigned_short)
#define MPI_INT                (&csrec_t_int)
#define MPI_UNSIGNED           (&csrec_t_unsigned)
#define MPI_LONG               (&csrec_t_long)
#define MPI_UNSIGNED_LONG      (&csrec_t_unsigned_long)
#define MPI_LONG_LONG          (&csrec_t_long_long)
#define MPI_LONG_LONG_INT      (&csrec_t_long_long)
#define MPI_UNSIGNED_LONG_LONG (&csrec_t_unsigned_long_long)
#define MPI_FLOAT              (&csrec_t_float)
#define MPI_DOUBLE             (&csrec_t_double)
#define MPI_AINT               (&csrec_t_aint)
#define MPI_PACKED             (&csrec_t_packed)
#define MPI_INT32_T            (&csrec_t_int32)
#define MPI_INT64_T            (&csrec_t_int64)
#define MPI_UINT32_T           (&csrec_t_uint32)
#define MPI_UINT64_T           (&csrec_t_uint64)
/* Predefined types the recorder knows by name only: validation (algos/
 * validate.c) tells them apart as every MPI does; its reductions refuse them. */
extern struct csrec_type csrec_t_int8, csrec_t_int16, csrec_t_uint8, csrec_t_uint16,
    csrec_t_long_double, csrec_t_offset, csrec_t_count, csrec_t_c_bool, csrec_t_c_float_complex,
    csrec_t_c_double_complex, csrec_t_c_long_double_complex, csrec_t_2int, csrec_t_float_int,
    csrec_t_double_int, csrec_t_long_int, csrec_t_short_int, csrec_t_long_double_int;
#define MPI_INT8_T                (&csrec_t_int8)
#define MPI_INT16_T               (&csrec_t_int16)
#define MPI_UINT8_T               (&csrec_t_uint8)
#define MPI_UINT16_T              (&csrec_t_uint16)
#define MPI_LONG_DOUBLE           (&csrec_t_long_double)
#define MPI_OFFSET                (&csrec_t_offset)
#define MPI_COUNT                 (&csrec_t_count)
#define MPI_C_BOOL                (&csrec_t_c_bool)
#define MPI_C_FLOAT_COMPLEX       (&csrec_t_c_float_complex)
#define MPI_C_DOUBLE_COMPLEX      (&csrec_t_c_double_complex)
#define MPI_C_LONG_DOUBLE_COMPLEX (&csrec_t_c_long_double_complex)
#define MPI_2INT                  (&csrec_t_2int)
#define MPI_FLOAT_INT             (&csrec_t_float_int)
#define MPI_DOUBLE_INT            (&csrec_t_double_int)
#define MPI_LONG_INT              (&csrec_t_long_int)
#define MPI_SHORT_INT             (&csrec_t_short_int)
#define MPI_LONG_DOUBLE_INT       (&csrec_t_long_double_int)
/* Predefined names of MPI 4.0 that the recorded kernels never use: defined
 * as MPI_DATATYPE_NULL, as SMPI 3.32 defines the ones it lacks, so that
 * algos/validate.c's type table leaves them out (models price MPI_BYTE). */
#define MPI_REAL                    MPI_DATATYPE_NULL
#define MPI_DOUBLE_PRECISION        MPI_DATATYPE_NULL
#define MPI_INTEGER                 MPI_DATATYPE_NULL
#define MPI_LOGICAL                 MPI_DATATYPE_NULL
#define MPI_COMPLEX                 MPI_DATATYPE_NULL
#define MPI_C_COMPLEX               MPI_DATATYPE_NULL
#define MPI_CXX_BOOL                MPI_DATATYPE_NULL
#define MPI_CXX_FLOAT_COMPLEX       MPI_DATATYPE_NULL
#define MPI_CXX_DOUBLE_COMPLEX      MPI_DATATYPE_NULL
#define MPI_CXX_LONG_DOUBLE_COMPLEX MPI_DATATYPE_NULL
#define MPI_2REAL                   MPI_DATATYPE_NULL
#define MPI_2DOUBLE_PRECISION       MPI_DATATYPE_NULL
#define MPI_2INTEGER                MPI_DATATYPE_NULL
#define MPI_MAX_OBJECT_NAME         64
#define MPI_Type_get_name           csrec_type_get_name
/* MPI_COMBINER_NAMED for a predefined type, another combiner for a derived
 * one; the counts are 0 (nothing else is described). */
#define MPI_COMBINER_NAMED    1
#define MPI_COMBINER_HINDEXED 2
#define MPI_Type_get_envelope csrec_type_get_envelope
int csrec_type_get_envelope(MPI_Datatype dt, int *nints, int *naddrs, int *ntypes, int *combiner);
/* The name of a predefined type ("MPI_INT"); "" for a derived one. */
int csrec_type_get_name(MPI_Datatype dt, char *name, int *len);

extern struct csrec_op csrec_op_max, csrec_op_min, csrec_op_sum, csrec_op_prod, csrec_op_land,
    csrec_op_band, csrec_op_lor, csrec_op_bor, csrec_op_lxor, csrec_op_bxor;
#define MPI_MAX  (&csrec_op_max)
#define MPI_MIN  (&csrec_op_min)
#define MPI_SUM  (&csrec_op_sum)
#define MPI_PROD (&csrec_op_prod)
#define MPI_LAND (&csrec_op_land)
#define MPI_BAND (&csrec_op_band)
#define MPI_LOR  (&csrec_op_lor)
#define MPI_BOR  (&csrec_op_bor)
#define MPI_LXOR (&csrec_op_lxor)
#define MPI_BXOR (&csrec_op_bxor)
/* Known by name only (validation); MPI_Reduce_local refuses them. */
extern struct csrec_op csrec_op_maxloc, csrec_op_minloc, csrec_op_replace, csrec_op_no_op;
#define MPI_MAXLOC  (&csrec_op_maxloc)
#define MPI_MINLOC  (&csrec_op_minloc)
#define MPI_REPLACE (&csrec_op_replace)
#define MPI_NO_OP   (&csrec_op_no_op)

/* ---- what the kernels may call ---------------------------------------- */

#define MPI_Comm_size          csrec_comm_size
#define MPI_Comm_rank          csrec_comm_rank
#define MPI_Send               csrec_send
#define MPI_Recv               csrec_recv
#define MPI_Sendrecv           csrec_sendrecv
#define MPI_Get_processor_name csrec_get_processor_name
int csrec_comm_size(MPI_Comm comm, int *size);
int csrec_comm_rank(MPI_Comm comm, int *rank);
int csrec_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm);
int csrec_recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
               MPI_Status *status);
int csrec_sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                   int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                   MPI_Status *status);
int csrec_get_processor_name(char *name, int *len);

/* Nonblocking point-to-point: the data move as for blocking calls; the
 * records hold each post and each wait, and the evaluator prices the flows
 * in flight together (models/eval.c). MPI_Irecv names its source. */
#define MPI_Isend   csrec_isend
#define MPI_Irecv   csrec_irecv
#define MPI_Wait    csrec_wait
#define MPI_Waitall csrec_waitall
int csrec_isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                MPI_Request *req);
int csrec_irecv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                MPI_Request *req);
int csrec_wait(MPI_Request *req, MPI_Status *status);
int csrec_waitall(int n, MPI_Request reqs[], MPI_Status statuses[]);

/* Datatypes: byte-segment type maps. */
#define MPI_Type_size            csrec_type_size
#define MPI_Type_get_extent      csrec_type_get_extent
#define MPI_Type_get_true_extent csrec_type_get_true_extent
#define MPI_Type_contiguous      csrec_type_contiguous
#define MPI_Type_create_hindexed csrec_type_create_hindexed
#define MPI_Type_create_resized  csrec_type_create_resized
#define MPI_Type_commit          csrec_type_commit
#define MPI_Type_free            csrec_type_free
#define MPI_Get_address          csrec_get_address
#define MPI_Aint_diff            csrec_aint_diff
#define MPI_Pack                 csrec_pack
#define MPI_Unpack               csrec_unpack
#define MPI_Pack_size            csrec_pack_size
int csrec_type_size(MPI_Datatype dt, int *size);
int csrec_type_get_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent);
int csrec_type_get_true_extent(MPI_Datatype dt, MPI_Aint *lb, MPI_Aint *extent);
int csrec_type_contiguous(int count, MPI_Datatype old, MPI_Datatype *out);
int csrec_type_create_hindexed(int n, const int lens[], const MPI_Aint displs[], MPI_Datatype old,
                               MPI_Datatype *out);
int csrec_type_create_resized(MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *out);
int csrec_type_commit(MPI_Datatype *dt);
int csrec_type_free(MPI_Datatype *dt);
int csrec_get_address(const void *p, MPI_Aint *a);
MPI_Aint csrec_aint_diff(MPI_Aint a, MPI_Aint b);
int csrec_pack(const void *in, int count, MPI_Datatype dt, void *out, int outsize, int *pos,
               MPI_Comm comm);
int csrec_unpack(const void *in, int insize, int *pos, void *out, int count, MPI_Datatype dt,
                 MPI_Comm comm);
int csrec_pack_size(int count, MPI_Datatype dt, MPI_Comm comm, int *size);

/* Operations. */
#define MPI_Reduce_local   csrec_reduce_local
#define MPI_Op_commutative csrec_op_commutative
#define MPI_Op_create      csrec_op_create
#define MPI_Op_free        csrec_op_free
int csrec_reduce_local(const void *in, void *inout, int count, MPI_Datatype dt, MPI_Op op);
int csrec_op_commutative(MPI_Op op, int *commute);
int csrec_op_create(MPI_User_function *fn, int commute, MPI_Op *op);
int csrec_op_free(MPI_Op *op);

/* Communicators and attributes (node and lane contexts are built with these). */
#define MPI_Comm_split         csrec_comm_split
#define MPI_Comm_dup           csrec_comm_dup
#define MPI_Comm_free          csrec_comm_free
#define MPI_Comm_create_keyval csrec_comm_create_keyval
#define MPI_Comm_free_keyval   csrec_comm_free_keyval
#define MPI_Comm_set_attr      csrec_comm_set_attr
#define MPI_Comm_get_attr      csrec_comm_get_attr
#define MPI_Comm_delete_attr   csrec_comm_delete_attr
int csrec_comm_split(MPI_Comm comm, int color, int key, MPI_Comm *out);
int csrec_comm_dup(MPI_Comm comm, MPI_Comm *out);
int csrec_comm_free(MPI_Comm *comm);
int csrec_comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del,
                             int *keyval, void *extra);
int csrec_comm_free_keyval(int *keyval);
int csrec_comm_set_attr(MPI_Comm comm, int keyval, void *value);
int csrec_comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag);
int csrec_comm_delete_attr(MPI_Comm comm, int keyval);

/* Collectives. In setup (before the priced call: the kernel context,
 * models/record.c) MPI_Barrier, MPI_Bcast, MPI_Allreduce (predefined
 * integer types, MPI_MIN, MPI_MAX, MPI_SUM) and MPI_Allgather are executed
 * among the ranks and recorded as nothing: they cost nothing, as the
 * timing driver builds the context before it times. Inside the priced call
 * every collective below, on any communicator, is priced as the algorithm
 * SMPI's selector runs for it (models/mpirec/libcoll.c): its messages are
 * sent and recorded like the kernel's own; SMPI charges no local work
 * inside a library call of a collsim kernel, nor does the recording. An
 * algorithm that libcoll.c does not reproduce fails the case with a
 * message naming the collective and the algorithm. */
#define MPI_Barrier              csrec_barrier
#define MPI_Bcast                csrec_bcast
#define MPI_Allreduce            csrec_allreduce
#define MPI_Allgather            csrec_allgather
#define MPI_Reduce               csrec_reduce
#define MPI_Reduce_scatter_block csrec_reduce_scatter_block
#define MPI_Reduce_scatter       csrec_reduce_scatter
#define MPI_Allgatherv           csrec_allgatherv
#define MPI_Gather               csrec_gather
#define MPI_Gatherv              csrec_gatherv
#define MPI_Scatter              csrec_scatter
#define MPI_Scatterv             csrec_scatterv
#define MPI_Scan                 csrec_scan
#define MPI_Exscan               csrec_exscan
#define MPI_Alltoall             csrec_alltoall
int csrec_barrier(MPI_Comm comm);
int csrec_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm);
int csrec_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                    MPI_Comm comm);
int csrec_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                    MPI_Datatype rtype, MPI_Comm comm);
int csrec_reduce(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op, int root, MPI_Comm c);
int csrec_reduce_scatter_block(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op,
                               MPI_Comm c);
int csrec_reduce_scatter(const void *s, void *r, const int n[], MPI_Datatype dt, MPI_Op op,
                         MPI_Comm c);
int csrec_allgatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[], const int d[],
                     MPI_Datatype rt, MPI_Comm c);
int csrec_gather(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt, int root,
                 MPI_Comm c);
int csrec_gatherv(const void *s, int sn, MPI_Datatype st, void *r, const int rn[], const int d[],
                  MPI_Datatype rt, int root, MPI_Comm c);
int csrec_scatter(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                  int root, MPI_Comm c);
int csrec_scatterv(const void *s, const int sn[], const int d[], MPI_Datatype st, void *r, int rn,
                   MPI_Datatype rt, int root, MPI_Comm c);
int csrec_scan(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op, MPI_Comm c);
int csrec_exscan(const void *s, void *r, int n, MPI_Datatype dt, MPI_Op op, MPI_Comm c);
int csrec_alltoall(const void *s, int sn, MPI_Datatype st, void *r, int rn, MPI_Datatype rt,
                   MPI_Comm c);

/* The priced forms of the setup collectives (libcoll.c). */
int csrec_lib_barrier(MPI_Comm comm);
int csrec_lib_bcast(void *buf, int count, MPI_Datatype dt, int root, MPI_Comm comm);
int csrec_lib_allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype dt, MPI_Op op,
                        MPI_Comm comm);
int csrec_lib_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                        MPI_Datatype rtype, MPI_Comm comm);
/* For libcoll.c: the library's own context of c (its messages never match
 * the kernel's), whether dt is predefined, a copy of data that only private
 * buffers hold (nothing for the shared arena, never charged), and the
 * running case's selector and the ranks per SimGrid host SMPI sees. */
MPI_Comm csrec_lib_comm(MPI_Comm c);
int csrec_type_builtin(MPI_Datatype dt);
void csrec_copy_data(const void *src, int scount, MPI_Datatype st, void *dst, int rcount,
                     MPI_Datatype rt);
int csrec_in_arena(const void *p);
const char *csrec_selector(void);
int csrec_ppn(void);

/* ---- for backends/mpirec.c and models/record.c ----------------------------- */

/* Local work of b bytes of kind (cs_work of algos/pwcost.h: 0 reduction,
 * 1 copy) by the running rank (recorded; nothing for b <= 0). */
void csrec_charge(double bytes, int kind);
/* Memory shared by all ranks (as SMPI_SHARED_MALLOC): distinct addresses
 * within a rank, contents meaningless, never touched by the layer, and no
 * copy is made for a message whose buffer lies there. */
void *csrec_shared_malloc(size_t bytes);
void csrec_shared_free(void *p);

#endif
