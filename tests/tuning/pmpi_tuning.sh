#!/usr/bin/env bash
# COLLSIM_TUNING under mpirun (docs/tuning.md): an unmodified MPI program
# (tests/tuning/sizes.c) calls MPI_Allreduce at sizes that a table emitted
# from a winners fixture (tests/fixtures/winners_collsim.csv) assigns to two
# different collsim algorithms and to the library; the PMPI log must show
# that each size got the algorithm the table names. An explicit
# COLLSIM_ALLREDUCE wins over the table; a broken table (missing, malformed,
# overlapping rules, a table that differs between processes; the other
# checks of a table are tests/test_tuning.c's) gives ONE warning line at MPI_Init and the
# library serves every call, with the program's results unchanged.
#
#   pmpi_tuning.sh APP LIB CLI
set -u
app=$1 lib=$2 cli=$3
here=$(cd "$(dirname "$0")" && pwd)
fixture=$here/../fixtures/winners_collsim.csv
for v in $(env | sed -n 's/^\(COLLSIM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
work=$(mktemp -d /tmp/collsim-tuning.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
MPIRUN=(timeout 30 mpirun --oversubscribe --allow-run-as-root --mca btl_vader_single_copy_mechanism none)
COUNTS=(2 256 16384 262144) # 8 B, 1 KiB, 64 KiB, 1 MiB of ints

"$cli" tune --from "$fixture" --emit "collsim:$work/table" 2>"$work/tune.err" ||
  { fail "collsim tune: $(cat "$work/tune.err")"; exit 1; }

# run TAG NP VAR=VALUE...: the app preloaded; out, err and log in $work/TAG.*
wrap=()
run() {
  local tag=$1 np=$2
  shift 2
  rm -f "$work/$tag.log"
  env "$@" COLLSIM_PMPI_LOG="$work/$tag.log" "${MPIRUN[@]}" -np "$np" -x LD_PRELOAD="$lib" \
    "${wrap[@]}" "$app" "${COUNTS[@]}" >"$work/$tag.out" 2>"$work/$tag.err"
  local st=$?
  touch "$work/$tag.log"
  [ $st = 0 ] || { fail "$tag: exit status $st"; sed 's/^/    /' "$work/$tag.err" | head; }
  [ "$(grep -c '^ok ' "$work/$tag.out")" = ${#COUNTS[@]} ] || fail "$tag: wrong results"
}
# served TAG BYTES: the algorithm the log says served allreduce calls of BYTES
served() { sed -n "s/^collsim-pmpi: tuning: allreduce p=[0-9]* bytes=$2 \([^ ]*\) calls=.*rank=0$/\1/p" "$work/$1.log"; }
expect() { # expect TAG BYTES ALGO
  local got
  got=$(served "$1" "$2")
  [ "$got" = "$3" ] || fail "$1: allreduce of $2 bytes served by '$got', the table names '$3'"
}
warnings() { grep -c 'collsim-pmpi: warning' "$work/$1.err"; }

# p = 4: butterfly up to 8191 bytes, circulant above (the table's rules).
run p4 4 COLLSIM_TUNING="$work/table"
expect p4 8 butterfly
expect p4 1024 butterfly
expect p4 65536 circulant
expect p4 1048576 circulant
[ "$(warnings p4)" = 0 ] || fail "p4: warnings: $(cat "$work/p4.err")"
grep -q '^collsim-pmpi: allreduce tuning calls=4 fallback=0 outside=0 rank=0$' "$work/p4.log" ||
  fail "p4: counter line: $(grep 'allreduce tuning' "$work/p4.log")"

# p = 8: 1 MiB goes to the library (a 'native' rule: the map's winner was the library).
run p8 8 COLLSIM_TUNING="$work/table"
expect p8 8 butterfly
expect p8 65536 circulant
expect p8 1048576 native
grep -q '^collsim-pmpi: allreduce tuning calls=3 fallback=0 outside=1 rank=0$' "$work/p8.log" ||
  fail "p8: counter line: $(grep 'allreduce tuning' "$work/p8.log")"

# An explicit COLLSIM_ALLREDUCE wins over the table.
run explicit 4 COLLSIM_TUNING="$work/table" COLLSIM_ALLREDUCE=ceilhalf
[ -z "$(served explicit 8)$(served explicit 65536)" ] || fail "explicit: the table served allreduce"
grep -q '^collsim-pmpi: allreduce ceilhalf calls=4 ' "$work/explicit.log" ||
  fail "explicit: ceilhalf did not serve every call"

# Broken tables: one warning, the library serves (the explicit setting too).
broken() { # broken TAG EXPECTED-TEXT FILE
  run "$1" 4 COLLSIM_TUNING="$3" COLLSIM_ALLREDUCE=ceilhalf
  [ "$(warnings "$1")" = 1 ] || fail "$1: $(warnings "$1") warning lines (want 1): $(cat "$work/$1.err")"
  grep -q "collsim-pmpi: warning: COLLSIM_TUNING: .*$2.*library's own collectives serve the run" \
    "$work/$1.err" || fail "$1: the warning does not say '$2': $(cat "$work/$1.err")"
  ! grep -q 'tuning: ' "$work/$1.log" || fail "$1: a rule served a call"
  grep -q '^collsim-pmpi: allreduce ceilhalf calls=0 fallback=4 ' "$work/$1.log" ||
    fail "$1: the explicit setting was not disabled: $(grep allreduce "$work/$1.log")"
}
broken missing "cannot open" "$work/nonexistent"
printf 'collsim-tuning 1\nallreduce 1 inf 0 4096 butterfly\nallreduce 2 8 4096 inf circulant\n' >"$work/overlap"
broken overlap "overlaps the rule of line 2" "$work/overlap"
# (every other kind of broken table: tests/test_tuning.c, without mpirun)

# A table that differs between processes: the settings check at MPI_Init.
cp "$work/table" "$work/table1"
sed -i 's/ butterfly$/ ceilhalf/' "$work/table1"
wrap=(bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export COLLSIM_TUNING=$COLLSIM_TUNING.1; fi; exec "$0" "$@"')
cp "$work/table1" "$work/table.1"
run differ 4 COLLSIM_TUNING="$work/table"
wrap=()
[ "$(warnings differ)" = 1 ] && grep -q 'settings differ between processes' "$work/differ.err" ||
  fail "differ: want one 'settings differ' warning: $(cat "$work/differ.err")"
! grep -q 'tuning: ' "$work/differ.log" || fail "differ: a rule served a call"

# End to end: a map from the models (abg: butterfly wins the small sizes,
# ceilhalf the large ones) emits the table that an unmodified program obeys,
# size by size, as the map's winners file names them.
if "$cli" map --coll allreduce --np 4 --bytes 8,1K,64K,1M --algos butterfly,ceilhalf \
  --out "$work/map" --no-plots --quiet --emit "collsim:$work/maptable" 2>"$work/map.err"; then
  run mapped 4 COLLSIM_TUNING="$work/maptable"
  winners=$(awk -F, '/^allreduce,4,/ {print $3, $4}' "$work/map/map-allreduce-winners.csv")
  [ "$(echo "$winners" | awk '{print $2}' | sort -u | wc -l)" = 2 ] ||
    fail "mapped: the map's winners are not two algorithms: $winners"
  while read -r b w; do expect mapped "$b" "$w"; done <<<"$winners"
else
  fail "collsim map --emit: $(cat "$work/map.err")"
fi

[ $fails = 0 ] && echo "pmpi_tuning: all passed ($SECONDS s)" || echo "pmpi_tuning: $fails failure(s)"
[ $fails = 0 ]
