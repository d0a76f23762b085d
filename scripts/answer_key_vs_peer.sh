#!/usr/bin/env bash
# The answer key's mates, exact lengths, tsume and KomoringHeights'
# shortest-mate mode at once, one core and one thread each:
#
#   PEER=path/to/KomoringHeights scripts/answer_key_vs_peer.sh [SECS] [OUTDIR]
#
# SECS (default 10) is the limit per problem for both; HASH (MiB, default
# 256) the table of the peer (tsume keeps its default). tsume runs
# scripts/answer_key.py over tests/data/answers.tsv (its composer's length,
# proven: `length_exact`); the peer runs ../shared/tools/peer_kh.py
# --shortest over the key's mates (plain minimax; a length counts as
# proven when the peer answered before the limit). The raw rows go to
# OUTDIR (default a temporary directory); the comparison is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
out=${2:-$(mktemp -d)}
mkdir -p "$out"
: "${PEER:?set PEER to the KomoringHeights binary}"
driver=${PEER_DRIVER:-../shared/tools/peer_kh.py}
bin=target/release/tsume
[ -x "$bin" ] || cargo build --release --locked --quiet
key=tests/data/answers.tsv
python3 scripts/answer_key.py "$key" --time "$secs" --bin "$bin" > "$out/tsume.log" &
awk -F'\t' '!/^#/ && $4=="mate" {print $3 "\t" $1 "/" $2}' "$key" |
  python3 "$driver" "$PEER" "$secs" --shortest --hash "${HASH:-256}" > "$out/peer.tsv" &
wait
python3 - "$key" "$out/tsume.log" "$out/peer.tsv" "$secs" <<'EOF'
import statistics, sys
key_path, tsume_path, peer_path, secs = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
key = {}
for line in open(key_path, encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    f = line.rstrip("\n").split("\t")
    key[f[0] + "/" + f[1]] = f
mates = {k for k, f in key.items() if f[3] == "mate"}
tsume = {}
for line in open(tsume_path, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if len(f) >= 7 and f[0] in key:
        tsume[f[0]] = (f[6] == "exact", float(f[3].rstrip("s")), f[5])
peer = {}
for line in open(peer_path, encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if len(f) >= 4 and f[0] in key:
        peer[f[0]] = (f[1] == "mate" and float(f[3]) < secs - 0.05, float(f[3]), f[2])
t_ok = {k for k in mates if tsume.get(k, (False,))[0]}
p_ok = {k for k in mates if peer.get(k, (False,))[0]}
wrong = [k for k, v in tsume.items() if v[2] in ("WRONG", "LONG")]
print(f"key mates: {len(mates)}; limit {secs:g} s per problem")
print(f"tsume: {len(t_ok)} lengths proven (composer's), {sum(v[1] for k, v in tsume.items() if k in mates):.1f} s on the mates, wrong or too long: {len(wrong)} {wrong}")
print(f"peer:  {len(p_ok)} lengths proven (plain minimax), {sum(v[1] for v in peer.values()):.1f} s on the mates")
both = sorted(t_ok & p_ok)
if both:
    tt = sum(tsume[k][1] for k in both)
    pt = sum(peer[k][1] for k in both)
    med = statistics.median(tsume[k][1] / max(peer[k][1], 0.001) for k in both)
    print(f"both: {len(both)}, tsume {tt:.1f} s, peer {pt:.1f} s, median ratio tsume/peer {med:.2f}")
print("peer only:", " ".join(sorted(p_ok - t_ok)) or "-")
print("tsume only:", " ".join(sorted(t_ok - p_ok)) or "-")
EOF
