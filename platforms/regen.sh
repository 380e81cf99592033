#!/bin/sh
# regen.sh: regenerates the named machine platforms kept in platforms/ (hydra, irene, theta,
# vsc3, bluewaters: NAME.xml and NAME.hostfile) with the platform generator.
# With COLLSIM set to the collsim executable it runs "$COLLSIM platform ..."; otherwise it
# builds the stand-alone driver platforms/tests/platgen_cli.c with cc into a temporary
# directory.  The output is deterministic, so running it again changes nothing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${COLLSIM:-}" ]; then
  gen() { "$COLLSIM" platform "$@"; }
else
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/platgen.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  ${CC:-cc} -std=c11 -O2 -o "$tmp/platgen" -I"$here/../algos" "$here/platgen.c" "$here/../algos/topo.c" "$here/../algos/pwcost.c" \
    "$here/tests/platgen_cli.c" -lm
  gen() { "$tmp/platgen" "$@"; }
fi
for m in hydra irene theta vsc3 bluewaters; do
  gen "$m" --out "$here/$m.xml" --hostfile "$here/$m.hostfile"
  echo "wrote platforms/$m.xml and platforms/$m.hostfile"
done
