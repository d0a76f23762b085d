#!/usr/bin/env bash
# Throughput of `tsume batch` with --jobs 1 and --jobs 2 on a fixed set with a
# node limit (CPU-bound and deterministic: every run does the same work).
# Runs alternate (1, 2, 1, 2, ...) so that load from other users of the
# machine hits both alike; prints one line per run and the speed-up.
#
# Usage: scripts/scaling.sh [FILE] [NODES] [REPEAT]    (from the repository root)
#   default: the first 50 problems of problems/edo.sfen, 100000 nodes, 2 runs each
set -euo pipefail
cd "$(dirname "$0")/.."

NODES=${2:-100000}
REPEAT=${3:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
FILE=${1:-}
if [[ -z $FILE ]]; then
  FILE=$work/edo50.sfen
  grep -m 50 '^sfen' problems/edo.sfen >"$FILE"
fi
cargo build --release --quiet
n=$(grep -cv '^[[:space:]]*#\|^[[:space:]]*$' "$FILE" || true)

echo "file: $FILE ($n problems), --nodes $NODES --time 0, $(nproc) cores"
for r in $(seq "$REPEAT"); do
  for jobs in 1 2; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f "%e %U %S" -o "$work/time" \
      target/release/tsume batch -q --jobs "$jobs" --nodes "$NODES" --time 0 "$FILE" \
      --out "$work/jobs$jobs.csv" || true
    read -r wall user sys < <(tail -n 1 "$work/time")
    echo "$jobs $wall" >>"$work/walls"
    printf 'run %d  --jobs %d  wall %7.2f s  cpu %7.2f s  %6.2f problems/s  (load before: %s)\n' \
      "$r" "$jobs" "$wall" "$(echo "$user + $sys" | bc)" "$(echo "$n / $wall" | bc -l)" "$load"
  done
done
# Same rows apart from timing?
cmp <(cut -d, -f1-14,16 "$work/jobs1.csv") <(cut -d, -f1-14,16 "$work/jobs2.csv") >/dev/null &&
  echo "rows of --jobs 1 and --jobs 2: identical apart from seconds" ||
  echo "rows of --jobs 1 and --jobs 2 DIFFER"
awk '{s[$1]+=$2; c[$1]++} END {
  printf "mean wall: --jobs 1 %.2f s, --jobs 2 %.2f s, speed-up %.2fx\n",
    s[1]/c[1], s[2]/c[2], (s[1]/c[1])/(s[2]/c[2]) }' "$work/walls"
