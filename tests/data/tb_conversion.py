#!/usr/bin/env python3
"""Writes tests/data/tb_conversion.txt: the starts of the tablebase
conversion games of tests/all/tb_conversion.rs, with the outcome the tables
give (python-chess's Syzygy prober, `chess.syzygy`, reading the tables in
tests/data/syzygy/).

Each start is a random legal placement (fixed seed) of one class:

- KRvK won, Kiln the side with the rook, to move, DTZ of at least 20 plies;
- KQvKR won, Kiln the side with the queen, to move, DTZ of at least 40
  plies (among the longest wins of the ending, each within the fifty-move
  rule from a zero clock);
- KPvK won, Kiln the side with the pawn, to move, the pawn on its second
  to fourth rank (so the win takes a king march, the promotion and a
  KQvK mate), DTZ of at least 3 plies where the king must walk first;
- KPvK drawn, Kiln the lone king, to move, unable to take the pawn at
  once and with at least one move that loses (so holding takes the right
  move, not any move);
- KQvKR drawn, Kiln the side with the rook, to move, unable to take the
  queen at once, where most moves lose.

The side to move at the start is always Kiln's; colours are random. A
position is kept when legal (`is_valid`), not over, not a duplicate and
its WDL is a plain win (2) or draw (0), not a cursed win or blessed loss.
Regenerate from the repository root with

    python3 tests/data/tb_conversion.py > tests/data/tb_conversion.txt

Output: comment lines start with '#'; every other line is
`CLASS;FEN;KILN;OUTCOME;DTZ`: the class name, the start, the colour Kiln
plays (`w` or `b`, always the side to move), what the tables say Kiln gets
(`win` or `draw`), and the DTZ of the start for the side to move as
python-chess returns it (plies to the next capture or pawn move with best
play; 0 for a draw).
"""
import random

import chess
import chess.syzygy

SEED = 20261202
PER_CLASS = 6
TABLES = "tests/data/syzygy"


def place(rng, strong, pieces):
    """Kings and `pieces` ((kind, colour is strong) pairs) on random
    squares, `strong` to move; None when a pawn lands on a back rank."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 2 + len(pieces))
    board.set_piece_at(squares[0], chess.Piece(chess.KING, strong))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, not strong))
    for square, (kind, ours) in zip(squares[2:], pieces):
        if kind == chess.PAWN and chess.square_rank(square) in (0, 7):
            return None
        board.set_piece_at(square, chess.Piece(kind, strong if ours else not strong))
    board.turn = strong
    return board


def pawn_rank(board):
    """The rank of the only pawn, counted from its own side (1 = second)."""
    square = next(iter(board.pieces(chess.PAWN, chess.WHITE) | board.pieces(chess.PAWN, chess.BLACK)))
    piece = board.piece_at(square)
    rank = chess.square_rank(square)
    return rank if piece.color == chess.WHITE else 7 - rank


def losing_moves(tables, board):
    """How many legal moves lose for the side to move, and how many moves."""
    lost = 0
    moves = list(board.legal_moves)
    for move in moves:
        board.push(move)
        if tables.probe_wdl(board) > 0:
            lost += 1
        board.pop()
    return lost, len(moves)


# (class, Kiln's pieces and the opponent's, the outcome for Kiln, a test
# of the probes and the board beyond the outcome)
CLASSES = [
    ("KRvK", [(chess.ROOK, True)], 2,
     lambda t, b, dtz: dtz >= 20),
    ("KQvKR", [(chess.QUEEN, True), (chess.ROOK, False)], 2,
     lambda t, b, dtz: dtz >= 40),
    ("KPvK-won", [(chess.PAWN, True)], 2,
     lambda t, b, dtz: 1 <= pawn_rank(b) <= 3 and dtz >= 3),
    ("KPvK-drawn", [(chess.PAWN, False)], 0,
     lambda t, b, dtz: (1 <= pawn_rank(b) <= 5 and not any(b.is_capture(m) for m in b.legal_moves)
                        and losing_moves(t, b)[0] >= 1)),
    ("KQvKR-drawn", [(chess.ROOK, True), (chess.QUEEN, False)], 0,
     lambda t, b, dtz: (not any(b.is_capture(m) for m in b.legal_moves)
                        and 2 * losing_moves(t, b)[0] > losing_moves(t, b)[1])),
]


def main():
    rng = random.Random(SEED)
    print("# CLASS;FEN;KILN;OUTCOME;DTZ from python-chess %s (chess.syzygy), seed %d; made by"
          % (chess.__version__, SEED))
    print("#   python3 tests/data/tb_conversion.py > tests/data/tb_conversion.txt")
    print("# KILN: the colour Kiln plays (the side to move); OUTCOME: Kiln's by the tables'"
          " WDL; DTZ: for the side to move, in plies")
    seen = set()
    with chess.syzygy.open_tablebase(TABLES) as tables:
        for name, pieces, wdl_wanted, fits in CLASSES:
            made = 0
            while made < PER_CLASS:
                board = place(rng, rng.choice(chess.COLORS), pieces)
                if (board is None or not board.is_valid()
                        or board.is_game_over(claim_draw=False)
                        or board.fen() in seen):
                    continue
                if tables.probe_wdl(board) != wdl_wanted:
                    continue
                dtz = tables.probe_dtz(board)
                if not fits(tables, board, dtz):
                    continue
                seen.add(board.fen())
                made += 1
                kiln = "w" if board.turn == chess.WHITE else "b"
                outcome = "win" if wdl_wanted == 2 else "draw"
                print("%s;%s;%s;%s;%d" % (name, board.fen(), kiln, outcome, dtz))


if __name__ == "__main__":
    main()
