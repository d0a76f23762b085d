#!/usr/bin/env python3
"""Generate a mass-validation set: positions from random play whose shortest
checks-only mate is exactly N plies (N in 3, 5, 7, 9, 11), plus no-mates.

usage:
  gen_mates.py [--count 10000] [--seed 1] [--mix 3=2300,5=2000,7=1700,9=1600,11=1400,nomate=1000]
               [--kh KH_BINARY] [--kh-driver peer_kh.py] [--procs 2]
               [--work DIR] [--max-seconds T] --out FILE.sfen

Needs cshogi (random play, move generation, a first df-pn screen):
  python3 -m venv /tmp/venv-cshogi && /tmp/venv-cshogi/bin/pip install cshogi

How a row is made
  1. Random play. Game g of seed s starts from the initial position and plays
     uniformly random legal moves (random.Random(f"{s}:{g}")) for up to
     --max-plies plies. From ply --min-ply on, every position whose side to
     move is not in check and has at least one checking move is screened by
     cshogi's DfPn (node-capped). At most --per-game rows per length
     category are taken from a game (the first positions of that game that
     qualify, at least --gap plies apart), so rows come from many games;
     no-mates from ply --nomate-min-ply on.
  2. First confirming search: an exhaustive checks-only AND/OR minimax written
     here (`Minimax`), on cshogi's legal-move generator (which generates
     non-promotions and refuses drop-pawn mates, 打ち歩詰め). Iterative
     deepening d = 1, 3, ..., 11: the first d with a forced mate is the exact
     shortest length (every d - 2 was refuted exhaustively). The attacker's
     moves are all checks; the defender plays every legal move, every
     interposition counted (plain minimax, tsume's `--futile count`).
     Repetition is ignored, which changes no shortest length: along a
     shortest mate the distance to mate strictly falls, so no position can
     repeat. A position whose search passes --minimax-nodes is dropped.
     A no-mate row has no mate within 11 by this search.
  3. Second confirming search: KomoringHeights in its shortest-mate mode
     (`peer_kh.py KH SECS --shortest`, --kh-secs per problem), run as a
     separate program over USI. A mate row is kept only when KH's length
     equals the minimax length; a no-mate row only when KH proves no mate.
     cshogi's DfPn (step 1) only selects candidates: its mates are not
     trusted (its mate search misses some mates, e.g. ones that need a
     non-promotion).
  The tsume solver is not used: it is the program under test.

Tsume conventions of the positions
  Both kings stay on the board (双玉) and the position is a game position:
  the 40 pieces are all there, so the defender's hand (the game's) is
  exactly "all the remaining pieces" (玉方持駒は残り全部). Either colour may
  be the side to move (the attacker); it is never in check.

Output
  One SFEN line per row, `sfen <sfen> # id=<seed>-<game>-<ply> mate=<N>` or
  `mate=nomate`. The expected length is in `mate=` (not `len=`, tsume's
  stated length: that is the composer's length, which the plain minimax
  length may exceed when the defence uses futile interpositions).
  Rows come in a deterministic order: shuffled by the seed, categories mixed.

Determinism
  For one seed, mix and count the output is the same on every run, given
  the confirming searches finish within their limits (the minimax's limit
  is in nodes; KH's in seconds, but the rows are short mates that KH solves
  in milliseconds). Games are processed in blocks of --block games; with
  --work DIR each finished block is kept there, and a run stopped by
  --max-seconds (exit 3) continues where it stopped when started again.
  The selection takes games in order, so the output does not depend on how
  the run was split.

Cost, on the project's 2-core machine (--procs 3: KomoringHeights' start-up
per problem leaves the cores idle part of the time): about 40 minutes for
the shipped 10^4 rows (2,020 games, 13,300 confirmed candidates), so some
70 hours for 10^6 (run it in pieces with --work DIR and --max-seconds).

Example (the shipped set):
  gen_mates.py --count 10000 --seed 1 --procs 3 --work /tmp/gen \
      --kh /root/.cache/peer-kh/KomoringHeights --out mass-10k.sfen

Licence: this script and the data it makes are part of this repository, under
the repository's licence.
"""

import argparse
import json
import multiprocessing as mp
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import cshogi

LENGTHS = (3, 5, 7, 9, 11)
MAX_LEN = 11
DEFAULT_MIX = "3=2300,5=2000,7=1700,9=1600,11=1400,nomate=1000"


class Budget(Exception):
    """The minimax passed its node limit."""


class Minimax:
    """Depth-bounded checks-only AND/OR search with a transposition table.

    Table entries: key -> [fail_upto, mate_at] for the side to move at that
    node: at an OR node (attacker to move), no mate within fail_upto plies,
    mate within mate_at plies; at an AND node the same for the remaining
    plies of the attacker.
    """

    def __init__(self, max_nodes):
        self.max_nodes = max_nodes
        self.nodes = 0
        self.tt = {}

    def _lookup(self, key, d):
        e = self.tt.get(key)
        if e is None:
            return None
        if e[1] <= d:
            return True
        if e[0] >= d:
            return False
        return None

    def _store(self, key, d, result):
        e = self.tt.get(key)
        if e is None:
            e = [-1, 1 << 30]
            self.tt[key] = e
        if result:
            e[1] = min(e[1], d)
        else:
            e[0] = max(e[0], d)

    def _tick(self):
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise Budget()

    def or_node(self, b, d):
        """Can the side to move (attacker) mate within d plies (d odd)?"""
        key = b.zobrist_hash()
        known = self._lookup(key, d)
        if known is not None:
            return known
        self._tick()
        result = False
        for m in list(b.legal_moves):
            b.push(m)
            if b.is_check():
                r = self.and_node(b, d - 1)
            else:
                r = False
            b.pop()
            if r:
                result = True
                break
        self._store(key, d, result)
        return result

    def and_node(self, b, r):
        """The defender is in check; is it mated within r more plies?"""
        key = b.zobrist_hash()
        known = self._lookup(key, r)
        if known is not None:
            return known
        self._tick()
        moves = list(b.legal_moves)
        if not moves:
            result = True
        elif r == 0:
            result = False
        else:
            # Refutations come soonest from king moves and captures; drops
            # (mostly interpositions) last.
            moves.sort(key=lambda m: 2 if cshogi.move_is_drop(m)
                       else (0 if cshogi.move_from_piece_type(m) == cshogi.KING else 1))
            result = True
            for m in moves:
                b.push(m)
                ok = self.or_node(b, r - 1)
                b.pop()
                if not ok:
                    result = False
                    break
        self._store(key, r, result)
        return result

    def shortest(self, b, max_len=MAX_LEN):
        """The exact shortest mate length up to max_len, or None (none)."""
        for d in range(1, max_len + 1, 2):
            if self.or_node(b, d):
                return d
        return None


def has_check(b):
    for m in b.legal_moves:
        b.push(m)
        c = b.is_check()
        b.pop()
        if c:
            return True
    return False


def position_sfen(b):
    """The board's SFEN with move number 1."""
    f = b.sfen().split()
    return " ".join(f[:3] + ["1"])


def game_candidates(seed, game, opts):
    """The rows one random game offers: [(category, ply, sfen)], at most
    --per-game per category, --gap plies apart, minimax-confirmed (KH
    comes later)."""
    rng = random.Random(f"{seed}:{game}")
    b = cshogi.Board()
    wanted = {c: opts["per_game"] for c in [str(n) for n in LENGTHS] + ["nomate"]}
    last = {}
    out = []
    for ply in range(opts["max_plies"]):
        moves = list(b.legal_moves)
        if not moves:
            break
        if ply >= opts["min_ply"] and not b.is_check() and wanted and has_check(b):
            # Searches run on a fresh board: cshogi's state stack is not
            # made for a game's history plus a search (it crashes).
            sfen = position_sfen(b)
            s = cshogi.Board(sfen)
            dfpn = cshogi.DfPn(opts["dfpn_depth"], opts["dfpn_nodes"])
            mated = dfpn.search(s)
            cat = None
            nomate_wanted = "nomate" in wanted and ply >= opts["nomate_min_ply"]
            if mated or (nomate_wanted and dfpn.searched_node < opts["dfpn_nodes"]):
                mm = Minimax(opts["minimax_nodes"])
                try:
                    n = mm.shortest(s)
                except Budget:
                    n = -1
                if n is None and not mated:
                    cat = "nomate"
                elif n is not None and n > 1:
                    cat = str(n)
            if cat in wanted and ply >= last.get(cat, -1000) + opts["gap"]:
                last[cat] = ply
                wanted[cat] -= 1
                if not wanted[cat]:
                    del wanted[cat]
                out.append((cat, ply, sfen))
        b.push(rng.choice(moves))
    return out


def kh_confirm(rows, opts):
    """Keep the rows whose KH result agrees: [(game, cat, ply, sfen)]."""
    if not rows:
        return []
    if not opts["kh"]:
        raise SystemExit("gen_mates.py: --kh KH_BINARY is needed (the second confirming search)")
    lines = "".join(f"{sfen}\t{i}\n" for i, (_, _, _, sfen) in enumerate(rows))
    cmd = [sys.executable, opts["kh_driver"], opts["kh"], str(opts["kh_secs"]), "--shortest",
           "--hash", str(opts["kh_hash"])]
    res = subprocess.run(cmd, input=lines, capture_output=True, text=True, check=True)
    verdict = {}
    for line in res.stdout.splitlines():
        f = line.split("\t")
        if len(f) >= 3:
            verdict[int(f[0])] = (f[1], f[2])
    kept = []
    for i, row in enumerate(rows):
        v, n = verdict.get(i, ("unknown", ""))
        cat = row[1]
        if (cat == "nomate" and v == "nomate") or (cat != "nomate" and v == "mate" and n == cat):
            kept.append(row)
    return kept


def run_block(args):
    seed, block, opts = args
    rows = []
    for g in range(block * opts["block"], (block + 1) * opts["block"]):
        for cat, ply, sfen in game_candidates(seed, g, opts):
            rows.append((g, cat, ply, sfen))
    return block, rows, kh_confirm(rows, opts)


def parse_mix(text, count):
    mix = {}
    for part in text.split(","):
        k, _, v = part.partition("=")
        k = k.strip()
        if k != "nomate" and (not k.isdigit() or int(k) not in LENGTHS):
            raise SystemExit(f"gen_mates.py: --mix: '{k}' is not one of {LENGTHS} or nomate")
        mix[k] = float(v)
    total = sum(mix.values())
    # Scale the mix to --count, rounding so that the parts add up.
    cats = sorted(mix, key=lambda k: (k == "nomate", int(k) if k.isdigit() else 0))
    want, acc, done = {}, 0.0, 0
    for k in cats:
        acc += mix[k]
        n = round(acc / total * count) - done
        want[k] = n
        done += n
    return want


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mix", default=DEFAULT_MIX,
                    help="shares per category, scaled to --count (default %(default)s)")
    ap.add_argument("--kh", default=None, help="the KomoringHeights binary")
    ap.add_argument("--kh-driver", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                        "..", "..", "shared", "tools", "peer_kh.py"))
    ap.add_argument("--kh-secs", type=float, default=10.0)
    ap.add_argument("--kh-hash", type=int, default=16)
    ap.add_argument("--min-ply", type=int, default=30)
    ap.add_argument("--max-plies", type=int, default=256)
    ap.add_argument("--nomate-min-ply", type=int, default=60)
    ap.add_argument("--per-game", type=int, default=2, help="rows per category and game")
    ap.add_argument("--gap", type=int, default=10, help="plies between two rows of a category")
    ap.add_argument("--dfpn-nodes", type=int, default=20000)
    ap.add_argument("--dfpn-depth", type=int, default=31)
    ap.add_argument("--minimax-nodes", type=int, default=200000)
    ap.add_argument("--block", type=int, default=20, help="games per block")
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--work", default=None, help="keep finished blocks here (resumable)")
    ap.add_argument("--max-seconds", type=float, default=0,
                    help="stop after the block running at this time; exit 3 (0: no limit)")
    a = ap.parse_args()

    want = parse_mix(a.mix, a.count)
    opts = dict(kh=a.kh, kh_driver=a.kh_driver, kh_secs=a.kh_secs, kh_hash=a.kh_hash,
                min_ply=a.min_ply, max_plies=a.max_plies, nomate_min_ply=a.nomate_min_ply,
                per_game=a.per_game, gap=a.gap, dfpn_nodes=a.dfpn_nodes,
                dfpn_depth=a.dfpn_depth, minimax_nodes=a.minimax_nodes, block=a.block)
    tag = json.dumps(dict(opts, seed=a.seed, kh=None, kh_driver=None), sort_keys=True)
    if a.work:
        os.makedirs(a.work, exist_ok=True)
        meta = os.path.join(a.work, "options.json")
        if os.path.exists(meta):
            with open(meta) as f:
                if f.read() != tag:
                    raise SystemExit(f"gen_mates.py: {a.work} was made with other options")
        else:
            with open(meta, "w") as f:
                f.write(tag)

    def block_path(k):
        return os.path.join(a.work, f"block-{k:07d}.json") if a.work else None

    start = time.time()
    have = {k: [] for k in want}
    stats = {"candidates": 0, "kept": 0}

    def take(block_rows):
        cand, kept = block_rows
        stats["candidates"] += len(cand)
        stats["kept"] += len(kept)
        for g, cat, ply, sfen in kept:
            if cat in have and len(have[cat]) < want[cat]:
                have[cat].append((g, ply, sfen))

    def full():
        return all(len(have[k]) >= want[k] for k in want)

    k = 0
    # Blocks already done (resumed run).
    while not full() and a.work and os.path.exists(block_path(k)):
        with open(block_path(k)) as f:
            take(json.load(f))
        k += 1
    # A crashed worker raises BrokenProcessPool here (multiprocessing.Pool
    # would wait for it forever).
    pool = ProcessPoolExecutor(a.procs, mp_context=mp.get_context("fork")) if a.procs > 1 else None
    stopped = False
    while not full():
        if a.max_seconds and time.time() - start > a.max_seconds:
            stopped = True
            break
        batch = [(a.seed, k + i, opts) for i in range(max(1, a.procs))]
        results = list(pool.map(run_block, batch)) if pool else list(map(run_block, batch))
        for block, cand, kept in sorted(results):
            res = ([list(r) for r in cand], [list(r) for r in kept])
            if a.work:
                tmp = block_path(block) + ".tmp"
                with open(tmp, "w") as f:
                    json.dump(res, f)
                os.replace(tmp, block_path(block))
            if not full():
                take(res)
        k += len(batch)
        print(f"gen_mates: {k} blocks ({k * a.block} games), {stats['kept']}/{stats['candidates']} "
              f"confirmed; " + ", ".join(f"{c} {len(have[c])}/{want[c]}" for c in want)
              + f"; {time.time() - start:.0f} s", file=sys.stderr, flush=True)
    if pool:
        pool.shutdown()
    if stopped:
        print("gen_mates: stopped by --max-seconds; run again with the same --work to go on",
              file=sys.stderr)
        sys.exit(3)
    rows = [(cat, g, ply, sfen) for cat in have for g, ply, sfen in have[cat]]
    rows.sort(key=lambda r: (r[1], r[2]))
    random.Random(f"{a.seed}:order").shuffle(rows)
    with open(a.out, "w") as f:
        for cat, g, ply, sfen in rows:
            f.write(f"sfen {sfen} # id={a.seed}-{g}-{ply} mate={cat}\n")
    print(f"gen_mates: wrote {len(rows)} rows to {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
