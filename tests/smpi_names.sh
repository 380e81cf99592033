#!/usr/bin/env bash
# SMPI's own algorithm names (algos/smpi.def, printed by `collsim list --smpi`)
# are exactly what the installed SimGrid accepts: for each collective with a
# setting, SMPI's own list (it prints the valid names for a bad one) equals
# collsim's. And a bad native:NAME is refused before any launch, with the
# valid names.
# usage: smpi_names.sh CLI
set -u
cli=$1
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cli" platform abg --np 2 --out "$tmp/p.xml" --hostfile "$tmp/p.hostfile" >/dev/null 2>&1 ||
  { echo "FAILED: cannot write a platform"; exit 1; }
driver="$(dirname "$cli")/collsim-smpi"
"$cli" list --smpi >"$tmp/list" || { echo "FAILED: collsim list --smpi"; exit 1; }
n=0
while read -r coll names; do
  case "$coll" in SMPI*) continue ;; esac
  [[ $names == "(none"* ]] && continue
  key=$coll
  [[ $names == *"(SMPI's "*" setting)" ]] && key=$(sed -E "s/.*\(SMPI's (.*) setting\)/\1/" <<<"$names")
  ours=$(sed -E 's/ *\(SMPI.*//' <<<"$names" | tr ' ' '\n' | sort)
  theirs=$(smpirun -np 2 -platform "$tmp/p.xml" -hostfile "$tmp/p.hostfile" \
    "--cfg=smpi/$key:no_such_algorithm" "$driver" bench 2>&1 |
    sed -n 's/.*Valid algorithms: \(.*\)\.$/\1/p' | tr -d ' ' | tr ',' '\n' | sort)
  if [ -z "$theirs" ]; then
    echo "FAILED: SMPI printed no list for smpi/$key"; fail=1
  elif [ "$ours" != "$theirs" ]; then
    echo "FAILED: $coll: algos/smpi.def differs from SMPI's list:"
    diff <(echo "$ours") <(echo "$theirs") | head; fail=1
  else
    echo "ok: $coll ($key): $(wc -l <<<"$ours") names"
  fi
  n=$((n + 1))
done <"$tmp/list"
[ "$n" -ge 8 ] || { echo "FAILED: only $n collectives listed"; fail=1; }
# native:bogus: refused before launch (status 2, no CSV written), valid names listed.
out=$("$cli" bench --platform "$tmp/p.xml" --np 2 --coll allreduce --algos native:bogus \
  --bytes 8 --out "$tmp/b.csv" 2>&1); st=$?
if [ $st != 2 ] || ! grep -q "rab_rdb" <<<"$out" || [ -e "$tmp/b.csv" ]; then
  echo "FAILED: native:bogus -> status $st: $out"; fail=1
else echo "ok: native:bogus refused before launch"; fi
# reduce_scatter_block's native:NAME goes to SMPI's reduce_scatter setting.
if ! "$cli" bench --platform "$tmp/p.xml" --np 2 --coll reduce_scatter_block \
  --algos native:ompi_ring --bytes 64 --quiet >"$tmp/o" 2>&1; then
  echo "FAILED: reduce_scatter_block native:ompi_ring does not run:"; head -5 "$tmp/o"; fail=1
else echo "ok: reduce_scatter_block native:ompi_ring runs"; fi
exit $fail
