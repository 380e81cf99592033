#!/usr/bin/env bash
# tests/plots/run.sh CLI: `collsim plot` on every sample CSV of plots/samples for
# every picture kind (the files written must be exactly the expected ones, each a
# valid 900-wide PNG / a complete SVG), and the errors: unknown header, bad
# values, mixed-up columns, duplicates, missing file, gnuplot missing or failing
# (nothing written in each case), an incomplete last line (ignored), columns in
# another order and CRLF line ends (same data), the values of a normalized series.
# Prints each failure and exits 1 if there was one.
set -u
cli=${1:?usage: tests/plots/run.sh path/to/collsim-cli}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
S=$(cd "$here/../../plots/samples" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/collsim-plots.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); }

command -v gnuplot >/dev/null || { echo "FAIL: gnuplot is not installed (apt-get install gnuplot-nox)"; exit 1; }

check_png() { # file: PNG magic, IHDR 900 wide, 600 tall plus the legend below (21 px per entry)
  local f=$1
  [ -s "$f" ] || { fail "$f: missing or empty"; return; }
  [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { fail "$f: not a PNG"; return; }
  local wh
  wh=$(head -c 24 "$f" | tail -c 8 | od -An -tu1 | awk '{print $1*16777216+$2*65536+$3*256+$4 "x" $5*16777216+$6*65536+$7*256+$8}')
  local w=${wh%x*} h=${wh#*x}
  [ "$w" = 900 ] && [ "$h" -ge 600 ] && [ "$h" -le $((600 + 21 * 40)) ] ||
    { fail "$f: size $wh, expected 900 x (600 + 21 per legend entry)"; return; }
  ok
}
check_svg() { # file: an SVG document, complete
  local f=$1
  [ -s "$f" ] || { fail "$f: missing or empty"; return; }
  grep -q '<svg' "$f" || { fail "$f: no <svg element"; return; }
  tail -c 100 "$f" | grep -q '</svg>' || { fail "$f: unfinished (no </svg> at the end)"; return; }
  if command -v xmllint >/dev/null; then
    xmllint --noout "$f" 2>/dev/null || { fail "$f: not well-formed XML"; return; }
  fi
  ok
}

# The pictures each sample gives, by kind.
declare -A want
want[bench.csv:time]="time-allreduce-p8-hydra time-allreduce-p36-hydra time-reduce_scatter_block-p36-hydra"
want[bench.csv:normalized]="normalized-allreduce-p8-hydra normalized-allreduce-p36-hydra"
want[bench.csv:speedup]="speedup-allreduce-p8-vs-native-hydra speedup-allreduce-p8-vs-lib-ompi-hydra
  speedup-allreduce-p36-vs-native-hydra speedup-allreduce-p36-vs-lib-ompi-hydra
  speedup-reduce_scatter_block-p36-vs-native-hydra"
want[predict.csv:model]="model-allreduce-p8-hydra model-allreduce-p36-hydra model-reduce_scatter_block-p36-hydra"
want[predict-nosim.csv:model]="model-allgather-p17-hydra"
want[validate.csv:validate]="validate-allreduce"
want[guidelines.csv:guidelines]="guideline-ar-le-red+bc-p16-hydra guideline-ar-le-red+bc-p32-hydra
  guideline-rsb-le-red+sc-p16-hydra guideline-rsb-le-red+sc-p32-hydra"
kinds="time normalized speedup model validate guidelines"

# expect_files OUTDIR STDOUT NAMES...: the pictures printed and present are exactly NAMES (png+svg).
expect_files() {
  local out=$1 printed=$2
  shift 2
  local exp got n
  exp=$(for n in "$@"; do echo "$out/$n.png"; echo "$out/$n.svg"; done | sort)
  got=$(sort "$printed")
  [ "$exp" = "$got" ] || { fail "$out: printed files differ from the expected ones:"; diff <(echo "$exp") <(echo "$got") | head -20; }
  got=$(find "$out" -mindepth 1 -maxdepth 1 | sort)
  [ "$exp" = "$got" ] || { fail "$out: files present differ from the expected ones:"; diff <(echo "$exp") <(echo "$got") | head -20; }
  for n in "$@"; do
    check_png "$out/$n.png"
    check_svg "$out/$n.svg"
  done
}
# nothing_written OUTDIR: no picture (and no partial file) in OUTDIR.
nothing_written() {
  if [ -d "$1" ] && [ -n "$(find "$1" -mindepth 1 | head -1)" ]; then
    fail "$1: files written although the run failed: $(find "$1" -mindepth 1 | head -3 | tr '\n' ' ')"
  else ok; fi
}

# ---- 1. every sample x every kind (and all, and the default) --------------------
run=0
for csv in bench.csv predict.csv predict-nosim.csv validate.csv guidelines.csv; do
  for kind in $kinds all default; do
    run=$((run + 1))
    out=$tmp/out$run
    args=(plot "$S/$csv" --out "$out")
    [ "$kind" = default ] || args+=(--kind "$kind")
    "$cli" "${args[@]}" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
    names=()
    if [ "$kind" = all ] || [ "$kind" = default ]; then
      for k in $kinds; do names+=(${want[$csv:$k]:-}); done
    else
      names=(${want[$csv:$kind]:-})
    fi
    if [ ${#names[@]} -gt 0 ]; then
      [ $rc = 0 ] || { fail "plot $csv --kind $kind: exit $rc"; cat "$tmp/stderr"; continue; }
      expect_files "$out" "$tmp/stdout" "${names[@]}"
    else
      [ $rc = 2 ] || fail "plot $csv --kind $kind: exit $rc, expected 2 (kind does not fit the CSV)"
      grep -q "needs a" "$tmp/stderr" || fail "plot $csv --kind $kind: no message saying what the kind needs"
      nothing_written "$out"
    fi
  done
done
# Several files at once, one format.
"$cli" plot "$S"/*.csv --out "$tmp/many" --format png >"$tmp/stdout" 2>"$tmp/stderr" || fail "plot of all samples: exit $?"
[ "$(wc -l <"$tmp/stdout")" = 19 ] || fail "plot of all samples --format png: $(wc -l <"$tmp/stdout") files printed, expected 19"
[ -z "$(find "$tmp/many" -name '*.svg')" ] || fail "--format png wrote SVG files"

# ---- 2. bad input: exit 2, a message, nothing written ----------------------------
bad_case() { # name expected-message file...
  local name=$1 msg=$2
  shift 2
  "$cli" plot "$@" --out "$tmp/bad-$name" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  [ $rc = 2 ] || fail "$name: exit $rc, expected 2"
  grep -q -- "$msg" "$tmp/stderr" || { fail "$name: message '$msg' missing; got:"; head -5 "$tmp/stderr"; }
  [ -s "$tmp/stdout" ] && fail "$name: printed files: $(head -2 "$tmp/stdout")"
  nothing_written "$tmp/bad-$name"
}
printf '# not collsim\nname,value\nx,1\n' >"$tmp/unknown.csv"
bad_case unknown-header "unknown CSV kind" "$tmp/unknown.csv"
grep -q "guideline,lhs,rhs,p,bytes" "$tmp/stderr" || fail "unknown header: the known headers are not listed"
bad_case missing-file "cannot open" "$tmp/nonexistent.csv"
: >"$tmp/empty.csv"
bad_case empty-file "no header line" "$tmp/empty.csv"
awk -F, 'BEGIN{OFS=","} !/^#/ && NR>3 && $2=="ceilhalf" && $4==2048 {$6="abc"} {print}' "$S/bench.csv" >"$tmp/nan.csv"
bad_case bad-number "median_s: 'abc' is not a number" "$tmp/nan.csv"
grep -q "nan.csv:[0-9]" "$tmp/stderr" || fail "bad number: no file:line in the message"
awk -F, 'BEGIN{OFS=","} !/^#/ && NR>3 && $2=="butterfly" && $4==512 {NF=NF-1} {print}' "$S/bench.csv" >"$tmp/short.csv"
bad_case short-row "fields, but the header has" "$tmp/short.csv"
sed 's/^coll,algo,p,bytes,reps,median_s,mean_s,min_s,max_s/coll,algo,p,bytes,reps,max_s,mean_s,min_s,median_s/' "$S/bench.csv" >"$tmp/swapped.csv"
bad_case swapped-columns "columns mixed up" "$tmp/swapped.csv"
sed 's/^guideline,lhs,rhs,p,bytes,lhs_s,rhs_s/guideline,lhs,rhs,p,bytes,rhs_s,lhs_s/' "$S/guidelines.csv" >"$tmp/gswap.csv"
bad_case swapped-guideline "ratio .* is not lhs_s / rhs_s" "$tmp/gswap.csv"
bad_case duplicate-rows "the same coll, algo, p and bytes" "$S/bench.csv" "$S/bench.csv"
awk -F, 'BEGIN{OFS=","} !/^#/ && NR>3 && $6!="" && $3==36 {$8=$7*1.5} {print}' "$S/predict.csv" >"$tmp/relerr.csv"
bad_case wrong-rel-err "rel_err .* is not" "$tmp/relerr.csv"
bad_case kind-mismatch "needs a bench CSV" "$S/validate.csv" --kind speedup
bad_case no-baseline "no baseline" <(grep -v '^allreduce' "$S/bench.csv") --kind normalized
bad_case unknown-option "unknown option" "$S/bench.csv" --colour red
bad_case unknown-kind "unknown --kind" "$S/bench.csv" --kind pie

# gnuplot missing / failing: exit 1, a message, nothing written.
COLLSIM_GNUPLOT=$tmp/no-gnuplot "$cli" plot "$S/validate.csv" --out "$tmp/nognuplot" >/dev/null 2>"$tmp/stderr"
rc=$?
[ $rc = 1 ] || fail "gnuplot missing: exit $rc, expected 1"
grep -q "gnuplot not found" "$tmp/stderr" || fail "gnuplot missing: no clear message"
nothing_written "$tmp/nognuplot"
printf '#!/bin/sh\necho "this gnuplot is broken" >&2\nexit 3\n' >"$tmp/badgnuplot"
chmod +x "$tmp/badgnuplot"
COLLSIM_GNUPLOT=$tmp/badgnuplot "$cli" plot "$S/validate.csv" --out "$tmp/gnuplotfails" >/dev/null 2>"$tmp/stderr"
rc=$?
[ $rc = 1 ] || fail "gnuplot failing: exit $rc, expected 1"
grep -q "gnuplot failed" "$tmp/stderr" && grep -q "this gnuplot is broken" "$tmp/stderr" ||
  fail "gnuplot failing: message or gnuplot's output missing"
nothing_written "$tmp/gnuplotfails"
# A gnuplot that exits 0 but writes no picture is caught too.
printf '#!/bin/sh\nexit 0\n' >"$tmp/lazygnuplot"
chmod +x "$tmp/lazygnuplot"
COLLSIM_GNUPLOT=$tmp/lazygnuplot "$cli" plot "$S/validate.csv" --out "$tmp/lazy" >/dev/null 2>"$tmp/stderr"
[ $? = 1 ] || fail "gnuplot writing nothing: exit status not 1"
nothing_written "$tmp/lazy"

# ---- 3. the data drawn ------------------------------------------------------------
# An incomplete last line (a writer still appending) is ignored, even a well-formed one.
cp "$S/bench.csv" "$tmp/trunc.csv"
printf 'allreduce,circulant,8,33554432,10,0.5,0.5,0.5,0.5,0.5,0.5' >>"$tmp/trunc.csv"
"$cli" plot "$tmp/trunc.csv" --kind time --out "$tmp/trunc" --data "$tmp/trunc-data" >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
[ $rc = 0 ] || fail "truncated last line: exit $rc"
grep -q "incomplete last line" "$tmp/stderr" || fail "truncated last line: no note"
grep -q '^33554432 ' "$tmp"/trunc-data/time-allreduce-p8-hydra/s*.dat && fail "truncated last line: its row was drawn"
expect_files "$tmp/trunc" "$tmp/stdout" ${want[bench.csv:time]}

# The same data whatever the column order, extra columns and CRLF line ends.
"$cli" plot "$S/bench.csv" --out "$tmp/ref" --data "$tmp/ref-data" >/dev/null 2>&1 || fail "reference run failed"
awk -F, 'BEGIN{OFS=","} /^#/ {print; next} {s="extra"; for (i=NF; i>=1; i--) s=s "," $i; print s}' "$S/bench.csv" | sed 's/^extra,/x,/; s/$/\r/' >"$tmp/perm.csv"
"$cli" plot "$tmp/perm.csv" --out "$tmp/perm" --data "$tmp/perm-data" >/dev/null 2>"$tmp/stderr" ||
  { fail "columns reversed + CRLF: exit $?"; cat "$tmp/stderr"; }
diff -r -x gnuplot.log "$tmp/ref-data" "$tmp/perm-data" >/dev/null || fail "columns reversed + CRLF: different data drawn"

# normalized: time(algo) / time(circulant_rsag) at the same (p, bytes).
d=$tmp/ref-data/normalized-allreduce-p36-hydra
want_ratio=$(awk -F, '$1=="allreduce" && $3==36 && $4==131072 && $2=="circulant" {a=$6} $1=="allreduce" && $3==36 && $4==131072 && $2=="circulant_rsag" {b=$6} END {printf "%.6g", a/b}' "$S/bench.csv")
got_ratio=$(awk '$1==131072 {printf "%.6g", $2}' "$d/s1.dat")
[ -n "$got_ratio" ] && [ "$got_ratio" = "$want_ratio" ] || fail "normalized circulant at 128 KiB: got '$got_ratio', expected $want_ratio"
[ -e "$d/s5.dat" ] && [ ! -e "$d/s6.dat" ] || fail "normalized: expected 5 series (the baseline itself is the line at 1)"
# speedup: time(lib) / time(algo).
d=$tmp/ref-data/speedup-allreduce-p8-vs-lib-ompi-hydra
want_ratio=$(awk -F, '$1=="allreduce" && $3==8 && $4==32 && $2=="lib:ompi" {a=$6} $1=="allreduce" && $3==8 && $4==32 && $2=="ceilhalf" {b=$6} END {printf "%.6g", a/b}' "$S/bench.csv")
got_ratio=$(awk '$1==32 {printf "%.6g", $2}' "$d/s3.dat")
[ "$got_ratio" = "$want_ratio" ] || fail "speedup of ceilhalf over lib:ompi at 32 B: got '$got_ratio', expected $want_ratio"
# time: microseconds, error bars min..max; none with reps = 1.
d=$tmp/ref-data/time-allreduce-p36-hydra
want_row=$(awk -F, '$1=="allreduce" && $3==36 && $4==8192 && $2=="butterfly" {printf "%.6g %.6g %.6g", $6*1e6, $8*1e6, $9*1e6}' "$S/bench.csv")
got_row=$(awk '$1==8192 {printf "%.6g %.6g %.6g", $2, $3, $4}' "$d/s4.dat")
[ "$got_row" = "$want_row" ] || fail "time of butterfly at 8 KiB: got '$got_row', expected '$want_row' (µs)"
awk -F, 'BEGIN{OFS=","} !/^#/ && NR>3 {$5=1} {print}' "$S/bench.csv" >"$tmp/reps1.csv"
"$cli" plot "$tmp/reps1.csv" --kind time --out "$tmp/reps1" --data "$tmp/reps1-data" >/dev/null 2>&1 || fail "reps=1: exit $?"
awk '$2 != $3 || $2 != $4 {bad=1} END {exit bad}' "$tmp"/reps1-data/time-allreduce-p36-hydra/s*.dat ||
  fail "reps = 1: error bars drawn"
# guidelines: the violated rows are the ones the CSV marks.
nv_csv=$(awk -F, '$1=="rsb<=red+sc" && $4==32 && $10==1' "$S/guidelines.csv" | wc -l)
"$cli" plot "$S/guidelines.csv" --out "$tmp/g" --data "$tmp/g-data" >/dev/null 2>&1 || fail "guidelines: exit $?"
nv_dat=$(awk '$3==1' "$tmp"/g-data/guideline-rsb-le-red+sc-p32-hydra/s*.dat | wc -l)
[ "$nv_csv" -gt 0 ] && [ "$nv_csv" = "$nv_dat" ] || fail "guidelines: $nv_dat violations drawn, the CSV has $nv_csv"
# algo_ran: a library series names the algorithm that ran over each size
# range in its legend (the selector switching, hover-free); the column is
# not part of a series' identity (one series, one style); rows of 0 bytes,
# not drawn on the log axis, are not named either.
{
  echo "coll,algo,p,bytes,reps,median_s,mean_s,min_s,max_s,ci_lo_s,ci_hi_s,algo_ran,reduced_bytes,copied_bytes"
  echo "allreduce,lib:ompi,8,0,1,2e-6,2e-6,2e-6,2e-6,2e-6,2e-6,default,0,"
  for b in 8 4096 32768 262144; do
    ran=rdb; [ $b -gt 4096 ] && ran=rab_rdb
    echo "allreduce,lib:ompi,8,$b,1,$b.5e-9,$b.5e-9,$b.5e-9,$b.5e-9,$b.5e-9,$b.5e-9,$ran,$((7 * b)),"
    echo "allreduce,circulant,8,$b,1,$b.7e-9,$b.7e-9,$b.7e-9,$b.7e-9,$b.7e-9,$b.7e-9,circulant,$((24 * b)),$((8 * b))"
  done
} >"$tmp/ran.csv"
"$cli" plot "$tmp/ran.csv" --kind time,speedup --out "$tmp/ran" --data "$tmp/ran-data" >/dev/null 2>&1 || fail "algo_ran: exit $?"
grep -q "lib:ompi: rdb 8 B-4 KiB, rab_rdb 32 KiB-256 KiB" "$tmp/ran/time-allreduce-p8.svg" || fail "algo_ran: the time legend does not name rdb and rab_rdb with their sizes"
grep -q "lib:ompi: rdb 8 B-4 KiB, rab_rdb 32 KiB-256 KiB (= 1)" "$tmp/ran/speedup-allreduce-p8-vs-lib-ompi.svg" || fail "algo_ran: the speedup reference does not name the algorithms"
[ "$(ls "$tmp"/ran-data/time-allreduce-p8/s*.dat | wc -l)" = 2 ] || fail "algo_ran: expected 2 series (algo_ran must not split one)"

echo "$checks checks passed, $fails failed"
[ $fails = 0 ]
