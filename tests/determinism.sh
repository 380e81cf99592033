#!/usr/bin/env bash
# Two runs of the same simulation must print identical CSV (bit-identical
# times): our algorithms and the library's, on a platform with gamma > 0.
set -euo pipefail
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" platform hydra --nodes 3 --ppn 4 --out "$tmp/h.xml" --hostfile "$tmp/h.hostfile" >/dev/null
for i in 1 2; do
  "$cli" bench --platform "$tmp/h.xml" --np 11 --coll allreduce \
      --algos circulant,ceilhalf,butterfly,native,lib:ompi --bytes 1,1000,64K,1M --quiet >"$tmp/run$i.csv"
done
rows=$(grep -vc '^#' "$tmp/run1.csv")
[ "$rows" -eq 21 ] || { echo "FAIL: expected 20 rows and a header, got $rows lines"; cat "$tmp/run1.csv"; exit 1; }
if ! cmp -s "$tmp/run1.csv" "$tmp/run2.csv"; then
  echo "FAIL: two runs differ"; diff "$tmp/run1.csv" "$tmp/run2.csv"; exit 1
fi
echo "determinism: two runs identical ($rows lines)"
