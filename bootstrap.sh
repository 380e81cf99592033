#!/usr/bin/env bash
# Sets collsim up on Debian 12 and runs it:
#   ./bootstrap.sh        install what is missing, build, run the main job
#   ./bootstrap.sh test   install what is missing, build, run all tests
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
pkgs="libsimgrid-dev openmpi-bin libopenmpi-dev libgsl-dev gnuplot-nox cmake gcc make"
[ "${1:-main}" = test ] && pkgs="$pkgs clang-format git" # the format test (tests/format.sh)
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "bootstrap: installing$missing" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq $missing >/dev/null
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j2 >/dev/null
case "${1:-main}" in
  test) cd build && ctest --output-on-failure -j2 --timeout 1500 ;;
  main) exec ./collsim demo ;;
  *) echo "usage: ./bootstrap.sh [test]" >&2; exit 2 ;;
esac
