#!/usr/bin/env bash
# The platform -> model mapping says when the model only approximates the
# platform: predict on a fat tree (irene) or a dragonfly (theta) writes a
# first CSV line "# model: max-rate approximation of a ... platform ..." and a
# note on stderr; on platforms the model prices exactly (abg, maxrate, hydra)
# it writes neither, and the CSV starts with the column header as before.
set -uo pipefail
cli=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
header='coll,algo,p,bytes,table1_s,model_s,sim_s,rel_err'
pred() { # pred PLATFORM: CSV in $tmp/out, stderr in $tmp/err
  "$cli" predict --platform "$1" --np 8 --coll allreduce --algo circulant,butterfly \
    --bytes 1K,1M --no-sim >"$tmp/out" 2>"$tmp/err"
}
approx() { # approx PLATFORM TOPOLOGY DEVICE
  local want="# model: max-rate approximation of a $2 platform (contention in the $3 is not modelled)"
  if ! pred "$1"; then echo "FAIL: predict on $1:"; cat "$tmp/err"; fail=1; return; fi
  if [ "$(sed -n 1p "$tmp/out")" != "$want" ] || [ "$(sed -n 2p "$tmp/out")" != "$header" ]; then
    echo "FAIL: $1: the CSV does not start with the approximation line:"; head -2 "$tmp/out"; fail=1
  elif ! grep -q "note: model_s is a max-rate approximation of a $2 platform" "$tmp/err"; then
    echo "FAIL: $1: no note on stderr"; cat "$tmp/err"; fail=1
  elif [ "$(grep -vc '^#' "$tmp/out")" -ne 5 ]; then
    echo "FAIL: $1: expected a header and 4 rows"; cat "$tmp/out"; fail=1
  else
    echo "ok: $1 is priced as an approximation and says so"
  fi
}
exact() { # exact PLATFORM
  if ! pred "$1"; then echo "FAIL: predict on $1:"; cat "$tmp/err"; fail=1; return; fi
  if [ "$(sed -n 1p "$tmp/out")" != "$header" ] || grep -q '^#' "$tmp/out" || [ -s "$tmp/err" ]; then
    echo "FAIL: $1: an exact model got a note:"; cat "$tmp/out" "$tmp/err"; fail=1
  else
    echo "ok: $1 is priced exactly, without a note"
  fi
}
approx irene fat-tree switches
approx theta dragonfly routers
exact hydra
"$cli" platform maxrate --nodes 2 --ppn 4 --out "$tmp/mr.xml" --hostfile "$tmp/mr.hostfile" >/dev/null &&
  exact "$tmp/mr.xml" || fail=1
"$cli" platform abg --np 8 --out "$tmp/abg.xml" --hostfile "$tmp/abg.hostfile" >/dev/null &&
  exact "$tmp/abg.xml" || fail=1
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
