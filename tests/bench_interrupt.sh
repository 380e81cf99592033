#!/usr/bin/env bash
# Conventions of a bench run (issue 12):
#  - SIGINT ends a sweep with status 130 and one line saying what is kept; the
#    finished rows stay, the file stays a valid CSV, and the same command
#    resumes without running or writing any row twice;
#  - an output CSV has one writer at a time: a second run on the same file
#    fails with status 2 and a clear message, and writes nothing;
#  - --format osu prints OSU's table layout;
#  - --algos all times every registry row of the collective.
# usage: bench_interrupt.sh CLI
set -u
cli=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" platform abg --np 32 --out "$tmp/p.xml" --hostfile "$tmp/p.hostfile" >/dev/null 2>&1 ||
  { echo "FAILED: cannot write a platform"; exit 1; }
csv=$tmp/b.csv
bench=("$cli" bench --platform "$tmp/p.xml" --np 32 --coll allreduce --algos ceilhalf,circulant
  --bytes 1-1M:x2 --out "$csv")
want=$((2 * 21)) # two algorithms x 21 sizes
rows() { local n; n=$(grep -c '^allreduce,' "$csv" 2>/dev/null); echo "${n:-0}"; }
dups() { grep '^allreduce,' "$csv" | cut -d, -f2,4 | sort | uniq -d | wc -l; }

# 1. a second writer while the first runs
"${bench[@]}" >"$tmp/a.out" 2>&1 &
pid=$!
for _ in $(seq 600); do [ "$(rows)" -ge 2 ] && break; sleep 0.1; done
[ "$(rows)" -ge 2 ] || { echo "FAILED: the sweep wrote no row"; kill -INT $pid; exit 1; }
"${bench[@]}" >"$tmp/b.out" 2>&1
st=$?
if [ $st != 2 ] || ! grep -q "being written by another collsim run" "$tmp/b.out"; then
  echo "FAILED: second writer -> status $st:"; cat "$tmp/b.out"; fail=1
else echo "ok: second writer refused: $(head -1 "$tmp/b.out")"; fi

# 2. SIGINT to the first
kill -INT $pid
wait $pid
st=$?
kept=$(rows)
msg=$(grep -c . "$tmp/a.out")
if [ $st != 130 ] || ! grep -q "interrupted; $kept finished rows kept" "$tmp/a.out"; then
  echo "FAILED: SIGINT -> status $st, $kept rows, output:"; cat "$tmp/a.out"; fail=1
else echo "ok: SIGINT -> 130 with $kept rows kept: $(grep interrupted "$tmp/a.out")"; fi
grep -q "Aborted\|backtrace\|the run failed" "$tmp/a.out" && { echo "FAILED: SMPI noise after SIGINT"; cat "$tmp/a.out"; fail=1; }
[ "$kept" -lt "$want" ] || echo "note: the sweep ended before the interrupt (no partial state tested)"
[ "$(dups)" = 0 ] || { echo "FAILED: duplicate rows after the interrupt"; fail=1; }
[ -z "$(tail -c1 "$csv")" ] || { echo "FAILED: the CSV ends in a cut row"; fail=1; }
echo "  ($msg lines of output from the interrupted run)"

# 3. the same command resumes and completes, no duplicates
"${bench[@]}" --quiet >"$tmp/c.out" 2>&1 || { echo "FAILED: resume:"; cat "$tmp/c.out"; fail=1; }
if [ "$(rows)" != "$want" ] || [ "$(dups)" != 0 ]; then
  echo "FAILED: after resume $(rows) rows (want $want), $(dups) duplicated"; fail=1
else echo "ok: resumed to $want rows, none twice"; fi
# the file is a valid collsim CSV: plot reads it
if command -v gnuplot >/dev/null; then
  "$cli" plot "$csv" --out "$tmp/plots" >"$tmp/plot.out" 2>&1 ||
    { echo "FAILED: plot refuses the resumed file:"; cat "$tmp/plot.out"; fail=1; }
fi

# 4. a held lock (another writer) refuses even a run with nothing to do, and leaves the file alone
sum=$(md5sum <"$csv")
flock "$csv" sleep 3 &
lk=$!
sleep 0.5
"${bench[@]}" >"$tmp/d.out" 2>&1
st=$?
wait $lk
[ $st = 2 ] && [ "$(md5sum <"$csv")" = "$sum" ] || { echo "FAILED: held lock -> $st"; cat "$tmp/d.out"; fail=1; }
[ $st = 2 ] && echo "ok: a held lock refuses the run, file unchanged"

# 5. OSU layout
out=$("$cli" bench --platform "$tmp/p.xml" --np 4 --coll allgather --algos bruck --bytes 64,1K \
  --format osu-full 2>/dev/null)
if ! grep -q "^# Size  *Avg Latency(us)  *Min Latency(us)  *Max Latency(us)  *Iterations" <<<"$out" ||
  ! grep -qE "^16 +[0-9.]+ +[0-9.]+ +[0-9.]+ +1$" <<<"$out" || ! grep -q "per process" <<<"$out"; then
  echo "FAILED: --format osu-full:"; echo "$out"; fail=1
else echo "ok: --format osu-full"; fi

# 6. --algos all: every registry row of the collective (collsim list), in registry order
want_algos=$("$cli" list --csv | awk -F, '$1 == "allgather" {print $2}' | paste -sd,)
got_algos=$("$cli" bench --platform "$tmp/p.xml" --np 4 --coll allgather --algos all --bytes 64 \
  2>/dev/null | awk -F, '$1 == "allgather" {print $2}' | paste -sd,)
if [ -z "$want_algos" ] || [ "$got_algos" != "$want_algos" ]; then
  echo "FAILED: --algos all gave '$got_algos', the registry has '$want_algos'"; fail=1
else echo "ok: --algos all = $got_algos"; fi
exit $fail
