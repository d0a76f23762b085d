#!/usr/bin/env bash
# Mass validation on a generated mate set (scripts/gen_mates.py), with the
# cshogi df-pn peer on the same file in the same run.
#
# usage: scripts/mass.sh [SET]        (default: tests/data/mass-10k.sfen.gz)
#
# Runs, one after the other:
#   1. tsume batch --jobs $JOBS --time $TIME                 (the composer's length)
#   2. the same with --futile count                          (plain minimax length)
#   3. the same with --check --no-unnecessary         (cooks, leftovers, no pieces)
#   4. the same with --check                   (and the pieces of sound problems)
#   5. cshogi's DfPn, one problem at a time ($PEER_TIMEOUT s cap per problem)
# and prints problems/s, exact lengths, lengths equal to the set's
# independent ones (mate=N: minimax and KomoringHeights agreed), wrong
# verdicts, the --check verdicts and per-column counts (rows with pieces
# left over, with a cook, with a longer plain-minimax length), and the ratio
# to the peer.
#
# Every run is CPU-heavy: on a shared machine, run the whole script under
# the lock the others use (flock /tmp/tsume-build.lock scripts/mass.sh).
#
# Environment: TIME (1), JOBS (2), PEER_TIMEOUT (10), TSUME (the binary,
# default target/release/tsume, built if missing), PYTHON (a python with
# cshogi, default /tmp/venv-cshogi/bin/python), PEER (peer_cshogi.py,
# default ../shared/tools/peer_cshogi.py), RUNS (which of
# "exclude count check pieces peer", default all), KEEP (a directory to keep
# the rows in).
set -euo pipefail
cd "$(dirname "$0")/.."
SET=${1:-tests/data/mass-10k.sfen.gz}
TIME=${TIME:-1}
JOBS=${JOBS:-2}
PEER_TIMEOUT=${PEER_TIMEOUT:-10}
TSUME=${TSUME:-target/release/tsume}
PYTHON=${PYTHON:-/tmp/venv-cshogi/bin/python}
PEER=${PEER:-../shared/tools/peer_cshogi.py}
RUNS=${RUNS:-exclude count check pieces peer}

[ -x "$TSUME" ] || cargo build --release --locked
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$SET" in
  *.gz) gzip -dc "$SET" > "$tmp/set.sfen" ;;
  *) cp "$SET" "$tmp/set.sfen" ;;
esac
rows=$(grep -c '^sfen' "$tmp/set.sfen")
echo "set: $SET ($rows problems), $(nproc) cores, load before: $(cut -d' ' -f1 /proc/loadavg)"

now() { date +%s.%N; }
for run in $RUNS; do
  case $run in
    exclude) flags=() ;;
    count) flags=(--futile count) ;;
    check) flags=(--check --no-unnecessary) ;;
    pieces) flags=(--check) ;;
    peer) continue ;;
    *) echo "mass.sh: unknown run '$run'" >&2; exit 2 ;;
  esac
  t0=$(now)
  "$TSUME" batch -q --jobs "$JOBS" --time "$TIME" "${flags[@]}" --out "$tmp/$run.csv" "$tmp/set.sfen" || [ $? -eq 1 ]
  t1=$(now)
  echo "$t0 $t1" > "$tmp/$run.wall"
done
if [[ " $RUNS " == *" peer "* ]]; then
  t0=$(now)
  "$PYTHON" "$PEER" "$tmp/set.sfen" --timeout "$PEER_TIMEOUT" --out "$tmp/peer.csv" 2> "$tmp/peer.log"
  t1=$(now)
  echo "$t0 $t1" > "$tmp/peer.wall"
fi
[ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$tmp"/*.csv "$KEEP"/

python3 - "$tmp" "$JOBS" "$TIME" "$PEER_TIMEOUT" <<'EOF'
import csv, os, re, sys
tmp, jobs, time_limit, peer_timeout = sys.argv[1:]
expected = []
for line in open(os.path.join(tmp, "set.sfen"), encoding="utf-8"):
    if line.startswith("sfen"):
        m = re.search(r"\bmate=(\w+)", line)
        expected.append(None if m is None or m.group(1) == "nomate" else int(m.group(1)))
n = len(expected)
mates = sum(e is not None for e in expected)

def wall(run):
    t0, t1 = map(float, open(os.path.join(tmp, run + ".wall")).read().split())
    return t1 - t0

def rows(run):
    with open(os.path.join(tmp, run + ".csv"), newline="", encoding="utf-8") as f:
        return sorted(csv.DictReader(f), key=lambda r: int(r["index"]))

def have(run):
    return os.path.exists(os.path.join(tmp, run + ".wall"))

print(f"problems: {n} ({mates} mates: " + ", ".join(
    f"{k} {sum(e == k for e in expected)}" for k in (3, 5, 7, 9, 11)) +
    f"; {n - mates} no-mates)")
tput = {}
MATE = ("mate", "sound", "cooked", "misstated", "leftover")

def wrong_verdicts(rs):
    bad = 0
    for r, e in zip(rs, expected):
        v = r["verdict"]
        if (e is None and v in MATE) or (e is not None and v == "nomate"):
            bad += 1
    return bad

for run, label in (("exclude", "tsume batch"), ("count", "tsume batch --futile count"),
                   ("check", "tsume batch --check --no-unnecessary"),
                   ("pieces", "tsume batch --check")):
    if not have(run):
        continue
    rs, w = rows(run), wall(run)
    assert len(rs) == n, f"{run}: {len(rs)} rows for {n} problems"
    tput[run] = n / w
    verdicts = {}
    for r in rs:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    print(f"{label} --jobs {jobs} --time {time_limit}: {w:.1f} s, {n / w:.0f} problems/s; "
          + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())))
    exact = [r for r, e in zip(rs, expected) if e is not None and r["verdict"] in MATE
             and r["length"] and "not proven shortest" not in r["error"]]
    ex = set(r["index"] for r in exact)
    print(f"  wrong verdicts (mate/nomate against the set): {wrong_verdicts(rs)}")
    if run in ("check", "pieces"):
        print(f"  leftover {verdicts.get('leftover', 0)}, cooked {verdicts.get('cooked', 0)}, "
              f"misstated {verdicts.get('misstated', 0)}, unknown {verdicts.get('unknown', 0)}")
        lined = [r for r in rs if r["length"]]
        print(f"  columns: pieces left over in {sum(bool(r['leftover']) for r in lined)} rows "
              f"({sum(bool(r['leftover']) for r in lined if r['verdict'] == 'cooked')} of them cooked), "
              f"a cook in {sum(bool(r['cooks']) for r in lined)}, a longer plain_length in "
              f"{sum(bool(r['plain_length']) and int(r['plain_length']) > int(r['length']) for r in lined)}")
        if run == "pieces":
            seen = [r for r in rs if r["unnecessary"]]
            toks = [t for r in seen for t in r["unnecessary"].split() if t != "-"]
            print(f"  pieces examined in {len(seen)} problems: unnecessary "
                  f"{sum(not t.endswith('?') for t in toks)}, cook stoppers "
                  f"{sum(len(r['cook_stoppers'].split()) for r in seen)}, undecided "
                  f"{sum(t.endswith('?') for t in toks)}")
        continue
    print(f"  exact lengths: {len(exact)} of {mates} mates ({100 * len(exact) / max(mates, 1):.2f} %)")
    same = sum(int(r["length"]) == e for r, e in zip(rs, expected)
               if e is not None and r["index"] in ex)
    if run == "count":
        wrong = sum(int(r["length"]) != e for r, e in zip(rs, expected) if e is not None and r["index"] in ex)
        print(f"  plain-minimax lengths equal to the set's: {same} of {mates}; wrong exact lengths: {wrong}")
    else:
        shorter = sum(int(r["length"]) < e for r, e in zip(rs, expected) if e is not None and r["index"] in ex)
        longer = sum(int(r["length"]) > e for r, e in zip(rs, expected) if e is not None and r["index"] in ex)
        print(f"  composer's length (futile interpositions excluded) equal to the plain one: {same}, "
              f"shorter: {shorter}, longer (wrong): {longer}")
        plain = [(r, e) for r, e in zip(rs, expected) if e is not None and r["plain_length"]]
        print(f"  plain_length column equal to the set's: {sum(int(r['plain_length']) == e for r, e in plain)} "
              f"of {len(plain)} given; longer than the length: "
              f"{sum(int(r['plain_length']) > int(r['length']) for r, e in plain)}")

if have("peer"):
    with open(os.path.join(tmp, "peer.csv"), newline="", encoding="utf-8") as f:
        ps = list(csv.DictReader(f))
    w = wall("peer")
    search = sum(float(p["seconds"]) for p in ps)
    status = {}
    for p in ps:
        status[p["status"]] = status.get(p["status"], 0) + 1
    bad = sum((e is None and p["status"] == "mate") or (e is not None and p["status"] == "nomate")
              for p, e in zip(ps, expected))
    print(f"cshogi DfPn (peer_cshogi.py --timeout {peer_timeout}, one at a time): {w:.1f} s, "
          f"{n / w:.0f} problems/s ({search:.1f} s of search: {n / max(search, 1e-9):.0f} problems/s); "
          + ", ".join(f"{k} {v}" for k, v in sorted(status.items())) + f"; wrong verdicts: {bad}")
    for run in ("exclude", "count", "check"):
        if run in tput:
            print(f"  ratio tsume {run} / peer: {tput[run] / (n / w):.2f}x wall, "
                  f"{tput[run] / (n / max(search, 1e-9)):.2f}x against its search time alone")
EOF
