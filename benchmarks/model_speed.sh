#!/usr/bin/env bash
# Speed of the models (not a test): the wall time of pricing an allreduce of
# 1 MiB with `collsim predict --no-sim` (build/collsim-cli, the front door's
# program) (the kernel runs on p coroutines
# under the recording MPI, then the evaluator prices it) for circulant,
# ceilhalf and butterfly at p = 1024, 8192, 32768, next to the wall time of
# simulating the same case with `collsim bench` on an abg platform (up to
# p = 8192: simulating 32768 ranks takes minutes), and their ratio.
# Targets: well under a second at p = 8192, a few seconds at p = 32768.
# usage: benchmarks/model_speed.sh [P_LIST] [SIM_MAX_P]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
plist=${1:-1024,8192,32768} simmax=${2:-8192}
# The front door builds what is out of date; then the CLI itself is timed, so
# that neither figure includes the build check (about 0.5 s per call).
"$here/collsim" list >/dev/null
cli="${COLLSIM_BUILD:-$here/build}/collsim-cli"
if [ "$(cat /proc/sys/vm/max_map_count)" -lt 1048576 ] && [ "$(id -u)" -eq 0 ]; then
  sysctl -qw vm.max_map_count=1048576 # SMPI maps every rank's stack separately
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
printf '%-10s %6s %10s %10s %10s %10s\n' algo p model_s model_wall sim_wall sim/model
for p in ${plist//,/ }; do
  for algo in circulant ceilhalf butterfly; do
    t0=$(now)
    model=$("$cli" predict --coll allreduce --algo $algo --np $p --bytes 1M --model abg --no-sim |
      awk -F, 'NR == 2 { print $6 }')
    t1=$(now)
    mw=$(echo "$t1 - $t0" | bc -l)
    sw=- ratio=-
    if [ "$p" -le "$simmax" ]; then
      [ -e "$tmp/abg-$p.xml" ] || "$cli" platform abg --np $p --out "$tmp/abg-$p.xml" \
        --hostfile "$tmp/abg-$p.hostfile"
      t0=$(now)
      "$cli" bench --platform "$tmp/abg-$p.xml" --np $p --coll allreduce --algos $algo \
        --bytes 1M --out "$tmp/sim-$algo-$p.csv" --redo >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
      t1=$(now)
      sw=$(printf '%.3f' "$(echo "$t1 - $t0" | bc -l)")
      ratio=$(printf '%.1f' "$(echo "$sw / $mw" | bc -l)")
    fi
    printf '%-10s %6d %10s %10.3f %10s %10s\n' $algo $p "$model" "$mw" "$sw" "$ratio"
  done
done
