#!/usr/bin/env bash
# ./collsim map prices a platform as predict does (platforms/foreign.h,
# cs_platform_pricing; docs/models.md): a fat tree (irene) and a dragonfly
# (theta) on their own routes, with no approximation note, every cell
# equal to what `predict --no-sim` prints (model_kind fluid-routes); a
# closed-form line (maxrate) by its closed-form model (model_kind maxrate),
# and the cases that model does not price (scan lane and hier: SMPI's linear
# scan inside has nonblocking steps) on the line's routes, as predict
# (cs_routes_when_needed, model_kind fluid-routes).
# usage: map_routes.sh CLI
set -u
cli=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
algos=circulant,butterfly,ceilhalf
# same PLATFORM KIND NP [COLL ALGOS]: the map's cells of COLL (allreduce) equal predict's, whose rows are all of KIND
same() {
  local plat=$1 kind=$2 np=$3 coll=${4:-allreduce} al=${5:-$algos}
  local out=$tmp/$(basename "$1" .xml)$coll
  local want=$(($(echo "${al//,/ }" | wc -w) * 2 * $(echo "${np//,/ }" | wc -w)))
  if ! "$cli" map --coll "$coll" --np "$np" --bytes 1K,1M --algos "$al" --platform "$plat" \
    --out "$out" --no-plots --quiet 2>"$tmp/err"; then
    echo "FAIL: map of $coll on $plat:"; cat "$tmp/err"; fail=1; return
  fi
  if grep -q 'approximation' "$tmp/err" "$out/map-$coll-raw.csv"; then
    echo "FAIL: map on $plat still says approximation:"; cat "$tmp/err"; fail=1
  fi
  : >"$tmp/pred"
  for p in ${np//,/ }; do
    "$cli" predict --platform "$plat" --np "$p" --coll "$coll" --algo "$al" --bytes 1K,1M \
      --no-sim >>"$tmp/pred" 2>>"$tmp/err" || { echo "FAIL: predict on $plat p=$p"; fail=1; }
  done
  # raw: coll,algo,p,bytes,time_s,note; predict: ...,model_s ($6),...,model_kind ($9)
  if awk -F, -v kind="$kind" -v want="$want" '
    FNR == 1 { file++ }
    /^#/ || /^coll,/ { next }
    file == 1 { map[$2 "," $3 "," $4] = $5; next }
    { n++; if ($9 != kind) { print "model_kind " $9 " is not " kind ": " $0; bad = 1 }
      k = $2 "," $3 "," $4
      if (!(k in map) || map[k] == "" || map[k] + 0 != $6 + 0) { print "map " map[k] " != predict " $6 " at " k; bad = 1 } }
    END { if (n != want) { print n " predict rows, expected " want; bad = 1 }; exit bad }' \
    "$out/map-$coll-raw.csv" "$tmp/pred"; then
    echo "ok: map of $coll on $plat = predict --no-sim ($kind) in every cell"
  else
    echo "FAIL: map of $coll on $plat"; fail=1
  fi
}
same irene fluid-routes 12,24
same theta fluid-routes 16,32
"$cli" platform maxrate --nodes 8 --ppn 4 --out "$tmp/mr.xml" --hostfile "$tmp/mr.hostfile" >/dev/null &&
  same "$tmp/mr.xml" maxrate 12,32 || fail=1
same "$tmp/mr.xml" fluid-routes 8 scan lane,hier
grep -q 'pricing=routes' "$tmp/ireneallreduce/map-allreduce-raw.csv" &&
  ! grep -q 'pricing=routes' "$tmp/mrallreduce/map-allreduce-raw.csv" &&
  echo "ok: the raw file's first line says pricing=routes on irene only" ||
  { echo "FAIL: pricing=routes in the raw files' first lines"; fail=1; }
exit $fail
