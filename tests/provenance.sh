#!/usr/bin/env bash
# Results a user can trust and rerun (issue 28 items 2, 5, 6): a bench file
# records how it was made and a resume that differs is refused, naming the
# option (another hostfile, another type, without the unrelated lib_charge
# advice); sizes above MPI's int count are refused before anything launches,
# leaving no file; a failed smpirun leaves no smpitmp-* file in the current
# directory; a malformed platform shows SimGrid's own message with its line.
# Progress lines with the time left go to stderr, never into the CSV.
# usage: provenance.sh CLI   (about 3 s)
set -uo pipefail
cli=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
no() { echo "FAIL: $*"; fail=1; }
"$cli" platform maxrate --nodes 2 --ppn 2 --out m.xml --hostfile h1 >/dev/null || exit 1
printf 'node1:2\nnode0:2\n' >h2
run=(bench --platform m.xml --np 4 --coll allreduce --algos circulant --bytes 1K --out x.csv)
"$cli" "${run[@]}" --hostfile h1 2>err || { cat err; no "the first bench failed"; }
head -1 x.csv | grep -q ' placement=[0-9a-f]\{16\} ' || no "no placement digest: $(head -1 x.csv)"
grep -q '^# command: ./collsim bench ' x.csv || no "no command line in x.csv"
cp x.csv before.csv
"$cli" "${run[@]}" --hostfile h2 2>err
rc=$?
[ $rc -eq 2 ] || no "another hostfile: exit $rc, want 2"
grep -q 'another configuration: --hostfile (placement): the file has' err || no "the refusal does not name --hostfile: $(cat err)"
cmp -s x.csv before.csv || no "the refused run changed x.csv"
"$cli" "${run[@]}" --hostfile h1 --type int 2>err
grep -q -- '--type (type): the file has byte, this run int' err || no "the refusal does not name --type: $(cat err)"
grep -q lib_charge err && no "a type change printed the lib_charge advice"
# 2G: above MPI's int count, refused before launching; nothing written.
"$cli" bench --platform m.xml --np 4 --coll allreduce --algos circulant --bytes 1K,2G --out big.csv 2>err
rc=$?
[ $rc -eq 2 ] && grep -q '2147483647 elements' err || no "2G: exit $rc, $(cat err)"
[ ! -e big.csv ] || no "2G left big.csv behind"
# A run smpirun fails (an unknown setting) with a host:N hostfile: nothing left here.
"$cli" "${run[@]}" --out bad.csv --hostfile h2 --cfg --cfg=no/such:1 >/dev/null 2>err && no "a bad --cfg passed"
ls smpitmp-* 2>/dev/null && no "smpirun left temporary files in the current directory"
# A malformed platform: SimGrid's parse error, with its line, reaches the user.
cat >bad.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="AS0" routing="Full">
  <host id="h0" speed="1Gf"/>
  <host id="h1" speed="1Gf">
  <link id="l" bandwidth="1GBps" latency="1us"/>
</zone>
</platform>
XML
"$cli" bench --platform bad.xml --np 2 --coll allreduce --algos circulant --bytes 1K 2>err
rc=$?
[ $rc -eq 2 ] || no "malformed XML: exit $rc, want 2"
grep -q 'Parse error at bad.xml:7' err || no "SimGrid's parse error is lost: $(cat err)"
# Progress with the time left, on stderr only (after 0 s here instead of 10 s).
COLLSIM_PROGRESS_AFTER=0 "$cli" bench --platform m.xml --np 4 --coll allreduce \
  --algos circulant,butterfly --bytes 1K,64K --out pr.csv 2>err || no "the progress run failed"
grep -q 'collsim bench: allreduce: [0-4] of 4 cases, [0-9]* s elapsed, \(about [0-9]* s left\|time left unknown\)' err ||
  no "no progress line with the time left: $(cat err)"
grep -q 'left' pr.csv && no "progress went into the CSV"
[ $fail = 0 ] && echo "provenance: ok"
exit $fail
