# The set-up the shell tests share; a test sources it first:
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1   # usage: TEST.sh CLI
# It gives: cli (the first argument, collsim's front door), a temporary
# directory tmp removed on exit, ok/bad (bad counts the test as failed:
# fail=1; the test ends with `exit $fail`), and platform, which writes a
# platform with `$cli platform ARGS...` or ends the test (status 1) when it
# cannot: nothing after it would mean anything.
# Sourced by tests/lanes.sh, map_model.sh, map_sim.sh, nodeaware.sh,
# foreign_platform.sh, library_nodes.sh, platgen_hosts.sh, verify_bench.sh.
set -u
cli=${1:?usage: $0 CLI}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { echo "ok: $*"; }
bad() {
  echo "FAILED: $*"
  fail=1
}
platform() {
  "$cli" platform "$@" >/dev/null 2>&1 || {
    echo "FAILED: cannot write a platform ($cli platform $*)"
    exit 1
  }
}
