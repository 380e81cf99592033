#!/usr/bin/env bash
# The fluid evaluator on routes against SMPI (issue 26; not a test): for each
# platform (irene: fat tree, theta: dragonfly, and any platform file) and p,
# every registered non-native algorithm of every collective at the given
# sizes is predicted and simulated (`collsim predict`), and the table gives
# per platform and p the median and worst relative error |sim - model| /
# model. Targets: median <= 2%, worst <= 10% (by construction the evaluator
# equals SimGrid's CM02 sharing: expect 1e-9).
# usage: benchmarks/fluid_error.sh [--platforms LIST] [--np LIST] [--bytes LIST] [--colls LIST]
# e.g.   benchmarks/fluid_error.sh --platforms irene,theta --np 64,256,1024 --bytes 1K,1M
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
plats=irene,theta plist=64,256,1024 sizes=1K,1M colls=""
while [ $# -gt 0 ]; do
  case $1 in
  --platforms) plats=$2 ;;
  --np) plist=$2 ;;
  --bytes) sizes=$2 ;;
  --colls) colls=$2 ;;
  *) echo "fluid_error.sh: unknown option '$1' (valid: --platforms --np --bytes --colls)" >&2; exit 2 ;;
  esac
  shift 2
done
cli="$here/collsim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$colls" ] || colls=$("$cli" list --csv | awk -F, 'NR > 1 && $2 != "native" && !seen[$1]++ { printf "%s%s", s, $1; s = "," }')
printf '%-12s %6s %6s %12s %12s %s\n' platform p rows median_rel worst_rel worst_case
for plat in ${plats//,/ }; do
  for p in ${plist//,/ }; do
    : >"$tmp/all"
    for coll in ${colls//,/ }; do
      # alltoall at large p: p (p-1) messages per size, skipped above 256
      [ "$coll" = alltoall ] && [ "$p" -gt 256 ] && continue
      algos=$("$cli" list --csv | awk -F, -v c="$coll" 'NR > 1 && $1 == c && $2 != "native" { printf "%s%s", s, $2; s = "," }')
      "$cli" predict --platform "$plat" --np "$p" --coll "$coll" --algo "$algos" --bytes "$sizes" \
        --root $((p / 3)) --out "$tmp/o.csv" 2>>"$tmp/err" || { echo "predict failed: $plat $p $coll" >&2; continue; }
      awk -F, '/^#/ || $1 == "coll" { next } { print ($8 == "" ? "nan" : $8), $1 "/" $2 "/" $4 }' "$tmp/o.csv" >>"$tmp/all"
    done
    sort -g "$tmp/all" | awk -v pl="$plat" -v p="$p" '{ v[NR] = $1; c[NR] = $2 }
      END { if (!NR) { printf "%-12s %6d %6d %12s %12s\n", pl, p, 0, "-", "-"; exit }
            printf "%-12s %6d %6d %12.3g %12.3g %s\n", pl, p, NR, v[int((NR + 1) / 2)], v[NR], c[NR] }'
  done
done
