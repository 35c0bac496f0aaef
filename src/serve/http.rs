//! The HTTP side of `kiln serve`: binds the port, says where, and serves
//! each connection on a thread of its own, at most `MAX_ACTIVE_REQUESTS`
//! at once (`slots`: a connection still sending its request makes way for
//! a newcomer; one being served does not, and when all are served the
//! newcomer gets 503). One request per connection (`conn`), which closes
//! after the answer. Every request is checked before its body is read:
//!
//! - its `Host` must name this server (the bound host, `127.0.0.1` or
//!   `localhost`, with the port): a page on another site that rebinds its
//!   DNS name to 127.0.0.1 is refused (403);
//! - an `Origin`, when sent, must be this server's (403);
//! - every `/api` call carries the launch's token (`X-Kiln-Token`; an event
//!   stream, which a browser opens without headers, may give `token=` in
//!   its query) (403);
//! - a body must announce its length (411), at most 64 KB (413), and only
//!   then is it read; the page's files read none.
//!
//! Pages go out with `Content-Security-Policy: default-src 'self'` and
//! `X-Content-Type-Options: nosniff`.

use super::api::{self, Answer, Routed};
use super::args::ServeArgs;
use super::assets;
use super::conn::{self, BodyError, HeadError, Request};
use super::error::ApiError;
use super::events;
use super::form::Form;
use super::referee::Referee;
use super::slots::Slots;
use serde_json::Value as Json;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// The largest request body read.
pub const MAX_BODY: usize = 64 * 1024;
/// Connections served at once, each on a thread of its own (an event
/// stream holds its thread for as long as it lasts): the bound on the
/// server's request threads. See `slots` for who makes way.
pub const MAX_ACTIVE_REQUESTS: usize = 64;
/// How long a newcomer waits for a connection cut off to make way.
const MAKE_WAY_TIME: Duration = Duration::from_secs(5);
/// Engines live at once (see `engines`).
pub const LIVE_ENGINES: usize = 4;

/// Headers every answer carries.
const COMMON_HEADERS: [(&str, &str); 5] = [
    ("X-Content-Type-Options", "nosniff"),
    ("Content-Security-Policy", "default-src 'self'"),
    ("Cache-Control", "no-store"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
];

/// A new random token: 128 bits from the operating system's randomness,
/// which the standard library's hash keys are seeded with.
pub fn new_token() -> String {
    (0..2)
        .map(|i: u64| {
            let mut hasher = RandomState::new().build_hasher();
            hasher.write_u64(i);
            format!("{:016x}", hasher.finish())
        })
        .collect()
}

/// Equal strings, compared without stopping at the first difference.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// What a request must match, and what the server holds.
pub struct Site {
    /// `Host` values that name this server (lower case).
    hosts: Vec<String>,
    token: String,
    referee: Arc<Referee>,
}

/// A running server.
pub struct Running {
    /// `http://host:port/`.
    pub url: String,
    pub port: u16,
    pub token: String,
}

/// Why the server did not start.
#[derive(Debug)]
pub struct BindError(pub String);

impl std::fmt::Display for BindError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BindError {}

/// Binds `args.host:args.port` and serves on a thread of its own.
pub fn start(args: &ServeArgs) -> Result<Running, BindError> {
    let listener = TcpListener::bind((args.host.as_str(), args.port))
        .map_err(|e| BindError(format!("cannot listen on {}:{}: {e}", args.host, args.port)))?;
    let port = listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| BindError(format!("no address to listen on: {e}")))?;
    let host = if args.host.contains(':') {
        format!("[{}]", args.host)
    } else {
        args.host.clone()
    };
    let mut hosts: Vec<String> = [host.clone(), "127.0.0.1".into(), "localhost".into()]
        .iter()
        .map(|h| format!("{h}:{port}").to_ascii_lowercase())
        .collect();
    hosts.dedup();
    let mut setup = vec!["setoption name Hash value 16".to_string()];
    if let Some(dir) = &args.syzygy {
        setup.push(format!("setoption name SyzygyPath value {dir}"));
    }
    let token = new_token();
    let site = Arc::new(Site {
        hosts,
        token: token.clone(),
        referee: Referee::start(LIVE_ENGINES, setup),
    });
    std::thread::Builder::new()
        .name("serve-accept".into())
        .spawn(move || accept(&listener, &site))
        .map_err(|e| BindError(format!("cannot start the server's thread: {e}")))?;
    Ok(Running {
        url: format!("http://{host}:{port}/"),
        port,
        token,
    })
}

/// Accepts connections for ever, each served on a thread of its own while
/// it holds a slot.
fn accept(listener: &TcpListener, site: &Arc<Site>) {
    let slots = Slots::new(MAX_ACTIVE_REQUESTS);
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            // Out of descriptors, say: give the system a moment.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let Some(slot) = slots.take(&stream, MAKE_WAY_TIME) else {
            refuse_busy(stream);
            continue;
        };
        let site = Arc::clone(site);
        // A thread the system cannot make drops the connection (and its
        // slot) rather than stopping the server.
        let _ = std::thread::Builder::new()
            .name("serve-request".into())
            .spawn(move || {
                let request = match Request::read(stream) {
                    Ok(request) => request,
                    Err((error, stream)) => return refuse_head(error, stream),
                };
                site.handle(request, &|| slot.serving());
            });
    }
}

/// 503 to a connection that found every slot serving, written on the
/// accepting thread: without waiting for the request, which is dropped.
fn refuse_busy(stream: TcpStream) {
    let error = ApiError::new(503, "too many requests at once; try again");
    let body = format!("{}\n", error.json()).into_bytes();
    let _ = stream.set_nonblocking(true);
    let _ = conn::write_answer(&mut &stream, 503, &headers(JSON, &[]), &body, false);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // What the request already sent, so closing does not reset the answer.
    let _ = std::io::copy(&mut &stream, &mut std::io::sink());
}

/// The answer to a head that could not be read, if any.
fn refuse_head(error: HeadError, stream: TcpStream) {
    let error = match error {
        HeadError::Gone => return,
        HeadError::Malformed => ApiError::bad_request("not an HTTP request"),
        HeadError::TooLarge => ApiError::new(431, "the request's head is too large"),
    };
    let body = format!("{}\n", error.json()).into_bytes();
    let _ = conn::write_answer(
        &mut &stream,
        error.status,
        &headers(JSON, &[]),
        &body,
        false,
    );
    conn::close(stream);
}

/// The content type of JSON answers.
const JSON: &str = "application/json; charset=utf-8";

/// The common headers, `extra`, and `Content-Type`.
fn headers<'a>(content_type: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut all = COMMON_HEADERS.to_vec();
    all.extend_from_slice(extra);
    all.push(("Content-Type", content_type));
    all
}

/// Answers `request` with `body` and closes its connection.
fn send(request: Request, status: u16, content_type: &str, body: Vec<u8>, extra: &[(&str, &str)]) {
    request.respond(status, &headers(content_type, extra), &body);
}

fn send_json(request: Request, status: u16, json: &Json) {
    let body = format!("{json}\n").into_bytes();
    send(request, status, JSON, body, &[]);
}

fn send_error(request: Request, error: &ApiError) {
    send_json(request, error.status, &error.json());
}

impl Site {
    /// Does `host` (a `Host` header) name this server?
    fn is_our_host(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        self.hosts.contains(&host)
    }

    /// Is `origin` (an `Origin` header) this server?
    fn is_our_origin(&self, origin: &str) -> bool {
        origin
            .trim()
            .strip_prefix("http://")
            .is_some_and(|host| self.is_our_host(host))
    }

    /// Checks and answers `request`; `read` is called once the request
    /// has been read whole (its connection is then no longer one that
    /// makes way for another).
    fn handle(&self, request: Request, read: &dyn Fn()) {
        let host = request.header("Host");
        if !host.is_some_and(|h| self.is_our_host(h)) {
            return send_error(
                request,
                &ApiError::new(
                    403,
                    "this server answers only to its own address (Host header)",
                ),
            );
        }
        if request
            .header("Origin")
            .is_some_and(|o| !self.is_our_origin(o))
        {
            return send_error(
                request,
                &ApiError::new(403, "requests from other sites are refused (Origin header)"),
            );
        }
        if request.path == "/api" || request.path.starts_with("/api/") {
            self.handle_api(request, read);
        } else {
            read();
            self.handle_page(request);
        }
    }

    fn handle_page(&self, request: Request) {
        let method = request.method.as_str();
        if method != "GET" && method != "HEAD" {
            let error = ApiError::new(405, format!("{method} is not allowed here"));
            let body = format!("{}\n", error.json()).into_bytes();
            return send(request, 405, JSON, body, &[("Allow", "GET, HEAD")]);
        }
        let path = request.path.as_str();
        let page = if path == "/" || path == "/index.html" {
            assets::find("/").zip(assets::index_page(&self.token))
        } else {
            assets::find(path).map(|asset| (asset, asset.bytes.to_vec()))
        };
        match page {
            Some((asset, bytes)) => send(request, 200, asset.content_type, bytes, &[]),
            None => send_error(request, &ApiError::not_found("no such page")),
        }
    }

    fn handle_api(&self, mut request: Request, read: &dyn Fn()) {
        let query = match Form::parse(request.query.as_bytes()) {
            Ok(query) => query,
            Err(e) => return send_error(request, &e.into()),
        };
        // A browser's EventSource sends no headers of the page's choosing.
        let token = request
            .header("X-Kiln-Token")
            .map(str::to_string)
            .or_else(|| {
                (request.path == "/api/events")
                    .then(|| query.get("token").map(str::to_string))
                    .flatten()
            });
        if !token.is_some_and(|t| same_secret(&t, &self.token)) {
            let message = "missing or wrong token (X-Kiln-Token: the one in the page)";
            return send_error(request, &ApiError::new(403, message));
        }
        let body = match request.read_body(MAX_BODY) {
            Ok(body) => body,
            Err(e) => {
                let error = match e {
                    BodyError::TooLarge => {
                        ApiError::new(413, format!("the body is over {} KB", MAX_BODY / 1024))
                    }
                    BodyError::LengthRequired => {
                        ApiError::new(411, "send the body with a Content-Length")
                    }
                    BodyError::BadLength => {
                        ApiError::bad_request("the Content-Length is not a number")
                    }
                    BodyError::Short => ApiError::bad_request("the body could not be read"),
                };
                return send_error(request, &error);
            }
        };
        read();
        let form = match Form::parse(&body) {
            Ok(form) => form,
            Err(e) => return send_error(request, &e.into()),
        };
        let method = request.method.clone();
        let path = request.path.clone();
        match api::route(&self.referee, &method, &path, &query, &form) {
            Routed::NotFound => send_error(request, &ApiError::not_found("no such API path")),
            Routed::WrongMethod(allowed) => {
                let error = ApiError::new(
                    405,
                    format!("{method} is not allowed here; use {}", allowed.0),
                );
                let body = format!("{}\n", error.json()).into_bytes();
                send(request, 405, JSON, body, &[("Allow", allowed.0)]);
            }
            Routed::Answer(Err(error)) => send_error(request, &error),
            Routed::Answer(Ok(Answer::Json(status, json))) => send_json(request, status, &json),
            Routed::Answer(Ok(Answer::Pgn(text))) => send(
                request,
                200,
                "application/x-chess-pgn; charset=utf-8",
                text.into_bytes(),
                &[],
            ),
            Routed::Answer(Ok(Answer::Events(receiver))) => {
                let chunked = request.http11;
                let mut head =
                    String::from("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n");
                for (name, value) in COMMON_HEADERS {
                    head += &format!("{name}: {value}\r\n");
                }
                let stream = request.into_stream();
                let mut out = &stream;
                let _ = events::stream(&mut out, &head, chunked, receiver, &mut || {
                    conn::peer_gone(&stream)
                });
                conn::close(stream);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_long() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert!(same_secret(&a, &a.clone()) && !same_secret(&a, &b) && !same_secret(&a, ""));
    }
}
