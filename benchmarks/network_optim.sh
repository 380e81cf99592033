#!/usr/bin/env bash
# What SimGrid's full network update costs against its default lazy one (not
# a test; issue 26). SimGrid 3.32 (network/optim) either keeps each flow's end
# date in a heap and re-solves only the max-min constraints an event touched
# (Lazy, the default) or re-solves every constraint at every event (Full). On
# platforms whose routes differ in length (fat trees, dragonflies) Lazy can
# give a flow a stale rate, and the times then depend on the rows simulated
# before (docs/models.md); Full gives the fluid evaluator's values.
#
# For each case (platform, p, collective, algorithm, size) the script runs
# `collsim bench` twice in a row, Lazy then Full (paired: with LOCK=FILE both
# runs hold FILE's lock together, so that they see the same machine load),
# one algorithm per simulation, and prints per mode the wall time, the CPU
# time (user + sys of bench and the smpirun it waits for) and the peak
# resident memory of the largest process, then the CPU ratio full / lazy, the
# model's time (`predict --no-sim`, the fluid evaluator on the platform's
# routes) and each mode's |sim - model| / model.
#
# usage: benchmarks/network_optim.sh --platform P --np LIST [--colls LIST]
#          [--algos LIST] [--bytes LIST] [--cfg "..."] [--cli CLI]
#   defaults: colls allreduce,reduce_scatter_block, algos
#   circulant,ceilhalf,butterfly, bytes 1M; --cfg adds smpirun options to
#   both modes (e.g. "--cfg=surf/precision:1e-15").
# e.g. (the figures in docs/models.md, on the shared 2-core machine):
#   LOCK=/work/notes/heavy.lock benchmarks/network_optim.sh --platform irene --np 1024
#   LOCK=/work/notes/heavy.lock benchmarks/network_optim.sh --platform theta --np 1024,8192
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$here/build/collsim-cli" platform="" plist="" colls=allreduce,reduce_scatter_block
algos=circulant,ceilhalf,butterfly sizes=1M cfg=""
while [ $# -gt 0 ]; do
  case $1 in
  --platform) platform=$2 ;;
  --np) plist=$2 ;;
  --colls) colls=$2 ;;
  --algos) algos=$2 ;;
  --bytes) sizes=$2 ;;
  --cfg) cfg=$2 ;;
  --cli) cli=$2 ;;
  *) echo "network_optim.sh: unknown option $1 (valid: --platform --np --colls --algos --bytes --cfg --cli)" >&2; exit 2 ;;
  esac
  shift 2
done
[ -n "$platform" ] && [ -n "$plist" ] || { echo "network_optim.sh: --platform and --np are required" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One simulation: prints "wall cpu rss_mib time_s".
one() {
  local mode=$1 p=$2 coll=$3 algo=$4 b=$5
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" "$cli" bench --platform "$platform" --np "$p" --coll "$coll" \
    --algos "$algo" --bytes "$b" --verify none --quiet --cfg "--cfg=network/optim:$mode $cfg" >"$tmp/o.csv"
  local s
  s=$(awk -F, '/^#/ || $1 == "coll" { next } { print $6; exit }' "$tmp/o.csv")
  awk -v s="$s" '{ printf "%.2f %.2f %.0f %s\n", $1, $2 + $3, $4 / 1024, s }' "$tmp/t"
}
export -f one
export cli platform cfg tmp
echo "# $(date -u +%FT%TZ) $(uptime | sed 's/.*load/load/') platform=$platform cfg=${cfg:-none}"
echo "platform,p,coll,algo,bytes,lazy_wall_s,lazy_cpu_s,lazy_rss_mib,full_wall_s,full_cpu_s,full_rss_mib,cpu_full_over_lazy,model_s,lazy_s,full_s,lazy_err,full_err"
for p in ${plist//,/ }; do
  for coll in ${colls//,/ }; do
    for algo in ${algos//,/ }; do
      for b in ${sizes//,/ }; do
        model=$("$cli" predict --platform "$platform" --np "$p" --coll "$coll" --algo "$algo" --bytes "$b" \
          --no-sim --quiet | awk -F, '/^#/ || $1 == "coll" { next } { print $6; exit }')
        pair=(bash -c "one Lazy $p $coll $algo $b; one Full $p $coll $algo $b")
        if [ -n "${LOCK:-}" ]; then out=$(flock "$LOCK" "${pair[@]}"); else out=$("${pair[@]}"); fi
        echo "$out" | awk -v pl="$platform" -v p="$p" -v c="$coll" -v a="$algo" -v b="$b" -v m="$model" '
          NR == 1 { lw = $1; lc = $2; lr = $3; ls = $4 } NR == 2 { fw = $1; fc = $2; fr = $3; fs = $4 }
          function err(s) { return m > 0 ? sprintf("%.3g", (s > m ? s - m : m - s) / m) : "" }
          END { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.2f,%s,%s,%s,%s,%s\n", pl, p, c, a, b, lw, lc, lr,
                  fw, fc, fr, (lc > 0 ? fc / lc : 0), m, ls, fs, err(ls), err(fs) }'
      done
    done
  done
done
