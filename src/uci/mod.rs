//! The UCI protocol: the only place that reads stdin. Searches run on the
//! search's thread pool (worker 0 reports and answers), so `stop`,
//! `isready` and `quit` are answered while one runs. Every reply, from
//! either thread, goes to the engine's `Sink` as a `Reply` value
//! (`Engine::with_sink`); the default sink prints it on stdout, and nothing
//! here prints otherwise.
//!
//! Bad input never stops the engine: it is answered with
//! `info string error: ...` and the state stays as it was. In particular a
//! `position` command with a malformed FEN or an illegal move leaves the
//! position **unchanged** (the whole command is rejected).
//!
//! - `options`: the options, declared once (listing, defaults, parsing,
//!   typed values, the effect of a change);
//! - `parse`: the pure parsers of `position` and `go`;
//! - `error`: what can be rejected, as `UciError`;
//! - `output`: `Reply`, what the engine says, and its UCI text;
//! - `info_line`: an `info` search report read back into a value;
//! - `sink`: where replies go (`Sink`, `Stdout`).

pub mod error;
pub mod info_line;
pub mod options;
pub mod output;
pub mod parse;
pub mod sink;

use crate::book::Book;
use crate::chess::{Move, Position};
use crate::eval;
use crate::nnue::{self, EvalChoice, Network};
use crate::rng::{time_seed, Rng};
use crate::search::skill::limited_elo;
use crate::search::time::{Limits, NO_CLOCK_MOVETIME_MS};
use crate::search::tt::TranspositionTable;
use crate::search::wdl;
use crate::search::{SearchRequest, SearchResult, Signals, Skill, ThreadPool, MAX_THREADS};
use crate::syzygy::Tablebases;
use crate::tools::bench::MAX_BENCH_DEPTH;
use crate::tools::perft::MAX_PERFT_DEPTH;
pub use error::{BookFailure, UciError};
use options::{
    Effect, OptionValue, Options, BOOK_DEPTH, CHESS960, ELO, EVAL_FILE, HASH, LIMIT_STRENGTH,
    MOVE_OVERHEAD, MULTI_PV, OWN_BOOK, SHOW_WDL, SKILL_LEVEL, SYZYGY_PROBE_LIMIT, THREADS,
    USE_NNUE,
};
pub use output::Reply;
use sink::TextLines;
pub use sink::{Sink, Stdout};
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The commands `Engine::handle` knows, by their first word (`kiln uci`
/// on the command line runs one, as `kiln "go depth 5"` does).
pub const COMMANDS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "perft",
    "genfens",
];

/// The engine as the protocol sees it.
pub struct Engine {
    position: Position,
    /// Keys of the positions before `position` in the game, oldest first.
    game_keys: Vec<u64>,
    position_set: bool,
    options: Options,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    /// The search threads, made once (again when `Threads` changes).
    /// (`None` until the first `isready` or `go`: `uci` is answered before
    /// any thread starts or any search memory is touched.)
    pool: Option<ThreadPool>,
    /// Set by the search before it prints `bestmove`: from then on the
    /// search is over for the GUI, and the next command waits for the pool
    /// instead of treating the search as running.
    answered: Arc<AtomicBool>,
    book: Book,
    /// Loaded Syzygy tables, shared with the search threads.
    tablebases: Option<Arc<Tablebases>>,
    /// The network `EvalFile` loaded (`None`: the embedded one).
    loaded_network: Option<Arc<Network>>,
    /// Book-move rolls and skill seeds.
    rng: Rng,
    /// Where every reply goes.
    sink: Arc<dyn Sink>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine that prints its replies on stdout.
    pub fn new() -> Engine {
        Engine::with_sink(Arc::new(Stdout))
    }

    /// An engine that sends every reply to `sink`.
    pub fn with_sink(sink: Arc<dyn Sink>) -> Engine {
        Engine {
            position: Position::startpos(),
            game_keys: Vec::new(),
            position_set: false,
            options: Options::default(),
            // Allocated at the first isready/go (see `ensure_hash`): `uci` is
            // answered before any memory is touched.
            tt: Arc::new(TranspositionTable::placeholder()),
            signals: Arc::new(Signals::default()),
            pool: None,
            answered: Arc::new(AtomicBool::new(true)),
            book: Book::embedded(),
            tablebases: None,
            loaded_network: None,
            rng: Rng::new(time_seed()),
            sink,
        }
    }

    fn say(&self, reply: Reply) {
        self.sink.emit(reply);
    }

    /// A note for the user (`info string ...`).
    fn note(&self, text: impl Into<String>) {
        self.say(Reply::Message(text.into()));
    }

    /// The one place errors are reported.
    fn report(&self, error: UciError) {
        self.say(Reply::Error(error));
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

    /// Ends a session of commands given at once (`kiln "go depth 5" quit`):
    /// a search with a limit runs to its `bestmove`; one that would wait
    /// for `stop` (`go infinite`, `go ponder`) is stopped.
    pub fn finish(&mut self) {
        let waits_for_stop = self.signals.infinite.load(Ordering::SeqCst)
            || self.signals.pondering.load(Ordering::SeqCst);
        if waits_for_stop {
            self.stop_search();
        } else {
            self.join_worker();
        }
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return true;
        };
        let args = &tokens[1..];
        // A search that has answered is over: let it finish before
        // anything else touches its data.
        if self.answered.load(Ordering::SeqCst) {
            self.join_worker();
        }
        let outcome = match command {
            "uci" => {
                self.cmd_uci();
                Ok(())
            }
            "isready" => {
                self.ensure_hash();
                self.ensure_pool();
                self.say(Reply::ReadyOk);
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
            self.report(error);
        }
        true
    }

    /// Makes the table the size the `Hash` option asks for (never mid-search).
    /// Makes the search threads (`Threads` of them) if there are none yet:
    /// at the first `isready` (or `go`), so that `uci` starts no thread and
    /// a `go` after `isready` starts none either.
    fn ensure_pool(&mut self) -> &mut ThreadPool {
        let threads = self.options.spin(THREADS);
        self.pool.get_or_insert_with(|| ThreadPool::new(threads))
    }

    fn ensure_hash(&mut self) {
        let hash_mb = self.options.spin(HASH);
        if self.tt.size_mb() != hash_mb && !self.searching() {
            self.join_worker();
            match Arc::get_mut(&mut self.tt) {
                Some(tt) => tt.resize(hash_mb),
                None => {
                    // Free the old table before the new one is allocated.
                    self.tt = Arc::new(TranspositionTable::placeholder());
                    self.tt = Arc::new(TranspositionTable::new(hash_mb));
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
        !self.answered.load(Ordering::SeqCst)
    }

    /// Stops any running search and waits for its `bestmove`.
    fn stop_search(&mut self) {
        self.signals.stop.store(true, Ordering::SeqCst);
        self.join_worker();
    }

    /// Waits until the pool is idle (a search that has answered may still
    /// be handing its workers back).
    fn join_worker(&mut self) {
        if let Some(pool) = &self.pool {
            pool.wait();
        }
    }

    fn cmd_uci(&self) {
        self.say(Reply::Id {
            name: concat!("Kiln ", env!("CARGO_PKG_VERSION")),
            author: "the Kiln developers",
        });
        for spec in options::all() {
            self.say(Reply::Option(spec));
        }
        self.say(Reply::UciOk);
    }

    fn cmd_ucinewgame(&mut self) {
        self.forget_searches();
        self.position = Position::startpos();
        self.game_keys.clear();
    }

    fn cmd_setoption(&mut self, args: &[&str]) -> Result<(), UciError> {
        let (spec, value) = options::parse_setoption(args)?;
        if let Some(effect) = spec.effect {
            if effect.waits_for_search() && self.searching() {
                return Err(UciError::OptionDuringSearch(spec.name));
            }
            self.apply(effect, &value)?;
        }
        self.options.set(spec, &value);
        Ok(())
    }

    /// Does what a change of option does besides storing the value, which
    /// is stored after; an error leaves the option as it was.
    fn apply(&mut self, effect: Effect, value: &OptionValue) -> Result<(), UciError> {
        match (effect, value) {
            (Effect::ResizeHash, &OptionValue::Spin(mb)) => {
                // The current table is freed before the new one is made.
                if let Some(free_mb) = available_memory_mb() {
                    let available_mb = free_mb + self.tt.size_mb() as u64;
                    if mb as u64 > available_mb * 9 / 10 {
                        return Err(UciError::HashTooLarge { mb, available_mb });
                    }
                }
                self.resize_hash(mb as usize)
            }
            // The table and what the workers learnt go together.
            (Effect::ClearHash, _) => {
                self.forget_searches();
                Ok(())
            }
            // The pool changes now, not at the next `go`.
            (Effect::SetThreads, &OptionValue::Spin(threads)) => {
                if let Some(pool) = &mut self.pool {
                    pool.set_threads(threads as usize);
                }
                Ok(())
            }
            (Effect::LoadBook, OptionValue::Text(path)) => self.load_book(path),
            (Effect::LoadTablebases, OptionValue::Text(path)) => self.load_tablebases(path),
            (Effect::LoadNetwork, OptionValue::Text(path)) => {
                self.load_network(path)?;
                self.forget_searches();
                Ok(())
            }
            (Effect::SwitchEvaluation, _) => {
                self.forget_searches();
                Ok(())
            }
            // Each effect is declared with the type of option it takes
            // (checked when the crate is built), and the value is of that
            // type.
            _ => Ok(()),
        }
    }

    /// Loads the book file at `path` (the embedded book when empty).
    fn load_book(&mut self, path: &str) -> Result<(), UciError> {
        if path.is_empty() {
            self.book = Book::embedded();
            self.note("using the embedded book");
            return Ok(());
        }
        let book = Book::from_file(path).map_err(|e| UciError::Book(BookFailure(Arc::new(e))))?;
        let format = if book.is_polyglot() {
            "polyglot book"
        } else {
            "book"
        };
        self.note(format!(
            "loaded {format} '{}' with {} entries",
            error::echo(path),
            book.len()
        ));
        self.book = book;
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
        if let Some(pool) = &self.pool {
            pool.clear();
        }
    }

    /// Loads and checks the network file at `path` (the embedded network
    /// when empty); a search already running keeps its network.
    fn load_network(&mut self, path: &str) -> Result<(), UciError> {
        if path.is_empty() {
            self.loaded_network = None;
            self.note(format!("using the embedded network {}", nnue::NETWORK_FILE));
            return Ok(());
        }
        let net = Network::from_file(path.as_ref()).map_err(|e| UciError::EvalFile {
            path: path.to_string(),
            reason: e.to_string(),
        })?;
        self.note(format!(
            "loaded network '{}' ({} hidden neurons, {} output buckets)",
            error::echo(path),
            nnue::HIDDEN,
            net.buckets
        ));
        self.loaded_network = Some(Arc::from(net));
        Ok(())
    }

    /// The evaluation the options choose.
    fn eval_choice(&self) -> EvalChoice {
        match (&self.loaded_network, self.options.check(USE_NNUE)) {
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
            self.note("tablebases off");
            return Ok(());
        }
        let files = crate::syzygy::scan(path).map_err(UciError::Syzygy)?;
        let incomplete = files.incomplete;
        let previous = self.tablebases.take().map(|t| t.files().clone());
        let tables = match Tablebases::open(files) {
            None => {
                self.note(format!(
                    "no tablebase files found in '{}'; tablebases off",
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
        self.note(format!(
            "found {} tablebase files ({} WDL, {} DTZ), up to {} pieces{skipped}",
            found.wdl.len() + found.dtz.len(),
            found.wdl.len(),
            found.dtz.len(),
            found.max_pieces
        ));
        self.tablebases = Some(Arc::new(tables));
        Ok(())
    }

    fn cmd_position(&mut self, args: &[&str]) -> Result<(), UciError> {
        let chess960 = self.options.check(CHESS960);
        let (position, keys) = parse::parse_position(args, chess960)?;
        if !chess960 && position.castling_is_chess960() {
            self.note("warning: this position has Chess960 castling rights; set UCI_Chess960 to true, or castling moves are written as the king's move (e.g. d1g1)");
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
        if !self.options.check(OWN_BOOK)
            || limits.is_analysis()
            || !searchmoves.is_empty()
            || self.position.game_ply() >= self.options.spin(BOOK_DEPTH)
        {
            return None;
        }
        let roll = self.rng.next_u64();
        self.book.choose(&self.position, roll)
    }

    fn cmd_go(&mut self, args: &[&str]) -> Result<(), UciError> {
        if self.searching() {
            self.note("a search is already running; stopping it first");
            self.stop_search();
        }
        // A search that answered on its own may still have a thread to join.
        self.join_worker();
        self.ensure_hash();
        if args.first() == Some(&"perft") {
            return self.cmd_perft(&args[1..]);
        }
        if !self.position_set {
            self.note("go before position; searching the start position");
        }
        let chess960 = self.options.check(CHESS960);
        let (go, errors) = parse::parse_go(args, &self.position, chess960);
        for error in errors {
            self.report(error);
        }
        let mut limits = go.limits;
        if limits.fill_in_missing_clock(self.position.side_to_move().index()) {
            self.note(format!(
                "no clock for the side to move; searching {NO_CLOCK_MOVETIME_MS} ms"
            ));
        }
        if let Some(mv) = self.book_move(&limits, &go.searchmoves) {
            let score = self.static_eval();
            let wdl = self
                .options
                .check(SHOW_WDL)
                .then(|| wdl::MODEL.wdl(score, wdl::material(&self.position)));
            self.say(Reply::BookMove {
                mv,
                score,
                wdl,
                chess960,
            });
            return Ok(());
        }

        let req = self.search_request(limits, go.searchmoves);
        self.start_search(req);
        Ok(())
    }

    /// The search `go` asks for, with the options and the game so far.
    fn search_request(&mut self, limits: Limits, searchmoves: Vec<Move>) -> SearchRequest {
        let skill = limited_elo(
            self.options.check(LIMIT_STRENGTH),
            self.options.spin(ELO),
            self.options.spin(SKILL_LEVEL),
        )
        .map(|elo| Skill::new(elo, self.rng.next_u64()));
        SearchRequest {
            root: self.position,
            game_keys: self.game_keys.clone(),
            limits,
            searchmoves,
            multipv: self.options.spin(MULTI_PV),
            threads: self.options.spin(THREADS),
            move_overhead_ms: self.options.spin(MOVE_OVERHEAD),
            chess960: self.options.check(CHESS960),
            tablebases: self.tablebases.clone(),
            syzygy_probe_limit: self.options.spin(SYZYGY_PROBE_LIMIT),
            skill,
            eval: self.eval_choice(),
        }
    }

    /// Runs `req` on the thread pool, whose worker 0 sends the search
    /// reports and the `bestmove` (any legal move, should the search panic)
    /// to the sink. Threads start or end here only when `Threads` changed.
    fn start_search(&mut self, req: SearchRequest) {
        self.signals.reset(req.limits.ponder, req.limits.infinite);
        self.answered.store(false, Ordering::SeqCst);
        let answered = Arc::clone(&self.answered);
        let chess960 = req.chess960;
        let root = req.root;
        // `UCI_ShowWDL`: the shares follow from the score and the root's
        // material.
        let wdl_material = self
            .options
            .check(SHOW_WDL)
            .then(|| wdl::material(&req.root));
        let reports = Arc::clone(&self.sink);
        let answers = Arc::clone(&self.sink);
        let (tt, signals) = (Arc::clone(&self.tt), Arc::clone(&self.signals));
        let pool = self.ensure_pool();
        if pool.threads() != req.threads {
            pool.set_threads(req.threads);
        }
        pool.start(
            req,
            tt,
            signals,
            Box::new(move |info| {
                let wdl = wdl_material.map(|m| wdl::MODEL.wdl(info.score, m));
                reports.emit(Reply::Info {
                    info: info.clone(),
                    wdl,
                    chess960,
                })
            }),
            Box::new(move |searched| {
                let result = searched.unwrap_or_else(|_| {
                    // Never leave the GUI without an answer.
                    answers.emit(Reply::Error(UciError::SearchFailed));
                    SearchResult::unsearched(&root)
                });
                answered.store(true, Ordering::SeqCst);
                answers.emit(Reply::BestMove { result, chess960 });
            }),
        );
    }

    fn cmd_display(&self) {
        self.say(Reply::Text(self.position.diagram().to_string()));
    }

    /// The network `eval` and the search use: the one `EvalFile` loaded,
    /// or the embedded one.
    fn network(&self) -> &Network {
        self.loaded_network.as_deref().unwrap_or(&nnue::EMBEDDED)
    }

    /// Which evaluation the search starts from at the current position,
    /// and why: the network, unless `UseNNUE` is off or the position is a
    /// mating ending, which the classical evaluation knows (`None`).
    fn evaluator(&self) -> (Option<&Network>, &'static str) {
        if !self.options.check(USE_NNUE) {
            (None, "classical")
        } else if eval::is_mating_ending(&self.position) {
            (None, "classical: bare king against mating material")
        } else {
            (Some(self.network()), "NNUE")
        }
    }

    /// The evaluation the search starts from at the current position, for
    /// the side to move (see `evaluator`).
    fn static_eval(&self) -> i32 {
        match self.evaluator().0 {
            Some(net) => net.evaluate(&self.position),
            None => eval::evaluate(&self.position),
        }
    }

    fn cmd_eval(&self) {
        let b = eval::breakdown(&self.position);
        self.say(Reply::Text(b.to_string()));
        let source = match &self.loaded_network {
            Some(_) => format!("'{}'", error::echo(self.options.text(EVAL_FILE))),
            None => nnue::NETWORK_FILE.to_string(),
        };
        self.say(Reply::Text(format!(
            "NNUE evaluation: {} (side to move, network {source}, {} kernels)",
            self.network().evaluate(&self.position),
            nnue::Kernels::detect().name()
        )));
        let use_nnue = self.options.check(USE_NNUE);
        self.say(Reply::Text(format!(
            "Final evaluation: {} (side to move, {}; UseNNUE {use_nnue})",
            self.static_eval(),
            self.evaluator().1
        )));
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
        let mut out = TextLines::new(self.sink.as_ref());
        crate::tools::bench::run(depth, threads, &self.eval_choice(), &mut out);
        Ok(())
    }

    /// OpenBench's opening generator: `info string genfens <FEN>` lines.
    fn cmd_genfens(&mut self, args: &[&str]) -> Result<(), UciError> {
        let request = parse::parse_genfens(args)?;
        let book = match &request.book {
            None => None,
            Some(path) => Some(Arc::new(
                crate::data::epd::EpdBook::open(path.as_ref()).map_err(|e| {
                    UciError::GenfensBook {
                        path: path.to_string(),
                        reason: e.to_string(),
                    }
                })?,
            )),
        };
        // Each line goes out (and, on stdout, is flushed) as it is found.
        let sink = Arc::clone(&self.sink);
        crate::tools::datagen::genfens(request.count, request.seed, book, &mut |fen| {
            sink.emit(Reply::Message(format!("genfens {fen}")))
        });
        Ok(())
    }

    fn cmd_perft(&mut self, args: &[&str]) -> Result<(), UciError> {
        self.stop_search();
        let depth = parse::parse_depth("perft", args.first().copied(), 0, MAX_PERFT_DEPTH)?;
        let mut out = TextLines::new(self.sink.as_ref());
        crate::tools::perft::run_divide(
            &self.position,
            depth,
            self.options.check(CHESS960),
            &mut out,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::movegen::legal_moves;
    use std::sync::mpsc::{channel, Receiver};
    use std::time::{Duration, Instant};

    /// An engine whose replies come out of the receiver, with a small table.
    fn engine() -> (Engine, Receiver<Reply>) {
        let (sender, receiver) = channel();
        let mut engine = Engine::with_sink(Arc::new(sender));
        engine.handle("setoption name Hash value 1");
        assert_eq!(replies(&receiver), []);
        (engine, receiver)
    }

    /// The replies made so far.
    fn replies(receiver: &Receiver<Reply>) -> Vec<Reply> {
        receiver.try_iter().collect()
    }

    /// The replies up to and with the first `bestmove`, which must come
    /// within a minute.
    fn until_bestmove(receiver: &Receiver<Reply>) -> Vec<Reply> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let reply = receiver
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("no bestmove ({e}) after {got:?}"));
            let done = matches!(reply, Reply::BestMove { .. } | Reply::BookMove { .. });
            got.push(reply);
            if done {
                return got;
            }
        }
    }

    fn texts(replies: &[Reply]) -> Vec<String> {
        replies.iter().map(Reply::to_string).collect()
    }

    #[test]
    fn uci_lists_the_identity_and_every_option_as_before() {
        let (mut engine, receiver) = engine();
        engine.handle("uci");
        let got = texts(&replies(&receiver)).join("\n");
        let listing = format!(
            "id name Kiln {}
id author the Kiln developers
option name Hash type spin default 16 min 1 max 65536
option name Threads type spin default 1 min 1 max 1024
option name Move Overhead type spin default 20 min 0 max 5000
option name Clear Hash type button
option name Ponder type check default false
option name MultiPV type spin default 1 min 1 max 256
option name UCI_ShowWDL type check default false
option name UCI_LimitStrength type check default false
option name UCI_Elo type spin default 2800 min 1000 max 2800
option name Skill Level type spin default 20 min 0 max 20
option name UCI_Chess960 type check default false
option name OwnBook type check default true
option name BookDepth type spin default 24 min 0 max 200
option name BookFile type string default <empty>
option name SyzygyPath type string default <empty>
option name SyzygyProbeLimit type spin default 7 min 0 max 7
option name UseNNUE type check default true
option name EvalFile type string default <empty>",
            env!("CARGO_PKG_VERSION")
        );
        // A tune build lists the search parameters between the options
        // and `uciok`.
        #[cfg(not(feature = "tune"))]
        assert_eq!(got, format!("{listing}\nuciok"));
        #[cfg(feature = "tune")]
        assert!(got.starts_with(&format!("{listing}\n")) && got.ends_with("\nuciok"));
    }

    #[test]
    fn a_search_sends_its_reports_and_a_legal_bestmove() {
        let (mut engine, receiver) = engine();
        engine.handle("isready");
        assert_eq!(replies(&receiver), [Reply::ReadyOk]);
        engine.handle("position startpos moves e2e4");
        engine.handle("go depth 3");
        let got = until_bestmove(&receiver);
        let (last, reports) = got.split_last().unwrap();
        let after_e4 = parse::parse_position(&["startpos", "moves", "e2e4"], false)
            .unwrap()
            .0;
        let best = last.best_move().expect("a move");
        assert!(legal_moves(&after_e4).iter().any(|m| m == best), "{last}");
        assert!(last
            .to_string()
            .starts_with(&format!("bestmove {}", best.to_uci(false))));
        let depths: Vec<i32> = reports
            .iter()
            .map(|r| match r {
                Reply::Info {
                    info, wdl: None, ..
                } => info.depth,
                other => panic!("not a report: {other}"),
            })
            .collect();
        assert_eq!(depths.last(), Some(&3), "{got:?}");
        assert!(texts(reports).iter().all(|t| t.starts_with("info depth ")));
    }

    #[test]
    fn show_wdl_gives_the_reports_their_shares() {
        let (mut engine, receiver) = engine();
        engine.handle("setoption name UCI_ShowWDL value true");
        engine.handle("position startpos");
        engine.handle("go depth 2");
        let got = until_bestmove(&receiver);
        for reply in &got[..got.len() - 1] {
            let Reply::Info { wdl: Some(w), .. } = reply else {
                panic!("no shares: {reply}");
            };
            assert_eq!(w.win + w.draw + w.loss, 1000);
            assert!(reply.to_string().contains(" wdl "));
        }
    }

    #[test]
    fn a_bad_fen_is_an_error_and_leaves_the_position() {
        let (mut engine, receiver) = engine();
        engine.handle("position startpos moves e2e4");
        engine.handle("position fen 8/8/8 w - - 0 1");
        let got = replies(&receiver);
        assert!(
            matches!(got[..], [Reply::Error(UciError::Fen(_))]),
            "{got:?}"
        );
        assert!(got[0].to_string().starts_with("info string error: "));
        engine.handle("d");
        let shown = texts(&replies(&receiver)).concat();
        assert!(shown.contains("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"));
    }

    #[test]
    fn options_reach_the_engine_and_bad_values_are_errors() {
        let (mut engine, receiver) = engine();
        engine.handle("setoption name Hash value 4");
        engine.handle("isready");
        assert_eq!(replies(&receiver), [Reply::ReadyOk]);
        assert_eq!(engine.tt.size_mb(), 4);
        assert_eq!(engine.options.spin(HASH), 4);
        engine.handle("setoption name Hash value 0");
        engine.handle("setoption name Hash value x");
        engine.handle("setoption name BookFile value /nonexistent/book.txt");
        let got = replies(&receiver);
        assert!(
            matches!(
                got[..],
                [
                    Reply::Error(UciError::OptionOutOfRange { name: "Hash", .. }),
                    Reply::Error(UciError::OptionNotANumber { name: "Hash", .. }),
                    Reply::Error(UciError::Book(_)),
                ]
            ),
            "{got:?}"
        );
        assert_eq!((engine.tt.size_mb(), engine.options.spin(HASH)), (4, 4));
        assert_eq!(engine.options.text(options::BOOK_FILE), "");
        engine.handle("setoption name BookFile value <empty>");
        assert_eq!(
            replies(&receiver),
            [Reply::Message("using the embedded book".into())]
        );
    }

    #[test]
    fn options_a_search_uses_wait_for_it_and_the_book_does_not() {
        let (mut engine, receiver) = engine();
        engine.handle("position startpos");
        engine.handle("go infinite");
        engine.handle("setoption name Hash value 2");
        engine.handle("setoption name Threads value 2");
        engine.handle("setoption name BookFile value <empty>");
        engine.handle("stop");
        let got = until_bestmove(&receiver);
        let notes: Vec<&Reply> = got
            .iter()
            .filter(|r| !matches!(r, Reply::Info { .. } | Reply::BestMove { .. }))
            .collect();
        assert_eq!(
            notes,
            [
                &Reply::Error(UciError::OptionDuringSearch("Hash")),
                &Reply::Error(UciError::OptionDuringSearch("Threads")),
                &Reply::Message("using the embedded book".into()),
            ]
        );
        assert_eq!(
            (engine.options.spin(HASH), engine.options.spin(THREADS)),
            (1, 1)
        );
    }

    #[test]
    fn a_game_move_may_come_from_the_book() {
        let (mut engine, receiver) = engine();
        engine.handle("position startpos");
        engine.handle("go wtime 1000 btime 1000");
        let got = until_bestmove(&receiver);
        let [Reply::BookMove {
            mv,
            score,
            wdl: None,
            chess960: false,
        }] = got[..]
        else {
            panic!("not a book move: {got:?}");
        };
        // Scored with the evaluation `eval` reports, on a line of its own.
        assert_eq!(score, engine.static_eval());
        assert!(score.abs() < 200, "{score}");
        let text = mv.to_uci(false);
        let lines: Vec<String> = got[0].to_string().lines().map(String::from).collect();
        assert_eq!(lines[0], format!("info string book move {text}"));
        assert!(
            lines[1].starts_with(&format!(
                "info depth 1 seldepth 1 multipv 1 score cp {score} "
            )) && lines[1].ends_with(&format!(" pv {text}")),
            "{lines:?}"
        );
        assert_eq!(lines[2], format!("bestmove {text}"));
        engine.handle("setoption name OwnBook value false");
        engine.handle("go wtime 1000 btime 1000");
        let got = until_bestmove(&receiver);
        assert!(
            matches!(got.last(), Some(Reply::BestMove { .. })),
            "{got:?}"
        );
    }

    #[test]
    fn every_listed_command_is_one_the_engine_knows() {
        let (mut engine, receiver) = engine();
        for command in COMMANDS.iter().filter(|&&c| c != "quit") {
            // Small arguments for the slow ones; without its arguments a
            // command may be refused, but never as an unknown command.
            let line = match *command {
                "go" => "go depth 1",
                "bench" => "bench 1",
                "perft" => "perft 1",
                "genfens" => "genfens 1 seed 1 book None",
                other => other,
            };
            assert!(engine.handle(line));
            engine.finish();
            let unknown = replies(&receiver)
                .into_iter()
                .any(|r| matches!(r, Reply::Error(UciError::UnknownCommand(_))));
            assert!(!unknown, "{command}");
        }
        assert!(!engine.handle("quit"));
    }

    #[test]
    fn tool_output_arrives_as_lines_of_text() {
        let (mut engine, receiver) = engine();
        engine.handle("perft 1");
        let got = texts(&replies(&receiver));
        assert_eq!(got.len(), 20 + 3, "{got:?}");
        assert!(got[..20].iter().all(|l| l.ends_with(": 1")));
        assert_eq!(got[20..22], ["", "Nodes searched: 20"]);
        assert!(got[22].starts_with("info string perft time "));
        engine.handle("genfens 2 seed 3 book None");
        let got = replies(&receiver);
        assert_eq!(got.len(), 2);
        for reply in got {
            let Reply::Message(text) = reply else {
                panic!("{reply}")
            };
            let fen = text.strip_prefix("genfens ").unwrap();
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
        engine.handle("setoption name UseNNUE value false");
        engine.handle("eval");
        let got = texts(&replies(&receiver));
        assert!(
            got.last().unwrap().ends_with("classical; UseNNUE false)"),
            "{got:?}"
        );
    }
}
