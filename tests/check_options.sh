#!/usr/bin/env bash
# check_options: an option combination must produce exactly the cases it
# names. `check --np 5 --coll allgatherv,allreduce,reduce_scatter --layout
# rev,one --in-place`: a layout list without "even" still runs the
# collectives that have no blocks (allreduce), once, next to the
# v-collectives; reduce_scatter has no displacements, so no "rev" layout.
# The expected number of cases is computed here from the registry
# (`collsim list --csv`: algorithms per collective) and check's documented
# matrix (--help), not read from check's own tables:
#   per (collective, algorithm): types x distinct counts x layouts
#   types: int, double, byte, vec, noncomm (noncomm only where it reduces)
#   counts at p = 5: 0, 1, p-1, p, p+1, 1009 (all distinct)
# plus the 3 checks every run makes once (the kernel context, the count
# guards, the dispatcher's table). Each collective is also run alone, so a
# case that moves from one collective to another cannot hide.
# usage: check_options.sh CLI
set -u
cli=$1
fail=0
algos_of() { "$cli" list --csv | awk -F, -v c="$1" 'NR > 1 && $1 == c { n++ } END { print n + 0 }'; }
# cases COLL NLAYOUTS REDUCES: the cases of one collective at p = 5, in place
cases() {
  local types=4
  [ "$3" = 1 ] && types=5
  echo $(($(algos_of "$1") * types * 6 * $2))
}
passed() { # the "N passed, M failed" of a run, or "failed" lines
  local out
  out=$("$cli" check --np 5 --in-place "$@" 2>/dev/null)
  local st=$?
  local last; last=$(tail -1 <<<"$out")
  [ $st = 0 ] || { echo "status $st: $last"; return; }
  echo "$last"
}
extra=3
ag=$(cases allgatherv 2 0) ar=$(cases allreduce 1 1) rs=$(cases reduce_scatter 1 1)
for a in allgatherv allreduce reduce_scatter; do
  [ "$(algos_of $a)" -ge 2 ] || { echo "FAILED: collsim list names < 2 algorithms of $a"; fail=1; }
done
want() { # want LABEL EXPECTED ARGS...
  local label=$1 n=$2; shift 2
  local got; got=$(passed "$@")
  if [ "$got" = "$((n + extra)) passed, 0 failed" ]; then
    echo "ok: $label: $got"
  else
    echo "FAILED: $label: got '$got', want '$((n + extra)) passed, 0 failed' (check $*)"
    fail=1
  fi
}
want "the combination" $((ag + ar + rs)) --coll allgatherv,allreduce,reduce_scatter --layout rev,one
want "allreduce runs once under a layout list without even" "$ar" --coll allreduce --layout rev,one
want "allreduce, default layouts" "$ar" --coll allreduce
want "allgatherv, two layouts" "$ag" --coll allgatherv --layout rev,one
want "reduce_scatter: one layout, no rev" "$rs" --coll reduce_scatter --layout rev,one
exit $fail
