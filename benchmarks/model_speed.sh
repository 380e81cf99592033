#!/usr/bin/env bash
# Speed of the models (not a test). For each p and each of circulant,
# ceilhalf and butterfly allreduce and reduce_scatter_block of 1 MiB, the CPU
# seconds (user + sys) and peak resident memory of pricing the case with
# `collsim predict --model abg --no-sim` (build/collsim-cli, the front door's
# program: the kernel runs on p coroutines under the recording MPI, then the
# evaluator prices the record), and its model_s.
#
# With --baseline CLI (another build's collsim-cli, e.g. one of the commit
# before a change) the same case is priced by both, one after the other, and
# the line gives both figures and their ratios (baseline / this build), and
# says whether model_s is identical.
#
# With --sim-max P, cases with p <= P are also simulated (`collsim bench` on
# an abg platform), with the simulation's wall time, its CPU time (user + sys
# of bench and the smpirun it waits for) and sim_cpu / cpu_s, the ratio issue
# 26 asks to be at least 10.
#
# With --platform NAME (a named machine or platform file) the cases are priced
# on that platform (irene, theta, hydra, vsc3, bluewaters: the fluid evaluator
# on the platform's own routes, models/routes.h) and simulated there.
#
# Target (issue 13): every model prices 10^6 ranks in under 10 s. Target
# (issue 26): pricing theta at 8192 ranks takes at most 1/10 of the
# simulation's time:
#   benchmarks/model_speed.sh --platform theta --np 8192 --sim-max 8192
# Runs at p > 131072 use several GiB: from the first of them on, the script
# holds the big-run lock (/tmp/collsim-big.lock) as the shared machine's
# rules ask.
#
# usage: benchmarks/model_speed.sh [--np LIST] [--colls LIST] [--algos LIST]
#          [--baseline CLI] [--sim-max P]
# e.g.   git worktree add /tmp/base <commit> && cmake -S /tmp/base -B /tmp/base/build &&
#        cmake --build /tmp/base/build --target collsim-cli &&
#        nice benchmarks/model_speed.sh --np 131072,1000000 --baseline /tmp/base/build/collsim-cli
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
plist=1024,8192,32768,131072,1000000 colls=allreduce,reduce_scatter_block
algos=circulant,ceilhalf,butterfly base="" simmax=0 platform=
while [ $# -gt 0 ]; do
  case $1 in
  --np) plist=$2 ;;
  --colls) colls=$2 ;;
  --algos) algos=$2 ;;
  --baseline) base=$2 ;;
  --sim-max) simmax=$2 ;;
  --platform) platform=$2 ;;
  *)
    echo "model_speed.sh: unknown option '$1' (valid: --np --colls --algos --baseline --sim-max --platform)" >&2
    exit 2
    ;;
  esac
  shift 2
done
if [ -n "$base" ] && [ ! -x "$base" ]; then
  echo "model_speed.sh: --baseline '$base' is not an executable collsim-cli" >&2
  exit 2
fi
# The front door builds what is out of date; then the CLI itself is timed, so
# that no figure includes the build check (about 0.5 s per call). With
# COLLSIM_BUILD set, that directory's collsim-cli is timed as it is.
[ -n "${COLLSIM_BUILD:-}" ] || "$here/collsim" list >/dev/null
cli="${COLLSIM_BUILD:-$here/build}/collsim-cli"
if [ "$simmax" -gt 0 ] && [ "$(cat /proc/sys/vm/max_map_count)" -lt 1048576 ] && [ "$(id -u)" -eq 0 ]; then
  sysctl -qw vm.max_map_count=1048576 # SMPI maps every rank's stack separately
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lock=/tmp/collsim-big.lock

pmodel=(--model abg)
[ -z "$platform" ] || pmodel=(--platform "$platform")
# price CLI COLL ALGO P: prints "cpu_s maxrss_MiB model_s"
price() {
  /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$1" predict --coll "$2" --algo "$3" \
    --np "$4" --bytes 1M "${pmodel[@]}" --no-sim >"$tmp/out"
  awk -F, 'NR == 2 { m = $6 } END { getline t < "'"$tmp/time"'"; split(t, a, " ");
    printf "%.2f %.0f %s\n", a[1] + a[2], a[3] / 1024, m }' "$tmp/out"
}

echo "# $(uptime)"
if [ -n "$base" ]; then
  printf '%-21s %-10s %8s %9s %9s %6s %9s %9s %6s %s\n' coll algo p base_cpu cpu_s speedup \
    base_MiB MiB mem model_s
else
  printf '%-21s %-10s %8s %9s %9s %14s %9s %9s %8s\n' coll algo p cpu_s MiB model_s sim_wall sim_cpu sim/cpu
fi
locked=0
for p in ${plist//,/ }; do
  if [ "$p" -gt 131072 ] && [ $locked = 0 ]; then
    exec 9>>"$lock"
    flock 9
    locked=1
  fi
  for coll in ${colls//,/ }; do
    for algo in ${algos//,/ }; do
      read -r cpu mem model < <(price "$cli" "$coll" "$algo" "$p")
      [ -n "$model" ] || { echo "model_speed.sh: $cli failed on $coll $algo p = $p" >&2; exit 1; }
      if [ -n "$base" ]; then
        read -r bcpu bmem bmodel < <(price "$base" "$coll" "$algo" "$p")
        [ -n "$bmodel" ] || { echo "model_speed.sh: $base failed on $coll $algo p = $p" >&2; exit 1; }
        same=identical
        [ "$bmodel" = "$model" ] || same="DIFFERS (baseline $bmodel)"
        printf '%-21s %-10s %8d %9.2f %9.2f %6.2f %9d %9d %6.2f %s %s\n' "$coll" "$algo" "$p" \
          "$bcpu" "$cpu" "$(echo "$bcpu / $cpu" | bc -l)" "$bmem" "$mem" \
          "$(echo "$bmem / $mem" | bc -l)" "$model" "$same"
        continue
      fi
      sw=- sc=- ratio=-
      if [ "$p" -le "$simmax" ]; then
        plat=$platform
        if [ -z "$plat" ]; then
          plat=$tmp/abg-$p.xml
          [ -e "$plat" ] || "$cli" platform abg --np "$p" --out "$plat" --hostfile "$tmp/abg-$p.hostfile"
        fi
        /usr/bin/time -f '%e %U %S' -o "$tmp/stime" "$cli" bench --platform "$plat" --np "$p" \
          --coll "$coll" --algos "$algo" --bytes 1M --out "$tmp/sim.csv" --redo >/dev/null 2>"$tmp/err" || {
          cat "$tmp/err" >&2
          exit 1
        }
        read -r sw su ss <"$tmp/stime"
        sc=$(printf '%.2f' "$(echo "$su + $ss" | bc -l)")
        ratio=$(printf '%.1f' "$(echo "$sc / $cpu" | bc -l)")
      fi
      printf '%-21s %-10s %8d %9.2f %9d %14s %9s %9s %8s\n' "$coll" "$algo" "$p" "$cpu" "$mem" \
        "$model" "$sw" "$sc" "$ratio"
    done
  done
done
