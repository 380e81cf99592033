#!/usr/bin/env bash
# The demo's library side is the selectors of real libraries as SMPI
# reproduces them (ompi, mpich, mvapich2, impi); SMPI's own naive default
# selector is named only to say that it is not shown. The help text is
# printed from the same list the demo runs (demo/demo.c cs_demo_libs).
set -u
out=$("$1" demo --help)
fail=0
for l in lib:ompi lib:mpich lib:mvapich2 lib:impi; do
  grep -q "$l" <<<"$out" && echo "ok: the demo runs $l" || { echo "FAILED: $l missing"; fail=1; }
done
tr -s ' \n' ' ' <<<"$out" | grep -q "lib:default, a naive reduce + scatterv, stands for no library and is not shown" && echo "ok: lib:default is labelled, not shown" ||
  { echo "FAILED: lib:default not labelled as not shown"; fail=1; }
[ "$(grep -o 'lib:[a-z0-9]*' <<<"$out" | sort -u | tr '\n' ' ')" = "lib:default lib:impi lib:mpich lib:mvapich2 lib:ompi " ] &&
  echo "ok: no other selector" || { echo "FAILED: selectors named: $(grep -o 'lib:[a-z0-9]*' <<<"$out" | sort -u | tr '\n' ' ')"; fail=1; }
exit $fail
