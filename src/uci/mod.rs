//! The UCI protocol: the only place that reads stdin. Searches run on a
//! worker thread, so `stop`, `isready` and `quit` are answered while one runs.
//!
//! Bad input never stops the engine: it is answered with
//! `info string error: ...` and the state stays as it was. In particular a
//! `position` command with a malformed FEN or an illegal move leaves the
//! position **unchanged** (the whole command is rejected).
//!
//! - `options`: the option table (listing, defaults, parsing);
//! - `parse`: the pure parsers of `position` and `go`;
//! - `error`: what can be rejected, as `UciError`;
//! - `output`: `info` lines, scores and error lines.

pub mod error;
pub mod options;
pub mod output;
pub mod parse;

use crate::book::Book;
use crate::chess::{Move, Position};
use crate::eval;
use crate::nnue::{self, EvalChoice, Network};
use crate::rng::{time_seed, Rng};
use crate::search::history::History;
use crate::search::skill::limited_elo;
use crate::search::time::{Limits, NO_CLOCK_MOVETIME_MS};
use crate::search::tt::TranspositionTable;
use crate::search::wdl;
use crate::search::{search, SearchRequest, SearchResult, Signals, Skill, MAX_THREADS};
use crate::syzygy::Tablebases;
use crate::tools::bench::MAX_BENCH_DEPTH;
use crate::tools::perft::MAX_PERFT_DEPTH;
pub use error::{BookFailure, UciError};
use options::{OptionId, OptionValue, Options};
use output::{format_bestmove, format_error, format_info};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// What the worker thread hands back when its search ends.
type WorkerResult = (Vec<History>, SearchResult);

/// A search running (or just finished) on its own thread.
struct Worker {
    handle: JoinHandle<WorkerResult>,
    /// Set before `bestmove` is printed: from then on the search is over for
    /// the GUI, and the next command waits for the thread instead of
    /// treating the search as running.
    answered: Arc<AtomicBool>,
}

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
    worker: Option<Worker>,
    book: Book,
    /// Loaded Syzygy tables, shared with the search threads.
    tablebases: Option<Arc<Tablebases>>,
    /// The network `EvalFile` loaded (`None`: the embedded one).
    loaded_network: Option<Arc<Network>>,
    /// Book-move rolls and skill seeds.
    rng: Rng,
}

fn say(line: &str) {
    println!("{line}");
}

/// The one place errors are printed.
fn report(error: &UciError) {
    say(&format_error(error));
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
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
            tablebases: None,
            loaded_network: None,
            rng: Rng::new(time_seed()),
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

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return true;
        };
        let args = &tokens[1..];
        // A search that has answered is over: collect its thread before
        // anything else touches its data.
        if self
            .worker
            .as_ref()
            .is_some_and(|w| w.answered.load(Ordering::SeqCst))
        {
            self.join_worker();
        }
        let outcome = match command {
            "uci" => {
                self.cmd_uci();
                Ok(())
            }
            "isready" => {
                self.ensure_hash();
                say("readyok");
                Ok(())
            }
            "ucinewgame" => {
                self.cmd_ucinewgame();
                Ok(())
            }
            "setoption" => self.cmd_setoption(args),
            "position" => self.cmd_position(args),
            "go" => self.cmd_go(args),
            "stop" => {
                self.stop_search();
                Ok(())
            }
            "ponderhit" => {
                self.signals.ponderhit();
                Ok(())
            }
            "quit" => return false,
            "d" => {
                self.cmd_display();
                Ok(())
            }
            "eval" => {
                self.cmd_eval();
                Ok(())
            }
            "bench" => self.cmd_bench(args),
            "perft" => self.cmd_perft(args),
            "genfens" => self.cmd_genfens(args),
            _ => Err(UciError::UnknownCommand(line.trim().to_string())),
        };
        if let Err(error) = outcome {
            report(&error);
        }
        true
    }

    /// Makes the table the size the `Hash` option asks for (never mid-search).
    fn ensure_hash(&mut self) {
        if self.tt.size_mb() != self.options.hash_mb && !self.searching() {
            self.join_worker();
            match Arc::get_mut(&mut self.tt) {
                Some(tt) => tt.resize(self.options.hash_mb),
                None => {
                    // Free the old table before the new one is allocated.
                    self.tt = Arc::new(TranspositionTable::placeholder());
                    self.tt = Arc::new(TranspositionTable::new(self.options.hash_mb));
                }
            }
        }
    }

    /// Replaces the table with an empty one of `mb` MB, the old one freed
    /// first. If the allocator refuses, a table of the old size comes back
    /// (none if there was none yet) and the error says so.
    fn resize_hash(&mut self, mb: usize) -> Result<(), UciError> {
        self.join_worker();
        let old_mb = self.tt.size_mb();
        self.tt = Arc::new(TranspositionTable::placeholder());
        match TranspositionTable::try_new(mb) {
            Ok(tt) => {
                self.tt = Arc::new(tt);
                Ok(())
            }
            Err(_) => {
                if old_mb > 0 {
                    self.tt = Arc::new(TranspositionTable::new(old_mb));
                }
                Err(UciError::HashRefused { mb })
            }
        }
    }

    /// A search is running and has not yet answered.
    fn searching(&self) -> bool {
        self.worker
            .as_ref()
            .is_some_and(|w| !w.answered.load(Ordering::SeqCst))
    }

    /// Stops any running search and waits for its `bestmove`.
    fn stop_search(&mut self) {
        self.signals.stop.store(true, Ordering::SeqCst);
        self.join_worker();
    }

    fn join_worker(&mut self) {
        if let Some(worker) = self.worker.take() {
            match worker.handle.join() {
                Ok((histories, _)) => self.histories = histories,
                Err(_) => {
                    report(&UciError::SearchFailed);
                    self.histories = vec![History::default()];
                }
            }
        }
    }

    fn cmd_uci(&self) {
        say(&format!("id name Kiln {}", env!("CARGO_PKG_VERSION")));
        say("id author the Kiln developers");
        for spec in options::all() {
            say(&spec.uci_line());
        }
        say("uciok");
    }

    fn cmd_ucinewgame(&mut self) {
        self.forget_searches();
        self.position = Position::startpos();
        self.game_keys.clear();
    }

    fn cmd_setoption(&mut self, args: &[&str]) -> Result<(), UciError> {
        let (spec, value) = options::parse_setoption(args)?;
        let refused_during_search = matches!(
            spec.id,
            OptionId::Hash
                | OptionId::ClearHash
                | OptionId::Threads
                | OptionId::SyzygyPath
                | OptionId::UseNnue
                | OptionId::EvalFile
        );
        if refused_during_search && self.searching() {
            return Err(UciError::OptionDuringSearch(spec.name));
        }
        match (spec.id, &value) {
            (OptionId::Hash, OptionValue::Spin(mb)) => {
                // The current table is freed before the new one is made.
                if let Some(free_mb) = available_memory_mb() {
                    let available_mb = free_mb + self.tt.size_mb() as u64;
                    if *mb as u64 > available_mb * 9 / 10 {
                        return Err(UciError::HashTooLarge {
                            mb: *mb,
                            available_mb,
                        });
                    }
                }
                self.resize_hash(*mb as usize)?;
                self.options.set(spec, &value);
            }
            (OptionId::ClearHash, _) => {
                self.join_worker();
                if let Some(tt) = Arc::get_mut(&mut self.tt) {
                    tt.clear();
                }
            }
            (OptionId::BookFile, OptionValue::Text(path)) => {
                if path.is_empty() {
                    self.book = Book::embedded();
                    say("info string using the embedded book");
                } else {
                    let book = Book::from_file(path)
                        .map_err(|e| UciError::Book(BookFailure(Arc::new(e))))?;
                    let format = if book.is_polyglot() {
                        "polyglot book"
                    } else {
                        "book"
                    };
                    say(&format!(
                        "info string loaded {format} '{}' with {} entries",
                        error::echo(path),
                        book.len()
                    ));
                    self.book = book;
                }
                self.options.set(spec, &value);
            }
            (OptionId::SyzygyPath, OptionValue::Text(path)) => {
                self.load_tablebases(path)?;
                self.options.set(spec, &value);
            }
            (OptionId::EvalFile, OptionValue::Text(path)) => {
                self.load_network(path)?;
                self.options.set(spec, &value);
                self.forget_searches();
            }
            (OptionId::UseNnue, _) => {
                self.options.set(spec, &value);
                self.forget_searches();
            }
            _ => self.options.set(spec, &value),
        }
        Ok(())
    }

    /// Stops any search and empties the table and histories: for a new
    /// game, and when the evaluation changes (stored evaluations and
    /// correction history belong to the evaluation that made them).
    fn forget_searches(&mut self) {
        self.stop_search();
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.clear();
        }
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// Loads and checks the network file at `path` (the embedded network
    /// when empty); a search already running keeps its network.
    fn load_network(&mut self, path: &str) -> Result<(), UciError> {
        if path.is_empty() {
            self.loaded_network = None;
            say(&format!(
                "info string using the embedded network {}",
                nnue::NETWORK_FILE
            ));
            return Ok(());
        }
        let net = Network::from_file(path.as_ref()).map_err(|e| UciError::EvalFile {
            path: path.to_string(),
            reason: e.to_string(),
        })?;
        say(&format!(
            "info string loaded network '{}' ({} hidden neurons, {} output buckets)",
            error::echo(path),
            nnue::HIDDEN,
            net.buckets
        ));
        self.loaded_network = Some(Arc::from(net));
        Ok(())
    }

    /// The evaluation the options choose.
    fn eval_choice(&self) -> EvalChoice {
        match (&self.loaded_network, self.options.use_nnue) {
            (_, false) => EvalChoice::Classical,
            (Some(net), true) => EvalChoice::Loaded(Arc::clone(net)),
            (None, true) => EvalChoice::Embedded,
        }
    }

    /// Replaces the loaded tables with those in `path` (none when empty).
    /// A path that cannot be read, or tables the prober refuses, leave the
    /// old tables in use. The old tables are closed before the new ones
    /// open (the prober holds one set at a time), and opened again when
    /// the new ones fail.
    fn load_tablebases(&mut self, path: &str) -> Result<(), UciError> {
        self.join_worker();
        if path.is_empty() {
            self.tablebases = None;
            say("info string tablebases off");
            return Ok(());
        }
        let files = crate::syzygy::scan(path).map_err(UciError::Syzygy)?;
        let incomplete = files.incomplete;
        let previous = self.tablebases.take().map(|t| t.files().clone());
        let tables = match Tablebases::open(files) {
            None => {
                say(&format!(
                    "info string no tablebase files found in '{}'; tablebases off",
                    error::echo(path)
                ));
                return Ok(());
            }
            Some(Ok(opened)) => opened,
            Some(Err(e)) => {
                self.tablebases = previous
                    .and_then(Tablebases::open)
                    .and_then(Result::ok)
                    .map(Arc::new);
                return Err(UciError::Syzygy(e));
            }
        };
        let found = tables.files();
        let skipped = if incomplete > 0 {
            format!("; {incomplete} truncated files not counted (remove them: the prober may still read them)")
        } else {
            String::new()
        };
        say(&format!(
            "info string found {} tablebase files ({} WDL, {} DTZ), up to {} pieces{skipped}",
            found.wdl.len() + found.dtz.len(),
            found.wdl.len(),
            found.dtz.len(),
            found.max_pieces
        ));
        self.tablebases = Some(Arc::new(tables));
        Ok(())
    }

    fn cmd_position(&mut self, args: &[&str]) -> Result<(), UciError> {
        let (position, keys) = parse::parse_position(args, self.options.chess960)?;
        if !self.options.chess960 && position.castling_is_chess960() {
            say("info string warning: this position has Chess960 castling rights; set UCI_Chess960 to true, or castling moves are written as the king's move (e.g. d1g1)");
        }
        self.position = position;
        self.game_keys = keys;
        self.position_set = true;
        Ok(())
    }

    /// The book's answer, when it may give one: `OwnBook` on, a game move
    /// (not an analysis or a restricted `searchmoves` search), within
    /// `BookDepth`.
    fn book_move(&mut self, limits: &Limits, searchmoves: &[Move]) -> Option<Move> {
        if !self.options.own_book
            || limits.is_analysis()
            || !searchmoves.is_empty()
            || self.position.game_ply() >= self.options.book_depth
        {
            return None;
        }
        let roll = self.rng.next_u64();
        self.book.choose(&self.position, roll)
    }

    fn cmd_go(&mut self, args: &[&str]) -> Result<(), UciError> {
        if self.searching() {
            say("info string a search is already running; stopping it first");
            self.stop_search();
        }
        // A search that answered on its own may still have a thread to join.
        self.join_worker();
        self.ensure_hash();
        if args.first() == Some(&"perft") {
            return self.cmd_perft(&args[1..]);
        }
        if !self.position_set {
            say("info string go before position; searching the start position");
        }
        let (go, errors) = parse::parse_go(args, &self.position, self.options.chess960);
        for error in &errors {
            report(error);
        }
        let mut limits = go.limits;
        if limits.fill_in_missing_clock(self.position.side_to_move().index()) {
            say(&format!(
                "info string no clock for the side to move; searching {NO_CLOCK_MOVETIME_MS} ms"
            ));
        }
        if let Some(mv) = self.book_move(&limits, &go.searchmoves) {
            let text = mv.to_uci(self.options.chess960);
            say(&format!("info string book move {text}"));
            say(&format!("bestmove {text}"));
            return Ok(());
        }

        let req = self.search_request(limits, go.searchmoves);
        self.start_search(req);
        Ok(())
    }

    /// The search `go` asks for, with the options and the game so far.
    fn search_request(&mut self, limits: Limits, searchmoves: Vec<Move>) -> SearchRequest {
        let skill = limited_elo(
            self.options.limit_strength,
            self.options.elo,
            self.options.skill_level,
        )
        .map(|elo| Skill::new(elo, self.rng.next_u64()));
        SearchRequest {
            root: self.position,
            game_keys: self.game_keys.clone(),
            limits,
            searchmoves,
            multipv: self.options.multipv,
            threads: self.options.threads,
            move_overhead_ms: self.options.move_overhead_ms,
            chess960: self.options.chess960,
            tablebases: self.tablebases.clone(),
            syzygy_probe_limit: self.options.syzygy_probe_limit,
            skill,
            eval: self.eval_choice(),
        }
    }

    /// Runs `req` on a worker thread, which prints the info lines and the
    /// `bestmove` (any legal move, should the search panic).
    fn start_search(&mut self, req: SearchRequest) {
        self.signals.reset(req.limits.ponder, req.limits.infinite);
        let tt = Arc::clone(&self.tt);
        let signals = Arc::clone(&self.signals);
        let answered = Arc::new(AtomicBool::new(false));
        let answered_by_worker = Arc::clone(&answered);
        let mut histories = std::mem::take(&mut self.histories);
        // `UCI_ShowWDL`: the shares follow from the score and the root's
        // material.
        let wdl_material = self.options.show_wdl.then(|| wdl::material(&req.root));
        let handle = std::thread::spawn(move || {
            let chess960 = req.chess960;
            let searched = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                search(&req, &tt, &signals, &mut histories, &|info| {
                    let wdl = wdl_material.map(|m| wdl::MODEL.wdl(info.score, m));
                    say(&format_info(info, chess960, wdl))
                })
            }));
            let result = searched.unwrap_or_else(|_| {
                // Never leave the GUI without an answer.
                report(&UciError::SearchFailed);
                histories = vec![History::default()];
                SearchResult::unsearched(&req.root)
            });
            answered_by_worker.store(true, Ordering::SeqCst);
            say(&format_bestmove(&result, chess960));
            (histories, result)
        });
        self.worker = Some(Worker { handle, answered });
    }

    fn cmd_display(&self) {
        say(&self.position.diagram().to_string());
    }

    fn cmd_eval(&self) {
        let b = eval::breakdown(&self.position);
        say(&b.to_string());
        let (net, source): (&Network, String) = match &self.loaded_network {
            Some(net) => (net, format!("'{}'", error::echo(&self.options.eval_file))),
            None => (&nnue::EMBEDDED, nnue::NETWORK_FILE.to_string()),
        };
        let network_eval = net.evaluate(&self.position);
        say(&format!(
            "NNUE evaluation: {network_eval} (side to move, network {source}, {} kernels)",
            nnue::Kernels::detect().name()
        ));
        let (used, which) = if !self.options.use_nnue {
            (b.total, "classical")
        } else if eval::is_mating_ending(&self.position) {
            (b.total, "classical: bare king against mating material")
        } else {
            (network_eval, "NNUE")
        };
        say(&format!(
            "Final evaluation: {used} (side to move, {which}; UseNNUE {})",
            self.options.use_nnue
        ));
    }

    fn cmd_bench(&mut self, args: &[&str]) -> Result<(), UciError> {
        self.stop_search();
        let depth = match args.first() {
            None => crate::tools::bench::DEFAULT_BENCH_DEPTH,
            Some(d) => parse::parse_depth("bench", Some(d), 1, MAX_BENCH_DEPTH as u32)? as i32,
        };
        let threads = match args.get(1) {
            None => crate::tools::bench::DEFAULT_BENCH_THREADS,
            Some(t) => match t.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => n,
                _ => {
                    return Err(UciError::BenchThreads {
                        text: t.to_string(),
                        max: MAX_THREADS,
                    })
                }
            },
        };
        crate::tools::bench::run(depth, threads, &self.eval_choice(), &mut std::io::stdout());
        Ok(())
    }

    /// OpenBench's opening generator: `info string genfens <FEN>` lines.
    fn cmd_genfens(&mut self, args: &[&str]) -> Result<(), UciError> {
        let request = parse::parse_genfens(args)?;
        let book = match &request.book {
            None => None,
            Some(path) => Some(crate::data::epd::read_epd(path.as_ref()).map_err(|e| {
                UciError::GenfensBook {
                    path: path.to_string(),
                    reason: e.to_string(),
                }
            })?),
        };
        for fen in crate::tools::datagen::genfens(request.count, request.seed, book.as_deref()) {
            say(&format!("info string genfens {fen}"));
        }
        Ok(())
    }

    fn cmd_perft(&mut self, args: &[&str]) -> Result<(), UciError> {
        self.stop_search();
        let depth = parse::parse_depth("perft", args.first().copied(), 0, MAX_PERFT_DEPTH)?;
        crate::tools::perft::run_divide(
            &self.position,
            depth,
            self.options.chess960,
            &mut std::io::stdout(),
        );
        Ok(())
    }
}

/// Free memory in MB (Linux `MemAvailable`), if the system says.
fn available_memory_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
