#!/usr/bin/env bash
# One process alone makes an erroneous call (collsim check --errors one:KIND),
# under MPI_ERRORS_ARE_FATAL, in a collsim kernel, while its peers make the
# valid call: the job must end (abort), never hang, and never return. Under
# SMPI (where collsim's dispatcher does the fatal handler itself, since SMPI
# 3.32's MPI_Comm_call_errhandler crashes for the predefined handlers) and
# under mpirun. The PMPI library's one-rank errors: tests/conformance.
#   errors_one_rank.sh CLI
set -u
cli=$1
fails=0
one() { # one BACKEND NP KIND COLL ALGO
  local s=$SECONDS out st
  out=$(timeout 120 "$cli" check --backend "$1" --np "$2" --errors "one:$3" --coll "$4" --algo "$5" 2>&1)
  st=$?
  if [ $st = 124 ]; then
    echo "FAIL: $*: hung (killed after 120 s)"
    fails=$((fails + 1))
  elif grep -q "instead of aborting" <<<"$out" || ! grep -q "without a verdict" <<<"$out"; then
    echo "FAIL: $*: the job did not abort:"
    head -5 <<<"$out" | sed 's/^/    /'
    fails=$((fails + 1))
  else
    echo "ok: $* (the job aborted; $((SECONDS - s)) s with start-up)"
  fi
}
# The issue's hang: MPI_LAND on MPI_FLOAT in a circulant reduce, p = 7.
one smpi 7 op reduce circulant
one smpi 5 op reduce circulant_rsg
one smpi 6 count allgatherv circulant
one smpi 5 root gather circulant
one smpi 4 inplace allreduce butterfly
one mpi 7 op reduce circulant
one mpi 5 type reduce_scatter_block ceilhalf
[ $fails = 0 ]
