# Sourced by tests/pmpi/run.sh and tests/conformance/run.sh (bash): the
# registry as the PMPI runs need it, from `collsim list --csv`.
#   load_registry CLI  fills algos[coll] (its algorithms besides native, in
#                      registry order), exact[coll:algo]=1 for algorithms
#                      whose restrictions say "exact op" (CS_ASSOCIATIVE)
#                      and rounds (the most algorithms of one collective);
#                      exits on an empty registry.
#   setting J COLL     the algorithm of COLL in round J (cycling).
#   round_list         the rounds to run: all, or the sample PMPI_ROUNDS
#                      names: N (the first N) or K/M (every round j with
#                      j mod M = K, e.g. 0/2 and 1/2 split them between two
#                      runs); exits on a malformed sample.
#   round_sample       checks PMPI_ROUNDS once (exits 2 if malformed) and,
#                      if set, says which rounds run.
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
round_list() {
  local spec=${PMPI_ROUNDS:-} j
  if [ -z "$spec" ]; then
    seq 0 $((rounds - 1))
  elif [[ $spec =~ ^[1-9][0-9]*$ ]]; then
    seq 0 $(((spec < rounds ? spec : rounds) - 1))
  elif [[ $spec =~ ^([0-9]+)/([1-9][0-9]*)$ ]] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ]; then
    for ((j = BASH_REMATCH[1]; j < rounds; j += BASH_REMATCH[2])); do echo $j; done
  else
    echo "FAIL: PMPI_ROUNDS=$spec: want N (the first N rounds) or K/M (rounds j with j mod M = K, K < M)" >&2
    exit 2
  fi
}
round_sample() {
  round_list >/dev/null || exit 2
  [ -z "${PMPI_ROUNDS:-}" ] ||
    echo "sampled (PMPI_ROUNDS=$PMPI_ROUNDS): rounds $(round_list | paste -sd' ') of 0..$((rounds - 1))"
}
