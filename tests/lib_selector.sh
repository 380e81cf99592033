#!/usr/bin/env bash
# Proves collsim's reproduction of SMPI 3.32's selector decisions
# (sim/libalgo.c): for every selector SEL (default, ompi, mpich, impi and,
# mvapich2 by default), collective (all that SMPI selects for, by default) and p of the
# grid, the
# bench CSV of lib:SEL names the algorithm that ran (column algo_ran), and
# the simulated time of lib:SEL at (coll, p, size) equals the time of the
# library forced to that algorithm (--cfg=smpi/<collective>:NAME) under the
# same selector, at sizes on both sides of every threshold of the
# selectors' rules, to 1e-12 s + 1e-9 relative (what is left is the
# rounding of the absolute clock, which stands at seconds: up to ~1e-14 s;
# two algorithms differ by at least gamma x 1 byte = 1e-9 s here). A wrong prediction runs another algorithm,
# whose time differs on an abg platform with gamma > 0 (the test fails).
# The same selector for the other collectives matters: some algorithms call
# other collectives through it (redbcast: reduce + bcast; lr: the selected
# allreduce on the remainder when p does not divide the count), so plain
# native:NAME (default selector) can differ by a few alphas.
# Sizes: on both sides of every limit of the rules, read as each rule reads
# it (total bytes, bytes of one block, total / p, total elements: --type
# byte makes elements bytes); the Intel MPI limits come from the same table
# collsim uses (sim/impi_tables.def), for the ppn SMPI sees here (abg: one
# rank per host, ppn 1) and the band of p.
# The automatic selector is not predicted (SMPI 3.32 runs every algorithm
# in turn inside each call; libalgo.h CS_LIB_AUTOMATIC) and cannot be run
# here: some of its algorithms deadlock (all sizes tried, p = 3 and 12).
# usage: lib_selector.sh CLI P_LIST [SELECTORS] [COLLS]
#   e.g. lib_selector.sh build/collsim-cli 2-17,31-33,64 default,ompi,mpich,impi
set -uo pipefail
cli=$1 plist=$2
sels=${3:-default,ompi,mpich,impi,mvapich2}
colls=${4:-allreduce,reduce_scatter_block,reduce,reduce_scatter,allgather,allgatherv,gather,scatter,bcast}
impi_def="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/sim/impi_tables.def"
mv2_def="${impi_def%/*}/mvapich2_tables.def"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# 2-5,7 -> 2 3 4 5 7
ps=$(echo "$plist" | tr , '\n' | awk -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) print i }')
maxp=$(echo "$ps" | sort -n | tail -1)
"$cli" platform abg --np "$maxp" --gamma 1e-9 --out "$tmp/abg.xml" --hostfile "$tmp/abg.hostfile" || exit 1
# Every size limit of the ompi and mpich rules (mpich's reduce_scatter and
# allgatherv count elements, 524288 and 81920: bytes here, --type byte).
# mvapich2's reduce_scatter serves bytes <= max: limits max + 1.
limits="2 4 8 16 32 64 65 128 129 256 257 512 1024 1025 2048 4096 8192 12288 16384 32768 65536 65537 81920 81921 131072 131073 262144 262145 524288 524289 1048576"
# impi_limits COLL P: the limits of the Intel MPI rule for p (ppn 1).
impi_limits() {
  local t=$1
  case $t in reduce_scatter_block) t=reduce_scatter ;; esac
  awk -v c="$t" -v p="$2" -F'"' 'index($1, "CS_IMPI(" c ", 1, ") == 1 && !done {
      split($1, f, ","); if (p + 0 <= f[3] + 0) { n = split($2, r, " ");
        for (i = 1; i < n; i++) { split(r[i], x, ":"); print x[1] } done = 1 } }' "$impi_def"
}
# mv2_limits COLL: every limit of the MVAPICH2 rules of the collective
# (sim/mvapich2_tables.def, all tables), plus the ones of the hand list.
mv2_limits() {
  local t=$1
  case $t in reduce_scatter_block) t=reduce_scatter ;; esac
  { awk -v c="$t" -F'"' 'index($1, "CS_MV2(" c ", ") == 1 {
      n = split($2 " " $4, r, " "); for (i = 1; i <= n; i++) { split(r[i], x, ":"); if (x[1] != "*") print x[1] } }' "$mv2_def"
    echo "$limits" | tr ' ' '\n'; } | sort -nu | paste -sd' '
}
fail=0 checked=0 unproven=0
for coll in ${colls//,/ }; do
  smpicoll=$coll
  [ "$coll" = reduce_scatter_block ] && smpicoll=reduce_scatter
  for p in $ps; do
    for sel in ${sels//,/ }; do
    lims=$limits
    [ "$sel" = impi ] && lims=$(impi_limits "$coll" "$p")
    [ "$sel" = mvapich2 ] && lims=$(mv2_limits "$coll")
    [ "$sel" = default ] && lims=""
    # Sizes just below and at each limit l, as the rules read them: l
    # total bytes (vector and split collectives), multiples of p around l
    # (block collectives, whose m is p blocks), p blocks of l - 1 and l
    # bytes (block collectives' per-block rules) and p l - 1, p l
    # (allgatherv's total / p); plus a few sizes for the default selector.
    sizes=$(for l in $lims 1000 100000; do
      case $coll in
        reduce_scatter_block | allgather | gather | scatter)
          echo $((((l - 1) / p) * p)) $((((l + p - 1) / p) * p)) $((p * (l - 1))) $((p * l)) ;;
        # allreduce lr (and ompi_ring_segmented, which falls back to lr)
        # reduces count % p elements at the end through the selector in
        # force, which a forced algorithm replaces: multiples of p around l.
        allreduce) echo $((((l - 1) / p) * p)) $((((l + p - 1) / p) * p)) ;;
        # bcast NTSL and NTSB send count % 8192 bytes above 8192 through the
        # selector in force, too: multiples of 8192 around l above 8192.
        bcast)
          if [ "$l" -le 8192 ]; then echo $((l - 1)) "$l"
          else echo $((((l - 1) / 8192) * 8192)) $((((l + 8191) / 8192) * 8192)); fi ;;
        allgatherv) echo $((l - 1)) "$l" $((p * l - 1)) $((p * l)) ;;
        *) echo $((l - 1)) "$l" ;;
      esac
    done | tr ' ' '\n' | awk '$1 > 0' | sort -nu | paste -sd,)
      lib="$tmp/lib-$sel-$coll-$p.csv"
      # --warmup 1: a first call may set up the communicator's node
      # structure (SMPI's init_smp), whichever size it happens at.
      if ! "$cli" bench --platform "$tmp/abg.xml" --np "$p" --coll "$coll" --algos "lib:$sel" \
           --bytes "$sizes" --warmup 1 --quiet --out "$lib" 2>"$tmp/err"; then
        echo "FAIL bench lib:$sel $coll p=$p:"; cat "$tmp/err"; fail=$((fail + 1)); continue
      fi
      # Columns by name: bytes, median_s, algo_ran.
      rows=$(awk -F, '/^#/ { next } !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
                      { print $c["bytes"], $c["median_s"], $c["algo_ran"] }' "$lib")
      if [ -z "$rows" ]; then echo "FAIL lib:$sel $coll p=$p: no rows"; fail=$((fail + 1)); continue; fi
      # A two-level name ("ALGORITHM inter:X intra:Y", the mvapich2 rules)
      # cannot be forced: no --cfg sets the functions SMPI reads from
      # globals; those rows are counted, not proven.
      twolevel=$(echo "$rows" | awk '$4 ~ /^(inter|intra):/' | wc -l)
      unproven=$((unproven + twolevel))
      rows=$(echo "$rows" | awk '$4 !~ /^(inter|intra):/')
      for name in $(echo "$rows" | awk '{ print $3 }' | sort -u); do
        if [ -z "$name" ]; then echo "FAIL lib:$sel $coll p=$p: a row without algo_ran"; fail=$((fail + 1)); continue; fi
        nsz=$(echo "$rows" | awk -v n="$name" '$3 == n { print $1 }' | paste -sd,)
        nat="$tmp/nat-$sel-$coll-$p-$name.csv"
        if ! "$cli" bench --platform "$tmp/abg.xml" --np "$p" --coll "$coll" --algos native \
             --cfg "--cfg=smpi/coll-selector:$sel --cfg=smpi/$smpicoll:$name" --bytes "$nsz" --warmup 1 --quiet --out "$nat" 2>"$tmp/err"; then
          echo "FAIL bench native $coll:$name p=$p:"; cat "$tmp/err"; fail=$((fail + 1)); continue
        fi
        res=$(awk -F, -v n="$name" -v sel="$sel" -v coll="$coll" -v p="$p" '
          FNR == 1 { f++ }
          /^#/ { next }
          !h[f] { for (i = 1; i <= NF; i++) c[f, $i] = i; h[f] = 1; next }
          f == 1 && $c[1, "algo_ran"] == n { lib[$c[1, "bytes"]] = $c[1, "median_s"] }
          f == 2 { nat[$c[2, "bytes"]] = $c[2, "median_s"]; if ($c[2, "algo_ran"] != n) { print "FAIL native row names " $c[2, "algo_ran"] " not " n; bad++ } }
          END {
            for (b in lib) {
              k++
              if (!(b in nat)) { print "FAIL " coll " p=" p " " b " B: no native:" n " row"; bad++ }
              else if (lib[b] - nat[b] > 1e-12 + 1e-9 * nat[b] || nat[b] - lib[b] > 1e-12 + 1e-9 * nat[b]) { print "FAIL " coll " p=" p " " b " B: lib:" sel " " lib[b] " s, native:" n " " nat[b] " s"; bad++ }
            }
            printf "CHECKED %d\n", k; exit bad > 0
          }' "$lib" "$nat")
        st=$?
        checked=$((checked + $(echo "$res" | awk '/^CHECKED/ { print $2 }')))
        if [ $st -ne 0 ]; then echo "$res" | grep FAIL; fail=$((fail + 1)); fi
      done
    done
  done
done
echo "lib_selector: $checked (selector, collective, p, size) cases, lib:SEL time == time of the named algorithm; $fail failures; $unproven rows named two-level (not provable by forcing)"
[ $fail -eq 0 ] && [ $checked -gt 0 ]
