#!/usr/bin/env bash
# ./collsim nodeaware --quick (the NAP seed's study, Figs. 10-15, at small p):
#  - model-p.csv has eqs. 4-6 for every p = 16 n up to 1024 and the exact
#    model at the sampled p; model-size.csv both sizes' tables;
#  - the simulated time of one double (sim-p.csv) of RD, SMP and NAP equals
#    the exact model (model-p.csv) to 1e-9 at p = 16 .. 64 (bluewaters is a
#    max-rate machine; its model is exact there);
#  - SMPI's rows (native:smp_rdb, lib:mpich, lib:mvapich2) have times;
#  - the summary states the crossover and the pictures are drawn;
#  - bad input is refused with a message naming what is valid.
# The full study (to 32768 processes, 21 minutes here): ./collsim nodeaware --out DIR
# usage: nodeaware.sh CLI
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1 # cli, tmp, ok, bad, fail
if ! "$cli" nodeaware --quick --out "$tmp/s" >/dev/null 2>"$tmp/err"; then
  bad "nodeaware --quick failed: $(tail -5 "$tmp/err")"
  exit 1
fi
n=$(awk -F, '$1 ~ /^(RD|SMP|NAP)$/ && $6 != ""' "$tmp/s/model-p.csv" | wc -l)
[ "$n" = $((3 * 64)) ] && ok "model-p.csv: eqs. 4-6 at 64 node counts" || bad "model-p.csv: $n eq rows"
n=$(awk -F, '$1 ~ /^(RD|SMP|NAP)$/ && $7 != ""' "$tmp/s/model-p.csv" | wc -l)
[ "$n" -ge 30 ] && ok "model-p.csv: $n exact-model rows" || bad "model-p.csv: $n exact-model rows"
for l in RD SMP NAP; do
  for p in 16 32 48 64; do
    m=$(awk -F, -v l=$l -v p=$p '$1==l && $3==p {print $7}' "$tmp/s/model-p.csv")
    s=$(awk -F, -v l=$l -v p=$p '$1==l && $3==p {print $6}' "$tmp/s/sim-p.csv")
    if [ -n "$m" ] && [ -n "$s" ] && awk -v a="$m" -v b="$s" 'BEGIN {d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * b)}'; then
      :
    else
      bad "$l p=$p: model $m s, simulated $s s"
    fi
  done
done
[ $fail = 0 ] && ok "RD, SMP, NAP: simulation = exact model at p = 16 .. 64"
for a in native:smp_rdb lib:mpich lib:mvapich2; do
  n=$(awk -F, -v a=$a '$2==a && $6 > 0' "$tmp/s/sim-p.csv" | wc -l)
  [ "$n" = 4 ] && ok "$a at 4 p" || bad "$a: $n rows"
done
grep -q "Crossover" "$tmp/s/summary.md" && grep -q "SMP is ahead of NAP at" "$tmp/s/summary.md" &&
  ok "summary states the crossover" || bad "summary: no crossover"
grep -q "^## The crossover at 1024 processes (the paper: ~2 KiB)" "$tmp/s/summary.md" &&
  grep -q "^- Simulated at 64 processes (8 B to 4096 B): " "$tmp/s/summary.md" &&
  grep -q "^- Modelled, eqs. 5 (SMP) and 6 (NAP) at 1024 processes" "$tmp/s/summary.md" &&
  ok "summary: the crossover section, simulated and modelled" || bad "summary: no crossover section"
if command -v gnuplot >/dev/null; then
  n=$(ls "$tmp/s/plots"/fig1[0-5].png 2>/dev/null | wc -l)
  [ "$n" = 6 ] && ok "six pictures" || bad "$n pictures"
fi
"$cli" nodeaware --out "$tmp/x" --max-p 100 >/dev/null 2>"$tmp/e" &&
  bad "--max-p 100 accepted" || { grep -q "multiple of 16" "$tmp/e" && ok "bad --max-p refused" || bad "message: $(cat "$tmp/e")"; }
"$cli" nodeaware --quick >/dev/null 2>"$tmp/e" &&
  bad "no --out accepted" || { grep -q "\-\-out DIR" "$tmp/e" && ok "missing --out refused" || bad "message: $(cat "$tmp/e")"; }
exit $fail
