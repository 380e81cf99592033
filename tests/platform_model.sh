#!/usr/bin/env bash
# predict prices every platform exactly, and says nothing more: abg and
# maxrate by their closed forms, hydra, a fat tree (irene) and a dragonfly
# (theta) by the fluid evaluator on the platform's own routes (issue 26; the
# max-rate approximation note of platforms/platmodel.h is gone from predict);
# the CSV starts with the column header, stderr is empty, and every row's
# model_kind names what priced it (docs/csv.md).
set -uo pipefail
cli=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
header='coll,algo,p,bytes,table1_s,model_s,sim_s,rel_err,model_kind'
pred() { # pred PLATFORM: CSV in $tmp/out, stderr in $tmp/err
  "$cli" predict --platform "$1" --np 8 --coll allreduce --algo circulant,butterfly \
    --bytes 1K,1M --no-sim >"$tmp/out" 2>"$tmp/err"
}
exact() { # exact PLATFORM KIND
  if ! pred "$1"; then echo "FAIL: predict on $1:"; cat "$tmp/err"; fail=1; return; fi
  if [ "$(sed -n 1p "$tmp/out")" != "$header" ] || grep -q '^#' "$tmp/out" || [ -s "$tmp/err" ]; then
    echo "FAIL: $1: an exact model got a note:"; cat "$tmp/out" "$tmp/err"; fail=1
  elif ! awk -F, -v k="$2" 'NR > 1 { n++; if ($9 !~ "^(" k ")$") bad = 1 } END { exit bad || n != 4 }' "$tmp/out"; then
    echo "FAIL: $1: model_kind is not $2 in every row:"; cat "$tmp/out"; fail=1
  else
    echo "ok: $1 is priced exactly ($2), without a note"
  fi
}
exact irene fluid-routes
exact theta fluid-routes
exact hydra fluid-routes
"$cli" platform maxrate --nodes 2 --ppn 4 --out "$tmp/mr.xml" --hostfile "$tmp/mr.hostfile" >/dev/null &&
  exact "$tmp/mr.xml" maxrate || fail=1
"$cli" platform lanes --nodes 2 --ppn 4 --lanes 2 --out "$tmp/ln.xml" --hostfile "$tmp/ln.hostfile" >/dev/null &&
  exact "$tmp/ln.xml" lanes || fail=1
"$cli" platform abg --np 8 --out "$tmp/abg.xml" --hostfile "$tmp/abg.hostfile" >/dev/null &&
  exact "$tmp/abg.xml" 'abg|abg-closed' || fail=1 # butterfly: its exact closed form (models/closed.c)
"$cli" platform abg --np 8 --duplex half --out "$tmp/half.xml" --hostfile "$tmp/half.hostfile" >/dev/null &&
  exact "$tmp/half.xml" fluid-abg || fail=1
# The model's parameters from the command line on another platform: an
# approximation of it, said in the kind and in a '# model:' line.
if "$cli" predict --platform hydra --model abg --np 8 --coll allreduce --algo butterfly --bytes 1K \
  --no-sim >"$tmp/out" 2>"$tmp/err" && grep -q '^# model: abg' "$tmp/out" &&
  awk -F, '$1 == "allreduce" { k = $9 } END { exit k !~ /^abg(-closed)?-approx$/ }' "$tmp/out"; then
  echo "ok: --model abg on hydra is abg-approx, with its '# model:' line"
else
  echo "FAIL: --model abg on hydra:"; cat "$tmp/out" "$tmp/err"; fail=1
fi
# Copies at their own cost on a maxrate platform (--gamma-copy; calibrate writes the
# cs_copy fit so): the hosts charge it in simulation and the model prices it, the
# same to 1e-9, and differently from copies priced as reductions.
mc() { # mc NAME [OPTIONS]: butterfly allreduce model_s,sim_s,rel_err rows in $tmp/NAME.csv
  local name=$1; shift
  "$cli" platform maxrate --nodes 2 --ppn 3 --gamma 3e-10 "$@" --out "$tmp/$name.xml" \
    --hostfile "$tmp/$name.hostfile" >/dev/null &&
    "$cli" predict --platform "$tmp/$name.xml" --np 6 --coll allreduce --algo butterfly \
      --bytes 1K,1M 2>"$tmp/err" | awk -F, 'NR > 1 { print $6 "," $7 "," $8 }' >"$tmp/$name.csv"
}
if mc copy --gamma-copy 1e-10 && mc nocopy && [ "$(wc -l <"$tmp/copy.csv")" -eq 2 ] &&
  awk -F, '$3 > 1e-9 { bad = 1 } END { exit bad }' "$tmp/copy.csv" &&
  ! cmp -s <(cut -d, -f1 "$tmp/copy.csv") <(cut -d, -f1 "$tmp/nocopy.csv"); then
  echo "ok: maxrate --gamma-copy: model = simulation, and copies are not priced as reductions"
else
  echo "FAIL: maxrate --gamma-copy:"; cat "$tmp/copy.csv" "$tmp/nocopy.csv" "$tmp/err"; fail=1
fi
exit $fail
