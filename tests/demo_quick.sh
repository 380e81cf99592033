#!/usr/bin/env bash
# collsim demo --quick (demo/demo.c): every step, then a second run that reuses
# it all, except one bench CSV made by an older collsim (another first line:
# lib_charge=gamma, before the library's copies were charged), which the demo
# starts over instead of refusing (the demo owns its files).
set -u
cli=$1 dir=$2
fail=0
rm -rf "$dir"
"$cli" demo --quick --out "$dir" >/dev/null 2>&1 || { echo "FAILED: the first demo run"; exit 1; }
csv="$dir/bench-hydra8x4-allreduce.csv"
for f in report.md guidelines-abg33/violations.md bench-hydra8x4-allreduce.csv; do
  [ -s "$dir/$f" ] && echo "ok: $f written" || { echo "FAILED: $f missing"; fail=1; }
done
sed -i '1s/lib_charge=[^ ]*/lib_charge=gamma/' "$csv"
out=$("$cli" demo --quick --out "$dir" 2>&1) || { echo "FAILED: the second run: $out"; exit 1; }
grep -q 'table1: reusing' <<<"$out" && echo "ok: the second run reuses table1" ||
  { echo "FAILED: table1 not reused"; fail=1; }
grep -q "$csv holds results of another configuration" <<<"$out" && grep -q 'starting it over' <<<"$out" &&
  echo "ok: the older CSV is started over, and the demo says so" ||
  { echo "FAILED: no note on the older CSV: $out"; fail=1; }
[ "$(grep -c '^# collsim bench' "$csv")" = 1 ] && head -1 "$csv" | grep -q 'lib_charge=reductions,copies' &&
  echo "ok: it holds one header, of this collsim" || { echo "FAILED: header of $csv"; fail=1; }
[ "$(grep -c "^allreduce,circulant," "$csv")" -ge 1 ] && echo "ok: its rows were run again" ||
  { echo "FAILED: no rows in $csv"; fail=1; }
exit $fail # DIR stays: demo_libs reads its CSVs (the next run starts it over)
