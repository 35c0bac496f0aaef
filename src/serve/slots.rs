//! How many connections `kiln serve` serves at once, and which one makes
//! way for a newcomer. Each connection holds a slot (and one thread) from
//! accept to close, so the threads are bounded by the slots. A connection
//! is *reading* until its request (head and body) is in, then *serving*.
//! When every slot is held, the connection that has been reading longest
//! is cut off (its socket shut down, which ends its thread's read at once)
//! and its slot goes to the newcomer: a client that sends a request slowly
//! or never finishes it (many at once, say) cannot keep the page from being
//! answered, since a real request is read in milliseconds. When every slot
//! is serving (event streams, say), the newcomer is refused.

use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The slots of one server.
pub struct Slots {
    max: usize,
    held: Mutex<Vec<Held>>,
    freed: Condvar,
    next_id: Mutex<u64>,
}

/// One slot taken: its connection, and whether it is still reading.
struct Held {
    id: u64,
    reading: bool,
    /// A handle on the connection's socket, to cut it off.
    socket: Option<TcpStream>,
}

/// A slot held by one connection; given back when dropped.
pub struct Slot {
    slots: Arc<Slots>,
    id: u64,
}

impl Slots {
    /// At most `max` connections at once.
    pub fn new(max: usize) -> Arc<Slots> {
        Arc::new(Slots {
            max,
            held: Mutex::new(Vec::new()),
            freed: Condvar::new(),
            next_id: Mutex::new(0),
        })
    }

    fn held(&self) -> MutexGuard<'_, Vec<Held>> {
        // A poisoned list is still a list of slots.
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Slots held now.
    pub fn in_use(&self) -> usize {
        self.held().len()
    }

    /// A slot for the connection `socket`, reading. When all are held, the
    /// longest-reading connection is cut off and its slot awaited (up to
    /// `wait`); `None` when every slot is serving, or none came free.
    pub fn take(self: &Arc<Self>, socket: &TcpStream, wait: Duration) -> Option<Slot> {
        let id = {
            let mut next = self.next_id.lock().unwrap_or_else(|e| e.into_inner());
            *next += 1;
            *next
        };
        let deadline = Instant::now() + wait;
        let mut held = self.held();
        loop {
            if held.len() < self.max {
                held.push(Held {
                    id,
                    reading: true,
                    socket: socket.try_clone().ok(),
                });
                return Some(Slot {
                    slots: Arc::clone(self),
                    id,
                });
            }
            // The list is in order of arrival: the first reader has read
            // longest. One already cut off is on its way out.
            if let Some(oldest) = held.iter_mut().find(|h| h.reading && h.socket.is_some()) {
                if let Some(socket) = oldest.socket.take() {
                    let _ = socket.shutdown(Shutdown::Both);
                }
            } else if !held.iter().any(|h| h.reading) {
                return None;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            held = self
                .freed
                .wait_timeout(held, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Slot {
    /// The request is read: from now on this connection is not cut off to
    /// make way for another.
    pub fn serving(&self) {
        if let Some(held) = self.slots.held().iter_mut().find(|h| h.id == self.id) {
            held.reading = false;
            held.socket = None;
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.held().retain(|h| h.id != self.id);
        self.slots.freed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::net::TcpListener;

    /// A connected pair of sockets: (client, server side).
    fn pair(listener: &TcpListener) -> (TcpStream, TcpStream) {
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        (client, server)
    }

    #[test]
    fn the_longest_reader_makes_way_and_servers_do_not() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let slots = Slots::new(2);
        let (_c1, s1) = pair(&listener);
        let (_c2, s2) = pair(&listener);
        let first = slots.take(&s1, Duration::ZERO).unwrap();
        let second = slots.take(&s2, Duration::ZERO).unwrap();
        second.serving();
        assert_eq!(slots.in_use(), 2);
        // A newcomer: the first (still reading) is cut off; its thread
        // sees the end of its stream and gives its slot back.
        let (_c3, s3) = pair(&listener);
        let reader = std::thread::spawn(move || {
            let mut s1 = s1;
            let read = s1.read(&mut [0; 8]);
            drop(first);
            read.map_err(|_| ())
        });
        let third = slots.take(&s3, Duration::from_secs(60)).unwrap();
        assert_eq!(reader.join().unwrap(), Ok(0));
        third.serving();
        // Every slot serving: the next is refused.
        let (_c4, s4) = pair(&listener);
        assert!(slots.take(&s4, Duration::from_millis(10)).is_none());
        drop(second);
        assert!(slots.take(&s4, Duration::ZERO).is_some());
        drop(third);
        assert_eq!(slots.in_use(), 0);
    }
}
