#!/usr/bin/env bash
# The engine's floor replays a kernel's own messages (benchmarks/floor.c
# --trace, from the programs collsim-msgcount records): with the kernel's
# local work slept as algos/local.c charges it, the replay's simulated time
# must equal collsim's bench time for the same case (1e-9), since it is the
# same simulation without collsim around it. Fails if the recorded programs
# (the models' input) and what the kernel sends under SMPI part, or if the
# replay stops being the kernel's pattern (benchmarks/scale.sh's floor).
set -euo pipefail
cli=$1 msgcount=$2 floor=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for p in 7 13; do
  "$cli" platform abg --np $p --out "$tmp/a$p.xml" --hostfile "$tmp/a$p.hostfile" >/dev/null
  for coll in allreduce reduce_scatter_block; do
    for algo in circulant ceilhalf butterfly; do
      for b in 1000 $([ $p = 13 ] && echo 64K); do
        "$cli" bench --platform "$tmp/a$p.xml" --np $p --coll $coll --algos $algo --bytes $b \
          --verify none --quiet --out "$tmp/c.csv" --redo >/dev/null
        bytes=$(numfmt --from=iec $b)
        "$msgcount" $coll $algo $p "$bytes" "$tmp/t" >/dev/null
        # shellcheck disable=SC2046
        t=$(smpirun -np $p -platform "$tmp/a$p.xml" -hostfile "$tmp/a$p.hostfile" -no-privatize \
          --cfg=smpi/display-timing:no --log=root.thres:warning $("$cli" platform --print-flags) \
          "$floor" --trace "$tmp/t" sleep time 2>"$tmp/err" | tail -1)
        c=$(awk -F, '!/^#/ && NF > 6 && $1 != "coll" { c = $6 } END { print c }' "$tmp/c.csv")
        n=$((n + 1))
        if ! awk -v t="$t" -v c="$c" 'BEGIN { d = (t - c) / (c > 0 ? c : 1); exit !(t != "" && c > 0 && d < 1e-9 && d > -1e-9) }'; then
          echo "FAIL: $coll $algo p=$p $b: replay $t s, collsim $c s"; cat "$tmp/err"; fail=1
        fi
      done
    done
  done
done
# a trace of another p is refused with a message, not replayed
if smpirun -np 7 -platform "$tmp/a7.xml" -hostfile "$tmp/a7.hostfile" -no-privatize \
  --cfg=smpi/display-timing:no --log=root.thres:warning "$floor" --trace "$tmp/t" >"$tmp/o" 2>&1 ||
  ! grep -q "not a trace of 7 ranks" "$tmp/o"; then
  echo "FAIL: a 13-rank trace was not refused at 7 ranks"; cat "$tmp/o"; fail=1
fi
[ $fail = 0 ] && echo "floor_replay: $n replays took collsim's simulated time exactly"
exit $fail
