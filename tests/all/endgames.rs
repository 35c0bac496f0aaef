//! Kiln must win K+B+N v K and K+B+B v K (bishops on opposite colours) from
//! any start against a defending engine (and K+R v K, K+Q v K, more briefly),
//! with the network (the default) and with the hand-written evaluation.
//! Each game is Kiln's search against a shorter search of its own, from
//! deterministic, seeded starts; the attacker must mate before the
//! fifty-move rule (half-move clock below 100) without losing a piece.
//! Node limits (not time) and a fresh table per game keep the games
//! reproducible.
//!
//! Run with `--nocapture` to see how many moves each mate took.

use kiln::chess::attacks::king_attacks;
use kiln::chess::square::Square;
use kiln::chess::{legal_moves, Color, Kind, Move, Position};
use kiln::nnue::EvalChoice;
use kiln::search::time::Limits;
use kiln::search::tt::TranspositionTable;
use kiln::search::{SearchRequest, Signals, ThreadPool};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::sync::Mutex;

/// Nodes per move for the side with the pieces.
const ATTACKER_NODES: u64 = 100_000;
/// Nodes per move for the bare king: a shorter search, still enough to run
/// to the centre and away from the corner that matters.
const DEFENDER_NODES: u64 = 20_000;
/// Transposition table per player, in MB (kept for the whole game).
const HASH_MB: usize = 8;
/// Games played at once (this machine has two cores).
const WORKERS: usize = 2;
/// Starts per ending for K+B+N and K+B+B: two with the bare king in the
/// centre, two (K+B+N) near a wrong corner, the rest anywhere, each pair
/// once with White and once with Black attacking, on either bishop colour.
/// (The seeded starts come in a fixed order: these are the first six of
/// the twelve the file played when the run took twice as long.)
const STARTS: usize = 6;
/// Starts per ending for K+R and K+Q (quick wins, checked for regressions).
const HEAVY_STARTS: usize = 4;

/// A deterministic pseudo-random stream (xorshift64*), so every run plays
/// the same starts.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn square(&mut self) -> Square {
        Square::new((self.next() % 64) as u8)
    }

    /// A square from `choices`.
    fn pick(&mut self, choices: &[Square]) -> Square {
        choices[(self.next() % choices.len() as u64) as usize]
    }
}

fn is_dark(sq: Square) -> bool {
    (sq.file() + sq.rank()).is_multiple_of(2)
}

fn king_distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

/// Where the bare king starts.
#[derive(Clone, Copy, Debug)]
enum Region {
    /// d4, e4, d5 or e5.
    Centre,
    /// Within a king step of a corner where bishop and knight cannot mate.
    WrongCorner,
    Anywhere,
}

/// The FEN of a position with `pieces` (letter, square), `white` to move.
fn fen_of(pieces: &[(char, Square)], white_to_move: bool) -> String {
    let mut board = [None; 64];
    for &(letter, sq) in pieces {
        board[sq.index()] = Some(letter);
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(letter) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if white_to_move {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    fen
}

/// A legal start: attacker to move, kings apart, the bare king not in check
/// and not touching any attacking piece (so none hangs at once).
/// `army` are the attacker's piece letters (upper case), `bishop_dark` the
/// colour of the first bishop (a second bishop goes on the other colour).
fn random_start(
    rng: &mut Rng,
    attacker: Color,
    army: &[char],
    bishop_dark: bool,
    region: Region,
) -> Position {
    let corners_for = |dark: bool| -> Vec<Square> {
        // The corners of the other colour than the bishop: a1/h8 are dark.
        let wrong = if dark {
            [Square::H1, Square::A8]
        } else {
            [Square::A1, Square::H8]
        };
        Square::all()
            .filter(|&s| wrong.iter().any(|&c| king_distance(s, c) <= 1))
            .collect()
    };
    let centre: Vec<Square> = ["d4", "e4", "d5", "e5"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    loop {
        let lone = match region {
            Region::Centre => rng.pick(&centre),
            Region::WrongCorner => rng.pick(&corners_for(bishop_dark)),
            Region::Anywhere => rng.square(),
        };
        let ours = rng.square();
        if king_distance(lone, ours) < 2 {
            continue;
        }
        let mut used = vec![lone, ours];
        let mut placed = Vec::new();
        let mut bishops = 0;
        for &letter in army {
            let sq = loop {
                let sq = rng.square();
                let colour_ok = letter != 'B' || is_dark(sq) == (bishop_dark == (bishops == 0));
                if colour_ok && !used.contains(&sq) {
                    break sq;
                }
            };
            if letter == 'B' {
                bishops += 1;
            }
            used.push(sq);
            placed.push((letter, sq));
        }
        let case = |c: char, color: Color| {
            if color == Color::White {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        };
        let mut pieces = vec![(case('K', attacker), ours), (case('K', !attacker), lone)];
        pieces.extend(placed.iter().map(|&(c, sq)| (case(c, attacker), sq)));
        let fen = fen_of(&pieces, attacker == Color::White);
        // The parser refuses a position whose side not to move is in check.
        let Ok(pos) = Position::from_fen(&fen) else {
            continue;
        };
        if (king_attacks(lone) & pos.colored(attacker)).any() {
            continue;
        }
        return pos;
    }
}

/// The starts for one ending: a third with the bare king in the centre, a
/// third (K+B+N) near a wrong corner, the rest anywhere; attacker colour and
/// (K+B+N) bishop colour alternate. No two starts are the same.
fn starts(seed: u64, count: usize, army: &[char], wrong_corners: bool) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out: Vec<Position> = Vec::new();
    while out.len() < count {
        let i = out.len();
        let region = match i % 3 {
            0 => Region::Centre,
            1 if wrong_corners => Region::WrongCorner,
            _ => Region::Anywhere,
        };
        let attacker = if i.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let bishop_dark = (i / 3).is_multiple_of(2);
        let pos = random_start(&mut rng, attacker, army, bishop_dark, region);
        if !out.iter().any(|p| p.key() == pos.key()) {
            out.push(pos);
        }
    }
    out
}

/// One engine: its own table and history for the whole game.
struct Player {
    tt: Arc<TranspositionTable>,
    pool: ThreadPool,
    signals: Arc<Signals>,
    nodes: u64,
    eval: EvalChoice,
}

impl Player {
    fn new(nodes: u64, eval: &EvalChoice) -> Player {
        Player {
            tt: Arc::new(TranspositionTable::new(HASH_MB)),
            pool: ThreadPool::new(1),
            signals: Arc::new(Signals::default()),
            nodes,
            eval: eval.clone(),
        }
    }

    fn choose(&mut self, pos: &Position, game_keys: &[u64]) -> Move {
        let limits = Limits {
            nodes: Some(self.nodes),
            ..Limits::default()
        };
        let mut req = SearchRequest::new(*pos, limits);
        req.game_keys = game_keys.to_vec();
        req.eval = self.eval.clone();
        self.signals.reset(false, false);
        self.pool
            .search(&req, &self.tt, &self.signals, &|_| {})
            .best
    }
}

/// How a game went, both sides searching with `eval`: `Ok(attacker's moves
/// to mate)` or what went wrong.
fn play(start: &Position, eval: &EvalChoice) -> Result<usize, String> {
    let attacker = start.side_to_move();
    let material = |pos: &Position| {
        [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen]
            .map(|k| pos.pieces_of(attacker, k).count())
    };
    let initial = material(start);
    let mut attacking = Player::new(ATTACKER_NODES, eval);
    let mut defending = Player::new(DEFENDER_NODES, eval);
    let mut pos = *start;
    let mut keys: Vec<u64> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    let fail = |why: &str, moves: &[String]| {
        Err(format!(
            "{why} after {} plies ({eval:?}): {} moves {}",
            moves.len(),
            start.to_fen(),
            moves.join(" ")
        ))
    };
    loop {
        if material(&pos) != initial {
            return fail("the attacker lost a piece", &moves);
        }
        if legal_moves(&pos).is_empty() {
            if pos.in_check() && pos.side_to_move() != attacker {
                if pos.halfmove_clock() >= 100 {
                    return fail("mate only after the fifty-move limit", &moves);
                }
                return Ok(moves.len().div_ceil(2));
            }
            return fail("stalemate", &moves);
        }
        if pos.halfmove_clock() >= 100 {
            return fail("fifty-move rule", &moves);
        }
        if keys.iter().filter(|&&k| k == pos.key()).count() >= 2 {
            return fail("threefold repetition", &moves);
        }
        let player = if pos.side_to_move() == attacker {
            &mut attacking
        } else {
            &mut defending
        };
        let mv = player.choose(&pos, &keys);
        if !legal_moves(&pos).contains(mv) {
            return fail(&format!("illegal move {mv:?}"), &moves);
        }
        moves.push(mv.to_uci(false));
        keys.push(pos.key());
        pos.make_move(mv);
    }
}

/// Plays every start with each evaluation on `WORKERS` threads; fails
/// listing the lost games. Returns the attacker's moves to mate per game.
fn play_all(name: &str, starts: &[Position]) -> Vec<usize> {
    let evals = [EvalChoice::Embedded, EvalChoice::Classical];
    let games: Vec<(&Position, &EvalChoice)> = starts
        .iter()
        .flat_map(|start| evals.iter().map(move |eval| (start, eval)))
        .collect();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![None; games.len()]);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(start, eval)) = games.get(i) else {
                    break;
                };
                let result = play(start, eval);
                results.lock().unwrap()[i] = Some(result);
            });
        }
    });
    let results: Vec<Result<usize, String>> = results
        .into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every game played"))
        .collect();
    let failures: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(
        failures.is_empty(),
        "{name}: {} of {} games not won:\n{}",
        failures.len(),
        games.len(),
        failures
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let lengths: Vec<usize> = results.into_iter().map(|r| r.unwrap()).collect();
    println!(
        "{name}: mate in {:?} moves (min {}, avg {:.1}, max {})",
        lengths,
        lengths.iter().min().unwrap(),
        lengths.iter().sum::<usize>() as f64 / lengths.len() as f64,
        lengths.iter().max().unwrap()
    );
    lengths
}

#[test]
fn starts_are_distinct_legal_and_cover_the_hard_cases() {
    for (army, wrong) in [(&['B', 'N'][..], true), (&['B', 'B'][..], false)] {
        let list = starts(0x5EED, STARTS, army, wrong);
        assert_eq!(list.len(), STARTS);
        for (i, a) in list.iter().enumerate() {
            assert!(
                list[..i].iter().all(|b| b.key() != a.key()),
                "duplicate start"
            );
        }
        let centre = list
            .iter()
            .filter(|p| {
                let lone = p.king(!p.side_to_move());
                (3..=4).contains(&lone.file()) && (3..=4).contains(&lone.rank())
            })
            .count();
        assert!(
            centre >= STARTS / 3,
            "{army:?}: {centre} starts in the centre"
        );
        for pos in &list {
            let attacker = pos.side_to_move();
            assert!(!legal_moves(pos).is_empty());
            assert_eq!(pos.colored(!attacker).count(), 1, "{}", pos.to_fen());
            let bishops = pos.pieces_of(attacker, Kind::Bishop);
            if bishops.several() {
                let dark = bishops.filter(|&s| is_dark(s)).count();
                assert_eq!(dark, 1, "bishops on one colour: {}", pos.to_fen());
            }
        }
        if wrong {
            let near_wrong = list
                .iter()
                .filter(|p| {
                    let attacker = p.side_to_move();
                    let bishop = p.pieces_of(attacker, Kind::Bishop).first();
                    let lone = p.king(!attacker);
                    let wrong = if is_dark(bishop) {
                        [Square::H1, Square::A8]
                    } else {
                        [Square::A1, Square::H8]
                    };
                    wrong.iter().any(|&c| king_distance(lone, c) <= 1)
                })
                .count();
            assert!(
                near_wrong >= STARTS / 3,
                "{near_wrong} starts near a wrong corner"
            );
        }
    }
}

#[test]
fn bishop_and_knight_mate_a_defended_king() {
    play_all("K+B+N v K", &starts(0x5EED, STARTS, &['B', 'N'], true));
}

#[test]
fn two_bishops_mate_a_defended_king() {
    play_all("K+B+B v K", &starts(0x5EED, STARTS, &['B', 'B'], false));
}

#[test]
fn rook_or_queen_mate_a_defended_king() {
    play_all("K+R v K", &starts(0x5EED, HEAVY_STARTS, &['R'], false));
    play_all("K+Q v K", &starts(0x5EED, HEAVY_STARTS, &['Q'], false));
}
