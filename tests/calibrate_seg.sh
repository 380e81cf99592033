#!/usr/bin/env bash
# collsim calibrate on a simulated machine with known segments (issue 10): the
# platform of tests/platseg_write.c (network jumps at 4000 B and 3 MB, reductions
# out of cache from 1 MiB, copies cheaper and out of cache from 256 KiB) measured
# with --backend smpi. The segmented fits must find 3 network, 2 reduction and 2
# copy segments with their slopes and intercepts (the
# simulated clock is exact: within 1e-6), the breakpoints in the right gaps of
# the size grid, and the written platform must verify under smpirun.
# usage: calibrate_seg.sh CLI PLATSEG_WRITE
set -uo pipefail
cli=$1 writer=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$writer" "$tmp/m.xml" "$tmp/m.hostfile" 2 || exit 1
if ! "$cli" calibrate --backend smpi --platform "$tmp/m.xml" --hostfile "$tmp/m.hostfile" --np 2 \
     --reps 1 --out "$tmp/c.xml" >"$tmp/out" 2>&1; then
  cat "$tmp/out"; echo "FAIL: calibrate"; exit 1
fi
grep -q '^verify: ok' "$tmp/out" || { cat "$tmp/out"; echo "FAIL: verify"; exit 1; }
# The written platform reproduces its segments under smpirun: every size of the
# network to 1e-9; local work (reductions and copies) to 1e-7 (its times of ~1e-8 s
# are differences of clock readings around 1 s: double rounding).
grep -E '^  (network|exchange|local|copy) +every size' "$tmp/out"
# The network segments were fitted to the exchange (the default --net); on the
# platform's full-duplex links the simulated exchange and ping-pong both follow them.
grep -q 'exchange fit,' "$tmp/c.xml" ||
  { echo "FAIL: the platform's network is not the exchange's fit"; exit 1; }
awk '$1 == "network" && $2 == "every" { n = 1; if ($NF + 0 > 1e-9) bad = 1 }
     $1 == "exchange" && $2 == "every" { x = 1; if ($NF + 0 > 1e-9) bad = 1 }
     $1 == "local" && $2 == "every" { l = 1; if ($NF + 0 > 1e-7) bad = 1 }
     $1 == "copy" && $2 == "every" { c = 1; if ($NF + 0 > 1e-7) bad = 1 }
     END { exit !(n && x && l && c && !bad) }' "$tmp/out" || { echo "FAIL: verify differences"; exit 1; }
line=$(grep -o 'collsim-model:.*' "$tmp/c.xml")
want_net=$(grep -o ' net=[^ ]*' "$tmp/m.xml" | cut -d= -f2)
want_loc=$(grep -o ' local=[^ ]*' "$tmp/m.xml" | cut -d= -f2)
got_net=$(echo "$line" | grep -o ' net=[^ ]*' | cut -d= -f2)
got_loc=$(echo "$line" | grep -o ' local=[^ ]*' | cut -d= -f2)
want_cpy=$(grep -o ' copy=[^ ]*' "$tmp/m.xml" | cut -d= -f2)
got_cpy=$(echo "$line" | grep -o ' copy=[^ ]*' | cut -d= -f2)
echo "network: want $want_net"; echo "         got  $got_net"
echo "local:   want $want_loc"; echo "         got  $got_loc"
echo "copy:    want $want_cpy"; echo "         got  $got_cpy"
# Thresholds: a jump lies between two sampled sizes, so the fit puts it at the
# last size below it: 3072 for 4000 and 2 MiB (2097152) for 3e6 (the grid has
# 2 MiB, 3 MiB); the local ones at 1 MiB and 256 KiB exactly.
awk -v w="$want_net" -v g="$got_net" -v wl="$want_loc" -v gl="$got_loc" -v wc="$want_cpy" -v gc="$got_cpy" '
  function cmp(w, g, lo, what,   nw, ng, W, G, i, a, b, k) {
    nw = split(w, W, ";"); ng = split(g, G, ";")
    if (nw != ng) { print "FAIL " what ": " ng " segments, want " nw; bad++; return }
    for (i = 1; i <= nw; i++) {
      split(W[i], a, ":"); split(G[i], b, ":")
      for (k = 2; k <= 3; k++) {
        d = (b[k] - a[k]) / a[k]; if (d < 0) d = -d
        if (d > 1e-6) { print "FAIL " what " segment " i " value " k ": " b[k] " want " a[k]; bad++ }
      }
      if (i > 1 && !(b[1] + 0 == lo[i])) { print "FAIL " what " breakpoint " i ": " b[1] " want " lo[i]; bad++ }
    }
  }
  BEGIN { n[2] = 3072; n[3] = 2097152; l[2] = 1048576; c[2] = 262144
          cmp(w, g, n, "network"); cmp(wl, gl, l, "local"); cmp(wc, gc, c, "copy"); exit bad > 0 }' || exit 1
echo "calibrate_seg: ok"
