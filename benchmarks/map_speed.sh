#!/usr/bin/env bash
# Speed of `collsim map` from the models (not a test). Times the map of
# issue 30 (every registered allreduce algorithm, p = 2..512, 8 B..8 MiB:x2,
# both pictures drawn) as a whole process with /usr/bin/time: wall and CPU
# seconds and peak memory, beside a baseline run of the same map, and their
# ratio baseline / this. The baseline is, by default, this build with one
# worker process (--jobs 1); with --baseline CLI another build's collsim-cli
# (e.g. the commit before a change), run with its defaults. Both runs must
# write the same raw file (the script says whether they do).
# With --per-algo, each candidate alone (one worker) is timed too: where the
# time goes.
# Target (issue 30): under 10 s on a 2-core machine.
#
# usage: benchmarks/map_speed.sh [--np LIST] [--bytes LIST] [--coll C]
#          [--baseline CLI] [--per-algo]
# e.g.   git worktree add /tmp/base <commit> && cmake -S /tmp/base -B /tmp/base/build &&
#        cmake --build /tmp/base/build --target collsim-cli &&
#        nice benchmarks/map_speed.sh --baseline /tmp/base/build/collsim-cli
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
np=2-512 bytes=8-8M coll=allreduce base="" per=0
while [ $# -gt 0 ]; do
  case $1 in
  --np) np=$2 && shift ;;
  --bytes) bytes=$2 && shift ;;
  --coll) coll=$2 && shift ;;
  --baseline) base=$2 && shift ;;
  --per-algo) per=1 ;;
  *)
    echo "map_speed.sh: unknown option '$1' (valid: --np --bytes --coll --baseline --per-algo)" >&2
    exit 2
    ;;
  esac
  shift
done
if [ -n "$base" ] && [ ! -x "$base" ]; then
  echo "map_speed.sh: --baseline '$base' is not an executable collsim-cli" >&2
  exit 2
fi
# The front door builds what is out of date; the CLI itself is timed.
[ -n "${COLLSIM_BUILD:-}" ] || "$here/collsim" list >/dev/null
cli="${COLLSIM_BUILD:-$here/build}/collsim-cli"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# timed NAME CLI ARGS...: prints "wall_s cpu_s peak_MiB" of one map run into $tmp/NAME
timed() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$tmp/$name.time" "$@" --coll "$coll" --np "$np" \
    --bytes "$bytes" --out "$tmp/$name" --quiet --redo >"$tmp/$name.log" 2>&1 || {
    echo "map_speed.sh: $* failed:" >&2
    cat "$tmp/$name.log" >&2
    exit 1
  }
  awk '{ printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }' "$tmp/$name.time"
}

echo "# $(uptime)"
echo "# collsim map --coll $coll --np $np --bytes $bytes (models, every collsim algorithm, pictures)"
read -r w c m < <(timed this "$cli" map)
if [ -n "$base" ]; then
  read -r bw bc bm < <(timed base "$base" map)
  blabel="baseline $base"
else
  read -r bw bc bm < <(timed base "$cli" map --jobs 1)
  blabel="baseline: this build, --jobs 1"
fi
same=identical
cmp -s "$tmp/this/map-$coll-raw.csv" "$tmp/base/map-$coll-raw.csv" || same=DIFFER
printf '%-34s %9s %9s %9s\n' run wall_s cpu_s peak_MiB
printf '%-34s %9s %9s %9s\n' "this build" "$w" "$c" "$m"
printf '%-34s %9s %9s %9s\n' "$blabel" "$bw" "$bc" "$bm"
printf '%-34s %9.2f %9.2f %9.2f\n' "ratio baseline / this" "$(echo "$bw / $w" | bc -l)" \
  "$(echo "$bc / $c" | bc -l)" "$(echo "$bm / $m" | bc -l)"
echo "raw files: $same; target: wall_s < 10"
if [ $per = 1 ]; then
  printf '\n%-20s %9s %9s\n' candidate wall_s cpu_s
  for a in $("$cli" list --csv | awk -F, -v c="$coll" '$1 == c && $2 != "native" { print $2 }'); do
    read -r aw ac _ < <(timed "a-$a" "$cli" map --jobs 1 --no-plots --algos "$a")
    printf '%-20s %9s %9s\n' "$a" "$aw" "$ac"
  done
fi
