#!/usr/bin/env python3
"""Writes tests/data/polyglot_keys.txt: polyglot keys computed by python-chess
(`chess.polyglot.zobrist_hash`), an implementation independent of Kiln's,
for tests/all/polyglot.rs to compare against.

Positions: every position of tests/data/perft.epd, and from each the positions
after 1..8 plies of seeded random play (seed = the EPD line number), which
adds double pawn steps (en-passant files, capturable or not) and lost
castling rights. Regenerate from the repository root with

    python3 tests/data/polyglot_keys.py > tests/data/polyglot_keys.txt

Output: comment lines start with '#'; every other line is
`<key as 16 hex digits> <FEN>`.
"""
import random

import chess
import chess.polyglot

RANDOM_PLIES = 8

print("# polyglot key (python-chess zobrist_hash) and FEN; "
      "made by tests/data/polyglot_keys.py from tests/data/perft.epd")
with open("tests/data/perft.epd") as epd:
    for number, line in enumerate(epd, start=1):
        fen = line.split(";")[0].strip()
        board = chess.Board(fen)
        rng = random.Random(number)
        seen = set()
        for ply in range(RANDOM_PLIES + 1):
            out = board.fen(en_passant="fen")
            if out not in seen:
                seen.add(out)
                print(f"{chess.polyglot.zobrist_hash(board):016x} {out}")
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
