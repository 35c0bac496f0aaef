//! Server-Sent Events: the `Hub` hands each event of a channel (a game, or
//! an analysis of a position) to every client listening there, and
//! `stream` writes them to one client as they come, each flushed at once
//! (a chunk of HTTP/1.1 chunked encoding per event), so nothing waits in a
//! buffer. A client that falls far behind is dropped rather than slowing
//! the games down; one that closes its connection is noticed within
//! `WATCH` and its stream ends, whether or not events come.

use serde_json::Value as Json;
use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Events a listener may have waiting before it is dropped.
const BACKLOG: usize = 4096;
/// A comment line goes out after this long without an event, so a client
/// that has gone is noticed.
const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// How often a quiet stream asks whether its client is still there.
const WATCH: Duration = Duration::from_secs(1);

/// One event as it goes on the wire: `event: NAME`, `data: JSON`, blank.
pub fn format_event(name: &str, data: &Json) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// The listeners of every channel.
#[derive(Default)]
pub struct Hub {
    channels: Mutex<HashMap<u64, Vec<SyncSender<Arc<str>>>>>,
}

impl Hub {
    /// A new listener of `channel`; `first` are its first events (the
    /// game's state), queued before any other.
    pub fn subscribe(&self, channel: u64, first: &[String]) -> Receiver<Arc<str>> {
        let (sender, receiver) = sync_channel(BACKLOG);
        for event in first {
            let _ = sender.try_send(Arc::from(event.as_str()));
        }
        if let Ok(mut channels) = self.channels.lock() {
            channels.entry(channel).or_default().push(sender);
        }
        receiver
    }

    /// Sends event `name` with `data` to every listener of `channel`; one
    /// that has gone or is too far behind is dropped.
    pub fn publish(&self, channel: u64, name: &str, data: &Json) {
        let Ok(mut channels) = self.channels.lock() else {
            return;
        };
        let Some(listeners) = channels.get_mut(&channel) else {
            return;
        };
        let event: Arc<str> = Arc::from(format_event(name, data));
        listeners.retain(|listener| match listener.try_send(Arc::clone(&event)) {
            Ok(()) => true,
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => false,
        });
        if listeners.is_empty() {
            channels.remove(&channel);
        }
    }

    /// Does `channel` have a listener?
    pub fn has_listeners(&self, channel: u64) -> bool {
        self.channels
            .lock()
            .is_ok_and(|channels| channels.contains_key(&channel))
    }
}

/// Writes one chunk of chunked transfer encoding and flushes it.
fn chunk(out: &mut dyn Write, bytes: &[u8], chunked: bool) -> io::Result<()> {
    if chunked {
        write!(out, "{:x}\r\n", bytes.len())?;
        out.write_all(bytes)?;
        out.write_all(b"\r\n")?;
    } else {
        out.write_all(bytes)?;
    }
    out.flush()
}

/// Sends an event stream on `out` (the client's connection, the response
/// head not yet written) until the client goes (`gone`, asked when no
/// event has come for `WATCH`, says so, or a write fails) or the hub drops
/// it: `head` is the response head (status line and headers, without the
/// blank line); HTTP/1.1 clients get chunked encoding, older ones a body
/// that ends with the connection.
pub fn stream(
    out: &mut dyn Write,
    head: &str,
    chunked: bool,
    events: Receiver<Arc<str>>,
    gone: &mut dyn FnMut() -> bool,
) -> io::Result<()> {
    let encoding = if chunked {
        "Transfer-Encoding: chunked\r\n"
    } else {
        "Connection: close\r\n"
    };
    write!(out, "{head}{encoding}\r\n")?;
    out.flush()?;
    let mut last_sent = Instant::now();
    loop {
        match events.recv_timeout(WATCH) {
            Ok(event) => chunk(out, event.as_bytes(), chunked)?,
            Err(RecvTimeoutError::Timeout) if gone() => return Ok(()),
            Err(RecvTimeoutError::Timeout) if last_sent.elapsed() >= KEEP_ALIVE => {
                chunk(out, b": keep-alive\n\n", chunked)?
            }
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => break,
        }
        last_sent = Instant::now();
    }
    if chunked {
        out.write_all(b"0\r\n\r\n")?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_listener_gets_each_event_in_order() {
        let hub = Hub::default();
        let first = hub.subscribe(7, &[format_event("state", &json!(0))]);
        let second = hub.subscribe(7, &[]);
        let elsewhere = hub.subscribe(8, &[]);
        hub.publish(7, "state", &json!(1));
        hub.publish(7, "clock", &json!({ "white_ms": 5 }));
        let got: Vec<Arc<str>> = first.try_iter().collect();
        assert_eq!(
            got.iter().map(|e| &**e).collect::<Vec<_>>(),
            [
                "event: state\ndata: 0\n\n",
                "event: state\ndata: 1\n\n",
                "event: clock\ndata: {\"white_ms\":5}\n\n"
            ]
        );
        assert_eq!(second.try_iter().count(), 2);
        assert_eq!(elsewhere.try_iter().count(), 0);
        drop(second);
        hub.publish(7, "state", &json!(2));
        assert!(hub.has_listeners(7));
        drop(first);
        hub.publish(7, "state", &json!(3));
        assert!(!hub.has_listeners(7));
    }

    #[test]
    fn a_stream_writes_each_event_as_a_flushed_chunk() {
        let hub = Hub::default();
        let events = hub.subscribe(1, &[]);
        hub.publish(1, "bestmove", &json!("e2e4"));
        drop(hub);
        let out: Vec<u8> = Vec::new();
        let shared = std::sync::Arc::new(Mutex::new(out));
        struct Shared(std::sync::Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        stream(
            &mut Shared(Arc::clone(&shared)),
            "HTTP/1.1 200 OK\r\n",
            true,
            events,
            &mut || false,
        )
        .unwrap();
        let text = String::from_utf8(shared.lock().unwrap().clone()).unwrap();
        let event = "event: bestmove\ndata: \"e2e4\"\n\n";
        assert_eq!(
            text,
            format!(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n{:x}\r\n{event}\r\n0\r\n\r\n",
                event.len()
            )
        );
    }

    #[test]
    fn a_stream_ends_when_its_client_has_gone() {
        let hub = Hub::default();
        let events = hub.subscribe(1, &[]);
        let mut out = Vec::new();
        let mut asked = 0;
        stream(&mut out, "HTTP/1.1 200 OK\r\n", true, events, &mut || {
            asked += 1;
            true
        })
        .unwrap();
        assert_eq!(asked, 1);
        assert!(String::from_utf8(out).unwrap().ends_with("chunked\r\n\r\n"));
        // The hub lets the listener go at its next event.
        hub.publish(1, "state", &json!(0));
        assert!(!hub.has_listeners(1));
    }
}
