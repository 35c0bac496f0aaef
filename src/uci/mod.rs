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
//! - `sink`: where replies go (`Sink`, `Stdout`);
//! - `effects`: what a change of option does (table, threads, book,
//!   network, tablebases);
//! - `inspect`: `d` and `eval`;
//! - `tool_commands`: `bench`, `perft` and `genfens`, the engine's own
//!   commands (`crate::commands`), as the protocol answers them;
//! - `tests`: the protocol's tests.

mod effects;
pub mod error;
pub mod info_line;
mod inspect;
pub mod options;
pub mod output;
pub mod parse;
pub mod sink;
mod tool_commands;

use crate::book::Book;
use crate::chess::{Move, Position};
use crate::nnue::{EvalChoice, Network};
use crate::rng::{time_seed, Rng};
use crate::search::skill::limited_elo;
use crate::search::time::{Limits, NO_CLOCK_MOVETIME_MS};
use crate::search::tt::TranspositionTable;
use crate::search::wdl;
use crate::search::{SearchRequest, SearchResult, Signals, Skill, ThreadPool};
use crate::syzygy::Tablebases;
pub use error::{BookFailure, UciError};
use options::{
    Options, BOOK_DEPTH, CHESS960, ELO, HASH, LIMIT_STRENGTH, MOVE_OVERHEAD, MULTI_PV, OWN_BOOK,
    SHOW_WDL, SKILL_LEVEL, SYZYGY_PROBE_LIMIT, THREADS, USE_NNUE,
};
pub use output::Reply;
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

    /// The evaluation the options choose.
    fn eval_choice(&self) -> EvalChoice {
        match (&self.loaded_network, self.options.check(USE_NNUE)) {
            (_, false) => EvalChoice::Classical,
            (Some(net), true) => EvalChoice::Loaded(Arc::clone(net)),
            (None, true) => EvalChoice::Embedded,
        }
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
}

#[cfg(test)]
mod tests;
