//! The input features: which of a network's inputs a position's pieces
//! are, as one perspective sees them with its king where it stands
//! (`View`), and the plain features a training sample keeps, mirrored to
//! the other side and placed in a network's king buckets
//! (`active_features`, `mirror`, `in_layer`).

use crate::chess::{Color, Kind, Piece, Position, Square};
use kiln_formats::network::{KingBuckets, INPUTS};

/// The most pieces a legal position has: the most features per side.
pub const MAX_ACTIVE: usize = 32;

/// How one perspective sees the board while its king stands where it
/// does: the first feature of the king's input layer, and the flips that
/// take a square to the perspective's own (ranks for Black, files for a
/// mirrored network whose king is on files e-h). A perspective's features
/// change all at once only when its king moves to another `View`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    base: u16,
    flip: u8,
}

impl View {
    /// The view of `perspective` with its king on `king`.
    #[inline]
    pub fn new(layout: &KingBuckets, perspective: Color, king: Square) -> View {
        let rank_flip = match perspective {
            Color::White => 0,
            Color::Black => 56,
        };
        let (base, file_flip) = layout.view(king.index() ^ rank_flip);
        View {
            perspective,
            base: base as u16,
            flip: (rank_flip ^ file_flip) as u8,
        }
    }

    /// The view of `perspective` in `pos`.
    #[inline]
    pub fn of(layout: &KingBuckets, pos: &Position, perspective: Color) -> View {
        View::new(layout, perspective, pos.king(perspective))
    }

    /// The king bucket of this view, and whether it flips files (1) or not
    /// (0): where the accumulator cache keeps its sums.
    #[inline]
    pub(crate) fn key(self) -> (usize, usize) {
        (self.base as usize / INPUTS, (self.flip & 7 != 0) as usize)
    }

    /// The input feature of `piece` on `sq`.
    #[inline]
    pub fn feature(self, piece: Piece, sq: Square) -> u16 {
        let theirs = (piece.color() != self.perspective) as usize;
        let index = (theirs * 6 + piece.kind().index()) * 64 + (sq.index() ^ self.flip as usize);
        self.base + index as u16
    }
}

/// The features of `pos` as `view` sees them. Returns how many were
/// written.
pub fn features_seen_by(pos: &Position, view: View, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let mut n = 0;
    for color in [Color::White, Color::Black] {
        for kind in Kind::ALL {
            for sq in pos.pieces_of(color, kind) {
                if n < MAX_ACTIVE {
                    out[n] = view.feature(Piece::new(color, kind), sq);
                    n += 1;
                }
            }
        }
    }
    n
}

/// The features of `pos` from the side to move's perspective, in one
/// input layer without mirroring (`KingBuckets::NONE`): the position as a
/// training sample keeps it. The other side's are their `mirror`s;
/// `in_layer` places either in a network's king buckets. Returns how many
/// were written.
pub fn active_features(pos: &Position, out: &mut [u16; MAX_ACTIVE]) -> usize {
    let view = View::of(&KingBuckets::NONE, pos, pos.side_to_move());
    features_seen_by(pos, view, out)
}

/// The same piece seen from the other side, in one input layer without
/// mirroring: the other perspective's feature from one perspective's.
#[inline]
pub fn mirror(feature: usize) -> usize {
    let theirs = feature / 384;
    let kind = feature / 64 % 6;
    let sq = feature % 64;
    ((1 - theirs) * 6 + kind) * 64 + (sq ^ 56)
}

/// One perspective's features in one layer without mirroring (as
/// `active_features` and `mirror` give them), placed in `layout`'s king
/// bucket and flipped as its own king's square says. The perspective's own
/// king must be among them. Returns how many were written.
pub fn in_layer(layout: &KingBuckets, plain: &[u16], out: &mut [u16; MAX_ACTIVE]) -> usize {
    const OWN_KING: usize = Kind::King as usize * 64;
    let king = plain
        .iter()
        .map(|&f| f as usize)
        .find(|f| (OWN_KING..OWN_KING + 64).contains(f))
        .map_or(0, |f| f % 64);
    let (base, flip) = layout.view(king);
    for (o, &f) in out.iter_mut().zip(plain) {
        let f = f as usize;
        *o = (base + (f & !63) + ((f & 63) ^ flip)) as u16;
    }
    plain.len().min(MAX_ACTIVE)
}

#[cfg(test)]
mod tests {
    use super::*;

    use kiln_formats::network::MAX_KING_BUCKETS;

    #[test]
    fn features_are_distinct_and_mirror_to_the_other_side() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let plain = KingBuckets::NONE;
        let (white, black) = (
            View::of(&plain, &pos, Color::White),
            View::of(&plain, &pos, Color::Black),
        );
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                for sq in pos.pieces_of(color, kind) {
                    let piece = Piece::new(color, kind);
                    let (w, b) = (white.feature(piece, sq), black.feature(piece, sq));
                    assert!((w as usize) < INPUTS && (b as usize) < INPUTS);
                    assert_eq!(mirror(w as usize), b as usize);
                    assert_eq!(mirror(b as usize), w as usize);
                }
            }
        }
        let mut all = std::collections::HashSet::new();
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                for sq in Square::all() {
                    assert!(all.insert(white.feature(Piece::new(color, kind), sq)));
                }
            }
        }
        assert_eq!(all.len(), INPUTS);
    }

    /// A perspective's view places its features in its king's layer and
    /// flips files while that king is on files e-h, as `in_layer` does from
    /// the plain features; every king square of every layout.
    #[test]
    fn views_place_features_in_the_king_layer() {
        for count in 1..=MAX_KING_BUCKETS {
            let layout = KingBuckets::standard(count).unwrap();
            for king in Square::all() {
                for perspective in [Color::White, Color::Black] {
                    let other_king = Square::all()
                        .find(|&s| {
                            let (a, b) = (s.index() as i32, king.index() as i32);
                            (a % 8 - b % 8).abs() > 1 || (a / 8 - b / 8).abs() > 1
                        })
                        .unwrap();
                    let mut board = [None; 64];
                    board[king.index()] = Some(Piece::new(perspective, Kind::King));
                    board[other_king.index()] = Some(Piece::new(!perspective, Kind::King));
                    let view = View::new(&layout, perspective, king);
                    let plain_view = View::new(&KingBuckets::NONE, perspective, king);
                    let pieces: Vec<(Piece, Square)> = board
                        .iter()
                        .enumerate()
                        .filter_map(|(i, p)| p.map(|p| (p, Square::new(i as u8))))
                        .chain([
                            (Piece::new(Color::White, Kind::Knight), Square::new(27)),
                            (Piece::new(Color::Black, Kind::Pawn), Square::new(52)),
                        ])
                        .collect();
                    let plain: Vec<u16> = pieces
                        .iter()
                        .map(|&(p, s)| plain_view.feature(p, s))
                        .collect();
                    let mut placed = [0u16; MAX_ACTIVE];
                    let n = in_layer(&layout, &plain, &mut placed);
                    let direct: Vec<u16> =
                        pieces.iter().map(|&(p, s)| view.feature(p, s)).collect();
                    assert_eq!(&placed[..n], &direct[..], "{count} layers, king {king:?}");
                    let own = king.index() ^ if perspective == Color::White { 0 } else { 56 };
                    let layer = layout.map[own] as usize;
                    assert!(direct.iter().all(|&f| f as usize / INPUTS == layer));
                    // The own king always appears on files a-d when mirrored.
                    let king_feature = view.feature(Piece::new(perspective, Kind::King), king);
                    assert!(!layout.mirrored || (king_feature % 8) < 4);
                }
            }
        }
    }
}
