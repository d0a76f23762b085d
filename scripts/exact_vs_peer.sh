#!/usr/bin/env bash
# Exact lengths side by side with KomoringHeights' shortest-mate mode, one
# problem at a time, one thread each:
#
#   PEER=path/to/KomoringHeights scripts/exact_vs_peer.sh [SECS] [EVERY] > rows.tsv
#
# HASH (MiB, default 1024) is the table size of both; IDS="zukou-048
# musou-030 ..." runs those problems only.
# Runs every EVERY-th problem of problems/edo.sfen (default 4: 50 of the
# 200 classics) with `tsume solve --time SECS` (default 10; the composer's
# length, proven) and then the peer (../shared/tools/peer_kh.py --shortest,
# plain minimax). Prints one row per problem: id, tsume verdict,
# plies, length_exact, seconds | peer verdict, plies, seconds; then totals.
# tsume runs on one thread (THREADS=N in the environment for more),
# as the peer does.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
every=${2:-4}
hash=${HASH:-1024}
ids=" ${IDS:-} "
: "${PEER:?set PEER to the KomoringHeights binary}"
driver=${PEER_DRIVER:-../shared/tools/peer_kh.py}
bin=target/release/tsume
[ -x "$bin" ] || cargo build --release --quiet
rows=$(mktemp)
grep -v '^#' problems/edo.sfen | grep 'id=' | awk -v e="$every" '(NR - 1) % e == 0' |
while IFS= read -r line; do
  id=$(sed 's/.*id=\([^ ]*\).*/\1/' <<<"$line")
  [ "$ids" = "  " ] || [[ "$ids" == *" $id "* ]] || continue
  sfen=$(sed 's/ moves .*//; s/ #.*//; s/^sfen //' <<<"$line")
  out=$("$bin" solve --threads "${THREADS:-1}" --time "$secs" --hash "$hash" --format json "$sfen" 2>/dev/null || true)
  mine=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["verdict"], d.get("length") or "-", d.get("length_exact"), round(d.get("seconds",0),3), sep="\t")' "$out")
  peer=$(printf '%s\t%s\n' "$sfen" "$id" | python3 "$driver" "$PEER" "$secs" --shortest --hash "$hash" | cut -f2-4)
  printf '%s\t%s\t%s\n' "$id" "$mine" "$peer" | tee -a "$rows"
done
python3 - "$rows" "$secs" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
lim = float(sys.argv[2]) * 0.99
peer_ok = lambda r: r[5] == "mate" and float(r[7]) < lim
mine = [r for r in rows if r[3] == "True"]
peer = [r for r in rows if peer_ok(r)]
both = [r for r in mine if peer_ok(r)]
print(f"# {len(rows)} problems: tsume exact {len(mine)} in {sum(float(r[4]) for r in rows):.1f} s;"
      f" peer proven {len(peer)} in {sum(float(r[7]) for r in rows):.1f} s;"
      f" both {len(both)}: tsume {sum(float(r[4]) for r in both):.1f} s, peer {sum(float(r[7]) for r in both):.1f} s")
PY
rm -f "$rows"
