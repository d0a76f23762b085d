#!/usr/bin/env bash
# One problem on one thread and on two: the speed-up of `--threads 2`,
# measured as a ratio in one run (the two alternate, A B A B ...).
#
#   scripts/threads.sh [ROUNDS] [SECS]
#
# Two tables:
#   - first proofs (`tsume solve --quick`) of the long problems 寿, ACTの夢
#     and Astral Traveler (tests/data/shtsume-long-named.tsv);
#   - exact lengths (`tsume solve`, the composer's length proven) of the
#     answer-key classics in IDS (default: ten that take 2 to 10 s on one
#     thread on the project's machine).
# Each row: the median seconds (whole process) on one thread and on two,
# their ratio, and the lengths printed (the proven length must not depend
# on the threads). ROUNDS defaults to 3, SECS (the time limit) to 60.
# Run it on an idle machine with at least two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
secs=${2:-60}
bin=target/release/tsume
[ -x "$bin" ] || cargo build --release --quiet
ids=${IDS:-"zukou-007 zukou-020 zukou-027 zukou-039 zukou-041 zukou-061 zukou-069 zukou-076 zukou-097 zukou-098"}

# run ARGS... : prints "seconds length exact"
run() {
  local start end out
  start=$(date +%s.%N)
  out=$("$bin" solve --time "$secs" --format json "$@" || true)
  end=$(date +%s.%N)
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); print("%.3f" % (float(sys.argv[3]) - float(sys.argv[2])), d["length"] or "-", "exact" if d["length_exact"] else "inexact")' "$out" "$start" "$end"
}

# row NAME ARGS... : alternate one thread and two, print the medians
row() {
  local name=$1
  shift
  local one=() two=() lens1=() lens2=()
  for _ in $(seq "$rounds"); do
    read -r s l e < <(run --threads 1 "$@")
    one+=("$s"); lens1+=("$l$([ "$e" = exact ] || echo '?')")
    read -r s l e < <(run --threads 2 "$@")
    two+=("$s"); lens2+=("$l$([ "$e" = exact ] || echo '?')")
  done
  python3 - "$name" "${one[*]}" "${two[*]}" "${lens1[*]}" "${lens2[*]}" <<'EOF'
import statistics, sys
name, one, two, l1, l2 = sys.argv[1:]
a = statistics.median(map(float, one.split()))
b = statistics.median(map(float, two.split()))
print(f"{name:<26} {a:8.2f} {b:8.2f} {a / b:6.2f}x   {l1} | {l2}")
EOF
}

printf "%-26s %8s %8s %7s   %s\n" problem "1 thread" "2" ratio "lengths (1 | 2; ? = not proven)"
echo "first proofs (--quick)"
for name in "図巧100番" "ACTの夢(467手詰)" "Astral Traveler(579手詰)"; do
  sfen=$(awk -F'\t' -v n="$name" '$3==n{print $1; exit}' tests/data/shtsume-long-named.tsv)
  row "$name" --quick "$sfen"
done
echo "exact lengths"
for id in $ids; do
  sfen=$(awk -F'\t' -v id="$id" '$2==id{print $3; exit}' tests/data/answers.tsv)
  row "$id" "$sfen"
done
