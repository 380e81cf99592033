#!/usr/bin/env bash
# The demo's library side is the selectors of real libraries as SMPI
# reproduces them (ompi, mpich, mvapich2, impi), never SMPI's own naive
# default selector. Checked in what the demo RAN, not in the help text that
# prints the list the demo uses: the bench CSVs of a finished demo (DIR, the
# output demo_quick leaves) must hold exactly the registry's non-native
# algorithms of their collective (`collsim list --csv`) and these four
# selectors, each with rows (the library's runs on hydra with one host per
# node: the selectors only); the help must name the same selectors, and
# lib:default only as not shown.
# usage: demo_libs.sh CLI DIR
set -u
cli=$1 dir=$2
fail=0
libs="lib:impi lib:mpich lib:mvapich2 lib:ompi"
n=0
for csv in "$dir"/bench-*.csv; do
  [ -f "$csv" ] || continue
  n=$((n + 1))
  coll=$(awk -F, '!/^#/ && $1 != "coll" { print $1; exit }' "$csv")
  got=$(awk -F, '!/^#/ && $1 != "coll" { print $2 }' "$csv" | sort -u | tr '\n' ' ')
  # The machine with one host per node (bench-hydra8x4nodes-*) times the library only.
  ours=1
  case "$csv" in *nodes-*) ours=0 ;; esac
  want=$({ [ $ours = 1 ] && "$cli" list --csv | awk -F, -v c="$coll" 'NR > 1 && $1 == c && $3 != "native" { print $2 }'
    tr ' ' '\n' <<<"$libs"; } | sort -u | tr '\n' ' ')
  if [ -n "$coll" ] && [ "$got" = "$want" ]; then
    echo "ok: $(basename "$csv"): $got"
  else
    echo "FAILED: $(basename "$csv") ($coll) ran '$got', want '$want'"
    fail=1
  fi
done
[ "$n" -ge 6 ] || { echo "FAILED: $n bench CSVs in $dir (want 6: two collectives on two machines, and the library's on hydra with one host per node)"; fail=1; }
out=$("$cli" demo --help)
named=$(grep -o 'lib:[a-z0-9]*' <<<"$out" | grep -v '^lib:default$' | sort -u | tr '\n' ' ')
[ "$named" = "$libs " ] && echo "ok: the help names the selectors the demo ran" ||
  { echo "FAILED: the help names '$named', the demo runs '$libs '"; fail=1; }
tr -s ' \n' ' ' <<<"$out" | grep -q "lib:default, a naive reduce + scatterv, stands for no library and is not shown" &&
  echo "ok: lib:default is labelled, not shown" || { echo "FAILED: lib:default not labelled as not shown"; fail=1; }
exit $fail
