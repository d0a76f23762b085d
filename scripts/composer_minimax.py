#!/usr/bin/env python3
"""An independent referee for the composer's length: a depth-bounded
checks-only minimax in which futile interpositions (無駄合) are not moves at
all, at every node (RULES.md §2.6), on cshogi's move generator. Written from
the rule text, not from tsume's code; slow (pure Python), for positions of
up to about 20 plies.

usage: composer_minimax.py [--plain] SFEN N
  Black attacks. Black to move: prints the exact composer's mate length if it is at most
  N plies (iterative deepening 1, 3, ..., so "19" also proves that no mate
  within 17 exists), with a line, or "none within N". White to move (in
  check): its value, the plies of the longest real defence. --plain counts
  every interposition (plain minimax, tsume's --futile count).

Needs cshogi: python3 -m venv /tmp/venv-cshogi && /tmp/venv-cshogi/bin/pip install cshogi

The rule, as implemented here. Q: defender to move, in check by a single
distant piece (lance, bishop, rook, horse, dragon); under double check or
a check from next to the king there are no candidates.
  - Candidates: the defender's drops and piece moves (not king moves) onto
    the squares strictly between the king and the checker.
  - L(e): the composer's length after evasion e, counted from Q, e included.
  - W(d): the largest L among the evasions that are no candidates and the
    real candidates nearer the king than d (0 if none); candidates on one
    square are judged against the same W.
  - d is futile when some checking recapture x on d's square leaves the
    test position R(d, x) mated within W(d) plies (composer's, so chains are
    judged by the same rule), the captured piece out of play: taken from the
    attacker's hand, and given back to the defender's when d was a drop.
  - The value of Q is the largest L of its real evasions, 0 when there are
    none (Q counts as mate).
Repetition is ignored: it changes no bounded minimax length.
"""
import sys
import time

import cshogi

PLAIN = False
NODES = 0

HAND = "PLNSGBR"  # cshogi's hand order
BASE = {9: 1, 10: 2, 11: 3, 12: 4, 13: 5, 14: 6}  # promoted -> unpromoted type
HAND_INDEX = {1: 0, 2: 1, 3: 2, 4: 3, 7: 4, 5: 5, 6: 6}  # type -> hand slot

# Black's piece types (cshogi: P L N S B R G K, then +P +L +N +S +B +R) and
# their steps (df, dr), forward = rank - 1; slides; the extra steps of 馬/龍.
GOLD = [(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
ORTH = [(0, 1), (0, -1), (1, 0), (-1, 0)]
STEPS = {
    1: [(0, -1)],
    3: [(1, -2), (-1, -2)],
    4: [(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)],
    7: GOLD, 9: GOLD, 10: GOLD, 11: GOLD, 12: GOLD,
    8: DIAG + ORTH,
    13: ORTH, 14: DIAG,
}
SLIDES = {2: [(0, -1)], 5: DIAG, 6: ORTH, 13: DIAG, 14: ORTH}


def fr(sq):
    return sq // 9 + 1, sq % 9 + 1


def sqi(f, r):
    return (f - 1) * 9 + (r - 1)


def checkers(b, ksq):
    """Black's pieces that attack the square ksq: [(square, distant)]."""
    kf, kr = fr(ksq)
    out = []
    for sq in range(81):
        p = b.piece(sq)
        if p == 0 or p >= 17:
            continue
        f, r = fr(sq)
        if any((f + df, r + dr) == (kf, kr) for df, dr in STEPS.get(p, [])):
            out.append((sq, False))
            continue
        for df, dr in SLIDES.get(p, []):
            x, y = f + df, r + dr
            while 1 <= x <= 9 and 1 <= y <= 9:
                if (x, y) == (kf, kr):
                    out.append((sq, True))
                    break
                if b.piece(sqi(x, y)) != 0:
                    break
                x, y = x + df, y + dr
    return out


def between(k, c):
    """The squares strictly between k and c: square -> distance from k."""
    (kf, kr), (cf, cr) = fr(k), fr(c)
    df, dr = (cf > kf) - (cf < kf), (cr > kr) - (cr < kr)
    out, x, y, d = {}, kf + df, kr + dr, 1
    while (x, y) != (cf, cr):
        out[sqi(x, y)] = d
        x, y, d = x + df, y + dr, d + 1
    return out


def checks(b):
    if b.is_check():  # 逆王手 (双玉): the attacker's evasions that check
        out = []
        for m in b.legal_moves:
            b.push(m)
            if b.is_check():
                out.append(m)
            b.pop()
        return out
    return list(b.check_moves)


def test_position(b, d, x):
    """R(d, x): after interposition d and recapture x, the captured piece
    out of play."""
    b.push(d)
    kind = b.piece(cshogi.move_to(d)) % 16
    b.push(x)
    bh, wh = [list(h) for h in b.pieces_in_hand]
    parts = b.sfen().split()
    b.pop()
    b.pop()
    slot = HAND_INDEX[BASE.get(kind, kind)]
    bh[slot] -= 1
    if cshogi.move_is_drop(d):
        wh[slot] += 1
    hand = ""
    for h, upper in ((bh, True), (wh, False)):
        for k in "RBGSNLP":
            c = h[HAND.index(k)]
            if c:
                hand += (str(c) if c > 1 else "") + (k if upper else k.lower())
    parts[2] = hand or "-"
    return cshogi.Board(" ".join(parts))


# key -> [exact length or None, refuted up to, best move]
ATT = {}
DFN = {}


def entry(table, b, n):
    """b's entry, and whether it answers the bound n (counts a node when not)."""
    global NODES
    e = table.setdefault(b.zobrist_hash(), [None, -1, None])
    if e[0] is not None or e[1] >= n:
        return e, True
    NODES += 1
    return e, False


def att(b, n):
    """Attacker to move: the exact composer's mate length if <= n."""
    e, known = entry(ATT, b, n)
    if known:
        return e[0] if e[0] is not None and e[0] <= n else None
    keyed = []
    for m in checks(b):  # fewest evasions first
        b.push(m)
        keyed.append((len(b.legal_moves), m))
        b.pop()
    keyed.sort(key=lambda t: t[0])
    k = e[1] + 2 if e[1] >= 1 else 1
    while k <= n:
        for _, m in keyed:
            b.push(m)
            v = dfn(b, k - 1)
            b.pop()
            if v is not None:
                e[0], e[2] = 1 + v, m
                return e[0]
        e[1] = k
        k += 2
    return None


def dfn(b, n):
    """Defender to move, in check: its value if <= n."""
    e, known = entry(DFN, b, n)
    if known:
        return e[0] if e[0] is not None and e[0] <= n else None
    r = value(b, n)
    if r is None:
        e[1] = n
    else:
        e[0], e[2] = r
        return r[0]
    return None


def length_after(b, m, n):
    if n < 1:
        return None
    b.push(m)
    a = att(b, n - 1)
    b.pop()
    return None if a is None else 1 + a


def value(b, n):
    """(value, the longest real evasion) if the value is <= n, else None."""
    evs = list(b.legal_moves)
    if not evs:
        return 0, None
    ksq = b.king_square(cshogi.WHITE)
    ch = checkers(b, ksq)
    btw = between(ksq, ch[0][0]) if len(ch) == 1 and ch[0][1] and not PLAIN else {}
    plain, cands = [], {}
    for m in evs:
        king = not cshogi.move_is_drop(m) and cshogi.move_from(m) == ksq
        to = cshogi.move_to(m)
        if not king and to in btw:
            cands.setdefault(btw[to], []).append(m)
        else:
            plain.append(m)
    best = (0, None)
    for m in plain:
        lm = length_after(b, m, n)
        if lm is None:
            return None
        best = max(best, (lm, m), key=lambda t: t[0])
    for dist in sorted(cands):  # from the king outwards
        w = best[0]
        found = []
        for d in cands[dist]:
            ld = length_after(b, d, n)
            if ld is not None and ld <= w:
                continue  # futile or not, it changes no maximum
            b.push(d)
            rec = [x for x in checks(b) if cshogi.move_to(x) == cshogi.move_to(d)]
            b.pop()
            if any(dfn(test_position(b, d, x), w) is not None for x in rec):
                continue  # futile
            if ld is None:
                return None  # a real defence longer than n
            found.append((ld, d))
        for t in found:  # one square: judged against the same W
            best = max(best, t, key=lambda t: t[0])
    return best


def line(b, v):
    """The line of the memoised best moves from b (value v)."""
    out = []
    b = cshogi.Board(b.sfen())
    while v > 0:
        table = ATT if b.turn == cshogi.BLACK else DFN
        m = table[b.zobrist_hash()][2]
        if m is None:
            break
        out.append(cshogi.move_to_usi(m))
        b.push(m)
        v -= 1
    return out


def main():
    global PLAIN
    args = sys.argv[1:]
    if "--plain" in args:
        PLAIN = True
        args.remove("--plain")
    if len(args) != 2:
        sys.exit(__doc__)
    sfen, n = args[0].removeprefix("sfen "), int(args[1])
    b = cshogi.Board(sfen)
    t = time.time()
    r = att(b, n) if b.turn == cshogi.BLACK else dfn(b, n)
    mode = "plain" if PLAIN else "composer"
    took = f"{NODES} nodes, {time.time() - t:.1f} s"
    if r is None:
        print(f"{mode}: none within {n} ({took})")
    else:
        print(f"{mode}: {r} ({took})")
        print(" ".join(line(b, r)))


if __name__ == "__main__":
    sys.setrecursionlimit(100000)
    main()
