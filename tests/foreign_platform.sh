#!/usr/bin/env bash
# Any SimGrid platform (docs/byo-platform.md), with SimGrid's own example files
# (tests/platforms/: no hostfile, no collsim-model line):
#  - bench runs with the default placement and says what it assumed (on stderr
#    and in the CSV: placement, gamma, the smpirun settings applied);
#  - a hostfile's 'host:N' line places N ranks on that host (the same times as
#    N 'host' lines, other times than N hosts), an unknown host is refused
#    before launch, too few ranks are counted right;
#  - --smpi-network keeps SMPI's network model, and the CSV says so;
#  - predict runs with --model abg next to --platform, and without it on the
#    platform's own routes (equal to SMPI); guidelines runs.
# usage: foreign_platform.sh CLI PLATFORM_DIR
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
dir=${2:?usage: $0 CLI DIR}
t_of() { grep "^allreduce,$2," "$1" | cut -d, -f6; } # t_of CSV ALGO: median_s

for p in cluster_fat_tree:8 cluster_dragonfly:8 small_platform:7; do
  name=${p%:*} np=${p#*:}
  csv=$tmp/$name.csv
  if ! "$cli" bench --platform "$dir/$name.xml" --np "$np" --coll allreduce \
    --algos circulant,lib:default --bytes 1K,64K --out "$csv" 2>"$tmp/err"; then
    bad "$name: bench failed:"; cat "$tmp/err"; continue
  fi
  grep -q "no hostfile for .*placement default: $np ranks" "$tmp/err" || bad "$name: no placement note"
  grep -q "no collsim-model line: local work .* gamma = 1 / host speed" "$tmp/err" || bad "$name: gamma not stated"
  grep -q "^# placement: default" "$csv" && grep -q "^# gamma: " "$csv" &&
    grep -q "^# smpi-cfg: .*network/model:CM02" "$csv" || bad "$name: CSV lacks the settings"
  [ "$(grep -c '^allreduce,' "$csv")" = 4 ] || bad "$name: $(grep -c '^allreduce,' "$csv") rows, want 4"
  ok "$name: bench, $np ranks, default placement, settings in the CSV"
done

ft=$dir/cluster_fat_tree.xml
h=node-%d.simgrid.org
run() { "$cli" bench --platform "$ft" --np 8 --coll allreduce --algos circulant --bytes 64K --quiet "$@"; }
printf "$h:4\n$h:4\n" 0 4 >"$tmp/colon.hostfile"
for i in 0 0 0 0 4 4 4 4; do printf "$h\n" $i; done >"$tmp/lines.hostfile"
for i in 0 1 2 3 4 5 6 7; do printf "$h\n" $i; done >"$tmp/spread.hostfile"
run --hostfile "$tmp/colon.hostfile" --out "$tmp/colon.csv" 2>/dev/null || bad "host:N hostfile refused"
run --hostfile "$tmp/lines.hostfile" --out "$tmp/lines.csv" 2>/dev/null || bad "repeated lines refused"
run --hostfile "$tmp/spread.hostfile" --out "$tmp/spread.csv" 2>/dev/null || bad "spread refused"
a=$(t_of "$tmp/colon.csv" circulant) b=$(t_of "$tmp/lines.csv" circulant) c=$(t_of "$tmp/spread.csv" circulant)
if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "$c" ]; then
  ok "host:4 lines place 4 ranks per host ($a s, as 4 lines each; 8 hosts: $c s)"
else bad "host:N placement: colon $a, lines $b, spread $c"; fi
printf "$h:2\nnode-99.simgrid.org\n" 0 >"$tmp/bad.hostfile"
out=$(run --hostfile "$tmp/bad.hostfile" --out "$tmp/bad.csv" 2>&1); st=$?
[ $st = 2 ] && grep -q "line 2: host 'node-99.simgrid.org' is not in" <<<"$out" && [ ! -s "$tmp/bad.csv" ] &&
  ok "unknown host refused before launch" || bad "unknown host: status $st: $out"
printf "$h:3\n" 0 >"$tmp/few.hostfile"
out=$(run --hostfile "$tmp/few.hostfile" 2>&1); st=$?
[ $st = 2 ] && grep -q "places 3 ranks, --np 8" <<<"$out" && ok "host:3 counts 3 ranks" || bad "few: $st $out"
out=$("$cli" bench --platform "$ft" --np 17 --coll allreduce --algos circulant --bytes 8 2>&1); st=$?
[ $st = 2 ] && grep -q "16 hosts with 16 cores in all, --np 17" <<<"$out" && ok "too many ranks refused" || bad "np 17: $out"

# SMPI's own network model, recorded
run --smpi-network --out "$tmp/net.csv" 2>/dev/null || bad "--smpi-network failed"
if grep -q "network=smpi" "$tmp/net.csv" && ! grep -q "network/model" "$tmp/net.csv" &&
  [ "$(t_of "$tmp/net.csv" circulant)" != "$(t_of "$tmp/spread.csv" circulant)" ]; then
  ok "--smpi-network: SMPI's model ($(t_of "$tmp/net.csv" circulant) s), recorded"
else bad "--smpi-network not applied or not recorded"; fi

# predict with --model next to --platform
out=$("$cli" predict --platform "$ft" --model abg --alpha 2e-4 --beta 8e-9 --gamma 1e-9 \
  --coll allreduce --algo circulant --np 8 --bytes 64K 2>"$tmp/perr"); st=$?
[ $st = 0 ] && grep -q "^# model: abg .* sim_s runs on" <<<"$out" &&
  grep -Eq "^allreduce,circulant,8,65536,[0-9.e-]+,[0-9.e-]+,[0-9.e-]+," <<<"$out" &&
  ok "predict --platform --model" || { bad "predict: $st"; echo "$out"; cat "$tmp/perr"; }
# predict without --model: the fluid evaluator on the platform's own routes
# (models/routes.h), which must equal the simulation (1e-6)
out=$("$cli" predict --platform "$ft" --coll allreduce --algo circulant --np 8 --bytes 64K 2>&1)
awk -F, '$1 == "allreduce" && $6 != "" && $7 != "" && $8 != "" && $8 + 0 <= 1e-6 { ok = 1 } END { exit !ok }' \
  <<<"$out" && ok "predict without a model: on the platform's routes, equal to SMPI" ||
  bad "predict without --model: $out"

# guidelines
if "$cli" guidelines --platform "$dir/small_platform.xml" --np 4 --bytes 4K --out "$tmp/gl" \
  --quiet >"$tmp/gl.out" 2>&1 && [ -s "$tmp/gl/guidelines.csv" ]; then
  ok "guidelines on small_platform.xml: $(tail -1 "$tmp/gl.out")"
else bad "guidelines:"; tail "$tmp/gl.out"; fi
exit $fail
