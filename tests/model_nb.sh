#!/usr/bin/env bash
# Nonblocking messages and library collectives inside a priced call: the
# model of each test kernel (tests/kernels/testk.c, never registered) equals
# its SMPI time to 1e-9 on abg platforms, and calls the models cannot price
# fail with a message that names them.
#   fan       Isend/Irecv to and from 3 peers at once, Waitall (links shared
#             by 3 flows each way), then a blocking ring exchange;
#   star      rank 0 sends to every rank at once, sizes growing (flows end one
#             after the other), receives with Irecv and waits one by one;
#   nodecoll  MPI_Bcast and MPI_Allreduce on the node communicator (virtual
#             nodes of 4 consecutive ranks, made before the call), leaders' ring;
#   nodeall   MPI_Barrier, Reduce, Gather, Scatter, Allgather,
#             Reduce_scatter_block, Scan, Exscan on the node communicator;
#   allred    MPI_Allreduce on the node communicator under SMPI's ompi selector
#             (recursive doubling, rdb, at these sizes);
#   allgat    MPI_Allgather on the node communicator under ompi's selector (rdb);
#   rooted    MPI_Gather and MPI_Scatter there under mpich's (in-order binomial trees);
#   bcasts    MPI_Bcast there under mpich's (SMP_binomial), from a root other than 0 and from 0.
# usage: model_nb.sh BUILD_DIR P_LIST SIZES   (P_LIST like 5,12 or 3-17; SIZES 0,1000,...)
set -uo pipefail
build=$1 plist=$2 sizes=${3//,/ }
cli=$build/collsim-cli smpi=$build/collsim-testk-smpi model=$build/collsim-testk-model
alpha=1.5e-6 beta=2e-10 ppn=4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 rows=0
flags=$("$cli" platform --print-flags) || { echo "FAIL: collsim platform --print-flags"; exit 1; }
expand() { # 2-5,7 -> 2 3 4 5 7
  local IFS=,
  for part in $1; do
    if [[ $part == *-* ]]; then seq "${part%-*}" "${part#*-}"; else echo "$part"; fi
  done
}
for p in $(expand "$plist"); do
  "$cli" platform abg --np "$p" --alpha $alpha --beta $beta --gamma 0 --out "$tmp/abg.xml" || {
    echo "FAIL: platform"; exit 1; }
  # KERNEL[:SELECTOR[:SIZES]]: allred under ompi's selector runs allreduce rdb on the nodes.
  for case in fan star nodecoll nodeall allred:ompi:100,1000,4000 allgat:ompi rooted:mpich bcasts:mpich; do
    IFS=: read -r k sel ksizes <<<"$case"
    ksizes=${ksizes:-$sizes} ksizes=${ksizes//,/ }
    cfg=() msel=()
    [ -n "$sel" ] && cfg=(--cfg=smpi/coll-selector:"$sel") msel=(--selector "$sel")
    # shellcheck disable=SC2086
    if ! smpirun -np "$p" -platform "$tmp/abg.xml" -no-privatize --cfg=smpi/display-timing:no \
        --log=root.thres:warning $flags "${cfg[@]}" "$smpi" $k $ppn $ksizes >"$tmp/sim" 2>"$tmp/err"; then
      echo "FAIL: smpirun $k p=$p:"; tail -5 "$tmp/err"; fail=$((fail + 1)); continue
    fi
    # shellcheck disable=SC2086
    if ! "$model" "$p" $alpha $beta $k $ppn "${msel[@]}" $ksizes >"$tmp/model" 2>&1; then
      echo "FAIL: model $k p=$p: $(cat "$tmp/model")"; fail=$((fail + 1)); continue
    fi
    res=$(paste -d' ' "$tmp/sim" "$tmp/model" | awk -v k=$k -v p="$p" '{
        n++
        if ($1 != $3) { print "FAIL sizes differ: " $0; bad++; next }
        d = $2 - $4; if (d < 0) d = -d
        rel = $2 > 0 ? d / $2 : d
        if (rel > 1e-9 || $2 <= 0) { printf "FAIL %s p=%d %d bytes: sim %.12g model %.12g rel %.3g\n", k, p, $1, $2, $4, rel; bad++ }
      } END { printf "ROWS %d\n", n; exit bad > 0 }')
    st=$?
    rows=$((rows + $(echo "$res" | awk '/^ROWS/ { print $2 }')))
    [ $st -eq 0 ] || { echo "$res" | grep FAIL; fail=$((fail + 1)); }
  done
done
# What the models cannot price fails, naming the call.
expect_fail() { # expect_fail WHAT PATTERN ARGS...
  local what=$1 pat=$2; shift 2
  if out=$("$model" "$@" 2>&1); then
    echo "FAIL: $what was priced ($out)"; fail=$((fail + 1))
  elif ! grep -q -- "$pat" <<<"$out"; then
    echo "FAIL: $what: message without '$pat': $out"; fail=$((fail + 1))
  else
    echo "ok: $what fails: $out"
  fi
}
expect_fail "a communicator created inside the call" "MPI_Comm_split inside the priced call" \
  6 $alpha $beta splitcall $ppn 100
expect_fail "a library algorithm not reproduced (selector ompi's bcast on 4 ranks)" \
  "MPI_Bcast inside the priced call runs SMPI's bcast algorithm '[A-Za-z_0-9]*' (selector 'ompi')" \
  8 $alpha $beta nodecoll $ppn --selector ompi 1000
echo "model_nb: p in $plist, sizes $sizes: $rows rows checked, $fail failures"
[ $fail -eq 0 ] && [ $rows -gt 0 ]
