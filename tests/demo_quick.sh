#!/usr/bin/env bash
# collsim demo --quick (demo/demo.c): every step, then a second run that reuses
# it all, except one bench CSV made by an older collsim (another first line:
# lib_charge=gamma, before the library's copies were charged), which the demo
# starts over instead of refusing (the demo owns its files). Also issue 28's
# items 3 and 7: a clean console (no gnuplot warning, no raw library failure),
# demo.log the last run's console, and the report's hydra8x4 library rows with
# their flat-nodes caveat beside the library's times with one host per node.
set -u
cli=$1 dir=$2
fail=0
rm -rf "$dir"
first=$("$cli" demo --quick --out "$dir" 2>&1) || { echo "FAILED: the first demo run: $first"; exit 1; }
# The older CSV of the second run: the library's allreduce on hydra with one
# host per node (the cheapest bench of the demo to run again).
csv="$dir/bench-hydra8x4nodes-allreduce.csv"
for f in report.md guidelines-abg33/violations.md bench-hydra8x4-allreduce.csv \
  bench-hydra8x4nodes-allreduce.csv; do
  [ -s "$dir/$f" ] && echo "ok: $f written" || { echo "FAILED: $f missing"; fail=1; }
done
# A clean console (issue 28 item 7): no gnuplot warning, no library failure line
# of SMPI's that would look like collsim's (they are in demo.log).
if grep -qi 'warning' <<<"$first" || grep -q '^FAIL \|Deadlock detected' <<<"$first"; then
  echo "FAILED: the console has gnuplot warnings or library failure lines:"
  grep -i 'warning\|^FAIL \|Deadlock' <<<"$first" | head -5
  fail=1
else echo "ok: no gnuplot warning and no raw library failure on the console"; fi
grep -qF "[demo" "$dir/demo.log" && echo "ok: demo.log holds the console" ||
  { echo "FAILED: demo.log lacks the console"; fail=1; }
# The report's caveats next to the numbers (item 3): hydra8x4's library rows ran
# flat (one SimGrid host per rank), and the library on the same machine with one
# host per node is set beside them.
md="$dir/report.md"
grep -q "hydra8x4 (one SimGrid host per rank: the library's node-aware algorithms ran flat" "$md" &&
  echo "ok: the summary's hydra8x4 rows carry the flat-nodes caveat" ||
  { echo "FAILED: no flat-nodes caveat in $md"; fail=1; }
grep -q "^| lib:ompi | 1 KiB | .* | .* | .* | .* | [0-9.]* |$" "$md" && grep -q "flat / nodes" "$md" &&
  echo "ok: the library's flat and one-host-per-node times side by side" ||
  { echo "FAILED: no one-host-per-node comparison in $md"; fail=1; }
sed -i '1s/lib_charge=[^ ]*/lib_charge=gamma/' "$csv"
out=$("$cli" demo --quick --out "$dir" 2>&1) || { echo "FAILED: the second run: $out"; exit 1; }
[ "$(grep -c '1/5 table1' "$dir/demo.log")" = 1 ] && echo "ok: demo.log holds the last run only" ||
  { echo "FAILED: demo.log grows with reruns"; fail=1; }
grep -q 'table1: reusing' <<<"$out" && echo "ok: the second run reuses table1" ||
  { echo "FAILED: table1 not reused"; fail=1; }
grep -q "$csv holds results of another configuration" <<<"$out" && grep -q 'starting it over' <<<"$out" &&
  echo "ok: the older CSV is started over, and the demo says so" ||
  { echo "FAILED: no note on the older CSV: $out"; fail=1; }
[ "$(grep -c '^# collsim bench' "$csv")" = 1 ] && head -1 "$csv" | grep -q 'lib_charge=reductions,copies' &&
  echo "ok: it holds one header, of this collsim" || { echo "FAILED: header of $csv"; fail=1; }
[ "$(grep -c "^allreduce,lib:ompi," "$csv")" -ge 1 ] && echo "ok: its rows were run again" ||
  { echo "FAILED: no rows in $csv"; fail=1; }
exit $fail # DIR stays: demo_libs reads its CSVs (the next run starts it over)
