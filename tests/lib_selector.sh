#!/usr/bin/env bash
# Proves collsim's reproduction of SMPI 3.32's selector decisions
# (sim/libalgo.c): for every selector SEL, collective (allreduce,
# reduce_scatter_block, reduce by default) and p of the grid, the
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
# usage: lib_selector.sh CLI P_LIST [SELECTORS] [COLLS]
#   e.g. lib_selector.sh build/collsim-cli 2-17,31-33,64 default,ompi,mpich
set -uo pipefail
cli=$1 plist=$2
sels=${3:-default,ompi,mpich}
colls=${4:-allreduce,reduce_scatter_block,reduce}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# 2-5,7 -> 2 3 4 5 7
ps=$(echo "$plist" | tr , '\n' | awk -F- '{ for (i = $1; i <= ($2 == "" ? $1 : $2); i++) print i }')
maxp=$(echo "$ps" | sort -n | tail -1)
"$cli" platform abg --np "$maxp" --gamma 1e-9 --out "$tmp/abg.xml" --hostfile "$tmp/abg.hostfile" || exit 1
# Every size limit of the rules (bytes; mpich's reduce_scatter counts
# elements, 524288, and they are bytes here: --type byte).
limits="8 16 64 128 256 512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576"
fail=0 checked=0
for coll in ${colls//,/ }; do
  smpicoll=$coll
  [ "$coll" = reduce_scatter_block ] && smpicoll=reduce_scatter
  for p in $ps; do
    # Sizes just below and at each limit (multiples of p for the block
    # collective, whose m is p blocks), plus one above the mpich limit.
    sizes=$(for l in $limits 524289; do
      if [ "$coll" = reduce_scatter_block ]; then
        echo $((((l - 1) / p) * p)) $((((l + p - 1) / p) * p))
      else
        echo $((l - 1)) "$l"
      fi
    done | tr ' ' '\n' | awk '$1 > 0' | sort -nu | paste -sd,)
    for sel in ${sels//,/ }; do
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
echo "lib_selector: $checked (selector, collective, p, size) cases, lib:SEL time == time of the named algorithm; $fail failures"
[ $fail -eq 0 ] && [ $checked -gt 0 ]
