//! Accumulators: the first layer's sums for both perspectives, kept up to
//! date move by move.
//!
//! `Position` is copy-make, so the search keeps one accumulator per ply
//! (`AccumulatorStack`). Making a move only records which pieces it moves;
//! the sums are brought up to date when a node asks for its evaluation,
//! from the nearest ply above that is up to date, so nodes cut before
//! evaluating cost nothing. Each perspective is brought up to date on its
//! own: a king move that changes its side's `View` (another king bucket,
//! or across the mirror line) changes every feature of that side, which is
//! then rebuilt from the cache of the last sums computed in that view
//! (`Cache`), adding and removing only the pieces that differ.
//!
//! A network's evaluation of one position from scratch
//! (`Network::evaluate`) is an accumulator of its own, refreshed.

use super::features::{features_seen_by, View, MAX_ACTIVE};
use super::kernels::{Kernels, Row};
use super::network::{Network, HIDDEN};
use super::reference::scale_output;
use crate::chess::{Bitboard, Color, Kind, Move, Piece, Position, Square};
use kiln_formats::network::MAX_KING_BUCKETS;

/// The sums of both perspectives, indexed by `Color`.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub halves: [Row; 2],
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            halves: [[0; HIDDEN]; 2],
        }
    }
}

impl Accumulator {
    /// Both perspectives of `pos` from scratch.
    pub fn refresh(&mut self, net: &Network, pos: &Position, kernels: Kernels) {
        for perspective in [Color::White, Color::Black] {
            let mut features = [0u16; MAX_ACTIVE];
            let n = features_seen_by(pos, net.view(pos, perspective), &mut features);
            let half = &mut self.halves[perspective.index()];
            kernels.update(net, half, &net.b1, &features[..n], &[]);
        }
    }

    /// The evaluation in centipawns for the side to move of `pos`, the
    /// position these are the sums of. Always inlined: the generic
    /// kernels' portable arm made the compiler keep it out of line, which
    /// cost the search 0.7% more instructions (callgrind, `bench 9`).
    #[inline(always)]
    pub fn evaluate(&self, net: &Network, pos: &Position, kernels: Kernels) -> i32 {
        let stm = pos.side_to_move();
        let (ours, theirs) = (&self.halves[stm.index()], &self.halves[(!stm).index()]);
        let bucket = net.bucket(pos);
        scale_output(
            kernels.output_sum(&net.w2[bucket], ours, theirs),
            net.b2[bucket],
            net.eval_scale,
        )
    }
}

/// A network's evaluation through an accumulator of its own.
impl Network {
    /// The evaluation of `pos` in centipawns for the side to move, computed
    /// from scratch (the search updates accumulators instead).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = Accumulator::default();
        acc.refresh(self, pos, Kernels::PORTABLE);
        acc.evaluate(self, pos, Kernels::PORTABLE)
    }
}

/// The pieces one move puts down and takes away: at most two of each
/// (castling moves two pieces, a capture removes two), and where the
/// mover's king went, if it moved.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Delta {
    added: [Option<(Piece, Square)>; 2],
    removed: [Option<(Piece, Square)>; 2],
    added_len: u8,
    removed_len: u8,
    /// The mover's colour and its king's squares before and after.
    king: Option<(Color, Square, Square)>,
}

impl Delta {
    /// What `mv` changes in `pos` (the position before it).
    pub fn of_move(pos: &Position, mv: Move) -> Delta {
        let mut delta = Delta::default();
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = pos.piece_at(from) else {
            return delta;
        };
        let us = piece.color();
        if mv.is_castling() {
            let rook = Piece::new(us, Kind::Rook);
            delta.remove(piece, from);
            delta.remove(rook, to);
            delta.add(piece, mv.castling_king_target());
            delta.add(rook, mv.castling_rook_target());
            delta.king = Some((us, from, mv.castling_king_target()));
            return delta;
        }
        delta.remove(piece, from);
        let placed = mv.promotion().map_or(piece, |kind| Piece::new(us, kind));
        delta.add(placed, to);
        if mv.is_en_passant() {
            let victim = Square::from_file_rank(to.file(), from.rank());
            delta.remove(Piece::new(!us, Kind::Pawn), victim);
        } else if let Some(victim) = pos.piece_at(to) {
            delta.remove(victim, to);
        }
        if piece.kind() == Kind::King {
            delta.king = Some((us, from, to));
        }
        delta
    }

    #[inline]
    fn add(&mut self, piece: Piece, sq: Square) {
        self.added[self.added_len as usize] = Some((piece, sq));
        self.added_len += 1;
    }

    #[inline]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.removed[self.removed_len as usize] = Some((piece, sq));
        self.removed_len += 1;
    }

    /// Whether this move changes how `perspective` sees the board, so its
    /// half cannot be updated from the ply above.
    #[inline]
    fn changes_view(&self, net: &Network, perspective: Color) -> bool {
        match self.king {
            Some((color, from, to)) if color == perspective => {
                View::new(&net.arch.king, color, from) != View::new(&net.arch.king, color, to)
            }
            _ => false,
        }
    }

    /// Applies the change to `src`, one perspective's sums in `view`, into
    /// `dst`.
    #[inline]
    fn apply(&self, net: &Network, kernels: Kernels, view: View, src: &Row, dst: &mut Row) {
        let features = |pieces: &[Option<(Piece, Square)>; 2]| {
            pieces.map(|p| p.map_or(0, |(piece, sq)| view.feature(piece, sq)))
        };
        let (added, removed) = (features(&self.added), features(&self.removed));
        kernels.update(
            net,
            dst,
            src,
            &added[..self.added_len as usize],
            &removed[..self.removed_len as usize],
        );
    }
}

/// The last sums computed in each view (perspective, king bucket, mirrored
/// or not), with the pieces they are the sums of: a king move into a view
/// starts from there and changes only the pieces that differ, a handful
/// where a refresh from scratch adds every piece.
struct Cache {
    entries: Vec<CacheEntry>,
}

/// One view's sums (aligned for the SIMD kernels' loads and stores).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct CacheEntry {
    acc: Row,
    /// The pieces summed, by colour and kind.
    pieces: [[Bitboard; 6]; 2],
    /// `acc` holds sums (of the bias and `pieces`) for the current network.
    valid: bool,
}

impl Cache {
    fn new() -> Cache {
        let empty = CacheEntry {
            acc: [0; HIDDEN],
            pieces: [[Bitboard::EMPTY; 6]; 2],
            valid: false,
        };
        Cache {
            entries: vec![empty; 2 * MAX_KING_BUCKETS * 2],
        }
    }

    /// Forgets every view's sums (another network, or a new search).
    fn clear(&mut self) {
        for entry in &mut self.entries {
            entry.valid = false;
        }
    }

    /// `perspective`'s sums of `pos` into `dst`, from the view's cached
    /// sums.
    fn refresh(
        &mut self,
        net: &Network,
        kernels: Kernels,
        pos: &Position,
        perspective: Color,
        dst: &mut Row,
    ) {
        let view = net.view(pos, perspective);
        let (layer, mirrored) = view.key();
        let entry =
            &mut self.entries[(perspective.index() * MAX_KING_BUCKETS + layer) * 2 + mirrored];
        if !entry.valid {
            entry.acc = net.b1;
            entry.pieces = [[Bitboard::EMPTY; 6]; 2];
            entry.valid = true;
        }
        let (mut added, mut removed) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        let (mut n_added, mut n_removed) = (0, 0);
        for color in [Color::White, Color::Black] {
            for kind in Kind::ALL {
                let now = pos.pieces_of(color, kind);
                let cached = &mut entry.pieces[color.index()][kind.index()];
                let piece = Piece::new(color, kind);
                for sq in now & !*cached {
                    added[n_added] = view.feature(piece, sq);
                    n_added += 1;
                    if n_added == MAX_ACTIVE {
                        let src = entry.acc;
                        kernels.update(net, &mut entry.acc, &src, &added, &[]);
                        n_added = 0;
                    }
                }
                for sq in *cached & !now {
                    removed[n_removed] = view.feature(piece, sq);
                    n_removed += 1;
                    if n_removed == MAX_ACTIVE {
                        let src = entry.acc;
                        kernels.update(net, &mut entry.acc, &src, &[], &removed);
                        n_removed = 0;
                    }
                }
                *cached = now;
            }
        }
        kernels.update(
            net,
            dst,
            &entry.acc,
            &added[..n_added],
            &removed[..n_removed],
        );
        entry.acc = *dst;
    }
}

/// One ply of the stack.
#[derive(Clone, Copy, Default)]
struct Entry {
    acc: Accumulator,
    /// How this ply's position differs from the ply above.
    delta: Delta,
    /// Per perspective: `acc` holds this ply's sums.
    current: [bool; 2],
}

/// One accumulator per ply of the search path; ply 0 is the root.
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    cache: Cache,
    kernels: Kernels,
}

impl AccumulatorStack {
    /// A stack for paths of up to `plies` plies, with the fastest kernels.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack::with_kernels(plies, Kernels::detect())
    }

    /// A stack that runs the given kernels.
    pub fn with_kernels(plies: usize, kernels: Kernels) -> AccumulatorStack {
        AccumulatorStack {
            entries: vec![Entry::default(); plies + 1],
            cache: Cache::new(),
            kernels,
        }
    }

    /// Computes the root (ply 0) from scratch, and forgets the cached
    /// views (`net` may be another network than the last search's).
    pub fn set_root(&mut self, net: &Network, pos: &Position) {
        self.cache.clear();
        let root = &mut self.entries[0];
        root.acc.refresh(net, pos, self.kernels);
        root.current = [true; 2];
    }

    /// Records that the position at `ply + 1` is `pos` (at `ply`) after `mv`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, pos: &Position, mv: Move) {
        let child = &mut self.entries[ply + 1];
        child.delta = Delta::of_move(pos, mv);
        child.current = [false; 2];
    }

    /// Records a null move from `ply`: the same pieces at `ply + 1`.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        let child = &mut self.entries[ply + 1];
        child.delta = Delta::default();
        child.current = [false; 2];
    }

    /// The evaluation of `pos`, the position at `ply`, for its side to
    /// move: brings each perspective up to date first, from the nearest
    /// ply above that is current for it, or from the cache when a king
    /// move on the way changed its view (or no ply is current).
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        for perspective in [Color::White, Color::Black] {
            self.bring_up_to_date(net, pos, ply, perspective);
        }
        self.entries[ply].acc.evaluate(net, pos, self.kernels)
    }

    /// Brings `perspective`'s half of `ply` (whose position is `pos`) up
    /// to date.
    #[inline]
    fn bring_up_to_date(&mut self, net: &Network, pos: &Position, ply: usize, perspective: Color) {
        let side = perspective.index();
        let mut first = ply;
        while !self.entries[first].current[side] {
            if first == 0 || self.entries[first].delta.changes_view(net, perspective) {
                // Nothing above to start from: this ply from the cache.
                let half = &mut self.entries[ply].acc.halves[side];
                self.cache
                    .refresh(net, self.kernels, pos, perspective, half);
                self.entries[ply].current[side] = true;
                return;
            }
            first -= 1;
        }
        // No king move of this side between `first` and `ply` changed its
        // view, so `pos`'s view is each ply's on the way.
        let view = net.view(pos, perspective);
        for p in first + 1..=ply {
            let (above, below) = self.entries.split_at_mut(p);
            let (src, dst) = (&above[p - 1], &mut below[0]);
            let (src, dst_half) = (&src.acc.halves[side], &mut dst.acc.halves[side]);
            dst.delta.apply(net, self.kernels, view, src, dst_half);
            dst.current[side] = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::testdata::perft_suite;
    use crate::chess::{legal_moves, MoveKind};
    use crate::nnue::network::{EMBEDDED, NETWORK_BYTES};
    use crate::nnue::reference::Reference;
    use crate::rng::Rng;
    use kiln_formats::network::{self as file, Weights};

    /// Random walks from every perft-suite position and the first
    /// Chess960 starts, as a search walks: moves and null moves pushed,
    /// evaluations asked for at some plies only, walks backing up and
    /// branching. Calls `check(position, ply, stack)` at every ply.
    fn walk(
        net: &Network,
        kernels: Kernels,
        mut check: impl FnMut(&Position, usize, &mut AccumulatorStack),
    ) {
        let mut starts = perft_suite();
        // Endings, where kings walk across king buckets and the mirror line.
        starts.extend(
            [
                "8/5p2/2k2P2/8/8/2K5/8/8 w - - 0 50",
                "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 50",
                "4k3/8/8/3n4/8/8/3B4/4K3 b - - 0 40",
                "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 30",
            ]
            .map(|fen| Position::from_fen(fen).unwrap()),
        );
        starts.extend(
            include_str!("../../tests/data/frcperft.epd")
                .lines()
                .take(40)
                .filter_map(|l| Position::from_fen(l.split(';').next()?.trim()).ok()),
        );
        let mut rng = Rng::new(2026);
        let mut stack = AccumulatorStack::with_kernels(40, kernels);
        for root in starts {
            stack.set_root(net, &root);
            for _ in 0..3 {
                let mut path = vec![root];
                for ply in 0..24 {
                    let pos = path[ply];
                    let moves = legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    let next = if rng.below(10) == 0 && !pos.in_check() {
                        let mut next = pos;
                        next.make_null_move();
                        stack.push_null(ply);
                        next
                    } else {
                        let mv = moves.iter().nth(rng.below(moves.len())).unwrap();
                        let mut next = pos;
                        next.make_move(mv);
                        stack.push_move(ply, &pos, mv);
                        next
                    };
                    path.push(next);
                    if rng.below(3) == 0 {
                        check(&next, ply + 1, &mut stack);
                    }
                }
            }
        }
    }

    #[test]
    fn incremental_updates_match_the_reference_from_scratch() {
        let reference = file::read(NETWORK_BYTES).unwrap();
        let mut checked = 0;
        walk(&EMBEDDED, Kernels::PORTABLE, |pos, ply, stack| {
            let incremental = stack.evaluate(&EMBEDDED, pos, ply);
            assert_eq!(incremental, reference.evaluate(pos), "{}", pos.to_fen());
            assert_eq!(incremental, EMBEDDED.evaluate(pos), "{}", pos.to_fen());
            checked += 1;
        });
        assert!(checked > 3_000, "{checked} positions");
    }

    /// The kernels this CPU runs: the portable ones, then AVX2 and AVX-512
    /// where it has them.
    fn every_kernel() -> impl Iterator<Item = Kernels> {
        [Some(Kernels::PORTABLE), Kernels::avx2(), Kernels::avx512()]
            .into_iter()
            .flatten()
    }

    /// The embedded network's hidden layer under eight output layers that
    /// differ (each bucket's weights shifted its own way, and its bias).
    fn eight_buckets() -> Weights {
        let mut weights = file::read(NETWORK_BYTES).unwrap();
        let one_w2 = weights.w2[..2 * HIDDEN].to_vec();
        let one_b2 = weights.b2[0];
        weights.arch.output_buckets = file::MAX_OUTPUT_BUCKETS;
        weights.w2 = (0..file::MAX_OUTPUT_BUCKETS)
            .flat_map(|b| {
                one_w2.iter().enumerate().map(move |(i, &w)| {
                    let shift = (i * 7 + b * 13) as i16 % 9 - 4;
                    (w + shift).clamp(-file::MAX_OUTPUT_WEIGHT, file::MAX_OUTPUT_WEIGHT)
                })
            })
            .collect();
        weights.b2 = (0..file::MAX_OUTPUT_BUCKETS as i32)
            .map(|b| one_b2 + (b - 4) * 20_000)
            .collect();
        weights
    }

    #[test]
    fn every_output_bucket_is_evaluated_as_the_reference_does() {
        let reference = eight_buckets();
        let net = Network::from_weights(&reference).unwrap();
        let mut seen = [false; file::MAX_OUTPUT_BUCKETS];
        let mut checked = 0;
        for kernels in every_kernel() {
            walk(&net, kernels, |pos, ply, stack| {
                assert_eq!(
                    stack.evaluate(&net, pos, ply),
                    reference.evaluate(pos),
                    "{}",
                    pos.to_fen()
                );
                seen[net.bucket(pos)] = true;
                checked += 1;
            });
        }
        assert!(checked > 3_000, "{checked} positions");
        assert!(seen.iter().all(|&s| s), "buckets seen: {seen:?}");
        // The buckets differ: the same position under another bucket
        // count evaluates otherwise.
        let pos = Position::startpos();
        assert_ne!(
            reference.evaluate(&pos),
            reference.first_bucket_only().evaluate(&pos)
        );
    }

    /// The embedded network's input layer copied into four mirrored king
    /// buckets, each shifted its own way so that the buckets differ.
    fn king_buckets() -> Weights {
        let mut weights = file::read(NETWORK_BYTES).unwrap();
        weights.arch.king = file::KingBuckets::standard(4).unwrap();
        let plain = weights.w1.clone();
        weights.w1 = (0..4)
            .flat_map(|b| {
                plain
                    .iter()
                    .enumerate()
                    .map(move |(i, &w)| w.wrapping_add(((i * 5 + b * 11) % 7) as i16 - 3))
            })
            .collect();
        weights
    }

    /// With king buckets, mirrored or not, every kernel's incremental sums
    /// (through king moves that change a side's view, rebuilt from the
    /// cache) equal the reference from scratch.
    #[test]
    fn king_buckets_are_evaluated_as_the_reference_does() {
        king_buckets_match_the_reference(king_buckets(), 8);
        let mut unmirrored = king_buckets();
        unmirrored.arch.king = file::KingBuckets::unmirrored(4).unwrap();
        king_buckets_match_the_reference(unmirrored, 4);
    }

    /// A stack that searched with one network and then another (the cache
    /// holding the first one's sums) evaluates with the second as the
    /// reference does: `set_root` forgets the cached views.
    #[test]
    fn a_stack_reused_with_another_network_forgets_the_cached_views() {
        let (first, second) = (king_buckets(), {
            let mut other = king_buckets();
            other.w1.iter_mut().for_each(|w| *w = w.wrapping_mul(3) / 2);
            other
        });
        let (a, b) = (
            Network::from_weights(&first).unwrap(),
            Network::from_weights(&second).unwrap(),
        );
        let mut stack = AccumulatorStack::with_kernels(4, Kernels::PORTABLE);
        let root = Position::from_fen("8/5p2/2k2P2/8/8/2K5/8/8 w - - 0 50").unwrap();
        let mut after = root;
        let mv = root.parse_uci_move("c3d4", false).unwrap();
        after.make_move(mv);
        for (net, reference) in [(&a, &first), (&b, &second)] {
            stack.set_root(net, &root);
            stack.push_move(0, &root, mv);
            assert_eq!(stack.evaluate(net, &after, 1), reference.evaluate(&after));
            assert!(stack.cache.entries.iter().any(|e| e.valid));
        }
    }

    fn king_buckets_match_the_reference(reference: Weights, view_count: usize) {
        let net = Network::from_weights(&reference).unwrap();
        let (mut checked, mut from_cache) = (0, 0);
        let mut views = std::collections::HashSet::new();
        for kernels in every_kernel() {
            walk(&net, kernels, |pos, ply, stack| {
                assert_eq!(
                    stack.evaluate(&net, pos, ply),
                    reference.evaluate(pos),
                    "{}",
                    pos.to_fen()
                );
                let mut scratch = Accumulator::default();
                scratch.refresh(&net, pos, Kernels::PORTABLE);
                assert_eq!(stack.entries[ply].acc.halves, scratch.halves);
                for color in [Color::White, Color::Black] {
                    views.insert(net.view(pos, color).key());
                }
                from_cache += stack.cache.entries.iter().any(|e| e.valid) as usize;
                checked += 1;
            });
        }
        assert!(checked > 3_000, "{checked} positions");
        assert!(
            from_cache > 100,
            "{from_cache} positions after a cache refresh"
        );
        assert_eq!(views.len(), view_count, "views seen: {views:?}");
        // The buckets differ: the same weights without king buckets
        // evaluate otherwise.
        let single = reference.first_king_bucket_only();
        let differ = perft_suite()
            .iter()
            .filter(|pos| reference.evaluate(pos) != single.evaluate(pos))
            .count();
        assert!(differ > perft_suite().len() / 2, "{differ} differ");
    }

    #[test]
    fn the_simd_kernels_compute_what_the_portable_ones_do() {
        let mut portable = AccumulatorStack::with_kernels(40, Kernels::PORTABLE);
        let mut checked = 0;
        for (name, simd) in [("AVX2", Kernels::avx2()), ("AVX-512", Kernels::avx512())] {
            let Some(simd) = simd else {
                eprintln!("no {name} on this CPU: its kernels are not tested here");
                continue;
            };
            walk(&EMBEDDED, simd, |pos, ply, stack| {
                portable.set_root(&EMBEDDED, pos);
                let scratch = portable.evaluate(&EMBEDDED, pos, 0);
                assert_eq!(
                    stack.evaluate(&EMBEDDED, pos, ply),
                    scratch,
                    "{name}: {}",
                    pos.to_fen()
                );
                assert_eq!(
                    stack.entries[ply].acc.halves,
                    portable.entries[0].acc.halves
                );
                checked += 1;
            });
        }
        if checked == 0 {
            eprintln!("no SIMD kernels on this CPU: only the portable ones run here");
            return;
        }
        assert!(checked > 3_000, "{checked} positions");
    }

    #[test]
    fn every_kind_of_move_changes_the_features_it_should() {
        let delta = |fen: &str, uci: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let mv = legal_moves(&pos)
                .iter()
                .find(|m| m.to_uci(false) == uci)
                .unwrap();
            (Delta::of_move(&pos, mv), mv.kind())
        };
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let (d, kind) = delta(kiwipete, "e1g1");
        assert_eq!(
            (kind, d.added_len, d.removed_len),
            (MoveKind::Castling, 2, 2)
        );
        assert_eq!(d.king.map(|k| k.0), Some(Color::White));
        let (d, _) = delta(kiwipete, "e1f1");
        assert!(d.king.is_some());
        let (d, _) = delta(kiwipete, "e5f7");
        assert_eq!(d.king, None);
        assert_eq!((d.added_len, d.removed_len), (1, 2));
        let (d, _) = delta(kiwipete, "a2a3");
        assert_eq!((d.added_len, d.removed_len), (1, 1));
        let (d, kind) = delta("8/8/8/1Pp5/8/8/8/K6k w - c6 0 1", "b5c6");
        assert_eq!(
            (kind, d.added_len, d.removed_len),
            (MoveKind::EnPassant, 1, 2)
        );
        let (d, kind) = delta("1r5k/P7/8/8/8/8/8/K7 w - - 0 1", "a7b8n");
        assert_eq!(
            (kind, d.added_len, d.removed_len),
            (MoveKind::PromoteKnight, 1, 2)
        );
    }

    #[test]
    fn the_embedded_network_is_the_committed_file() {
        let net = Network::from_bytes(NETWORK_BYTES).unwrap();
        assert!(net.w1 == EMBEDDED.w1 && net.b1 == EMBEDDED.b1);
        assert!(net.w2 == EMBEDDED.w2 && net.b2 == EMBEDDED.b2);
        assert_eq!(
            (net.arch, net.eval_scale),
            (EMBEDDED.arch, EMBEDDED.eval_scale)
        );
    }
}
