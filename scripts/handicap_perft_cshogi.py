#!/usr/bin/env python3
"""Perft counts of the seven handicap set-ups (駒落ち) with cshogi, an
independent move generator: the numbers pinned in tests/handicap.rs.

Setup once:  python3 -m venv /tmp/venv-cshogi && /tmp/venv-cshogi/bin/pip install cshogi
Run:         /tmp/venv-cshogi/bin/python scripts/handicap_perft_cshogi.py [DEPTH]   (default 4)

Prints one line per position: name, SFEN, the counts at depths 1..DEPTH.
The start position comes first as a check of the counting itself (its
published counts are 30, 900, 25470, 719731).
"""

import sys

import cshogi

POSITIONS = [
    ("startpos", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
    ("lance", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("bishop", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("rook", "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("rook-lance", "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("2-piece", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("4-piece", "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("6-piece", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
]


def perft(board, depth):
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        board.push(m)
        n += perft(board, depth - 1)
        board.pop()
    return n


def main():
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    for name, sfen in POSITIONS:
        board = cshogi.Board()
        board.set_sfen(sfen)
        assert board.sfen() == sfen, (board.sfen(), sfen)
        counts = [perft(board, d) for d in range(1, depth + 1)]
        print(name, sfen, " ".join(str(c) for c in counts), sep="\t")


if __name__ == "__main__":
    main()
