//! `kiln datagen`: self-play games for tuning and training, written in the
//! compact format of `format`. Each thread plays its own games (own table,
//! own seed) at a soft node limit per move and appends whole records to one
//! file, so an interrupted run resumes where it stopped.

pub mod convert;
pub mod format;

use crate::chess::{legal_moves, Color, Position};
use crate::eval::insufficient_material;
use crate::files::{read_regular_file, ReadError};
use crate::nnue::{EvalChoice, Network};
use crate::rng::{time_seed, Rng};
use crate::search::time::Limits;
use crate::search::tt::{TranspositionTable, MAX_HASH_MB};
use crate::search::MAX_THREADS;
use crate::search::{SearchRequest, Signals, ThreadPool};
use crate::tools::args::{ArgError, Flags};
use format::{encode_game, write_header, DataError, Game, GameReader, GameResult, Ply, HEADER_LEN};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Where `datagen` writes, and `train`, `tune` and `wdl-fit` read, unless told.
pub const DEFAULT_DATA_FILE: &str = "data/selfplay.kgame";

/// Adjudication: a game is won once this many consecutive plies score at
/// least `WIN_ADJUDICATION_SCORE` for the same side (White's view)...
pub const WIN_ADJUDICATION_PLIES: usize = 6;
pub const WIN_ADJUDICATION_SCORE: i32 = 1_000;
/// ...and drawn once, after `DRAW_ADJUDICATION_MIN_PLY` plies, this many
/// consecutive plies score within ±`DRAW_ADJUDICATION_SCORE`.
pub const DRAW_ADJUDICATION_MIN_PLY: usize = 80;
pub const DRAW_ADJUDICATION_PLIES: usize = 12;
pub const DRAW_ADJUDICATION_SCORE: i32 = 10;
/// A game this long is a draw.
pub const MAX_GAME_PLIES: usize = 400;
/// Starts whose first search scores beyond this are thrown away (decided).
pub const MAX_START_SCORE: i32 = 400;
/// The hard node limit per move is the soft one times this.
pub const HARD_NODES_FACTOR: u64 = 8;
/// How often progress goes to stderr.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(5);

/// Where the starting positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Starts {
    /// The standard start position.
    Standard,
    /// A random one of the 960 Chess960 starts.
    Chess960,
    /// A random line of an EPD file (the first four or six fields are a FEN).
    Book(Vec<String>),
}

/// What `kiln datagen` was asked for.
#[derive(Clone, Debug)]
pub struct Config {
    pub out: PathBuf,
    pub threads: usize,
    /// Soft node limit per move: no new iteration past it.
    pub soft_nodes: u64,
    /// Random legal plies played from the start before the game is recorded.
    pub random_plies: usize,
    pub starts: Starts,
    /// Stop after this many games / positions (`None`: until killed).
    pub games: Option<u64>,
    pub positions: Option<u64>,
    pub seed: u64,
    pub hash_mb: usize,
    /// The evaluation the players search with.
    pub teacher: Teacher,
}

/// The evaluation datagen's players search with: its scores are what the
/// next network learns.
#[derive(Clone)]
pub enum Teacher {
    /// The hand-written evaluation.
    Classical,
    /// The network compiled into the binary.
    Embedded,
    /// A network read from `path` (`--eval-file`), not yet embedded.
    File {
        path: PathBuf,
        network: Arc<Network>,
    },
}

impl Default for Teacher {
    /// What `UseNNUE` starts as.
    fn default() -> Teacher {
        match EvalChoice::default() {
            EvalChoice::Classical => Teacher::Classical,
            _ => Teacher::Embedded,
        }
    }
}

impl Teacher {
    /// The evaluation a search with this teacher runs.
    pub fn eval(&self) -> EvalChoice {
        match self {
            Teacher::Classical => EvalChoice::Classical,
            Teacher::Embedded => EvalChoice::Embedded,
            Teacher::File { network, .. } => EvalChoice::Loaded(network.clone()),
        }
    }
}

impl fmt::Debug for Teacher {
    /// As `Display` (a network's weights are not worth printing).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Teacher({self})")
    }
}

impl fmt::Display for Teacher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Teacher::Classical => write!(f, "classical"),
            Teacher::Embedded => write!(f, "nnue ({})", crate::nnue::NETWORK_FILE),
            Teacher::File { path, .. } => write!(f, "nnue ({})", path.display()),
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            out: PathBuf::from(DEFAULT_DATA_FILE),
            threads: 1,
            soft_nodes: 5_000,
            random_plies: DEFAULT_RANDOM_PLIES,
            starts: Starts::Standard,
            games: None,
            positions: None,
            seed: time_seed(),
            hash_mb: 8,
            teacher: Teacher::default(),
        }
    }
}

/// Random plies played from the start position (or a Chess960 start) unless
/// `--random-plies` says otherwise; EPD starts, already played into, get none.
pub const DEFAULT_RANDOM_PLIES: usize = 8;
/// The most random plies `--random-plies` takes.
pub const MAX_RANDOM_PLIES: usize = 200;

impl Config {
    /// `kiln datagen`'s flags: `--out FILE`, `--threads N`, `--nodes N`,
    /// `--random-plies N`, `--book FILE.epd` or `--chess960`, `--games N`,
    /// `--positions N`, `--seed N`, `--hash MB`, `--eval nnue|classical`,
    /// `--eval-file FILE.nnue` (a network not yet embedded as the teacher).
    pub fn from_args(args: &[String]) -> Result<Config, ArgError> {
        let mut config = Config::default();
        let mut random_plies = None;
        let mut flags = Flags::new(args);
        while let Some(flag) = flags.next_flag() {
            match flag {
                "--chess960" => config.starts = Starts::Chess960,
                "--out" => config.out = flags.value(flag)?.into(),
                "--eval" => {
                    config.teacher = match flags.value(flag)? {
                        "nnue" => Teacher::Embedded,
                        "classical" => Teacher::Classical,
                        other => {
                            return Err(ArgError::BadValue {
                                flag: flag.to_string(),
                                value: other.to_string(),
                                expected: "nnue or classical".to_string(),
                            })
                        }
                    }
                }
                "--eval-file" => {
                    let path = flags.value(flag)?;
                    let network =
                        Network::from_file(path.as_ref()).map_err(|e| ArgError::Unusable {
                            flag: flag.to_string(),
                            reason: format!("{path}: {e}"),
                        })?;
                    config.teacher = Teacher::File {
                        path: path.into(),
                        network: network.into(),
                    };
                }
                "--book" => {
                    let path = flags.value(flag)?;
                    let fens = read_epd(path.as_ref()).map_err(|e| ArgError::Unusable {
                        flag: flag.to_string(),
                        reason: format!("{path}: {e}"),
                    })?;
                    config.starts = Starts::Book(fens);
                }
                "--threads" => config.threads = flags.number(flag, 1..=MAX_THREADS)?,
                "--nodes" => config.soft_nodes = flags.number(flag, 1..)?,
                "--random-plies" => random_plies = Some(flags.number(flag, 0..=MAX_RANDOM_PLIES)?),
                "--games" => config.games = Some(flags.number(flag, ..)?),
                "--positions" => config.positions = Some(flags.number(flag, ..)?),
                "--seed" => config.seed = flags.number(flag, ..)?,
                "--hash" => config.hash_mb = flags.number(flag, 1..=MAX_HASH_MB)?,
                other => return Err(ArgError::Unknown(other.to_string())),
            }
        }
        config.random_plies = random_plies.unwrap_or(match config.starts {
            Starts::Book(_) => 0,
            _ => DEFAULT_RANDOM_PLIES,
        });
        Ok(config)
    }
}

/// Counts of what a run wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
}

/// The back rank of Chess960 start number `n` (0..960, Scharnagl numbering).
pub fn chess960_back_rank(n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    let mut n = n % 960;
    rank[(n % 4) * 2 + 1] = 'b';
    n /= 4;
    rank[(n % 4) * 2] = 'b';
    n /= 4;
    let place = |rank: &mut [char; 8], nth_empty: usize, piece: char| {
        let sq = (0..8)
            .filter(|&i| rank[i] == ' ')
            .nth(nth_empty)
            .expect("a free square");
        rank[sq] = piece;
    };
    place(&mut rank, n % 6, 'q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[n];
    // Place the later knight first so the earlier index still counts the same squares.
    place(&mut rank, second, 'n');
    place(&mut rank, first, 'n');
    for piece in ['r', 'k', 'r'] {
        place(&mut rank, 0, piece);
    }
    rank
}

/// The FEN of Chess960 start `n`, castling rights as Shredder-FEN files.
pub fn chess960_fen(n: usize) -> String {
    let rank = chess960_back_rank(n);
    let black: String = rank.iter().collect();
    let white = black.to_ascii_uppercase();
    let rooks: Vec<char> = (0..8)
        .filter(|&i| rank[i] == 'r')
        .map(|i| (b'a' + i as u8) as char)
        .collect();
    let castling = format!(
        "{}{}{}{}",
        rooks[1].to_ascii_uppercase(),
        rooks[0].to_ascii_uppercase(),
        rooks[1],
        rooks[0]
    );
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1")
}

/// Why an EPD file of starting positions could not be used.
#[derive(Debug)]
pub enum EpdError {
    /// It could not be read (or is not a regular file).
    File(ReadError),
    /// It is not text.
    NotText,
    /// No line of it is a legal position.
    NoFen,
}

impl std::fmt::Display for EpdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EpdError::File(e) => write!(f, "{e}"),
            EpdError::NotText => write!(f, "not UTF-8 text"),
            EpdError::NoFen => write!(f, "no valid FEN"),
        }
    }
}

impl std::error::Error for EpdError {}

/// The largest EPD file `read_epd` reads whole (about 3 million openings).
pub const MAX_EPD_BYTES: u64 = 256 << 20;

/// The FENs of the EPD file at `path` (see `epd_fens`), at least one.
pub fn read_epd(path: &std::path::Path) -> Result<Vec<String>, EpdError> {
    let bytes = read_regular_file(path, MAX_EPD_BYTES).map_err(EpdError::File)?;
    let text = String::from_utf8(bytes).map_err(|_| EpdError::NotText)?;
    let fens = epd_fens(&text);
    if fens.is_empty() {
        return Err(EpdError::NoFen);
    }
    Ok(fens)
}

/// The FENs of an EPD text: each line's first six fields (or its first four
/// with clocks `0 1`), normalised; lines that are no legal position are skipped.
pub fn epd_fens(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(6).collect();
            let four = fields[..fields.len().min(4)].join(" ");
            Position::from_fen(&fields.join(" "))
                .or_else(|_| Position::from_fen(&format!("{four} 0 1")))
                .ok()
                .map(|p| p.to_fen())
        })
        .collect()
}

/// A start position: the configured start plus random legal plies, or
/// `None` when the random plies ran into the end of the game.
fn random_start(starts: &Starts, random_plies: usize, rng: &mut Rng) -> Option<Position> {
    let mut pos = match starts {
        Starts::Standard => Position::startpos(),
        Starts::Chess960 => Position::from_fen(&chess960_fen(rng.below(960))).ok()?,
        Starts::Book(fens) => Position::from_fen(&fens[rng.below(fens.len())]).ok()?,
    };
    for _ in 0..random_plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            return None;
        }
        let mv = moves.iter().nth(rng.below(moves.len()))?;
        pos.make_move(mv);
    }
    (!legal_moves(&pos).is_empty()).then_some(pos)
}

/// The result the rules give, if the game is over: checkmate, stalemate,
/// the fifty-move rule, threefold repetition, dead material.
fn rules_result(pos: &Position, earlier_keys: &[u64]) -> Option<GameResult> {
    if legal_moves(pos).is_empty() {
        return Some(if !pos.in_check() {
            GameResult::Draw
        } else if pos.side_to_move() == Color::White {
            GameResult::BlackWin
        } else {
            GameResult::WhiteWin
        });
    }
    let window = (pos.halfmove_clock() as usize).min(earlier_keys.len());
    let repeats = earlier_keys[earlier_keys.len() - window..]
        .iter()
        .filter(|&&k| k == pos.key())
        .count();
    if pos.halfmove_clock() >= 100 || repeats >= 2 || insufficient_material(pos) {
        return Some(GameResult::Draw);
    }
    None
}

/// Adjudication on the recorded scores (White's view), if it applies.
fn adjudicate(plies: &[Ply]) -> Option<GameResult> {
    let last = |n: usize| plies.iter().rev().take(n).map(|p| p.score as i32);
    if plies.len() >= WIN_ADJUDICATION_PLIES {
        if last(WIN_ADJUDICATION_PLIES).all(|s| s >= WIN_ADJUDICATION_SCORE) {
            return Some(GameResult::WhiteWin);
        }
        if last(WIN_ADJUDICATION_PLIES).all(|s| s <= -WIN_ADJUDICATION_SCORE) {
            return Some(GameResult::BlackWin);
        }
    }
    if plies.len() >= DRAW_ADJUDICATION_MIN_PLY
        && last(DRAW_ADJUDICATION_PLIES).all(|s| s.abs() <= DRAW_ADJUDICATION_SCORE)
    {
        return Some(GameResult::Draw);
    }
    None
}

/// One thread's engine: table, search worker and flags reused from game to
/// game.
struct Player {
    tt: Arc<TranspositionTable>,
    pool: ThreadPool,
    signals: Arc<Signals>,
    soft_nodes: u64,
    eval: EvalChoice,
}

impl Player {
    /// A player with a fresh `hash_mb` table searching `soft_nodes` a move
    /// with `eval`.
    fn new(hash_mb: usize, soft_nodes: u64, eval: EvalChoice) -> Player {
        Player {
            tt: Arc::new(TranspositionTable::new(hash_mb)),
            pool: ThreadPool::new(1),
            signals: Arc::new(Signals::default()),
            soft_nodes,
            eval,
        }
    }

    /// Searches `pos` (with the game's earlier keys for repetitions):
    /// best move and score for the side to move.
    fn think(&mut self, pos: &Position, keys: &[u64]) -> (crate::chess::Move, i32) {
        let limits = Limits {
            soft_nodes: Some(self.soft_nodes),
            nodes: Some(self.soft_nodes * HARD_NODES_FACTOR),
            ..Limits::default()
        };
        let mut req = SearchRequest::new(*pos, limits);
        req.game_keys = keys.to_vec();
        req.eval = self.eval.clone();
        self.signals.reset(false, false);
        let result = self.pool.search(&req, &self.tt, &self.signals, &|_| {});
        (result.best, result.score)
    }

    /// Clears the table and histories: what follows depends on nothing before.
    fn forget(&mut self) {
        match Arc::get_mut(&mut self.tt) {
            Some(tt) => tt.clear(),
            None => self.tt = Arc::new(TranspositionTable::new(self.tt.size_mb())),
        }
        self.pool.clear();
    }

    /// Plays one game from a random start; `None` when the start was rejected.
    fn play(&mut self, config: &Config, rng: &mut Rng) -> Option<Game> {
        let start = random_start(&config.starts, config.random_plies, rng)?;
        self.forget();
        let mut pos = start;
        let mut keys = Vec::new();
        let mut plies = Vec::new();
        let result = loop {
            if let Some(result) = rules_result(&pos, &keys) {
                break result;
            }
            if plies.len() >= MAX_GAME_PLIES {
                break GameResult::Draw;
            }
            let (best, score) = self.think(&pos, &keys);
            if plies.is_empty() && score.abs() > MAX_START_SCORE {
                return None;
            }
            let white_score = score * pos.side_to_move().sign();
            plies.push(Ply {
                mv: best,
                score: white_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            });
            keys.push(pos.key());
            pos.make_move(best);
            if let Some(result) = adjudicate(&plies) {
                break result;
            }
        };
        Some(Game {
            start,
            plies,
            result,
        })
    }
}

/// Node budget of the search that checks a `genfens` opening is undecided.
pub const GENFENS_CHECK_NODES: u64 = 2_000;
/// Random plies `genfens` plays from the start position, or after a book line.
pub const GENFENS_RANDOM_PLIES: usize = 8;
pub const GENFENS_BOOK_RANDOM_PLIES: usize = 2;
/// Gives up after this many rejected tries per requested opening.
const GENFENS_TRIES_PER_FEN: usize = 1_000;
/// Most openings one `genfens` request may ask for (each costs a search;
/// OpenBench asks for far fewer). `parse_genfens` refuses more.
pub const GENFENS_MAX_COUNT: usize = 1_000_000;

/// OpenBench's `genfens`: `count` openings from `seed`, each the start (or a
/// random line of `book`) plus random legal plies, kept only when a short
/// search scores it within ±`MAX_START_SCORE`. The same seed and book give
/// the same FENs. Returns fewer only when `GENFENS_TRIES_PER_FEN` tries
/// per opening were not enough (random plies that keep ending the game, or
/// starts that keep scoring beyond ±`MAX_START_SCORE`).
pub fn genfens(count: usize, seed: u64, book: Option<&[String]>) -> Vec<String> {
    let (starts, plies) = match book {
        Some(fens) if !fens.is_empty() => (Starts::Book(fens.to_vec()), GENFENS_BOOK_RANDOM_PLIES),
        _ => (Starts::Standard, GENFENS_RANDOM_PLIES),
    };
    let mut rng = Rng::new(seed);
    let mut player = Player::new(1, GENFENS_CHECK_NODES, EvalChoice::default());
    // Not `count` itself: a huge count must not allocate (or abort) first.
    let mut fens = Vec::with_capacity(count.min(GENFENS_MAX_COUNT));
    let mut tries = 0;
    while fens.len() < count && tries < count.saturating_mul(GENFENS_TRIES_PER_FEN) {
        tries += 1;
        let Some(pos) = random_start(&starts, plies, &mut rng) else {
            continue;
        };
        player.forget();
        let (_, score) = player.think(&pos, &[]);
        if score.abs() <= MAX_START_SCORE {
            fens.push(pos.to_fen());
        }
    }
    fens
}

/// A data file opened by [`open_for_append`], positioned at its end.
#[derive(Debug)]
pub struct AppendFile {
    /// The file, ready for whole records to be appended.
    pub file: File,
    /// The games and positions it already held.
    pub existing: Summary,
    /// Bytes of a trailing partial record (left by a run that was killed
    /// mid-write) that were cut off; 0 for a clean file.
    pub cut_bytes: u64,
}

impl AppendFile {
    /// One line saying what the file already holds, and what was cut off.
    pub fn describe(&self, path: &std::path::Path) -> String {
        let mut line = format!(
            "{} ({} games, {} positions already",
            path.display(),
            self.existing.games,
            self.existing.positions
        );
        if self.cut_bytes > 0 {
            line += &format!("; cut {} bytes of a partial last record", self.cut_bytes);
        }
        line + ")"
    }
}

/// Opens `path` for appending: writes the header to a new file, checks it
/// on an existing one and cuts off a trailing partial record.
pub fn open_for_append(path: &std::path::Path) -> Result<AppendFile, DataError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    let length = file.metadata()?.len();
    let mut summary = Summary::default();
    let mut cut_bytes = 0;
    if length == 0 {
        write_header(&mut file)?;
    } else {
        let mut reader = GameReader::new(BufReader::new(&mut file))?;
        for game in reader.by_ref() {
            summary.games += 1;
            summary.positions += game?.plies.len() as u64;
        }
        let whole = HEADER_LEN as u64 + reader.complete_bytes();
        if whole < length {
            file.set_len(whole)?;
            cut_bytes = length - whole;
        }
    }
    file.seek(SeekFrom::End(0))?;
    Ok(AppendFile {
        file,
        existing: summary,
        cut_bytes,
    })
}

/// A thread gives up (and the run fails with `DataError::NoUsableStart`)
/// after this many start positions in a row could not be played: a book of
/// decided or finished positions would otherwise spin for ever. With a
/// usable book rejections are a minority, so a thousand in a row never
/// happen by chance.
const MAX_REJECTED_STARTS_IN_A_ROW: usize = 1_000;

/// Runs `kiln datagen`: plays until the game or position count is reached
/// (or forever), printing progress to `progress`. Returns what this run wrote.
pub fn run(config: &Config, progress: &mut impl Write) -> Result<Summary, DataError> {
    let out = open_for_append(&config.out)?;
    let _ = writeln!(
        progress,
        "datagen: {}, {} threads, {} soft nodes, {} random plies, eval {}, seed {}",
        out.describe(&config.out),
        config.threads,
        config.soft_nodes,
        config.random_plies,
        config.teacher,
        config.seed
    );
    let file = Mutex::new(out.file);
    let games = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<DataError>> = Mutex::new(None);
    // The first error of any thread ends the run: it is kept and all stop.
    let fail = |error: DataError| {
        failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(error);
        stop.store(true, Ordering::Relaxed);
    };
    let start = Instant::now();
    let done = || {
        config
            .games
            .is_some_and(|n| games.load(Ordering::Relaxed) >= n)
            || config
                .positions
                .is_some_and(|n| positions.load(Ordering::Relaxed) >= n)
    };
    std::thread::scope(|scope| {
        for thread in 0..config.threads.max(1) {
            let (file, games, positions, stop, fail) = (&file, &games, &positions, &stop, &fail);
            scope.spawn(move || {
                let mut rng =
                    Rng::new(config.seed ^ (thread as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
                let mut player =
                    Player::new(config.hash_mb, config.soft_nodes, config.teacher.eval());
                let mut rejected_in_a_row = 0;
                while !stop.load(Ordering::Relaxed) && !done() {
                    let Some(game) = player.play(config, &mut rng) else {
                        rejected_in_a_row += 1;
                        if rejected_in_a_row >= MAX_REJECTED_STARTS_IN_A_ROW {
                            fail(DataError::NoUsableStart {
                                tries: rejected_in_a_row,
                            });
                        }
                        continue;
                    };
                    rejected_in_a_row = 0;
                    let record = encode_game(&game);
                    let mut out = file.lock().unwrap_or_else(|e| e.into_inner());
                    if stop.load(Ordering::Relaxed) || done() {
                        break;
                    }
                    // One write of a whole record: a crash leaves at most a
                    // partial tail, which the next run cuts off.
                    if let Err(e) = out.write_all(&record) {
                        fail(e.into());
                        break;
                    }
                    games.fetch_add(1, Ordering::Relaxed);
                    positions.fetch_add(game.plies.len() as u64, Ordering::Relaxed);
                    drop(out);
                    if done() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
        let mut last_report = Instant::now();
        while !stop.load(Ordering::Relaxed) && !done() {
            std::thread::sleep(Duration::from_millis(50));
            if last_report.elapsed() >= PROGRESS_INTERVAL {
                last_report = Instant::now();
                report_progress(progress, &games, &positions, start);
            }
        }
    });
    report_progress(progress, &games, &positions, start);
    if let Some(error) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    file.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .flush()?;
    Ok(Summary {
        games: games.load(Ordering::Relaxed),
        positions: positions.load(Ordering::Relaxed),
    })
}

fn report_progress(
    progress: &mut impl Write,
    games: &AtomicU64,
    positions: &AtomicU64,
    start: Instant,
) {
    let secs = start.elapsed().as_secs_f64();
    let n = positions.load(Ordering::Relaxed);
    let _ = writeln!(
        progress,
        "games {} positions {} positions/s {:.0} elapsed {:.0} s",
        games.load(Ordering::Relaxed),
        n,
        n as f64 / secs.max(1e-9),
        secs
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tools::args::words as args;

    #[test]
    fn command_lines_become_configs_or_errors() {
        let config = Config::from_args(&args("--threads 2 --nodes 5000 --eval classical")).unwrap();
        assert_eq!((config.threads, config.soft_nodes), (2, 5000));
        assert!(matches!(config.teacher, Teacher::Classical));
        assert_eq!(config.random_plies, DEFAULT_RANDOM_PLIES);
        assert_eq!(config.out, PathBuf::from(DEFAULT_DATA_FILE));
        let chess960 = Config::from_args(&args("--chess960 --random-plies 3 --games 5")).unwrap();
        assert_eq!(chess960.starts, Starts::Chess960);
        assert_eq!((chess960.random_plies, chess960.games), (3, Some(5)));
        for (line, error) in [
            (
                "--threads 0",
                "--threads '0': expected a number in 1..=1024",
            ),
            (
                "--hash 70000",
                "--hash '70000': expected a number in 1..=65536",
            ),
            ("--eval fast", "--eval 'fast': expected nnue or classical"),
            ("--nodes", "--nodes needs a value"),
            ("--colour white", "unknown argument '--colour'"),
        ] {
            let refused = Config::from_args(&args(line)).unwrap_err();
            assert_eq!(refused.to_string(), error, "{line}");
        }
        let missing = Config::from_args(&args("--book /nonexistent/kiln.epd")).unwrap_err();
        assert!(
            missing
                .to_string()
                .starts_with("--book: /nonexistent/kiln.epd: "),
            "{missing}"
        );
    }

    #[test]
    fn an_eval_file_becomes_the_teacher_and_a_bad_one_is_refused() {
        let committed = format!(
            "{}/networks/{}",
            env!("CARGO_MANIFEST_DIR"),
            crate::nnue::NETWORK_FILE
        );
        let config =
            Config::from_args(&args(&format!("--eval classical --eval-file {committed}"))).unwrap();
        let start = Position::startpos();
        match &config.teacher {
            Teacher::File { path, network } => {
                assert_eq!(path, &PathBuf::from(&committed));
                assert_eq!(
                    network.evaluate(&start),
                    EvalChoice::Embedded.network().unwrap().evaluate(&start)
                );
            }
            other => panic!("--eval-file gave {other:?}"),
        }
        assert!(matches!(config.teacher.eval(), EvalChoice::Loaded(_)));
        assert_eq!(config.teacher.to_string(), format!("nnue ({committed})"));
        // A later `--eval` wins.
        let config =
            Config::from_args(&args(&format!("--eval-file {committed} --eval classical"))).unwrap();
        assert!(matches!(config.teacher, Teacher::Classical));

        let scratch = tempfile::tempdir().unwrap();
        let truncated = scratch.path().join("truncated.nnue");
        std::fs::write(&truncated, &crate::nnue::NETWORK_BYTES[..100]).unwrap();
        let refused =
            Config::from_args(&args(&format!("--eval-file {}", truncated.display()))).unwrap_err();
        let prefix = format!("--eval-file: {}: ", truncated.display());
        assert!(refused.to_string().starts_with(&prefix), "{refused}");
    }

    #[test]
    fn chess960_starts_are_legal_and_all_different() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let fen = chess960_fen(n);
            let pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{n}: {fen}: {e}"));
            assert!(seen.insert(chess960_back_rank(n)), "{n} repeats");
            assert!(legal_moves(&pos).len() >= 18, "{fen}");
        }
        // Number 518 is the standard arrangement.
        assert_eq!(
            chess960_back_rank(518).iter().collect::<String>(),
            "rnbqkbnr"
        );
    }

    #[test]
    fn genfens_is_reproducible_varied_and_undecided() {
        let a = genfens(12, 42, None);
        assert_eq!(a, genfens(12, 42, None));
        assert_ne!(a, genfens(12, 43, None));
        let distinct: std::collections::HashSet<&String> = a.iter().collect();
        assert_eq!(distinct.len(), 12);
        for fen in &a {
            let pos = Position::from_fen(fen).unwrap();
            assert!(!legal_moves(&pos).is_empty(), "{fen}");
            assert_eq!(pos.game_ply(), GENFENS_RANDOM_PLIES as u32, "{fen}");
        }
        let book =
            vec!["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".to_string()];
        for fen in genfens(5, 1, Some(&book)) {
            let pos = Position::from_fen(&fen).unwrap();
            assert_eq!(pos.fullmove_number(), 4, "{fen}");
        }
    }

    #[test]
    fn adjudication_follows_its_thresholds() {
        let plies = |scores: &[i16]| -> Vec<Ply> {
            scores
                .iter()
                .map(|&score| Ply {
                    mv: crate::chess::Move::NULL,
                    score,
                })
                .collect()
        };
        assert_eq!(
            adjudicate(&plies(&[1000; WIN_ADJUDICATION_PLIES])),
            Some(GameResult::WhiteWin)
        );
        assert_eq!(
            adjudicate(&plies(&[-1200; WIN_ADJUDICATION_PLIES])),
            Some(GameResult::BlackWin)
        );
        assert_eq!(
            adjudicate(&plies(&[1000, 1000, 999, 1000, 1000, 1000])),
            None
        );
        let mut quiet = vec![50i16; DRAW_ADJUDICATION_MIN_PLY - DRAW_ADJUDICATION_PLIES];
        quiet.extend([5i16; DRAW_ADJUDICATION_PLIES]);
        assert_eq!(adjudicate(&plies(&quiet)), Some(GameResult::Draw));
        assert_eq!(adjudicate(&plies(&quiet[1..])), None);
    }

    #[test]
    fn rules_end_games() {
        let mated = Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(rules_result(&mated, &[]), Some(GameResult::WhiteWin));
        let stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(rules_result(&stalemate, &[]), Some(GameResult::Draw));
        let bare = Position::from_fen("7k/8/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(rules_result(&bare, &[]), Some(GameResult::Draw));
        let pos = Position::from_fen("7k/8/6K1/8/8/8/8/R7 b - - 4 30").unwrap();
        assert_eq!(
            rules_result(&pos, &[pos.key(), 1, pos.key(), 2]),
            Some(GameResult::Draw)
        );
        assert_eq!(rules_result(&pos, &[pos.key(), 1, 2, 3]), None);
    }
}
