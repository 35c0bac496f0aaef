#!/usr/bin/env python3
"""Writes tests/data/syzygy_probes.txt: random legal positions of three and
four pieces with their WDL and DTZ as python-chess's Syzygy prober
(`chess.syzygy`, an implementation independent of the one Kiln uses) reads
them from the tables in tests/data/syzygy/, for tests/all/syzygy.rs to compare
against.

Positions: random placements of two kings and one or two other pieces of
either colour (pawns on ranks 2-7), either side to move, kept when legal
(python-chess's `is_valid`) and not already over (checkmate or stalemate:
the engine never probes a position without a legal move); then positions
of two kings and two pawns where the side to move can take en passant.
Fixed seed, so the file is the same on every run. Regenerate from the
repository root with

    python3 tests/data/syzygy_probes.py > tests/data/syzygy_probes.txt

Output: comment lines start with '#'; every other line is `FEN;WDL;DTZ`,
WDL from -2 (loss) to 2 (win) for the side to move, DTZ in plies to the
next capture or pawn move (positive: the side to move wins; as
python-chess returns it, which may be one ply more than the true
distance in positions the tables store rounded).
"""
import random

import chess
import chess.syzygy

SEED = 20261201
THREE_PIECE = 100
FOUR_PIECE = 120
EN_PASSANT = 24
TABLES = "tests/data/syzygy"
OTHER_PIECES = [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN]


def random_board(rng, extra):
    """Kings and `extra` random pieces on random squares, or None."""
    board = chess.Board(None)
    squares = rng.sample(chess.SQUARES, 2 + extra)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for square in squares[2:]:
        kind = rng.choice(OTHER_PIECES)
        if kind == chess.PAWN and chess.square_rank(square) in (0, 7):
            return None
        board.set_piece_at(square, chess.Piece(kind, rng.choice(chess.COLORS)))
    board.turn = rng.choice(chess.COLORS)
    return board


def en_passant_board(rng):
    """Kings and two pawns, the side to move able to take en passant."""
    board = chess.Board(None)
    turn = rng.choice(chess.COLORS)
    file = rng.randrange(8)
    side = rng.choice([f for f in (file - 1, file + 1) if 0 <= f < 8])
    rank = 4 if turn == chess.WHITE else 3  # where the pushed pawn stands
    behind = 1 if turn == chess.WHITE else -1
    pushed = chess.square(file, rank)
    board.set_piece_at(pushed, chess.Piece(chess.PAWN, not turn))
    board.set_piece_at(chess.square(side, rank), chess.Piece(chess.PAWN, turn))
    free = [s for s in chess.SQUARES if board.piece_at(s) is None
            and s not in (chess.square(file, rank + behind),
                          chess.square(file, rank + 2 * behind))]
    white_king, black_king = rng.sample(free, 2)
    board.set_piece_at(white_king, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(black_king, chess.Piece(chess.KING, chess.BLACK))
    board.turn = turn
    board.ep_square = chess.square(file, rank + behind)
    return board


def usable(board):
    return (board is not None and board.is_valid()
            and not board.is_game_over(claim_draw=False))


def main():
    rng = random.Random(SEED)
    boards = []
    seen = set()
    for extra, count in ((1, THREE_PIECE), (2, FOUR_PIECE)):
        made = 0
        while made < count:
            board = random_board(rng, extra)
            if usable(board) and board.fen() not in seen:
                seen.add(board.fen())
                boards.append(board)
                made += 1
    made = 0
    while made < EN_PASSANT:
        board = en_passant_board(rng)
        if usable(board) and board.has_legal_en_passant() and board.fen() not in seen:
            seen.add(board.fen())
            boards.append(board)
            made += 1
    print("# FEN;WDL;DTZ from python-chess %s (chess.syzygy); "
          "made by tests/data/syzygy_probes.py, seed %d" % (chess.__version__, SEED))
    with chess.syzygy.open_tablebase(TABLES) as tables:
        for board in boards:
            wdl = tables.probe_wdl(board)
            dtz = tables.probe_dtz(board)
            print("%s;%d;%d" % (board.fen(), wdl, dtz))


if __name__ == "__main__":
    main()
