#!/usr/bin/env bash
# native:NAME reaches SMPI through ONE mapping (algos/registry.c
# cs_smpi_cfg_key, algos/smpi.def) in bench and check alike: for every collective of the
# registry, bench either selects SMPI's algorithm through the option SMPI
# has for it (a bogus name makes SMPI name that option and its valid list;
# a real name from that list then runs and gives a row), or says clearly that
# SMPI has no choice. reduce_scatter_block runs SMPI's reduce_scatter: the
# same algorithm on equal blocks takes the same time.
set -u
cli=$1
fail=0
colls=$("$cli" list --csv | awk -F, 'NR > 1 && !seen[$1]++ { print $1 }')
[ -n "$colls" ] || { echo "FAILED: collsim list --csv names no collective"; exit 1; }
for c in $colls; do
  out=$("$cli" bench --platform hydra --np 4 --coll "$c" --algos native:bogus --bytes 1K 2>&1); st=$?
  if grep -q "SMPI has no algorithm choice for $c" <<<"$out"; then
    [ "$st" = 2 ] || { echo "FAILED: $c: no choice, but status $st"; fail=1; }
    echo "ok: $c: SMPI has no algorithm choice (clear error)"
    continue
  fi
  key=$(sed -n "s/.*Collective '\([a-z_]*\)' has no algorithm 'bogus'.*/\1/p" <<<"$out" | head -1)
  if [ -z "$key" ]; then echo "FAILED: $c: neither SMPI's list nor a clear error:"; echo "$out" | tail -3; fail=1; continue; fi
  want=$c; [ "$c" = reduce_scatter_block ] && want=reduce_scatter
  [ "$key" = "$want" ] || { echo "FAILED: $c reached smpi/$key"; fail=1; }
  # the third valid name: the first after "default, ompi" (a real algorithm)
  name=$(sed -n "s/.*Valid algorithms: \(.*\)\./\1/p" <<<"$out" | head -1 | tr -d ' ' | cut -d, -f3)
  rows=$("$cli" bench --platform hydra --np 4 --coll "$c" --algos "native:$name" --bytes 1K 2>/dev/null |
         grep -c "^$c,native:$name,4,")
  if [ "$rows" = 1 ]; then echo "ok: $c native:$name via smpi/$key"; else echo "FAILED: $c native:$name gave no row"; fail=1; fi
done
t() { "$cli" bench --platform hydra --np 8 --coll "$1" --algos native:ompi_ring --bytes 64K 2>/dev/null |
      awk -F, -v c="$1" '$1 == c { print $6 }'; }
a=$(t reduce_scatter_block); b=$(t reduce_scatter)
if [ -n "$a" ] && [ "$a" = "$b" ]; then echo "ok: reduce_scatter_block = reduce_scatter with ompi_ring ($a s)"
else echo "FAILED: reduce_scatter_block '$a' s, reduce_scatter '$b' s with ompi_ring"; fail=1; fi
exit $fail
