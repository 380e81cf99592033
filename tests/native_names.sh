#!/usr/bin/env bash
# native:NAME reaches SMPI through ONE mapping (algos/registry.c
# cs_smpi_cfg_key, algos/smpi.def) in bench and check alike: for every collective of the
# registry, bench refuses a bogus name before launch with SMPI's valid names
# (a real name from that list then runs and gives a row), or says clearly that
# SMPI has no choice. reduce_scatter_block runs SMPI's reduce_scatter: the
# same algorithm on equal blocks takes the same time.
set -u
cli=$1
fail=0
colls=$("$cli" list --csv | awk -F, 'NR > 1 && !seen[$1]++ { print $1 }')
[ -n "$colls" ] || { echo "FAILED: collsim list --csv names no collective"; exit 1; }
for c in $colls; do
  out=$("$cli" bench --platform hydra --np 4 --coll "$c" --algos native:bogus --bytes 1K 2>&1); st=$?
  [ "$st" = 2 ] || { echo "FAILED: $c: native:bogus gave status $st"; fail=1; }
  if grep -q "SMPI has one $c algorithm" <<<"$out"; then
    echo "ok: $c: SMPI has no algorithm choice (clear error)"
    continue
  fi
  # the valid names (algos/smpi.def; tests/smpi_names.sh holds them against
  # SimGrid's own list); the third is a real algorithm after "default, ompi"
  name=$(sed -n "s/.*has no $c algorithm 'bogus' (valid: native:NAME with NAME one of \([^;]*\);.*/\1/p" <<<"$out" |
         head -1 | tr -d ' ' | cut -d, -f3)
  if [ -z "$name" ]; then echo "FAILED: $c: neither the valid names nor a clear error:"; echo "$out" | tail -3; fail=1; continue; fi
  rows=$("$cli" bench --platform hydra --np 4 --coll "$c" --algos "native:$name" --bytes 1K 2>/dev/null |
         grep -c "^$c,native:$name,4,")
  if [ "$rows" = 1 ]; then echo "ok: $c native:$name"; else echo "FAILED: $c native:$name gave no row"; fail=1; fi
done
t() { "$cli" bench --platform hydra --np 8 --coll "$1" --algos native:ompi_ring --bytes 64K 2>/dev/null |
      awk -F, -v c="$1" '$1 == c { print $6 }'; }
a=$(t reduce_scatter_block); b=$(t reduce_scatter)
if [ -n "$a" ] && [ "$a" = "$b" ]; then echo "ok: reduce_scatter_block = reduce_scatter with ompi_ring ($a s)"
else echo "FAILED: reduce_scatter_block '$a' s, reduce_scatter '$b' s with ompi_ring"; fail=1; fi
exit $fail
