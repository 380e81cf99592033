#!/usr/bin/env bash
# run.sh: builds the platform generator and its SMPI test programs, then checks
#   (a) abg: one message costs alpha + beta (m + 16), exchanges cost the one-way time,
#       disjoint pairs do not slow each other down, smpi_execute_flops(b) costs gamma b;
#   (b) maxrate: k ranks of a node sending off-node take alpha + k (s + 16) / min(RN, k Rb);
#   (c) lanes: two flows from different lanes take half the time of two from one lane;
#   (d) every named machine loads and runs a 1 KiB MPI_Allreduce (theta at 8192 ranks is
#       timed with /usr/bin/time -v);
#   (e) the generator is deterministic, the committed machine files are up to date, and
#       bad usage exits with status 2 and a message naming the problem;
# and the C API (tests/api_test.c).
# Usage: platforms/tests/run.sh [--quick]   (--quick skips the 8192-rank theta run)
# Exits 0 if every check passes, 1 otherwise.  Needs gcc, smpicc and smpirun (SimGrid 3.32).
set -u

here=$(cd "$(dirname "$0")" && pwd)
plat=$(cd "$here/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/platgen-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
quick=0
[ "${1:-}" = "--quick" ] && quick=1

passes=0
fails=0
pass() { passes=$((passes + 1)); echo "PASS $*"; }
fail() { fails=$((fails + 1)); echo "FAIL $*"; }

echo "== building (gcc -std=c11 -Wall -Wextra -pedantic -Werror, smpicc)"
if gcc -std=c11 -Wall -Wextra -pedantic -Werror -O2 -o "$work/platgen" \
    -I"$plat/../algos" "$plat/platgen.c" "$plat/units.c" "$plat/../algos/topo.c" "$plat/../algos/pwcost.c" "$here/platgen_cli.c" -lm; then
  pass "platgen.c compiles without warnings"
else
  fail "platgen.c does not compile cleanly"; exit 1
fi
for prog in flows allreduce; do
  smpicc -O2 -Wall -Wextra -o "$work/$prog" "$here/$prog.c" >"$work/$prog.log" 2>&1 \
    || { cat "$work/$prog.log"; fail "smpicc $prog.c"; exit 1; }
done
if gcc -std=c11 -Wall -Wextra -pedantic -Werror -o "$work/api_test" -I"$plat/../algos" \
    "$plat/platgen.c" "$plat/units.c" "$plat/../algos/topo.c" "$plat/../algos/pwcost.c" "$here/api_test.c" -lm && "$work/api_test"; then
  pass "C API checks (tests/api_test.c)"
else
  fail "C API checks (tests/api_test.c)"
fi
gen="$work/platgen"
flags="$("$gen" --print-flags) --log=root.thres:warning --cfg=smpi/host-speed:1e9f"

# gen NAME KIND [options]: writes $work/NAME.xml and $work/NAME.hf.
gen_pf() {
  local name=$1; shift
  "$gen" "$@" --out "$work/$name.xml" --hostfile "$work/$name.hf" \
    || { fail "generate $name ($*)"; return 1; }
}

# run NAME PROGRAM ARGS...: runs PROGRAM on platform NAME with one rank per hostfile line.
run() {
  local name=$1; shift
  local np; np=$(wc -l <"$work/$name.hf")
  smpirun -np "$np" -platform "$work/$name.xml" -hostfile "$work/$name.hf" -no-privatize \
    $flags "$@" 2>&1
}

# expect NAME LABEL SECONDS TOL SIZE FLOWS...: the longest flow must take SECONDS.
expect() {
  local name=$1 label=$2 sec=$3 tol=$4; shift 4
  local out; out=$(run "$name" "$work/flows" --expect "$sec" --tol "$tol" "$@")
  local line; line=$(echo "$out" | grep -E '^(PASS|FAIL) ' | head -1)
  if echo "$line" | grep -q '^PASS '; then
    pass "$label: ${line#PASS longest flow: }"
  else
    echo "$out" | tail -5
    fail "$label: ${line:-no result}"
  fi
}

# calc EXPR: evaluates an awk expression with 17 significant digits.
calc() { awk "BEGIN { printf \"%.17g\", $1 }"; }

echo "== (a) abg"
for p in 2 5; do
  for ab in "1e-6 1e-10" "5e-6 2e-9"; do
    set -- $ab
    alpha=$1 beta=$2
    gen_pf abg$p abg --np $p --alpha "$alpha" --beta "$beta" || continue
    last=$((p - 1))
    for m in 0 1 1000 1048576; do
      t=$(calc "$alpha + $beta * ($m + 16)")
      expect abg$p "abg p=$p alpha=$alpha beta=$beta m=$m send 0->$last" "$t" 1e-9 $m 0:$last
      if [ $p -eq 5 ]; then
        expect abg$p "abg p=5 m=$m send 3->1" "$t" 1e-9 $m 3:1
        expect abg$p "abg p=5 m=$m two disjoint exchanges 0<->1, 2<->3" "$t" 1e-9 $m \
          0:1 1:0 2:3 3:2
        expect abg$p "abg p=5 m=$m disjoint sends 0->4 1->2 3->0 4->3 2->1" "$t" 1e-9 $m \
          0:4 1:2 3:0 4:3 2:1
      else
        expect abg$p "abg p=2 m=$m exchange (Sendrecv pattern) 0<->1" "$t" 1e-9 $m 0:1 1:0
      fi
    done
  done
done
gen_pf abg5g abg --np 5 --gamma 2.5e-10
out=$(run abg5g "$work/flows" --expect "$(calc "2.5e-10 * 1048576")" --tol 1e-12 \
  --compute 1048576)
if echo "$out" | grep -q '^PASS '; then
  pass "abg gamma=2.5e-10: $(echo "$out" | grep '^PASS ' | sed 's/^PASS //')"
else fail "abg gamma: $out"; fi
gen_pf abg5g0 abg --np 5 --gamma 0
out=$(run abg5g0 "$work/flows" --expect 0 --tol 1e-15 --compute 1e9)
if echo "$out" | grep -q '^PASS '; then pass "abg gamma=0: local work is free"
else fail "abg gamma=0: $out"; fi

echo "== (b) maxrate (Rb = 5 GB/s, RN = 12.5 GB/s, alpha = 1 us)"
for k in 1 2 4 8; do
  gen_pf mr$k maxrate --nodes 2 --ppn $k --Rb 5e9 --RN 12.5e9 --alpha 1e-6 || continue
  flows=""
  for i in $(seq 0 $((k - 1))); do flows="$flows $i:$((k + i))"; done
  for s in 65536 1048576; do
    t=$(calc "1e-6 + $k * ($s + 16) / ((12.5e9 < $k * 5e9) ? 12.5e9 : $k * 5e9)")
    expect mr$k "maxrate ppn=$k, $k senders x $s B off-node" "$t" 0.01 $s $flows
  done
done
t=$(calc "2e-7 + 5e-11 * (1000000 + 16)")
expect mr8 "maxrate intra-node message 1 MB: alpha_l + beta_l (m + 16)" "$t" 1e-9 1000000 0:1
out=$(run mr8 "$work/flows" --where)
if echo "$out" | grep -q '^rank 13 host node1 node 1 lane 0 local -$'; then
  pass "maxrate placement: rank 13 on node1 (one host per node, property node 1)"
else fail "maxrate placement: $(echo "$out" | grep '^rank 13 ')"; fi
# One host per node caps each flow at Rb with a FATPIPE link (write_node_zone): equal
# to the per-rank links while a rank has one message in flight per direction, as
# above; a rank with two concurrent sends gets Rb for each (not Rb in all) and so
# does one rank receiving two flows.
gen_pf mr3 maxrate --nodes 2 --ppn 3 --Rb 5e9 --RN 12.5e9 --alpha 1e-6
s=1000000
expect mr3 "maxrate one host per node: rank 0 sends twice off-node (0->3, 0->4), Rb each" \
  "$(calc "1e-6 + ($s + 16) / 5e9")" 1e-9 $s 0:3 0:4
expect mr3 "maxrate one host per node: rank 3 receives twice (0->3, 1->3), Rb each" \
  "$(calc "1e-6 + ($s + 16) / 5e9")" 1e-9 $s 0:3 1:3
expect mr3 "maxrate one host per node: three senders share RN (0->3, 1->4, 2->5)" \
  "$(calc "1e-6 + 3 * ($s + 16) / 12.5e9")" 1e-9 $s 0:3 1:4 2:5
expect mr3 "maxrate one host per node: two intra-node flows from rank 0 (0->1, 0->2)" \
  "$(calc "2e-7 + 5e-11 * ($s + 16)")" 1e-9 $s 0:1 0:2

echo "== (c) lanes (k = 2, Rb = RN = 12.5 GB/s per NIC)"
gen_pf ln lanes --nodes 2 --ppn 8 --lanes 2
s=4194304
tdiff=$(calc "1e-6 + ($s + 16) / 12.5e9")
tsame=$(calc "1e-6 + 2 * ($s + 16) / 12.5e9")
expect ln "lanes: flows from lanes 0 and 1 of node 0 (ranks 0->8, 1->9)" "$tdiff" 1e-9 $s 0:8 1:9
expect ln "lanes: flows from lane 0 only (ranks 0->8, 2->10)" "$tsame" 1e-9 $s 0:8 2:10
echo "   ratio different lanes / same lane = $(calc "$tdiff / $tsame")"
out=$(run ln "$work/flows" --where)
if echo "$out" | grep -q '^rank 11 host node1-3 node 1 lane 1 local 3$'; then
  pass "lanes placement: rank 11 on node1-3, lane 1 (local ranks alternate over lanes)"
else fail "lanes placement: $(echo "$out" | grep '^rank 11 ')"; fi
gen_pf hy hydra --nodes 2
s=4194304
expect hy "hydra: two flows on two rails (0->32, 1->33)" "$(calc "1e-6 + ($s + 16) / 12.5e9")" \
  1e-9 $s 0:32 1:33
expect hy "hydra: two flows on one rail (0->32, 2->34)" "$(calc "1e-6 + 2 * ($s + 16) / 12.5e9")" \
  1e-9 $s 0:32 2:34

echo "== (d) named machines: default sizes, 1 KiB MPI_Allreduce"
for m in hydra irene theta vsc3 bluewaters abg maxrate lanes; do
  if [ $m = theta ] && [ $quick -eq 1 ]; then
    gen_pf $m theta --nodes 16 || continue
  else
    gen_pf $m $m || continue
  fi
  np=$(wc -l <"$work/$m.hf")
  /usr/bin/time -v -o "$work/$m.time" smpirun -np "$np" -platform "$work/$m.xml" \
    -hostfile "$work/$m.hf" -no-privatize $flags "$work/allreduce" 1024 >"$work/$m.out" 2>&1
  rc=$?
  wall=$(grep 'Elapsed (wall clock)' "$work/$m.time" | sed 's/.*): //')
  rss=$(grep 'Maximum resident set size' "$work/$m.time" | sed 's/.*: //')
  res=$(grep -E '^(PASS|FAIL) ' "$work/$m.out")
  if [ $rc -eq 0 ] && echo "$res" | grep -q '^PASS '; then
    pass "$m ($np ranks): ${res#PASS }; wall $wall, peak RSS $rss KB"
  else
    tail -5 "$work/$m.out"
    fail "$m ($np ranks): exit $rc ${res:-no result}"
  fi
done
# Every configuration the seed papers ran on the named machines generates
# (Hydra 32 x 1 uses one rail per node: lanes are clamped to ppn).
for cfg in "hydra 32 1" "hydra 36 32" "irene 256 1" "irene 100 48" "theta 150 1" "theta 128 64"; do
  set -- $cfg
  if $gen "$1" --nodes "$2" --ppn "$3" --out "$work/cfg.xml" --hostfile "$work/cfg.hf" &&
    [ "$(wc -l <"$work/cfg.hf")" = $(($2 * $3)) ]; then
    pass "paper configuration $1 $2 x $3 generates ($(($2 * $3)) ranks)"
  else fail "paper configuration $1 $2 x $3 does not generate"; fi
done
gen_pf hy1 hydra --nodes 4 --ppn 1
expect hy1 "hydra 4 x 1: node0->node1, one rail" "$(calc "1e-6 + 1000016 / 12.5e9")" 1e-9 \
  1000000 0:1
# Compact topologies: a message's latency counts the links of its route.
gen_pf th8 theta --nodes 8 --ppn 1
expect th8 "theta: node0->node1 (one router, 2 links)" "$(calc "5e-7 + 1000016 / 5.25e9")" 1e-9 \
  1000000 0:1
expect th8 "theta: node0->node4 (two routers of a chassis, 3 links)" \
  "$(calc "7.5e-7 + 1000016 / 5.25e9")" 1e-9 1000000 0:4
gen_pf ir20 irene --nodes 20 --ppn 2
expect ir20 "irene: node0->node1 (one leaf, 2 links)" "$(calc "5e-7 + 1000016 / 12.5e9")" 1e-9 \
  1000000 0:2
expect ir20 "irene: node0->node19 (two leaves, 4 links)" "$(calc "1e-6 + 1000016 / 12.5e9")" \
  1e-9 1000000 0:38
expect ir20 "irene: intra-node (loopback)" "$(calc "3e-7 + 1e-10 * 1000016")" 1e-9 1000000 0:1

echo "== (e) determinism, committed files, usage errors"
for args in "abg" "abg --np 7 --alpha 3e-6 --beta 4e-10 --gamma 0" "maxrate" \
    "maxrate --nodes 3 --ppn 5 --Rb 1e9 --RN 3e9" "lanes" "lanes --lanes 3 --ppn 7 --Rx 1e10" \
    "hydra" "irene" "theta" "vsc3" "bluewaters" "theta --nodes 200 --ppn 3"; do
  $gen $args --out "$work/d1.xml" --hostfile "$work/d1.hf" &&
    $gen $args --out "$work/d2.xml" --hostfile "$work/d2.hf" &&
    $gen $args >"$work/d3.xml" &&
    cmp -s "$work/d1.xml" "$work/d2.xml" && cmp -s "$work/d1.hf" "$work/d2.hf" &&
    cmp -s "$work/d1.xml" "$work/d3.xml" &&
    pass "deterministic: platgen $args" || fail "not deterministic: platgen $args"
done
for m in hydra irene theta vsc3 bluewaters; do
  if [ -f "$plat/$m.xml" ]; then
    $gen $m --out "$work/c.xml" --hostfile "$work/c.hf"
    if cmp -s "$work/c.xml" "$plat/$m.xml" && cmp -s "$work/c.hf" "$plat/$m.hostfile"; then
      pass "platforms/$m.xml and $m.hostfile match the generator"
    else fail "platforms/$m.xml or $m.hostfile is stale: run platforms/regen.sh"; fi
  fi
done
usage_case() {
  local want=$1; shift
  local err; err=$($gen "$@" 2>&1 >/dev/null); local rc=$?
  if [ $rc -eq 2 ] && echo "$err" | grep -q -- "$want"; then
    pass "usage error for '$*': exit 2, says '$want'"
  else fail "usage error for '$*': exit $rc, message: $err"; fi
}
usage_case "valid kinds: abg, maxrate, lanes, hydra, irene, theta, vsc3, bluewaters" foo
usage_case "valid kinds" ""
usage_case "option --lanes is not valid for kind maxrate" maxrate --lanes 2
usage_case "valid options: --np, --alpha, --beta, --gamma" abg --nodes 3
usage_case "needs a time: seconds, or with a SimGrid unit" abg --alpha 1ux
usage_case "nodes must be between 1 and 36 for hydra" hydra --nodes 37
usage_case "lanes must be between 1 and ppn" lanes --ppn 2 --lanes 3
usage_case "beta (s/byte) must be a finite number > 0" abg --beta 0
usage_case "option --np needs a value" abg --np
$gen --help >/dev/null && pass "--help exits 0" || fail "--help"

echo "== $passes passed, $fails failed"
[ $fails -eq 0 ]
