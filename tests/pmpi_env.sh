#!/usr/bin/env bash
# The PMPI library names a COLLSIM_* variable it does not read (a misspelling
# such as COLLSIM_ALLREDUCES), once, from rank 0, with the nearest setting;
# correct settings give no such line.
# usage: pmpi_env.sh APP LIB
set -u
app=$1 lib=$2
for v in $(env | sed -n 's/^\(COLLSIM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
run() {
  timeout 60 mpirun --oversubscribe --allow-run-as-root --mca btl_vader_single_copy_mechanism none \
    -np 2 -x LD_PRELOAD="$lib" "$@" "$app" 2>&1 >/dev/null
}
fail=0
err=$(COLLSIM_ALLREDUCES=circulant run -x COLLSIM_ALLREDUCES)
n=$(grep -c "COLLSIM_ALLREDUCES is not a setting of this library and is ignored (did you mean COLLSIM_ALLREDUCE?)" <<<"$err")
[ "$n" = 1 ] || { echo "FAILED: misspelled variable: $n warnings (want 1):"; echo "$err"; fail=1; }
err=$(COLLSIM_ALLREDUCE=circulant COLLSIM_ALLREDUCE_MIN_BYTES=1K COLLSIM_PMPI_VERBOSE=0 run \
  -x COLLSIM_ALLREDUCE -x COLLSIM_ALLREDUCE_MIN_BYTES -x COLLSIM_PMPI_VERBOSE)
grep -q "not a setting" <<<"$err" && { echo "FAILED: a valid setting was warned about:"; echo "$err"; fail=1; }
[ $fail = 0 ] && echo "ok: misspelled COLLSIM_ALLREDUCES named once; valid settings quiet"
exit $fail
