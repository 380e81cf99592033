#!/usr/bin/env bash
# The library's local reductions are charged as collsim's kernels' are
# (sim/libcharge.c, docs/library.md): on two abg platforms that differ only
# in gamma (0 and 1e-8 s/byte), the time of native and lib:* allreduce and
# reduce_scatter_block at 1 MiB grows by at least gamma x (p-1)/p m (the
# reduction bytes some process must do) and by at least gamma x the bytes
# the busiest process reduced on average (reduced_bytes / p, measured through
# the charged operation); reduced_bytes >= (p-1) m; the first CSV line says
# lib_charge=reductions,copies. With --lib-charge off (SMPI's behaviour) the time does
# not grow at all and the line says nothing.
# usage: lib_charge.sh CLI [P_LIST]
set -uo pipefail
cli=$1
plist=${2:-6,8}
# (lib:impi once "deadlocked" here: the old timing harness ran its own
# MPI_Bcast/MPI_Allreduce under the impi selector; the harness sends no
# message in simulation now, and impi runs.)
libs=native,lib:default,lib:ompi,lib:mpich,lib:mvapich2,lib:impi
m=1048576
g=1e-8
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=tests/lib_pairs.sh
. "$(dirname "$0")/lib_pairs.sh"
prog=$(cat <<'AWK'
  FNR == 1 { f++ }
  /^#/ { next }
  !h[f] { for (i = 1; i <= NF; i++) c[f, $i] = i; h[f] = 1; next }
  { a = $c[f, "algo"]; t[f, a] = $c[f, "median_s"]; seen[a] = 1
    if (f == 2) { red[a] = $c[f, "reduced_bytes"]; cp[a] = $c[f, "copied_bytes"]; bytes[a] = $c[f, "bytes"]; pp[a] = $c[f, "p"]; ran[a] = $c[f, "algo_ran"] } }
  END {
    for (a in seen) {
      n++
      d = t[2, a] - t[1, a]; p = pp[a]; mb = bytes[a]
      if (charge == "off") {
        if (d != 0) { printf "FAIL %s %s p=%d: --lib-charge off, time grew by %.6g s\n", coll, a, p, d; bad++ }
        if (red[a] != "") { printf "FAIL %s %s: reduced_bytes %s without charging\n", coll, a, red[a]; bad++ }
        if (cp[a] != "") { printf "FAIL %s %s: copied_bytes %s without charging\n", coll, a, cp[a]; bad++ }
        continue
      }
      need = g * (p - 1) / p * mb
      if (d < need * (1 - 1e-9)) { printf "FAIL %s %s (%s) p=%d: grew %.6g s < gamma (p-1)/p m = %.6g s\n", coll, a, ran[a], p, d, need; bad++ }
      if (red[a] == "" || red[a] + 0 < (p - 1) * mb) { printf "FAIL %s %s p=%d: reduced_bytes %s < (p-1) m\n", coll, a, p, red[a]; bad++ }
      else if (d < g * red[a] / p * (1 - 1e-9)) { printf "FAIL %s %s p=%d: grew %.6g s < gamma reduced_bytes / p\n", coll, a, p, d; bad++ }
      printf "ROW %s p=%d %-12s %-28s +%.6g s (gamma (p-1)/p m = %.6g s, reduced %s B)\n", coll, p, a, ran[a], d, need, red[a]
    }
    printf "CHECKED %d\n", n; exit bad > 0
  }
AWK
)
lib_pairs "$cli" "$plist" allreduce,reduce_scatter_block "$libs" $m "" --gamma $g "BEGIN { g = $g } $prog"
# A file made before charging and the extra columns existed (its first line
# without lib_charge, its header without algo_ran, reduced_bytes,
# copied_bytes) resumes with --lib-charge off in its own schema, and is
# refused with charging on (its library rows were free).
p=4
"$cli" platform abg --np $p --gamma $g --out "$tmp/old.xml" --hostfile "$tmp/old.hostfile" || exit 1
"$cli" bench --platform "$tmp/old.xml" --np $p --coll allreduce --algos lib:ompi,circulant --bytes 1K \
  --lib-charge off --quiet --out "$tmp/new.csv" || { echo "FAIL bench for the old file"; fail=$((fail + 1)); }
awk -F, 'BEGIN { OFS = "," } /^#/ { print; next } { NF = 11; print }' "$tmp/new.csv" >"$tmp/old.csv"
if "$cli" bench --platform "$tmp/old.xml" --np $p --coll allreduce --algos lib:ompi,circulant --bytes 1K,4K \
     --quiet --out "$tmp/old.csv" 2>"$tmp/err"; then
  echo "FAIL an uncharged old file was resumed with charging on"; fail=$((fail + 1))
fi
grep -q -- "--lib-charge off" "$tmp/err" || { echo "FAIL the refusal does not point at --lib-charge off:"; cat "$tmp/err"; fail=$((fail + 1)); }
if "$cli" bench --platform "$tmp/old.xml" --np $p --coll allreduce --algos lib:ompi,circulant --bytes 1K,4K \
     --lib-charge off --quiet --out "$tmp/old.csv" 2>"$tmp/err"; then
  res=$(awk -F, '/^#/ { next } { n++; if (NF != 11) { print "FAIL row of " NF " fields in an 11-column file: " $0; bad++ } }
                 END { if (n != 5) { print "FAIL " n " lines, want the header and 4 rows"; bad++ } exit bad > 0 }' "$tmp/old.csv") ||
    { echo "$res"; fail=$((fail + 1)); }
  checked=$((checked + 1))
else
  echo "FAIL resuming the old file:"; cat "$tmp/err"; fail=$((fail + 1))
fi
echo "lib_charge: $checked (collective, p, library algorithm, charging) cases; $fail failures"
[ $fail -eq 0 ] && [ $checked -gt 0 ]
