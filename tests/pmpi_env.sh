#!/usr/bin/env bash
# The PMPI library names a COLLSIM_* variable it does not read (a misspelling
# such as COLLSIM_ALLREDUCES), once, from rank 0, with the nearest setting;
# correct settings give no such line. Each run must also end well (status 0,
# the application's last line), and the run with valid settings must have
# served allreduce calls with the algorithm they name (COLLSIM_PMPI_LOG), so
# that neither half passes when mpirun or the library fails.
# usage: pmpi_env.sh APP LIB
set -u
app=$1 lib=$2
for v in $(env | sed -n 's/^\(COLLSIM_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# run ARGS...: the application on 2 processes with the library preloaded;
# stderr in $tmp/err, stdout in $tmp/out; the status is mpirun's
run() {
  timeout 60 mpirun --oversubscribe --allow-run-as-root --mca btl_vader_single_copy_mechanism none \
    -np 2 -x LD_PRELOAD="$lib" "$@" "$app" >"$tmp/out" 2>"$tmp/err"
}
fail=0
ended() { # LABEL STATUS: the run ended with status 0 and the application's last line
  if [ "$2" != 0 ] || ! grep -q '^done p=2 ' "$tmp/out"; then
    echo "FAILED: $1: status $2, last line '$(tail -1 "$tmp/out")':"
    head -5 "$tmp/err"
    fail=1
  fi
}
COLLSIM_ALLREDUCES=circulant run -x COLLSIM_ALLREDUCES
ended "misspelled variable" $?
n=$(grep -c "COLLSIM_ALLREDUCES is not a setting of this library and is ignored (did you mean COLLSIM_ALLREDUCE?)" "$tmp/err")
[ "$n" = 1 ] || { echo "FAILED: misspelled variable: $n warnings (want 1):"; cat "$tmp/err"; fail=1; }
COLLSIM_ALLREDUCE=circulant COLLSIM_ALLREDUCE_MIN_BYTES=1K COLLSIM_PMPI_VERBOSE=0 \
  COLLSIM_PMPI_LOG="$tmp/log" run -x COLLSIM_ALLREDUCE -x COLLSIM_ALLREDUCE_MIN_BYTES \
  -x COLLSIM_PMPI_VERBOSE -x COLLSIM_PMPI_LOG
ended "valid settings" $?
grep -q "not a setting" "$tmp/err" && { echo "FAILED: a valid setting was warned about:"; cat "$tmp/err"; fail=1; }
calls=$(sed -n 's/^collsim-pmpi: allreduce circulant calls=\([0-9]*\) .*/\1/p' "$tmp/log" 2>/dev/null | head -1)
[ "${calls:-0}" -gt 0 ] ||
  { echo "FAILED: valid settings: no allreduce call served by circulant (log: $(cat "$tmp/log" 2>/dev/null))"; fail=1; }
[ $fail = 0 ] && echo "ok: misspelled COLLSIM_ALLREDUCES named once; valid settings quiet and used ($calls allreduce calls by circulant)"
exit $fail
