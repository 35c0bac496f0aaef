//! The transposition table: clusters of four 16-byte entries (one cache
//! line), shared lock-free between search threads. Each entry stores
//! `key ^ data` beside `data`, so a torn write from a racing thread reads
//! back as a miss instead of as a wrong hit.

use super::params::{TT_AGE_DEPTH_FACTOR, TT_REPLACE_DEPTH_MARGIN};
use crate::chess::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// Whether a score with this bound decides a node searched within
    /// (`alpha`, `beta`): an exact score always, a lower bound at or above
    /// beta, an upper bound at or below alpha, no bound never.
    #[inline]
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }

    /// What a node's best `score` says of its true score, searched within
    /// (`alpha`, `beta`): at or above beta a lower bound (a cut), at or
    /// below alpha an upper bound, otherwise exact.
    #[inline]
    pub fn of_score(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score <= alpha {
            Bound::Upper
        } else {
            Bound::Exact
        }
    }
}

/// What a probe returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const CLUSTER: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Cluster([Entry; CLUSTER]);

/// Searches are counted modulo 64: the 6 bits of age an entry keeps.
const AGE_MASK: u8 = 63;

/// Data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | age 6.
fn pack(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    mv.bits() as u64
        | (score as i16 as u16 as u64) << 16
        | (eval as i16 as u16 as u64) << 32
        | (depth.clamp(0, 255) as u64) << 48
        | (bound as u64) << 56
        | ((age & AGE_MASK) as u64) << 58
}

fn unpack(data: u64) -> (TtHit, u8) {
    let bound = match data >> 56 & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    let hit = TtHit {
        mv: Move::from_bits(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: (data >> 48 & 255) as i32,
        bound,
    };
    (hit, (data >> 58) as u8)
}

/// Asks Linux to back the allocation of `clusters` (reserved, not yet
/// written) with 2 MB pages where the kernel leaves that to the program
/// (`transparent_hugepage` set to `madvise`, as on this machine and many
/// distributions). Probes land anywhere in the table, so with 4 kB pages
/// nearly every probe of a 16 MB table also misses the TLB: the probe's
/// load was a fifth of `kiln bench`'s time. A hint only: where it is
/// refused (or the allocation holds no whole 2 MB page) the table works
/// the same on small pages.
fn advise_huge_pages(clusters: &Vec<Cluster>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let bytes = clusters.capacity() * std::mem::size_of::<Cluster>();
        let first = clusters.as_ptr() as usize;
        let start = first.next_multiple_of(PAGE);
        let end = (first + bytes) / PAGE * PAGE;
        if end > start {
            // SAFETY: madvise only advises how to back memory; it does not
            // read, write or free it, and `start..end` lies within the
            // vector's own allocation (whole pages of it). `unsafe` because
            // it is a foreign call taking a raw address; it earns its place
            // by the measured speed-up noted in docs/search.md.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = clusters;
}

/// The largest table the `Hash` option (and `datagen --hash`) may ask for, in MB.
pub const MAX_HASH_MB: usize = 65_536;

/// The shared table. Resize and clear need `&mut` (no search running).
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    age: AtomicU64,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one cluster).
    pub fn new(mb: usize) -> TranspositionTable {
        let count = Self::cluster_count(mb);
        Self::filled(Vec::with_capacity(count), count)
    }

    /// As `new`, but the allocator's refusal is an error rather than an
    /// abort (for a size a user asked for: where free memory cannot be
    /// read, it cannot be checked beforehand).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, std::collections::TryReserveError> {
        let count = Self::cluster_count(mb);
        let mut clusters = Vec::new();
        clusters.try_reserve_exact(count)?;
        Ok(Self::filled(clusters, count))
    }

    /// A table of `count` empty clusters written into `clusters`' reserved
    /// (untouched) memory, after asking for huge pages under it.
    fn filled(mut clusters: Vec<Cluster>, count: usize) -> TranspositionTable {
        advise_huge_pages(&clusters);
        clusters.resize_with(count, Cluster::default);
        TranspositionTable {
            clusters,
            age: AtomicU64::new(0),
        }
    }

    fn cluster_count(mb: usize) -> usize {
        (mb.max(1).saturating_mul(1024 * 1024) / std::mem::size_of::<Cluster>()).max(1)
    }

    /// A one-cluster table: a stand-in until the real one is needed, so that
    /// start-up touches no memory.
    pub fn placeholder() -> TranspositionTable {
        TranspositionTable {
            clusters: vec![Cluster::default()],
            age: AtomicU64::new(0),
        }
    }

    /// Size in MB (0 for the placeholder).
    pub fn size_mb(&self) -> usize {
        self.clusters.len() * std::mem::size_of::<Cluster>() / (1024 * 1024)
    }

    /// Replaces the table with an empty one of `mb` MB, freeing the old one
    /// first so that memory never holds both.
    pub fn resize(&mut self, mb: usize) {
        *self = TranspositionTable::placeholder();
        *self = TranspositionTable::new(mb);
    }

    pub fn clear(&mut self) {
        for cluster in &mut self.clusters {
            *cluster = Cluster::default();
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Called once per `go`: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) & AGE_MASK as u64) as u8
    }

    #[inline]
    fn cluster(&self, key: u64) -> &Cluster {
        let index = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[index]
    }

    /// Asks the processor to start loading `key`'s cluster into cache, so
    /// that the probe a child node makes soon after finds it there: the
    /// search calls this as soon as it knows a child's key, before the
    /// accumulator update and the checks that come first at the child.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let cluster: *const Cluster = self.cluster(key);
            // SAFETY: a prefetch is a hint that reads and writes no memory
            // (the pointer is not dereferenced; it points into `clusters`
            // anyway), and SSE is part of every x86-64 target. `unsafe`
            // only because the intrinsic takes a raw pointer; it earns its
            // place by the measured speed-up noted in docs/search.md.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(cluster.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up; scores come back as stored (ply-relative mate scores
    /// are the caller's business: see `score_from_tt`).
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for entry in &self.cluster(key).0 {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores a result. Replaces the same position's entry (keeping its move
    /// when the new one has none), else the entry worth least: shallow and old.
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age();
        let cluster = self.cluster(key);
        let mut victim = &cluster.0[0];
        let mut victim_worth = i32::MAX;
        for entry in &cluster.0 {
            let data = entry.data.load(Ordering::Relaxed);
            let (old, old_age) = unpack(data);
            if entry.check.load(Ordering::Relaxed) ^ data == key || data == 0 {
                if data != 0
                    && bound != Bound::Exact
                    && depth + TT_REPLACE_DEPTH_MARGIN() < old.depth
                    && old_age == age
                {
                    return; // a much deeper result of this search is worth more
                }
                let mv = if mv.is_null() && data != 0 {
                    old.mv
                } else {
                    mv
                };
                let new = pack(mv, score, eval, depth, bound, age);
                entry.check.store(key ^ new, Ordering::Relaxed);
                entry.data.store(new, Ordering::Relaxed);
                return;
            }
            let staleness = (age.wrapping_sub(old_age) & AGE_MASK) as i32;
            let worth = old.depth - TT_AGE_DEPTH_FACTOR() * staleness;
            if worth < victim_worth {
                victim_worth = worth;
                victim = entry;
            }
        }
        let new = pack(mv, score, eval, depth, bound, age);
        victim.check.store(key ^ new, Ordering::Relaxed);
        victim.data.store(new, Ordering::Relaxed);
    }

    /// Permille of sampled entries written during the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let sample = self.clusters.len().min(250);
        let used: usize = self.clusters[..sample]
            .iter()
            .flat_map(|c| c.0.iter())
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                data != 0 && unpack(data).1 == age
            })
            .count();
        (used * 1000 / (sample * CLUSTER).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{MoveKind, Square};

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let mv = Move::new(Square::new(12), Square::new(28), MoveKind::Normal);
        tt.store(0xDEAD_BEEF, mv, -31_000, 25, 7, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (mv, -31_000, 25, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        assert!(tt.hashfull() <= 1); // one entry among a thousand sampled slots
    }

    #[test]
    fn bounds_of_scores_settle_their_own_windows() {
        assert_eq!(Bound::of_score(50, 10, 50), Bound::Lower);
        assert_eq!(Bound::of_score(10, 10, 50), Bound::Upper);
        assert_eq!(Bound::of_score(11, 10, 50), Bound::Exact);
        for score in [-100, 10, 11, 49, 50, 100] {
            let bound = Bound::of_score(score, 10, 50);
            assert!(bound.settles(score, 10, 50), "{score}: {bound:?}");
            assert!(!Bound::None.settles(score, 10, 50));
        }
        assert!(!Bound::Lower.settles(49, 10, 50));
        assert!(!Bound::Upper.settles(11, 10, 50));
    }

    #[test]
    fn a_size_the_allocator_cannot_give_is_an_error_not_an_abort() {
        assert_eq!(TranspositionTable::try_new(2).unwrap().size_mb(), 2);
        // More bytes than an allocation may ever have (isize::MAX).
        assert!(TranspositionTable::try_new(usize::MAX).is_err());
    }
}
