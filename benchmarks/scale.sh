#!/usr/bin/env bash
# Cost of simulation at scale (not a test): for each platform, p, collective,
# algorithm and size, one `collsim bench` run (one repetition) measured as
#   cpu_s     CPU seconds (user + system) of the whole run, smpirun included
#   pss_mib   peak proportional set size of the run's processes (sampled every
#             0.2 s from /proc/PID/smaps_rollup; RSS would count SMPI's shared
#             buffers once per mapping)
#   msgs      simulated messages of one call (build/collsim-msgcount: the
#             kernel recorded by its model; "-" for SMPI's own algorithms)
# and, measured in the same run of this script,
#   start_s   a bare SMPI program that only calls MPI_Init and MPI_Finalize
#             (build/collsim-floor 0 0): loading the platform, starting p
#             processes, ending them; paid by every run, collsim's or not
#   harness_s the same bench with --bytes 0 (no message is sent: smpirun, MPI_Init/
#             Finalize, buffers and the timing harness), and h/case, the
#             harness's own cost over the case's own cost,
#             (harness_s - start_s) / (cpu_s - start_s)
#   us_msg    CPU microseconds per simulated message, start-up excluded:
#             (cpu_s - start_s) / msgs
#   floor_us  the same for a bare SMPI program that sends exactly the case's
#             messages and nothing else (build/collsim-floor --trace: every
#             rank replays its program as the kernel's model recorded it,
#             collsim-msgcount ... TRACE: the same partners, sizes and calls,
#             in the same order), and r/floor = us_msg / floor_us;
#   fl+s_us   the same replay with the kernel's local work charged as
#             backends/smpi.c charges it (one sleep per batch of work, before
#             the next message), and r/fl+s = us_msg / fl+s_us. A reduction
#             takes simulated time, so a kernel that reduces pays SimGrid for
#             those sleeps; r/floor counts them as overhead, r/fl+s does not;
#   same_t    "yes" when that replay's simulated time equals the bench row's
#             to 1e-9 (it is the same simulation without collsim), else the
#             relative difference.
# SMPI's own allreduce algorithms (--smpi rab,rdb) are run beside as
# native:NAME rows. CPU seconds, not wall time: the machine may be shared.
# cpu_s and harness_s are the simulation alone: the runs pass --verify none,
# because bench's one check of each case on real buffers (on by default,
# sim/check.c cs_check_verify) would dominate at small sizes (theta, 8192
# ranks, circulant allreduce 1 KiB: 27.6 s of CPU with the check, 7.7 s
# without; at 1 MiB the check is skipped as too large anyway).
# Big runs take minutes and GiBs: run them one at a time (nice). On a
# shared VM one run's CPU seconds vary by 30% and more (the floors' too), so
# --runs N runs a row's commands in turn N times (start-up, harness, case,
# floor, floor with sleeps; then again) and takes each one's median CPU
# seconds (and largest Pss): a drift of the machine reaches all alike.
# The issue's full matrix (hours of CPU, up to ~10 GiB for SMPI's rab):
#   nice benchmarks/scale.sh --np 1024,2048,4096,8192,16384,32768
# It has not been run whole. The sample run for issue 13 (one invocation per
# row, figures in docs/scale.md), covering every target:
#   --platforms theta --np 8192 --colls C --algos A --bytes 1K,1M --smpi ""
#       --runs 5   for C in allreduce, reduce_scatter_block and A in
#       circulant, ceilhalf, butterfly (CPU per message against the floors;
#       10 s, 1 GiB; the harness's share h/case at 1 KiB)
#   --platforms abg --np 32768 --colls allreduce --algos circulant --bytes 1K
#       --smpi "" --no-floor   (60 s, 4 GiB)
#   --platforms abg --np 32768 --colls reduce_scatter_block --algos circulant
#       --bytes 1M --smpi "" --no-floor   (8 GiB)
# Not run: p = 1024..4096 and 16384, abg at 8192, theta at 32768, SMPI's
# rab/rdb rows.
# usage: benchmarks/scale.sh [--platforms abg,theta] [--np 1024,8192]
#          [--colls allreduce,reduce_scatter_block] [--algos circulant,ceilhalf,butterfly]
#          [--bytes 1K,1M] [--smpi rab,rdb] [--no-floor] [--runs 1]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
platforms=abg,theta nps=1024,8192 colls=allreduce,reduce_scatter_block
algos=circulant,ceilhalf,butterfly sizes=1K,1M smpi=rab,rdb floor=1 runs=1
while [ $# -gt 0 ]; do
  case $1 in
    --platforms) platforms=$2; shift ;;
    --np) nps=$2; shift ;;
    --colls) colls=$2; shift ;;
    --algos) algos=$2; shift ;;
    --bytes) sizes=$2; shift ;;
    --smpi) smpi=$2; shift ;;
    --no-floor) floor=0 ;;
    --runs) runs=$2; shift ;;
    *) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
  esac
  shift
done
"$here/collsim" list >/dev/null # builds what is out of date
build="${COLLSIM_BUILD:-$here/build}"
cli=$build/collsim-cli
if [ "$(cat /proc/sys/vm/max_map_count)" -lt 1048576 ] && [ "$(id -u)" -eq 0 ]; then
  sysctl -qw vm.max_map_count=1048576 # SMPI maps every rank's stack separately
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bytes_of() { numfmt --from=iec "$1"; }

# Peak Pss (KiB) of a process tree, sampled until the tree's root ends.
pss_tree() {
  local root=$1 peak=0 s pids new q
  while kill -0 "$root" 2>/dev/null; do
    pids=$root new=$root
    while [ -n "$new" ]; do # all descendants (time, collsim-cli, smpirun, smpimain)
      q=$new new=
      for x in $q; do new="$new $(pgrep -d ' ' -P "$x" || true)"; done
      new=$(echo $new)
      pids="$pids $new"
    done
    s=0
    for q in $pids; do
      v=$(awk '/^Pss:/ { print $2 }' "/proc/$q/smaps_rollup" 2>/dev/null || true)
      s=$((s + ${v:-0}))
    done
    [ "$s" -gt "$peak" ] && peak=$s
    sleep 0.2
  done
  echo "$peak"
}
# measure OUT CMD...: runs CMD once and appends "cpu_s pss_mib" to OUT.all;
# CMD's output is in OUT.log. summary OUT writes to OUT the median CPU
# seconds of OUT.all's runs and their largest peak Pss.
measure() {
  local out=$1; shift
  /usr/bin/time -f '%U %S' -o "$out.time" "$@" >"$out.log" 2>&1 &
  local pid=$!
  local pss; pss=$(pss_tree $pid)
  wait $pid || { echo "scale.sh: failed: $*" >&2; tail -5 "$out.log" >&2; return 1; }
  awk -v p="$pss" '{ printf "%.2f %.0f\n", $1 + $2, p / 1024 }' "$out.time" >>"$out.all"
}
summary() {
  sort -n "$1.all" | awk '{ c[NR] = $1; if ($2 > m) m = $2 }
    END { printf "%.2f %.0f\n", (NR % 2 ? c[(NR + 1) / 2] : (c[NR / 2] + c[NR / 2 + 1]) / 2), m }' >"$1"
  rm -f "$1.all"
}

printf '%-6s %6s %-21s %-12s %5s %8s %8s %9s %8s %9s %7s %8s %8s %7s %8s %7s %7s\n' platform p coll \
  algo bytes cpu_s pss_mib msgs start_s harness_s h/case us_msg floor_us r/floor fl+s_us r/fl+s same_t
for plat in ${platforms//,/ }; do
  for p in ${nps//,/ }; do
    if [ "$plat" = abg ]; then
      "$cli" platform abg --np "$p" --out "$tmp/$plat-$p.xml" --hostfile "$tmp/$plat-$p.hostfile" >/dev/null
    else
      "$cli" platform "$plat" --nodes $((p / 64)) --ppn 64 --out "$tmp/$plat-$p.xml" \
        --hostfile "$tmp/$plat-$p.hostfile" >/dev/null
    fi
    xml=$tmp/$plat-$p.xml
    # SMPI run as bench runs it (run/bench.c): its flags, and no stack guard
    # pages from 2048 ranks on
    guard=
    [ "$p" -gt 2048 ] && guard=--cfg=contexts/guard-size:0
    floor_run() { # OUT FLOOR-ARGS...
      local out=$1; shift
      measure "$out" smpirun -np "$p" -platform "$xml" -hostfile "${xml%.xml}.hostfile" -no-privatize \
        --cfg=smpi/display-timing:no --log=root.thres:warning $("$cli" platform --print-flags) \
        $guard "$build/collsim-floor" "$@"
    }
    for coll in ${colls//,/ }; do
      list=$algos
      [ "$coll" = allreduce ] && [ -n "$smpi" ] && list="$list,$(echo "$smpi" | sed 's/[^,]*/native:&/g')"
      for algo in ${list//,/ }; do
        native=0
        [ "${algo#native}" = "$algo" ] || native=1
        for size in ${sizes//,/ }; do
          b=$(bytes_of "$size")
          msgs=- usm=- fl=- rf=- fls=- rfs=- same=- hcpu=- trace=0
          if [ $native = 0 ] &&
            "$build/collsim-msgcount" "$coll" "$algo" "$p" "$b" "$tmp/trace" >"$tmp/m" 2>/dev/null; then
            read -r msgs _ <"$tmp/m"
            [ "$floor" = 1 ] && [ "$msgs" -gt 0 ] && trace=1
          fi
          # The row's commands in turn, --runs times (start-up, harness, case,
          # floors): a drift of the machine's speed reaches all of them alike.
          for ((i = 0; i < runs; i++)); do
            floor_run "$tmp/s" 0 0
            # SMPI's own algorithms crash on 0 bytes: no harness row for them
            [ $native = 0 ] && measure "$tmp/h" "$cli" bench --platform "$xml" --np "$p" \
              --coll "$coll" --algos "$algo" --bytes 0 --out "$tmp/h.csv" --redo --verify none
            measure "$tmp/c" "$cli" bench --platform "$xml" --np "$p" --coll "$coll" --algos "$algo" \
              --bytes "$b" --out "$tmp/c.csv" --redo --verify none
            if [ $trace = 1 ]; then
              floor_run "$tmp/f" --trace "$tmp/trace"
              floor_run "$tmp/g" --trace "$tmp/trace" sleep time
            fi
          done
          summary "$tmp/s"
          read -r start _ <"$tmp/s"
          summary "$tmp/c"
          read -r cpu pss <"$tmp/c"
          if [ $native = 0 ]; then
            summary "$tmp/h"
            read -r hcpu _ <"$tmp/h"
          fi
          [ "$msgs" != - ] &&
            usm=$(awk -v c="$cpu" -v s="$start" -v m="$msgs" 'BEGIN { printf "%.1f", (m > 0 ? 1e6 * (c - s) / m : 0) }')
          if [ $trace = 1 ]; then
            per_msg() { awk -v c="$1" -v s="$start" -v m="$msgs" 'BEGIN { printf "%.1f", 1e6 * (c - s) / m }'; }
            ratio() { awk -v a="$usm" -v b="$1" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
            summary "$tmp/f"
            read -r fcpu _ <"$tmp/f"
            fl=$(per_msg "$fcpu") rf=$(ratio "$fl")
            summary "$tmp/g"
            read -r fcpu _ <"$tmp/g"
            fls=$(per_msg "$fcpu") rfs=$(ratio "$fls")
            # the replay's simulated time against the bench row's (its median, column 6)
            same=$(awk -F, -v t="$(grep -E '^[0-9.e+-]+$' "$tmp/g.log" | tail -1)" \
              '!/^#/ && NF > 6 { c = $6 } END { d = (c > 0 ? (t - c) / c : 1); if (d < 0) d = -d;
                if (d < 1e-9) print "yes"; else printf "%.1e\n", d }' "$tmp/c.csv")
          fi
          hr=-
          [ "$hcpu" != - ] && hr=$(awk -v h="$hcpu" -v c="$cpu" -v s="$start" 'BEGIN { printf "%.2f", (c > s ? (h - s) / (c - s) : 0) }')
          printf '%-6s %6d %-21s %-12s %5s %8s %8s %9s %8s %9s %7s %8s %8s %7s %8s %7s %7s\n' "$plat" \
            "$p" "$coll" "$algo" "$size" "$cpu" "$pss" "$msgs" "$start" "$hcpu" "$hr" "$usm" "$fl" \
            "$rf" "$fls" "$rfs" "$same"
        done
      done
    done
  done
done
