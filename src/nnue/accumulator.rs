//! Accumulators: the first layer's sums for both perspectives, kept up to
//! date move by move.
//!
//! `Position` is copy-make, so the search keeps one accumulator per ply
//! (`AccumulatorStack`). Making a move only records which features it
//! changes; the sums are brought up to date when a node asks for its
//! evaluation, from the nearest ply above that is up to date, so nodes
//! cut before evaluating cost nothing. Without king buckets no move ever
//! needs a refresh; only the root is computed from scratch.

use super::kernels::{Kernels, Row};
use super::{feature, features_seen_by, mirror, scale_output, Network, HIDDEN, MAX_ACTIVE};
use crate::chess::{Color, Kind, Move, Piece, Position};

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
        let mut features = [0u16; MAX_ACTIVE];
        let n = features_seen_by(pos, Color::White, &mut features);
        let mirrored: [u16; MAX_ACTIVE] =
            std::array::from_fn(|i| mirror(features[i] as usize) as u16);
        let bias = net.b1;
        kernels.update(net, &mut self.halves[0], &bias, &features[..n], &[]);
        kernels.update(net, &mut self.halves[1], &bias, &mirrored[..n], &[]);
    }

    /// The evaluation in centipawns for the side to move of `pos`, the
    /// position these are the sums of.
    #[inline]
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

/// The features one move adds and removes, seen from White (Black's are
/// their mirrors): at most two of each (castling moves two pieces, a
/// capture removes two).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Delta {
    added: [u16; 2],
    removed: [u16; 2],
    added_len: u8,
    removed_len: u8,
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
        let white = |piece: Piece, sq| feature(Color::White, piece, sq) as u16;
        if mv.is_castling() {
            let rook = Piece::new(us, Kind::Rook);
            delta.remove(white(piece, from));
            delta.remove(white(rook, to));
            delta.add(white(piece, mv.castling_king_target()));
            delta.add(white(rook, mv.castling_rook_target()));
            return delta;
        }
        delta.remove(white(piece, from));
        let placed = mv.promotion().map_or(piece, |kind| Piece::new(us, kind));
        delta.add(white(placed, to));
        if mv.is_en_passant() {
            let victim = crate::chess::Square::from_file_rank(to.file(), from.rank());
            delta.remove(white(Piece::new(!us, Kind::Pawn), victim));
        } else if let Some(victim) = pos.piece_at(to) {
            delta.remove(white(victim, to));
        }
        delta
    }

    #[inline]
    fn add(&mut self, f: u16) {
        self.added[self.added_len as usize] = f;
        self.added_len += 1;
    }

    #[inline]
    fn remove(&mut self, f: u16) {
        self.removed[self.removed_len as usize] = f;
        self.removed_len += 1;
    }

    /// Applies the change to `src`'s sums, into `dst`.
    #[inline]
    fn apply(&self, net: &Network, kernels: Kernels, src: &Accumulator, dst: &mut Accumulator) {
        let added = &self.added[..self.added_len as usize];
        let removed = &self.removed[..self.removed_len as usize];
        let mirrored = |fs: &[u16]| -> [u16; 2] {
            let mut out = [0; 2];
            for (o, &f) in out.iter_mut().zip(fs) {
                *o = mirror(f as usize) as u16;
            }
            out
        };
        let (added_black, removed_black) = (mirrored(added), mirrored(removed));
        let white = Color::White.index();
        let black = Color::Black.index();
        kernels.update(
            net,
            &mut dst.halves[white],
            &src.halves[white],
            added,
            removed,
        );
        kernels.update(
            net,
            &mut dst.halves[black],
            &src.halves[black],
            &added_black[..added.len()],
            &removed_black[..removed.len()],
        );
    }
}

/// One ply of the stack.
#[derive(Clone, Copy, Default)]
struct Entry {
    acc: Accumulator,
    /// How this ply's position differs from the ply above.
    delta: Delta,
    /// `acc` holds this ply's sums.
    current: bool,
}

/// One accumulator per ply of the search path; ply 0 is the root.
pub struct AccumulatorStack {
    entries: Vec<Entry>,
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
            kernels,
        }
    }

    /// Computes the root (ply 0) from scratch.
    pub fn set_root(&mut self, net: &Network, pos: &Position) {
        let root = &mut self.entries[0];
        root.acc.refresh(net, pos, self.kernels);
        root.current = true;
    }

    /// Records that the position at `ply + 1` is `pos` (at `ply`) after `mv`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, pos: &Position, mv: Move) {
        let child = &mut self.entries[ply + 1];
        child.delta = Delta::of_move(pos, mv);
        child.current = false;
    }

    /// Records a null move from `ply`: the same pieces at `ply + 1`.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        let child = &mut self.entries[ply + 1];
        child.delta = Delta::default();
        child.current = false;
    }

    /// The evaluation of `pos`, the position at `ply`, for its side to
    /// move: brings the plies from the nearest current one down to `ply`
    /// up to date first.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        let mut first = ply;
        while !self.entries[first].current {
            if first == 0 {
                // No root was set: this ply from scratch.
                self.entries[ply].acc.refresh(net, pos, self.kernels);
                self.entries[ply].current = true;
                first = ply;
                break;
            }
            first -= 1;
        }
        for p in first + 1..=ply {
            let (above, below) = self.entries.split_at_mut(p);
            let (src, dst) = (&above[p - 1], &mut below[0]);
            dst.delta.apply(net, self.kernels, &src.acc, &mut dst.acc);
            dst.current = true;
        }
        self.entries[ply].acc.evaluate(net, pos, self.kernels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::testdata::perft_suite;
    use crate::chess::{legal_moves, MoveKind};
    use crate::nnue::{file, Weights, EMBEDDED, NETWORK_BYTES};
    use crate::rng::Rng;

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

    /// The embedded network's hidden layer under eight output layers that
    /// differ (each bucket's weights shifted its own way, and its bias).
    fn eight_buckets() -> Weights {
        let mut weights = file::read(NETWORK_BYTES).unwrap();
        let one_w2 = weights.w2[..2 * HIDDEN].to_vec();
        let one_b2 = weights.b2[0];
        weights.buckets = file::MAX_OUTPUT_BUCKETS;
        weights.w2 = (0..weights.buckets)
            .flat_map(|b| {
                one_w2.iter().enumerate().map(move |(i, &w)| {
                    let shift = (i * 7 + b * 13) as i16 % 9 - 4;
                    (w + shift).clamp(-file::MAX_OUTPUT_WEIGHT, file::MAX_OUTPUT_WEIGHT)
                })
            })
            .collect();
        weights.b2 = (0..weights.buckets as i32)
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
        for kernels in [Some(Kernels::PORTABLE), Kernels::avx2(), Kernels::avx512()]
            .into_iter()
            .flatten()
        {
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
        let (d, _) = delta(kiwipete, "e5f7");
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
            (net.buckets, net.eval_scale),
            (EMBEDDED.buckets, EMBEDDED.eval_scale)
        );
    }
}
