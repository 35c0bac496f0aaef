//! The API's handlers: a request's method, path, query and form body in,
//! an answer out (JSON, PGN text, or an event stream). Fields are read and
//! checked here; the games themselves are the referee's. See docs/serve.md
//! for every route.

use super::error::ApiError;
use super::form::Form;
use super::referee::{book_json, Referee, Target};
use super::settings::{number_field, only_fields, FieldError, Settings};
use crate::chess::{Color, Move, Position};
use crate::data::pgn::{replay, split_games};
use crate::search::skill::{SKILL_MAX_ELO, SKILL_MIN_ELO};
use serde_json::{json, Value as Json};
use std::sync::mpsc::Receiver;
use std::sync::Arc;

/// Most principal variations an analysis shows.
pub const MAX_MULTIPV: i64 = 5;
/// Most plies one undo takes back.
const MAX_UNDO: i64 = 10_000;

/// What a handler answers.
pub enum Answer {
    /// A status and a JSON body.
    Json(u16, Json),
    /// A PGN text.
    Pgn(String),
    /// An event stream.
    Events(Receiver<Arc<str>>),
}

/// The path was found but not with this method: the methods it takes.
pub struct WrongMethod(pub &'static str);

/// A request routed.
pub enum Routed {
    Answer(Result<Answer, ApiError>),
    NotFound,
    WrongMethod(WrongMethod),
}

/// `GET /api/info`.
fn info() -> Json {
    let range = |min: i64, max: i64| json!({ "min": min, "max": max });
    json!({
        "name": "Kiln",
        "version": env!("CARGO_PKG_VERSION"),
        "network": crate::nnue::NETWORK_FILE,
        "options": {
            "elo": range(SKILL_MIN_ELO, SKILL_MAX_ELO),
            "multipv": range(1, MAX_MULTIPV),
            "human": ["white", "black", "both", "none"],
            "tc": "seconds+increment (e.g. 300+3, 0.2+0) or none",
            "movetime_ms": range(1, 600_000),
            "nodes": range(1, 1_000_000_000),
        },
    })
}

/// The start of a new game: `fen`, or `pgn` (its first game's start and
/// moves), or the standard position.
fn game_start(form: &Form) -> Result<(Position, Vec<Move>), ApiError> {
    match (form.get("fen"), form.get("pgn")) {
        (Some(_), Some(_)) => Err(FieldError::new("pgn", "give fen or pgn, not both").into()),
        (Some(fen), None) => Position::from_fen(fen)
            .map(|pos| (pos, Vec::new()))
            .map_err(|e| ApiError::bad_request(e.to_string())),
        (None, Some(pgn)) => {
            let text = pgn.strip_prefix('\u{feff}').unwrap_or(pgn);
            let games = split_games(text);
            let game = games
                .first()
                .ok_or_else(|| ApiError::bad_request("invalid PGN: no game found"))?;
            replay(game).map_err(|e| ApiError::bad_request(format!("invalid PGN: {e}")))
        }
        (None, None) => Ok((Position::startpos(), Vec::new())),
    }
}

/// `POST /api/games`.
fn create_game(referee: &Referee, form: &Form) -> Result<Answer, ApiError> {
    let settings = Settings::from_form(form)?;
    let (start, moves) = game_start(form)?;
    Ok(Answer::Json(
        201,
        referee.create_game(start, &moves, settings),
    ))
}

/// A `version` field, if given.
fn version(form: &Form) -> Result<Option<u64>, ApiError> {
    Ok(number_field(form, "version", 0..=i64::MAX)?.map(|v| v as u64))
}

/// A side: `white` or `black`.
fn side(form: &Form, field: &str) -> Result<Option<Color>, ApiError> {
    match form.get(field) {
        None => Ok(None),
        Some("white") => Ok(Some(Color::White)),
        Some("black") => Ok(Some(Color::Black)),
        Some(_) => Err(FieldError::new(field, "expected white or black").into()),
    }
}

/// `POST /api/analysis`: `game` (and `ply`), or `fen` (and `moves`);
/// `multipv`.
fn analyse(referee: &Referee, form: &Form) -> Result<Answer, ApiError> {
    only_fields(form, &["game", "ply", "fen", "moves", "multipv"])?;
    let multipv = number_field(form, "multipv", 1..=MAX_MULTIPV)?.unwrap_or(1) as usize;
    let game = number_field(form, "game", 0..=i64::MAX)?;
    let target = match (game, form.get("fen")) {
        (Some(_), Some(_)) => {
            return Err(FieldError::new("fen", "give game or fen, not both").into())
        }
        (Some(id), None) => {
            if form.get("moves").is_some() {
                return Err(FieldError::new("moves", "goes with fen, not game").into());
            }
            let ply = number_field(form, "ply", 0..=i64::MAX)?.map(|p| p as usize);
            Target::Game { id: id as u64, ply }
        }
        (None, Some(fen)) => {
            if form.get("ply").is_some() {
                return Err(FieldError::new("ply", "goes with game, not fen").into());
            }
            let start =
                Position::from_fen(fen).map_err(|e| ApiError::bad_request(e.to_string()))?;
            let chess960 = start.castling_is_chess960();
            let mut pos = start;
            let mut moves = Vec::new();
            for text in form.get("moves").unwrap_or("").split_whitespace() {
                let mv = pos.parse_uci_move(text, chess960).ok_or_else(|| {
                    ApiError::unprocessable(format!(
                        "moves: '{}' is not legal after {} moves",
                        crate::uci::error::echo_up_to(text, 20),
                        moves.len()
                    ))
                })?;
                pos.make_move(mv);
                moves.push(mv);
            }
            Target::Position {
                start: Box::new(start),
                moves,
            }
        }
        (None, None) => {
            return Err(ApiError::bad_request(
                "give game (and ply) or fen (and moves)",
            ))
        }
    };
    referee
        .analyse(target, multipv)
        .map(|json| Answer::Json(200, json))
}

/// `POST /api/analysis/stop`: `game` or `analysis`.
fn stop_analysis(referee: &Referee, form: &Form) -> Result<Answer, ApiError> {
    only_fields(form, &["game", "analysis"])?;
    let channel = match (
        number_field(form, "game", 0..=i64::MAX)?,
        number_field(form, "analysis", 0..=i64::MAX)?,
    ) {
        (Some(id), None) | (None, Some(id)) => id as u64,
        _ => return Err(ApiError::bad_request("give game or analysis")),
    };
    let stopped = referee.stop_analysis(channel);
    Ok(Answer::Json(200, json!({ "stopped": stopped })))
}

/// `GET /api/book?fen=FEN`: the embedded book's moves at a position (the
/// page's opening panel, at any position it shows).
fn book(query: &Form) -> Result<Answer, ApiError> {
    only_fields(query, &["fen"])?;
    let fen = query
        .get("fen")
        .ok_or_else(|| FieldError::new("fen", "a position is needed"))?;
    let pos = Position::from_fen(fen).map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(Answer::Json(
        200,
        json!({
            "fen": pos.to_fen(),
            "moves": book_json(&pos, pos.castling_is_chess960()),
        }),
    ))
}

/// `GET /api/events?game=ID` (or `analysis=ID`).
fn events(referee: &Referee, query: &Form) -> Result<Answer, ApiError> {
    only_fields(query, &["game", "analysis", "token"])?;
    let channel = match (
        number_field(query, "game", 0..=i64::MAX)?,
        number_field(query, "analysis", 0..=i64::MAX)?,
    ) {
        (Some(id), None) | (None, Some(id)) => id as u64,
        _ => return Err(ApiError::bad_request("give game or analysis")),
    };
    referee.subscribe(channel).map(Answer::Events)
}

/// The date (UTC) `unix_seconds` after 1970 began, as PGN writes it
/// (`YYYY.MM.DD`).
fn civil_date(unix_seconds: u64) -> String {
    // Days to a civil date in the proleptic Gregorian calendar, counted in
    // 400-year eras from 0000-03-01.
    let days = (unix_seconds / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// Today as PGN writes a date.
fn today() -> String {
    match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        Ok(since) => civil_date(since.as_secs()),
        Err(_) => "????.??.??".to_string(),
    }
}

/// Routes an API request (`path` starts `/api/`).
pub fn route(referee: &Referee, method: &str, path: &str, query: &Form, body: &Form) -> Routed {
    let get = method == "GET" || method == "HEAD";
    let post = method == "POST";
    let segments: Vec<&str> = path.trim_start_matches("/api/").split('/').collect();
    let answer = |allowed: &'static str, ok: bool, run: &dyn Fn() -> Result<Answer, ApiError>| {
        if ok {
            Routed::Answer(run())
        } else {
            Routed::WrongMethod(WrongMethod(allowed))
        }
    };
    let game_id = |text: &str| {
        text.parse::<u64>()
            .ok()
            .filter(|_| text.bytes().all(|b| b.is_ascii_digit()))
    };
    match segments.as_slice() {
        ["info"] => answer("GET, HEAD", get, &|| Ok(Answer::Json(200, info()))),
        ["games"] => answer("POST", post, &|| create_game(referee, body)),
        ["analysis"] => answer("POST", post, &|| analyse(referee, body)),
        ["analysis", "stop"] => answer("POST", post, &|| stop_analysis(referee, body)),
        ["events"] => answer("GET, HEAD", get, &|| events(referee, query)),
        ["book"] => answer("GET, HEAD", get, &|| book(query)),
        ["games", id, rest @ ..] => {
            let Some(id) = game_id(id) else {
                return Routed::NotFound;
            };
            match rest {
                [] => answer("GET, HEAD", get, &|| {
                    referee.game_state(id).map(|s| Answer::Json(200, s))
                }),
                ["pgn"] => answer("GET, HEAD", get, &|| {
                    referee.pgn(id, &today()).map(Answer::Pgn)
                }),
                ["move"] => answer("POST", post, &|| {
                    only_fields(body, &["uci", "version"])?;
                    let uci = body
                        .get("uci")
                        .ok_or_else(|| FieldError::new("uci", "a move is needed (e.g. e2e4)"))?;
                    referee
                        .play(id, uci, version(body)?)
                        .map(|s| Answer::Json(200, s))
                }),
                ["undo"] => answer("POST", post, &|| {
                    only_fields(body, &["plies", "version"])?;
                    let plies = number_field(body, "plies", 1..=MAX_UNDO)?.unwrap_or(1) as usize;
                    referee
                        .undo(id, plies, version(body)?)
                        .map(|s| Answer::Json(200, s))
                }),
                ["resign"] => answer("POST", post, &|| {
                    only_fields(body, &["side"])?;
                    referee
                        .resign(id, side(body, "side")?)
                        .map(|s| Answer::Json(200, s))
                }),
                _ => Routed::NotFound,
            }
        }
        _ => Routed::NotFound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_answers_at_a_position() {
        let form = |text: &str| Form::parse(text.as_bytes()).unwrap();
        let start =
            form("fen=rnbqkbnr%2Fpppppppp%2F8%2F8%2F8%2F8%2FPPPPPPPP%2FRNBQKBNR+w+KQkq+-+0+1");
        let Ok(Answer::Json(200, json)) = book(&start) else {
            panic!("the start position is answered");
        };
        let moves = json.get("moves").and_then(Json::as_array).unwrap();
        assert!(moves
            .iter()
            .any(|m| m.get("san").and_then(Json::as_str) == Some("e4")));
        assert!(moves.iter().all(|m| m
            .get("weight")
            .and_then(Json::as_i64)
            .is_some_and(|w| w > 0)));
        let bare = form("fen=4k3%2F8%2F8%2F8%2F8%2F8%2F8%2F4K3+w+-+-+0+1");
        let Ok(Answer::Json(200, json)) = book(&bare) else {
            panic!("a position out of the book is answered");
        };
        assert_eq!(
            json.get("moves").and_then(Json::as_array),
            Some(&Vec::new())
        );
        assert!(book(&form("fen=nonsense")).is_err());
        assert!(book(&form("")).is_err());
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_date(0), "1970.01.01");
        assert_eq!(civil_date(951_782_400), "2000.02.29");
        assert_eq!(civil_date(951_868_799), "2000.02.29");
        assert_eq!(civil_date(951_868_800), "2000.03.01");
        assert_eq!(civil_date(1_735_689_599), "2024.12.31");
    }
}
