#!/usr/bin/env bash
# Timing runs verify each (algorithm, size) once before timing it, with the
# check harness's formulas (sim/check.c cs_check_verify): a wrong result is
# written as a "# verify:" line (status wrong, or known-defect for a KNOWN
# library defect) and never timed; a correct one gets its row and no line.
# A resumed run does not redo a case found wrong. The guidelines name a
# wrong library result as such and never turn it into a violation (no inf).
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
w=$tmp

# SMPI 3.32's reduce_scatter ompi_basic_recursivehalving returns wrong data
# with one non-empty block (layout single), and lib:ompi picks it at p = 32
# below 2 KiB; butterfly and plain native are right.
run() { "$cli" bench --platform hydra --np 32 --coll reduce_scatter --layout single \
          --algos native:ompi_basic_recursivehalving,lib:ompi,butterfly --bytes 1K,64K \
          --out "$w/rs.csv" 2>"$w/err"; }
run || bad "bench exited $?"
csv=$w/rs.csv
grep -q "^# verify: algo=native:ompi_basic_recursivehalving bytes=1024 p=32 status=known-defect: KNOWN .*expected=0xff" "$csv" &&
  ok "native:ompi_basic_recursivehalving is a KNOWN defect, with the wrong element" ||
  bad "no known-defect line for native:ompi_basic_recursivehalving"
grep -q "^reduce_scatter,native:ompi_basic_recursivehalving," "$csv" &&
  bad "a wrong result was timed" || ok "the wrong result has no row"
grep -q "^# verify: algo=lib:ompi bytes=1024 p=32 status=wrong: FAIL" "$csv" &&
  ok "lib:ompi at 1 KiB is wrong" || bad "lib:ompi at 1 KiB not reported wrong"
grep -q "^reduce_scatter,lib:ompi,32,65536," "$csv" && ok "lib:ompi at 64 KiB is right and timed" ||
  bad "lib:ompi at 64 KiB has no row"
[ "$(grep -c '^reduce_scatter,butterfly,32,' "$csv")" = 2 ] && ! grep -q "algo=butterfly" "$csv" &&
  ok "butterfly: verified, two rows, no verify line" || bad "butterfly rows or verify lines wrong"
grep -q "WRONG RESULT (known-defect), not timed" "$w/err" && ok "bench says so on stderr" ||
  bad "bench does not report the wrong result on stderr"
# resumed: nothing is run again (the wrong cases count as done)
cp "$csv" "$w/before.csv"
run || bad "resumed bench exited $?"
grep -q "on 32 ranks" "$w/err" && bad "the resumed run ran again: $(grep 'on 32 ranks' "$w/err" | head -1)" ||
  ok "a resumed run redoes nothing"
cmp -s "$csv" "$w/before.csv" && ok "the file is unchanged by the resume" || bad "the resume changed the file"

# The guidelines on Hydra 32 x 1 with the ompi selector, m = 64 B (the
# issue's inf ratio: guideline (6) with a 0 s reduce-scatter).
"$cli" platform hydra --nodes 32 --ppn 1 --out "$w/h32.xml" --hostfile "$w/h32.hostfile" ||
  bad "hydra 32 x 1 does not generate"
"$cli" guidelines --platform "$w/h32.xml" --np 32 --bytes 64 --lib ompi --out "$w/gl" --quiet \
  >"$w/gl.out" 2>&1 || bad "guidelines exited $?"
if [ -s "$w/gl/guidelines.csv" ] && ! grep -qi "inf" "$w/gl/guidelines.csv"; then
  ok "guidelines.csv has no inf ratio"
else bad "guidelines.csv missing or has an inf ratio"; fi
grep -q "Not decided: wrong results" "$w/gl/violations.md" &&
  grep -q "reduce_scatter:lib:ompi at 64 bytes gave a wrong result" "$w/gl/violations.md" &&
  ok "the report names the wrong library result" || bad "the report does not name the wrong result"
# --verify none: the same wrong case is timed, and the CSV says it was not checked
"$cli" bench --platform hydra --np 32 --coll reduce_scatter --layout single \
  --algos native:ompi_basic_recursivehalving --bytes 1K --verify none --out "$w/none.csv" \
  2>"$w/err" || bad "bench --verify none exited $?"
grep -q "^# verify: algo=native:ompi_basic_recursivehalving bytes=1024 p=32 status=unverified: not checked (--verify none)" "$w/none.csv" &&
  grep -q "^reduce_scatter,native:ompi_basic_recursivehalving,32,1024," "$w/none.csv" &&
  ok "--verify none: timed, and marked unverified" || bad "--verify none: $(grep -v '^# sync' "$w/none.csv" | tail -3)"
# A simulation that stops at one size (SMPI 3.32's impi allreduce deadlocks at
# 512 B on hydra 8 x 4) costs that size only: a "failed" line, the sizes after
# it run again, bench exits 0; the demo's main job depends on it.
"$cli" platform hydra --nodes 8 --ppn 4 --out "$w/h84.xml" --hostfile "$w/h84.hostfile" >/dev/null 2>&1
"$cli" bench --platform "$w/h84.xml" --np 32 --coll allreduce --algos lib:impi --bytes 128,512,2048 \
  --type double --out "$w/stop.csv" 2>"$w/err"
st=$?
if [ $st = 0 ] && grep -q "^# verify: algo=lib:impi bytes=512 p=32 status=failed: the simulation stopped" "$w/stop.csv" &&
  grep -q "^allreduce,lib:impi,32,2048," "$w/stop.csv" && grep -q "^allreduce,lib:impi,32,128," "$w/stop.csv"; then
  ok "a size where the simulation stops is marked failed and the sweep goes on"
else bad "stopped simulation: status $st, $(grep -v '^# sync' "$w/stop.csv" | tail -4)"; fi
exit $fail
