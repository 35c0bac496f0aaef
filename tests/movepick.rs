//! The single-move legality check and the staged move picker against the
//! move generator: on the perft-suite positions and positions reached from
//! them by seeded random play, `Position::is_legal` agrees with
//! `legal_moves` on every 16-bit move pattern, and the picker, whatever
//! garbage it is handed as TT move, killers and counter-move, returns every
//! legal move (or every legal noisy move) exactly once.

use kiln::chess::movegen::generate;
use kiln::chess::{legal_moves, Move, MoveList, Position};
use kiln::rng::Rng;
use kiln::search::history::{Continuations, History};
use kiln::search::movepick::MovePicker;
use std::collections::HashSet;
use std::path::PathBuf;

/// The suites' positions, each followed by positions a few random plies on
/// (so checks, en passant, promotions and pins all turn up).
fn positions(every_frc: usize) -> Vec<Position> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut rng = Rng::new(0x5EED_0FC0_FFEE);
    let mut out = Vec::new();
    for (file, step) in [("perft.epd", 1), ("frcperft.epd", every_frc)] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in text.lines().step_by(step) {
            let fen = line.split(';').next().unwrap().trim();
            let mut pos = Position::from_fen(fen).unwrap();
            out.push(pos);
            for _ in 0..12 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves.as_slice()[rng.below(moves.len())]);
                out.push(pos);
            }
        }
    }
    out
}

#[test]
fn is_legal_agrees_with_the_generator_on_every_pattern() {
    let positions = positions(4);
    let mut checks = 0;
    for pos in &positions {
        let legal: HashSet<Move> = legal_moves(pos).iter().collect();
        checks += pos.in_check() as usize;
        for bits in 0..=u16::MAX {
            let mv = Move::from_bits(bits);
            assert_eq!(
                pos.is_legal(mv),
                legal.contains(&mv),
                "{mv:?} ({bits:#06x}) in {}",
                pos.to_fen()
            );
        }
    }
    assert!(checks > 50, "only {checks} positions in check");
}

/// A move the picker is handed as TT move, killer or counter: a legal
/// move (noisy or quiet), a random 16-bit pattern, or null.
fn candidate(rng: &mut Rng, legal: &MoveList) -> Move {
    match rng.below(4) {
        0 | 1 if !legal.is_empty() => legal.as_slice()[rng.below(legal.len())],
        2 => Move::from_bits(rng.next_u64() as u16),
        _ => Move::NULL,
    }
}

fn picked(picker: &mut MovePicker, history: &History) -> Vec<Move> {
    let mut out = Vec::new();
    while let Some((mv, _)) = picker.next_move(history) {
        out.push(mv);
    }
    out
}

#[test]
fn the_picker_returns_every_legal_move_once() {
    let positions = positions(2);
    let history = History::default();
    let mut rng = Rng::new(0x00DE_C0DE);
    for pos in &positions {
        let legal = legal_moves(pos);
        let mut noisy = MoveList::default();
        generate::<MoveList, false, true>(pos, &mut noisy);
        let sorted = |moves: &mut Vec<Move>| moves.sort_by_key(|m| m.bits());
        let mut all: Vec<Move> = legal.iter().collect();
        let mut all_noisy: Vec<Move> = noisy.iter().collect();
        sorted(&mut all);
        sorted(&mut all_noisy);
        for _ in 0..8 {
            let tt = candidate(&mut rng, &legal);
            let mut killers = [candidate(&mut rng, &legal), candidate(&mut rng, &legal)];
            if rng.below(4) == 0 {
                killers[1] = killers[0];
            }
            let counter = match rng.below(3) {
                0 => killers[rng.below(2)],
                _ => candidate(&mut rng, &legal),
            };
            let what = || {
                format!(
                    "tt {tt:?} killers {killers:?} counter {counter:?} in {}",
                    pos.to_fen()
                )
            };

            let mut picker = MovePicker::new(pos, tt, killers, counter, Continuations::NONE, false);
            let mut got = picked(&mut picker, &history);
            if legal.contains(tt) {
                assert_eq!(got.first(), Some(&tt), "TT move first: {}", what());
            }
            sorted(&mut got);
            assert_eq!(got, all, "all moves: {}", what());

            let mut picker = MovePicker::new(pos, tt, killers, counter, Continuations::NONE, true);
            let mut got = picked(&mut picker, &history);
            sorted(&mut got);
            assert_eq!(got, all_noisy, "noisy moves: {}", what());

            // Skipping quiet moves part-way leaves every noisy move.
            let mut picker = MovePicker::new(pos, tt, killers, counter, Continuations::NONE, false);
            let mut got = Vec::new();
            let mut skipping = false;
            while let Some((mv, _)) = picker.next_move(&history) {
                assert!(
                    !skipping || pos.is_noisy(mv),
                    "{mv:?} after skip_quiets: {}",
                    what()
                );
                got.push(mv);
                if rng.below(3) == 0 {
                    picker.skip_quiets();
                    skipping = true;
                }
            }
            let set: HashSet<Move> = got.iter().copied().collect();
            assert_eq!(set.len(), got.len(), "a move twice: {}", what());
            assert!(all_noisy.iter().all(|m| set.contains(m)), "{}", what());
            assert!(set.iter().all(|m| legal.contains(*m)), "{}", what());
        }
    }
}
