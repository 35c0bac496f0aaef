//! `kiln serve` from outside: the binary prints its URL and serves the
//! page; then servers started in this process on port 0 are spoken to in
//! raw HTTP over `TcpStream` (the security checks, every status code the
//! API gives, games played by the engines, event streams, analysis, clocks,
//! PGN that `kiln convert` reads back), and every parser is fed random
//! bytes. No assertion is about timing: waits only bound how long a test
//! may hang.

use kiln::chess::Position;
use kiln::data::convert::convert_pgn;
use kiln::rng::Rng;
use kiln::search::score::MATE;
use kiln::serve::args::ServeArgs;
use kiln::serve::http::{start, Running, MAX_ACTIVE_REQUESTS};
use kiln::serve::referee::info_json;
use kiln::uci::info_line::InfoLine;
use kiln::uci::{Engine, Reply};
use serde_json::Value as Json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `value` encoded for a form field.
fn encode(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// A server of this process on a free port.
fn server() -> Running {
    start(&ServeArgs {
        port: 0,
        host: "127.0.0.1".to_string(),
        open: false,
        syzygy: None,
    })
    .expect("the server starts")
}

/// An answer: status, head (lower-cased header lines), body.
struct Answer {
    status: u16,
    head: String,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Json {
        let text = String::from_utf8_lossy(&self.body);
        serde_json::from_str::<Json>(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
    }

    fn error(&self) -> String {
        self.json()
            .get("error")
            .and_then(Json::as_str)
            .unwrap_or_else(|| panic!("no error in {}", String::from_utf8_lossy(&self.body)))
            .to_string()
    }
}

/// Reads a chunked body (after the head) to its end.
fn read_chunked(reader: &mut impl BufRead) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        if reader.read_line(&mut size).unwrap_or(0) == 0 {
            return body;
        }
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            return body;
        };
        let mut chunk = vec![0; size + 2];
        if reader.read_exact(&mut chunk).is_err() {
            return body;
        }
        body.extend_from_slice(&chunk[..size]);
        if size == 0 {
            return body;
        }
    }
}

/// Reads the status line and headers.
fn read_head(reader: &mut impl BufRead) -> (u16, String) {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        let read = reader.read_line(&mut line).expect("an answer");
        if read == 0 || line == "\r\n" {
            break;
        }
        head += &line.to_ascii_lowercase();
    }
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {head:?}"));
    (status, head)
}

/// Sends `raw` (a whole request) and reads the answer.
fn raw_request(port: u16, raw: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(raw).expect("sends");
    let mut reader = BufReader::new(stream);
    let (status, head) = read_head(&mut reader);
    let body = if head.contains("transfer-encoding: chunked") {
        read_chunked(&mut reader)
    } else {
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .and_then(|n| n.trim().parse().ok());
        let mut body = Vec::new();
        match length {
            Some(n) => {
                body.resize(n, 0);
                reader.read_exact(&mut body).expect("the body");
            }
            None => {
                let _ = reader.read_to_end(&mut body);
            }
        }
        body
    };
    Answer { status, head, body }
}

/// A request with the right Host and token, and `extra` header lines.
fn request(srv: &Running, method: &str, path: &str, body: &[u8], extra: &str) -> Answer {
    let mut raw = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Kiln-Token: {}\r\n{extra}\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        srv.port,
        srv.token,
        body.len()
    )
    .into_bytes();
    raw.extend_from_slice(body);
    raw_request(srv.port, &raw)
}

fn get(srv: &Running, path: &str) -> Answer {
    request(srv, "GET", path, b"", "")
}

fn post(srv: &Running, path: &str, body: &str) -> Answer {
    request(srv, "POST", path, body.as_bytes(), "")
}

/// Creates a game; its state.
fn new_game(srv: &Running, body: &str) -> Json {
    let answer = post(srv, "/api/games", body);
    assert_eq!(
        answer.status,
        201,
        "{}",
        String::from_utf8_lossy(&answer.body)
    );
    answer.json()
}

fn field_i64(json: &Json, key: &str) -> i64 {
    json.get(key)
        .and_then(Json::as_i64)
        .unwrap_or_else(|| panic!("no {key} in {json}"))
}

fn field_str<'a>(json: &'a Json, key: &str) -> &'a str {
    json.get(key)
        .and_then(Json::as_str)
        .unwrap_or_else(|| panic!("no {key} in {json}"))
}

fn moves_of(state: &Json) -> Vec<Json> {
    state
        .get("moves")
        .and_then(Json::as_array)
        .unwrap()
        .to_vec()
}

/// Polls game `id` until `done` holds (a minute at most).
fn wait_for(srv: &Running, id: i64, done: impl Fn(&Json) -> bool) -> Json {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let state = get(srv, &format!("/api/games/{id}")).json();
        if done(&state) {
            return state;
        }
        assert!(Instant::now() < deadline, "waited too long: {state}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// An event stream's events as (name, data), read on a thread of its own.
fn listen(srv: &Running, query: &str) -> Receiver<(String, Json)> {
    let mut stream = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
    write!(
        stream,
        "GET /api/events?{query} HTTP/1.1\r\nHost: localhost:{}\r\nX-Kiln-Token: {}\r\n\r\n",
        srv.port, srv.token
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let (status, head) = read_head(&mut reader);
    assert_eq!(status, 200, "{head}");
    assert!(head.contains("content-type: text/event-stream"), "{head}");
    assert!(head.contains("transfer-encoding: chunked"), "{head}");
    let (sender, events) = channel();
    std::thread::spawn(move || {
        let mut text = String::new();
        loop {
            let mut size = String::new();
            if reader.read_line(&mut size).unwrap_or(0) == 0 {
                return;
            }
            let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
                return;
            };
            let mut chunk = vec![0; size + 2];
            if size == 0 || reader.read_exact(&mut chunk).is_err() {
                return;
            }
            text += &String::from_utf8_lossy(&chunk[..size]);
            while let Some(end) = text.find("\n\n") {
                let block: String = text.drain(..end + 2).collect();
                let mut name = None;
                let mut data = None;
                for line in block.lines() {
                    if let Some(n) = line.strip_prefix("event: ") {
                        name = Some(n.to_string());
                    } else if let Some(d) = line.strip_prefix("data: ") {
                        data = serde_json::from_str(d).ok();
                    }
                }
                if let (Some(name), Some(data)) = (name, data) {
                    if sender.send((name, data)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    events
}

/// The next event called `name` (others are skipped), within a minute.
fn next_event(events: &Receiver<(String, Json)>, name: &str) -> Json {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let (got, data) = events
            .recv_timeout(left)
            .unwrap_or_else(|e| panic!("no {name} event: {e}"));
        if got == name {
            return data;
        }
    }
}

#[test]
fn the_binary_prints_its_url_and_serves_the_page() {
    let help = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).starts_with("usage: kiln serve "));
    let listed = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&listed.stdout).contains("\n  kiln serve [--port N]"));

    let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("kiln serve: ")
        .unwrap_or_else(|| panic!("{line}"))
        .to_string();
    let port: u16 = url
        .strip_prefix("http://127.0.0.1:")
        .and_then(|rest| rest.strip_suffix('/'))
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("{url}"));
    let raw = |path: &str| {
        raw_request(
            port,
            format!("GET {path} HTTP/1.1\r\nHost: localhost:{port}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
    };
    let page = raw("/");
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(page.status, 200);
    assert!(page
        .head
        .contains("content-security-policy: default-src 'self'"));
    assert!(page.head.contains("x-content-type-options: nosniff"));
    let html = String::from_utf8(page.body).unwrap();
    let token = html
        .split("<meta name=\"kiln-token\" content=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap();
    assert_eq!(token.len(), 32, "{html}");
    assert!(html.contains("<script type=\"module\" src=\"/app.js\"></script>"));
}

#[test]
fn pages_assets_and_the_checks_against_other_sites() {
    let srv = server();
    let port = srv.port;
    let page = get(&srv, "/");
    assert_eq!(page.status, 200);
    assert!(String::from_utf8_lossy(&page.body).contains(&srv.token));
    let script = get(&srv, "/app.js");
    assert_eq!(script.status, 200);
    assert!(script.head.contains("content-type: text/javascript"));
    assert!(script
        .head
        .contains("content-security-policy: default-src 'self'"));
    let info = get(&srv, "/api/info");
    assert_eq!(info.status, 200);
    let info = info.json();
    assert_eq!(field_str(&info, "name"), "Kiln");
    let elo = info.get("options").and_then(|o| o.get("elo")).unwrap();
    assert_eq!((field_i64(elo, "min"), field_i64(elo, "max")), (1000, 2800));

    for path in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/..%2fCargo.toml",
        "/web/app.js",
        "/nothing",
    ] {
        assert_eq!(get(&srv, path).status, 404, "{path}");
    }
    let plain = |host: &str, extra: &str, path: &str| {
        raw_request(
            port,
            format!("GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n")
                .as_bytes(),
        )
    };
    let ours = format!("127.0.0.1:{port}");
    let token = format!("X-Kiln-Token: {}\r\n", srv.token);
    // DNS rebinding: a foreign name, or our name on another port.
    for host in [
        "evil.example:80",
        &format!("evil.example:{port}"),
        "127.0.0.1:1",
    ] {
        let answer = plain(host, &token, "/api/info");
        assert_eq!(answer.status, 403, "{host}");
        assert!(answer.error().contains("Host"), "{}", answer.error());
        assert_eq!(plain(host, "", "/").status, 403, "{host}");
    }
    let no_host = raw_request(
        port,
        format!("GET /api/info HTTP/1.0\r\n{token}\r\n").as_bytes(),
    );
    assert_eq!(no_host.status, 403);
    let foreign = format!("{token}Origin: http://evil.example\r\n");
    assert_eq!(plain(&ours, &foreign, "/api/info").status, 403);
    let own_origin = format!("{token}Origin: http://localhost:{port}\r\n");
    assert_eq!(plain(&ours, &own_origin, "/api/info").status, 200);
    assert_eq!(plain(&ours, "", "/api/info").status, 403);
    let wrong = plain(&ours, "X-Kiln-Token: 0123\r\n", "/api/info");
    assert_eq!(wrong.status, 403);
    assert!(wrong.error().contains("token"));
    assert_eq!(plain(&ours, "", "/api/games/1").status, 403);

    assert_eq!(get(&srv, "/api/nothing").status, 404);
    assert_eq!(get(&srv, "/api/games/1").status, 404);
    assert_eq!(get(&srv, "/api/games/x/pgn").status, 404);
    for (method, path) in [
        ("DELETE", "/api/info"),
        ("GET", "/api/games"),
        ("POST", "/api/info"),
        ("GET", "/api/analysis"),
        ("PUT", "/"),
    ] {
        let answer = request(&srv, method, path, b"", "");
        assert_eq!(answer.status, 405, "{method} {path}");
        assert!(answer.head.contains("allow: "), "{}", answer.head);
    }
    let big = vec![b'a'; 64 * 1024 + 1];
    let answer = request(&srv, "POST", "/api/games", &big, "");
    assert_eq!(answer.status, 413);
    assert!(answer.error().contains("64 KB"));
    // Nothing was made by any of these.
    assert_eq!(get(&srv, "/api/games/1").status, 404);
}

#[test]
fn bad_fens_and_pgns_are_400_and_create_nothing() {
    let srv = server();
    let garbage: String = (0..10_240)
        .map(|i| (b'!' + (i % 90) as u8) as char)
        .collect();
    let cases: Vec<(String, &str)> = vec![
        (
            format!(
                "fen={}",
                encode("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1")
            ),
            "8 ranks",
        ),
        (
            format!("fen={}", encode("4k3/8/8/8/8/8/8/K3K3 w - - 0 1")),
            "one king",
        ),
        (
            format!("fen={}", encode("4k3/8/8/8/8/8/4r3/4K3 b - - 0 1")),
            "check",
        ),
        (
            format!("fen={}", encode("4k3/8/8/8/8/8/8/4K3 w K - 0 1")),
            "rook",
        ),
        (
            format!("fen={}", encode("4k3/8/8/8/8/8/8/4K3 w - e6 0 1")),
            "en-passant",
        ),
        (format!("fen={}", encode(&garbage)), "invalid FEN"),
        // Bytes that are not UTF-8 decode to U+FFFD: no FEN.
        ("fen=%ff%fe".to_string(), "invalid FEN"),
        (
            format!("pgn={}", encode("[Event \"x\"]\n\n1. e4 e5\n2. Ke3 Nc6 *")),
            "line 4, column 4",
        ),
        (
            format!("pgn={}", encode("1. e4 {open comment")),
            "not closed",
        ),
        (
            format!("pgn={}", encode("[FEN \"8/8 w - - 0 1\"]\n1. e4 *")),
            "FEN",
        ),
        ("fen=x&pgn=y".to_string(), "not both"),
        ("human=nobody".to_string(), "human"),
        ("tc=300".to_string(), "tc"),
        ("elo=5000".to_string(), "elo"),
        ("color=white".to_string(), "unknown field"),
        // A bad escape stays as it is: the field is still unknown.
        ("a=%zz".to_string(), "unknown field"),
    ];
    for (body, says) in &cases {
        let answer = post(&srv, "/api/games", body);
        assert_eq!(answer.status, 400, "{body:.60}");
        let error = answer.error();
        assert!(error.contains(says), "{body:.60}: {error}");
        assert!(error.len() < 300, "{error}");
    }
    assert_eq!(get(&srv, "/api/games/1").status, 404);
    // The first game made is game 1: none was made before.
    let state = new_game(&srv, &format!("pgn={}", encode("1. e4 e5 2. Nf3 *")));
    assert_eq!(field_i64(&state, "id"), 1);
    assert_eq!(moves_of(&state).len(), 3);
    assert_eq!(field_str(&state, "turn"), "black");
}

#[test]
fn illegal_moves_are_422_stale_versions_409_and_nothing_changes() {
    let srv = server();
    let state = new_game(&srv, "human=both");
    let id = field_i64(&state, "id");
    let path = format!("/api/games/{id}/move");
    for uci in ["e2e5", "e7e5", "a1a1", "e1g1", "zz", "e2e4e5"] {
        let answer = post(&srv, &path, &format!("uci={uci}&version=1"));
        assert_eq!(answer.status, 422, "{uci}");
        assert!(
            answer.error().contains("not a legal move"),
            "{}",
            answer.error()
        );
    }
    let same = get(&srv, &format!("/api/games/{id}")).json();
    assert_eq!(field_i64(&same, "version"), 1);
    assert!(moves_of(&same).is_empty());
    assert_eq!(post(&srv, &path, "").status, 400);

    let played = post(&srv, &path, "uci=e2e4&version=1");
    assert_eq!(played.status, 200);
    let played = played.json();
    assert_eq!(field_i64(&played, "version"), 2);
    assert_eq!(field_str(&moves_of(&played)[0], "san"), "e4");
    let stale = post(&srv, &path, "uci=e7e5&version=1");
    assert_eq!(stale.status, 409);
    assert!(stale.error().contains("version 2"));
    assert_eq!(post(&srv, "/api/games/999/move", "uci=e2e4").status, 404);

    // Castling through check.
    let fen = encode("4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    let castle = new_game(&srv, &format!("human=both&fen={fen}"));
    let castle_id = field_i64(&castle, "id");
    let answer = post(&srv, &format!("/api/games/{castle_id}/move"), "uci=e1g1");
    assert_eq!(answer.status, 422);
    let legal = castle.get("legal").and_then(Json::as_array).unwrap();
    assert!(!legal.iter().any(|m| m.as_str() == Some("e1g1")));

    // A move after mate.
    let fool = new_game(&srv, "human=both");
    let fool_id = field_i64(&fool, "id");
    let fool_path = format!("/api/games/{fool_id}/move");
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        assert_eq!(
            post(&srv, &fool_path, &format!("uci={uci}")).status,
            200,
            "{uci}"
        );
    }
    let over = get(&srv, &format!("/api/games/{fool_id}")).json();
    assert_eq!(field_str(&over, "status"), "checkmate");
    assert_eq!(field_str(&over, "result"), "0-1");
    let after = post(&srv, &fool_path, "uci=a2a3");
    assert_eq!(after.status, 422);
    assert!(after.error().contains("over"));
    assert_eq!(
        field_i64(
            &get(&srv, &format!("/api/games/{fool_id}")).json(),
            "version"
        ),
        field_i64(&over, "version")
    );

    // Undo reopens the game; resigning ends it once.
    let undone = post(&srv, &format!("/api/games/{fool_id}/undo"), "plies=2");
    assert_eq!(undone.status, 200);
    let undone = undone.json();
    assert_eq!(field_str(&undone, "status"), "playing");
    assert_eq!(moves_of(&undone).len(), 2);
    assert_eq!(
        post(&srv, &format!("/api/games/{fool_id}/undo"), "plies=3").status,
        422
    );
    assert_eq!(
        post(&srv, &format!("/api/games/{fool_id}/undo"), "plies=0").status,
        400
    );
    let resigned = post(&srv, &format!("/api/games/{fool_id}/resign"), "side=black").json();
    assert_eq!(
        (
            field_str(&resigned, "status"),
            field_str(&resigned, "result")
        ),
        ("resigned", "1-0")
    );
    assert_eq!(
        post(&srv, &format!("/api/games/{fool_id}/resign"), "").status,
        422
    );
}

/// The positions the eight games start from: each a different opening.
const OPENINGS: [&str; 8] = [
    "1. e4", "1. d4", "1. c4", "1. Nf3", "1. g3", "1. b3", "1. f4", "1. e3",
];

#[test]
fn eight_engine_games_at_once_without_cross_talk() {
    let srv = server();
    let ids: Vec<i64> = OPENINGS
        .iter()
        .map(|pgn| {
            let state = new_game(&srv, &format!("human=none&nodes=1000&pgn={}", encode(pgn)));
            field_i64(&state, "id")
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut finished = vec![None; ids.len()];
    while finished.iter().any(Option::is_none) {
        assert!(Instant::now() < deadline, "games did not finish");
        // The page answers while the engines play.
        assert_eq!(get(&srv, "/").status, 200);
        for (i, &id) in ids.iter().enumerate() {
            if finished[i].is_some() {
                continue;
            }
            let state = get(&srv, &format!("/api/games/{id}")).json();
            if field_str(&state, "status") != "playing" || moves_of(&state).len() >= 40 {
                let _ = post(&srv, &format!("/api/games/{id}/resign"), "");
                finished[i] = Some(get(&srv, &format!("/api/games/{id}")).json());
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    for (state, opening) in finished.iter().flatten().zip(OPENINGS) {
        // Each game's moves replay legally from its own start, and every
        // position recorded is the one its moves lead to.
        let moves = moves_of(state);
        assert!(moves.len() >= 10, "{state}");
        let mut pos = Position::startpos();
        let first = pos.parse_san(opening.trim_start_matches("1. ")).unwrap();
        assert_eq!(field_str(&moves[0], "uci"), first.to_uci(false));
        for m in &moves {
            let mv = pos
                .parse_uci_move(field_str(m, "uci"), false)
                .unwrap_or_else(|| panic!("{m} is not legal in {}", pos.to_fen()));
            assert_eq!(field_str(m, "san"), pos.to_san(mv));
            pos.make_move(mv);
            assert_eq!(field_str(m, "fen"), pos.to_fen());
        }
        assert_eq!(field_str(state, "fen"), pos.to_fen());
        assert_ne!(field_str(state, "result"), "*");
    }
}

#[test]
fn two_listeners_see_every_move_as_it_is_made() {
    let srv = server();
    let state = new_game(&srv, "human=both");
    let id = field_i64(&state, "id");
    let listeners = [
        listen(&srv, &format!("game={id}")),
        listen(&srv, &format!("game={id}")),
    ];
    for events in &listeners {
        // The stream is open and has not ended: this came as it was sent.
        assert_eq!(field_i64(&next_event(events, "state"), "version"), 1);
    }
    for (version, uci) in [(2, "e2e4"), (3, "c7c5"), (4, "g1f3")] {
        let path = format!("/api/games/{id}/move");
        assert_eq!(post(&srv, &path, &format!("uci={uci}")).status, 200);
        for events in &listeners {
            let seen = next_event(events, "state");
            assert_eq!(field_i64(&seen, "version"), version);
            let last = moves_of(&seen).pop().unwrap();
            assert_eq!(field_str(&last, "uci"), uci);
        }
    }
    assert_eq!(get(&srv, "/api/events?game=999").status, 404);
    assert_eq!(get(&srv, "/api/events").status, 400);
    // A browser's EventSource gives the token in the query.
    let raw = format!(
        "GET /api/events?game=999&token={} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        srv.token, srv.port
    );
    assert_eq!(raw_request(srv.port, raw.as_bytes()).status, 404);
}

#[test]
fn the_engine_answers_a_move_and_analysis_follows_only_the_current_position() {
    let srv = server();
    let state = new_game(&srv, "human=white&nodes=2000");
    let id = field_i64(&state, "id");
    let events = listen(&srv, &format!("game={id}"));
    next_event(&events, "state");
    let analysis = post(&srv, "/api/analysis", &format!("game={id}&multipv=2"));
    assert_eq!(analysis.status, 200);
    let start_fen = field_str(&state, "fen").to_string();
    let info = next_event(&events, "info");
    assert_eq!(field_str(&info, "source"), "analysis");
    assert_eq!(field_str(&info, "fen"), start_fen);
    assert!(
        info.get("wdl").and_then(|w| w.get("win")).is_some(),
        "{info}"
    );
    assert!(!info
        .get("pv_san")
        .and_then(Json::as_array)
        .unwrap()
        .is_empty());
    assert!((1..=2).contains(&field_i64(&info, "multipv")));

    assert_eq!(
        post(&srv, &format!("/api/games/{id}/move"), "uci=d2d4").status,
        200
    );
    // From the state after the move on, reports are of later positions
    // only: the analysis follows the game, the engine thinks on Black's
    // move, and after its answer the analysis goes on from there.
    let moved = next_event(&events, "state");
    let after_d4 = field_str(&moved, "fen").to_string();
    assert_ne!(after_d4, start_fen);
    let mut fens = vec![after_d4.clone()];
    let mut answered = false;
    let mut analysis_reports = 0;
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(answered && analysis_reports >= 3) {
        assert!(Instant::now() < deadline, "no answer and reports");
        let Ok((name, data)) = events.recv_timeout(Duration::from_secs(60)) else {
            panic!("the stream went quiet");
        };
        match name.as_str() {
            "info" => {
                let fen = field_str(&data, "fen");
                assert!(
                    fens.iter().any(|f| f == fen),
                    "a report of an old position: {data}"
                );
                if answered && field_str(&data, "source") == "analysis" {
                    analysis_reports += 1;
                }
            }
            "bestmove" => answered = true,
            "state" => {
                fens = vec![field_str(&data, "fen").to_string()];
            }
            _ => {}
        }
    }
    let stop = post(&srv, "/api/analysis/stop", &format!("game={id}"));
    assert_eq!(stop.status, 200);
    assert_eq!(stop.json().get("stopped"), Some(&Json::Bool(true)));
    let again = post(&srv, "/api/analysis/stop", &format!("game={id}"));
    assert_eq!(again.json().get("stopped"), Some(&Json::Bool(false)));
    let state = get(&srv, &format!("/api/games/{id}")).json();
    let black = &moves_of(&state)[1];
    assert!(black
        .get("score")
        .and_then(|s| s.get("cp").or(s.get("mate")))
        .is_some());
}

#[test]
fn an_analysis_by_fen_reports_and_stops_at_once() {
    let srv = server();
    let fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1";
    let bad = post(
        &srv,
        "/api/analysis",
        &format!("fen={}&moves=a1a9", encode(fen)),
    );
    assert_eq!(bad.status, 422);
    assert_eq!(post(&srv, "/api/analysis", "fen=8/8").status, 400);
    assert_eq!(
        post(
            &srv,
            "/api/analysis",
            &format!("fen={}&multipv=6", encode(fen))
        )
        .status,
        400
    );
    assert_eq!(post(&srv, "/api/analysis", "game=77").status, 404);
    let started = post(
        &srv,
        "/api/analysis",
        &format!("fen={}&moves=g1f1", encode(fen)),
    );
    assert_eq!(started.status, 200);
    let started = started.json();
    let channel = field_i64(&started, "analysis");
    assert_eq!(field_i64(&started, "ply"), 1);
    let events = listen(&srv, &format!("analysis={channel}"));
    let info = next_event(&events, "info");
    assert_eq!(field_str(&info, "fen"), field_str(&started, "fen"));
    let stop = post(&srv, "/api/analysis/stop", &format!("analysis={channel}"));
    assert_eq!(stop.json().get("stopped"), Some(&Json::Bool(true)));
    // The engine was stopped before the answer: nothing more comes.
    while events.recv_timeout(Duration::from_millis(300)).is_ok() {}
    assert!(events.recv_timeout(Duration::from_millis(500)).is_err());
}

#[test]
fn clocks_flag_a_side_that_does_not_move() {
    let srv = server();
    // White, a person, never moves.
    let state = new_game(&srv, "human=white&tc=0.2%2B0");
    let id = field_i64(&state, "id");
    assert_eq!(field_str(&state, "tc"), "0.2+0");
    let over = wait_for(&srv, id, |s| field_str(s, "status") != "playing");
    assert_eq!(
        (field_str(&over, "status"), field_str(&over, "result")),
        ("flag", "0-1")
    );
    let clocks = over.get("clocks").unwrap();
    assert_eq!(field_i64(clocks, "white_ms"), 0);
    assert_eq!(
        post(&srv, &format!("/api/games/{id}/move"), "uci=e2e4").status,
        422
    );

    // The engine plays White within its clock; Black, a person, flags.
    let state = new_game(&srv, "human=black&tc=0.5%2B0");
    let id = field_i64(&state, "id");
    let over = wait_for(&srv, id, |s| field_str(s, "status") != "playing");
    assert_eq!(
        (field_str(&over, "status"), field_str(&over, "result")),
        ("flag", "1-0")
    );
    assert_eq!(moves_of(&over).len(), 1);

    // A flag against a bare king is a draw: it cannot mate.
    let fen = encode("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    let state = new_game(&srv, &format!("human=both&tc=0.2%2B0&fen={fen}"));
    let id = field_i64(&state, "id");
    let over = wait_for(&srv, id, |s| field_str(s, "status") != "playing");
    assert_eq!(
        (field_str(&over, "status"), field_str(&over, "result")),
        ("flag", "1/2-1/2")
    );
}

/// A served score (`{"cp": N}` or `{"mate": N}`, White's view) as a search
/// score.
fn search_score(score: &Json) -> i32 {
    if let Some(cp) = score.get("cp").and_then(Json::as_i64) {
        return cp as i32;
    }
    let n = field_i64(score, "mate") as i32;
    if n > 0 {
        MATE - (2 * n - 1)
    } else {
        -(MATE + 2 * n)
    }
}

#[test]
fn a_served_pgn_reads_back_with_the_same_moves_and_scores() {
    let srv = server();
    // A mate in one, then a game cut short by resigning.
    let mate = new_game(
        &srv,
        &format!(
            "human=none&nodes=5000&fen={}",
            encode("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
        ),
    );
    let mate_id = field_i64(&mate, "id");
    let ended = wait_for(&srv, mate_id, |s| field_str(s, "status") != "playing");
    assert_eq!(field_str(&ended, "status"), "checkmate");
    let game = new_game(&srv, "human=none&nodes=1000");
    let id = field_i64(&game, "id");
    wait_for(&srv, id, |s| moves_of(s).len() >= 12);
    // At 1000 nodes a move the game may end on the board between the poll
    // and the resignation (a mate around move 25): then the server refuses
    // the resignation (422) and the game's own result is read back instead.
    let resign = post(&srv, &format!("/api/games/{id}/resign"), "");
    let after = get(&srv, &format!("/api/games/{id}")).json();
    match resign.status {
        200 => assert_eq!(field_str(&after, "status"), "resigned"),
        422 => assert_ne!(field_str(&after, "status"), "playing"),
        status => panic!("resign answered {status}"),
    }
    for id in [mate_id, id] {
        let state = get(&srv, &format!("/api/games/{id}")).json();
        let answer = get(&srv, &format!("/api/games/{id}/pgn"));
        assert_eq!(answer.status, 200);
        assert!(answer
            .head
            .contains("content-type: application/x-chess-pgn"));
        let pgn = String::from_utf8(answer.body).unwrap();
        let mut read = convert_pgn(&pgn);
        assert_eq!(read.len(), 1, "{pgn}");
        let record = read.remove(0).unwrap_or_else(|e| panic!("{e}: {pgn}"));
        assert_eq!(record.start.to_fen(), field_str(&state, "start_fen"));
        let moves = moves_of(&state);
        assert_eq!(record.plies.len(), moves.len(), "{pgn}");
        for (ply, m) in record.plies.iter().zip(&moves) {
            assert_eq!(ply.mv.to_uci(false), field_str(m, "uci"));
            assert_eq!(
                ply.score as i32,
                search_score(m.get("score").unwrap()),
                "{pgn}"
            );
        }
        let result = field_str(&state, "result");
        assert!(
            pgn.contains(&format!("[Result \"{result}\"]")) && pgn.trim_end().ends_with(result)
        );
    }
    let mate_pgn = String::from_utf8(get(&srv, &format!("/api/games/{mate_id}/pgn")).body).unwrap();
    assert!(mate_pgn.contains("[FEN \"6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1\"]"));
    assert!(mate_pgn.contains("1. Ra8# {+M1/"), "{mate_pgn}");
}

#[test]
fn reports_of_real_searches_read_back_as_the_values_the_server_sends() {
    let (sender, replies) = channel();
    let mut engine = Engine::with_sink(Arc::new(sender));
    for line in [
        "setoption name Hash value 1",
        "setoption name UCI_ShowWDL value true",
        "setoption name MultiPV value 3",
        "position startpos moves e2e4 e7e5 g1f3",
        "go depth 7",
    ] {
        engine.handle(line);
    }
    engine.finish();
    engine.handle("position fen 6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    engine.handle("go depth 4");
    engine.finish();
    let root = Position::startpos();
    let mut reports = 0;
    for reply in replies.try_iter() {
        let Reply::Info {
            info,
            wdl,
            chess960,
        } = &reply
        else {
            continue;
        };
        let sent = InfoLine::from_search(info, *wdl, *chess960);
        let text = reply.to_string();
        let read: InfoLine = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
        assert_eq!(read, sent, "{text}");
        assert_eq!(
            info_json(&read, &root, false),
            info_json(&sent, &root, false)
        );
        reports += 1;
    }
    assert!(reports > 10, "{reports}");
}

#[test]
fn random_bytes_into_every_parser_and_route_never_give_a_500() {
    let mut rng = Rng::new(0x5e4e);
    let mut random = |len: usize| -> Vec<u8> {
        let pick: [&[u8]; 4] = [b"=&%+", b"e2e4 ", b"0123456789", b"\xff\x00\n[{\"/"];
        (0..len)
            .map(|_| match rng.below(3) {
                0 => rng.next_u64() as u8,
                _ => {
                    let set = pick[rng.below(pick.len())];
                    set[rng.below(set.len())]
                }
            })
            .collect()
    };
    for _ in 0..2_000 {
        let bytes = random(80);
        let text = String::from_utf8_lossy(&bytes);
        let _ = serde_json::from_str::<Json>(&text);
        let _ = kiln::serve::form::Form::parse(&bytes);
        let _ = text.parse::<InfoLine>();
        let _ = format!("info {text}").parse::<InfoLine>();
        let _ = Position::from_fen(&text);
        for game in kiln::data::pgn::split_games(&text) {
            let _ = kiln::data::pgn::replay(&game);
        }
        let _ = kiln::serve::settings::TimeControl::parse(&text);
    }

    let srv = server();
    let game = field_i64(&new_game(&srv, "human=both"), "id");
    let routes = [
        "/api/games".to_string(),
        format!("/api/games/{game}/move"),
        format!("/api/games/{game}/undo"),
        "/api/analysis".to_string(),
        "/api/analysis/stop".to_string(),
    ];
    let fields = [
        "fen=", "pgn=", "uci=", "plies=", "tc=", "elo=", "game=", "moves=", "version=",
    ];
    for round in 0..150 {
        let route = &routes[round % routes.len()];
        let mut body = fields[round % fields.len()].as_bytes().to_vec();
        body.extend(random(round % 60));
        let answer = request(&srv, "POST", route, &body, "");
        assert!(
            [200, 201, 400, 404, 409, 422].contains(&answer.status),
            "{route} {body:?}: {}",
            answer.status
        );
        // What a request line can carry (a line with control characters is
        // refused as malformed before it reaches the API).
        let query: String = String::from_utf8_lossy(&random(20))
            .chars()
            .filter(|c| c.is_ascii_graphic() && *c != '#')
            .collect();
        let answer = get(&srv, &format!("/api/games/{game}?{query}"));
        assert!(
            [200, 400].contains(&answer.status),
            "{query}: {}",
            answer.status
        );
    }
    let _ = post(&srv, "/api/analysis/stop", &format!("game={game}"));
    // Garbage instead of a request: the server answers the next one.
    for _ in 0..20 {
        let mut stream = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
        let _ = stream.write_all(&random(200));
        drop(stream);
    }
    assert_eq!(get(&srv, "/api/info").status, 200);
}

#[test]
fn a_flood_of_requests_gets_503_and_the_server_recovers() {
    let srv = server();
    let game = new_game(&srv, "human=both");
    let id = field_i64(&game, "id");
    // Event streams hold a request thread each for as long as they last.
    let streams: Vec<TcpStream> = (0..MAX_ACTIVE_REQUESTS)
        .map(|_| {
            let mut stream = TcpStream::connect(("127.0.0.1", srv.port)).unwrap();
            write!(
                stream,
                "GET /api/events?game={id} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Kiln-Token: {}\r\n\r\n",
                srv.port, srv.token
            )
            .unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            assert_eq!(read_head(&mut reader).0, 200);
            stream
        })
        .collect();
    let refused = get(&srv, "/api/info");
    assert_eq!(refused.status, 503, "{}", refused.error());
    assert!(refused.error().contains("too many requests"));
    // Closed streams give their threads back at their next event.
    drop(streams);
    // A new game is at version 1; the move is played or refused as busy,
    // depending on whether a stream's thread has noticed its close yet.
    let moved = post(&srv, &format!("/api/games/{id}/move"), "uci=e2e4&version=1");
    assert!(
        moved.status == 200 || moved.status == 503,
        "{} {}",
        moved.status,
        String::from_utf8_lossy(&moved.body)
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let answer = get(&srv, "/api/info");
        if answer.status == 200 {
            break;
        }
        assert_eq!(answer.status, 503);
        assert!(Instant::now() < deadline, "the server never recovered");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `kiln serve --port 0` in a process of its own, so its descriptors and
/// threads can be counted apart from this test process's; killed when
/// dropped.
struct Child {
    process: std::process::Child,
    port: u16,
    token: String,
}

impl Child {
    fn start() -> Child {
        let mut process = Command::new(env!("CARGO_BIN_EXE_kiln"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(process.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .strip_prefix("kiln serve: http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        let mut child = Child {
            process,
            port,
            token: String::new(),
        };
        let page = child.get("/", 60);
        assert_eq!(page.status, 200);
        let html = String::from_utf8(page.body).unwrap();
        child.token = html
            .split("<meta name=\"kiln-token\" content=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap()
            .to_string();
        child
    }

    /// `GET path` with the token, answered within `seconds`.
    fn get(&self, path: &str, seconds: u64) -> Answer {
        let (sender, answer) = channel();
        let raw = format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nX-Kiln-Token: {}\r\n\r\n",
            self.port, self.token
        );
        let port = self.port;
        std::thread::spawn(move || sender.send(raw_request(port, raw.as_bytes())));
        answer
            .recv_timeout(Duration::from_secs(seconds))
            .unwrap_or_else(|_| panic!("GET {path} not answered in {seconds} s"))
    }

    /// Open descriptors and threads of the server process.
    fn counts(&self) -> (usize, usize) {
        let count = |what: &str| {
            std::fs::read_dir(format!("/proc/{}/{what}", self.process.id()))
                .map(|dir| dir.count())
                .unwrap_or_else(|e| panic!("/proc/{}/{what}: {e}", self.process.id()))
        };
        (count("fd"), count("task"))
    }

    /// Waits (a minute at most) until the descriptors and threads are
    /// back within a couple of `baseline`.
    fn settles_to(&self, baseline: (usize, usize), what: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let now = self.counts();
            if now.0 <= baseline.0 + 2 && now.1 <= baseline.1 + 2 {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "after {what}: {} descriptors and {} threads stay, against {} and {} before",
                now.0,
                now.1,
                baseline.0,
                baseline.1
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A connection with `raw` sent on it.
    fn send(&self, raw: &str) -> TcpStream {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream.write_all(raw.as_bytes()).unwrap();
        stream
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// The status of the answer on `stream`, or `None` when it was closed
/// without one.
fn status_of(stream: &TcpStream) -> Option<u16> {
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).ok()?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(target_os = "linux")]
#[test]
fn bodies_announced_and_never_sent_cost_nothing_that_lasts() {
    let child = Child::start();
    assert_eq!(child.get("/api/info", 60).status, 200);
    let baseline = child.counts();
    let port = child.port;
    // Half of them as the page would (Host and token right), half as a
    // page of another site would send them (its Origin, no token): all
    // announce 1 GB, none sends a byte of it.
    let streams: Vec<TcpStream> = (0..300)
        .map(|i| {
            let from = if i % 2 == 0 {
                format!("X-Kiln-Token: {}\r\n", child.token)
            } else {
                "Origin: http://evil.example\r\n".to_string()
            };
            child.send(&format!(
                "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{from}\
                 Content-Type: application/x-www-form-urlencoded\r\n\
                 Content-Length: 1000000000\r\n\r\nhuman=both&"
            ))
        })
        .collect();
    // Each is refused without its body being read (or, while all the
    // slots are taken, cut off to make way for the next, or on a machine
    // too busy to make way in time, told 503).
    for (i, stream) in streams.iter().enumerate() {
        let status = status_of(stream);
        let expected = if i % 2 == 0 { 413 } else { 403 };
        assert!(
            status.is_none_or(|s| s == expected || s == 503),
            "{i}: {status:?}"
        );
    }
    drop(streams);
    child.settles_to(baseline, "300 bodies announced");
    assert_eq!(child.get("/", 60).status, 200);
    // Nothing was made.
    assert_eq!(child.get("/api/games/1", 60).status, 404);
}

#[cfg(target_os = "linux")]
#[test]
fn half_sent_requests_held_open_keep_threads_bounded_and_the_page_answers() {
    let child = Child::start();
    assert_eq!(child.get("/api/info", 60).status, 200);
    let baseline = child.counts();
    let port = child.port;
    let held: Vec<TcpStream> = (0..300)
        .map(|_| child.send(&format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n")))
        .collect();
    // While they are held: the page answers, and the server's threads stay
    // within its bound (one per connection it serves, at most
    // MAX_ACTIVE_REQUESTS).
    for _ in 0..5 {
        assert_eq!(child.get("/", 30).status, 200);
        assert_eq!(child.get("/api/info", 30).status, 200);
        let (_, threads) = child.counts();
        assert!(
            threads <= baseline.1 + MAX_ACTIVE_REQUESTS + 1,
            "{threads} threads, against {} before",
            baseline.1
        );
    }
    drop(held);
    child.settles_to(baseline, "300 half-sent requests");
}

#[cfg(target_os = "linux")]
#[test]
fn event_streams_dropped_cost_nothing_that_lasts() {
    let child = Child::start();
    let port = child.port;
    let made = child.send(&format!(
        "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Kiln-Token: {}\r\n\
         Content-Length: 10\r\n\r\nhuman=both",
        child.token
    ));
    assert_eq!(status_of(&made), Some(201));
    drop(made);
    assert_eq!(child.get("/api/games/1", 60).status, 200);
    let baseline = child.counts();
    for round in 0..3 {
        let streams: Vec<TcpStream> = (0..40)
            .map(|_| {
                child.send(&format!(
                    "GET /api/events?game=1&token={} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n",
                    child.token
                ))
            })
            .collect();
        for stream in &streams {
            assert_eq!(status_of(stream), Some(200), "round {round}");
        }
        // No event comes on a game that nobody plays: the server must
        // notice the clients have gone by itself.
        drop(streams);
        child.settles_to(baseline, "40 event streams dropped");
        assert_eq!(child.get("/api/games/1", 60).status, 200);
    }
}
