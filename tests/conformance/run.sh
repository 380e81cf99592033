#!/usr/bin/env bash
# The conformance run: the programs of this folder (reductions, movement,
# errors; plain MPI, written here) under mpirun on the library alone, then
# through libcollsim-pmpi.so with every registered algorithm of each
# collective (COLLSIM_<COLL>): the outputs must be identical byte for byte.
#
#   run.sh BINDIR LIB CLI [NPS] [FATAL] [FATAL_NP]
#     BINDIR    where conf_reductions, conf_movement, conf_errors are
#     NPS       process counts, e.g. 3,5 (default 1,2,3,4,5,6,7,8); none:
#               only the one-rank errors
#     FATAL     sample (default) or all: one-rank errors under
#               MPI_ERRORS_ARE_FATAL (below); none: skip them
#     FATAL_NP  processes of the one-rank error runs (default 7)
#
# Rounds: round j sets every collective that has algorithms besides native
# to its j-th one (from `collsim list --csv`, cycling), so that every
# registered algorithm runs in some round; the library's log
# (COLLSIM_PMPI_LOG) must show calls > 0 for every collective set, so that
# a round cannot pass by falling back everywhere.
# One-rank errors: the last process alone makes an error (op, count, root,
# type, inplace) in a collective served by the round's algorithm, under
# MPI_ERRORS_ARE_FATAL: the job must end within 10 s with a failure status
# (no peer left waiting). FATAL=sample takes 7 pairs of error and
# collective; all takes every pair and every round.
set -u
bin=$1 lib=$2 cli=$3 nps=${4:-1,2,3,4,5,6,7,8} fatal=${5:-sample} fnp=${6:-7}
ITERS=${CONF_ITERS:-2}
for v in $(env | sed -n 's/^\(COLLSIM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
work=$(mktemp -d /tmp/collsim-conf.XXXXXX)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
MPIRUN=(mpirun --oversubscribe --allow-run-as-root --mca btl_vader_single_copy_mechanism none)
upper() { tr a-z A-Z <<<"$1"; }

. "$(dirname "$0")/../pmpi/registry.sh" # algos, rounds, setting, round_list, round_sample
load_registry "$cli"
round_sample # PMPI_ROUNDS: a sample of the rounds (registry.sh)

# run TAG NP PRELOAD PROG ARGS... [-- VAR=VALUE ...]: output in $work/TAG.out
run() {
  local tag=$1 np=$2 pre=$3 prog=$4
  shift 4
  local args=() vars=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do args+=("$1"); shift; done
  [ $# -gt 0 ] && shift && vars=("$@")
  local x=()
  [ "$pre" = 1 ] && x=(-x "LD_PRELOAD=$lib")
  env "${vars[@]}" COLLSIM_PMPI_LOG="$work/$tag.log" timeout 60 "${MPIRUN[@]}" -np "$np" "${x[@]}" \
    "$bin/conf_${prog%_valid}" "${args[@]}" >"$work/$tag.out" 2>"$work/$tag.err"
}

# The programs (CONF_PROGRAMS, default all): optypes_valid is conf_optypes
# on the pairs MPI allows only, whose PMPI log must hold no "erroneous call"
# warning (a valid call called erroneous).
programs=${CONF_PROGRAMS:-reductions movement errors overflow optypes optypes_valid}
colls_of() { # the collectives a program calls (those its rounds must serve)
  case $1 in
  reductions) echo allreduce reduce reduce_scatter_block reduce_scatter scan exscan ;;
  movement) echo allgather allgatherv gather gatherv scatter scatterv bcast ;;
  errors) ;; # every call it makes is erroneous: the library serves them
  overflow) echo allreduce ;;
  optypes*) echo allreduce reduce reduce_scatter_block ;;
  esac
}
declare -A called
for prog in $programs; do for c in $(colls_of "$prog"); do called[$c]=1; done; done
args_of() { case $1 in errors) echo return ;; optypes) ;; optypes_valid) echo valid ;; *) echo $ITERS ;; esac; }

t0=$SECONDS
[ "$nps" = none ] && nps=""
for np in ${nps//,/ }; do
  for prog in $programs; do
    if ! run "base-$prog-$np" "$np" 0 "$prog" $(args_of "$prog"); then
      fail "$prog np=$np: the library alone failed (status $?)"
      sed 's/^/    /' "$work/base-$prog-$np.err" | head -5
    fi
    grep -q "^done p=$np\$" "$work/base-$prog-$np.out" || fail "$prog np=$np: no final line on the library"
  done
  for j in $(round_list); do
    vars=()
    for c in "${!algos[@]}"; do vars+=("COLLSIM_$(upper "$c")=$(setting $j "$c")"); done
    rm -f "$work/round.log"
    for prog in $programs; do
      tag="r$j-$prog-$np"
      run "$tag" "$np" 1 "$prog" $(args_of "$prog") -- "${vars[@]}"
      st=$?
      [ $st = 0 ] || { fail "$tag: status $st$([ $st = 124 ] && echo ' (hung)')"; sed 's/^/    /' "$work/$tag.err" | head -5; }
      if ! cmp -s "$work/base-$prog-$np.out" "$work/$tag.out"; then
        fail "$tag: output differs from the library's (${vars[*]}):"
        diff "$work/base-$prog-$np.out" "$work/$tag.out" | head -6 | sed 's/^/    /'
      fi
      if [ "$prog" = optypes_valid ] && grep -q "erroneous call" "$work/$tag.log" 2>/dev/null; then
        fail "$tag: a valid call was called erroneous:"
        grep "erroneous call" "$work/$tag.log" | head -3 | sed 's/^/    /'
      fi
      cat "$work/$tag.log" >>"$work/round.log" 2>/dev/null
    done
    for c in "${!algos[@]}"; do
      [ -n "${called[$c]:-}" ] || continue
      a=$(setting $j "$c")
      n=$(grep "^collsim-pmpi: $c $a calls=" "$work/round.log" | sed -n 's/.* calls=\([0-9]*\).*/\1/p' |
        awk '{s += $1} END {print s + 0}')
      [ "$n" -gt 0 ] || fail "round $j np=$np: $c $a served no call"
    done
  done
done

# One-rank errors under MPI_ERRORS_ARE_FATAL.
fatal_case() { # fatal_case NP J KIND COLL
  local np=$1 j=$2 k=$3 c=$4 a tag
  a=$(setting "$j" "$c")
  tag="fatal-$k-$c-$a-$np"
  local s=$SECONDS
  run "$tag" "$np" 1 errors fatal "$k" "$c" -- "COLLSIM_$(upper "$c")=$a"
  local st=$?
  if [ $st = 124 ]; then
    fail "$tag: hung (killed after 60 s)"
  elif [ $st = 0 ] || grep -q "did not abort" "$work/$tag.out"; then
    fail "$tag: the job did not abort (status $st)"
  elif [ $((SECONDS - s)) -gt 10 ]; then
    fail "$tag: took $((SECONDS - s)) s to abort (more than 10 s)"
  fi
}
if [ "$fatal" != none ]; then
  np=$fnp
  if [ "$fatal" = all ]; then
    for ((j = 0; j < rounds; j++)); do
      for c in "${!algos[@]}"; do
        for k in op count root type inplace; do
          case $k:$c in
          op:all* | op:gather* | op:scatter* | op:bcast) continue ;;
          root:all* | root:reduce_scatter*) continue ;;
          esac
          fatal_case "$np" $j $k "$c"
        done
      done
    done
  else
    j=0
    for kc in op:reduce op:allreduce count:reduce_scatter root:gatherv type:allgather \
      inplace:scatterv count:reduce_scatter_block; do
      fatal_case "$np" $j "${kc%%:*}" "${kc#*:}"
      j=$((j + 1))
    done
  fi
fi
[ $fails = 0 ] && echo "conformance: all passed (np ${nps:-none}, $(round_list | wc -l) of $rounds rounds, fatal=$fatal, $((SECONDS - t0)) s)" ||
  echo "conformance: $fails failure(s)"
[ $fails = 0 ]
