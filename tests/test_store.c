/* The results store (store/results.c): the header lines are those docs/csv.md
 * documents, rows written are read back by column name, a killed run's half
 * row is dropped by the resume scan, a file of another configuration is left
 * alone, and a header is recognised as the kind whose key columns it has. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "assert.h"
#include "results.h"

static void count(const char *algo, long bytes, void *ctx) {
  (void)algo;
  (void)bytes;
  ++*(int *)ctx;
}

static char *slurp(const char *path) {
  static char buf[8192];
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  buf[n] = '\0';
  return buf;
}

int main(void) {
  char h[1024];
  /* The headers of docs/csv.md, letter for letter. */
  ASSERT_STR_EQ(cs_csv_header(CS_CSV_BENCH, h, sizeof h),
                "coll,algo,p,bytes,reps,median_s,mean_s,min_s,max_s,ci_lo_s,ci_hi_s,algo_ran,"
                "reduced_bytes,copied_bytes");
  ASSERT_STR_EQ(cs_csv_header(CS_CSV_PREDICT, h, sizeof h),
                "coll,algo,p,bytes,table1_s,model_s,sim_s,rel_err,model_kind");
  ASSERT_STR_EQ(cs_csv_header(CS_CSV_VALIDATE, h, sizeof h),
                "coll,algo,p,bytes,model_s,sim_s,measured_s,measured_lo_s,measured_hi_s,err_model,"
                "err_sim,launches,launch_min_s,launch_max_s");
  ASSERT_STR_EQ(cs_csv_header(CS_CSV_GUIDELINES, h, sizeof h),
                "guideline,lhs,rhs,p,bytes,lhs_s,rhs_s,ratio,tolerance,violated,side");
  ASSERT_STR_EQ(cs_csv_header(CS_CSV_SAMPLES, h, sizeof h), "coll,algo,p,bytes,rep,time_s");
  ASSERT_STR_EQ(cs_csv_header(CS_CSV_CALIB, h, sizeof h), "kind,pair,k,bytes,rep,time_s,launch");

  /* A bench file: comment, header, two rows and half a third. */
  char path[] = "/tmp/collsim-test-store.XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return 1;
  close(fd);
  cs_bench_meta m = {"smpi", "p.xml", "allreduce", "byte", NULL,  NULL,   8,      0, 0,
                     1,      0,       NULL,        0,      "bor", "00ab", "12cd", -1};
  char first[1024];
  cs_csv_bench_comment(first, sizeof first, &m);
  ASSERT_STR_EQ(first,
                "# collsim bench backend=smpi platform=p.xml platform_digest=00ab placement=12cd "
                "np=8 coll=allreduce type=byte op=bor root=0 in_place=0 reps=1 warmup=0\n");
  FILE *f = fopen(path, "w");
  fputs(first, f);
  cs_csv_write_header(f, CS_CSV_BENCH);
  cs_bench_extra x = {"circulant", 7168, NAN};
  cs_csv_bench_row(f, "allreduce", "circulant", 8, 1024, 1, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6,
                   1.5e-6, &x);
  cs_csv_bench_row(f, "allreduce", "circulant", 8, 4096, 3, 2e-6, 2.1e-6, 1.9e-6, 2.4e-6, 1.8e-6,
                   2.5e-6, &x);
  fputs("allreduce,circulant,8,40", f); /* a row being written when the run was killed */
  fclose(f);
  ASSERT_DBL_EQ(cs_bench_file_extra(path), 1);
  ASSERT_DBL_EQ(cs_bench_lookup(path, "circulant", 4096), 2e-6);
  ASSERT_DBL_EQ(cs_bench_lookup_col(path, "circulant", 1024, "reduced_bytes"), 7168);
  ASSERT_DBL_EQ(cs_bench_lookup_col(path, "circulant", 4096, "ci_hi_s"), 2.5e-6);
  ASSERT_DBL_EQ(cs_bench_lookup(path, "circulant", 8), -1);
  ASSERT_DBL_EQ(cs_bench_lookup(path, "butterfly", 1024), -1);
  int rows = 0;
  ASSERT_DBL_EQ(cs_bench_scan_rows(path, first, count, &rows), 2);
  ASSERT_DBL_EQ(rows, 2);
  const char *all = slurp(path);
  ASSERT_DBL_EQ(all[strlen(all) - 1] == '\n', 1); /* the half row is gone */
  /* Another configuration: refused, and the file is left alone. */
  size_t before = strlen(slurp(path));
  ASSERT_DBL_EQ(cs_bench_scan_rows(path, "# collsim bench backend=mpi\n", count, &rows), -1);
  ASSERT_DBL_EQ(strlen(slurp(path)), before);

  /* A file made before the extra columns: recognised, resumed in its own
   * schema (rows without the extra fields), and its charging setting is
   * the absent lib_charge field (SMPI's behaviour). */
  f = fopen(path, "w");
  fputs(first, f);
  fputs("coll,algo,p,bytes,reps,median_s,mean_s,min_s,max_s,ci_lo_s,ci_hi_s\n", f);
  cs_csv_bench_row(f, "allreduce", "lib:ompi", 8, 1024, 1, 3e-6, 3e-6, 3e-6, 3e-6, 3e-6, 3e-6,
                   NULL);
  fclose(f);
  ASSERT_DBL_EQ(cs_bench_file_extra(path), 0);
  ASSERT_DBL_EQ(cs_bench_lookup(path, "lib:ompi", 1024), 3e-6);
  ASSERT_DBL_EQ(cs_bench_scan_rows(path, first, count, &rows), 1);
  m.lib_charge = 1;
  cs_csv_bench_comment(first, sizeof first, &m);
  ASSERT_DBL_EQ(strstr(first, " lib_charge=reductions,copies\n") != NULL, 1);
  ASSERT_DBL_EQ(cs_bench_scan_rows(path, first, count, &rows), -1); /* charged != uncharged */
  ASSERT_DBL_EQ(cs_bench_file_extra("/nonexistent/x.csv"), -1);

  /* How a file was made, compared key by key (store/provenance.h): a value
   * with spaces is quoted and reads back whole; an older file's unquoted
   * cfg=... with spaces reads whole too; a resume with another placement is
   * refused, naming --hostfile, and with another type naming --type and
   * nothing about the library's charging. */
  cs_prov a, b;
  char pl[2048], why[2048];
  m.cfg = "--cfg=smpi/allreduce:rab --cfg=x:y";
  m.gamma = 2.5e-10;
  cs_csv_bench_comment(pl, sizeof pl, &m);
  ASSERT_DBL_EQ(strstr(pl, " cfg=\"--cfg=smpi/allreduce:rab --cfg=x:y\" ") != NULL, 1);
  ASSERT_DBL_EQ(strstr(pl, " gamma=2.5e-10 ") != NULL, 1);
  ASSERT_DBL_EQ(cs_prov_parse(pl, &a), 0);
  ASSERT_STR_EQ(a.kind, "bench");
  ASSERT_STR_EQ(cs_prov_get(&a, "cfg"), "--cfg=smpi/allreduce:rab --cfg=x:y");
  ASSERT_DBL_EQ(cs_prov_parse("# collsim bench np=8 cfg=--cfg=a:b --cfg=c:d reps=1\n", &b), 0);
  ASSERT_STR_EQ(cs_prov_get(&b, "cfg"), "--cfg=a:b --cfg=c:d");
  ASSERT_STR_EQ(cs_prov_get(&b, "reps"), "1");
  b = a;
  ASSERT_DBL_EQ(cs_prov_diff(&a, &b, cs_prov_bench_option, why, sizeof why), 0);
  cs_prov_set(&b, "placement", "99ef");
  ASSERT_DBL_EQ(cs_prov_diff(&a, &b, cs_prov_bench_option, why, sizeof why), 1);
  ASSERT_STR_EQ(why, "--hostfile (placement): the file has 12cd, this run 99ef");
  b = a;
  cs_prov_set(&b, "type", "int");
  cs_prov_set(&b, "op", "sum");
  ASSERT_DBL_EQ(cs_prov_diff(&a, &b, cs_prov_bench_option, why, sizeof why), 2);
  ASSERT_DBL_EQ(strstr(why, "--type (type): the file has byte, this run int") != NULL, 1);
  ASSERT_DBL_EQ(strstr(why, "lib_charge") == NULL, 1);
  cs_prov_set(&b, "op", NULL); /* a key the file has and the run lacks */
  ASSERT_DBL_EQ(cs_prov_diff(&a, &b, NULL, why, sizeof why), 2);
  ASSERT_DBL_EQ(strstr(why, "op: the file has bor, this run nothing") != NULL, 1);
  ASSERT_DBL_EQ(cs_prov_parse("coll,algo\n", &b), -1);
  ASSERT_DBL_EQ(cs_digest_str(CS_DIGEST_INIT, "a") == 0xaf63dc4c8601ec8cULL, 1); /* FNV-1a */

  /* Predict rows: absent values are empty fields, read back as such. */
  f = fopen(path, "w");
  cs_csv_write_header(f, CS_CSV_PREDICT);
  cs_csv_predict_row(f, "allreduce", "native", 8, 1024, NAN, NAN, 3e-6, NAN, NULL);
  cs_csv_predict_row(f, "allreduce", "butterfly", 8, 1024, NAN, 2e-6, 3e-6, 0.5, "abg");
  fclose(f);
  ASSERT_STR_EQ(
      strchr(slurp(path), '\n') + 1,
      "allreduce,native,8,1024,,,3e-06,,\nallreduce,butterfly,8,1024,,2e-06,3e-06,0.5,abg\n");
  cs_csv_reader r;
  ASSERT_DBL_EQ(cs_csv_open(&r, path), 0);
  ASSERT_DBL_EQ(cs_csv_next(&r), 1);
  ASSERT_STR_EQ(cs_csv_get(&r, cs_csv_col(&r, "sim_s")), "3e-06");
  ASSERT_STR_EQ(cs_csv_get(&r, cs_csv_col(&r, "model_s")), "");
  ASSERT_STR_EQ(cs_csv_get(&r, cs_csv_col(&r, "model_kind")), "");
  ASSERT_DBL_EQ(cs_csv_next(&r), 1);
  ASSERT_STR_EQ(cs_csv_get(&r, cs_csv_col(&r, "model_kind")), "abg");
  ASSERT_DBL_EQ(cs_csv_next(&r), 0);
  cs_csv_close(&r);

  /* Kinds: the most specific first; a guidelines file without "side" is one. */
  char line[] = "guideline,lhs,rhs,p,bytes,lhs_s,rhs_s,ratio,tolerance,violated";
  char *fld[CS_CSV_MAXCOLS];
  int nf = cs_csv_split(line, fld, CS_CSV_MAXCOLS);
  const cs_csv_kind order[] = {CS_CSV_GUIDELINES, CS_CSV_VALIDATE, CS_CSV_PREDICT, CS_CSV_BENCH};
  ASSERT_DBL_EQ(cs_csv_kind_of(fld, nf, order, 4), CS_CSV_GUIDELINES);
  char bench[] = "algo, coll ,\"bytes\",p,median_s";
  nf = cs_csv_split(bench, fld, CS_CSV_MAXCOLS);
  ASSERT_DBL_EQ(cs_csv_kind_of(fld, nf, order, 4), CS_CSV_BENCH);
  char other[] = "name,value";
  nf = cs_csv_split(other, fld, CS_CSV_MAXCOLS);
  ASSERT_DBL_EQ(cs_csv_kind_of(fld, nf, order, 4), -1);

  unlink(path);
  return cs_test_end();
}
