//! Where `Engine` sends what it says: a `Sink`, given each `Reply` as a
//! value. `Stdout`, the default, prints a reply's UCI text as lines; a
//! channel's `Sender<Reply>` hands the values to another thread (a test, or
//! another front end of the same engine). `TextLines` turns what the tools
//! write (`bench`, `perft`) into `Reply::Text` lines.

use super::output::Reply;
use std::io::Write;
use std::sync::mpsc::Sender;

/// Takes the engine's replies, from the UCI thread and from the search
/// thread, in the order they are made.
pub trait Sink: Send + Sync {
    /// Takes one reply.
    fn emit(&self, reply: Reply);
}

/// Standard output: each reply's text and a line end, written under the
/// lock and flushed at once (a GUI waits for the line).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stdout;

impl Sink for Stdout {
    fn emit(&self, reply: Reply) {
        let mut out = std::io::stdout().lock();
        // A closed stdout (the GUI has gone) is not the engine's error: the
        // loop ends with the end of stdin.
        let _ = writeln!(out, "{reply}").and_then(|()| out.flush());
    }
}

impl Sink for Sender<Reply> {
    fn emit(&self, reply: Reply) {
        // A receiver that has gone wants no more replies.
        let _ = self.send(reply);
    }
}

/// A `Write` that sends each complete line written to it as a
/// `Reply::Text`; a last line without its end goes when the writer is
/// flushed or dropped.
pub struct TextLines<'a> {
    sink: &'a dyn Sink,
    pending: Vec<u8>,
}

impl<'a> TextLines<'a> {
    /// A writer into `sink`.
    pub fn new(sink: &'a dyn Sink) -> TextLines<'a> {
        TextLines {
            sink,
            pending: Vec::new(),
        }
    }

    fn send(&mut self, line: &[u8]) {
        let text = String::from_utf8_lossy(line).into_owned();
        self.sink.emit(Reply::Text(text));
    }
}

impl Write for TextLines<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(buf);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            self.send(&line[..end]);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            self.send(&line);
        }
        Ok(())
    }
}

impl Drop for TextLines<'_> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn text_lines_are_sent_one_by_one_and_a_partial_line_at_the_end() {
        let (sender, receiver) = channel();
        {
            let mut out = TextLines::new(&sender);
            write!(out, "a: 1\nb").unwrap();
            write!(out, ": 2\n\nNodes").unwrap();
            write!(out, " searched: 3").unwrap();
        }
        let lines: Vec<Reply> = receiver.try_iter().collect();
        assert_eq!(
            lines,
            ["a: 1", "b: 2", "", "Nodes searched: 3"].map(|t| Reply::Text(t.into()))
        );
    }

    #[test]
    fn a_sender_whose_receiver_has_gone_takes_replies_quietly() {
        let (sender, receiver) = channel();
        drop(receiver);
        sender.emit(Reply::ReadyOk);
    }
}
