#!/usr/bin/env bash
# The library's local copies are counted and charged as collsim's kernels'
# copies are (sim/libcharge.c: SMPI's Datatype::copy, rewritten in
# libsimgrid's GOT; docs/library.md): on two abg platforms that differ only
# in the copy cost (--gamma-copy 0 and 1e-8 s/byte; gamma fixed at 1e-9),
# the time of native and lib:* collectives grows by the counted copy bytes
# x the copy cost, spread over the processes that copied:
#   copied_bytes / p x c <= growth <= copied_bytes x c,
# exactly copied_bytes / p x c for allgather (every process copies its own
# block, SMPI's allgather algorithms) and exactly copied_bytes x c for the
# default gather (only the root copies); no growth where nothing was copied;
# the same copied_bytes on both platforms; copied_bytes > 0 for allgather,
# gather, allreduce and reduce_scatter_block. With --lib-charge off the
# time does not grow and copied_bytes is empty.
# usage: lib_copy.sh CLI [P_LIST]
set -uo pipefail
cli=$1
plist=${2:-8}
libs=native,lib:ompi,lib:mpich,lib:mvapich2,lib:impi
m=1048576
c=1e-8
# shellcheck source=tests/lib_pairs.sh
. "$(dirname "$0")/lib_pairs.sh"
prog=$(cat <<'AWK'
  FNR == 1 { f++ }
  /^#/ { next }
  !h[f] { for (i = 1; i <= NF; i++) col[f, $i] = i; h[f] = 1; next }
  { a = $col[f, "algo"]; t[f, a] = $col[f, "median_s"]; cp[f, a] = $col[f, "copied_bytes"]; seen[a] = 1
    pp[a] = $col[f, "p"]; ran[a] = $col[f, "algo_ran"] }
  END {
    for (a in seen) {
      n++
      d = t[2, a] - t[1, a]; p = pp[a]; b = cp[2, a]
      if (charge == "off") {
        if (d != 0) { printf "FAIL %s %s p=%d: --lib-charge off, time grew by %.6g s\n", coll, a, p, d; bad++ }
        if (b != "") { printf "FAIL %s %s: copied_bytes %s without charging\n", coll, a, b; bad++ }
        continue
      }
      if (b == "" || cp[1, a] != b) { printf "FAIL %s %s p=%d: copied_bytes %s and %s\n", coll, a, p, cp[1, a], b; bad++; continue }
      lo = b / p * c; hi = b * c; tol = 1e-9 * (hi > d ? hi : d) + 1e-15
      if (coll != "bcast" && b <= 0) { printf "FAIL %s %s (%s) p=%d: no copy counted\n", coll, a, ran[a], p; bad++ }
      if (d < lo - tol || d > hi + tol) { printf "FAIL %s %s (%s) p=%d: grew %.9g s, not in [copied/p c, copied c] = [%.9g, %.9g]\n", coll, a, ran[a], p, d, lo, hi; bad++ }
      if (coll == "allgather" && (d - lo > tol || lo - d > tol)) { printf "FAIL %s %s (%s) p=%d: grew %.9g s != copied/p c = %.9g\n", coll, a, ran[a], p, d, lo; bad++ }
      if (coll == "gather" && a == "native" && (d - hi > tol || hi - d > tol)) { printf "FAIL %s %s p=%d: grew %.9g s != copied c = %.9g\n", coll, a, p, d, hi; bad++ }
      printf "ROW %s p=%d %-12s %-22s copied %10d B  +%.9g s  (copied/p c %.9g, copied c %.9g)\n", coll, p, a, ran[a], b, d, lo, hi
    }
    printf "CHECKED %d\n", n; exit bad > 0
  }
AWK
)
lib_pairs "$cli" "$plist" allgather,gather,bcast,allreduce,reduce_scatter_block "$libs" $m "--gamma 1e-9" \
  --gamma-copy $c "BEGIN { c = $c } $prog"
echo "lib_copy: $checked (collective, p, library algorithm, charging) cases; $fail failures"
[ $fail -eq 0 ] && [ $checked -gt 0 ]
