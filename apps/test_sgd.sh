#!/usr/bin/env bash
# The example application under both libraries (issue 31's "done when"):
#  1. sgd built with smpicc and libcollsim-smpi.o, under smpirun on an abg
#     platform of 8 hosts, with COLLSIM_ALLREDUCE=circulant: its own check
#     passes and the log shows circulant served every allreduce (steps + 3
#     calls, no fallback);
#  2. the same with the library's allreduce (nothing set): it passes too;
#  3. the time of one training allreduce (N x 8 bytes) inside the
#     application, from COLLSIM_PMPI_TIME's lines of runs with 1 and 3 steps
#     ((T3 - T1) / 2: the first call also waits for the processes'
#     different exits of MPI_Init), equals bench's time of the same
#     algorithm, p and size on the same platform to 1e-9 (the library's
#     reductions free in both: --lib-charge off), and the two differ;
#  4. collsim app on the same platform writes app.csv and report.md: the
#     library's row and circulant's (every allreduce served, the time of the
#     run above, the speedup the ratio of the times);
#  5. sgd built with mpicc, under mpirun with libcollsim-pmpi.so and the
#     same settings: it passes, circulant served every allreduce.
# usage: test_sgd.sh SGD_SMPI SGD_MPI LIBPMPI CLI
set -u
smpi_app=$1 mpi_app=$2 lib=$3 cli=$4
for v in $(env | sed -n 's/^\(COLLSIM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
w=$(mktemp -d /tmp/collsim-app.XXXXXX)
trap 'rm -rf "$w"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
P=8 N=32768
"$cli" platform abg --np $P --out "$w/p.xml" --hostfile "$w/p.hosts" || exit 1
read -r -a flags <<<"$("$cli" platform --print-flags)"

# sim TAG STEPS [VAR=VALUE...]: sgd under smpirun; output in $w/TAG.{out,err,log}
sim() {
  local tag=$1 steps=$2
  shift 2
  env "$@" COLLSIM_PMPI_TIME=1 COLLSIM_PMPI_LOG="$w/$tag.log" timeout 60 smpirun -np $P \
    -platform "$w/p.xml" -hostfile "$w/p.hosts" -no-privatize --log=root.thres:warning \
    "${flags[@]}" "$smpi_app" --params $N --steps "$steps" >"$w/$tag.out" 2>"$w/$tag.err" ||
    fail "$tag: smpirun status $? ($(tail -2 "$w/$tag.err"))"
  grep -q '^sgd: PASS' "$w/$tag.out" || fail "$tag: the application's check: $(tail -1 "$w/$tag.out")"
  touch "$w/$tag.log"
}
# allreduce_time TAG: the time line's seconds
allreduce_time() { sed -n 's/^collsim-smpi: time allreduce seconds=\([^ ]*\) .*/\1/p' "$w/$1.log"; }

for steps in 1 3; do
  sim circ$steps $steps COLLSIM_ALLREDUCE=circulant
  want="collsim-smpi: allreduce circulant calls=$((steps + 3)) fallback=0 outside=0 rank=0"
  grep -qx "$want" "$w/circ$steps.log" || fail "circ$steps: no line '$want' in the log: $(cat "$w/circ$steps.log")"
  grep -q "warning" "$w/circ$steps.err" && fail "circ$steps: a warning: $(grep warning "$w/circ$steps.err")"
  sim lib$steps $steps
  grep -q "algo=native" "$w/lib$steps.log" || fail "lib$steps: no native time line"
done
"$cli" bench --platform "$w/p.xml" --hostfile "$w/p.hosts" --np $P --coll allreduce \
  --algos circulant,native --bytes $((N * 8)) --lib-charge off --out "$w/bench.csv" >/dev/null 2>&1 ||
  fail "bench failed"
bench() { awk -F, -v a="$1" '$2 == a && $1 == "allreduce" { print $6 }' "$w/bench.csv"; }
check() { # NAME TAG
  local t1 t3 b
  t1=$(allreduce_time "${2}1") t3=$(allreduce_time "${2}3") b=$(bench "$1")
  awk -v t1="$t1" -v t3="$t3" -v b="$b" -v n="$1" 'BEGIN {
    if (t1 == "" || t3 == "" || b == "") { print "FAIL: " n ": missing times"; exit 1 }
    a = (t3 - t1) / 2; e = a > b ? (a - b) / b : (b - a) / b
    printf "%s: one training allreduce %.12g s in the application, %.12g s in bench, rel. error %.2g\n", n, a, b, e
    exit e <= 1e-9 ? 0 : 1 }' || fail "$1: the application's allreduce time differs from bench's"
}
check circulant circ
check native lib
[ "$(bench circulant)" != "$(bench native)" ] || fail "circulant and the library take the same time"

# mpirun with libcollsim-pmpi.so, the same settings
COLLSIM_ALLREDUCE=circulant COLLSIM_PMPI_LOG="$w/mpi.log" timeout 60 mpirun --oversubscribe \
  --allow-run-as-root --mca btl_vader_single_copy_mechanism none -np 4 -x LD_PRELOAD="$lib" \
  -x COLLSIM_ALLREDUCE -x COLLSIM_PMPI_LOG "$mpi_app" --params $N --steps 3 >"$w/mpi.out" 2>"$w/mpi.err" ||
  fail "mpirun: status $? ($(tail -3 "$w/mpi.err"))"
grep -q '^sgd: PASS' "$w/mpi.out" || fail "mpirun: the application's check: $(tail -1 "$w/mpi.out")"
grep -qx "collsim-pmpi: allreduce circulant calls=6 fallback=0 outside=0 rank=0" "$w/mpi.log" ||
  fail "mpirun: circulant did not serve every allreduce: $(cat "$w/mpi.log" 2>/dev/null)"
# collsim app on the same platform: the library's row and circulant's, every
# allreduce served, the speedup the ratio of the two application times.
"$cli" app --platform "$w/p.xml" --hostfile "$w/p.hosts" --np $P --algos circulant \
  --privatization no --out "$w/study" -- "$smpi_app" --params $N --steps 3 >"$w/study.out" 2>&1 ||
  fail "collsim app: status $? ($(tail -3 "$w/study.out"))"
awk -F, -v t="$(sed -n 's/.* time app seconds=\([^ ]*\) .*/\1/p' "$w/circ3.log")" '
  /^#/ || $1 == "coll" { next }
  $2 == "native" { nat = $4; ns = $5; nserved = $8 } $2 == "circulant" { c = $4; cs = $5; served = $8; calls = $7 }
  END { ok = nat > 0 && ns == 1 && nserved == 0 && served == 6 && calls == 6 && c == t && cs + 0 > 0
        d = cs - nat / c; if (d < 0) d = -d; exit ok && d < 1e-5 ? 0 : 1 }' "$w/study/app.csv" ||
  fail "collsim app: unexpected app.csv: $(cat "$w/study/app.csv")"
[ -s "$w/study/report.md" ] || fail "collsim app: no report.md"

[ $fails = 0 ] && echo "ok: sgd passes under smpirun (circulant, library) and mpirun; circulant served every allreduce; allreduce times equal bench's"
[ $fails = 0 ]
