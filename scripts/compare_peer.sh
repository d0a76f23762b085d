#!/usr/bin/env bash
# Throughput of `tsume batch` against the cshogi df-pn peer, on the same
# file of short problems, in the same run, on this machine. Prints a table.
#
# Usage: scripts/compare_peer.sh [FILE.sfen]     (from the repository root)
#   FILE    SFEN lines without `moves` (the peer would play them first);
#           default: the 50 kongo problems of tests/data/shtsume-kongo.tsv
#   TIME    per-problem time limit in seconds for both (default 10)
#   PEER_PY python with cshogi (default .venv-peer/bin/python, else
#           ../main/.venv-peer/bin/python; set up with
#           python3 -m venv .venv-peer && .venv-peer/bin/pip install cshogi)
#   PEER    the peer driver (default ../shared/tools/peer_cshogi.py)
#
# The peer returns *a* mate (not the shortest, no tsume conventions) and runs
# one problem at a time; tsume runs with --jobs 1 and --jobs 2. Times are
# wall-clock of the whole command (start-up included) and the median of the
# per-problem times each tool reports.
set -euo pipefail
cd "$(dirname "$0")/.."

TIME=${TIME:-10}
PEER=${PEER:-../shared/tools/peer_cshogi.py}
if [[ -z "${PEER_PY:-}" ]]; then
  for p in .venv-peer/bin/python ../main/.venv-peer/bin/python; do
    [[ -x $p ]] && PEER_PY=$p && break
  done
fi
[[ -n "${PEER_PY:-}" ]] || { echo "no python with cshogi: set PEER_PY" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

FILE=${1:-}
if [[ -z $FILE ]]; then
  FILE=$work/kongo.sfen
  grep -v '^#' tests/data/shtsume-kongo.tsv |
    awk -F'\t' '{printf "sfen %s # id=kongo-%02d\n", $1, NR}' >"$FILE"
fi

cargo build --release --quiet
BIN=target/release/tsume

now() { date +%s.%N; }
timed() { # timed NAME CMD... : run, record wall seconds in $work/NAME.wall
  local name=$1; shift
  local t0; t0=$(now)
  "$@" >/dev/null 2>"$work/$name.err" || true
  echo "$(now) - $t0" | bc >"$work/$name.wall"
}

timed tsume1 "$BIN" batch -q --jobs 1 --time "$TIME" "$FILE" --out "$work/tsume1.csv"
timed tsume2 "$BIN" batch -q --jobs 2 --time "$TIME" "$FILE" --out "$work/tsume2.csv"
timed peer "$PEER_PY" "$PEER" "$FILE" --timeout "$TIME" --out "$work/peer.csv"

python3 - "$work" "$FILE" "$TIME" <<'EOF'
import csv, statistics, sys
work, file, limit = sys.argv[1:]
def rows(name):
    with open(f"{work}/{name}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))
def wall(name):
    return float(open(f"{work}/{name}.wall").read())
table = []
for name, jobs in (("tsume1", 1), ("tsume2", 2)):
    r = rows(name)
    v = [x["verdict"] for x in r]
    table.append((f"tsume batch", jobs, len(r), v.count("mate"), v.count("nomate"),
                  len(r) - v.count("mate") - v.count("nomate"), wall(name),
                  statistics.median(float(x["seconds"]) for x in r)))
r = rows("peer")
st = [x["status"] for x in r]
table.append(("cshogi DfPn", 1, len(r), st.count("mate"), st.count("nomate"),
              len(r) - st.count("mate") - st.count("nomate"), wall("peer"),
              statistics.median(float(x["seconds"]) for x in r)))
print(f"file: {file}  (time limit {limit} s per problem)")
print(f"| solver | jobs | problems | mate | nomate | other | wall s | problems/s | median ms |")
print(f"|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for s, j, n, m, nm, o, w, med in table:
    print(f"| {s} | {j} | {n} | {m} | {nm} | {o} | {w:.2f} | {n / w:.2f} | {med * 1000:.2f} |")
t = {x["index"]: x for x in rows("tsume1")}
agree = sum(1 for x in r if (x["status"] == "mate") == (t[x["index"]]["verdict"] == "mate"))
print(f"\nsame mate/no-mate answer: {agree} of {len(r)}; "
      "peer lines are a mate, not the shortest (no tsume conventions)")
EOF
