//! The draw rules that depend on the game's history, in one place: a
//! position repeated, and the fifty-move rule. The search (draws in the
//! tree), the tablebase root ranking and self-play all ask here. The test
//! for a repetition the side to move can force next move
//! (`has_upcoming_repetition`) is here too, but the search does not use
//! it: its SPRTs did not pass (docs/history/search.md).
//!
//! Histories are Zobrist keys, oldest first, ending with the current
//! position. A key includes the side to move, so only every second earlier
//! key can match; a capture or pawn move cannot be undone, so no position
//! before the last one (the fifty-move clock's `window`) repeats.

use super::attacks::between;
use super::bitboard::Bitboard;
use super::movegen::has_legal_move;
use super::position::Position;
use super::square::Square;
use crate::tables::cuckoo::{cuckoo_h1, cuckoo_h2, CUCKOO_KEYS, CUCKOO_MOVES};
use crate::tables::zobrist::SIDE;

/// The indices in `keys` of the earlier occurrences of its last position,
/// newest first, looking back at most `window` plies. A position needs at
/// least four plies to come back, so the search starts there.
#[inline]
pub fn earlier_occurrences(keys: &[u64], window: usize) -> impl Iterator<Item = usize> + '_ {
    let current = keys.len().saturating_sub(1);
    let key = keys.last().copied();
    (4..=window.min(current))
        .step_by(2)
        .map(move |back| current - back)
        .filter(move |&index| Some(keys[index]) == key)
}

/// The last position of `keys` is drawn by repetition, with `keys[..since]`
/// the game before a search and the rest the search's own path: a position
/// repeated on the path is a draw at once (either side could repeat it
/// again), one from before needs to stand for the third time (threefold).
/// With `since = keys.len()` this is the threefold rule alone. Looks back
/// at most `window` plies (the fifty-move clock). The search asks this at
/// every node: a plain loop, newest first.
#[inline]
pub fn is_repetition_draw(keys: &[u64], window: usize, since: usize) -> bool {
    let Some((&key, earlier)) = keys.split_last() else {
        return false;
    };
    let current = earlier.len();
    let mut seen_before = 0;
    let mut back = 4;
    while back <= window && back <= current {
        let index = current - back;
        if earlier[index] == key {
            if index >= since {
                return true;
            }
            seen_before += 1;
            if seen_before >= 2 {
                return true;
            }
        }
        back += 2;
    }
    false
}

/// The side to move in the last position of `keys` can repeat a position
/// with one reversible move, so it can hold the draw at least: the
/// upcoming-repetition test of Marcel van Kervinck, with the cuckoo tables
/// of `crate::tables::cuckoo`. `occupied` is the current position's
/// occupancy; `window` and `since` are as for `is_repetition_draw`.
///
/// For each earlier position an odd number `i` of plies back (3, 5, ...,
/// at most `window`): if the opponent's moves since then cancel out, and
/// the keys differ by one reversible move of a non-pawn piece (a cuckoo
/// table entry) whose path is empty now, then that move takes the side to
/// move back there. It counts where `is_repetition_draw` would call the
/// position after it a draw: when the earlier position is on the search's
/// path (index `>= since`), or when it is from the game before the search
/// and stood there twice already (a threefold repetition).
///
/// The opponent's moves cancelling also proves that the move is the side
/// to move's own (not the opponent's piece, which it could not move), and
/// since it returns to a position where the side to move was not in check,
/// it is legal.
#[inline]
pub fn has_upcoming_repetition(
    keys: &[u64],
    occupied: Bitboard,
    window: usize,
    since: usize,
) -> bool {
    let Some(current) = keys.len().checked_sub(1) else {
        return false;
    };
    let end = window.min(current);
    if end < 3 {
        return false;
    }
    let key = keys[current];
    // The opponent's moves from `current - i` on, xored together (each
    // move's key change without the side to move): zero when they cancel.
    let mut theirs = key ^ keys[current - 1] ^ SIDE;
    let mut i = 3;
    while i <= end {
        let earlier = current - i;
        theirs ^= keys[earlier + 1] ^ keys[earlier] ^ SIDE;
        i += 2;
        if theirs != 0 {
            continue;
        }
        let move_key = key ^ keys[earlier];
        let slot = if CUCKOO_KEYS[cuckoo_h1(move_key)] == move_key {
            cuckoo_h1(move_key)
        } else if CUCKOO_KEYS[cuckoo_h2(move_key)] == move_key {
            cuckoo_h2(move_key)
        } else {
            continue;
        };
        let mv = CUCKOO_MOVES[slot];
        let (from, to) = (
            Square::new((mv & 63) as u8),
            Square::new((mv >> 6 & 63) as u8),
        );
        if (between(from, to) & occupied).any() {
            continue;
        }
        if earlier >= since {
            return true;
        }
        // From before the search: a repetition only if it stood twice, the
        // other time within the fifty-move window.
        let mut back = 4;
        while back <= earlier && earlier - back >= current - end {
            if keys[earlier - back] == keys[earlier] {
                return true;
            }
            back += 2;
        }
    }
    false
}

/// The last position of `keys` stands for the third time (threefold
/// repetition) within the last `window` plies.
#[inline]
pub fn is_threefold(keys: &[u64], window: usize) -> bool {
    is_repetition_draw(keys, window, keys.len())
}

/// Some position of `keys` has occurred before in it: the history since the
/// last capture or pawn move holds a repetition.
pub fn has_repetition(keys: &[u64]) -> bool {
    (0..keys.len()).any(|end| earlier_occurrences(&keys[..=end], end).next().is_some())
}

/// The fifty-move rule draws `pos`: a hundred plies without a capture or
/// pawn move, unless the last of them mated.
#[inline]
pub fn is_fifty_move_draw(pos: &Position) -> bool {
    pos.halfmove_clock() >= 100 && (!pos.in_check() || has_legal_move(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{legal_moves, Move};

    /// The keys of the positions `moves` (UCI) pass through from `fen`,
    /// the start included.
    fn keys_of(fen: &str, moves: &str) -> (Vec<u64>, Position) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut keys = vec![pos.key()];
        for text in moves.split_whitespace() {
            let mv = pos.parse_uci_move(text, false).unwrap();
            pos.make_move(mv);
            keys.push(pos.key());
        }
        (keys, pos)
    }

    const SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8";

    #[test]
    fn knights_shuffling_repeat_the_start_every_four_plies() {
        let (keys, _) = keys_of(Position::STARTPOS_FEN, SHUFFLE);
        assert_eq!(earlier_occurrences(&keys, 100).collect::<Vec<_>>(), [0]);
        assert!(!is_threefold(&keys, 100));
        let (keys, _) = keys_of(Position::STARTPOS_FEN, &format!("{SHUFFLE} {SHUFFLE}"));
        assert_eq!(earlier_occurrences(&keys, 100).collect::<Vec<_>>(), [4, 0]);
        assert!(is_threefold(&keys, 100));
        // The window hides what lies before it.
        assert_eq!(earlier_occurrences(&keys, 7).collect::<Vec<_>>(), [4]);
        assert!(!is_threefold(&keys, 7));
        assert!(has_repetition(&keys));
    }

    #[test]
    fn inside_a_search_one_repetition_on_the_path_is_enough() {
        let (keys, _) = keys_of(Position::STARTPOS_FEN, SHUFFLE);
        // The search began at ply 1: the start is before it, seen once.
        assert!(!is_repetition_draw(&keys, 100, 1));
        // The search began at the start: the path repeats it.
        assert!(is_repetition_draw(&keys, 100, 0));
        assert!(!is_repetition_draw(&keys, 3, 0), "outside the window");
        assert!(!is_repetition_draw(&[], 100, 0));
    }

    #[test]
    fn a_new_position_has_no_earlier_occurrence() {
        let (keys, _) = keys_of(Position::STARTPOS_FEN, "g1f3 g8f6 f3g1 f6g8 e2e4");
        assert_eq!(earlier_occurrences(&keys, 100).count(), 0);
        assert!(has_repetition(&keys), "the start came back at ply 4");
        let (keys, _) = keys_of(Position::STARTPOS_FEN, "g1f3 g8f6 f3g1");
        assert!(!has_repetition(&keys));
        assert!(!has_repetition(&[]));
        assert_eq!(earlier_occurrences(&[], 100).count(), 0);
    }

    /// `has_upcoming_repetition` for the last position of `keys`, reached
    /// in `pos`, with the search begun at `since` and no clock limit.
    fn upcoming(keys: &[u64], pos: &Position, since: usize) -> bool {
        has_upcoming_repetition(keys, pos.occupied(), 100, since)
    }

    #[test]
    fn a_knight_can_go_back_to_repeat_the_start() {
        // After Nf3 Nf6 Ng1, Black's Ng8 repeats the start position.
        let (keys, pos) = keys_of(Position::STARTPOS_FEN, "g1f3 g8f6 f3g1");
        assert!(upcoming(&keys, &pos, 0));
        // One ply earlier White has no move back to anything.
        let (early, early_pos) = keys_of(Position::STARTPOS_FEN, "g1f3 g8f6");
        assert!(!upcoming(&early, &early_pos, 0));
        // The window (fifty-move clock, null move) must reach back 3 plies.
        assert!(!has_upcoming_repetition(&keys, pos.occupied(), 2, 0));
        assert!(has_upcoming_repetition(&keys, pos.occupied(), 3, 0));
        assert!(!has_upcoming_repetition(&[], pos.occupied(), 100, 0));
    }

    #[test]
    fn a_position_from_before_the_search_must_have_stood_twice() {
        // The search began after the start: going back there would be its
        // second occurrence only.
        let (keys, pos) = keys_of(Position::STARTPOS_FEN, "g1f3 g8f6 f3g1");
        assert!(!upcoming(&keys, &pos, 1));
        // Shuffled once already, the start would stand for the third time,
        // unless the window hides its first occurrence.
        let (keys, pos) = keys_of(Position::STARTPOS_FEN, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        let root = keys.len() - 1;
        assert!(upcoming(&keys, &pos, root));
        assert!(!has_upcoming_repetition(&keys, pos.occupied(), 6, root));
    }

    #[test]
    fn the_opponents_moves_must_cancel_out() {
        // Black's rook went a8-a6-a5-a7 while White's knight went out and
        // back: the keys differ by a rook move a7-a8, but that is Black's
        // rook, and White is to move.
        let fen = "r3k3/8/8/8/8/8/8/4K1N1 b - - 0 1";
        let (keys, pos) = keys_of(fen, "a8a6 g1f3 a6a5 f3g1 a5a7");
        assert!(!upcoming(&keys, &pos, 0));
        // When Black's rook comes back to a6 instead, Ng1-f3 repeats.
        let (keys, pos) = keys_of(fen, "a8a6 g1f3 a6a5 f3g1 a5a6");
        assert!(upcoming(&keys, &pos, 0));
    }

    #[test]
    fn a_slider_cannot_pass_a_piece_in_its_way() {
        // White's rook went a1-b1-b3-a3 while Black's knight went round
        // c6-d8-f7-e5-c6: Ra3-a1 would repeat the start, if a2 is empty.
        let moves = "c6d8 a1b1 d8f7 b1b3 f7e5 b3a3 e5c6";
        let (keys, pos) = keys_of("7k/8/2n5/8/8/8/8/R3K3 b - - 0 1", moves);
        assert!(upcoming(&keys, &pos, 0));
        let (keys, pos) = keys_of("7k/8/2n5/8/8/8/P7/R3K3 b - - 0 1", moves);
        assert!(!upcoming(&keys, &pos, 0), "the pawn on a2 is in the way");
    }

    /// Whether some legal move from `pos` (the last of `keys`) reaches a
    /// position `is_repetition_draw` calls a draw: what
    /// `has_upcoming_repetition` answers without generating moves.
    fn some_move_repeats(keys: &[u64], pos: &Position, since: usize) -> bool {
        legal_moves(pos).as_slice().iter().any(|&mv| {
            let mut next = *pos;
            next.make_move(mv);
            let mut after = keys.to_vec();
            after.push(next.key());
            is_repetition_draw(&after, next.halfmove_clock() as usize, since)
        })
    }

    #[test]
    fn it_agrees_with_trying_every_move_along_random_games() {
        let mut rng = crate::rng::Rng::new(7);
        let fens = [
            "r3k3/8/8/8/8/8/8/R3K1N1 w - - 0 1",
            "1n2k1n1/8/8/3b4/8/8/2Q5/1N2K3 b - - 0 1",
            "4k3/pp6/8/8/8/8/PP6/1B1RK2R w K - 0 1",
        ];
        let (mut found, mut checked) = (0, 0);
        for fen in fens {
            for _ in 0..20 {
                let mut pos = Position::from_fen(fen).unwrap();
                let mut keys = vec![pos.key()];
                for _ in 0..40 {
                    let moves = legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    // Mostly quiet moves, so positions come back.
                    let quiet: Vec<Move> = moves
                        .as_slice()
                        .iter()
                        .copied()
                        .filter(|&mv| !pos.is_capture(mv) || rng.below(8) == 0)
                        .collect();
                    let pool = if quiet.is_empty() {
                        moves.as_slice()
                    } else {
                        &quiet
                    };
                    pos.make_move(pool[rng.below(pool.len())]);
                    keys.push(pos.key());
                    let since = rng.below(keys.len());
                    let window = pos.halfmove_clock() as usize;
                    let expected = some_move_repeats(&keys, &pos, since);
                    assert_eq!(
                        has_upcoming_repetition(&keys, pos.occupied(), window, since),
                        expected,
                        "{fen} then {} plies, search from {since}",
                        keys.len() - 1
                    );
                    found += expected as usize;
                    checked += 1;
                }
            }
        }
        assert!(
            found * 50 > checked,
            "{found} of {checked}: too few to test"
        );
    }

    #[test]
    fn the_tables_hold_exactly_the_reversible_moves() {
        use crate::chess::attacks::{
            bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
        };
        use crate::chess::{Color, Kind};
        use crate::tables::cuckoo::CUCKOO_SIZE;
        use crate::tables::zobrist::PIECE_SQUARE;
        let mut count = 0;
        for colour in [Color::White, Color::Black] {
            for kind in [
                Kind::Knight,
                Kind::Bishop,
                Kind::Rook,
                Kind::Queen,
                Kind::King,
            ] {
                let keys = &PIECE_SQUARE[colour.index() * 6 + kind.index()];
                for from in Square::all() {
                    let targets = match kind {
                        Kind::Knight => knight_attacks(from),
                        Kind::Bishop => bishop_attacks(from, Bitboard::EMPTY),
                        Kind::Rook => rook_attacks(from, Bitboard::EMPTY),
                        Kind::Queen => queen_attacks(from, Bitboard::EMPTY),
                        _ => king_attacks(from),
                    };
                    for to in targets.filter(|to| to.index() > from.index()) {
                        let key = keys[from.index()] ^ keys[to.index()] ^ SIDE;
                        let slot = [cuckoo_h1(key), cuckoo_h2(key)]
                            .into_iter()
                            .find(|&slot| CUCKOO_KEYS[slot] == key)
                            .expect("every reversible move is stored");
                        let mv = CUCKOO_MOVES[slot];
                        assert_eq!((mv & 63, mv >> 6), (from.index() as u16, to.index() as u16));
                        count += 1;
                    }
                }
            }
        }
        assert_eq!(count, 3668);
        // Nothing else: as many filled slots as moves.
        assert_eq!(CUCKOO_KEYS.iter().filter(|&&k| k != 0).count(), count);
        assert_eq!(CUCKOO_MOVES.iter().filter(|&&m| m != 0).count(), count);
        assert_eq!(CUCKOO_KEYS.len(), CUCKOO_SIZE);
    }

    #[test]
    fn fifty_moves_draw_unless_the_last_one_mates() {
        let quiet = Position::from_fen("8/8/4k3/8/8/4K3/8/4R3 w - - 100 80").unwrap();
        assert!(is_fifty_move_draw(&quiet));
        let early = Position::from_fen("8/8/4k3/8/8/4K3/8/4R3 w - - 99 80").unwrap();
        assert!(!is_fifty_move_draw(&early));
        // Black is mated on the hundredth ply: the mate stands.
        let mated = Position::from_fen("4k3/4Q3/4K3/8/8/8/8/8 b - - 100 80").unwrap();
        assert!(mated.in_check() && !has_legal_move(&mated));
        assert!(!is_fifty_move_draw(&mated));
    }
}
