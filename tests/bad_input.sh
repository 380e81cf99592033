#!/usr/bin/env bash
# Bad input: a clear message that names what is valid, exit status 2, and
# never a run. A non-commutative op on a commutative-only algorithm returns
# MPI_ERR_OP with a message (checked inside the driver; here the message).
set -u
cli=$1
fail=0
expect() { # expect STATUS PATTERN -- command...
  local want=$1 pat=$2; shift 3
  local out st
  out=$("$@" 2>&1); st=$?
  if [ "$st" != "$want" ] || ! grep -q -- "$pat" <<<"$out"; then
    echo "FAILED: $* -> status $st (want $want), output:"; echo "$out" | head -5; fail=1
  else
    echo "ok: $*"
  fi
}
expect 2 "Valid: allreduce, reduce" -- "$cli" check --coll allreduse --np 2
# The valid names come from the registry (collsim list --csv), so that a new
# allreduce row changes nothing here.
valid_ar=$("$cli" list --csv | awk -F, '$1 == "allreduce" { printf "%s%s", s, $2; s = ", " }')
[ -n "$valid_ar" ] || { echo "FAILED: collsim list --csv names no allreduce algorithm"; fail=1; }
expect 2 "valid for allreduce: $valid_ar" -- "$cli" check --coll allreduce --algo circulent --np 2
expect 2 "must be >= 1" -- "$cli" check --np 0
expect 2 "expected a number" -- "$cli" check --np x
expect 2 "bad --count '-3'" -- "$cli" check --coll allreduce --count -3 --np 2
expect 2 "valid: int, double, byte, vec, noncomm" -- "$cli" check --type float --np 2
expect 2 "valid: sum, max, bor, user, noncomm" -- "$cli" check --op prod --np 2
expect 2 "valid: smpi, mpi" -- "$cli" check --backend mpich --np 2
expect 2 "one per rank" -- "$cli" check --coll reduce_scatter --np 3 --counts 1,2
expect 2 "unknown command 'chek'" -- "$cli" chek
expect 2 "Valid commands: list, check" -- "$cli" chek
# The commutative-only algorithm refuses a non-commutative op, loudly, and
# the harness counts that refusal as the correct outcome.
expect 0 "needs a commutative op" -- "$cli" check --coll allreduce,reduce_scatter --algo circulant,ceilhalf --op noncomm --np 3 --count 5
expect 2 "valid: on (default), off" -- "$cli" bench --platform hydra --np 2 --coll allreduce --algos native --bytes 8 --lib-charge maybe
exit $fail
