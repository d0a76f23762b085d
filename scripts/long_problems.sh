#!/usr/bin/env bash
# The long problems of tests/data/shtsume-long-named.tsv, first proof only
# (`tsume solve --quick`), one at a time, one thread, and one table:
#
#   scripts/long_problems.sh [SECS] [HASH_MIB] [NAME...]
#
# SECS defaults to 60, HASH_MIB to 1024. Prints one row per problem:
# name, stated length, verdict, plies of the line, seconds (whole process).
# With PEER=path/to/KomoringHeights in the environment, the peer runs the
# same problem right after tsume (via PEER_DRIVER, default
# ../shared/tools/peer_kh.py) and its columns are added.
# tsume runs on one thread (THREADS=N in the environment for more),
# as the peer does.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
hash=${2:-1024}
shift 2 || shift $#
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=("図巧100番" "図巧99番（煙詰め）" "ACTの夢(467手詰)" "Astral Traveler(579手詰)" "明日香"
         "橋本587手詰" "木星の旅" "乱" "ミクロコスモス" "新桃花源" "小涌谷" "メガロポリス")
fi
bin=target/release/tsume
[ -x "$bin" ] || cargo build --release --quiet
driver=${PEER_DRIVER:-../shared/tools/peer_kh.py}
printf "%-26s %6s | %-8s %6s %8s" problem stated tsume plies secs
[ -n "${PEER:-}" ] && printf " | %-8s %6s %8s" peer plies secs
echo
for name in "${names[@]}"; do
  row=$(awk -F'\t' -v n="$name" '$3==n{print; exit}' tests/data/shtsume-long-named.tsv)
  if [ -z "$row" ]; then echo "no problem named $name" >&2; continue; fi
  sfen=$(cut -f1 <<<"$row")
  stated=$(cut -f2 <<<"$row")
  start=$(date +%s.%N)
  out=$("$bin" solve --quick --threads "${THREADS:-1}" --hash "$hash" --time "$secs" --format json "$sfen" || true)
  end=$(date +%s.%N)
  verdict=$(python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print(d["verdict"], d["length"] or "-")' "$out")
  printf "%-26s %6s | %-8s %6s %8.2f" "$name" "${stated:--}" ${verdict} "$(echo "$end - $start" | bc)"
  if [ -n "${PEER:-}" ]; then
    peer=$(printf '%s\t%s\n' "$sfen" x | python3 "$driver" "$PEER" "$secs" --hash "$hash")
    printf " | %-8s %6s %8s" "$(cut -f2 <<<"$peer")" "$(cut -f3 <<<"$peer")" "$(cut -f4 <<<"$peer")"
  fi
  echo
done
