#!/usr/bin/env bash
# collsim validate twice on one directory with two datatypes (issue 28 item 1):
# both runs pass (each type has files of its own: COLL-pP-TYPE), the CSV's
# first line and the report record the datatype and op, and the picture's
# name carries p and the type; after --redo the report claims no reuse. One
# launch, one size, two ranks (about 4 s; more on a loaded machine: mpirun).
# usage: validate_types.sh CLI
set -uo pipefail
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
"$cli" platform abg --np 2 --out "$tmp/p.xml" --hostfile "$tmp/p.hostfile" >/dev/null || exit 1
for t in int double; do
  "$cli" validate --coll allreduce --algos circulant --np 2 --bytes 1K --platform "$tmp/p.xml" \
    --out "$tmp/v" --launches 1 --reps 3 --type $t >"$tmp/out" 2>&1 || { cat "$tmp/out"; no "validate --type $t failed"; }
done
declare -A op=([int]=sum [double]=max)
for t in int double; do
  csv=$tmp/v/validate-allreduce-p2-$t.csv
  head -1 "$csv" | grep -q "^# collsim validate .* type=$t op=${op[$t]} " || no "$csv: $(head -1 "$csv" 2>&1)"
  grep -q "Datatype $t, reduction op ${op[$t]}" "$tmp/v/validate-allreduce-p2-$t.md" || no "the $t report does not say its type"
  [ -s "$tmp/v/validate-allreduce-p2-$t.png" ] || no "no picture validate-allreduce-p2-$t.png"
done
# --redo measures again: the report does not claim reused measurements.
"$cli" validate --coll allreduce --algos circulant --np 2 --bytes 1K --platform "$tmp/p.xml" \
  --out "$tmp/v" --launches 1 --reps 3 --type double --redo >"$tmp/out" 2>&1 || { cat "$tmp/out"; no "validate --redo failed"; }
grep -q 'were reused' "$tmp/v/validate-allreduce-p2-double.md" && no "after --redo the report claims reuse"
[ $fail = 0 ] && echo "validate_types: ok"
exit $fail
