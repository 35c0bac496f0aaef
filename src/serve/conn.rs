//! One HTTP/1.x connection of `kiln serve`, one request on it: the head is
//! read (at most `MAX_HEAD` bytes, within `READ_TIME`) and parsed by
//! `httparse`; the body is read only when the server asks for it, after
//! its checks, and only when it announces a length no larger than the
//! caller allows (what came in the same reads as the head, at most 4 KB,
//! waits in a buffer until then); the answer goes out with
//! `Connection: close`, and the connection closes. Nothing here decides
//! what is allowed (`http` does).

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

/// The largest request head read (request line and headers).
pub const MAX_HEAD: usize = 16 * 1024;
/// Most header lines a request may have.
const MAX_HEADERS: usize = 64;
/// How long a client has to send its head, and then its body.
pub const READ_TIME: Duration = Duration::from_secs(10);
/// How long an answer may take to go out.
const WRITE_TIME: Duration = Duration::from_secs(30);
/// After an answer, what the client still sends is read and dropped for at
/// most this long (and `DRAIN_BYTES`), so closing does not reset the
/// connection before the client has read the answer.
const DRAIN_TIME: Duration = Duration::from_secs(1);
const DRAIN_BYTES: u64 = 256 * 1024;

/// A request whose head has been read.
pub struct Request {
    pub method: String,
    /// The target's path (before any `?`).
    pub path: String,
    /// The target's query (after `?`), or empty.
    pub query: String,
    /// HTTP/1.1 (or later) rather than 1.0.
    pub http11: bool,
    headers: Vec<(String, String)>,
    /// Body bytes that came in with the head.
    early_body: Vec<u8>,
    stream: TcpStream,
}

/// Why no request was read.
#[derive(Debug, PartialEq, Eq)]
pub enum HeadError {
    /// The client closed, went silent past `READ_TIME`, or was cut off:
    /// nothing to answer.
    Gone,
    /// Not an HTTP request (400).
    Malformed,
    /// A head over `MAX_HEAD` or with over `MAX_HEADERS` lines (431).
    TooLarge,
}

/// Why a body was not read.
#[derive(Debug, PartialEq, Eq)]
pub enum BodyError {
    /// `Transfer-Encoding` instead of a `Content-Length` (411).
    LengthRequired,
    /// A `Content-Length` that is not a number (400).
    BadLength,
    /// An announced length over the limit (413).
    TooLarge,
    /// The client stopped before the announced length (400).
    Short,
}

/// Reads from `stream` until `deadline`: what came, or `Gone`.
fn read_some(
    stream: &mut TcpStream,
    buf: &mut [u8],
    deadline: Instant,
) -> Result<usize, HeadError> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
        return Err(HeadError::Gone);
    }
    match stream.read(buf) {
        Ok(0) | Err(_) => Err(HeadError::Gone),
        Ok(n) => Ok(n),
    }
}

impl Request {
    /// Reads one request's head from `stream`.
    pub fn read(mut stream: TcpStream) -> Result<Request, (HeadError, TcpStream)> {
        let deadline = Instant::now() + READ_TIME;
        let _ = stream.set_write_timeout(Some(WRITE_TIME));
        let mut buf = Vec::with_capacity(1024);
        let mut chunk = [0u8; 4096];
        loop {
            let n = match read_some(&mut stream, &mut chunk, deadline) {
                Ok(n) => n,
                Err(e) => return Err((e, stream)),
            };
            buf.extend_from_slice(&chunk[..n]);
            let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
            let mut parsed = httparse::Request::new(&mut headers);
            match parsed.parse(&buf) {
                Ok(httparse::Status::Complete(end)) => {
                    let target = parsed.path.unwrap_or("");
                    let (path, query) = target.split_once('?').unwrap_or((target, ""));
                    return Ok(Request {
                        method: parsed.method.unwrap_or("").to_ascii_uppercase(),
                        path: path.to_string(),
                        query: query.to_string(),
                        http11: parsed.version.unwrap_or(0) >= 1,
                        headers: parsed
                            .headers
                            .iter()
                            .map(|h| {
                                let value = String::from_utf8_lossy(h.value).trim().to_string();
                                (h.name.to_ascii_lowercase(), value)
                            })
                            .collect(),
                        early_body: buf[end..].to_vec(),
                        stream,
                    });
                }
                Ok(httparse::Status::Partial) if buf.len() <= MAX_HEAD => {}
                Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => {
                    return Err((HeadError::TooLarge, stream))
                }
                Err(_) => return Err((HeadError::Malformed, stream)),
            }
        }
    }

    /// The first header `name` (any case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The announced body length: 0 when none is announced.
    fn body_length(&self) -> Result<u64, BodyError> {
        if self.header("transfer-encoding").is_some() {
            return Err(BodyError::LengthRequired);
        }
        let mut lengths = self
            .headers
            .iter()
            .filter(|(n, _)| n == "content-length")
            .map(|(_, v)| v);
        let Some(first) = lengths.next() else {
            return Ok(0);
        };
        if lengths.any(|other| other != first) || !first.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BodyError::BadLength);
        }
        first.parse().map_err(|_| BodyError::BadLength)
    }

    /// Reads the body, refusing before reading anything when it announces
    /// more than `max` bytes.
    pub fn read_body(&mut self, max: usize) -> Result<Vec<u8>, BodyError> {
        let length = self.body_length()?;
        if length > max as u64 {
            return Err(BodyError::TooLarge);
        }
        let length = length as usize;
        let mut body = std::mem::take(&mut self.early_body);
        body.truncate(length);
        let deadline = Instant::now() + READ_TIME;
        let mut chunk = [0u8; 4096];
        while body.len() < length {
            let want = (length - body.len()).min(chunk.len());
            match read_some(&mut self.stream, &mut chunk[..want], deadline) {
                Ok(n) => body.extend_from_slice(&chunk[..n]),
                Err(_) => return Err(BodyError::Short),
            }
        }
        Ok(body)
    }

    /// Answers with `status`, `headers` and `body` (not for `HEAD`), and
    /// closes the connection.
    pub fn respond(self, status: u16, headers: &[(&str, &str)], body: &[u8]) {
        let head_only = self.method == "HEAD";
        let mut stream = self.stream;
        let _ = write_answer(&mut stream, status, headers, body, head_only);
        close(stream);
    }

    /// The connection, for an answer written as it goes (an event stream).
    pub fn into_stream(self) -> TcpStream {
        self.stream
    }
}

/// Writes an answer, its `Content-Length` and `Connection: close`.
pub fn write_answer(
    out: &mut impl Write,
    status: u16,
    headers: &[(&str, &str)],
    body: &[u8],
    head_only: bool,
) -> io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        head += &format!("{name}: {value}\r\n");
    }
    head += &format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let mut bytes = head.into_bytes();
    if !head_only {
        bytes.extend_from_slice(body);
    }
    out.write_all(&bytes)?;
    out.flush()
}

/// Closes a connection after its answer: no more is written, and what the
/// client still sends is dropped for a moment, so it reads the answer.
pub fn close(stream: TcpStream) {
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(DRAIN_TIME));
    let deadline = Instant::now() + DRAIN_TIME;
    let mut drained = (&stream).take(DRAIN_BYTES);
    let mut chunk = [0u8; 4096];
    while Instant::now() < deadline {
        match drained.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

/// Has the client closed (or broken) `stream`? What it sent since is
/// dropped.
pub fn peer_gone(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return true;
    }
    let mut chunk = [0u8; 512];
    let gone = match (&*stream).read(&mut chunk) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != io::ErrorKind::WouldBlock,
    };
    gone || stream.set_nonblocking(false).is_err()
}

/// The reason phrase of the statuses `kiln serve` gives.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// `raw` sent by a client (which then keeps its side open); the
    /// server's side read as a request.
    fn read_from(raw: &[u8]) -> (Result<Request, HeadError>, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        client.write_all(raw).unwrap();
        let (server, _) = listener.accept().unwrap();
        (Request::read(server).map_err(|(e, _)| e), client)
    }

    #[test]
    fn a_head_is_read_and_the_body_only_when_asked() {
        let raw = b"post /api/x?a=1 HTTP/1.1\r\nHost: h:1\r\nContent-Length: 5\r\n\r\nab";
        let (request, mut client) = read_from(raw);
        let mut request = request.unwrap();
        assert_eq!(
            (
                request.method.as_str(),
                request.path.as_str(),
                request.query.as_str()
            ),
            ("POST", "/api/x", "a=1")
        );
        assert!(request.http11);
        assert_eq!(request.header("HOST"), Some("h:1"));
        assert_eq!(request.read_body(4), Err(BodyError::TooLarge));
        client.write_all(b"cde").unwrap();
        assert_eq!(request.read_body(5).unwrap(), b"abcde");
    }

    #[test]
    fn odd_heads_and_lengths_are_refused() {
        assert_eq!(
            read_from(b"\x00\x01 nonsense\r\n\r\n").0.err(),
            Some(HeadError::Malformed)
        );
        let long = format!("GET / HTTP/1.1\r\nX: {}\r\n", "a".repeat(MAX_HEAD));
        assert_eq!(
            read_from(long.as_bytes()).0.err(),
            Some(HeadError::TooLarge)
        );
        for (headers, error) in [
            ("Transfer-Encoding: chunked\r\n", BodyError::LengthRequired),
            ("Content-Length: -1\r\n", BodyError::BadLength),
            (
                "Content-Length: 1\r\nContent-Length: 2\r\n",
                BodyError::BadLength,
            ),
            (
                "Content-Length: 99999999999999999999999\r\n",
                BodyError::BadLength,
            ),
            ("Content-Length: 1000000000\r\n", BodyError::TooLarge),
        ] {
            let raw = format!("POST / HTTP/1.0\r\n{headers}\r\n");
            let mut request = read_from(raw.as_bytes()).0.unwrap();
            assert!(!request.http11);
            assert_eq!(request.read_body(100), Err(error), "{headers}");
        }
    }

    #[test]
    fn answers_carry_their_length_and_close() {
        let mut out = Vec::new();
        write_answer(&mut out, 404, &[("A", "b")], b"none", false).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "HTTP/1.1 404 Not Found\r\nA: b\r\nContent-Length: 4\r\nConnection: close\r\n\r\nnone"
        );
    }
}
