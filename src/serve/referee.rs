//! The referee: holds every game and analysis, starts the engines'
//! searches (`engines`), takes their replies, keeps the clocks and flags a
//! side whose time runs out, and tells the listeners (`events`) of every
//! change. Request handlers (`api`) call in from their own threads; one
//! thread reads the engines' replies and one ticks the clocks.
//!
//! Locks are taken in one order: a game's table, then the analyses, then
//! the engine pool (the hub's own lock last). Engines never take a lock:
//! their replies go through a channel, so stopping a search while holding
//! a game's lock cannot wait on the game. A reply whose ticket is not the
//! one the game or analysis waits for (a search stopped because the
//! position changed) is dropped, so no report of an old position is sent
//! after the change.

use super::engines::{EnginePool, Note, PoolFull, Seat};
use super::error::ApiError;
use super::events::{format_event, Hub};
use super::game::{color_name, score_json, Game, MoveNote};
use super::settings::{MoveLimit, Settings};
use crate::book::Book;
use crate::chess::{Color, Move, Position};
use crate::uci::info_line::{InfoLine, InfoScore, ScoreBound};
use crate::uci::Reply;
use serde_json::{json, Map, Value as Json};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How often the clocks are looked at (a flag falls within this).
const TICK: Duration = Duration::from_millis(50);
/// How often a running clock is sent to the listeners.
const CLOCK_EVERY: Duration = Duration::from_secs(1);
/// An analysis stops on its own after this long.
pub const MAX_ANALYSIS: Duration = Duration::from_secs(600);
/// Games kept at most (the oldest finished ones are forgotten first).
const MAX_GAMES: usize = 10_000;

/// A poisoned lock (a handler panicked) still guards valid data: the
/// game records change only through methods that keep them whole.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A game with the search the referee waits for.
struct Table {
    game: Game,
    /// The ticket of the engine's search for the game's move.
    search: Option<u64>,
}

/// A running analysis.
struct Analysis {
    /// The game analysed (its id is the channel), if any.
    game: Option<u64>,
    /// Restarts at the game's new position after each change.
    follows: bool,
    /// The position analysed and how its moves are written.
    root: Position,
    ply: usize,
    chess960: bool,
    multipv: usize,
    ticket: u64,
    started: Instant,
}

/// What to analyse.
pub enum Target {
    /// A game's position after `ply` moves (`None`: its current position,
    /// followed as the game goes on).
    Game { id: u64, ply: Option<usize> },
    /// A position and moves from it (checked legal).
    Position {
        start: Box<Position>,
        moves: Vec<Move>,
    },
}

/// Everything the server keeps.
pub struct Referee {
    tables: Mutex<HashMap<u64, Arc<Mutex<Table>>>>,
    analyses: Mutex<HashMap<u64, Analysis>>,
    pool: Mutex<EnginePool>,
    hub: Hub,
    next_id: AtomicU64,
    /// Games whose engine move found no free engine, in order.
    waiting: Mutex<VecDeque<u64>>,
}

/// The UCI moves of a line, as the engine reads them.
fn uci_moves(moves: impl Iterator<Item = String>) -> String {
    let moves: Vec<String> = moves.collect();
    if moves.is_empty() {
        String::new()
    } else {
        format!(" moves {}", moves.join(" "))
    }
}

/// The book's moves in `pos`, as the state (and `GET /api/book`) shows
/// them.
pub fn book_json(pos: &Position, chess960: bool) -> Json {
    Json::Array(
        Book::embedded()
            .probe(pos)
            .iter()
            .map(|b| {
                json!({
                    "uci": b.mv.to_uci(chess960),
                    "san": pos.to_san(b.mv),
                    "weight": b.weight,
                })
            })
            .collect(),
    )
}

/// The members of a JSON object (`json!({...})` always makes one).
fn members(object: Json) -> Map<String, Json> {
    match object {
        Json::Object(members) => members,
        _ => Map::new(),
    }
}

/// An `info` event: `source` (who searched which position), then the
/// report read from `root` (see `info_json`).
fn info_event(
    mut source: Map<String, Json>,
    line: &InfoLine,
    root: &Position,
    chess960: bool,
) -> Json {
    source.extend(info_json(line, root, chess960));
    Json::Object(source)
}

/// A search report as the `info` event carries it: `pv` in UCI and SAN
/// (from `root`), the score from the side to move's view.
pub fn info_json(line: &InfoLine, root: &Position, chess960: bool) -> Map<String, Json> {
    let mut pos = *root;
    let mut san = Vec::new();
    for text in &line.pv {
        let Some(mv) = pos.parse_uci_move(text, chess960) else {
            break;
        };
        san.push(pos.to_san(mv));
        pos.make_move(mv);
    }
    let bound = match line.bound {
        Some(ScoreBound::Lower) => Some("lower"),
        Some(ScoreBound::Upper) => Some("upper"),
        None => None,
    };
    let wdl = line
        .wdl
        .map(|w| json!({ "win": w.win, "draw": w.draw, "loss": w.loss }));
    let report = json!({
        "depth": line.depth,
        "seldepth": line.seldepth,
        "multipv": line.multipv.unwrap_or(1),
        "score": score_json(line.score),
        "bound": bound,
        "wdl": wdl,
        "nodes": line.nodes,
        "nps": line.nps,
        "time_ms": line.time_ms,
        "hashfull": line.hashfull,
        "tbhits": line.tbhits,
        "pv": line.pv,
        "pv_san": san,
    });
    members(report)
}

impl Referee {
    /// A referee with at most `engines` live engines, each set up with
    /// `setup` (`setoption ...` lines), and its two threads running.
    pub fn start(engines: usize, setup: Vec<String>) -> Arc<Referee> {
        let (notes_in, notes) = channel();
        let referee = Arc::new(Referee {
            tables: Mutex::new(HashMap::new()),
            analyses: Mutex::new(HashMap::new()),
            pool: Mutex::new(EnginePool::new(engines, notes_in, setup)),
            hub: Hub::default(),
            next_id: AtomicU64::new(1),
            waiting: Mutex::new(VecDeque::new()),
        });
        let replies = Arc::clone(&referee);
        std::thread::spawn(move || replies.take_notes(notes));
        let clocks = Arc::clone(&referee);
        std::thread::spawn(move || clocks.tick());
        referee
    }

    fn table(&self, id: u64) -> Option<Arc<Mutex<Table>>> {
        lock(&self.tables).get(&id).cloned()
    }

    fn table_or_404(&self, id: u64) -> Result<Arc<Mutex<Table>>, ApiError> {
        self.table(id)
            .ok_or_else(|| ApiError::not_found(format!("no game {id}")))
    }

    fn state(t: &Table, now: Instant) -> Json {
        let pos = t.game.position();
        let book = if t.game.is_playing() {
            book_json(pos, t.game.chess960)
        } else {
            Json::Array(Vec::new())
        };
        t.game.state_json(now, t.search.is_some(), book)
    }

    /// A new game from `start` with `moves` played; its state.
    pub fn create_game(&self, start: Position, moves: &[Move], settings: Settings) -> Json {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let now = Instant::now();
        let table = Arc::new(Mutex::new(Table {
            game: Game::new(id, start, moves, settings, now),
            search: None,
        }));
        {
            let mut tables = lock(&self.tables);
            if tables.len() >= MAX_GAMES {
                let oldest = tables
                    .iter()
                    .filter(|(_, t)| !lock(t).game.is_playing())
                    .map(|(&id, _)| id)
                    .min();
                if let Some(oldest) = oldest {
                    tables.remove(&oldest);
                }
            }
            tables.insert(id, Arc::clone(&table));
        }
        let mut t = lock(&table);
        self.drive(&mut t);
        Self::state(&t, now)
    }

    /// A game's state.
    pub fn game_state(&self, id: u64) -> Result<Json, ApiError> {
        let table = self.table_or_404(id)?;
        let t = lock(&table);
        Ok(Self::state(&t, Instant::now()))
    }

    /// The game as PGN, and its id.
    pub fn pgn(&self, id: u64, date: &str) -> Result<String, ApiError> {
        let table = self.table_or_404(id)?;
        let t = lock(&table);
        Ok(super::pgn::write_pgn(&t.game, date))
    }

    /// Starts the engine's search when it is the engine's move and none
    /// runs; with every engine busy, the game waits its turn.
    fn drive(&self, t: &mut Table) {
        if t.search.is_some() || !t.game.engine_to_move() {
            return;
        }
        let game = &t.game;
        let now = Instant::now();
        let settings = game.settings;
        let mut commands = vec![
            format!("setoption name UCI_Chess960 value {}", game.chess960),
            "setoption name UCI_ShowWDL value true".to_string(),
            "setoption name MultiPV value 1".to_string(),
            format!(
                "setoption name UCI_LimitStrength value {}",
                settings.elo.is_some()
            ),
        ];
        if let Some(elo) = settings.elo {
            commands.push(format!("setoption name UCI_Elo value {elo}"));
        }
        commands.push(format!(
            "position fen {}{}",
            game.start().to_fen(),
            uci_moves(game.moves().iter().map(|m| m.uci.clone()))
        ));
        commands.push(match (settings.clock, settings.limit) {
            (Some(tc), _) => format!(
                "go wtime {} btime {} winc {inc} binc {inc}",
                game.clock_ms(Color::White, now),
                game.clock_ms(Color::Black, now),
                inc = tc.increment_ms
            ),
            (None, MoveLimit::Nodes(n)) => format!("go nodes {n}"),
            (None, MoveLimit::MoveTime(ms)) => format!("go movetime {ms}"),
        });
        match lock(&self.pool).start(Seat::Player(game.id), &commands) {
            Ok(ticket) => t.search = Some(ticket),
            Err(PoolFull) => {
                let mut waiting = lock(&self.waiting);
                if !waiting.contains(&game.id) {
                    waiting.push_back(game.id);
                }
            }
        }
    }

    /// Gives the games that waited for an engine another try.
    fn kick_waiting(&self) {
        let ids: Vec<u64> = lock(&self.waiting).drain(..).collect();
        for id in ids {
            if let Some(table) = self.table(id) {
                let mut t = lock(&table);
                self.drive(&mut t);
            }
        }
    }

    /// Stops the engine's search for the game, if one runs.
    fn stop_search(&self, t: &mut Table) {
        if t.search.take().is_some() {
            lock(&self.pool).stop(Seat::Player(t.game.id));
        }
    }

    /// After any change to a game: its analysis stops (and restarts at the
    /// new position if it follows the game), the engine starts if it is
    /// to move, and the listeners get the new state and clocks.
    fn changed(&self, t: &mut Table) {
        let id = t.game.id;
        let follows = {
            let mut analyses = lock(&self.analyses);
            let follows = analyses.get(&id).map(|a| (a.follows, a.multipv));
            if analyses.remove(&id).is_some() {
                lock(&self.pool).stop(Seat::Analyst(id));
            }
            follows
        };
        self.drive(t);
        let now = Instant::now();
        self.hub.publish(id, "state", &Self::state(t, now));
        self.hub.publish(id, "clock", &t.game.clocks_json(now));
        if let Some((true, multipv)) = follows {
            let _ = self.start_analysis(id, Some(&t.game), None, multipv);
        }
    }

    /// Plays a person's move `uci` in game `id`, if `version` (when given)
    /// is the game's; the new state.
    pub fn play(&self, id: u64, uci: &str, version: Option<u64>) -> Result<Json, ApiError> {
        let table = self.table_or_404(id)?;
        let mut t = lock(&table);
        let now = Instant::now();
        if t.game.flag_if_out_of_time(now) {
            self.stop_search(&mut t);
            self.changed(&mut t);
        }
        if let Some(given) = version.filter(|&v| v != t.game.version) {
            return Err(ApiError::stale(given, t.game.version));
        }
        if !t.game.is_playing() {
            return Err(ApiError::unprocessable(format!(
                "the game is over ({})",
                t.game.status().name()
            )));
        }
        let turn = t.game.turn();
        if !t.game.settings.humans.plays(turn) {
            return Err(ApiError::unprocessable(format!(
                "it is the engine's move ({} to move)",
                color_name(turn)
            )));
        }
        let echo = crate::uci::error::echo_up_to(uci, 20);
        let mv = t
            .game
            .position()
            .parse_uci_move(uci, t.game.chess960)
            .ok_or_else(|| {
                ApiError::unprocessable(format!(
                    "'{echo}' is not a legal move for {} here",
                    color_name(turn)
                ))
            })?;
        t.game
            .play(mv, MoveNote::Played, now)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        self.changed(&mut t);
        Ok(Self::state(&t, Instant::now()))
    }

    /// Takes back `plies` moves of game `id` (stopping the engine); the
    /// new state.
    pub fn undo(&self, id: u64, plies: usize, version: Option<u64>) -> Result<Json, ApiError> {
        let table = self.table_or_404(id)?;
        let mut t = lock(&table);
        if let Some(given) = version.filter(|&v| v != t.game.version) {
            return Err(ApiError::stale(given, t.game.version));
        }
        let played = t.game.moves().len();
        if plies > played {
            return Err(ApiError::unprocessable(format!(
                "cannot take back {plies} plies: the game has {played}"
            )));
        }
        self.stop_search(&mut t);
        t.game.undo(plies, Instant::now());
        self.changed(&mut t);
        Ok(Self::state(&t, Instant::now()))
    }

    /// `side` (or, when not given, the one person playing, else the side to
    /// move) resigns game `id`; the new state.
    pub fn resign(&self, id: u64, side: Option<Color>) -> Result<Json, ApiError> {
        let table = self.table_or_404(id)?;
        let mut t = lock(&table);
        let humans = t.game.settings.humans;
        let side = side.unwrap_or_else(|| {
            match (humans.plays(Color::White), humans.plays(Color::Black)) {
                (true, false) => Color::White,
                (false, true) => Color::Black,
                _ => t.game.turn(),
            }
        });
        let now = Instant::now();
        if t.game.flag_if_out_of_time(now) {
            self.stop_search(&mut t);
            self.changed(&mut t);
        }
        if !t.game.resign(side, now) {
            return Err(ApiError::unprocessable(format!(
                "the game is over ({})",
                t.game.status().name()
            )));
        }
        self.stop_search(&mut t);
        self.changed(&mut t);
        Ok(Self::state(&t, Instant::now()))
    }

    /// Starts an analysis on `channel`, replacing any there: of `game`'s
    /// position after `ply` moves (`None`: its current one, followed), or
    /// of `position` when there is no game.
    fn start_analysis(
        &self,
        channel: u64,
        game: Option<&Game>,
        at: Option<(Position, Vec<Move>)>,
        multipv: usize,
    ) -> Result<Json, ApiError> {
        let (start, moves, chess960, follows) = match (game, at) {
            (Some(game), ply) => {
                let ply = ply.map(|(_, moves)| moves.len());
                let all: Vec<Move> = game.moves().iter().map(|m| m.mv).collect();
                let upto = ply.unwrap_or(all.len());
                (
                    *game.start(),
                    all[..upto].to_vec(),
                    game.chess960,
                    ply.is_none(),
                )
            }
            (None, Some((start, moves))) => (start, moves, start.castling_is_chess960(), false),
            (None, None) => return Err(ApiError::bad_request("nothing to analyse")),
        };
        let mut root = start;
        for &mv in &moves {
            root.make_move(mv);
        }
        let commands = vec![
            format!("setoption name UCI_Chess960 value {chess960}"),
            "setoption name UCI_LimitStrength value false".to_string(),
            "setoption name UCI_ShowWDL value true".to_string(),
            format!("setoption name MultiPV value {multipv}"),
            format!(
                "position fen {}{}",
                start.to_fen(),
                uci_moves(moves.iter().map(|m| m.to_uci(chess960)))
            ),
            "go infinite".to_string(),
        ];
        let mut analyses = lock(&self.analyses);
        if analyses.remove(&channel).is_some() {
            lock(&self.pool).stop(Seat::Analyst(channel));
        }
        let ticket = lock(&self.pool)
            .start(Seat::Analyst(channel), &commands)
            .map_err(|PoolFull| {
                ApiError::new(503, "every engine is busy with a game's move; try again")
            })?;
        analyses.insert(
            channel,
            Analysis {
                game: game.map(|g| g.id),
                follows,
                root,
                ply: moves.len(),
                chess960,
                multipv,
                ticket,
                started: Instant::now(),
            },
        );
        Ok(json!({
            "analysis": channel,
            "game": game.map(|g| g.id),
            "fen": root.to_fen(),
            "ply": moves.len(),
            "multipv": multipv,
        }))
    }

    /// Starts an analysis of `target` with `multipv` lines; says which
    /// channel its reports go to.
    pub fn analyse(&self, target: Target, multipv: usize) -> Result<Json, ApiError> {
        match target {
            Target::Game { id, ply } => {
                let table = self.table_or_404(id)?;
                let t = lock(&table);
                let played = t.game.moves().len();
                if ply.is_some_and(|p| p > played) {
                    return Err(ApiError::unprocessable(format!(
                        "ply {} is beyond the game's {played} moves",
                        ply.unwrap_or(0)
                    )));
                }
                // The game's moves up to `ply` stand for the position.
                let at = ply.map(|p| {
                    let moves = t.game.moves()[..p].iter().map(|m| m.mv).collect();
                    (*t.game.start(), moves)
                });
                self.start_analysis(id, Some(&t.game), at, multipv)
            }
            Target::Position { start, moves } => {
                let channel = self.next_id.fetch_add(1, Ordering::SeqCst);
                self.start_analysis(channel, None, Some((*start, moves)), multipv)
            }
        }
    }

    /// Stops the analysis on `channel` (a game's id or an analysis id);
    /// whether one ran.
    pub fn stop_analysis(&self, channel: u64) -> bool {
        let mut analyses = lock(&self.analyses);
        let ran = analyses.remove(&channel).is_some();
        if ran {
            lock(&self.pool).stop(Seat::Analyst(channel));
        }
        ran
    }

    /// A listener of `channel` (a game, whose state comes first, or an
    /// analysis).
    pub fn subscribe(&self, channel: u64) -> Result<Receiver<Arc<str>>, ApiError> {
        if let Some(table) = self.table(channel) {
            let t = lock(&table);
            let first = format_event("state", &Self::state(&t, Instant::now()));
            return Ok(self.hub.subscribe(channel, &[first]));
        }
        if lock(&self.analyses).contains_key(&channel) {
            return Ok(self.hub.subscribe(channel, &[]));
        }
        Err(ApiError::not_found(format!(
            "no game or analysis {channel}"
        )))
    }

    /// The thread that takes the engines' replies.
    fn take_notes(&self, notes: Receiver<Note>) {
        for note in notes {
            if note.ticket == 0 {
                continue;
            }
            match note.seat {
                Seat::Player(id) => {
                    if self.on_player_note(id, note) {
                        self.kick_waiting();
                    }
                }
                Seat::Analyst(channel) => self.on_analyst_note(channel, note),
            }
        }
    }

    /// A reply of game `id`'s engine; whether its search ended.
    fn on_player_note(&self, id: u64, note: Note) -> bool {
        let Some(table) = self.table(id) else {
            return false;
        };
        let mut t = lock(&table);
        if t.search != Some(note.ticket) {
            return false;
        }
        let (mv, made) = match note.reply {
            Reply::Info {
                info,
                wdl,
                chess960,
            } => {
                let source = members(json!({
                    "source": "game",
                    "game": id,
                    "ply": t.game.moves().len(),
                    "fen": t.game.position().to_fen(),
                }));
                let line = InfoLine::from_search(&info, wdl, chess960);
                let event = info_event(source, &line, t.game.position(), t.game.chess960);
                self.hub.publish(id, "info", &event);
                return false;
            }
            Reply::BookMove { mv, .. } => (mv, MoveNote::Book),
            Reply::BestMove { result, .. } => (
                result.best,
                MoveNote::Searched {
                    score: InfoScore::from_search(result.score),
                    depth: result.depth,
                },
            ),
            _ => return false,
        };
        lock(&self.pool).finished(Seat::Player(id), note.ticket);
        t.search = None;
        let san = if mv.is_null() {
            String::new()
        } else {
            t.game.position().to_san(mv)
        };
        let ply = t.game.moves().len();
        let played = t.game.play(mv, made, Instant::now()).is_ok();
        if played {
            let (score, depth) = match made {
                MoveNote::Searched { score, depth } => (score_json(score), json!(depth)),
                _ => (Json::Null, Json::Null),
            };
            let data = json!({
                "game": id,
                "ply": ply,
                "uci": mv.to_uci(t.game.chess960),
                "san": san,
                "score": score,
                "depth": depth,
                "book": made == MoveNote::Book,
            });
            self.hub.publish(id, "bestmove", &data);
        }
        self.changed(&mut t);
        true
    }

    /// A reply of the engine analysing on `channel`.
    fn on_analyst_note(&self, channel: u64, note: Note) {
        let analyses = lock(&self.analyses);
        let Some(a) = analyses.get(&channel).filter(|a| a.ticket == note.ticket) else {
            return;
        };
        let source = members(json!({
            "source": "analysis",
            "analysis": channel,
            "game": a.game,
            "ply": a.ply,
            "fen": a.root.to_fen(),
        }));
        match note.reply {
            Reply::Info {
                info,
                wdl,
                chess960,
            } => {
                let line = InfoLine::from_search(&info, wdl, chess960);
                let event = info_event(source, &line, &a.root, a.chess960);
                self.hub.publish(channel, "info", &event);
            }
            Reply::BestMove { result, .. } => {
                lock(&self.pool).finished(Seat::Analyst(channel), note.ticket);
                let mut data = source;
                data.insert("uci".into(), json!(result.best.to_uci(a.chess960)));
                let score = score_json(InfoScore::from_search(result.score));
                data.insert("score".into(), score);
                self.hub.publish(channel, "bestmove", &Json::Object(data));
            }
            _ => {}
        }
    }

    /// The clock thread: flags, clock events, analyses that ran too long,
    /// and games waiting for an engine.
    fn tick(&self) {
        let mut last_clock = Instant::now();
        loop {
            std::thread::sleep(TICK);
            let now = Instant::now();
            let send_clocks = now.duration_since(last_clock) >= CLOCK_EVERY;
            if send_clocks {
                last_clock = now;
            }
            let tables: Vec<Arc<Mutex<Table>>> = lock(&self.tables).values().cloned().collect();
            for table in tables {
                let mut t = lock(&table);
                if t.game.flag_if_out_of_time(now) {
                    self.stop_search(&mut t);
                    self.changed(&mut t);
                } else if send_clocks
                    && t.game.is_playing()
                    && t.game.settings.clock.is_some()
                    && self.hub.has_listeners(t.game.id)
                {
                    self.hub
                        .publish(t.game.id, "clock", &t.game.clocks_json(now));
                }
            }
            let expired: Vec<u64> = lock(&self.analyses)
                .iter()
                .filter(|(_, a)| now.duration_since(a.started) > MAX_ANALYSIS)
                .map(|(&channel, _)| channel)
                .collect();
            for channel in expired {
                self.stop_analysis(channel);
            }
            self.kick_waiting();
        }
    }
}
