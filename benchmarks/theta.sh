#!/usr/bin/env bash
# Scale benchmark (not a test): circulant reduce_scatter_block and allreduce
# simulated on the Theta-like platform with 128 x 64 = 8192 ranks at 1 KiB
# and 1 MiB, with SMPI's own rab allreduce beside them as the baseline.
# Sizes are totals (docs/csv.md): on 8192 ranks reduce_scatter_block at
# 1 KiB has empty blocks (it measures the simulation's fixed costs) and at
# 1 MiB 128-byte blocks.
# Prints wall seconds and peak memory of each simulation and the ratio to
# the baseline. Targets: < 15 s and < 2 GiB per circulant run.
# usage: benchmarks/theta.sh [--no-baseline] [--np P]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
np=8192 baseline=1
while [ $# -gt 0 ]; do
  case $1 in
    --no-baseline) baseline=0 ;;
    --np) np=$2; shift ;;
    *) echo "usage: $0 [--no-baseline] [--np P]" >&2; exit 2 ;;
  esac
  shift
done
# SMPI maps every shared buffer and every rank's stack separately: 8192 ranks
# need more than Linux's default 65530 memory maps.
if [ "$(cat /proc/sys/vm/max_map_count)" -lt 1048576 ]; then
  if [ "$(id -u)" -eq 0 ]; then sysctl -qw vm.max_map_count=1048576
  else echo "theta.sh: vm.max_map_count is low; as root: sysctl -w vm.max_map_count=1048576" >&2; fi
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
avail() { awk '/^MemAvailable:/ { print $2 }' /proc/meminfo; }
run() { # coll algo bytes -> "wall used_MiB sim_time"
  local f="$out/$1-$2-$3.csv"
  # Memory really used: the drop of MemAvailable during the run, sampled
  # every 0.1 s (the peak RSS of the process counts every mapping of SMPI's
  # shared buffers again, so it overstates by far).
  local base; base=$(avail)
  ( low=$base; while [ ! -e "$out/stop" ]; do a=$(avail); [ "$a" -lt "$low" ] && low=$a; echo $low >"$out/low"; sleep 0.1; done ) &
  local sampler=$!
  "$here/collsim" bench --platform theta --np $np --coll $1 --algos $2 --bytes $3 --out "$f" \
      --stats --quiet 2>"$out/err" || { touch "$out/stop"; wait $sampler; rm -f "$out/stop"; cat "$out/err" >&2; return 1; }
  touch "$out/stop"; wait $sampler; rm -f "$out/stop"
  local w r t
  w=$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' "$out/err")
  r=$(( (base - $(cat "$out/low")) / 1024 ))
  t=$(awk -F, '!/^#/ && $1 != "coll" { print $6 }' "$f")
  echo "$w $r $t"
}
printf "%-22s %-10s %8s %8s %12s %14s\n" collective algorithm bytes wall_s used_MiB simulated_s
declare -A wall
for bytes in 1K 1M; do
  for case in "reduce_scatter_block circulant" "allreduce circulant" "allreduce native:rab"; do
    set -- $case
    b=$bytes
    [ $baseline -eq 0 ] && [ "$2" = native:rab ] && continue
    read -r w r t < <(run $1 $2 $b)
    wall[$1-$2-$bytes]=$w
    printf "%-22s %-10s %8s %8s %12s %14s\n" $1 $2 $b $w $r $t
  done
  if [ $baseline -eq 1 ]; then
    awk -v a="${wall[allreduce-circulant-$bytes]}" -v b="${wall[allreduce-native:rab-$bytes]}" -v m=$bytes \
      'BEGIN { if (b > 0) printf "  %s: circulant allreduce wall / SMPI rab wall = %.2f\n", m, a / b }'
  fi
done
