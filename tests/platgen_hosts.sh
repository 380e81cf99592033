#!/usr/bin/env bash
# The front door knows the hosts of a platform file the generator wrote from
# its collsim-model line instead of starting SimGrid to read it (platforms/foreign.c,
# platgen.h cs_platform_host_at). Here those hosts (names, cores, speed) must be
# exactly the ones SimGrid reads (collsim-hosts) for every kind of platform,
# and a file changed by one byte, or of another generator, must not count as
# generated (the front door then asks SimGrid).
# usage: platgen_hosts.sh CLI PLATGEN_HOSTS PLATSEG_WRITE
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh" || exit 1
gen=${2:?usage: $0 CLI GEN SEG} seg=${3:?usage: $0 CLI GEN SEG} hosts=$(dirname "$cli")/collsim-hosts
same_hosts() { # NAME FILE
  if ! "$gen" "$2" | sort >"$tmp/g" || ! "$hosts" "$2" | sort >"$tmp/s"; then
    bad "$1: not seen as generated, or SimGrid cannot read it"; return
  fi
  if cmp -s "$tmp/g" "$tmp/s" && [ -s "$tmp/g" ]; then
    ok "$1: $(wc -l <"$tmp/g") hosts as SimGrid reads them ($(head -1 "$tmp/g"))"
  else
    bad "$1: the generator's hosts differ from SimGrid's:"; diff "$tmp/g" "$tmp/s" | head -5
  fi
}
k=0
while read -r kind opts; do
  k=$((k + 1))
  f=$tmp/p$k.xml
  "$cli" platform "$kind" $opts --out "$f" >/dev/null || { bad "$kind $opts: not written"; continue; }
  same_hosts "$kind $opts" "$f"
done <<'LIST'
abg --np 5
abg --np 3 --gamma 0 --gamma-copy 1e-10
maxrate --nodes 3 --ppn 4
lanes --nodes 2 --ppn 4 --lanes 2
hydra --nodes 2 --ppn 32
hydra --nodes 2 --ppn 1
irene --nodes 2 --ppn 48
theta --nodes 2 --ppn 64
vsc3 --nodes 3 --ppn 16
bluewaters --nodes 2 --ppn 16
LIST
"$seg" "$tmp/seg.xml" "$tmp/seg.hostfile" 4 && same_hosts "abg with calibrated segments" "$tmp/seg.xml"

# Not generated: one byte changed (in a comment: SimGrid reads the same hosts,
# but the file is no longer the generator's), a file without a collsim-model
# line; the front door still places ranks on those (through SimGrid).
"$cli" platform theta --nodes 2 --ppn 64 --out "$tmp/t.xml" --hostfile "$tmp/t.hostfile" >/dev/null
sed 's/Aries/aries/' "$tmp/t.xml" >"$tmp/edited.xml"
for f in "$tmp/edited.xml" "$(dirname "$0")/platforms/small_platform.xml"; do
  if "$gen" "$f" >/dev/null; then bad "$(basename "$f") counted as generated"
  else ok "$(basename "$f") is not generated: SimGrid reads it"; fi
done
cmp -s "$tmp/t.xml" "$tmp/edited.xml" && bad "the edit changed nothing"
if "$cli" bench --platform "$tmp/edited.xml" --hostfile "$tmp/t.hostfile" --np 128 --coll allreduce \
  --algos circulant --bytes 8 --verify none --out "$tmp/e.csv" --quiet 2>"$tmp/err" &&
  grep -q '^allreduce,circulant,128,8,' "$tmp/e.csv"; then
  ok "bench runs on the edited file"
else bad "bench on the edited file:"; cat "$tmp/err"; fi
printf 'node0:64\nnode9999\n' >"$tmp/bad.hostfile"
out=$("$cli" bench --platform "$tmp/t.xml" --hostfile "$tmp/bad.hostfile" --np 65 --coll allreduce \
  --algos circulant --bytes 8 --out "$tmp/b.csv" 2>&1); st=$?
[ $st = 2 ] && grep -q "line 2: host 'node9999' is not in" <<<"$out" &&
  ok "a generated file's unknown host is refused before launch" || bad "unknown host: $st $out"
exit $fail
