#!/usr/bin/env bash
# ./collsim map --sim (issue 30 item 3) on a tiny grid (p = 2-5, 2 sizes,
# circulant and SMPI's native:rdb, an abg platform):
#  - shards 1/2 and 2/2, run one after the other as two processes or two
#    Slurm array tasks would, merged (--merge DIR1,DIR2) give the raw and
#    winners rows of the unsharded run;
#  - a run killed in the middle (SIGINT while it simulates p = 3) exits 130,
#    keeps the finished cells, and the same command resumes to the same
#    files as the run that was never interrupted, without simulating p = 2
#    again;
#  - a directory holding the map of another platform is refused.
# The full p = 2..64 sweep: ./collsim map --sim --platform F --coll allreduce
#   --np 2-64 --bytes 8-8M (F: collsim platform abg --np 64 --out F).
# usage: map_sim.sh CLI
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1 # cli, tmp, ok, bad, platform, fail
platform abg --np 8 --out "$tmp/abg.xml" --hostfile "$tmp/abg.hostfile"
run=("$cli" map --sim --platform "$tmp/abg.xml" --coll allreduce --np 2-5 --bytes 8,64K
  --algos circulant,native:rdb --no-plots)
rows() { grep -v '^#' "$1"; }

"${run[@]}" --out "$tmp/full" --quiet || { echo "FAILED: the unsharded map exited $?"; exit 1; }
n=$(rows "$tmp/full/map-allreduce-winners.csv" | grep -c '^allreduce,')
[ "$n" = 8 ] && ok "unsharded: 8 cells" || bad "unsharded: $n winners rows, want 8"

# Two shards, two directories, merged.
for k in 1 2; do "${run[@]}" --out "$tmp/s$k" --shard $k/2 --quiet || bad "shard $k/2 exited $?"; done
"$cli" map --merge "$tmp/s1,$tmp/s2" --out "$tmp/merged" --no-plots --quiet || bad "merge exited $?"
for f in raw winners; do
  if diff <(rows "$tmp/full/map-allreduce-$f.csv") <(rows "$tmp/merged/map-allreduce-$f.csv"); then
    ok "shards 1/2 + 2/2 merged: the $f rows of the unsharded run"
  else bad "shards merged: the $f rows differ"; fi
done

# Interrupted while simulating p = 3, then resumed.
"${run[@]}" --out "$tmp/int" >"$tmp/int.out" 2>&1 &
pid=$!
for _ in $(seq 600); do
  grep -q "simulating p = 3" "$tmp/int.out" && [ -s "$tmp/int/sim-allreduce/p3.csv" ] && break
  sleep 0.05
done
kill -INT $pid
wait $pid
st=$?
p2=$(md5sum <"$tmp/int/sim-allreduce/p2.csv")
if [ $st = 130 ] && [ ! -e "$tmp/int/map-allreduce-raw.csv" ] && grep -q "resumes" "$tmp/int.out"; then
  ok "interrupted at p = 3: status 130, $(grep interrupted "$tmp/int.out")"
else bad "interrupted: status $st, raw file $(ls "$tmp/int")"; cat "$tmp/int.out"; fi
"${run[@]}" --out "$tmp/int" >"$tmp/res.out" 2>&1 || bad "resume exited $?"
[ "$(md5sum <"$tmp/int/sim-allreduce/p2.csv")" = "$p2" ] && ok "resumed: p = 2 not simulated again" ||
  bad "resumed: p = 2's bench file changed"
for f in raw winners; do
  cmp -s "$tmp/full/map-allreduce-$f.csv" "$tmp/int/map-allreduce-$f.csv" &&
    ok "resumed: the $f file of the uninterrupted run" || bad "resumed: the $f file differs"
done

# Another configuration in the same directory.
cp "$tmp/abg.xml" "$tmp/other.xml"
"$cli" map --sim --platform "$tmp/other.xml" --coll allreduce --np 2-5 --bytes 8,64K \
  --algos circulant,native:rdb --out "$tmp/full" >"$tmp/err" 2>&1
st=$?
[ $st = 2 ] && grep -q "another configuration" "$tmp/err" && ok "another platform refused: $(head -1 "$tmp/err")" ||
  bad "another platform: status $st: $(cat "$tmp/err")"
exit $fail
