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
expect 0 "refused a non-commutative op, as they must: allreduce/circulant" -- "$cli" check --coll allreduce,reduce_scatter --algo circulant,ceilhalf --op noncomm --np 3 --count 5
# One line for all the expected refusals, not one per algorithm and job.
n=$("$cli" check --coll allreduce --algo circulant,ceilhalf --op noncomm --np 2,3 --count 5 2>&1 |
  grep -c "commutative")
[ "$n" = 1 ] || { echo "FAILED: $n lines about the commutative refusals (want 1)"; fail=1; }
# Sizes above the limit say what the limit is.
expect 2 "above the limit of 4000000000 bytes" -- "$cli" bench --platform hydra --np 2 --coll allreduce --algos circulant --bytes 4G
expect 2 "SMPI 3.32 has no allreduce algorithm 'bogus'" -- "$cli" check --np 2 --coll allreduce --algo native:bogus
expect 2 "SMPI has one scan algorithm" -- "$cli" check --np 2 --coll scan --algo native:x
expect 2 "valid: csv, osu, osu-full" -- "$cli" bench --platform hydra --np 2 --coll allreduce --algos circulant --bytes 8 --format table
# The valid-name list names native:NAME once.
out=$("$cli" bench --platform hydra --np 2 --coll allreduce --algos nope --bytes 8 2>&1)
[ "$(grep -o "native:" <<<"$out" | wc -l)" = 1 ] || { echo "FAILED: native:NAME not once in: $out"; fail=1; }
# SimGrid's units in platform options: the same file as the plain SI numbers.
a=$("$cli" platform abg --np 3 --alpha 1us --beta 10GBps --gamma 4GBps 2>&1)
b=$("$cli" platform abg --np 3 --alpha 1e-6 --beta 1e-10 --gamma 2.5e-10 2>&1)
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAILED: --alpha 1us --beta 10GBps differs from 1e-6, 1e-10"; fail=1; }
a=$("$cli" platform maxrate --Rb 40Gbps --RN 1.25e10 2>&1)
b=$("$cli" platform maxrate --Rb 5e9 --RN 12.5GBps 2>&1)
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAILED: --Rb 40Gbps differs from 5e9"; fail=1; }
expect 2 "a time: seconds, or with a SimGrid unit" -- "$cli" platform abg --alpha 1ux
# Conventions: --version, and --help on every command, list included.
expect 0 "collsim [0-9]" -- "$cli" --version
for v in $("$cli" --help | awk '/^commands:/ { on = 1; next } on && NF { print $1 }'); do
  expect 0 "usage: collsim $v" -- "$cli" "$v" --help
done
# --block-bytes: per-process sizes of block collectives (m = p b in the CSV);
# a vector collective has no blocks.
expect 0 "^reduce_scatter_block,native,8,8192," -- "$cli" bench --platform hydra --np 8 --coll reduce_scatter_block --algos native --block-bytes 1K
expect 2 "allreduce has no blocks" -- "$cli" bench --platform hydra --np 8 --coll allreduce --algos native --block-bytes 1K
expect 2 "not both" -- "$cli" bench --platform hydra --np 8 --coll allgather --algos native --block-bytes 1K --bytes 8K
expect 2 "valid: on (default), off" -- "$cli" bench --platform hydra --np 2 --coll allreduce --algos native --bytes 8 --lib-charge maybe
exit $fail
