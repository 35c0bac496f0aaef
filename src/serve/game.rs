//! One game as the server keeps it: the start, the moves with what the
//! engine said of each, the clocks, and how it ended. The rules are the
//! crate's (`chess`: legality, SAN, FEN; `chess::game_over`: mate,
//! stalemate, threefold, fifty moves, dead material); this file only
//! applies them to a game in progress. No threads and no engine here: `referee`
//! drives the engine and calls `play`.

use super::settings::{Settings, TimeControl};
use crate::chess::{game_over, insufficient_material, legal_moves, Color, GameOver, Kind};
use crate::chess::{Move, Position};
use crate::data::GameResult;
use crate::uci::info_line::InfoScore;
use serde_json::{json, Value as Json};
use std::fmt;
use std::time::Instant;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Playing,
    Checkmate,
    Stalemate,
    Threefold,
    FiftyMoves,
    InsufficientMaterial,
    Resigned,
    /// A side ran out of time.
    Flag,
}

impl Status {
    /// The name the API uses.
    pub fn name(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Checkmate => "checkmate",
            Status::Stalemate => "stalemate",
            Status::Threefold => "threefold",
            Status::FiftyMoves => "fifty_moves",
            Status::InsufficientMaterial => "insufficient_material",
            Status::Resigned => "resigned",
            Status::Flag => "flag",
        }
    }
}

/// A result in PGN's words: `1-0`, `0-1`, `1/2-1/2`, or `*` while playing.
pub fn result_text(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::WhiteWin) => "1-0",
        Some(GameResult::BlackWin) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// The side's win.
fn win_for(color: Color) -> GameResult {
    match color {
        Color::White => GameResult::WhiteWin,
        Color::Black => GameResult::BlackWin,
    }
}

/// What the engine said of a move it played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveNote {
    /// A move made by hand (or read from an imported game).
    Played,
    /// The engine's book move.
    Book,
    /// The engine's searched move: its score from the mover's view, and
    /// the depth it came from.
    Searched { score: InfoScore, depth: i32 },
}

/// One move of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    pub uci: String,
    pub san: String,
    /// The position after the move.
    pub fen: String,
    pub note: MoveNote,
    /// The mover's time left after the move (with the increment), if the
    /// game has a clock.
    pub clock_ms: Option<u64>,
}

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game is over.
    GameOver(Status),
    /// Not a legal move in the position.
    Illegal,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver(status) => {
                write!(f, "the game is over ({})", status.name())
            }
            MoveError::Illegal => write!(f, "not a legal move in this position"),
        }
    }
}

/// A side that cannot mate whatever the other does: a bare king, or a
/// king and one minor piece against a bare king; or no mate is possible
/// at all (`insufficient_material`). A flag against such a side is a
/// draw.
pub fn cannot_mate(pos: &Position, color: Color) -> bool {
    if insufficient_material(pos) {
        return true;
    }
    let own = pos.colored(color);
    let heavy = pos.pieces(Kind::Pawn) | pos.pieces(Kind::Rook) | pos.pieces(Kind::Queen);
    let minors = (pos.pieces(Kind::Knight) | pos.pieces(Kind::Bishop)) & own;
    let them_bare = pos.colored(!color).count() == 1;
    (heavy & own).count() == 0 && (minors.count() == 0 || (minors.count() == 1 && them_bare))
}

/// How the rules end the game at `pos` (`keys`: every position of the
/// game, `pos` last), if they do.
fn rules_ending(pos: &Position, keys: &[u64]) -> Option<(Status, GameResult)> {
    let over = game_over(pos, keys)?;
    let status = match over {
        GameOver::Checkmate { .. } => Status::Checkmate,
        GameOver::Stalemate => Status::Stalemate,
        GameOver::Threefold => Status::Threefold,
        GameOver::FiftyMoves => Status::FiftyMoves,
        GameOver::InsufficientMaterial => Status::InsufficientMaterial,
    };
    Some((status, GameResult::of(over)))
}

/// A game record with its clocks.
#[derive(Clone, Debug)]
pub struct Game {
    pub id: u64,
    /// Goes up by one at every change; a move or undo that names an older
    /// version is refused.
    pub version: u64,
    pub settings: Settings,
    /// Castling moves are written king-takes-rook (`UCI_Chess960`).
    pub chess960: bool,
    start: Position,
    position: Position,
    /// Every position's key, the start's first, the current one's last.
    keys: Vec<u64>,
    moves: Vec<PlayedMove>,
    status: Status,
    result: Option<GameResult>,
    /// Each side's time left (ms) when its clock last stopped.
    clocks: [u64; 2],
    /// When the side to move's clock started; `None` when no clock runs.
    running_since: Option<Instant>,
}

impl Game {
    /// A game from `start` with `moves` already played (an imported game;
    /// each must be legal), its clocks starting at `now`.
    pub fn new(id: u64, start: Position, moves: &[Move], settings: Settings, now: Instant) -> Game {
        let base = settings.clock.map_or(0, |c| c.base_ms);
        let mut game = Game {
            id,
            version: 1,
            settings,
            chess960: start.castling_is_chess960(),
            start,
            position: start,
            keys: vec![start.key()],
            moves: Vec::new(),
            status: Status::Playing,
            result: None,
            clocks: [base; 2],
            running_since: None,
        };
        for &mv in moves {
            if game.status == Status::Playing && game.position.is_legal(mv) {
                game.push(mv, MoveNote::Played, None);
            }
        }
        game.start_clock(now);
        game
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    pub fn status(&self) -> Status {
        self.status
    }

    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    pub fn is_playing(&self) -> bool {
        self.status == Status::Playing
    }

    /// Whose turn it is.
    pub fn turn(&self) -> Color {
        self.position.side_to_move()
    }

    /// The engine is to move: the game goes on and nobody plays this side
    /// by hand.
    pub fn engine_to_move(&self) -> bool {
        self.is_playing() && !self.settings.humans.plays(self.turn())
    }

    /// The keys of every position so far (for the engine's `position`
    /// command the moves carry them; this is for the rules).
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// `color`'s time left at `now` (0 without a clock).
    pub fn clock_ms(&self, color: Color, now: Instant) -> u64 {
        let stored = self.clocks[color.index()];
        match self.running_since {
            Some(since) if color == self.turn() => {
                stored.saturating_sub(now.saturating_duration_since(since).as_millis() as u64)
            }
            _ => stored,
        }
    }

    /// Starts the side to move's clock, if the game has one and goes on.
    fn start_clock(&mut self, now: Instant) {
        self.running_since = (self.settings.clock.is_some() && self.is_playing()).then_some(now);
    }

    /// Stops the running clock, keeping the time it shows.
    fn stop_clock(&mut self, now: Instant) {
        let turn = self.turn();
        self.clocks[turn.index()] = self.clock_ms(turn, now);
        self.running_since = None;
    }

    fn finish(&mut self, status: Status, result: GameResult, now: Instant) {
        self.stop_clock(now);
        self.status = status;
        self.result = Some(result);
        self.version += 1;
    }

    /// Ends the game when the side to move's time has run out at `now`;
    /// whether it did. The other side wins, unless it cannot mate.
    pub fn flag_if_out_of_time(&mut self, now: Instant) -> bool {
        if !self.is_playing() || self.running_since.is_none() {
            return false;
        }
        let loser = self.turn();
        if self.clock_ms(loser, now) > 0 {
            return false;
        }
        let result = if cannot_mate(&self.position, !loser) {
            GameResult::Draw
        } else {
            win_for(!loser)
        };
        self.finish(Status::Flag, result, now);
        true
    }

    /// Plays `mv` for the side to move at `now`, with what the engine said
    /// of it. The clock is checked first: a side whose time has run out has
    /// lost on time (`flag_if_out_of_time`) and its move is refused.
    pub fn play(&mut self, mv: Move, note: MoveNote, now: Instant) -> Result<(), MoveError> {
        self.flag_if_out_of_time(now);
        if !self.is_playing() {
            return Err(MoveError::GameOver(self.status));
        }
        if mv.is_null() || !self.position.is_legal(mv) {
            return Err(MoveError::Illegal);
        }
        let turn = self.turn();
        let clock_ms = self.settings.clock.map(|TimeControl { increment_ms, .. }| {
            self.clock_ms(turn, now).saturating_add(increment_ms)
        });
        if let Some(left) = clock_ms {
            self.clocks[turn.index()] = left;
        }
        self.push(mv, note, clock_ms);
        self.version += 1;
        self.start_clock(now);
        Ok(())
    }

    /// Makes a legal move and applies the rules' verdict.
    fn push(&mut self, mv: Move, note: MoveNote, clock_ms: Option<u64>) {
        let san = self.position.to_san(mv);
        let uci = mv.to_uci(self.chess960);
        self.position.make_move(mv);
        self.keys.push(self.position.key());
        self.moves.push(PlayedMove {
            mv,
            uci,
            san,
            fen: self.position.to_fen(),
            note,
            clock_ms,
        });
        if let Some((status, result)) = rules_ending(&self.position, &self.keys) {
            self.status = status;
            self.result = Some(result);
            self.running_since = None;
        }
    }

    /// Takes back the last `plies` moves (the game goes on from there,
    /// whatever had ended it); each side's clock shows what it showed
    /// after its last move kept. `false` (and nothing changed) when there
    /// are fewer moves, or `plies` is 0.
    pub fn undo(&mut self, plies: usize, now: Instant) -> bool {
        if plies == 0 || plies > self.moves.len() {
            return false;
        }
        let kept: Vec<PlayedMove> = self.moves[..self.moves.len() - plies].to_vec();
        let base = self.settings.clock.map_or(0, |c| c.base_ms);
        self.position = self.start;
        self.keys = vec![self.start.key()];
        self.moves.clear();
        self.status = Status::Playing;
        self.result = None;
        self.clocks = [base; 2];
        for played in kept {
            let mover = self.turn();
            if let Some(ms) = played.clock_ms {
                self.clocks[mover.index()] = ms;
            }
            self.push(played.mv, played.note, played.clock_ms);
        }
        self.version += 1;
        self.start_clock(now);
        true
    }

    /// `color` resigns; `false` when the game was already over.
    pub fn resign(&mut self, color: Color, now: Instant) -> bool {
        if !self.is_playing() {
            return false;
        }
        self.finish(Status::Resigned, win_for(!color), now);
        true
    }

    /// The clocks as the API shows them.
    pub fn clocks_json(&self, now: Instant) -> Json {
        json!({
            "white_ms": self.clock_ms(Color::White, now),
            "black_ms": self.clock_ms(Color::Black, now),
            "running": self.running_since.map(|_| color_name(self.turn())),
        })
    }

    /// The game's state as the API answers it (`GET /api/games/{id}` and
    /// the `state` event): see docs/serve.md.
    pub fn state_json(&self, now: Instant, thinking: bool, book: Json) -> Json {
        let moves = self.moves.iter().enumerate().map(|(ply, m)| {
            let mover = if ply % 2 == 0 {
                self.start.side_to_move()
            } else {
                !self.start.side_to_move()
            };
            let (score, depth) = match m.note {
                MoveNote::Searched { score, depth } => {
                    (score_json(white_view(score, mover)), json!(depth))
                }
                _ => (Json::Null, Json::Null),
            };
            json!({
                "uci": m.uci,
                "san": m.san,
                "fen": m.fen,
                "score": score,
                "depth": depth,
                "book": m.note == MoveNote::Book,
                "clock_ms": m.clock_ms,
            })
        });
        let legal: Vec<Json> = if self.is_playing() {
            legal_moves(&self.position)
                .iter()
                .map(|m| json!(m.to_uci(self.chess960)))
                .collect()
        } else {
            Vec::new()
        };
        let settings = self.settings;
        json!({
            "id": self.id,
            "version": self.version,
            "start_fen": self.start.to_fen(),
            "fen": self.position.to_fen(),
            "moves": moves.collect::<Vec<Json>>(),
            "turn": color_name(self.turn()),
            "legal": legal,
            "status": self.status.name(),
            "result": result_text(self.result),
            "clocks": self.clocks_json(now),
            "human": settings.humans.name(),
            "tc": settings.clock.map_or("none".to_string(), |c| c.text()),
            "elo": settings.elo,
            "chess960": self.chess960,
            "thinking": thinking,
            "book": book,
        })
    }
}

/// `white` or `black`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A score from `mover`'s view turned to White's.
pub fn white_view(score: InfoScore, mover: Color) -> InfoScore {
    match (score, mover) {
        (s, Color::White) => s,
        (InfoScore::Cp(cp), Color::Black) => InfoScore::Cp(-cp),
        (InfoScore::Mate(n), Color::Black) => InfoScore::Mate(-n),
    }
}

/// `{"cp": N}` or `{"mate": N}`.
pub fn score_json(score: InfoScore) -> Json {
    match score {
        InfoScore::Cp(cp) => json!({ "cp": cp }),
        InfoScore::Mate(n) => json!({ "mate": n }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::serve::settings::{Humans, MoveLimit};
    use std::time::Duration;

    fn settings(clock: Option<TimeControl>) -> Settings {
        Settings {
            humans: Humans::Both,
            clock,
            limit: MoveLimit::Nodes(1000),
            elo: None,
        }
    }

    fn game_from(fen: &str, clock: Option<TimeControl>) -> (Game, Instant) {
        let now = Instant::now();
        let start = Position::from_fen(fen).unwrap();
        (Game::new(1, start, &[], settings(clock), now), now)
    }

    fn play(game: &mut Game, uci: &str, now: Instant) -> Result<(), MoveError> {
        let mv = game
            .position()
            .parse_uci_move(uci, false)
            .unwrap_or(Move::NULL);
        game.play(mv, MoveNote::Played, now)
    }

    #[test]
    fn moves_are_recorded_and_mate_ends_the_game() {
        let (mut game, now) = game_from(Position::STARTPOS_FEN, None);
        for uci in ["f2f3", "e7e5", "g2g4"] {
            play(&mut game, uci, now).unwrap();
        }
        assert_eq!(play(&mut game, "e2e5", now), Err(MoveError::Illegal));
        assert_eq!(game.version, 4);
        play(&mut game, "d8h4", now).unwrap();
        assert_eq!(game.status(), Status::Checkmate);
        assert_eq!(result_text(game.result()), "0-1");
        assert_eq!(game.moves()[3].san, "Qh4#");
        assert_eq!(
            play(&mut game, "a2a3", now),
            Err(MoveError::GameOver(Status::Checkmate))
        );
        assert!(game.undo(2, now));
        assert!(game.is_playing());
        assert_eq!(game.moves().len(), 2);
        assert!(!game.undo(3, now));
    }

    #[test]
    fn repetition_and_dead_material_end_the_game() {
        let (mut game, now) = game_from("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", None);
        for uci in ["a1a2", "e8d8", "a2a1", "d8e8", "a1a2", "e8d8", "a2a1"] {
            play(&mut game, uci, now).unwrap();
        }
        assert!(game.is_playing());
        play(&mut game, "d8e8", now).unwrap();
        assert_eq!(game.status(), Status::Threefold);
        let (mut game, now) = game_from("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", None);
        play(&mut game, "e1d2", now).unwrap();
        assert_eq!(game.status(), Status::InsufficientMaterial);
        assert_eq!(result_text(game.result()), "1/2-1/2");
    }

    #[test]
    fn clocks_run_flag_and_a_flag_against_a_bare_king_is_a_draw() {
        let tc = Some(TimeControl {
            base_ms: 1_000,
            increment_ms: 500,
        });
        let (mut game, now) = game_from(Position::STARTPOS_FEN, tc);
        let later = now + Duration::from_millis(300);
        play(&mut game, "e2e4", later).unwrap();
        assert_eq!(game.moves()[0].clock_ms, Some(1_200));
        assert_eq!(game.clock_ms(Color::Black, later), 1_000);
        let late = later + Duration::from_millis(1_001);
        assert_eq!(game.clock_ms(Color::Black, late), 0);
        assert_eq!(
            play(&mut game, "e7e5", late),
            Err(MoveError::GameOver(Status::Flag))
        );
        assert_eq!(result_text(game.result()), "1-0");

        // White has only a king left: Black's flag is a draw.
        let (mut game, now) = game_from("4k3/8/8/8/8/8/1q6/7K b - - 0 1", tc);
        assert!(game.flag_if_out_of_time(now + Duration::from_secs(2)));
        assert_eq!(game.status(), Status::Flag);
        assert_eq!(result_text(game.result()), "1/2-1/2");
        assert!(cannot_mate(game.position(), Color::White));
        assert!(!cannot_mate(game.position(), Color::Black));
    }

    #[test]
    fn resigning_ends_the_game_once() {
        let (mut game, now) = game_from(Position::STARTPOS_FEN, None);
        assert!(game.resign(Color::White, now));
        assert_eq!(
            (game.status(), result_text(game.result())),
            (Status::Resigned, "0-1")
        );
        assert!(!game.resign(Color::Black, now));
    }
}
