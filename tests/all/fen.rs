//! FEN input: malformed FENs are rejected with a reason, never a panic.

use kiln::chess::{Color, FenError, Position, Square};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn malformed_fens_are_rejected_with_reasons() {
    use FenError::*;
    // (FEN, the error it must give, a phrase its message must contain)
    let cases = [
        ("", TooFewFields { found: 0 }, "at least 4 fields"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            TooFewFields { found: 1 },
            "at least 4 fields",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 0 1 extra",
            TooManyFields { found: 7 },
            "at most 6 fields",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
            RankCount { found: 7 },
            "8 ranks",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1",
            RankCount { found: 9 },
            "8 ranks",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            BadEmptyCount {
                rank: 6,
                digit: '9',
            },
            "empty-square count '9' on rank 6",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/80/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            BadEmptyCount {
                rank: 4,
                digit: '0',
            },
            "empty-square count '0'",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            RankOverflow { rank: 7 },
            "rank 7 has more than 8 squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/63/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            RankOverflow { rank: 3 },
            "rank 3 has more than 8 squares",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            RankTooShort {
                rank: 7,
                squares: 7,
            },
            "7 squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            UnknownPiece {
                rank: 1,
                found: 'X',
            },
            "unknown piece 'X'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            BadSideToMove { found: "x".into() },
            "side to move",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            KingCount {
                color: Color::Black,
                found: 0,
            },
            "exactly one king",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w - - 0 1",
            KingCount {
                color: Color::White,
                found: 2,
            },
            "exactly one king",
        ),
        (
            "4k3/8/8/8/8/8/PPPPPPPP/PPPPK3 w - - 0 1",
            TooManyPawns {
                color: Color::White,
                found: 12,
            },
            "more than 8 pawns",
        ),
        (
            "4k3/8/NNNNNNNN/NNNNNNNN/8/8/8/4K3 w - - 0 1",
            TooManyPieces {
                color: Color::White,
                found: 17,
            },
            "more than 16 pieces",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/PNBQKBNR w - - 0 1",
            PawnOnBackRank { square: sq("a1") },
            "first or last rank",
        ),
        (
            "4k2p/8/8/8/8/8/8/4K3 w - - 0 1",
            PawnOnBackRank { square: sq("h8") },
            "pawn on h8",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w Qk - 0 1",
            CastlingNoRook { right: 'Q' },
            "no rook",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w A - 0 1",
            CastlingNoRook { right: 'A' },
            "no rook",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",
            CastlingRepeated { right: 'K' },
            "given twice",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w HK - 0 1",
            CastlingRepeated { right: 'K' },
            "given twice",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w E - 0 1",
            CastlingKingMismatch { right: 'E' },
            "king's square",
        ),
        (
            "4k3/8/8/8/8/8/4K3/7R w H - 0 1",
            CastlingKingMismatch { right: 'H' },
            "king's square",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w Z - 0 1",
            UnknownCastlingChar { found: 'Z' },
            "unknown castling character",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K e3 0 1",
            EnPassantWrongRank { square: sq("e3") },
            "wrong rank",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K e6 0 1",
            EnPassantWithoutDoubleStep { square: sq("e6") },
            "double pawn step",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K z9 0 1",
            BadEnPassantSquare { found: "z9".into() },
            "bad en-passant square",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K - x 1",
            BadHalfmoveClock { found: "x".into() },
            "halfmove",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 65536 1",
            BadHalfmoveClock {
                found: "65536".into(),
            },
            "halfmove",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w K - 0 -1",
            BadFullmoveNumber { found: "-1".into() },
            "fullmove",
        ),
        (
            "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",
            SideNotToMoveInCheck,
            "not to move is in check",
        ),
        (
            "k7/8/8/8/4r3/8/2n5/r3K3 w - - 0 1",
            TooManyCheckers { found: 3 },
            "in check from 3 pieces",
        ),
    ];
    for (fen, expected, phrase) in cases {
        match Position::from_fen(fen) {
            Ok(_) => panic!("accepted malformed FEN {fen:?}"),
            Err(e) => {
                assert_eq!(e, expected, "{fen:?}");
                let message = e.to_string();
                assert!(
                    message.starts_with("invalid FEN: ") && message.contains(phrase),
                    "{fen:?}: got '{message}', wanted '{phrase}'"
                );
                // `FromStr` gives the same error.
                assert_eq!(fen.parse::<Position>().unwrap_err(), expected);
            }
        }
    }
}

#[test]
fn fen_errors_are_std_errors() {
    let e = Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1").unwrap_err();
    let boxed: Box<dyn std::error::Error> = Box::new(e);
    assert_eq!(
        boxed.to_string(),
        "invalid FEN: White must have exactly one king, found 0"
    );
}

#[test]
fn garbage_never_panics() {
    let mut x = 12345u64;
    let alphabet: Vec<char> = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0".chars().collect();
    for _ in 0..20_000 {
        let len = (x % 70) as usize;
        let s: String = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                alphabet[(x % alphabet.len() as u64) as usize]
            })
            .collect();
        let _ = Position::from_fen(&s);
    }
}

#[test]
fn huge_clocks_saturate_instead_of_overflowing() {
    let mut pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 b - - 65535 65535").unwrap();
    let mv = pos.parse_uci_move("e8e7", false).unwrap();
    pos.make_move(mv);
    assert_eq!(
        (pos.halfmove_clock(), pos.fullmove_number()),
        (65535, 65535)
    );
    pos.make_null_move();
    assert_eq!(pos.halfmove_clock(), 65535);
}
