//! FEN input: malformed FENs are rejected with a reason, never a panic.

use kiln::chess::Position;

#[test]
fn malformed_fens_are_rejected_with_reasons() {
    let cases = [
        ("", "at least 4 fields"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
            "at least 4 fields",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side to move",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "empty-square count",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "more than 8 squares",
        ),
        (
            "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "7 squares",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
            "unknown piece 'X'",
        ),
        (
            "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
            "exactly one king",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNK w - - 0 1",
            "exactly one king",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/1PPPPPPP/PNBQKBNR w - - 0 1",
            "first or last rank",
        ),
        ("4k3/8/8/8/8/8/8/4K2R w Qk - 0 1", "no rook"),
        ("4k3/8/8/8/8/8/8/4K2R w KK - 0 1", "given twice"),
        (
            "4k3/8/8/8/8/8/8/4K2R w Z - 0 1",
            "unknown castling character",
        ),
        ("4k3/8/8/8/8/8/8/4K2R w K e3 0 1", "wrong rank"),
        ("4k3/8/8/8/8/8/8/4K2R w K e6 0 1", "double pawn step"),
        ("4k3/8/8/8/8/8/8/4K2R w K z9 0 1", "bad en-passant square"),
        ("4k3/8/8/8/8/8/8/4K2R w K - x 1", "halfmove"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 -1", "fullmove"),
        ("4k3/8/8/8/8/8/8/4K2R w K - 0 1 extra", "at most 6 fields"),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
        ("4k3/8/8/8/8/8/PPPPPPPP/PPPPK3 w - - 0 1", "pawns"),
    ];
    for (fen, reason) in cases {
        match Position::from_fen(fen) {
            Ok(_) => panic!("accepted malformed FEN {fen:?}"),
            Err(e) => assert!(
                e.to_string().contains(reason),
                "{fen:?}: got '{e}', wanted '{reason}'"
            ),
        }
    }
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
