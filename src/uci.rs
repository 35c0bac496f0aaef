//! The UCI protocol: the only place that reads stdin. Searches run on a
//! worker thread, so `stop`, `isready` and `quit` are answered while one runs.
//!
//! Bad input never stops the engine: it is answered with
//! `info string error: ...` and the state stays as it was. In particular a
//! `position` command with a malformed FEN or an illegal move leaves the
//! position **unchanged** (the whole command is rejected).

use crate::book::Book;
use crate::chess::{Move, Position};
use crate::eval;
use crate::search::history::History;
use crate::search::time::Limits;
use crate::search::tt::TranspositionTable;
use crate::search::{search, SearchRequest, SearchResult, Signals};
use std::io::BufRead;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

/// Engine options, with their UCI ranges beside them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub chess960: bool,
    pub ponder: bool,
    pub multipv: usize,
    pub own_book: bool,
    pub book_depth: u32,
    pub book_file: String,
}

const HASH_RANGE: (usize, usize) = (1, 65_536);
const THREADS_RANGE: (usize, usize) = (1, 1_024);
const OVERHEAD_RANGE: (u64, u64) = (0, 5_000);
const MULTIPV_RANGE: (usize, usize) = (1, 256);
const BOOK_DEPTH_RANGE: (u32, u32) = (0, 200);

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            threads: 1,
            move_overhead_ms: 20,
            chess960: false,
            ponder: false,
            multipv: 1,
            own_book: true,
            book_depth: 24,
            book_file: String::new(),
        }
    }
}

/// What the worker thread hands back when its search ends.
type WorkerResult = (Vec<History>, SearchResult);

/// The engine as the protocol sees it.
pub struct Engine {
    position: Position,
    /// Keys of the positions before `position` in the game, oldest first.
    game_keys: Vec<u64>,
    position_set: bool,
    options: Options,
    tt: Arc<TranspositionTable>,
    histories: Vec<History>,
    signals: Arc<Signals>,
    worker: Option<JoinHandle<WorkerResult>>,
    book: Book,
    rng: u64,
}

fn say(line: &str) {
    println!("{line}");
}

fn error(message: &str) {
    say(&format!("info string error: {message}"));
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0x9E37_79B9, |d| d.as_nanos() as u64);
        Engine {
            position: Position::startpos(),
            game_keys: Vec::new(),
            position_set: false,
            options: Options::default(),
            // Allocated at the first isready/go (see `ensure_hash`): `uci` is
            // answered before any memory is touched.
            tt: Arc::new(TranspositionTable::placeholder()),
            histories: vec![History::default()],
            signals: Arc::new(Signals::default()),
            worker: None,
            book: Book::embedded(),
            rng: seed | 1,
        }
    }

    /// Reads commands from stdin until `quit` or end of input.
    pub fn run(&mut self) {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            // Bytes, not `lines()`: a line that is not UTF-8 (a GUI in a
            // legacy code page) is read lossily instead of ending the session.
            match input.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&buffer);
            if !self.handle(&line) {
                break;
            }
        }
        self.stop_search();
    }

    /// Makes the table the size the `Hash` option asks for (never mid-search).
    fn ensure_hash(&mut self) {
        if self.tt.size_mb() != self.options.hash_mb && !self.searching() {
            self.join_worker();
            match Arc::get_mut(&mut self.tt) {
                Some(tt) => tt.resize(self.options.hash_mb),
                None => self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb)),
            }
        }
    }

    fn searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Stops any running search and waits for its `bestmove`.
    fn stop_search(&mut self) {
        self.signals.stop.store(true, Ordering::SeqCst);
        self.join_worker();
    }

    fn join_worker(&mut self) {
        if let Some(worker) = self.worker.take() {
            match worker.join() {
                Ok((histories, _)) => self.histories = histories,
                Err(_) => {
                    error("the search thread failed; state was reset");
                    self.histories = vec![History::default()];
                }
            }
        }
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return true;
        };
        let args = &tokens[1..];
        // A finished worker is collected before anything else touches its data.
        if self.worker.as_ref().is_some_and(|w| w.is_finished()) {
            self.join_worker();
        }
        match command {
            "uci" => self.cmd_uci(),
            "isready" => {
                self.ensure_hash();
                say("readyok")
            }
            "ucinewgame" => self.cmd_ucinewgame(),
            "setoption" => self.cmd_setoption(args),
            "position" => self.cmd_position(args),
            "go" => self.cmd_go(args),
            "stop" => self.stop_search(),
            "ponderhit" => self.signals.ponderhit(),
            "quit" => return false,
            "d" => self.cmd_display(),
            "eval" => self.cmd_eval(),
            "bench" => self.cmd_bench(args),
            "perft" => self.cmd_perft(args),
            _ => error(&format!("unknown command '{}'", line.trim())),
        }
        true
    }

    fn cmd_uci(&self) {
        say(&format!("id name Kiln {}", env!("CARGO_PKG_VERSION")));
        say("id author the Kiln developers");
        say(&format!(
            "option name Hash type spin default 16 min {} max {}",
            HASH_RANGE.0, HASH_RANGE.1
        ));
        say(&format!(
            "option name Threads type spin default 1 min {} max {}",
            THREADS_RANGE.0, THREADS_RANGE.1
        ));
        say(&format!(
            "option name Move Overhead type spin default {} min {} max {}",
            Options::default().move_overhead_ms,
            OVERHEAD_RANGE.0,
            OVERHEAD_RANGE.1
        ));
        say("option name Clear Hash type button");
        say("option name Ponder type check default false");
        say(&format!(
            "option name MultiPV type spin default 1 min {} max {}",
            MULTIPV_RANGE.0, MULTIPV_RANGE.1
        ));
        say("option name UCI_Chess960 type check default false");
        say("option name OwnBook type check default true");
        say(&format!(
            "option name BookDepth type spin default 24 min {} max {}",
            BOOK_DEPTH_RANGE.0, BOOK_DEPTH_RANGE.1
        ));
        say("option name BookFile type string default <empty>");
        say("uciok");
    }

    fn cmd_ucinewgame(&mut self) {
        self.stop_search();
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.clear();
        }
        for h in &mut self.histories {
            h.clear();
        }
        self.position = Position::startpos();
        self.game_keys.clear();
    }

    fn cmd_setoption(&mut self, args: &[&str]) {
        // setoption name <name words> [value <value words>]
        if args.first() != Some(&"name") {
            return error("setoption needs 'name <option> [value <value>]'");
        }
        let value_at = args.iter().position(|&t| t == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at
            .map(|i| args[i + 1..].join(" "))
            .unwrap_or_default();
        let lname = name.to_ascii_lowercase();
        if self.searching() && matches!(lname.as_str(), "hash" | "clear hash" | "threads") {
            return error(&format!(
                "option '{name}' cannot change during a search; ignored"
            ));
        }
        match lname.as_str() {
            "hash" => {
                if let Some(mb) = parse_in_range(&name, &value, HASH_RANGE) {
                    if let Some(available) = available_memory_mb() {
                        if mb as u64 > available * 9 / 10 {
                            return error(&format!("Hash {mb} MB does not fit in the {available} MB of free memory; Hash unchanged"));
                        }
                    }
                    self.options.hash_mb = mb;
                    self.ensure_hash();
                }
            }
            "threads" => {
                if let Some(n) = parse_in_range(&name, &value, THREADS_RANGE) {
                    self.options.threads = n;
                }
            }
            "move overhead" => {
                if let Some(ms) = parse_in_range(&name, &value, OVERHEAD_RANGE) {
                    self.options.move_overhead_ms = ms;
                }
            }
            "multipv" => {
                if let Some(n) = parse_in_range(&name, &value, MULTIPV_RANGE) {
                    self.options.multipv = n;
                }
            }
            "bookdepth" => {
                if let Some(n) = parse_in_range(&name, &value, BOOK_DEPTH_RANGE) {
                    self.options.book_depth = n;
                }
            }
            "clear hash" => {
                self.join_worker();
                if let Some(tt) = Arc::get_mut(&mut self.tt) {
                    tt.clear();
                }
            }
            "uci_chess960" => {
                if let Some(b) = parse_bool(&name, &value) {
                    self.options.chess960 = b;
                }
            }
            "ponder" => {
                if let Some(b) = parse_bool(&name, &value) {
                    self.options.ponder = b;
                }
            }
            "ownbook" => {
                if let Some(b) = parse_bool(&name, &value) {
                    self.options.own_book = b;
                }
            }
            "bookfile" => {
                let path = value.trim();
                if path.is_empty() || path == "<empty>" {
                    self.book = Book::embedded();
                    self.options.book_file.clear();
                    say("info string using the embedded book");
                } else {
                    match Book::from_file(path) {
                        Ok(book) => {
                            say(&format!(
                                "info string loaded book '{path}' with {} entries",
                                book.len()
                            ));
                            self.book = book;
                            self.options.book_file = path.to_string();
                        }
                        Err(e) => error(&e.to_string()),
                    }
                }
            }
            _ => error(&format!("unknown option '{name}'")),
        }
    }

    fn cmd_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let mut pos = match setup.first() {
            Some(&"startpos") if setup.len() == 1 => Position::startpos(),
            Some(&"fen") => match Position::from_fen(&setup[1..].join(" ")) {
                Ok(p) => p,
                Err(e) => return error(&format!("{e}; position unchanged")),
            },
            _ => return error("position needs 'startpos' or 'fen <FEN>', then optionally 'moves ...'; position unchanged"),
        };
        let mut keys = Vec::new();
        for &text in moves_at.map_or(&[][..], |i| &args[i + 1..]) {
            match pos.parse_uci_move(text, self.options.chess960) {
                Some(mv) => {
                    keys.push(pos.key());
                    pos.make_move(mv);
                }
                None => {
                    let what = if is_uci_move_syntax(text) {
                        "illegal"
                    } else {
                        "malformed"
                    };
                    return error(&format!(
                        "{what} move '{text}' in position {}; position unchanged",
                        pos.to_fen()
                    ));
                }
            }
        }
        self.position = pos;
        self.game_keys = keys;
        self.position_set = true;
    }

    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    fn cmd_go(&mut self, args: &[&str]) {
        if self.searching() {
            error("a search is already running; stopping it first");
            self.stop_search();
        }
        self.join_worker();
        self.ensure_hash();
        if args.first() == Some(&"perft") {
            return self.cmd_perft(&args[1..]);
        }
        if !self.position_set {
            error("go before position; searching the start position");
        }
        let (limits, searchmoves) = parse_go(args, &self.position, self.options.chess960);

        // The book answers at once, except for analysis and infinite/ponder searches.
        let analysis = limits.infinite
            || limits.ponder
            || limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.mate.is_some();
        if self.options.own_book
            && !analysis
            && searchmoves.is_empty()
            && self.position.game_ply() < self.options.book_depth
        {
            let roll = self.next_random();
            if let Some(mv) = self.book.choose(&self.position, roll) {
                say(&format!(
                    "info string book move {}",
                    mv.to_uci(self.options.chess960)
                ));
                say(&format!("bestmove {}", mv.to_uci(self.options.chess960)));
                return;
            }
        }

        let req = SearchRequest {
            root: self.position,
            game_keys: self.game_keys.clone(),
            limits: limits.clone(),
            searchmoves,
            multipv: self.options.multipv,
            threads: self.options.threads,
            move_overhead_ms: self.options.move_overhead_ms,
            chess960: self.options.chess960,
        };
        self.signals.reset(limits.ponder, limits.infinite);
        let tt = Arc::clone(&self.tt);
        let signals = Arc::clone(&self.signals);
        let mut histories = std::mem::take(&mut self.histories);
        self.worker = Some(std::thread::spawn(move || {
            let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                search(&req, &tt, &signals, &mut histories, &|line| say(line))
            }));
            let result = searched.unwrap_or_else(|_| {
                // Never leave the GUI without an answer: any legal move.
                error("the search failed; answering with the first legal move");
                histories = vec![History::default()];
                let best = crate::chess::legal_moves(&req.root)
                    .iter()
                    .next()
                    .unwrap_or(Move::NULL);
                SearchResult {
                    best,
                    ponder: None,
                    score: 0,
                    depth: 0,
                    nodes: 0,
                    pv: vec![best],
                }
            });
            let chess960 = req.chess960;
            match (result.best.is_null(), result.ponder) {
                (true, _) => say("bestmove 0000"),
                (false, Some(p)) => say(&format!(
                    "bestmove {} ponder {}",
                    result.best.to_uci(chess960),
                    p.to_uci(chess960)
                )),
                (false, None) => say(&format!("bestmove {}", result.best.to_uci(chess960))),
            }
            (histories, result)
        }));
    }

    fn cmd_display(&self) {
        let pos = &self.position;
        let mut board = String::from("\n +---+---+---+---+---+---+---+---+\n");
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = pos
                    .piece_at(crate::chess::Square::from_file_rank(file, rank))
                    .map_or(' ', |p| p.to_char());
                board.push_str(&format!(" | {c}"));
            }
            board.push_str(&format!(
                " | {}\n +---+---+---+---+---+---+---+---+\n",
                rank + 1
            ));
        }
        board.push_str("   a   b   c   d   e   f   g   h\n");
        println!("{board}");
        say(&format!("Fen: {}", pos.to_fen()));
        say(&format!("Key: {:016X}", pos.key()));
        let checkers: Vec<String> = pos.checkers().map(|s| s.to_string()).collect();
        say(&format!("Checkers: {}", checkers.join(" ")));
    }

    fn cmd_eval(&self) {
        let b = eval::breakdown(&self.position);
        say("     term    |   mg    eg  (White's view)");
        for (name, packed) in [
            ("material+pst", b.psqt),
            ("pawns", b.pawns),
            ("pieces", b.pieces),
            ("king", b.king),
        ] {
            say(&format!(
                "{name:>12} | {:5} {:5}",
                eval::mg(packed),
                eval::eg(packed)
            ));
        }
        say(&format!("phase {}/24", b.phase));
        say(&format!("Final evaluation: {} (side to move)", b.total));
    }

    fn cmd_bench(&mut self, args: &[&str]) {
        self.stop_search();
        let depth = match args.first() {
            None => crate::tools::bench::DEFAULT_BENCH_DEPTH,
            Some(d) => match d.parse::<i32>() {
                Ok(d) if (1..=64).contains(&d) => d,
                _ => return error(&format!("bench depth must be 1..64, got '{d}'")),
            },
        };
        crate::tools::bench::run(depth, &mut std::io::stdout());
    }

    fn cmd_perft(&mut self, args: &[&str]) {
        self.stop_search();
        match args.first().map(|d| d.parse::<u32>()) {
            Some(Ok(depth)) if depth <= 12 => {
                crate::tools::perft::run_divide(
                    &self.position,
                    depth,
                    self.options.chess960,
                    &mut std::io::stdout(),
                );
            }
            _ => error("perft needs a depth from 0 to 12"),
        }
    }
}

/// Free memory in MB (Linux `MemAvailable`), if the system says.
fn available_memory_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

fn is_uci_move_syntax(text: &str) -> bool {
    let b = text.as_bytes();
    (b.len() == 4 || b.len() == 5)
        && (b'a'..=b'h').contains(&b[0])
        && (b'1'..=b'8').contains(&b[1])
        && (b'a'..=b'h').contains(&b[2])
        && (b'1'..=b'8').contains(&b[3])
        && (b.len() == 4 || b"nbrqNBRQ".contains(&b[4]))
}

fn parse_in_range<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    name: &str,
    value: &str,
    range: (T, T),
) -> Option<T> {
    match value.trim().parse::<T>() {
        Ok(v) if v >= range.0 && v <= range.1 => Some(v),
        Ok(_) => {
            error(&format!(
                "option '{name}' value '{value}' is out of range {}..{}",
                range.0, range.1
            ));
            None
        }
        Err(_) => {
            error(&format!(
                "option '{name}' needs a number from {} to {}, got '{value}'",
                range.0, range.1
            ));
            None
        }
    }
}

fn parse_bool(name: &str, value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => {
            error(&format!(
                "option '{name}' needs true or false, got '{value}'"
            ));
            None
        }
    }
}

/// Parses `go` arguments. A bad parameter is reported and skipped, so every
/// `go` still ends in a `bestmove`.
fn parse_go(args: &[&str], pos: &Position, chess960: bool) -> (Limits, Vec<Move>) {
    let mut limits = Limits::default();
    let mut searchmoves = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        let number = |i: usize| -> Option<i64> {
            match args.get(i + 1).map(|v| v.parse::<f64>()) {
                Some(Ok(v)) if v.is_finite() => Some(v.clamp(-1e15, 1e15) as i64),
                _ => {
                    error(&format!("go {key} needs a number; ignored"));
                    None
                }
            }
        };
        match key {
            "wtime" | "btime" | "winc" | "binc" | "movestogo" | "depth" | "nodes" | "mate"
            | "movetime" => {
                let Some(v) = number(i) else {
                    i += 1;
                    continue;
                };
                let clamped = v.max(0) as u64;
                match key {
                    "wtime" => limits.time[0] = Some(clamped),
                    "btime" => limits.time[1] = Some(clamped),
                    "winc" => limits.inc[0] = clamped,
                    "binc" => limits.inc[1] = clamped,
                    "movestogo" => limits.movestogo = (clamped > 0).then_some(clamped),
                    "depth" => limits.depth = Some(v.clamp(1, 1000) as i32),
                    "nodes" => limits.nodes = Some(clamped.max(1)),
                    "mate" => limits.mate = Some(v.clamp(1, 1000) as i32),
                    _ => limits.movetime = Some(clamped),
                }
                i += 2;
            }
            "infinite" => {
                limits.infinite = true;
                i += 1;
            }
            "ponder" => {
                limits.ponder = true;
                i += 1;
            }
            "searchmoves" => {
                i += 1;
                while i < args.len() {
                    match pos.parse_uci_move(args[i], chess960) {
                        Some(mv) => searchmoves.push(mv),
                        None if is_uci_move_syntax(args[i]) => {
                            error(&format!("searchmoves: illegal move '{}' ignored", args[i]));
                        }
                        None => break,
                    }
                    i += 1;
                }
            }
            other => {
                error(&format!("unknown go parameter '{other}' ignored"));
                i += 1;
            }
        }
    }
    (limits, searchmoves)
}
