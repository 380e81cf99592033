#!/usr/bin/env bash
# The sanitizer job (.ci/run): kernels, the real-MPI driver, the CLI and the
# unit tests built with ASan + UBSan in their own build directory, then
#   - every unit test (every test_* target: schedules, store, topology,
#     registry, sizes, the recording MPI, the model table, calibration fits,
#     validation, launches, drift, guideline arithmetic, findings),
#   - the correctness harness under mpirun on a subset of the matrix,
#   - the models and the CLI's pure-C paths (predict without simulation).
# Any sanitizer report fails the job (UBSan does not recover; ASan aborts).
# Leak checking is off: Open MPI's own allocations at exit are not ours.
#   bash tests/sanitize.sh [BUILD_DIR]      (default: build-asan)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
b="${1:-$here/build-asan}"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
cmake -S "$here" -B "$b" -DCMAKE_BUILD_TYPE=Debug -DCOLLSIM_SANITIZE=ON >"$b.log" 2>&1 ||
  { tail -20 "$b.log"; exit 1; }
units=$(cmake --build "$b" --target help 2>/dev/null | sed -n 's/^\.\.\. \(test_[A-Za-z0-9_]*\).*/\1/p' | sort)
[ -n "$units" ] || { echo "sanitize: no test_* target found in $b" >&2; exit 1; }
cmake --build "$b" -j2 --target collsim-cli collsim-mpi $units >>"$b.log" 2>&1 || { tail -30 "$b.log"; exit 1; }
echo "sanitize: built collsim-cli collsim-mpi" $units
ulog="$b/sanitize-unit.log"
for t in $units; do
  # a smaller run where the ctest one is long (tests/tests.cmake): ASan makes
  # the models of p = 1152 slow (the model table's gatherv rows: minutes), and
  # the models of every algorithm run below anyway (predict)
  case $t in
  test_sched) args=(200) ;;
  test_model_table) args=(check "$here/tests/expected/model_table.txt" reduce_scatter_block sample) ;;
  test_formulas) args=(check 2-13,16,17) ;;
  test_closed) args=(2-13,16,17,33) ;;
  test_nap_formulas) args=(check) ;;
  *) args=() ;;
  esac
  "$b/$t" "${args[@]}" >"$ulog" 2>&1 || { echo "sanitize: FAILED: $t ${args[*]}" >&2; tail -40 "$ulog" >&2; exit 1; }
done
echo "sanitize: unit tests passed:" $units
cli="$b/collsim-cli"
log="$b/sanitize-stderr.log"
run() { # a command whose stderr (sanitizer reports included) is shown only on failure
  "$@" 2>"$log" || { echo "sanitize: FAILED: $*" >&2; tail -40 "$log" >&2; exit 1; }
}
run "$cli" check --backend mpi --np 1-6 --count 0,1,p-1,p+1,100 --root 0,p-1
run "$cli" check --backend mpi --np 7 --coll reduce_scatter,allgatherv,gatherv,scatterv \
  --layout even,one,ramp,rev
echo "sanitize: correctness subset under mpirun passed"
# Every registered algorithm with a model, priced without simulation.
"$cli" list --csv | tail -n +2 | cut -d, -f1,2 | grep -v ',native$' | while IFS=, read -r c a; do
  for p in 1 2 7 33; do
    run "$cli" predict --coll "$c" --algo "$a" --np $p --bytes 0,1,1000,1M --no-sim \
      --model abg --alpha 1e-6 --beta 1e-10 --gamma 2.5e-10 >/dev/null
  done
done
echo "sanitize: no sanitizer report"
