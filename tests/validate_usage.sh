#!/usr/bin/env bash
# collsim validate refuses, before running anything, a platform with fewer ranks
# than --np, naming the command that writes a large enough one (issue 12).
# usage: validate_usage.sh CLI
set -uo pipefail
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" platform abg --np 2 --out "$tmp/p.xml" --hostfile "$tmp/p.hostfile" || exit 1
"$cli" validate --coll allreduce --algos circulant --np 4 --bytes 1K --platform "$tmp/p.xml" \
  --out "$tmp/v" >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
[ $rc -eq 2 ] || { echo "FAIL: exit $rc, want 2"; exit 1; }
grep -q "has 2 ranks, --np 4 asks for more; run \`./collsim calibrate --np 4 --out $tmp/p.xml\`" "$tmp/out" ||
  { echo "FAIL: the message does not name the calibrate command"; exit 1; }
[ ! -e "$tmp/v/sim-allreduce-p4-byte.csv" ] || { echo "FAIL: something ran"; exit 1; }
echo "validate_usage: ok"
