#!/usr/bin/env bash
# Hygiene: every C source and header git tracks is formatted as .clang-format
# says (clang-format 14, Debian 12's; ./bootstrap.sh test installs it). Lists
# the files that are not, with the command that fixes them.
# usage: format.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 1
command -v clang-format >/dev/null || { echo "FAILED: clang-format is not installed (./bootstrap.sh test installs it)"; exit 1; }
if git rev-parse --git-dir >/dev/null 2>&1; then
  files=$(git ls-files '*.c' '*.h')
else
  files=$(find . -name '*.[ch]' -not -path './build*')
fi
# one clang-format for all files; it names each file it would change
out=$(clang-format --dry-run --Werror $files 2>&1)
rc=$?
bad=$(sed -n 's/^\([^:]*\.[ch]\):[0-9]*:[0-9]*: error:.*/\1/p' <<<"$out" | sort -u | tr '\n' ' ')
bad=${bad:+ ${bad% }}
n=$(wc -w <<<"$files")
if [ $rc != 0 ] && [ -z "$bad" ]; then
  echo "FAILED: clang-format exited $rc:"; head -20 <<<"$out"; exit 1
fi
if [ -n "$bad" ]; then
  echo "FAILED: not formatted:$bad"
  echo "  fix: clang-format -i$bad"
  exit 1
fi
echo "ok: $n C files formatted ($(clang-format --version | head -1))"
