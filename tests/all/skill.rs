//! Limited playing strength (`search::skill`): searches at every level and
//! rating give legal moves, never miss a mate in one, never throw away a
//! queen, vary at low levels, keep their node budget and the clock, and
//! leave full strength exactly as it was.
//! Every search here is node-limited with a fresh table, so a seed gives
//! the same game on every run.

use kiln::chess::{legal_moves, Move, Position};
use kiln::search::skill::{
    limited_elo, SKILL_LEVEL_COUNT, SKILL_MAX_ELO, SKILL_MIN_DEPTH, SKILL_MIN_ELO,
    SKILL_MULTIPV_COUNT,
};
use kiln::search::time::Limits;
use kiln::search::tt::{Bound, TranspositionTable};
use kiln::search::{
    SearchInfo, SearchRequest, SearchResult, Signals, Skill, ThreadPool, MATE_BOUND,
};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Every rating the options can ask for below full strength: each
/// `Skill Level`, and `UCI_Elo` in steps (each rating once).
fn every_limited_elo() -> Vec<i64> {
    let levels =
        (0..=SKILL_LEVEL_COUNT).filter_map(|level| limited_elo(false, SKILL_MAX_ELO, level));
    let ratings = (SKILL_MIN_ELO..=SKILL_MAX_ELO)
        .step_by(300)
        .filter_map(|elo| limited_elo(true, elo, SKILL_LEVEL_COUNT));
    let distinct: BTreeSet<i64> = levels.chain(ratings).collect();
    distinct.into_iter().collect()
}

fn run(fen: &str, skill: Option<Skill>, limits: Limits) -> (SearchResult, Vec<SearchInfo>) {
    let mut req = SearchRequest::new(Position::from_fen(fen).unwrap(), limits);
    req.skill = skill;
    let tt = Arc::new(TranspositionTable::new(1));
    let signals = Arc::new(Signals::default());
    signals.reset(false, false);
    let infos = Mutex::new(Vec::new());
    let result = ThreadPool::new(1).search(&req, &tt, &signals, &|info| {
        infos.lock().unwrap().push(info.clone())
    });
    (result, infos.into_inner().unwrap())
}

/// Nodes at most per limited search here: the strongest levels' budgets are
/// larger, but depth `SKILL_MIN_DEPTH` (where the choice starts) takes far
/// fewer, so every level still chooses, and the tests stay quick.
const TEST_NODES: u64 = 60_000;

/// A limited search of at most `TEST_NODES`, with what it reported.
fn limited_with_lines(fen: &str, elo: i64, seed: u64) -> (SearchResult, Vec<SearchInfo>) {
    let limits = Limits {
        nodes: Some(TEST_NODES),
        ..Limits::default()
    };
    run(fen, Some(Skill::new(elo, seed)), limits)
}

fn limited(fen: &str, elo: i64, seed: u64) -> SearchResult {
    limited_with_lines(fen, elo, seed).0
}

/// The lines a limited search chose among: those its last completed
/// iteration reported (exact scores; an aspiration window's interim
/// reports are bounds), best first, with that iteration's depth. The
/// search may report the chosen line once more at the end, as line 1 (so
/// a GUI's last line shows the move played and every node searched): that
/// repeat is not one of them.
fn last_lines(infos: &[SearchInfo]) -> (i32, Vec<&SearchInfo>) {
    let infos = match infos.split_last() {
        Some((answer, rest))
            if answer.multipv == 1
                && rest
                    .iter()
                    .any(|i| i.depth == answer.depth && i.pv == answer.pv) =>
        {
            rest
        }
        _ => infos,
    };
    let exact: Vec<&SearchInfo> = infos.iter().filter(|i| i.bound == Bound::Exact).collect();
    let depth = exact
        .iter()
        .map(|i| i.depth)
        .max()
        .expect("a completed iteration");
    let lines: Vec<&SearchInfo> = exact.into_iter().filter(|i| i.depth == depth).collect();
    let order: Vec<usize> = lines.iter().map(|i| i.multipv).collect();
    assert_eq!(order, (1..=lines.len()).collect::<Vec<_>>(), "{lines:?}");
    (depth, lines)
}

/// Whatever the seed, `elo` plays line 1 of `lines` (a thousand seeds of
/// the choice among their scores).
fn every_seed_plays_line_one(elo: i64, lines: &[&SearchInfo]) -> bool {
    let scores: Vec<i32> = lines.iter().map(|l| l.score).collect();
    (0..1_000).all(|seed| Skill::new(elo, seed).choose(&scores) == 0)
}

fn uci(mv: Move) -> String {
    mv.to_uci(false)
}

// The search under a skill does not depend on the seed: only the choice
// among the lines of its last iteration does. So the tests below search
// once per position and rating (a different seed each time), and check
// what any seed would have played from the lines the search reported.

#[test]
fn every_level_plays_legal_moves() {
    for fen in [
        Position::STARTPOS_FEN,
        KIWIPETE,
        // In check, with few replies.
        "4k3/8/8/8/8/8/4r3/R3K3 w Q - 0 1",
        // One legal move.
        "7k/8/8/8/8/8/6q1/7K w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let legal = legal_moves(&pos);
        for (seed, elo) in (0..).zip(every_limited_elo()) {
            let (result, infos) = limited_with_lines(fen, elo, seed);
            assert!(
                legal.contains(result.best),
                "{fen} at {elo}: {}",
                uci(result.best)
            );
            if let Some(ponder) = result.ponder {
                let mut next = pos;
                next.make_move(result.best);
                assert!(next.is_legal(ponder), "{fen} at {elo}: ponder");
            }
            // The last line reported is the one played.
            let last = infos.iter().rev().find(|i| i.multipv == 1);
            assert_eq!(
                last.and_then(|i| i.pv.first()),
                Some(&result.best),
                "{fen} at {elo}: last reported line"
            );
            // Any line another seed could play: a legal move, and a legal
            // reply to ponder on.
            for line in last_lines(&infos).1 {
                let mut next = pos;
                assert!(legal.contains(line.pv[0]), "{fen} at {elo}: {line:?}");
                next.make_move(line.pv[0]);
                if let Some(&reply) = line.pv.get(1) {
                    assert!(next.is_legal(reply), "{fen} at {elo}: {line:?}");
                }
            }
        }
    }
}

#[test]
fn mate_in_one_is_found_at_every_level() {
    for (fen, mate) in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"),
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            "h5f7",
        ),
        ("3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", "d8d1"),
        // A smothered mate, with a queen to take instead.
        ("6rk/6pp/8/4B1N1/8/8/1q4PP/6K1 w - - 0 1", "g5f7"),
    ] {
        for (seed, elo) in (0..).zip(every_limited_elo()) {
            let (result, infos) = limited_with_lines(fen, elo, seed);
            assert_eq!(uci(result.best), mate, "{fen} at {elo}, seed {seed}");
            // The search scored the mate as one, and a mate is played as
            // found: by every seed.
            let (_, lines) = last_lines(&infos);
            assert_eq!(uci(lines[0].pv[0]), mate, "{fen} at {elo}: {lines:?}");
            assert!(lines[0].score >= MATE_BOUND, "{fen} at {elo}: {lines:?}");
            assert!(every_seed_plays_line_one(elo, &lines), "{fen} at {elo}");
            // Even a search stopped at once (here by `go nodes 1`) mates.
            let cut = Limits {
                nodes: Some(1),
                ..Limits::default()
            };
            let best = run(fen, Some(Skill::new(elo, seed)), cut).0.best;
            assert_eq!(uci(best), mate, "{fen} at {elo}, one node");
        }
    }
}

#[test]
fn a_queen_won_is_never_thrown_away() {
    // One move wins a queen; every other loses at least a queen's worth
    // against it, far beyond the cap of any level.
    for (fen, wins) in [
        // The queen attacks the rook: take it.
        ("4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
        // A queen left to a pawn, both colours.
        (
            "rnb1kbnr/pppp1ppp/8/4p3/3q4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
            "e3d4",
        ),
        (
            "rnbqkbnr/pppp1ppp/8/4p3/3Q4/8/PPP1PPPP/RNB1KBNR b KQkq - 0 3",
            "e5d4",
        ),
        // ... to a bishop (none on c4: Bxf7+ Kxf7 Bxg5 would win the queen
        // too), to a knight.
        (
            "r1b1kbnr/pppp1ppp/2n5/4p1q1/4P3/3P4/PPP1BPPP/RNBQK1NR w KQkq - 1 4",
            "c1g5",
        ),
        (
            "rnbqkb1r/pppp1ppp/5n2/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 3 3",
            "f6h5",
        ),
    ] {
        for (seed, elo) in (0..).zip(every_limited_elo()) {
            let (result, infos) = limited_with_lines(fen, elo, seed);
            assert_eq!(
                uci(result.best),
                wins,
                "{fen} at {elo}, seed {seed}: score {}",
                result.score
            );
            // Not the seed's luck: the choice was made among lines deep
            // enough to trust, every other one losing more than the cap
            // against the capture, so no seed plays it.
            let (depth, lines) = last_lines(&infos);
            assert!(depth >= SKILL_MIN_DEPTH, "{fen} at {elo}: depth {depth}");
            assert_eq!(uci(lines[0].pv[0]), wins, "{fen} at {elo}: {lines:?}");
            let cap = Skill::new(elo, seed).loss_cap();
            for line in &lines[1..] {
                assert!(
                    lines[0].score - line.score > cap,
                    "{fen} at {elo} (cap {cap}): {lines:?}"
                );
            }
            assert!(every_seed_plays_line_one(elo, &lines), "{fen} at {elo}");
        }
    }
}

#[test]
fn low_levels_vary_their_moves_and_high_levels_less() {
    let distinct = |elo: i64| {
        (0..40)
            .map(|seed| uci(limited(Position::STARTPOS_FEN, elo, seed).best))
            .collect::<BTreeSet<String>>()
            .len()
    };
    let low = distinct(SKILL_MIN_ELO);
    assert!(low > 1, "the lowest level always played the same move");
    assert!(distinct(1_200) > 1);
    assert!(low <= SKILL_MULTIPV_COUNT);
}

#[test]
fn a_seed_repeats_its_search() {
    for seed in [1, 2, 99] {
        assert_eq!(
            limited(KIWIPETE, 1_400, seed),
            limited(KIWIPETE, 1_400, seed)
        );
    }
}

#[test]
fn the_limited_search_keeps_its_budget_and_reports_its_lines() {
    for elo in [SKILL_MIN_ELO, 1_600, 2_200] {
        let skill = Skill::new(elo, 3);
        let (result, infos) = run(KIWIPETE, Some(skill), Limits::default());
        // The hard limit waits for the minimum depth, then holds.
        assert!(result.depth >= SKILL_MIN_DEPTH, "{elo}");
        assert!(
            result.nodes <= skill.hard_nodes() || result.depth == SKILL_MIN_DEPTH,
            "{elo}: {} nodes",
            result.nodes
        );
        let last_depth = infos.last().unwrap().depth;
        let lines: BTreeSet<usize> = infos
            .iter()
            .filter(|i| i.depth == last_depth)
            .map(|i| i.multipv)
            .collect();
        assert_eq!(lines.len(), SKILL_MULTIPV_COUNT, "{elo}");
        // `go nodes` below the budget still holds.
        let go = Limits {
            nodes: Some(50),
            ..Limits::default()
        };
        assert!(run(KIWIPETE, Some(skill), go).0.nodes <= 50);
    }
    // Cut short by `go depth` before the lines are trusted: the best line,
    // as the same search at full strength plays it.
    let shallow = Limits {
        depth: Some(SKILL_MIN_DEPTH - 1),
        ..Limits::default()
    };
    for seed in 0..10 {
        let mut req = SearchRequest::new(Position::startpos(), shallow.clone());
        req.multipv = SKILL_MULTIPV_COUNT;
        let tt = Arc::new(TranspositionTable::new(1));
        let signals = Arc::new(Signals::default());
        signals.reset(false, false);
        let normal = ThreadPool::new(1).search(&req, &tt, &signals, &|_| {});
        let (limited, _) = run(
            Position::STARTPOS_FEN,
            Some(Skill::new(SKILL_MIN_ELO, seed)),
            shallow.clone(),
        );
        assert_eq!(limited, normal, "seed {seed}");
    }
    // A clock holds too. The strongest limited level's soft budget is
    // about half a million nodes, while half a second on the clock without
    // increment plans under a tenth of a second for the move: the search
    // answers a legal move without losing on time, and stops short of its
    // budget (the clock ended it, not the budget).
    let skill = Skill::new(SKILL_MAX_ELO - 1, 0);
    let clock_ms = 500;
    let clock = Limits {
        time: [Some(clock_ms), Some(clock_ms)],
        ..Limits::default()
    };
    let started = Instant::now();
    let (result, _) = run(KIWIPETE, Some(skill), clock);
    let used = started.elapsed();
    let pos = Position::from_fen(KIWIPETE).unwrap();
    assert!(
        legal_moves(&pos).contains(result.best),
        "{}",
        uci(result.best)
    );
    assert!(
        used < Duration::from_millis(clock_ms),
        "lost on time: {used:?} of {clock_ms} ms"
    );
    assert!(
        result.nodes < skill.soft_nodes(),
        "{} nodes: the budget of {} ended the search, not the clock",
        result.nodes,
        skill.soft_nodes()
    );
}

#[test]
fn full_strength_is_the_normal_search() {
    // Both options at their maximum: no skill at all, so the same search
    // (moves, scores, nodes) as without one.
    for (limit_strength, elo, level) in [
        (false, 1_500, SKILL_LEVEL_COUNT),
        (true, SKILL_MAX_ELO, 0),
        (true, SKILL_MAX_ELO, SKILL_LEVEL_COUNT),
    ] {
        let skill = limited_elo(limit_strength, elo, level).map(|elo| Skill::new(elo, 5));
        assert_eq!(skill, None);
        for fen in [Position::STARTPOS_FEN, KIWIPETE] {
            let limits = Limits {
                nodes: Some(30_000),
                ..Limits::default()
            };
            let (normal, normal_infos) = run(fen, None, limits.clone());
            let (full, full_infos) = run(fen, skill, limits);
            assert_eq!(normal, full);
            let untimed = |infos: Vec<SearchInfo>| {
                infos
                    .into_iter()
                    .map(|i| SearchInfo { time_ms: 0, ..i })
                    .collect::<Vec<_>>()
            };
            assert_eq!(untimed(normal_infos), untimed(full_infos));
        }
    }
    // Just below full strength the budget already applies.
    let near = Skill::new(SKILL_MAX_ELO - 1, 5);
    let (result, _) = run(Position::STARTPOS_FEN, Some(near), Limits::default());
    assert!(result.nodes <= near.hard_nodes(), "{}", result.nodes);
}
