#!/usr/bin/env bash
# The models price what the kernels do: a kernel that drops one block must
# change model_s. In a scratch copy of the sources, the ceil-halving
# reduce-scatter's first round sends one block less (n - 1 instead of n
# blocks); only the front door (which holds the model engine) is built there,
# and predict's model_s for p = 7, m = 1000 must differ from the unbroken
# build's. No kernel or model code knows about this test.
# usage: model_breaks.sh SOURCE_DIR CLI
set -euo pipefail
src=$1 cli=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$src" --exclude=./build --exclude=./.git --exclude=./results -cf - . | tar -C "$tmp" -xf -
f="$tmp/algos/ceilhalf/reduce_scatter.c"
grep -qF 'l, r + s, n);' "$f" || { echo "FAIL: the line to break is gone from $f; update this test"; exit 1; }
sed -i 's/l, r + s, n);/l, r + s, n - 1);/' "$f"
grep -qF 'r + s, n - 1);' "$f" || { echo "FAIL: sed did not break $f"; exit 1; }
cmake -S "$tmp" -B "$tmp/build" >/dev/null
cmake --build "$tmp/build" --target collsim-cli -j2 >/dev/null
args=(predict --coll reduce_scatter_block --algo ceilhalf --np 7 --bytes 1000 --model abg --no-sim)
good=$("$cli" "${args[@]}" | awk -F, 'NR == 2 { print $6 }')
bad=$("$tmp/build/collsim-cli" "${args[@]}" | awk -F, 'NR == 2 { print $6 }')
echo "model_s unbroken: $good, with one block dropped: $bad"
[ -n "$good" ] && [ -n "$bad" ] || { echo "FAIL: no model_s"; exit 1; }
[ "$good" != "$bad" ] || { echo "FAIL: dropping a block did not change the model"; exit 1; }
echo "PASS"
