#!/usr/bin/env bash
# collsim compare A.csv B.csv (issue 28 item 11): the ratio B / A per common row
# by the key columns, the table on stdout, compare.csv, the picture, how the two
# runs differ (their first lines); a clear error when nothing is common or the
# kinds differ. Hand-written files: no simulation (under 1 s).
# usage: compare.sh CLI
set -uo pipefail
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }
hdr=coll,algo,p,bytes,reps,median_s,mean_s,min_s,max_s,ci_lo_s,ci_hi_s
row() { echo "allreduce,$1,4,$2,1,$3,$3,$3,$3,$3,$3"; }
{ echo "# collsim bench backend=smpi platform=m.xml placement=aaaa np=4 coll=allreduce type=byte"
  echo $hdr; row circulant 1024 1e-6; row circulant 4096 2e-6; row butterfly 1024 4e-6; row ring 8 1; } >a.csv
{ echo "# collsim bench backend=smpi platform=m.xml placement=bbbb np=4 coll=allreduce type=byte"
  echo $hdr; row butterfly 1024 2e-6; row circulant 4096 3e-6; row circulant 1024 1.5e-6; row bruck 8 1; } >b.csv
"$cli" compare a.csv b.csv --out out >stdout 2>stderr || { cat stderr; no "compare failed"; }
grep -q '3 rows in common (A has 4, B 4)' stdout || no "rows in common: $(cat stdout)"
grep -q '^allreduce,circulant,4,1024 .* 1\.500$' stdout || no "circulant 1024: want ratio 1.5: $(cat stdout)"
grep -q '^allreduce,butterfly,4,1024 .* 0\.500$' stdout || no "butterfly 1024: want ratio 0.5"
grep -q 'geometric mean 1\.040' stdout || no "geometric mean (1.5 x 1.5 x 0.5)^(1/3) = 1.040: $(tail -1 stdout)"
grep -q -- '--hostfile (placement): A has aaaa, B bbbb' stderr || no "the runs' difference is not named: $(cat stderr)"
[ "$(grep -c '^allreduce,' out/compare.csv)" = 3 ] || no "compare.csv rows"
grep -q '^coll,algo,p,bytes,a_median_s,b_median_s,ratio$' out/compare.csv || no "compare.csv header"
grep -q '^allreduce,circulant,4,4096,2e-06,3e-06,1.5$' out/compare.csv || no "compare.csv row"
head -1 out/compare.csv | grep -q '^# collsim compare a=a.csv a_digest=' || no "compare.csv first line"
[ -s out/compare.png ] && [ -s out/compare.svg ] || no "no picture"
# Nothing in common: exit 1 naming the keys and a row of each.
{ echo $hdr; row ring 16 1; } >c.csv
"$cli" compare a.csv c.csv --out out2 >/dev/null 2>stderr
rc=$?
[ $rc = 1 ] || no "nothing in common: exit $rc, want 1"
grep -q 'no row in common by coll,algo,p,bytes' stderr || no "nothing in common: $(cat stderr)"
# Files of two kinds: exit 2.
printf 'coll,algo,p,bytes,table1_s,model_s,sim_s,rel_err\nallreduce,circulant,4,1024,,1e-6,1e-6,0\n' >p.csv
"$cli" compare a.csv p.csv --out out3 >/dev/null 2>stderr
rc=$?
[ $rc = 2 ] && grep -q 'is a predict file, the first a bench file' stderr || no "two kinds: exit $rc, $(cat stderr)"
[ $fail = 0 ] && echo "compare: ok"
exit $fail
