#!/usr/bin/env bash
# Open MPI obeys an emitted rules file (docs/tuning.md): `collsim tune
# --emit ompi-rules:FILE` from a winners fixture of Open MPI's own allreduce
# algorithms (tests/fixtures/winners_ompi.csv: at p = 4, recursive doubling
# up to 8191 bytes, ring up to 262143, Rabenseifner above), then an unmodified
# MPI program (tests/tuning/sizes.c) under mpirun with
#   --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename FILE
# and an LD_PRELOAD spy (tests/tuning/ompi_spy.c) that logs which
# ompi_coll_base_allreduce_intra_* function coll/tuned called per count. Each
# size must run the algorithm the file names; a second file with ring and
# Rabenseifner swapped must swap them (so it is the file that decides).
#
#   ompi_rules.sh APP SPY CLI
set -u
app=$1 spy=$2 cli=$3
here=$(cd "$(dirname "$0")" && pwd)
fixture=$here/../fixtures/winners_ompi.csv
work=$(mktemp -d /tmp/collsim-ompi-rules.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
MPIRUN=(timeout 30 mpirun --oversubscribe --allow-run-as-root --mca btl_vader_single_copy_mechanism none)

# obey TAG WINNERS COUNT=ALGORITHM...: emit, run at p = 4, compare the spy's log.
obey() {
  local tag=$1 winners=$2
  shift 2
  "$cli" tune --from "$winners" --emit "ompi-rules:$work/$tag.rules" 2>"$work/$tag.tune" ||
    { fail "$tag: collsim tune: $(cat "$work/$tag.tune")"; return; }
  local counts=()
  for e in "$@"; do counts+=("${e%%=*}"); done
  rm -f "$work/$tag.spy"
  SPY_LOG="$work/$tag.spy" "${MPIRUN[@]}" -np 4 --mca coll_tuned_use_dynamic_rules 1 \
    --mca coll_tuned_dynamic_rules_filename "$work/$tag.rules" -x LD_PRELOAD="$spy" -x SPY_LOG \
    "$app" "${counts[@]}" >"$work/$tag.out" 2>"$work/$tag.err" ||
    { fail "$tag: mpirun failed: $(head -5 "$work/$tag.err")"; return; }
  [ "$(grep -c '^ok ' "$work/$tag.out")" = $# ] || fail "$tag: wrong results: $(cat "$work/$tag.out")"
  for e in "$@"; do
    local n=${e%%=*} want=${e#*=} got
    # The first algorithm each process entered for this count (an algorithm
    # may call another inside, e.g. ring below p elements).
    got=$(awk -v c="count=$n" '$3 == c { print $2 }' "$work/$tag.spy" | sort | uniq -c |
      awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }')
    [ "$got" = "$want x4" ] ||
      fail "$tag: count $n ($((n * 4)) bytes): Open MPI ran '$got', the file names '$want' (x4 processes)"
  done
}

# 8 B, 64 KiB, 1 MiB of ints.
obey rules "$fixture" 2=recursivedoubling 16384=ring 262144=redscat_allgather
sed 's/native:lr/native:SWAP/g; s/native:rab_rdb/native:lr/g; s/native:SWAP/native:rab_rdb/g' \
  "$fixture" >"$work/swapped.csv"
obey swapped "$work/swapped.csv" 2=recursivedoubling 16384=redscat_allgather 262144=ring

[ $fails = 0 ] && echo "ompi_rules: all passed ($SECONDS s)" || echo "ompi_rules: $fails failure(s)"
[ $fails = 0 ]
