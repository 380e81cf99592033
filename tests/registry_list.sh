#!/usr/bin/env bash
# collsim list shows each family for the collectives the foundation names.
set -u
cli=$1
out=$("$cli" list --csv) || { echo "list failed"; exit 1; }
fail=0
need() {
  if ! grep -q "^$1,$2," <<<"$out"; then echo "missing: $1 $2"; fail=1; fi
}
for c in allreduce reduce reduce_scatter_block reduce_scatter allgather allgatherv gather gatherv scatter scatterv; do
  need "$c" circulant; need "$c" native
done
need allreduce circulant_rsag
for c in reduce_scatter_block reduce_scatter allgather allgatherv allreduce; do need "$c" ceilhalf; done
for c in allreduce reduce_scatter_block reduce_scatter allgather; do need "$c" butterfly; done
need allgather bruck
for c in bcast scan exscan; do need "$c" native; done
head -1 <<<"$out" | grep -q '^collective,algorithm,family,restrictions,reference$' || { echo "bad CSV header"; fail=1; }
# every reducing algorithm that needs a commutative op says so
grep -q '^allreduce,circulant,circulant,commutative exact op,' <<<"$out" || { echo "restriction missing"; fail=1; }
grep -q '^allreduce,circulant_rsag,circulant,commutative op,' <<<"$out" || { echo "restriction missing"; fail=1; }
"$cli" list | grep -q "COLLECTIVE" || { echo "table header missing"; fail=1; }
exit $fail
