#!/usr/bin/env bash
# Holds the fluid evaluator on a platform's own routes (models/routes.h,
# models/fluid.c; issue 26) against SMPI: |sim - model| / model <= 1e-6 for
# every registered non-native algorithm of the given collectives on the
# given named machines, ranks placed PPN per node (a hostfile written here:
# node<N> for irene and theta, the machine's own hostfile otherwise), rooted
# collectives at root p / 3 (asymmetric schedules: binomial reduce,
# circulant gather/scatter with a root).
# usage: model_routes.sh CLI PLATFORMS PLIST SIZES [COLLS] (PLATFORMS: comma list of
# hydra,irene,theta,vsc3,bluewaters; COLLS: comma list, default every collective)
# The full matrix (hours): bash tests/model_routes.sh build/collsim-cli
#   hydra,irene,theta,vsc3,bluewaters 2-40,64,100,256,1024 1,1000,64K,1M,16M
set -uo pipefail
cli=$1 plats=$2 plist=$3 sizes=$4 colls=${5:-}
ppn=${MR_PPN:-4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
expand() { local IFS=,; for part in $1; do
  if [[ $part == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi; done; }
[ -n "$colls" ] || colls=$("$cli" list --csv | awk -F, 'NR > 1 && $2 != "native" && !seen[$1]++ { printf "%s%s", s, $1; s = "," }')
fail=0 rows=0
for plat in ${plats//,/ }; do
  for p in $(expand "$plist"); do
    hf=()
    if [ "$plat" = irene ] || [ "$plat" = theta ]; then
      for ((r = 0; r < p; r++)); do echo "node$((r / ppn))"; done >"$tmp/h"
      hf=(--hostfile "$tmp/h")
    fi
    for coll in ${colls//,/ }; do
      algos=$("$cli" list --csv | awk -F, -v c="$coll" 'NR > 1 && $1 == c && $2 != "native" { printf "%s%s", s, $2; s = "," }')
      [ -n "$algos" ] || { echo "no algorithm for $coll"; fail=$((fail + 1)); continue; }
      if ! "$cli" predict --platform "$plat" "${hf[@]}" --np "$p" --coll "$coll" --algo "$algos" \
        --bytes "$sizes" --root $((p / 3)) --out "$tmp/o.csv" 2>"$tmp/err"; then
        echo "FAIL $plat p=$p $coll: predict failed: $(cat "$tmp/err")"; fail=$((fail + 1)); continue
      fi
      bad=$(awk -F, '/^#/ || $1 == "coll" { next } { n++ }
        $6 == "" || $7 == "" || $8 == "" || $8 + 0 > 1e-6 { print "  " $0 } END { if (!n) print "  no rows" }' "$tmp/o.csv")
      rows=$((rows + $(grep -vc '^#\|^coll' "$tmp/o.csv")))
      if [ -n "$bad" ]; then echo "FAIL $plat p=$p $coll (model_s, sim_s, rel_err > 1e-6):"; echo "$bad"; fail=$((fail + 1)); fi
    done
  done
done
echo "model_routes: $rows rows, $fail failures"
[ $fail -eq 0 ]
