//! The draw rules that depend on the game's history, in one place: a
//! position repeated, and the fifty-move rule. The search (draws in the
//! tree), the tablebase root ranking and self-play all ask here.
//!
//! Histories are Zobrist keys, oldest first, ending with the current
//! position. A key includes the side to move, so only every second earlier
//! key can match; a capture or pawn move cannot be undone, so no position
//! before the last one (the fifty-move clock's `window`) repeats.

use super::movegen::has_legal_move;
use super::position::Position;

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

    /// The keys of the positions `moves` (UCI) pass through from the start
    /// position, the start included.
    fn keys_of(moves: &str) -> Vec<u64> {
        let mut pos = Position::startpos();
        let mut keys = vec![pos.key()];
        for text in moves.split_whitespace() {
            let mv = pos.parse_uci_move(text, false).unwrap();
            pos.make_move(mv);
            keys.push(pos.key());
        }
        keys
    }

    const SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8";

    #[test]
    fn knights_shuffling_repeat_the_start_every_four_plies() {
        let keys = keys_of(SHUFFLE);
        assert_eq!(earlier_occurrences(&keys, 100).collect::<Vec<_>>(), [0]);
        assert!(!is_threefold(&keys, 100));
        let keys = keys_of(&format!("{SHUFFLE} {SHUFFLE}"));
        assert_eq!(earlier_occurrences(&keys, 100).collect::<Vec<_>>(), [4, 0]);
        assert!(is_threefold(&keys, 100));
        // The window hides what lies before it.
        assert_eq!(earlier_occurrences(&keys, 7).collect::<Vec<_>>(), [4]);
        assert!(!is_threefold(&keys, 7));
        assert!(has_repetition(&keys));
    }

    #[test]
    fn inside_a_search_one_repetition_on_the_path_is_enough() {
        let keys = keys_of(SHUFFLE);
        // The search began at ply 1: the start is before it, seen once.
        assert!(!is_repetition_draw(&keys, 100, 1));
        // The search began at the start: the path repeats it.
        assert!(is_repetition_draw(&keys, 100, 0));
        assert!(!is_repetition_draw(&keys, 3, 0), "outside the window");
        assert!(!is_repetition_draw(&[], 100, 0));
    }

    #[test]
    fn a_new_position_has_no_earlier_occurrence() {
        let keys = keys_of("g1f3 g8f6 f3g1 f6g8 e2e4");
        assert_eq!(earlier_occurrences(&keys, 100).count(), 0);
        assert!(has_repetition(&keys), "the start came back at ply 4");
        let keys = keys_of("g1f3 g8f6 f3g1");
        assert!(!has_repetition(&keys));
        assert!(!has_repetition(&[]));
        assert_eq!(earlier_occurrences(&[], 100).count(), 0);
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
