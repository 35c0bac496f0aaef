//! The single-move legality check and the staged move picker against the
//! move generator: on the perft-suite positions and positions reached from
//! them by seeded random play, `Position::is_legal` agrees with
//! `legal_moves` on every 16-bit move pattern, and the picker, whatever
//! garbage it is handed as TT move, killers and counter-move, returns every
//! legal move (or every legal noisy move) exactly once. And on one position
//! with every stage, the order: good captures (by capture history between
//! equal victims), the killers and the counter-move, quiet moves by
//! butterfly plus continuation history, losing captures last; and quiet
//! moves that flee a cheaper attacker before those that walk into one.
//! In noisy mode exactly the losing captures and quiet under-promotions come
//! below `PUT_ASIDE_SCORE`, whatever the capture history (quiescence relies
//! on it).

use kiln::chess::movegen::generate;
use kiln::chess::{legal_moves, Kind, Move, MoveKind, MoveList, Piece, Position, Square, Threats};
use kiln::rng::Rng;
use kiln::search::history::{Continuations, History};
use kiln::search::movepick::{MovePicker, GOOD_NOISY_SCORE, PUT_ASIDE_SCORE};
use kiln::search::params::HISTORY_BONUS_MAX;
use kiln::search::see::see_ge;
use std::collections::{BTreeSet, HashSet};
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

/// Quiescence prunes a noisy move handed out below `PUT_ASIDE_SCORE`
/// without asking SEE again unless it is a promotion. So in noisy mode,
/// whatever the capture history says (here each capture pushed by the
/// search's largest bonus a dozen times up, down, or not at all), the moves
/// below that score must be exactly the captures SEE finds losing and the
/// quiet under-promotions.
#[test]
fn only_losing_captures_and_under_promotions_come_below_put_aside_score() {
    let mut rng = Rng::new(0x0BAD_CA97);
    let (mut losing, mut under, mut below_good) = (0, 0, 0);
    for pos in &positions(2) {
        let mut history = History::default();
        for mv in legal_moves(pos).iter().filter(|&m| pos.is_capture(m)) {
            let bonus = (rng.below(3) as i32 - 1) * HISTORY_BONUS_MAX();
            for _ in 0..12 {
                history.update_capture(pos, mv, bonus);
            }
        }
        let mut picker = MovePicker::new(
            pos,
            Move::NULL,
            [Move::NULL; 2],
            Move::NULL,
            Continuations::NONE,
            true,
        );
        while let Some((mv, order)) = picker.next_move(&history) {
            let what = format!("{mv:?} ordered {order} in {}", pos.to_fen());
            let quiet_under =
                mv.is_promotion() && !pos.is_capture(mv) && mv.promotion() != Some(Kind::Queen);
            let put_aside = quiet_under || !see_ge(pos, mv, 0);
            assert_eq!(order < PUT_ASIDE_SCORE, put_aside, "{what}");
            losing += (put_aside && !quiet_under) as usize;
            under += quiet_under as usize;
            below_good += (!put_aside && order < GOOD_NOISY_SCORE) as usize;
        }
    }
    assert!(
        losing > 100 && under > 10,
        "{losing} losing captures, {under} under-promotions"
    );
    // The case that tells the two thresholds apart does occur.
    assert!(
        below_good > 10,
        "{below_good} good captures below GOOD_NOISY_SCORE"
    );
}

/// A position with every stage of the picker: two captures of the same
/// undefended pawn (e4xd5, Nc3xd5: good, equal victims), one of a
/// defended pawn (Nc3xb5: losing, recaptured by a6), and quiet moves of
/// every piece, castling among them.
const STAGES: &str = "4k3/8/p7/1p1p4/4P3/2N5/8/4K2R w K - 0 1";

fn mv(pos: &Position, uci: &str) -> Move {
    pos.parse_uci_move(uci, false)
        .unwrap_or_else(|| panic!("{uci} is not legal in {}", pos.to_fen()))
}

fn names(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_uci(false)).collect()
}

/// Every move of `pos` in the picker's order, with their scores.
fn order(
    pos: &Position,
    killers: [Move; 2],
    counter: Move,
    conts: Continuations,
    history: &History,
) -> (Vec<Move>, Vec<i32>) {
    let mut picker = MovePicker::new(pos, Move::NULL, killers, counter, conts, false);
    let mut moves = Vec::new();
    let mut scores = Vec::new();
    while let Some((mv, score)) = picker.next_move(history) {
        moves.push(mv);
        scores.push(score);
    }
    let distinct: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(distinct.len(), moves.len(), "{:?}", names(&moves));
    assert_eq!(moves.len(), legal_moves(pos).len(), "{:?}", names(&moves));
    (moves, scores)
}

#[test]
fn good_captures_come_first_then_quiets_then_losing_captures() {
    let pos = Position::from_fen(STAGES).unwrap();
    let (moves, scores) = order(
        &pos,
        [Move::NULL; 2],
        Move::NULL,
        Continuations::NONE,
        &History::default(),
    );
    let n = moves.len();
    let good: BTreeSet<String> = names(&moves[..2]).into_iter().collect();
    assert_eq!(
        good,
        BTreeSet::from(["e4d5".to_string(), "c3d5".to_string()])
    );
    assert_eq!(names(&moves[n - 1..]), ["c3b5"]);
    assert!(moves[2..n - 1].iter().all(|&m| !pos.is_noisy(m)));
    // Without history every quiet move scores 0, below a good capture and
    // above a losing one.
    assert!(scores[2..n - 1].iter().all(|&s| s == 0), "{scores:?}");
    assert!(scores[1] > 0 && scores[n - 1] < 0, "{scores:?}");
}

#[test]
fn capture_history_orders_captures_of_equal_victims() {
    let pos = Position::from_fen(STAGES).unwrap();
    let (pawn, knight) = (mv(&pos, "e4d5"), mv(&pos, "c3d5"));
    let mut history = History::default();
    let first_two = |history: &History| {
        let (moves, _) = order(
            &pos,
            [Move::NULL; 2],
            Move::NULL,
            Continuations::NONE,
            history,
        );
        names(&moves[..2])
    };
    history.update_capture(&pos, knight, 300);
    assert_eq!(first_two(&history), ["c3d5", "e4d5"]);
    history.update_capture(&pos, pawn, 600);
    assert_eq!(first_two(&history), ["e4d5", "c3d5"]);
    // A losing capture stays last however well it did before.
    history.update_capture(&pos, mv(&pos, "c3b5"), 5_000);
    let (moves, _) = order(
        &pos,
        [Move::NULL; 2],
        Move::NULL,
        Continuations::NONE,
        &history,
    );
    assert_eq!(moves.last(), Some(&mv(&pos, "c3b5")));
}

#[test]
fn quiet_moves_come_by_history_score() {
    let pos = Position::from_fen(STAGES).unwrap();
    let mut history = History::default();
    for (uci, delta) in [("e4e5", 400), ("c3e2", 200), ("h1h7", 100), ("e1f1", -300)] {
        history.update_quiet(&pos, mv(&pos, uci), &Continuations::NONE, delta);
    }
    let (moves, scores) = order(
        &pos,
        [Move::NULL; 2],
        Move::NULL,
        Continuations::NONE,
        &history,
    );
    let n = moves.len();
    let quiets = &moves[2..n - 1];
    assert_eq!(names(&quiets[..3]), ["e4e5", "c3e2", "h1h7"]);
    // A move that failed before comes after those never tried.
    assert_eq!(names(&quiets[quiets.len() - 1..]), ["e1f1"]);
    assert_eq!(&scores[2..5], &[400, 200, 100]);
    assert!(
        scores[2..n - 1].windows(2).all(|w| w[0] >= w[1]),
        "{scores:?}"
    );
}

#[test]
fn killers_and_the_counter_move_come_before_other_quiets() {
    let pos = Position::from_fen(STAGES).unwrap();
    let mut history = History::default();
    // The best history of all, and yet after the killers and the counter.
    history.update_quiet(&pos, mv(&pos, "e4e5"), &Continuations::NONE, 900);
    history.update_quiet(&pos, mv(&pos, "e1d2"), &Continuations::NONE, -500);
    let killers = [mv(&pos, "e1d2"), mv(&pos, "h1h5")];
    let counter = mv(&pos, "e1g1");
    let (moves, _) = order(&pos, killers, counter, Continuations::NONE, &history);
    assert_eq!(
        names(&moves[2..6]),
        ["e1d2", "h1h5", "e1g1", "e4e5"],
        "{:?}",
        names(&moves)
    );
    // A killer that is a capture here, or not legal here, is no killer:
    // the capture keeps its place among the captures, and the second
    // killer and the counter-move follow the captures at once.
    let killers = [mv(&pos, "e4d5"), mv(&pos, "h1h5")];
    let (moves, _) = order(&pos, killers, counter, Continuations::NONE, &history);
    assert_eq!(
        names(&moves[2..5]),
        ["h1h5", "e1g1", "e4e5"],
        "{:?}",
        names(&moves)
    );
    let elsewhere = Position::startpos().parse_uci_move("g1f3", false).unwrap();
    let (moves, _) = order(
        &pos,
        [elsewhere, Move::NULL],
        counter,
        Continuations::NONE,
        &history,
    );
    assert_eq!(names(&moves[2..4]), ["e1g1", "e4e5"], "{:?}", names(&moves));
}

#[test]
fn continuation_history_orders_quiets_after_the_move_it_was_learnt_after() {
    let pos = Position::from_fen(STAGES).unwrap();
    let black_king = Piece::from_char('k').unwrap();
    let after = |to: &str| {
        let to: Square = to.parse().unwrap();
        Some((black_king, Move::new(to, to, MoveKind::Normal)))
    };
    let (here, elsewhere) = (
        Continuations::new(after("e8"), None),
        Continuations::new(after("d8"), None),
    );
    let mut history = History::default();
    // Good after the king's move to e8 (butterfly and continuation)...
    history.update_quiet(&pos, mv(&pos, "c3e2"), &here, 500);
    // ...against a move good in general (butterfly only), but less so.
    history.update_quiet(&pos, mv(&pos, "h1h7"), &Continuations::NONE, 700);
    let first_quiet =
        |conts| names(&order(&pos, [Move::NULL; 2], Move::NULL, conts, &history).0[2..3]);
    assert_eq!(first_quiet(here), ["c3e2"]);
    assert_eq!(first_quiet(elsewhere), ["h1h7"]);
    assert_eq!(first_quiet(Continuations::NONE), ["h1h7"]);
}

/// With no history yet, the quiet moves that take an attacked piece out of
/// a cheaper piece's reach come first (a queen's before a knight's), those
/// that walk into such an attack last, and the rest in between.
#[test]
fn quiet_moves_that_escape_a_cheaper_attacker_come_first() {
    // Black's rook on h8 attacks White's queen on h4 down the h-file; the
    // pawn on b6 attacks the knight on c5; the pawn on g4 attacks f3 and h3.
    let pos = Position::from_fen("4k2r/8/1p6/2N5/6pQ/8/8/4K1N1 w - - 0 1").unwrap();
    let threats = Threats::of(&pos, !pos.side_to_move());
    let conts = Continuations::NONE.with_threats(threats);
    let (moves, scores) = order(
        &pos,
        [Move::NULL; 2],
        Move::NULL,
        conts,
        &History::default(),
    );
    let score = |uci: &str| {
        let i = moves.iter().position(|m| m.to_uci(false) == uci).unwrap();
        scores[i]
    };
    // The queen leaves the rook's file: the largest bonus.
    let queen_escape = score("h4g5");
    assert_eq!(score("h4f2"), queen_escape);
    // The knight leaves the pawn's attack: a smaller one.
    let knight_escape = score("c5e4");
    assert!(queen_escape > knight_escape && knight_escape > 0);
    assert_eq!(score("c5d7"), knight_escape);
    // Along the file the queen stays attacked, and on h3 the pawn attacks
    // it instead; the g1 knight to e2 is neither attacked before nor
    // after; a king move is never scored so.
    for uci in ["h4h5", "h4h3", "g1e2", "e1d1"] {
        assert_eq!(score(uci), 0, "{uci}");
    }
    // Walking into a pawn's attack: a malus, as large as the escape bonus.
    assert_eq!(score("g1f3"), -knight_escape);
    // The first quiet moves handed out are queen escapes.
    let first_quiet = moves.iter().position(|m| !pos.is_capture(*m)).unwrap();
    assert_eq!(scores[first_quiet], queen_escape, "{:?}", names(&moves));
}
