#!/usr/bin/env bash
# The circulant paper's library comparisons, simulated (docs/library.md):
# MPI_Reduce_scatter_block, circulant against SMPI's reproductions of the
# libraries the paper measured, on the named machines in the paper's
# process configurations that a 2-core machine can simulate:
#   Irene 256 x 1 (paper Fig. 3: Open MPI 4.1.4; lib:ompi),
#   Theta 150 x 1 (paper Fig. 4/5 configuration; Cray MPICH 7.7.14; lib:mpich),
#   Hydra 36 x 32 (paper Fig. 6: Open MPI, MPICH, MVAPICH2, Intel MPI;
#                  lib:ompi, lib:mpich, lib:mvapich2, lib:impi).
# Each library runs twice: with its reductions and copies charged like
# collsim's kernels' (the default) and free (--lib-charge off, SMPI's own
# behaviour), so the table shows what the charging changes.
# Prints one row per (machine, library, size): times, speedup of circulant
# over the library both ways, the algorithm SMPI ran (algo_ran) and the
# bytes it reduced and copied in one call (all processes, charged run); the
# CSVs stay in OUT (default results/paper_library).
# usage: benchmarks/paper_library.sh [--quick | --big] [--only M1,M2] [--sizes LIST] [--out DIR]
#   --quick: Irene 64 x 1, Theta 48 x 1, Hydra 8 x 4 (for a first look)
#   --big:   the paper's multi-rank-per-node configurations: Hydra 36 x 32
#            (1152 ranks, Fig. 6), Irene 100 x 48 (4800, Fig. 3), Theta
#            128 x 64 (8192, Figs. 4-5). Not in CI: each is one simulation
#            per library and size of up to 8192 ranks (docs/library.md gives
#            the CPU time measured); run them niced, one at a time, e.g.
#              nice benchmarks/paper_library.sh --big --only hydra --sizes 4K,256K,2M
#   --only:  only these machines (irene, theta, hydra); a rerun over the same
#            DIR resumes the CSVs and only prints the table again
#   --sizes: the sizes (collsim's size syntax; default 8,64,512,4K,32K,256K,2M)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out=$here/results/paper_library quick=0 big=0 only=irene,theta,hydra
sizes=8,64,512,4K,32K,256K,2M
usage="usage: $0 [--quick | --big] [--only M1,M2] [--sizes LIST] [--out DIR]"
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --big) big=1 ;;
    --out) out=$2; shift ;;
    --only) only=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
[ $quick = 1 ] && [ $big = 1 ] && { echo "$0: --quick and --big exclude each other" >&2; exit 2; }
mkdir -p "$out"
# machine nodes ppn libraries
hydra_libs=lib:ompi,lib:mpich,lib:mvapich2,lib:impi
if [ $quick = 1 ]; then
  configs=("irene 64 1 lib:ompi" "theta 48 1 lib:mpich" "hydra 8 4 $hydra_libs")
elif [ $big = 1 ]; then
  configs=("irene 100 48 lib:ompi" "theta 128 64 lib:mpich" "hydra 36 32 $hydra_libs")
else
  configs=("irene 256 1 lib:ompi" "theta 150 1 lib:mpich" "hydra 36 32 $hydra_libs")
fi
keep=()
for c in "${configs[@]}"; do [[ ,$only, == *,${c%% *},* ]] && keep+=("$c"); done
[ ${#keep[@]} -gt 0 ] || { echo "$0: --only $only: valid machines: irene, theta, hydra" >&2; exit 2; }
configs=("${keep[@]}")
for c in "${configs[@]}"; do
  read -r machine nodes ppn libs <<<"$c"
  np=$((nodes * ppn)) tag=$machine-${nodes}x$ppn
  xml=$out/$tag.xml
  [ -s "$xml" ] || "$here/collsim" platform "$machine" --nodes "$nodes" --ppn "$ppn" --out "$xml" --hostfile "$out/$tag.hostfile"
  "$here/collsim" bench --platform "$xml" --np $np --coll reduce_scatter_block --algos "circulant,$libs" \
    --bytes $sizes --quiet --out "$out/$tag-charged.csv"
  "$here/collsim" bench --platform "$xml" --np $np --coll reduce_scatter_block --algos "$libs" \
    --bytes $sizes --quiet --lib-charge off --out "$out/$tag-free.csv"
done
# The table: columns looked up by name (docs/csv.md).
printf "%-16s %-13s %8s %12s %12s %12s %9s %9s  %-28s %13s %s\n" machine library bytes circ_s lib_s \
  lib_free_s speedup spd_free algo_ran lib_reduced_B lib_copied_B
for c in "${configs[@]}"; do
  read -r machine nodes ppn libs <<<"$c"
  tag=$machine-${nodes}x$ppn
  awk -F, -v tag="$tag" '
    FNR == 1 { f++; h = 0 }
    /^#/ { next }
    !h { for (i = 1; i <= NF; i++) col[$i] = i; h = 1; next }
    { k = $col["algo"] SUBSEP $col["bytes"]; t[f, k] = $col["median_s"]; algo[$col["algo"]] = 1; by[$col["bytes"]] = 1
      if (f == 1) { ran[k] = $col["algo_ran"]; red[k] = $col["reduced_bytes"]; cop[k] = $col["copied_bytes"] } }
    END {
      n = 0; for (b in by) bs[++n] = b + 0
      for (i = 2; i <= n; i++) for (j = i; j > 1 && bs[j - 1] > bs[j]; j--) { x = bs[j]; bs[j] = bs[j - 1]; bs[j - 1] = x }
      for (a in algo) {
        if (a == "circulant") continue
        for (i = 1; i <= n; i++) {
          b = bs[i]; k = a SUBSEP b; kc = "circulant" SUBSEP b
          if (b == 0) continue # m < p: empty blocks
          if (!((1, kc) in t) || !((1, k) in t)) continue
          fr = (2, k) in t ? t[2, k] : ""
          printf "%-16s %-13s %8d %12.6g %12.6g %12s %9.3f %9s  %-28s %13s %s\n", tag, a, b, t[1, kc], t[1, k], \
            fr == "" ? "-" : sprintf("%.6g", fr), t[1, k] / t[1, kc], fr == "" ? "-" : sprintf("%.3f", fr / t[1, kc]), ran[k], red[k], cop[k]
        }
      }
    }' "$out/$tag-charged.csv" "$out/$tag-free.csv"
done
echo "speedup = lib_s / circ_s (> 1: circulant faster); spd_free: the library's reductions and copies free (SMPI's behaviour)"
# The paper's claims, from their one table (findings/claims.def).
echo "paper's claims (collsim list --claims):"
"$here/collsim" list --claims | sed 's/^/  /'
