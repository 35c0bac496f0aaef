//! Differential testing against cozy-chess, an independent, well-kept move
//! generator: seeded random playouts from the standard start and from
//! Chess960 starts, comparing legal move sets at every step and perft(3) at
//! some; and the incremental Zobrist key against a from-scratch one.

use kiln::chess::perft::perft;
use kiln::chess::{legal_moves, Color, Position};

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn cozy_moves(board: &cozy_chess::Board) -> Vec<String> {
    let mut out = Vec::new();
    board.generate_moves(|moves| {
        out.extend(moves.into_iter().map(|m| m.to_string()));
        false
    });
    out.sort();
    out
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut total = 0;
    board.generate_moves(|moves| {
        for mv in moves {
            let mut next = board.clone();
            next.play_unchecked(mv);
            total += cozy_perft(&next, depth - 1);
        }
        false
    });
    total
}

fn kiln_moves(pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = legal_moves(pos).iter().map(|m| m.to_uci(true)).collect();
    out.sort();
    out
}

/// Each colour's incremental non-pawn key equals the one computed from scratch.
fn assert_side_keys(pos: &Position) {
    for color in [Color::White, Color::Black] {
        assert_eq!(
            pos.non_pawn_key(color),
            pos.compute_non_pawn_key(color),
            "incremental {color:?} non-pawn key drifted in {}",
            pos.to_fen()
        );
    }
}

/// Plays `games` random games of up to `plies` from `start`, checking both
/// generators agree everywhere. Returns how many positions were compared.
fn playouts(start_fen: &str, seed: u64, games: usize, plies: usize) -> usize {
    let mut rng = Rng(seed);
    let mut compared = 0;
    for game in 0..games {
        let mut ours = Position::from_fen(start_fen).unwrap();
        let mut theirs =
            cozy_chess::Board::from_fen(start_fen, !start_fen.contains(" KQkq ")).unwrap();
        for ply in 0..plies {
            let a = kiln_moves(&ours);
            let b = cozy_moves(&theirs);
            assert_eq!(
                a,
                b,
                "move sets differ in {} (game {game}, ply {ply})",
                ours.to_fen()
            );
            compared += 1;
            if (game + ply) % 16 == 0 {
                assert_eq!(
                    perft(&ours, 3),
                    cozy_perft(&theirs, 3),
                    "perft(3) differs in {}",
                    ours.to_fen()
                );
            }
            assert_eq!(
                ours.key(),
                ours.compute_key(),
                "incremental key drifted in {}",
                ours.to_fen()
            );
            assert_eq!(
                ours.pawn_key(),
                ours.compute_pawn_key(),
                "incremental pawn key drifted in {}",
                ours.to_fen()
            );
            assert_side_keys(&ours);
            if a.is_empty() || ours.halfmove_clock() >= 100 {
                break;
            }
            let pick = &a[rng.below(a.len())];
            let mv = ours.parse_uci_move(pick, true).unwrap();
            ours.make_move(mv);
            theirs.play_unchecked(pick.parse().unwrap());
            // A null move now and then, when legal, keeps the key honest too.
            if rng.below(10) == 0 && !ours.in_check() {
                let mut nulled = ours;
                nulled.make_null_move();
                assert_eq!(nulled.key(), nulled.compute_key(), "null-move key drifted");
                assert_side_keys(&nulled);
            }
        }
    }
    compared
}

#[test]
fn random_playouts_from_the_start_position() {
    let n = playouts(Position::STARTPOS_FEN, 0x1234_5678_9ABC_DEF1, 60, 200);
    assert!(n > 4_000, "{n}");
}

#[test]
fn random_playouts_from_chess960_starts() {
    let mut compared = 0;
    for scharnagl in (0..960).step_by(24) {
        let board = cozy_chess::Board::chess960_startpos(scharnagl);
        let fen = format!("{board:#}");
        compared += playouts(&fen, 0xC0FFEE + scharnagl as u64, 2, 160);
    }
    assert!(compared > 4_000, "{compared}");
}

#[test]
fn fen_written_by_kiln_reads_in_cozy_chess() {
    let mut rng = Rng(99);
    let mut pos = Position::startpos();
    for _ in 0..300 {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            pos = Position::startpos();
            continue;
        }
        pos.make_move(moves.as_slice()[rng.below(moves.len())]);
        let fen = pos.to_fen();
        let theirs =
            cozy_chess::Board::from_fen(&fen, false).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
        assert_eq!(kiln_moves(&pos), cozy_moves(&theirs), "{fen}");
        assert_eq!(Position::from_fen(&fen).unwrap(), pos);
    }
}

#[test]
fn tricky_positions_match_by_perft_3() {
    for fen in [
        // Chess960 castling: king on b1 with its rook on a1; king already on its target; rook on its target.
        "3rk3/8/8/8/8/8/8/RK6 w A - 0 1",
        "1r2k3/8/8/8/8/8/8/R1K4R w AH - 0 1",
        "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
        "4k3/8/8/8/8/8/8/4KR1q w F - 0 1",
        "q3k3/8/8/8/8/8/8/1RK5 w B - 0 1",
        // En passant pins and checks.
        "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
        "8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1",
        "8/8/4k3/8/2pP4/8/B7/4K3 b - d3 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let ours = Position::from_fen(fen).unwrap();
        let theirs = cozy_chess::Board::from_fen(
            fen,
            fen.split(' ').nth(2).is_some_and(|c| {
                c != "-"
                    && !c.contains('K')
                    && !c.contains('k')
                    && !c.contains('Q')
                    && !c.contains('q')
            }),
        )
        .unwrap();
        assert_eq!(kiln_moves(&ours), cozy_moves(&theirs), "{fen}");
        assert_eq!(perft(&ours, 3), cozy_perft(&theirs, 3), "{fen}");
    }
}

/// The incremental pawn key and both non-pawn keys equal the ones computed
/// from scratch after every legal move and every reply from each
/// perft-suite position (captures of and by pawns, promotions, en passant,
/// castling).
#[test]
fn pawn_and_non_pawn_keys_follow_every_move_of_the_perft_suite() {
    let mut checked = 0;
    for line in include_str!("../data/perft.epd").lines() {
        let Some(fen) = line.split(';').next() else {
            continue;
        };
        let Ok(pos) = Position::from_fen(fen.trim()) else {
            continue;
        };
        assert_eq!(pos.pawn_key(), pos.compute_pawn_key(), "{fen}");
        assert_side_keys(&pos);
        for mv in legal_moves(&pos).iter() {
            let mut child = pos;
            child.make_move(mv);
            for reply in legal_moves(&child).iter() {
                let mut grandchild = child;
                grandchild.make_move(reply);
                assert_eq!(
                    grandchild.pawn_key(),
                    grandchild.compute_pawn_key(),
                    "{}",
                    grandchild.to_fen()
                );
                assert_side_keys(&grandchild);
                checked += 1;
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}
