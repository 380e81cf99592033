#!/usr/bin/env bash
# One registry, really: no C source outside the allowlist below names an
# algorithm or a family of algos/registry.def. Every list of algorithms (help
# texts, valid names, Table I columns, plot colours, the demo's runs) must be
# derived from the registry's rows, so that adding a row is one line there
# and one kernel file.
#
# What is searched: every *.c and *.h file of the source tree (git ls-files,
# else find), with comments removed by the C preprocessor (gcc
# -fpreprocessed: comments may name algorithms; code and strings may not).
# What is searched for: every algorithm and family name of registry.def but
# "native" (the MPI library's own collective, a word with other meanings), as
# a substring, so identifiers such as cs_allreduce_NAME count too; except the
# names that are words of the domain the issues prescribe (the full-lane and
# hierarchical decompositions `lane` and `hier` of issue 27, where lanecomm,
# "lanes" platforms and k-lane models are not algorithms): those count as a
# name of their own, not inside
# another word: as the string "lane" or a kernel-like identifier
# cs_..._lane (a variable named lane is the lane, not the algorithm).
#
# Removed everywhere before the search: the formula identifiers CS_F_<name>
# of registry.def's CS_FORMULA lines (the registry's formula field: code that
# picks rows by formula, as `collsim nodeaware` picks the NAP seed's three,
# derives them from the registry).
#
# The allowlist, each entry with its reason:
#   algos/<folder>/            the kernels (one folder per family or kind, e.g.
#                              algos/binomial/ holds the reduce row registered
#                              in the butterfly family): a kernel is named
#                              cs_<collective>_<algorithm>
#   algos/kernel.h             the kernels' shared header: parts one family
#                              lends another (e.g. a reduce-scatter core)
#   models/table1.c            the bodies of the closed-form formulas, one case
#                              per CS_F_<name> of registry.def's CS_FORMULA lines
#   models/schedules.c         one schedule generator per algorithm; goes away
#                              when the engine that prices the kernels' own
#                              execution replaces it (another branch)
#   tests/*.c                  expected outputs of the schedule tests
#   platforms/platgen.c        citations of the paper by its seed name only:
#                              "circulant-collectives-traff-2023 (circulant)",
#                              "nap-allreduce-bienz-2019 (NAP)"
#                              and "[circulant, Sec. ..." (removed before the
#                              search; any other mention there still fails)
#   platforms/*                the SimGrid host property "lane" (removed
#                              before the search)
#   sim/libalgo.c              SMPI's own algorithm names, which contain or are
#                              ours (ompi_butterfly, SMPI's allgather bruck): the
#                              names algos/smpi.def lists, and "ompi_*", are
#                              removed (whole words) before the search; any other
#                              mention still fails
#   models/mpirec/libcoll.c    the recording MPI's reproductions of SMPI's
#                              algorithms, named after them (bcast_binomial_tree):
#                              as sim/libalgo.c, with SMPI's names removed also
#                              inside identifiers
# usage: registry_names.sh SOURCE_DIR
set -uo pipefail
src=${1:-.}
cd "$src" || exit 2
def=algos/registry.def
[ -f "$def" ] || { echo "FAIL: no $def under $src"; exit 2; }
names=$(sed -n 's/^CS_\(ALGO\|COMPOSE\)([a-z_0-9]*, *\([a-z_0-9]*\), *"\([a-z_0-9]*\)".*/\2\n\3/p' "$def" |
  grep -vx native | sort -u)
[ -n "$names" ] || { echo "FAIL: read no algorithm names from $def"; exit 2; }
words='lane|hier'
pattern="$(grep -vxE "$words" <<<"$names" | paste -sd'|')|\"($words)\"|cs_[a-z_]+_($words)\\b"

allowed() { # allowed FILE: 0 if the whole file is on the allowlist
  local f=$1
  [[ $f == algos/*/* ]] && return 0
  case $f in
    algos/kernel.h | models/table1.c | models/schedules.c | tests/*.c) return 0 ;;
  esac
  return 1
}
strip() { # the code and strings of a C file, comments removed, line numbers kept
  command -v gcc >/dev/null || return 2
  gcc -fpreprocessed -dD -E -x c "$1" 2>/dev/null |
    awk '/^# [0-9]+ /{ line = $2; next } { print line ": " $0; line++ }'
}
citation='circulant-collectives-traff-2023 \(circulant\)|\[circulant, Sec\.|nap-allreduce-bienz-2019 \(NAP\)'
# SMPI's algorithm names, the words of the quoted lists of algos/smpi.def
smpi_names=$(grep -o '"[^"]*"' algos/smpi.def | tr -d '"' | tr ',' '\n' | grep -v '^$' | sort -u |
  paste -sd'|')
[ -n "$smpi_names" ] || { echo "FAIL: read no SMPI names from algos/smpi.def"; exit 2; }

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files '*.c' '*.h')
else
  files=$(find . -path ./build -prune -o \( -name '*.c' -o -name '*.h' \) -print | sed 's|^\./||')
fi
fail=0 scanned=0 allowhits=0
for f in $files; do
  [ -f "$f" ] || continue
  code=$(strip "$f") || { echo "FAIL: cannot strip comments (gcc missing?)"; exit 2; }
  if allowed "$f"; then
    grep -qE "$pattern" <<<"$code" && allowhits=$((allowhits + 1))
    continue
  fi
  scanned=$((scanned + 1))
  code=$(sed -E 's/\bCS_F_[a-z_0-9]+\b//g' <<<"$code")
  [[ $f == platforms/platgen.c ]] && code=$(sed -E "s/$citation//g" <<<"$code")
  # the platforms' SimGrid host property "lane" (a host's lane of its node)
  [[ $f == platforms/* ]] && code=$(sed -E 's/"lane"//g' <<<"$code")
  [[ $f == sim/libalgo.c ]] && code=$(sed -E "s/ompi_[a-z_]+//g; s/\\b($smpi_names)\\b//g" <<<"$code")
  [[ $f == models/mpirec/libcoll.c ]] && code=$(sed -E "s/ompi_[a-z_]+//g; s/($smpi_names)//g" <<<"$code")
  hits=$(grep -E "$pattern" <<<"$code")
  if [ -n "$hits" ]; then
    echo "FAIL: $f names an algorithm or family of $def (derive it from the registry):"
    sed "s|^|  $f:|" <<<"$hits"
    fail=1
  fi
done
# The search itself must work: the allowlisted kernels and formulas do name
# algorithms, so a search that finds nothing there is broken.
if [ "$allowhits" -eq 0 ]; then
  echo "FAIL: the search found no name even in the allowlisted files: it is broken"
  fail=1
fi
echo "registry_names: $scanned files searched for $(wc -w <<<"$names") names," \
  "$allowhits allowlisted files name them"
exit $fail
