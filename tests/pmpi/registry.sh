# Sourced by tests/pmpi/run.sh and tests/conformance/run.sh (bash): the
# registry as the PMPI runs need it, from `collsim list --csv`.
#   load_registry CLI  fills algos[coll] (its algorithms besides native, in
#                      registry order), exact[coll:algo]=1 for algorithms
#                      whose restrictions say "exact op" (CS_ASSOCIATIVE)
#                      and rounds (the most algorithms of one collective);
#                      exits on an empty registry.
#   setting J COLL     the algorithm of COLL in round J (cycling).
declare -A algos exact
rounds=0
load_registry() {
  local coll algo restr c
  while IFS=, read -r coll algo _ restr _; do
    [ "$coll" = collective ] || [ "$algo" = native ] && continue
    algos[$coll]="${algos[$coll]:-} $algo"
    case $restr in *exact*) exact[$coll:$algo]=1 ;; esac
  done < <("$1" list --csv)
  for c in "${!algos[@]}"; do
    set -- ${algos[$c]}
    [ $# -gt $rounds ] && rounds=$#
  done
  [ $rounds -gt 0 ] || { echo "FAIL: no algorithms in '$1 list --csv'"; exit 1; }
}
setting() {
  local j=$1 c=$2
  set -- ${algos[$c]}
  shift $((j % $#))
  echo "$1"
}
