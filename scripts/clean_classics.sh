#!/usr/bin/env bash
# The 71 clean classics (tests/data/edo-clean_ids.txt) through
# `tsume solve --format json --time SECS`, one at a time: one row each
# (id, recorded length, verdict, length, length_exact, plies of the line,
# seconds, limit hit, length_bounds), then the counts.
# usage: scripts/clean_classics.sh [BIN] [SECS] > rows.tsv
# tsume runs on one thread (THREADS=N in the environment for more),
# as the peer does.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-target/release/tsume}
SECS=${2:-30}
exact=0
at_record=0
while read -r id; do
    row=$(awk -F'\t' -v id="$id" '$1==id{print $2"\t"$3}' tests/data/edo-problems.tsv)
    sfen=${row%%$'\t'*}
    recorded=${row##*$'\t'}
    json=$("$BIN" solve --threads "${THREADS:-1}" --format json --time "$SECS" "$sfen" 2>/dev/null || true)
    line=$(python3 - "$id" "$recorded" "$json" <<'PY'
import json, sys
id, rec, j = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    d = json.loads(j)
except ValueError:
    d = {}
print("\t".join(map(str, [id, rec, d.get("verdict"), d.get("length"), d.get("length_exact"),
                          len(d.get("moves") or []), d.get("seconds"), d.get("limit"),
                          d.get("length_bounds")])))
PY
)
    echo "$line"
    IFS=$'\t' read -r _ rec _ len ex _ <<<"$line"
    if [ "$ex" = True ]; then
        exact=$((exact + 1))
        if [ "$len" = "$rec" ]; then at_record=$((at_record + 1)); fi
    fi
done <tests/data/edo-clean_ids.txt
echo "proven exact: $exact, of which at the recorded length: $at_record" >&2
