#!/usr/bin/env bash
# Holds the fluid evaluator on a platform's own routes (models/routes.h,
# models/fluid.c; issue 26) against SMPI: |sim - model| / model <= MR_TOL
# (default 1e-6) for every registered non-native algorithm of the given
# collectives on the given platforms, ranks placed PPN per node, rooted
# collectives at root p / 3 (asymmetric schedules: binomial reduce,
# circulant gather/scatter with a root).
# Platforms: the named machines hydra, irene, theta, vsc3, bluewaters (irene
# and theta with a hostfile written here, node<N> PPN ranks each; the others
# with their own hostfile, or with PPN ranks per node where MR_PPN is set),
# and the closed-form lines written here by
# `collsim platform` for the largest p: abg, maxrate, lanes1, lanes2, lanes4
# (k = 1, 2, 4 lanes), priced with `predict --model routes` (on them predict
# would otherwise use the closed-form model).
# usage: [MR_TOL=1e-9] [MR_PPN=4] [MR_SKIP=LIST] [MR_BIG=P] [MR_CFG=OPTS] model_routes.sh CLI PLATFORMS PLIST SIZES [COLLS]
# (PLATFORMS, COLLS: comma lists; COLLS default every collective; a platform
# written NAME/C1+C2 takes the collectives C1 and C2 instead of COLLS)
# MR_SKIP: rows left out, each a collective, a family or COLL/ALGO (e.g.
# alltoall/lane,alltoall/hier: their models with several processes per node
# are issue 27's). MR_BIG (default 256): at p > MR_BIG the alltoall (p (p-1)
# messages per size), the ring family (2 p (p-1)) and the lane and hier
# decompositions (their scan and exscan simulations grew past 17 GiB at p =
# 256, docs/models.md) are left out. The last lines give the worst rel_err
# per platform and family (the table docs/models.md prints); MR_ROWS=FILE
# appends every row to FILE as it is checked (platform, family, rel_err,
# case), so that a long run that is stopped keeps what it measured.
# MR_CFG (default --cfg=surf/precision:1e-15): smpirun options the
# simulations add to collsim's timing settings. SimGrid merges events closer
# than surf/precision (timing runs: 1e-12 s): a local-work charge that ends
# less than 1e-12 s after another event ends with it, a few 1e-13 s early,
# and such shifts add up to 1.4e-5 at hydra p = 1152 (docs/models.md); at
# 1e-15 SimGrid gives the fluid evaluator's values. MR_CFG= compares with the
# timing settings as they are.
# The full matrix (hours): bash tests/model_routes.sh build/collsim-cli
#   abg,maxrate,lanes1,lanes2,lanes4,hydra,irene,theta,vsc3,bluewaters
#   2-40,64,100,256,1024 1,1000,64K,1M,16M
set -uo pipefail
cli=$1 plats=$2 plist=$3 sizes=$4 colls=${5:-}
ppn=${MR_PPN:-4} tol=${MR_TOL:-1e-6} cfg=${MR_CFG---cfg=surf/precision:1e-15} skip=",${MR_SKIP:-}," big=${MR_BIG:-256}
# The lane and hier rows' inner collectives are the library's (priced as the
# algorithm SMPI's selector runs), except alltoall and reduce_scatter, whose library algorithms
# (alltoall; reduce_scatter mpich_rdb) the recording MPI does not reproduce
# (models/mpirec/libcoll.c): collsim's.
export COLLSIM_INNER=${COLLSIM_INNER:-alltoall:pairwise,reduce_scatter:circulant}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
allrows=${MR_ROWS:-$tmp/all}
expand() { local IFS=,; for part in $1; do
  if [[ $part == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi; done; }
pmax=$(expand "$plist" | sort -n | tail -1)
nodes=$(((pmax + ppn - 1) / ppn))
# the registry, read once (each `list --csv` costs about 16 ms; it was read
# three times per collective)
"$cli" list --csv >"$tmp/list" || { echo "FAIL: $cli list --csv"; exit 1; }
[ -n "$colls" ] || colls=$(awk -F, 'NR > 1 && $2 != "native" && !seen[$1]++ { printf "%s%s", s, $1; s = "," }' "$tmp/list")
fail=0 rows=0
for item in ${plats//,/ }; do
  plat=${item%%/*} pcolls=$colls
  [ "$item" = "$plat" ] || pcolls=${item#*/} pcolls=${pcolls//+/,}
  where=(--platform "$plat")
  case $plat in
  abg) gen=(abg --np "$pmax") ;;
  maxrate) gen=(maxrate --nodes "$nodes" --ppn "$ppn") ;;
  lanes[0-9]*) gen=(lanes --nodes "$nodes" --ppn "$ppn" --lanes "${plat#lanes}") ;;
  *) gen=() ;;
  esac
  if [ ${#gen[@]} -gt 0 ]; then
    "$cli" platform "${gen[@]}" --out "$tmp/$plat.xml" --hostfile "$tmp/$plat.hostfile" >/dev/null ||
      { echo "FAIL: collsim platform ${gen[*]}"; fail=$((fail + 1)); continue; }
    where=(--platform "$tmp/$plat.xml" --model routes)
  fi
  for p in $(expand "$plist"); do
    hf=()
    if [ "$plat" = irene ] || [ "$plat" = theta ]; then
      for ((r = 0; r < p; r++)); do echo "node$((r / ppn))"; done >"$tmp/h"
      hf=(--hostfile "$tmp/h")
    elif [ -n "${MR_PPN:-}" ] && [ ${#gen[@]} -eq 0 ]; then
      # MR_PPN given: PPN ranks per node on the other named machines too
      # (hydra and vsc3 have a host per core, node<N>-<L>; bluewaters a
      # host per node), so that a small p crosses nodes
      if [ "$plat" = hydra ] || [ "$plat" = vsc3 ]; then
        for ((r = 0; r < p; r++)); do echo "node$((r / ppn))-$((r % ppn))"; done >"$tmp/h"
      else
        for ((r = 0; r < p; r++)); do echo "node$((r / ppn))"; done >"$tmp/h"
      fi
      hf=(--hostfile "$tmp/h")
    fi
    for coll in ${pcolls//,/ }; do
      sk=$skip
      [ "$p" -gt "$big" ] && sk="$sk,alltoall,pairring,lane,hier,"
      [[ $sk == *",$coll,"* ]] && continue
      algos=$(awk -F, -v c="$coll" 'NR > 1 && $1 == c && $2 != "native" { printf "%s%s", s, $2; s = "," }' "$tmp/list")
      [ -n "$algos" ] || { echo "no algorithm for $coll"; fail=$((fail + 1)); continue; }
      algos=$(awk -F, -v c="$coll" -v sk="$sk" 'NR > 1 && $1 == c && $2 != "native" &&
        !index(sk, "," $3 ",") && !index(sk, "," c "/" $2 ",") { printf "%s%s", s, $2; s = "," }' "$tmp/list")
      [ -n "$algos" ] || continue
      if ! "$cli" predict "${where[@]}" "${hf[@]}" --np "$p" --coll "$coll" --algo "$algos" \
        --bytes "$sizes" --root $((p / 3)) ${cfg:+--cfg "$cfg"} --out "$tmp/o.csv" 2>"$tmp/err"; then
        echo "FAIL $plat p=$p $coll: predict failed: $(cat "$tmp/err")"; fail=$((fail + 1)); continue
      fi
      bad=$(awk -F, -v tol="$tol" '/^#/ || $1 == "coll" { next } { n++ }
        $6 == "" || $7 == "" || $8 == "" || $8 + 0 > tol + 0 || $9 != "fluid-routes" { print "  " $0 }
        END { if (!n) print "  no rows" }' "$tmp/o.csv")
      rows=$((rows + $(grep -vc '^#\|^coll' "$tmp/o.csv")))
      # platform, family, rel_err, case (for the summary)
      awk -F, -v pl="$plat" 'NR == FNR { if (FNR > 1) fam[$1 "/" $2] = $3; next }
        /^#/ || $1 == "coll" { next }
        { print pl, fam[$1 "/" $2], ($8 == "" ? "nan" : $8), $1 "/" $2 "/p=" $3 "/" $4 }' \
        "$tmp/list" "$tmp/o.csv" >>"$allrows"
      if [ -n "$bad" ]; then echo "FAIL $plat p=$p $coll (model_s, sim_s, rel_err > $tol, or not fluid-routes):"; echo "$bad"; fail=$((fail + 1)); fi
    done
  done
done
# the worst rel_err per platform and family, then per platform
[ -s "$allrows" ] && awk '$3 == "nan" { next }
  { k = $1 " " $2; if (!(k in w) || $3 + 0 > w[k]) { w[k] = $3 + 0; c[k] = $4 } n[k]++
    if (!($1 in wp) || $3 + 0 > wp[$1]) { wp[$1] = $3 + 0; cp[$1] = $4 } np[$1]++ }
  END { for (k in w) printf "worst %-22s %6d rows %10.3g %s\n", k, n[k], w[k], c[k]
        for (k in wp) printf "worst %-22s %6d rows %10.3g %s\n", k " (all)", np[k], wp[k], cp[k] }' "$allrows" | sort
echo "model_routes: $rows rows, $fail failures (rel_err <= $tol)"
[ $fail -eq 0 ]
