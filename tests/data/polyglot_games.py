#!/usr/bin/env python3
"""Writes tests/data/polyglot_games.pgn: a few games along standard opening
lines, for tests/external/polyglot_book.rs to build a book from with polyglot's own
`make-book`. Each line is checked move by move with python-chess (every SAN
legal and written as python-chess writes it). Regenerate from the repository
root with

    python3 tests/data/polyglot_games.py > tests/data/polyglot_games.pgn
"""
import chess
import chess.pgn

# (result, moves): openings with castling on both wings' sides, captures,
# checks and one en-passant capture (exd6 in the Alekhine line).
GAMES = [
    ("1-0", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O"),
    ("1/2-1/2", "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4 d4 Nd6 Bxc6 dxc6 dxe5 Nf5 Qxd8+ Kxd8"),
    ("0-1", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4+ Bd2 Bxd2+ Nbxd2 d5"),
    ("1-0", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7"),
    ("0-1", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 g6 c4 Bg7 Be3 Nf6 Nc3 O-O Be2 d6"),
    ("1/2-1/2", "e4 e6 d4 d5 Nc3 Bb4 e5 c5 a3 Bxc3+ bxc3 Ne7 Qg4 O-O Bd3 Nbc6"),
    ("1-0", "e4 c6 d4 d5 e5 Bf5 Nf3 e6 Be2 c5 Be3 Nd7 O-O Ne7 c4 dxc4"),
    ("1/2-1/2", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 h6 Bh4 b6 cxd5 Nxd5"),
    ("0-1", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5 O-O Nc6 d5 Ne7"),
    ("1-0", "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 Nf3 c5 O-O Nc6 a3 Bxc3"),
    ("1/2-1/2", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5 cxd5 Nxd5 Bg2 Nb6 O-O Be7 d3 O-O"),
    ("1-0", "Nf3 d5 g3 Nf6 Bg2 e6 O-O Be7 d3 O-O Nbd2 c5 e4 Nc6 Re1 b5"),
    ("1-0", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 c6 Bc4 Bf5 Bd2 e6 Qe2 Bb4"),
    ("0-1", "e4 e5 f4 exf4 Nf3 g5 h4 g4 Ne5 Nf6 d4 d6 Nd3 Nxe4 Bxf4 Bg7"),
    ("1-0", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 O-O c3 d5"),
    ("1-0", "e4 Nf6 e5 Nd5 d4 d6 Nf3 g6 Bc4 Nb6 Bb3 Bg7 Qe2 Nc6 O-O O-O"),
    ("1/2-1/2", "e4 Nf6 e5 d5 exd6 exd6 d4 Be7 Nf3 O-O Be2 Bg4 O-O Nc6 c3 Re8"),
    ("1-0", "d4 f5 g3 Nf6 Bg2 e6 Nf3 Be7 O-O O-O c4 d6 Nc3 Qe8 Re1 Qg6"),
    ("1/2-1/2", "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6 Be3 e5 Qd2 Nge7 O-O-O O-O"),
]

games = []
for number, (result, moves) in enumerate(GAMES, start=1):
    board = chess.Board()
    game = chess.pgn.Game()
    for tag, value in [("Event", "Kiln polyglot test"), ("Site", "?"),
                       ("Date", "????.??.??"), ("Round", str(number)),
                       ("White", "?"), ("Black", "?"), ("Result", result)]:
        game.headers[tag] = value
    node = game
    for san in moves.split():
        move = board.parse_san(san)
        assert board.san(move) == san, (number, san, board.san(move))
        board.push(move)
        node = node.add_variation(move)
    games.append(str(game))
print("\n\n".join(games))
