#!/usr/bin/env bash
# libcollsim-smpi.o under smpirun: tests/pmpi/app.c built with smpicc twice,
# alone and linked with the library, on an abg platform. Per process count:
# the library linked but nothing chosen gives the same output as the app
# alone; then rounds 0..R-1 (as tests/pmpi/run.sh: round j sets every
# collective that has algorithms besides native to its j-th one) must give
# the same output byte for byte, with calls > 0 in the log for every
# collective set. Round 0 runs with dlopen privatization (SMPI's default, the
# app has globals), the others with mmap, so both modes serve calls. SMPI 3.32
# has no intercommunicators: the app skips that case under SMPI.
# usage: smpi.sh APP_PLAIN APP_LIB CLI [NPS]
set -u
plain=$1 app=$2 cli=$3 nps=${4:-5}
for v in $(env | sed -n 's/^\(COLLSIM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
w=$(mktemp -d /tmp/collsim-smpi.XXXXXX)
trap 'rm -rf "$w"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
. "$(dirname "$0")/registry.sh"
load_registry "$cli"
upper() { tr a-z A-Z <<<"$1"; }
# run TAG NP PROGRAM PRIVATIZATION [VAR=VALUE...]
run() {
  local tag=$1 np=$2 prog=$3 priv=$4
  shift 4
  env "$@" COLLSIM_PMPI_LOG="$w/$tag.log" timeout 60 smpirun -np "$np" -platform "$w/p.xml" \
    -hostfile "$w/p.hosts" --cfg=smpi/privatization:"$priv" --log=root.thres:critical \
    --cfg=smpi/send-is-detached-thresh:0 "$prog" 2 >"$w/$tag.out" 2>"$w/$tag.err" ||
    fail "$tag: smpirun status $? ($(tail -2 "$w/$tag.err"))"
  touch "$w/$tag.log"
}
for np in ${nps//,/ }; do
  "$cli" platform abg --np "$np" --out "$w/p.xml" --hostfile "$w/p.hosts" || exit 1
  run base$np "$np" "$plain" dlopen
  grep -q "^done p=$np iterations=2\$" "$w/base$np.out" || fail "base$np: no final line"
  run linked$np "$np" "$app" dlopen
  cmp -s "$w/base$np.out" "$w/linked$np.out" || fail "linked$np: output differs from the app alone"
  for ((j = 0; j < rounds; j++)); do
    tag=round$j-np$np vars=()
    for c in "${!algos[@]}"; do vars+=("COLLSIM_$(upper "$c")=$(setting $j "$c")"); done
    priv=mmap
    [ $j = 0 ] && priv=dlopen
    run "$tag" "$np" "$app" $priv "${vars[@]}"
    if ! cmp -s "$w/base$np.out" "$w/$tag.out"; then
      fail "$tag ($priv): output differs from the app alone:"
      diff "$w/base$np.out" "$w/$tag.out" | head -6 | sed 's/^/    /'
    fi
    for c in "${!algos[@]}"; do
      a=$(setting $j "$c")
      n=$(sed -n "s/^collsim-smpi: $c $a calls=\([0-9]*\) .* rank=0\$/\1/p" "$w/$tag.log")
      [ "${n:-0}" -gt 0 ] || fail "$tag: $c $a served no call (log: $(grep "^collsim-smpi: $c " "$w/$tag.log"))"
    done
  done
done
[ $fails = 0 ] && echo "ok: libcollsim-smpi.o: every registered algorithm served the app's calls with the app's own results (np $nps, $rounds rounds, dlopen and mmap)"
[ $fails = 0 ]
