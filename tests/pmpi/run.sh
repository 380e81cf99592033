#!/usr/bin/env bash
# The PMPI library test: an unmodified MPI application (tests/pmpi/app.c) run
# with mpirun, once on the library alone and then with libcollsim-pmpi.so
# preloaded and collsim's algorithms chosen by COLLSIM_<COLL>; the outputs
# (digests of every rank's results) must be identical byte for byte.
#
#   run.sh APP LIB CLI [NPS]     NPS: process counts, e.g. 3 or 1,2 (default 1,2,3,4,5)
#   PMPI_ROUNDS=N or K/M         a sample of the rounds: the first N, or those with
#                                j mod M = K (tests/pmpi/registry.sh; default all)
#
# Per process count P:
#  - baseline: the app without the library;
#  - transparent: the library preloaded, nothing chosen: same output, no
#    output of the library;
#  - rounds 0..R-1 (R = most algorithms of one collective): round j sets every
#    collective that has algorithms besides native to its j-th one (from
#    `collsim list --csv`, cycling), so all registered algorithms run. The log
#    (COLLSIM_PMPI_LOG) must show calls > 0 for each collective set, the
#    non-commutative allreduce and reduce calls and the intercommunicator
#    allreduce as fallbacks (and, for an allreduce that needs an exact op,
#    the user-op allreduce; nothing else), and stderr exactly one warning
#    line for each of the two non-commutative ones (printed by rank 0 only)
#    and, for P >= 2, one per side (local rank 0) of the intercommunicator;
#  - P >= 2: an unknown algorithm name (one warning, the library's result,
#    all calls counted as fallbacks), size thresholds (calls outside the range
#    are the library's; a malformed threshold and a threshold on gatherv give
#    one warning each and the library), and settings that differ between
#    processes (one warning, the library everywhere).
# Exits non-zero on any failure.
set -u
app=$1 lib=$2 cli=$3 nps=${4:-1,2,3,4,5}
ITERS=2 # the app's iterations; the expected counts below are per iteration

for v in $(env | sed -n 's/^\(COLLSIM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
work=$(mktemp -d /tmp/collsim-pmpi.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

MPIRUN=(timeout 20 mpirun --oversubscribe --allow-run-as-root --mca btl_vader_single_copy_mechanism none)

# launch TAG NP PRELOAD [VAR=VALUE ...]: runs the app (behind the command in
# the array `wrap`, if any); stdout in $work/TAG.out, stderr in $work/TAG.err,
# the library's log in $work/TAG.log.
wrap=()
hung=0 # after one hung run, the rest is skipped (a failure already)
launch() {
  local tag=$1 np=$2 pre=$3
  shift 3
  [ $hung = 0 ] || return 1
  local x=()
  [ "$pre" = 1 ] && x=(-x "LD_PRELOAD=$lib")
  rm -f "$work/$tag.log"
  env "$@" COLLSIM_PMPI_LOG="$work/$tag.log" "${MPIRUN[@]}" -np "$np" "${x[@]}" "${wrap[@]}" "$app" "$ITERS" \
    >"$work/$tag.out" 2>"$work/$tag.err"
  local st=$?
  touch "$work/$tag.log"
  if [ $st != 0 ]; then
    [ $st = 124 ] && hung=1
    fail "$tag: exit status $st$([ $st = 124 ] && echo ' (hung: killed after 20 s; the remaining runs are skipped)')"
    sed 's/^/    /' "$work/$tag.err" | head -20
    return 1
  fi
  return 0
}

same_as_base() { # same_as_base TAG NP
  if ! cmp -s "$work/base$2.out" "$work/$1.out"; then
    fail "$1: output differs from the library's (np $2):"
    diff "$work/base$2.out" "$work/$1.out" | head -10 | sed 's/^/    /'
  fi
}

# Warning lines, without the intercommunicator ones (counted apart).
warnings() { grep 'collsim-pmpi: warning' "$work/$1.err" | grep -vc intercommunicator; }

# expect_inter TAG NP: one intercommunicator warning per side for NP >= 2.
expect_inter() {
  local want=0 n
  [ "$2" -ge 2 ] && want=2
  n=$(grep 'collsim-pmpi: warning' "$work/$1.err" | grep -c "allreduce .*intercommunicators")
  [ "$n" = $want ] || fail "$1: $n intercommunicator warning lines (want $want)"
}

# expect_warn TAG PATTERN: exactly one warning line matching PATTERN on stderr.
expect_warn() {
  local n
  n=$(grep 'collsim-pmpi: warning' "$work/$1.err" | grep -c -- "$2")
  [ "$n" = 1 ] || fail "$1: $n warning lines matching '$2' (want 1)"
}

# field TAG COLL NAME RANK: value of NAME= in the log line of COLL, or "none".
field() {
  local v
  v=$(grep "^collsim-pmpi: $2 " "$work/$1.log" | grep " rank=$4\$" | sed -n "s/.* $3=\([0-9]*\).*/\1/p")
  echo "${v:-none}"
}

# The registry (algos, exact, rounds, setting): tests/pmpi/registry.sh. An
# algorithm with exact[coll:algo] needs an op whose result does not depend on
# the order of evaluation, so the app's user-op allreduce (1 per iteration)
# falls back too, with a warning.
. "$(dirname "$0")/registry.sh"
load_registry "$cli"
round_sample

upper() { tr a-z A-Z <<<"$1"; }

t0=$SECONDS
for np in ${nps//,/ }; do
  inter=0 # the app's intercommunicator allreduce (1 per iteration) needs 2 ranks
  [ "$np" -ge 2 ] && inter=1
  launch "base$np" "$np" 0 || continue
  grep -q "^done p=$np iterations=$ITERS\$" "$work/base$np.out" || fail "base$np: no final line"

  # Preloaded but nothing chosen: the library, silently.
  if launch "plain$np" "$np" 1 COLLSIM_PMPI_VERBOSE=1; then
    same_as_base "plain$np" "$np"
    grep -q collsim-pmpi "$work/plain$np.err" "$work/plain$np.log" &&
      fail "plain$np: the library printed something with nothing chosen"
  fi

  for j in $(round_list); do
    tag="round$j-np$np"
    vars=()
    desc=""
    declare -A chosen=()
    for c in "${!algos[@]}"; do
      chosen[$c]=$(setting $j "$c")
      vars+=("COLLSIM_$(upper "$c")=${chosen[$c]}")
      desc="$desc $c=${chosen[$c]}"
    done
    launch "$tag" "$np" 1 "${vars[@]}" COLLSIM_PMPI_VERBOSE=1 || continue
    same_as_base "$tag" "$np"
    for c in "${!chosen[@]}"; do
      a=${chosen[$c]}
      calls=$(field "$tag" "$c $a" calls 0)
      fb=$(field "$tag" "$c $a" fallback 0)
      case $calls in none | 0) fail "$tag: $c $a did not run (calls=$calls)" ;; esac
      # Expected fallbacks per iteration: the non-commutative calls (2
      # allreduce, 1 reduce; every algorithm of theirs is commutative-only)
      # and the intercommunicator allreduce.
      want=0
      [ "$c" = allreduce ] && want=$(((2 + inter + ${exact[$c:$a]:-0}) * ITERS))
      [ "$c" = reduce ] && want=$((1 * ITERS))
      [ "$fb" = "$want" ] || fail "$tag: $c $a fallback=$fb (want $want)"
      # VERBOSE=1 prints the same line on stderr.
      grep -q "^collsim-pmpi: $c $a calls=$calls " "$work/$tag.err" ||
        fail "$tag: no '$c $a calls=$calls' line on stderr"
    done
    expect_warn "$tag" "warning: allreduce .*not commutative"
    expect_warn "$tag" "warning: reduce .*not commutative"
    expect_inter "$tag" "$np"
    nw=2
    if [ -n "${exact[allreduce:${chosen[allreduce]}]:-}" ]; then
      expect_warn "$tag" "warning: allreduce .*order of evaluation"
      nw=3
    fi
    [ "$(warnings "$tag")" = $nw ] || fail "$tag: $(warnings "$tag") warning lines (want $nw):" \
      "$(grep 'collsim-pmpi: warning' "$work/$tag.err")"
    unset chosen
  done

  [ "$np" -ge 2 ] || continue

  # An unknown name: one warning, the library's result, every call a fallback.
  tag="unknown-np$np"
  if launch "$tag" "$np" 1 COLLSIM_ALLGATHER=circulnat COLLSIM_ALLREDUCE=ceilhalf; then
    same_as_base "$tag" "$np"
    expect_warn "$tag" "COLLSIM_ALLGATHER=circulnat: unknown algorithm"
    expect_inter "$tag" "$np"
    [ "$(warnings "$tag")" = 2 ] || fail "$tag: $(warnings "$tag") warning lines (want 2)"
    [ "$(field "$tag" "allgather circulnat" calls 0)" = 0 ] || fail "$tag: allgather circulnat calls != 0"
    [ "$(field "$tag" "allgather circulnat" fallback 0)" = $((4 * ITERS)) ] ||
      fail "$tag: allgather fallback=$(field "$tag" "allgather circulnat" fallback 0) (want $((4 * ITERS)))"
    [ "$(field "$tag" "allreduce ceilhalf" calls 0)" != 0 ] || fail "$tag: allreduce ceilhalf did not run"
  fi

  # Thresholds: allreduce between 1 byte and 64 KiB (outside: count 0 and the
  # 128 KiB call, 2 per iteration); a malformed threshold (reduce) and one on
  # gatherv switch the algorithm off with one warning each.
  tag="threshold-np$np"
  if launch "$tag" "$np" 1 COLLSIM_ALLREDUCE=butterfly COLLSIM_ALLREDUCE_MIN_BYTES=1 \
    COLLSIM_ALLREDUCE_MAX_BYTES=64K COLLSIM_REDUCE=binomial COLLSIM_REDUCE_MIN_BYTES=12x \
    COLLSIM_GATHERV=circulant COLLSIM_GATHERV_MAX_BYTES=1M COLLSIM_GATHER=circulant \
    COLLSIM_GATHER_MAX_BYTES=0; then
    same_as_base "$tag" "$np"
    [ "$(field "$tag" "allreduce butterfly" outside 0)" = $((2 * ITERS)) ] ||
      fail "$tag: allreduce outside=$(field "$tag" "allreduce butterfly" outside 0) (want $((2 * ITERS)))"
    [ "$(field "$tag" "allreduce butterfly" calls 0)" = $((8 * ITERS)) ] ||
      fail "$tag: allreduce calls=$(field "$tag" "allreduce butterfly" calls 0) (want $((8 * ITERS)))"
    [ "$(field "$tag" "allreduce butterfly" fallback 0)" = $(((2 + inter) * ITERS)) ] ||
      fail "$tag: allreduce fallback=$(field "$tag" "allreduce butterfly" fallback 0) (want $(((2 + inter) * ITERS)))"
    [ "$(field "$tag" "reduce binomial" calls 0)" = 0 ] || fail "$tag: reduce ran despite a bad threshold"
    [ "$(field "$tag" "gatherv circulant" calls 0)" = 0 ] || fail "$tag: gatherv ran despite a threshold"
    [ "$(field "$tag" "gather circulant" calls 0)" = 0 ] || fail "$tag: gather ran above MAX_BYTES=0"
    [ "$(field "$tag" "gather circulant" outside 0)" = $((2 * ITERS)) ] || fail "$tag: gather outside != $((2 * ITERS))"
    expect_warn "$tag" "COLLSIM_REDUCE_MIN_BYTES=12x"
    expect_warn "$tag" "COLLSIM_GATHERV_MAX_BYTES: no size threshold"
    expect_warn "$tag" "warning: allreduce .*not commutative"
    expect_inter "$tag" "$np"
    [ "$(warnings "$tag")" = 3 ] || fail "$tag: $(warnings "$tag") warning lines (want 3)"
  fi

  # Settings that differ between processes (rank 1 alone chooses an
  # algorithm): one warning, the library everywhere.
  tag="mismatch-np$np"
  wrap=(bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then export COLLSIM_ALLREDUCE=ceilhalf; fi; exec "$0" "$@"')
  if launch "$tag" "$np" 1 COLLSIM_PMPI_VERBOSE=2; then
    same_as_base "$tag" "$np"
    expect_warn "$tag" "settings differ between processes"
    n=$(grep -c 'collsim-pmpi: warning' "$work/$tag.err")
    [ "$n" = 1 ] || fail "$tag: $n warning lines (want 1)"
    [ "$(field "$tag" "allreduce ceilhalf" calls 1)" = 0 ] || fail "$tag: allreduce ran on rank 1"
    [ "$(field "$tag" "allreduce ceilhalf" fallback 1)" = $(((12 + inter) * ITERS)) ] ||
      fail "$tag: rank 1 allreduce fallback=$(field "$tag" "allreduce ceilhalf" fallback 1) (want $(((12 + inter) * ITERS)))"
  fi
  wrap=()
done
[ $fails = 0 ] && echo "pmpi: all passed (np $nps, $((SECONDS - t0)) s)" || echo "pmpi: $fails failure(s)"
[ $fails = 0 ]
