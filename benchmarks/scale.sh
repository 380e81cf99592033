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
#             algos/local.c charges it (one sleep per batch of work, before
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
# --runs N runs every measured command N times and keeps the least CPU time
# (and the largest Pss): the figures of docs/scale.md from 2026-11-25 on are
# the best of 3.
# The issue's full matrix (hours of CPU, up to ~10 GiB for SMPI's rab):
#   nice benchmarks/scale.sh --np 1024,2048,4096,8192,16384,32768
# It has not been run whole. The sample run for issue 13 (one invocation per
# row, figures in docs/scale.md), covering every target:
#   --platforms theta --np 8192 --colls C --algos A --bytes 1M --smpi ""
#       for C in allreduce, reduce_scatter_block and A in circulant, ceilhalf,
#       butterfly (CPU per message against the floors; 10 s, 1 GiB)
#   --platforms theta --np 8192 --colls allreduce --algos circulant --bytes 1K
#       --smpi ""   (the harness's share, h/case)
#   --platforms abg --np 32768 --colls allreduce --algos circulant --bytes 1K
#       --smpi "" --no-floor   (60 s, 4 GiB)
#   --platforms abg --np 32768 --colls reduce_scatter_block --algos circulant
#       --bytes 1M --smpi "" --no-floor   (8 GiB)
#   --platforms theta --np 8192 --colls C --algos A --bytes 1K --smpi ""
#       for the same C and A (2026-11-25)
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
# measure OUT CMD...: runs CMD --runs times, writes "cpu_s pss_mib" to OUT:
# the least CPU seconds of the runs and the largest peak Pss; CMD's output
# (of its last run) is in OUT.log.
measure() {
  local out=$1; shift
  local i pid pss best=
  for ((i = 0; i < runs; i++)); do
    /usr/bin/time -f '%U %S' -o "$out.time" "$@" >"$out.log" 2>&1 &
    pid=$!
    pss=$(pss_tree $pid)
    wait $pid || { echo "scale.sh: failed: $*" >&2; tail -5 "$out.log" >&2; return 1; }
    best=$(awk -v p="$pss" -v b="$best" '{ c = $1 + $2; m = p / 1024
      if (b != "") { split(b, o, " "); if (o[1] + 0 < c) c = o[1]; if (o[2] + 0 > m) m = o[2] }
      printf "%.2f %.0f\n", c, m }' "$out.time")
  done
  echo "$best" >"$out"
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
    floor_run() { # OUT FLOOR-ARGS...
      local out=$1; shift
      measure "$out" smpirun -np "$p" -platform "$xml" -hostfile "${xml%.xml}.hostfile" -no-privatize \
        --cfg=smpi/display-timing:no --log=root.thres:warning $("$cli" platform --print-flags) \
        "$build/collsim-floor" "$@"
    }
    floor_run "$tmp/s" 0 0
    read -r start _ <"$tmp/s"
    for coll in ${colls//,/ }; do
      list=$algos
      [ "$coll" = allreduce ] && [ -n "$smpi" ] && list="$list,$(echo "$smpi" | sed 's/[^,]*/native:&/g')"
      for algo in ${list//,/ }; do
        hcpu=- # SMPI's own algorithms crash on 0 bytes
        if [ "${algo#native}" = "$algo" ]; then
          measure "$tmp/h" "$cli" bench --platform "$xml" --np "$p" --coll "$coll" --algos "$algo" \
            --bytes 0 --out "$tmp/h.csv" --redo --verify none
          read -r hcpu _ <"$tmp/h"
        fi
        for size in ${sizes//,/ }; do
          b=$(bytes_of "$size")
          measure "$tmp/c" "$cli" bench --platform "$xml" --np "$p" --coll "$coll" --algos "$algo" \
            --bytes "$b" --out "$tmp/c.csv" --redo --verify none
          read -r cpu pss <"$tmp/c"
          msgs=- usm=- fl=- rf=- fls=- rfs=- same=-
          if [ "${algo#native}" = "$algo" ] &&
            "$build/collsim-msgcount" "$coll" "$algo" "$p" "$b" "$tmp/trace" >"$tmp/m" 2>/dev/null; then
            read -r msgs _ <"$tmp/m"
            usm=$(awk -v c="$cpu" -v s="$start" -v m="$msgs" 'BEGIN { printf "%.1f", (m > 0 ? 1e6 * (c - s) / m : 0) }')
            if [ "$floor" = 1 ] && [ "$msgs" -gt 0 ]; then
              per_msg() { awk -v c="$1" -v s="$start" -v m="$msgs" 'BEGIN { printf "%.1f", 1e6 * (c - s) / m }'; }
              ratio() { awk -v a="$usm" -v b="$1" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
              floor_run "$tmp/f" --trace "$tmp/trace"
              read -r fcpu _ <"$tmp/f"
              fl=$(per_msg "$fcpu") rf=$(ratio "$fl")
              floor_run "$tmp/f" --trace "$tmp/trace" sleep time
              read -r fcpu _ <"$tmp/f"
              fls=$(per_msg "$fcpu") rfs=$(ratio "$fls")
              # the replay's simulated time against the bench row's (its median, column 6)
              same=$(awk -F, -v t="$(grep -E '^[0-9.e+-]+$' "$tmp/f.log" | tail -1)" \
                '!/^#/ && NF > 6 { c = $6 } END { d = (c > 0 ? (t - c) / c : 1); if (d < 0) d = -d;
                  if (d < 1e-9) print "yes"; else printf "%.1e\n", d }' "$tmp/c.csv")
            fi
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
