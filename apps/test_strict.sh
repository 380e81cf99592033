#!/usr/bin/env bash
# COLLSIM_STRICT=1: a setting that is unknown, or a call the chosen algorithm
# refuses, ends the job with one clear error line instead of a warning and
# the library (pmpi/README.md "Strict mode"). Without it the same runs
# succeed with one warning.
# usage: test_strict.sh SGD_SMPI PMPI_APP LIBPMPI CLI
set -u
smpi_app=$1 app=$2 lib=$3 cli=$4
for v in $(env | sed -n 's/^\(COLLSIM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
w=$(mktemp -d /tmp/collsim-strict.XXXXXX)
trap 'rm -rf "$w"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
MPIRUN=(timeout 60 mpirun --oversubscribe --allow-run-as-root --mca btl_vader_single_copy_mechanism none -np 3 -x LD_PRELOAD="$lib")
# expect TAG WANT_STATUS(0|nonzero) PATTERN: the run's stderr has exactly one line matching PATTERN
expect() {
  local st=$1 want=$2 pat=$3 n
  if [ "$want" = 0 ] && [ "$st" != 0 ]; then fail "$tag: status $st (want 0)"; fi
  if [ "$want" != 0 ] && [ "$st" = 0 ]; then fail "$tag: status 0 (want an abort)"; fi
  n=$(grep -c -- "$pat" "$w/err")
  [ "$n" = 1 ] || fail "$tag: $n lines matching '$pat' (want 1): $(head -5 "$w/err")"
}
tag="mpirun unknown name, strict"
COLLSIM_ALLREDUCE=circulnat COLLSIM_STRICT=1 "${MPIRUN[@]}" -x COLLSIM_ALLREDUCE -x COLLSIM_STRICT "$app" 1 >/dev/null 2>"$w/err"
expect $? 1 "^collsim-pmpi: error: COLLSIM_ALLREDUCE=circulnat: unknown algorithm for allreduce (valid: .*); using the library's MPI_Allreduce; COLLSIM_STRICT=1: aborting the job$"
tag="mpirun unknown name"
COLLSIM_ALLREDUCE=circulnat "${MPIRUN[@]}" -x COLLSIM_ALLREDUCE "$app" 1 >/dev/null 2>"$w/err"
expect $? 0 "^collsim-pmpi: warning: COLLSIM_ALLREDUCE=circulnat: unknown algorithm"
tag="mpirun refused call, strict"
COLLSIM_ALLREDUCE=circulant COLLSIM_STRICT=1 "${MPIRUN[@]}" -x COLLSIM_ALLREDUCE -x COLLSIM_STRICT "$app" 1 >/dev/null 2>"$w/err"
expect $? 1 "^collsim-pmpi: error: allreduce circulant: needs an op whose result does not depend on the order of evaluation .*; COLLSIM_STRICT=1: aborting the job$"
tag="mpirun malformed threshold, strict"
COLLSIM_ALLREDUCE=circulant COLLSIM_ALLREDUCE_MIN_BYTES=1X COLLSIM_STRICT=1 "${MPIRUN[@]}" -x COLLSIM_ALLREDUCE -x COLLSIM_ALLREDUCE_MIN_BYTES -x COLLSIM_STRICT "$app" 1 >/dev/null 2>"$w/err"
expect $? 1 "^collsim-pmpi: error: COLLSIM_ALLREDUCE_MIN_BYTES=1X: not a byte count"
tag="smpirun unknown name, strict"
"$cli" platform abg --np 4 --out "$w/p.xml" --hostfile "$w/p.hosts" || exit 1
COLLSIM_ALLREDUCE=circulnat COLLSIM_STRICT=1 timeout 60 smpirun -np 4 -platform "$w/p.xml" \
  -hostfile "$w/p.hosts" -no-privatize --log=root.thres:critical "$smpi_app" --params 64 --steps 1 \
  >/dev/null 2>"$w/err"
expect $? 1 "^collsim-smpi: error: COLLSIM_ALLREDUCE=circulnat: unknown algorithm .*COLLSIM_STRICT=1: aborting the job$"
[ $fails = 0 ] && echo "ok: COLLSIM_STRICT=1 aborts with one error line (unknown name, refused call, malformed threshold; mpirun and smpirun)"
[ $fails = 0 ]
