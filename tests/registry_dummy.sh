#!/usr/bin/env bash
# Adding an algorithm is one registry row and one kernel file: in a SCRATCH
# copy of the source tree (the real registry is not touched), configured
# with cmake BEFORE the new file exists, this adds
#   CS_ALGO(allreduce, dummy, "dummy", CS_COMMUTATIVE, none, "test row")
# and a kernel cs_allreduce_dummy (algos/dummy/allreduce.c, in a new folder)
# that calls the butterfly kernel, plus a composition row
#   CS_COMPOSE(allreduce, dummy_rsag, ..., "reduce_scatter:butterfly allgatherv:butterfly", ...)
# builds the copy as ./collsim does (cmake --build, no cmake -S: the kernel
# globs are CONFIGURE_DEPENDS, so the new file is found by the build), and
# shows the rows everywhere:
#   - collsim list and list --csv have it;
#   - collsim check --coll allreduce --algo dummy --np 1-5 passes;
#   - collsim predict prices it (the model engine records its kernel: the
#     same model_s as butterfly, whose kernel it runs, with no model code
#     written), simulates it (the same sim_s) and prints no formula (its
#     formula is none);
#   - collsim bench on a small abg platform times it (again butterfly's time);
#   - collsim plot draws it with a legend entry and a line style of its own;
#   - the composition row is listed and passes check --np 1-5;
# then that the models price what the kernels do (a ceil-halving
# reduce-scatter that drops one block has another model_s: once the test
# model_breaks, now sharing this scratch build), and, last, that a kernel row
# without its kernel is a BUILD error naming the missing function (undefined
# reference to `cs_allreduce_nokernel').
# usage: registry_dummy.sh SOURCE_DIR
set -uo pipefail
src=$(cd "${1:-.}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; exit 1; }
check() { # check DESCRIPTION COMMAND...: runs it, fails loudly on non-zero
  local what=$1; shift
  if "$@" >"$tmp/out" 2>"$tmp/err"; then echo "ok: $what"; else
    echo "FAIL: $what (exit $?):"; tail -15 "$tmp/out" "$tmp/err"; fail=1; return 1; fi
}

# ---- the scratch tree: a copy of the sources, plus one row and one kernel ----
tree=$tmp/src
mkdir -p "$tree"
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # Tracked files and new, not ignored ones, but no build directory.
  (cd "$src" && git ls-files -z --cached --others --exclude-standard -- . ':!:build*' ':!:results' |
    xargs -0 cp --parents -t "$tree" 2>/dev/null)
else
  (cd "$src" && tar --exclude=./build --exclude=./results -cf - .) | (cd "$tree" && tar -xf -)
fi
[ -f "$tree/algos/registry.def" ] || die "could not copy the source tree"
# Configured before the kernel file exists: the build must find it itself.
b=$tmp/build
# Unoptimized, without debug information (CMAKE_BUILD_TYPE=None: no -O, no
# -g): this test is about what the registry generates, not about speed, and
# the scratch build is most of its time (2.4x less compiler time than the
# project's default RelWithDebInfo).
cmake -S "$tree" -B "$b" -DCMAKE_BUILD_TYPE=None >"$tmp/cmake.log" 2>&1 || { tail -30 "$tmp/cmake.log"; die "cmake failed"; }
# The row goes last inside the rows' #ifdef CS_ALGO block (the file's last
# #endif).
add_row() { # add_row ROW: before the file's last #endif (the rows' block)
  local last
  last=$(grep -n '^#endif' "$tree/algos/registry.def" | tail -1 | cut -d: -f1)
  [ -n "$last" ] || die "registry.def has no closing #endif"
  sed -i "${last}i $1" "$tree/algos/registry.def"
  grep -qF "$1" "$tree/algos/registry.def" || die "could not add the row $1"
}
add_row 'CS_ALGO(allreduce, dummy, "dummy", CS_COMMUTATIVE, none, "test row")'
add_row 'CS_COMPOSE(allreduce, dummy_rsag, "dummy", CS_COMMUTATIVE, none, "reduce_scatter:butterfly allgatherv:butterfly", "test composition")'
# The kernel follows whatever the kernel signature is: it is declared with
# CS_PARAMS_allreduce, and passes a trailing context on when the signature
# has one (cs_ctx, being added on another branch).
ctx=""
if grep -q 'cs_ctx' "$tree/algos/collsim.h"; then
  # The context parameter's name, as CS_PARAMS_allreduce spells it.
  name=$(sed -n '/define CS_PARAMS_allreduce/,/)/p' "$tree/algos/collsim.h" |
    grep -o 'cs_ctx *\* *[A-Za-z_][A-Za-z_0-9]*' | sed 's/.*\* *//' | head -1)
  ctx=", ${name:-ctx}"
fi
mkdir -p "$tree/algos/dummy"
cat >"$tree/algos/dummy/allreduce.c" <<EOF
/* A test row's kernel (tests/registry_dummy.sh): the butterfly allreduce. */
#include "../collsim.h"

int cs_allreduce_dummy CS_PARAMS_allreduce {
  return cs_allreduce_butterfly(sendbuf, recvbuf, count, dt, op, comm$ctx);
}
EOF

# ---- build what the commands need, as ./collsim does (no cmake -S) ----------
if ! nice cmake --build "$b" -j2 --target collsim-cli collsim-smpi >>"$tmp/cmake.log" 2>&1; then
  tail -30 "$tmp/cmake.log"; die "the scratch build failed"
fi
grep -q 'algos/dummy/allreduce.c' "$b/CMakeFiles/collsim_core.dir/build.make" 2>/dev/null &&
  echo "ok: the new kernel file is built without re-running cmake by hand" ||
  { echo "FAIL: algos/dummy/allreduce.c is not in the build"; fail=1; }
cli=$b/collsim-cli

# ---- list -------------------------------------------------------------------
"$cli" list --csv | grep -q '^allreduce,dummy,dummy,commutative op,"test row"$' &&
  echo "ok: list --csv has the row" || { echo "FAIL: list --csv lacks the row"; fail=1; }
"$cli" list | grep -qE '^allreduce +dummy +dummy +commutative +test row$' &&
  echo "ok: list has the row" || { echo "FAIL: list lacks the row"; fail=1; }
# The names of the registry: the valid-name message of a bad algorithm.
bad=$("$cli" check --coll allreduce --algo nosuch --np 2 2>&1)
grep -q 'valid for allreduce: .*dummy' <<<"$bad" &&
  echo "ok: the valid names include it" || { echo "FAIL: valid names lack dummy"; fail=1; }

# ---- check --------------------------------------------------------------------
if check "check --coll allreduce --algo dummy --np 1-5" \
     "$cli" check --coll allreduce --algo dummy --np 1-5 --jobs 1; then
  grep -qE '^[1-9][0-9]* passed, 0 failed' "$tmp/out" ||
    { echo "FAIL: check's summary:"; tail -3 "$tmp/out"; fail=1; }
fi

# ---- predict: simulation beside butterfly ------------------------------------
if check "predict --algo dummy,butterfly" "$cli" predict --coll allreduce --algo dummy,butterfly \
     --np 5 --bytes 1K,64K --model abg --alpha 1e-6 --beta 1e-10 --gamma 2.5e-10; then
  cp "$tmp/out" "$tmp/predict.csv"
  # coll,algo,p,bytes,table1_s,model_s,sim_s,rel_err
  awk -F, 'NR > 1 { key = $4; if ($2 == "butterfly") { bm[key] = $6; bs[key] = $7 } else { dm[key] = $6; ds[key] = $7; dt[key] = $5 } }
    END {
      n = 0
      for (k in ds) {
        n++
        if (ds[k] == "" || ds[k] != bs[k]) { print "FAIL: dummy sim " ds[k] " != butterfly sim " bs[k] " at " k; bad = 1 }
        if (dt[k] != "") { print "FAIL: dummy has a Table I formula: " dt[k]; bad = 1 }
        if (dm[k] == "" || dm[k] != bm[k]) { print "FAIL: dummy model " dm[k] " != butterfly model " bm[k]; bad = 1 }
      }
      if (n != 2) { print "FAIL: expected 2 dummy rows, got " n; bad = 1 }
      exit bad
    }' "$tmp/predict.csv" && echo "ok: predict: dummy is modelled and simulates as butterfly" || fail=1
  if grep -q . "$tmp/err"; then
    echo "FAIL: predict wrote to stderr:"; cat "$tmp/err"; fail=1
  fi
fi

# ---- bench on a small abg platform ------------------------------------------
check "platform abg --np 5" "$cli" platform abg --np 5 --out "$tmp/abg5.xml" \
  --hostfile "$tmp/abg5.hostfile"
if check "bench --algos dummy,butterfly" "$cli" bench --platform "$tmp/abg5.xml" --np 5 \
     --coll allreduce --algos dummy,butterfly,native --bytes 8,1K,64K --out "$tmp/bench.csv" --quiet; then
  awk -F, '/^#/ || $1 == "coll" { next } { t[$2 "," $4] = $6; n[$2]++ }
    END {
      if (n["dummy"] != 3) { print "FAIL: bench has " n["dummy"] + 0 " dummy rows, not 3"; exit 1 }
      for (k in t) if (k ~ /^dummy,/) { s = k; sub(/^dummy/, "butterfly", s); if (t[k] != t[s]) { print "FAIL: bench " k " " t[k] " != " t[s]; exit 1 } }
    }' "$tmp/bench.csv" && echo "ok: bench: dummy timed, as butterfly" || fail=1
fi

# ---- plot: a legend entry and a line style of its own --------------------------
# A gnuplot wrapper records the variables collsim plot passes (t<i> = legend
# title, s<i> = line style), then draws with the real gnuplot.
if command -v gnuplot >/dev/null; then
  cat >"$tmp/gnuplot" <<EOF
#!/usr/bin/env bash
printf '%s\n' "\$@" >>"$tmp/gnuplot.args"
exec gnuplot "\$@"
EOF
  chmod +x "$tmp/gnuplot"
  if [ -f "$tmp/bench.csv" ] && check "plot of the bench CSV" env COLLSIM_GNUPLOT="$tmp/gnuplot" \
       "$cli" plot "$tmp/bench.csv" --out "$tmp/plots" --kind time --format svg; then
    svg=$(ls "$tmp"/plots/time-allreduce-p5*.svg 2>/dev/null | head -1)
    [ -n "$svg" ] && grep -q '>dummy<' "$svg" && echo "ok: the picture's legend names dummy" ||
      { echo "FAIL: no time picture with a dummy legend entry"; fail=1; }
    # t1='dummy'; s1=8; ... -> one "title style" line per series
    tr ';' '\n' <"$tmp/gnuplot.args" | sed -n "s/^ *\([ts]\)\([0-9]*\)='*\([^']*\)'*$/\2 \1 \3/p" |
      awk '$2 == "t" { t[$1] = $3 } $2 == "s" { s[$1] = $3 }
        END {
          for (i in t) if (t[i] == "dummy") d = s[i]
          if (d == "") { print "FAIL: no series titled dummy"; exit 1 }
          for (i in t) if (t[i] != "dummy" && s[i] == d) { print "FAIL: dummy shares style " d " with " t[i]; exit 1 }
          print "ok: dummy has line style " d " of its own"
        }' || fail=1
  fi
else
  echo "skip: plot (no gnuplot)"
fi
# ---- a composition row: no kernel, parts only -----------------------------------
"$cli" list --csv | grep -q '^allreduce,dummy_rsag,dummy,commutative op,"test composition"$' &&
  echo "ok: list has the composition row" || { echo "FAIL: list lacks dummy_rsag"; fail=1; }
if check "check --coll allreduce --algo dummy_rsag --np 1-5" \
     "$cli" check --coll allreduce --algo dummy_rsag --np 1-5 --jobs 1; then
  grep -qE '^[1-9][0-9]* passed, 0 failed' "$tmp/out" ||
    { echo "FAIL: check's summary:"; tail -3 "$tmp/out"; fail=1; }
fi

# ---- a kernel that drops a block changes its model ----------------------------
# The models price what the kernels do: in the same scratch tree, the
# ceil-halving reduce-scatter's first round sends one block less (n - 1
# instead of n blocks); after the (incremental) rebuild, predict's model_s for
# p = 7, m = 1000 must differ from the unbroken build's. No kernel or model
# code knows about this test.
f="$tree/algos/ceilhalf/reduce_scatter.c"
margs=(predict --coll reduce_scatter_block --algo ceilhalf --np 7 --bytes 1000 --model abg --no-sim)
good=$("$cli" "${margs[@]}" | awk -F, 'NR == 2 { print $6 }')
if ! grep -qF 'l, r + s, n);' "$f"; then
  echo "FAIL: the line to break is gone from algos/ceilhalf/reduce_scatter.c; update this test"; fail=1
else
  sed -i 's/l, r + s, n);/l, r + s, n - 1);/' "$f"
  if nice cmake --build "$b" -j2 --target collsim-cli >>"$tmp/cmake.log" 2>&1; then
    bad=$("$cli" "${margs[@]}" | awk -F, 'NR == 2 { print $6 }')
    echo "model_s unbroken: $good, with one block dropped: $bad"
    if [ -z "$good" ] || [ -z "$bad" ]; then echo "FAIL: no model_s"; fail=1
    elif [ "$good" = "$bad" ]; then echo "FAIL: dropping a block did not change the model"; fail=1
    else echo "ok: a kernel that drops a block changes its model"; fi
  else
    tail -15 "$tmp/cmake.log"; echo "FAIL: the build with one block dropped failed"; fail=1
  fi
  sed -i 's/l, r + s, n - 1);/l, r + s, n);/' "$f"
fi

# ---- a kernel row without its kernel does not build ------------------------------
add_row 'CS_ALGO(allreduce, nokernel, "dummy", CS_COMMUTATIVE, none, "a row without kernel")'
if nice cmake --build "$b" -j2 --target collsim-cli >"$tmp/nokernel.log" 2>&1; then
  echo "FAIL: a row without its kernel built"; fail=1
elif grep -q "undefined reference to .cs_allreduce_nokernel'" "$tmp/nokernel.log"; then
  echo "ok: a row without its kernel is a build error: $(grep -m1 -o "undefined reference to .cs_allreduce_nokernel'" "$tmp/nokernel.log")"
else
  echo "FAIL: the build failed without naming cs_allreduce_nokernel:"; tail -15 "$tmp/nokernel.log"; fail=1
fi
[ $fail -eq 0 ] && echo "registry_dummy: a new row works in list, check, predict, bench and plot; a dropped block changes the model; a row without kernel does not build"
exit $fail
