#!/usr/bin/env bash
# ./collsim map from the models (issue 30 item 3) on a small grid (every p of
# 2-13, sizes 8 B-512 KiB:x8, every collsim allreduce algorithm):
#  - the winners file has one row per (p, bytes) of the grid, sorted by p then
#    bytes, every p present; its winner is the fastest candidate of the raw
#    file (the first of equal times), runner_up the next, ratio =
#    runner_up_s / winner_s;
#  - a model time equals what `collsim predict --no-sim` prints for the case;
#  - one worker and two give the same raw file; two shards merged give the
#    unsharded files;
#  - both pictures are written (PNG and SVG);
#  - bad input gets a clear error: unknown algorithm, native: without --sim,
#    a bad --shard, a --baseline that is no candidate, a missing shard, an
#    output directory holding another configuration's map.
# The full grid of issue 30 (p = 2-512, 8 B-8 MiB) is benchmarks/map_speed.sh.
# usage: map_model.sh CLI
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1 # cli, tmp, ok, bad, platform, fail
grid=(--coll allreduce --np 2-13 --bytes 8-512K:x8)
"$cli" map "${grid[@]}" --out "$tmp/m" --quiet || { echo "FAILED: map exited $?"; exit 1; }
raw=$tmp/m/map-allreduce-raw.csv win=$tmp/m/map-allreduce-winners.csv
for f in "$raw" "$win"; do [ -s "$f" ] || bad "$f missing"; done
head -1 "$win" | grep -q '^# ' || bad "the winners file does not start with a # line"
grep -qx 'coll,p,bytes,winner,winner_s,runner_up,runner_up_s,ratio' "$win" ||
  bad "winners header is not coll,p,bytes,winner,winner_s,runner_up,runner_up_s,ratio"
# The candidates: every collsim allreduce row but those the note names (on an abg
# machine, one process per node, the node-aware rows are their inner algorithm and
# are left out); each name the note gives is a registered row.
ncand=$("$cli" list --csv | awk -F, '$1 == "allreduce" && $2 != "native"' | wc -l)
note=$("$cli" map --coll allreduce --np 2 --bytes 8 --out "$tmp/n" --no-plots 2>&1 |
  grep 'one process per node on this machine')
dropped=$(echo "$note" | sed -E 's/.*on this machine: (.*) run their inner.*/\1/' | tr -d ' ' | tr ',' '\n' | grep -c .)
[ "$dropped" -ge 1 ] || bad "no note on the node-aware rows left out: '$note'"
for a in $(echo "$note" | sed -E 's/.*on this machine: (.*) run their inner.*/\1/' | tr -d ' ' | tr ',' ' '); do
  "$cli" list --csv | awk -F, -v a="$a" '$1 == "allreduce" && $2 == a { f = 1 } END { exit !f }' ||
    bad "the note names $a, not an allreduce row"
done
ncand=$((ncand - dropped))
"$cli" map --coll allreduce --np 4 --bytes 8 --algos nap,butterfly --out "$tmp/nap" --quiet --no-plots &&
  [ "$(grep -c '^allreduce,nap,' "$tmp/nap/map-allreduce-raw.csv")" = 1 ] ||
  bad "--algos nap does not price the node-aware row when named"

# The winners against the raw file, computed here independently.
awk -F, -v ncand="$ncand" '
  FNR == 1 { file++ }
  /^#/ || /^coll,/ { next }
  file == 1 {                      # raw: coll,algo,p,bytes,time_s,note
    key = $3 "," $4
    if (!(key in n)) { order[++cells] = key }
    n[key]++
    if ($5 == "") next
    t = $5 + 0
    if (!(key in best) || t < best[key]) { second[key] = best[key]; sname[key] = bname[key]; best[key] = t; bname[key] = $2 }
    else if (!(key in second) || second[key] == "" || t < second[key]) { second[key] = t; sname[key] = $2 }
    next
  }
  {                                # winners: coll,p,bytes,winner,winner_s,runner_up,runner_up_s,ratio
    rows++
    key = $2 "," $3
    if (!(key in n)) { print "FAILED: winners row " key " is not in the raw file"; bad = 1; next }
    if (n[key] != ncand) { print "FAILED: raw file has " n[key] " candidates at " key ", want " ncand; bad = 1 }
    if ($4 != bname[key]) { print "FAILED: winner at " key " is " $4 ", the raw file says " bname[key]; bad = 1 }
    if ($5 + 0 != best[key]) { print "FAILED: winner_s at " key; bad = 1 }
    if ($6 != sname[key] || $7 + 0 != second[key]) { print "FAILED: runner-up at " key " is " $6 " " $7 ", want " sname[key] " " second[key]; bad = 1 }
    r = $7 / $5
    if ($8 + 0 < r * (1 - 1e-5) || $8 + 0 > r * (1 + 1e-5)) { print "FAILED: ratio at " key " is " $8 ", want " r; bad = 1 }
    if (prevp > $2 + 0 || (prevp == $2 + 0 && prevb >= $3 + 0)) { print "FAILED: rows not sorted at " key; bad = 1 }
    prevp = $2 + 0; prevb = $3 + 0; seen[$2] = 1
  }
  END {
    if (rows != cells) { print "FAILED: " rows " winners rows for " cells " cells"; bad = 1 }
    for (p = 2; p <= 13; p++) if (!(p in seen)) { print "FAILED: p = " p " missing"; bad = 1 }
    if (!bad) print "ok: " rows " winners rows = " cells " cells of the raw file (" ncand " candidates each), winner = min, runner-up, ratio, sorted, every p"
    exit bad
  }' "$raw" "$win" || fail=1

# A cell against predict.
want=$("$cli" predict --coll allreduce --algo ceilhalf --np 11 --bytes 4096 --no-sim |
  awk -F, '$1 == "allreduce" { print $6 }')
got=$(awk -F, '$2 == "ceilhalf" && $3 == 11 && $4 == 4096 { print $5 }' "$raw")
[ -n "$want" ] && [ "$got" = "$want" ] && ok "ceilhalf p = 11, 4 KiB: map $got = predict $want" ||
  bad "ceilhalf p = 11, 4 KiB: map '$got', predict '$want'"

# Workers and shards change nothing.
"$cli" map "${grid[@]}" --out "$tmp/one" --jobs 1 --quiet --no-plots
cmp -s "$raw" "$tmp/one/map-allreduce-raw.csv" && ok "--jobs 1 and 2: the same raw file" ||
  bad "--jobs 1 and --jobs 2 differ"
for k in 1 2 3; do "$cli" map "${grid[@]}" --out "$tmp/sh" --shard $k/3 --quiet; done
"$cli" map --merge "$tmp/sh/map-allreduce-raw.1-of-3.csv,$tmp/sh/map-allreduce-raw.2-of-3.csv" \
  --out "$tmp/x" >"$tmp/err" 2>&1
[ $? = 2 ] && grep -q "shard 3/3 is missing" "$tmp/err" && ok "a missing shard: $(cat "$tmp/err")" ||
  bad "a missing shard: $(cat "$tmp/err")"
"$cli" map --merge "$tmp/sh" --quiet
for f in raw winners; do
  diff <(grep -v '^#' "$tmp/m/map-allreduce-$f.csv") <(grep -v '^#' "$tmp/sh/map-allreduce-$f.csv") \
    >/dev/null && ok "3 shards merged: the $f file of the unsharded run" || bad "3 shards merged: $f differs"
done

for pic in fastest ratio; do
  for ext in png svg; do
    [ -s "$tmp/m/map-allreduce-$pic.$ext" ] || bad "picture map-allreduce-$pic.$ext missing"
  done
done
[ $fail = 0 ] && ok "pictures: fastest and ratio, PNG and SVG"

# Bad input: status 2 and a message naming what is valid.
expect() { # WHAT PATTERN ARGS...
  local what=$1 pat=$2
  shift 2
  "$cli" map "$@" >"$tmp/err" 2>&1
  local st=$?
  [ $st = 2 ] && grep -q "$pat" "$tmp/err" && ok "$what: $(head -1 "$tmp/err")" ||
    bad "$what: status $st: $(cat "$tmp/err")"
}
expect "unknown algorithm" "Valid:.*circulant" --coll allreduce --np 4 --bytes 8 --algos nosuch --out "$tmp/e"
expect "native without --sim" "add --sim" --coll allreduce --np 4 --bytes 8 --algos circulant,native:rdb --out "$tmp/e"
expect "bad shard" "expected K/N" --coll allreduce --np 4 --bytes 8 --shard 3/2 --out "$tmp/e"
expect "baseline not a candidate" "is not a candidate" --coll allreduce --np 4 --bytes 8 --algos circulant,butterfly --baseline ceilhalf --out "$tmp/e"
expect "another configuration" "another configuration" "${grid[@]}" --alpha 2e-6 --out "$tmp/m"
exit $fail
