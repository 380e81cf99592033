#!/usr/bin/env bash
# SMPI's node-aware algorithms see the nodes SMPI sees: ranks that share a
# SimGrid host. On platforms with one host per node (irene: ppn cores per
# host; maxrate and the other one-lane hier kinds: ppn cores, per-flow Rb)
# native:smp_rdb (binomial reduce inside nodes, recursive doubling between
# node leaders, binomial broadcast inside nodes) differs from native:rdb, and
# on maxrate 4 x 8 it takes exactly what its steps cost under the max-rate
# model: 3 (alpha_l + beta_l (m+16) + gamma m) + 2 (alpha + (m+16)/Rb + gamma m)
# + 3 (alpha_l + beta_l (m+16)). On a platform with one host per rank (hydra
# 4 x 8: two lanes, node<N>-<j>) SMPI sees one-rank nodes, smp_rdb runs as
# rdb, and bench says so.
set -u
cli=$1
fail=0
w=$(mktemp -d "${TMPDIR:-/tmp}/library_nodes.XXXXXX")
trap 'rm -rf "$w"' EXIT
t() { # t PLATFORM ALGO BYTES -> median time
  awk -F, -v a="$2" '$2 == a { print $6 }' "$w/$1.csv"
}
for plat in irene hydra maxrate; do
  "$cli" platform $plat --nodes 4 --ppn 8 --out "$w/$plat.xml" --hostfile "$w/$plat.hostfile" || fail=1
  "$cli" bench --platform "$w/$plat.xml" --np 32 --coll allreduce --algos native:smp_rdb,native:rdb \
    --bytes 16K --out "$w/$plat.csv" 2>"$w/$plat.err" || { echo "FAILED: bench on $plat"; fail=1; }
done
a=$(t irene native:smp_rdb); b=$(t irene native:rdb)
if [ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]; then
  echo "ok: irene 4 x 8 (one host per node): smp_rdb $a s, rdb $b s differ"
else echo "FAILED: irene: smp_rdb '$a' s, rdb '$b' s should differ"; fail=1; fi
a=$(t hydra native:smp_rdb); b=$(t hydra native:rdb)
if [ -n "$a" ] && [ "$a" = "$b" ]; then
  echo "ok: hydra 4 x 8 (two lanes: one host per rank): smp_rdb = rdb = $a s (SMPI sees one-rank nodes)"
else echo "FAILED: hydra: smp_rdb '$a' s, rdb '$b' s (expected equal: a change in SMPI or the platform?)"; fail=1; fi
a=$(t maxrate native:smp_rdb); b=$(t maxrate native:rdb)
# maxrate defaults: alpha 1e-6, Rb 5e9, alpha_l 2e-7, beta_l 5e-11, gamma 2.5e-10.
e=$(awk 'BEGIN { m = 16384; i = 2e-7 + 5e-11 * (m + 16); g = 2.5e-10 * m
  printf "%.17g", 3 * (i + g) + 2 * (1e-6 + (m + 16) / 5e9 + g) + 3 * i }')
if [ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] &&
  awk -v a="$a" -v e="$e" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(d <= 1e-9 * e) }'; then
  echo "ok: maxrate 4 x 8 (one host per node): smp_rdb $a s = its steps $e s, rdb $b s"
else echo "FAILED: maxrate: smp_rdb '$a' s (expected $e s, and unlike rdb '$b' s)"; fail=1; fi
grep -q "one-rank nodes" "$w/maxrate.err" && { echo "FAILED: a note on maxrate"; fail=1; } ||
  echo "ok: no note on maxrate"
grep -q "see one-rank nodes here and run flat" "$w/hydra.err" && echo "ok: bench says so on hydra" ||
  { echo "FAILED: no note on hydra"; fail=1; }
grep -q "one-rank nodes" "$w/irene.err" && { echo "FAILED: a note on irene"; fail=1; } ||
  echo "ok: no note on irene"
exit $fail
