#!/usr/bin/env bash
# The node-aware rows (CS_NODE_AWARE in algos/registry.def, e.g. allreduce
# hier) on platforms with real nodes: their model (the kernel recorded under
# models/mpirec, where the kernel context finds the same nodes) equals the
# simulation to 1e-9 relative
#   - on abg with COLLSIM_VNODE=4: p = 8 (two regular nodes of 4) and
#     p = 10 (nodes 4, 4, 2: not regular, the context's fallback);
#   - on maxrate 2 x 4 (p = 8) and lanes 3 x 4 (p = 12), one host per
#     process, nodes from the host names;
# and the nodes matter: on abg with virtual nodes of 4 at p = 8 the model
# differs from the same row with one process per node (abg without
# COLLSIM_VNODE, where it is checked by tests/model_vs_sim.sh).
# usage: model_vs_sim_nodes.sh SOURCE_DIR CLI
set -uo pipefail
src=$1 cli=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The composition rows among them (allreduce, reduce, bcast lane and hier)
# and the block kernels of algos/lane/ of the collectives in MVSN_KERNELS
# (default reduce_scatter_block, alltoall and scan; `all`: every one, the
# full matrix:
#   MVSN_KERNELS=all bash tests/model_vs_sim_nodes.sh . build/collsim-cli
# about 3 s a row; measured 27 Nov 2026: all 21 rows held), with collsim's
# algorithms inside where collsim has one (COLLSIM_INNER: the exact model of
# a decomposition is claimed for collsim's inner algorithms; the library's
# are priced by the recorder's reproductions of SMPI's: scan and exscan
# inside scan/exscan lane and hier are SMPI's linear ones, whose nonblocking
# messages the fluid evaluator prices, on maxrate and lanes on the
# platform's own routes, model_kind fluid-routes).
# Kernel rows that are node-aware but no decomposition (allreduce nap) are
# held too: every CS_ALGO row with CS_NODE_AWARE outside the lane and hier
# families.
kernels=${MVSN_KERNELS:-reduce_scatter_block,alltoall,scan}
rows=$( (sed -n 's/^CS_COMPOSE(\([a-z_]*\), *\([a-z_0-9]*\),[^,]*,[^,]*CS_NODE_AWARE.*/\1 \2/p' \
  "$src/algos/registry.def"
  sed -n 's/^CS_ALGO(\([a-z_]*\), *\([a-z_0-9]*\), *"\([a-z_0-9]*\)",[^,]*CS_NODE_AWARE.*/\1 \2 \3/p' \
    "$src/algos/registry.def" | awk -v k=",$kernels," '($3 != "lane" && $3 != "hier") ||
      k == ",all," || index(k, "," $1 ",") { print $1, $2 }'))
export COLLSIM_INNER=reduce_scatter:circulant,allgatherv:circulant,allreduce:butterfly,reduce:binomial,bcast:binomial,gatherv:circulant,scatterv:circulant,reduce_scatter_block:circulant,scatter:circulant,gather:circulant,allgather:circulant,alltoall:pairwise
[ -n "$rows" ] || { echo "FAIL: no CS_NODE_AWARE row in $src/algos/registry.def"; exit 1; }
abg=(--model abg --alpha 1.5e-6 --beta 2e-10 --gamma 3e-10)
sizes=1,1000,64K,1M
"$cli" platform maxrate --nodes 2 --ppn 4 --out "$tmp/mr.xml" --hostfile "$tmp/mr.hosts" &&
  "$cli" platform lanes --nodes 3 --ppn 4 --out "$tmp/ln.xml" --hostfile "$tmp/ln.hosts" ||
  { echo "FAIL: platform"; exit 1; }
fail=0 n=0
held() { # held NAME PREDICT-ARGS...: every row's rel_err <= 1e-9
  local name=$1; shift
  if ! "$@" >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL $name: predict failed:"; cat "$tmp/err"; fail=1; return
  fi
  # coll,algo,p,bytes,table1_s,model_s,sim_s,rel_err
  if awk -F, -v want="${want:-4}" 'NR > 1 { n++; if ($6 == "" || $7 == "" || $8 + 0 > 1e-9) { print "FAIL: " $0; bad = 1 } }
      END { exit bad || (want ? n != want : n < 1) }' "$tmp/out"; then
    echo "ok: $name: model = sim to 1e-9 ($(awk -F, 'END { print $4 " B: " $6 " s" }' "$tmp/out"))"
    n=$((n + 1))
  else
    echo "FAIL $name:"; cat "$tmp/out"; fail=1
  fi
}
while read -r coll algo; do
  run=(predict --coll "$coll" --algo "$algo" --bytes $sizes)
  held "$coll/$algo abg vnode 4 p=8" env COLLSIM_VNODE=4 "$cli" "${run[@]}" --np 8 "${abg[@]}"
  cp "$tmp/out" "$tmp/vnode.csv"
  held "$coll/$algo abg vnode 4 p=10" env COLLSIM_VNODE=4 "$cli" "${run[@]}" --np 10 "${abg[@]}"
  # maxrate 2 x 4 is contended for the full-lane rows' concurrent lane
  # collectives (the NIC is shared): the event evaluator's max-rate model
  # counts concurrent senders per step index, an approximation that the
  # bcast and scatter lane rows meet (model 1-9% above SMPI; on the
  # platform's routes, predict --model routes, they are exact): held for
  # the others.
  [ "$coll/$algo" = bcast/lane ] || [ "$coll/$algo" = scatter/lane ] ||
    held "$coll/$algo maxrate 2x4" "$cli" "${run[@]}" --np 8 --platform "$tmp/mr.xml"
  held "$coll/$algo lanes 3x4" "$cli" "${run[@]}" --np 12 --platform "$tmp/ln.xml"
  "$cli" "${run[@]}" --np 8 "${abg[@]}" --no-sim >"$tmp/flat.csv" 2>"$tmp/err" ||
    { echo "FAIL: $coll/$algo on abg:"; cat "$tmp/err"; fail=1; }
  # bcast hier with binomial trees takes 1 + 2 rounds on 2 x 4, as many as
  # the flat binomial tree's 3 on abg: the same time, legitimately.
  [ "$coll/$algo" = bcast/hier ] && continue
  # allgather lane with circulant allgathers: 1 + 2 rounds and c + 6c on 2 x 4,
  # 3 rounds and 7c flat: the same time on abg, legitimately.
  [ "$coll/$algo" = allgather/lane ] && continue
  # (1 B is no block at all for the block collectives: 0 s either way.)
  if paste -d, "$tmp/vnode.csv" "$tmp/flat.csv" |
    awk -F, 'NR > 1 && $6 == $14 && $6 + 0 != 0 { print "FAIL: same model with and without nodes: " $0; bad = 1 }
      END { exit bad }'; then
    echo "ok: $coll/$algo: virtual nodes of 4 change its model (the node path ran)"
  else fail=1; fi
done <<<"$rows"
# p = 1152 on abg with COLLSIM_VNODE=32 (36 nodes of 32, the hydra study's
# shape) and collsim's algorithms inside throughout, scan and exscan
# hillis included (the library's linear scan, SMPI's only one, keeps a
# received vector per earlier rank: p (p - 1) / 2 of them, ~650 GiB at
# 1 MiB and p = 1152, which is what killed scan lane there): the rows of
# MVSN_1152 (COLL/ALGO,...; default scan/lane and allreduce/lane, about
# 2 s of CPU each) at the sizes MVSN_1152_SIZES (default 1M). Every lane
# and hier row at four sizes (about 10 min on the shared 2-core machine):
#   MVSN_KERNELS=none MVSN_1152=all MVSN_1152_SIZES=1,1000,64K,1M bash tests/model_vs_sim_nodes.sh . build/collsim-cli
big=${MVSN_1152:-scan/lane,allreduce/lane} bigsizes=${MVSN_1152_SIZES:-1M}
want=0 # (at least one row: at p = 1152 small sizes of block collectives round to one)
bigrows=$(sed -n 's/^CS_\(ALGO\|COMPOSE\)(\([a-z_]*\), *\(lane\|hier\),.*CS_NODE_AWARE.*/\2 \3/p' \
  "$src/algos/registry.def" | awk -v k=",$big," 'k == ",all," || index(k, "," $1 "/" $2 ",")')
[ -n "$bigrows" ] || { echo "FAIL: MVSN_1152=$big names no lane or hier row"; fail=1; }
while read -r coll algo; do
  [ -n "$coll" ] || continue
  held "$coll/$algo abg vnode 32 p=1152" env COLLSIM_VNODE=32 \
    COLLSIM_INNER="$COLLSIM_INNER,scan:hillis,exscan:hillis" \
    "$cli" predict --coll "$coll" --algo "$algo" --bytes "$bigsizes" --np 1152 "${abg[@]}"
done <<<"$bigrows"
echo "model_vs_sim_nodes: $(wc -l <<<"$rows") node-aware rows, $n platforms held, fail=$fail"
exit $fail
