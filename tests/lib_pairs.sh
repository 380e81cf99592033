# Sourced by lib_charge.sh and lib_copy.sh: the library's collectives timed
# on two abg platforms that differ in one cost, with its charging on and off.
# lib_pairs CLI P_LIST COLLS LIBS BYTES "PLATFORM OPTIONS" COST_OPTION COST AWK_PROGRAM
# For each p and collective, with --lib-charge on and off, benches LIBS at
# BYTES on `collsim platform abg --np p PLATFORM OPTIONS COST_OPTION x` for
# x = 0 and COST, then runs AWK_PROGRAM over the two CSVs (x = 0 first) with
# the awk variables charge (on/off) and coll; it prints "ROW ..." lines,
# "FAIL ..." lines, "CHECKED n", and exits non-zero on a failure. Sets
# $checked (cases) and $fail (failures) and prints the rows.
lib_pairs() {
  local cli=$1 plist=$2 colls=$3 libs=$4 bytes=$5 popts=$6 copt=$7 cost=$8 prog=$9
  local tmp p coll charge x first res st
  tmp=$(mktemp -d)
  fail=0 checked=0
  for p in ${plist//,/ }; do
    for x in 0 $cost; do
      # shellcheck disable=SC2086
      "$cli" platform abg --np "$p" $popts $copt $x --out "$tmp/abg$x.xml" --hostfile "$tmp/abg$x.hostfile" || { rm -rf "$tmp"; exit 1; }
    done
    for coll in ${colls//,/ }; do
      for charge in on off; do
        for x in 0 $cost; do
          if ! "$cli" bench --platform "$tmp/abg$x.xml" --np "$p" --coll $coll --algos "$libs" \
               --bytes $bytes --lib-charge $charge --quiet --out "$tmp/$coll-$p-$charge-$x.csv" 2>"$tmp/err"; then
            echo "FAIL bench $coll p=$p $copt $x --lib-charge $charge:"; cat "$tmp/err"; fail=$((fail + 1))
          fi
        done
        first=$(head -1 "$tmp/$coll-$p-$charge-$cost.csv")
        if [ $charge = on ] && [[ $first != *" lib_charge=reductions,copies"* ]]; then echo "FAIL no lib_charge=reductions,copies: $first"; fail=$((fail + 1)); fi
        if [ $charge = off ] && [[ $first == *lib_charge* ]]; then echo "FAIL lib_charge with off: $first"; fail=$((fail + 1)); fi
        res=$(awk -F, -v charge=$charge -v coll=$coll "$prog" "$tmp/$coll-$p-$charge-0.csv" "$tmp/$coll-$p-$charge-$cost.csv")
        st=$?
        echo "$res" | grep "^ROW" | sed 's/^ROW //'
        checked=$((checked + $(echo "$res" | awk '/^CHECKED/ { print $2 } END { print 0 }' | head -1)))
        if [ $st -ne 0 ]; then echo "$res" | grep FAIL; fail=$((fail + 1)); fi
      done
    done
  done
  rm -rf "$tmp"
}
