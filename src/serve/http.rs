//! The HTTP side of `kiln serve`: binds the port, says where, and serves
//! each request on its own thread (an event stream holds its thread for as
//! long as it lasts, and never holds up another request). Every request is
//! checked before anything else is read:
//!
//! - its `Host` must name this server (the bound host, `127.0.0.1` or
//!   `localhost`, with the port): a page on another site that rebinds its
//!   DNS name to 127.0.0.1 is refused (403);
//! - an `Origin`, when sent, must be this server's (403);
//! - every `/api` call carries the launch's token (`X-Kiln-Token`; an event
//!   stream, which a browser opens without headers, may give `token=` in
//!   its query) (403);
//! - a body is at most 64 KB (413).
//!
//! Pages go out with `Content-Security-Policy: default-src 'self'` and
//! `X-Content-Type-Options: nosniff`.

use super::api::{self, Answer, Routed};
use super::args::ServeArgs;
use super::assets;
use super::error::ApiError;
use super::events;
use super::form::Form;
use super::json::Json;
use super::referee::Referee;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use tiny_http::{Request, Server};

/// The largest request body read.
pub const MAX_BODY: usize = 64 * 1024;
/// A request that announces a body larger than this is left unanswered
/// (tiny_http would buffer the announced size to discard it).
const MAX_ANNOUNCED_BODY: usize = 64 * 1024 * 1024;
/// Requests served at once, each on a thread of its own (an event stream
/// holds its thread for as long as it lasts); more get 503 at once.
pub const MAX_ACTIVE_REQUESTS: usize = 64;
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
    let server = Server::http((args.host.as_str(), args.port))
        .map_err(|e| BindError(format!("cannot listen on {}:{}: {e}", args.host, args.port)))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or_else(|| BindError("not listening on an IP address".to_string()))?;
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
    std::thread::spawn(move || {
        let active = Arc::new(AtomicUsize::new(0));
        for request in server.incoming_requests() {
            // A flood of connections gets 503s, not a thread each.
            if active.load(Ordering::SeqCst) >= MAX_ACTIVE_REQUESTS {
                let error = ApiError::new(503, "too many requests at once; try again");
                send_error(request, &error);
                continue;
            }
            let slot = ActiveRequest::take(&active);
            let site = Arc::clone(&site);
            // A thread the system cannot make drops the request (its
            // connection closes) rather than stopping the server.
            let _ = std::thread::Builder::new()
                .name("serve-request".into())
                .spawn(move || {
                    let _slot = slot;
                    site.handle(request)
                });
        }
    });
    Ok(Running {
        url: format!("http://{host}:{port}/"),
        port,
        token,
    })
}

/// One request being served: counted in `active` while it lives.
struct ActiveRequest(Arc<AtomicUsize>);

impl ActiveRequest {
    fn take(active: &Arc<AtomicUsize>) -> ActiveRequest {
        active.fetch_add(1, Ordering::SeqCst);
        ActiveRequest(Arc::clone(active))
    }
}

impl Drop for ActiveRequest {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Sends `body` with `status` and `content_type`, and the common headers,
/// and closes the connection. tiny_http serves each connection on a pool
/// thread for as long as the client keeps it open, and its pool can leave
/// a newly accepted connection queued behind kept-alive ones when a
/// browser opens several at once (a page load that never finishes); a
/// connection closed after each answer frees its thread at once. So the
/// answer is written here, with `Connection: close`, which tiny_http's
/// `Response` does not let a handler add.
fn send(request: Request, status: u16, content_type: &str, body: Vec<u8>, extra: &[(&str, &str)]) {
    let head_only = request.method().as_str().eq_ignore_ascii_case("HEAD");
    let reason = tiny_http::StatusCode(status).default_reason_phrase();
    let mut head = format!("HTTP/1.1 {status} {reason}\r\n");
    let content = [("Content-Type", content_type)];
    for &(name, value) in COMMON_HEADERS.iter().chain(extra).chain(&content) {
        head += &format!("{name}: {value}\r\n");
    }
    head += &format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let mut out = request.into_writer();
    // A client that has gone is no error of the server's.
    let _ = out
        .write_all(head.as_bytes())
        .and_then(|()| {
            if head_only {
                Ok(())
            } else {
                out.write_all(&body)
            }
        })
        .and_then(|()| out.flush());
}

fn send_json(request: Request, status: u16, json: &Json) {
    let body = format!("{json}\n").into_bytes();
    send(
        request,
        status,
        "application/json; charset=utf-8",
        body,
        &[],
    );
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

    fn handle(&self, request: Request) {
        if request.body_length().unwrap_or(0) > MAX_ANNOUNCED_BODY {
            std::mem::forget(request);
            return;
        }
        let find = |name: &'static str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.equiv(name))
                .map(|h| h.value.as_str().to_string())
        };
        let (host, origin, token) = (find("Host"), find("Origin"), find("X-Kiln-Token"));
        if !host.as_deref().is_some_and(|h| self.is_our_host(h)) {
            return send_error(
                request,
                &ApiError::new(
                    403,
                    "this server answers only to its own address (Host header)",
                ),
            );
        }
        if origin.as_deref().is_some_and(|o| !self.is_our_origin(o)) {
            return send_error(
                request,
                &ApiError::new(403, "requests from other sites are refused (Origin header)"),
            );
        }
        let method = request.method().as_str().to_ascii_uppercase();
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        if path == "/api" || path.starts_with("/api/") {
            self.handle_api(request, &method, path, query, token);
        } else {
            self.handle_page(request, &method, path);
        }
    }

    fn handle_page(&self, request: Request, method: &str, path: &str) {
        if method != "GET" && method != "HEAD" {
            let error = ApiError::new(405, format!("{method} is not allowed here"));
            let body = format!("{}\n", error.json()).into_bytes();
            let json = "application/json; charset=utf-8";
            return send(request, 405, json, body, &[("Allow", "GET, HEAD")]);
        }
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

    fn handle_api(
        &self,
        mut request: Request,
        method: &str,
        path: &str,
        query: &str,
        token: Option<String>,
    ) {
        let query = match Form::parse(query.as_bytes()) {
            Ok(query) => query,
            Err(e) => return send_error(request, &e.into()),
        };
        // A browser's EventSource sends no headers of the page's choosing.
        let token = token.or_else(|| {
            (path == "/api/events")
                .then(|| query.get("token").map(str::to_string))
                .flatten()
        });
        if !token.is_some_and(|t| same_secret(&t, &self.token)) {
            let message = "missing or wrong token (X-Kiln-Token: the one in the page)";
            return send_error(request, &ApiError::new(403, message));
        }
        let too_large = || ApiError::new(413, format!("the body is over {} KB", MAX_BODY / 1024));
        if request.body_length().unwrap_or(0) > MAX_BODY {
            return send_error(request, &too_large());
        }
        let mut body = Vec::new();
        let read = request
            .as_reader()
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body);
        if read.is_err() {
            return send_error(
                request,
                &ApiError::bad_request("the body could not be read"),
            );
        }
        if body.len() > MAX_BODY {
            return send_error(request, &too_large());
        }
        let form = match Form::parse(&body) {
            Ok(form) => form,
            Err(e) => return send_error(request, &e.into()),
        };
        match api::route(&self.referee, method, path, &query, &form) {
            Routed::NotFound => send_error(request, &ApiError::not_found("no such API path")),
            Routed::WrongMethod(allowed) => {
                let error = ApiError::new(
                    405,
                    format!("{method} is not allowed here; use {}", allowed.0),
                );
                let body = format!("{}\n", error.json()).into_bytes();
                let json = "application/json; charset=utf-8";
                send(request, 405, json, body, &[("Allow", allowed.0)]);
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
                let version = request.http_version();
                let chunked = (version.0, version.1) >= (1, 1);
                let mut head =
                    String::from("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n");
                for (name, value) in COMMON_HEADERS {
                    head += &format!("{name}: {value}\r\n");
                }
                let writer = request.into_writer();
                let _ = events::stream(writer, &head, chunked, receiver);
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
