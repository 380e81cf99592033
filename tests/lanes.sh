#!/usr/bin/env bash
# ./collsim lanes (issue 27 item 3) on a 4 x 4 lanes platform with k = 2 lanes:
#  - lane pattern: the time at a large count falls ~2x from k = 1 to k = 2
#    (1.8 .. 2.2) and does not fall further at k = 4 (two physical lanes); at a
#    small count it does not rise with k (within 1%);
#  - multi-collective: 2 concurrent alltoalls cost no more than 1.1x one;
#  - under mpirun with virtual nodes (--vnode 2, 4 ranks): rows for every k,
#    positive times;
#  - bench's ROW@lib:SEL (the study's pairing: the row with the library it is
#    compared with inside) is the row run under SMPI's selector SEL, bit for
#    bit, on hydra 2 x 32, and differs with another selector; ROW@lib:SEL of
#    a row that calls no collective inside, and lib:SEL or ROW@lib:SEL with a
#    --cfg that sets the selector too, are refused; the library's work inside
#    is charged as lib:SEL's is (reduced_bytes > 0, slower than with
#    --lib-charge off);
#  - bad input is refused with a message naming what is valid.
# The papers' runs: ./collsim lanes --platform hydra --pattern k-lane|multi
#   --counts 1152,115200,11520000 --plot DIR (docs/multilane.md).
# usage: lanes.sh CLI
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1 # cli, tmp, ok, bad, platform, fail
platform lanes --nodes 4 --ppn 4 --lanes 2 --out "$tmp/l.xml" --hostfile "$tmp/l.hostfile"
# mean_s of pattern $2, count $3, k $4 in file $1
t() { awk -F, -v p="$2" -v c="$3" -v k="$4" '$1==p && $6==c && $5==k {print $9}' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.4f", a / b}'; }
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN {exit !(x >= lo && x <= hi)}'; }

if "$cli" lanes --platform "$tmp/l.xml" --pattern k-lane --counts 16,1000000 --k 1,2,4 \
  --out "$tmp/lane.csv" --quiet; then
  r=$(ratio "$(t "$tmp/lane.csv" k-lane 1000000 1)" "$(t "$tmp/lane.csv" k-lane 1000000 2)")
  within "$r" 1.8 2.2 && ok "lane: large c, t(k=1)/t(k=2) = $r" || bad "lane: large c ratio $r"
  r=$(ratio "$(t "$tmp/lane.csv" k-lane 1000000 2)" "$(t "$tmp/lane.csv" k-lane 1000000 4)")
  within "$r" 0.95 1.05 && ok "lane: k=4 as k=2 ($r)" || bad "lane: t(k=2)/t(k=4) = $r"
  for k in 2 4; do
    r=$(ratio "$(t "$tmp/lane.csv" k-lane 16 $k)" "$(t "$tmp/lane.csv" k-lane 16 1)")
    within "$r" 0 1.01 && ok "lane: small c, k=$k no penalty ($r)" || bad "lane: small c k=$k: $r"
  done
else
  bad "lanes --pattern k-lane failed"
fi
if "$cli" lanes --platform "$tmp/l.xml" --pattern multi --counts 4096 --k 1,2 \
  --out "$tmp/multi.csv" --quiet; then
  r=$(ratio "$(t "$tmp/multi.csv" multi 4096 2)" "$(t "$tmp/multi.csv" multi 4096 1)")
  within "$r" 0 1.1 && ok "multi: 2 alltoalls sustained ($r)" || bad "multi: t(2)/t(1) = $r"
else
  bad "lanes --pattern multi failed"
fi
if "$cli" lanes --backend mpi --np 4 --vnode 2 --pattern k-lane --counts 1000 --reps 3 --inner 5 \
  --out "$tmp/mpi.csv" --quiet; then
  n=$(awk -F, '$1=="k-lane" && $9 > 0' "$tmp/mpi.csv" | wc -l)
  [ "$n" = 2 ] && ok "mpirun: 2 rows (k = 1, 2)" || bad "mpirun: $n rows"
else
  bad "lanes --backend mpi failed"
fi
"$cli" lanes --platform "$tmp/l.xml" --pattern ring --counts 8 >/dev/null 2>"$tmp/e" &&
  bad "pattern ring accepted" || { grep -q "lane or multi" "$tmp/e" && ok "bad pattern refused"; }
"$cli" lanes --platform "$tmp/l.xml" --pattern k-lane --counts 8 --k 5 >/dev/null 2>"$tmp/e" &&
  bad "k = 5 > ppn accepted" || { grep -q "valid are 1 .. 4" "$tmp/e" && ok "k > ppn refused" || bad "k message: $(cat "$tmp/e")"; }
# ROW@lib:SEL against ROW under --cfg=smpi/coll-selector:SEL (allreduce 16 KiB:
# Open MPI's and MPICH's selectors pick different lane allreduces there)
platform hydra --nodes 2 --out "$tmp/h.xml" --hostfile "$tmp/h.hostfile"
med() { awk -F, -v a="$2" '$2 == a && $4 == 16384 { print $6 }' "$1"; }
hb() { "$cli" bench --platform "$tmp/h.xml" --hostfile "$tmp/h.hostfile" --np 64 --coll allreduce \
  --type int --bytes 16K --quiet "$@"; }
if hb --algos lane@lib:ompi,lane@lib:mpich --out "$tmp/at.csv" 2>"$tmp/e" &&
  hb --algos lane --cfg "--cfg=smpi/coll-selector:ompi" --out "$tmp/cfg.csv" 2>"$tmp/e"; then
  a=$(med "$tmp/at.csv" lane@lib:ompi) b=$(med "$tmp/cfg.csv" lane) c=$(med "$tmp/at.csv" lane@lib:mpich)
  [ -n "$a" ] && [ "$a" = "$b" ] && ok "lane@lib:ompi = lane under the ompi selector ($a s)" ||
    bad "lane@lib:ompi '$a' s, lane under --cfg ompi '$b' s"
  [ -n "$c" ] && [ "$a" != "$c" ] && ok "lane@lib:mpich differs ($c s)" || bad "lane@lib:mpich '$c' s = '$a'"
  red=$(awk -F, '$2 == "lane@lib:ompi" && $4 == 16384 { print $13 }' "$tmp/at.csv")
  hb --algos lane@lib:ompi --lib-charge off --out "$tmp/free.csv" 2>"$tmp/e"
  f=$(med "$tmp/free.csv" lane@lib:ompi)
  awk -v r="$red" -v a="$a" -v f="$f" 'BEGIN { exit !(r > 0 && f > 0 && a > f) }' &&
    ok "the library's work inside is charged: $red B reduced per call, $a s against $f s free" ||
    bad "lane@lib:ompi charged: reduced '$red' B, $a s against '$f' s with --lib-charge off"
else
  bad "bench lane@lib:SEL failed: $(cat "$tmp/e")"
fi
hb --algos butterfly@lib:ompi --out "$tmp/no.csv" 2>"$tmp/e" && bad "butterfly@lib:ompi accepted" ||
  { grep -q "calls collectives inside (lane, hier)" "$tmp/e" && ok "butterfly@lib:ompi refused" || bad "message: $(cat "$tmp/e")"; }
hb --algos lib:mpich --cfg "--cfg=smpi/coll-selector:ompi" --out "$tmp/no.csv" 2>"$tmp/e" &&
  bad "lib:mpich with a selector in --cfg accepted" ||
  { grep -q "name it once" "$tmp/e" && ok "lib:mpich with a selector in --cfg refused" || bad "message: $(cat "$tmp/e")"; }
exit $fail
