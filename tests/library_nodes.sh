#!/usr/bin/env bash
# SMPI's node-aware algorithms see the nodes SMPI sees: ranks that share a
# SimGrid host. On a platform with one host per node (irene: ppn cores per
# host), native:smp_rdb (recursive doubling inside nodes, then between node
# leaders) differs from native:rdb; on a platform with one host per rank
# (hydra, node<N>-<j>) SMPI sees one-rank nodes, smp_rdb runs as rdb, and
# bench says so.
set -u
cli=$1
fail=0
w=$(mktemp -d "${TMPDIR:-/tmp}/library_nodes.XXXXXX")
trap 'rm -rf "$w"' EXIT
t() { # t PLATFORM ALGO BYTES -> median time
  awk -F, -v a="$2" '$2 == a { print $6 }' "$w/$1.csv"
}
for plat in irene hydra; do
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
  echo "ok: hydra 4 x 8 (one host per rank): smp_rdb = rdb = $a s (SMPI sees one-rank nodes)"
else echo "FAILED: hydra: smp_rdb '$a' s, rdb '$b' s (expected equal: a change in SMPI or the platform?)"; fail=1; fi
grep -q "see one-rank nodes here and run flat" "$w/hydra.err" && echo "ok: bench says so on hydra" ||
  { echo "FAILED: no note on hydra"; fail=1; }
grep -q "one-rank nodes" "$w/irene.err" && { echo "FAILED: a note on irene"; fail=1; } ||
  echo "ok: no note on irene"
exit $fail
