#!/usr/bin/env bash
# Every option a command's parser takes appears in its --help (issue 28 item
# 10): the option names ("--name" string literals) are read from the sources
# of each command's parser, so a new option without a line in its usage fails
# here. usage: help_options.sh CLI SOURCE_DIR
set -uo pipefail
cli=$1
src=$2
fail=0
# command: the files whose "--option" literals are its options
declare -A files=(
  [bench]="cli/bench.c"
  [predict]="cli/bench.c cli/predict.c"
  [table1]="cli/predict.c"
  [validate]="cli/bench.c cli/validate.c"
  [guidelines]="cli/guidelines.c"
  [calibrate]="cli/calibrate.c"
  [check]="cli/check.c"
  [compare]="cli/compare.c"
  [nodeaware]="cli/nodeaware.c"
)
# Literals that are not options of that command (values, or another command's).
declare -A skip=(
  [predict]="--csv"
  [table1]="--coll --algo --np --bytes --platform --out --root --in-place --hostfile --type --block-bytes --reps --warmup --time-limit --cfg --layout --lib-charge --verify --smpi-network --samples --stats --quiet --redo --format --backend --algos --model"
)
for cmd in "${!files[@]}"; do
  help=$("$cli" "$cmd" --help 2>&1)
  opts=$(cd "$src" && grep -oh '"--[a-z][a-z0-9-]*' ${files[$cmd]} | tr -d '"' | sort -u)
  for o in $opts; do
    [[ " ${skip[$cmd]:-} --help " == *" $o "* ]] && continue
    grep -q -- "$o\b" <<<"$help" || { echo "FAIL: collsim $cmd --help does not name $o"; fail=1; }
  done
done
[ $fail = 0 ] && echo "help_options: ok"
exit $fail
