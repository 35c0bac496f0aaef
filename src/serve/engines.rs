//! The live engines: each game (and each analysis) drives its own
//! `uci::Engine` through ordinary UCI commands, and at most `capacity` of
//! them exist at once. When another is needed, the least recently used
//! idle one is parked (dropped: its game record stays, and an engine is
//! made again when the game needs one), or else an analysis is cut short;
//! a game's search is never cut, so a game whose move finds every engine
//! searching waits for one (`PoolFull`).
//!
//! Every reply an engine makes goes, tagged with its seat and the ticket
//! of the search that made it, into one channel that `referee` reads. A
//! new search gets a new ticket, and a stopped one's ticket is withdrawn
//! first, so a late reply of an old search is recognised and dropped.

use crate::uci::{Engine, Reply, Sink};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

/// Whose engine: a game's player, or an analysis (of a game's position,
/// or of one given by FEN), by channel id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    Player(u64),
    Analyst(u64),
}

/// One engine reply, with whose it is and which search made it (ticket 0:
/// none that is wanted).
#[derive(Debug)]
pub struct Note {
    pub seat: Seat,
    pub ticket: u64,
    pub reply: Reply,
}

/// The sink of one live engine.
struct SeatSink {
    seat: Seat,
    ticket: Arc<AtomicU64>,
    notes: Sender<Note>,
}

impl Sink for SeatSink {
    fn emit(&self, reply: Reply) {
        let _ = self.notes.send(Note {
            seat: self.seat,
            ticket: self.ticket.load(Ordering::SeqCst),
            reply,
        });
    }
}

/// Every engine is searching (a game's move) and none can be parked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PoolFull;

struct Live {
    seat: Seat,
    engine: Engine,
    ticket: Arc<AtomicU64>,
    /// A search runs (until its `bestmove` has been taken, `finished`).
    busy: bool,
    last_used: u64,
}

impl Live {
    /// Stops any search and withdraws its ticket.
    fn stop(&mut self) {
        self.ticket.store(0, Ordering::SeqCst);
        self.engine.handle("stop");
        self.busy = false;
    }
}

/// The live engines.
pub struct EnginePool {
    live: Vec<Live>,
    capacity: usize,
    /// Orders uses (least recently used is parked first).
    uses: u64,
    next_ticket: u64,
    notes: Sender<Note>,
    /// Commands every new engine gets first (`setoption ...`).
    setup: Vec<String>,
}

impl EnginePool {
    /// A pool of at most `capacity` engines that send their replies to
    /// `notes` and are set up with `setup` when made.
    pub fn new(capacity: usize, notes: Sender<Note>, setup: Vec<String>) -> EnginePool {
        EnginePool {
            live: Vec::new(),
            capacity: capacity.max(1),
            uses: 0,
            next_ticket: 1,
            notes,
            setup,
        }
    }

    /// How many engines are live.
    pub fn live(&self) -> usize {
        self.live.len()
    }

    /// Is `seat`'s engine live?
    pub fn is_live(&self, seat: Seat) -> bool {
        self.live.iter().any(|l| l.seat == seat)
    }

    /// Makes room for one more engine: parks the least recently used idle
    /// one, or else stops and parks the least recently used analysis.
    fn make_room(&mut self) -> Result<(), PoolFull> {
        if self.live.len() < self.capacity {
            return Ok(());
        }
        let pick = |live: &[Live], idle: bool| {
            live.iter()
                .enumerate()
                .filter(|(_, l)| {
                    if idle {
                        !l.busy
                    } else {
                        matches!(l.seat, Seat::Analyst(_))
                    }
                })
                .min_by_key(|(_, l)| l.last_used)
                .map(|(i, _)| i)
        };
        let victim = pick(&self.live, true)
            .or_else(|| pick(&self.live, false))
            .ok_or(PoolFull)?;
        let mut parked = self.live.swap_remove(victim);
        parked.stop();
        Ok(())
    }

    /// `seat`'s engine, made (and set up) if it is not live.
    fn engine_for(&mut self, seat: Seat) -> Result<&mut Live, PoolFull> {
        let index = match self.live.iter().position(|l| l.seat == seat) {
            Some(index) => index,
            None => {
                self.make_room()?;
                let ticket = Arc::new(AtomicU64::new(0));
                let sink = SeatSink {
                    seat,
                    ticket: Arc::clone(&ticket),
                    notes: self.notes.clone(),
                };
                let mut engine = Engine::with_sink(Arc::new(sink));
                for line in &self.setup {
                    engine.handle(line);
                }
                self.live.push(Live {
                    seat,
                    engine,
                    ticket,
                    busy: false,
                    last_used: 0,
                });
                self.live.len() - 1
            }
        };
        self.uses += 1;
        let live = &mut self.live[index];
        live.last_used = self.uses;
        Ok(live)
    }

    /// Starts a search for `seat`: any search it runs is stopped, then its
    /// engine gets `commands` (options, `position`, `go`). The search's
    /// ticket, or `PoolFull`.
    pub fn start(&mut self, seat: Seat, commands: &[String]) -> Result<u64, PoolFull> {
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        let live = self.engine_for(seat)?;
        live.stop();
        // Replies to the options (none expected) are not wanted either.
        let (go, setup) = commands
            .split_last()
            .map_or((None, commands), |(go, rest)| (Some(go), rest));
        for line in setup {
            live.engine.handle(line);
        }
        live.ticket.store(ticket, Ordering::SeqCst);
        if let Some(go) = go {
            live.engine.handle(go);
        }
        live.busy = true;
        Ok(ticket)
    }

    /// Stops `seat`'s search, if one runs; its late replies carry ticket 0.
    pub fn stop(&mut self, seat: Seat) {
        if let Some(live) = self.live.iter_mut().find(|l| l.seat == seat) {
            if live.busy {
                live.stop();
            }
        }
    }

    /// `seat`'s search with `ticket` has answered: its engine is idle.
    pub fn finished(&mut self, seat: Seat, ticket: u64) {
        if let Some(live) = self
            .live
            .iter_mut()
            .find(|l| l.seat == seat && l.ticket.load(Ordering::SeqCst) == ticket)
        {
            live.busy = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{channel, Receiver};
    use std::time::Duration;

    fn bestmove(notes: &Receiver<Note>) -> Note {
        loop {
            let note = notes
                .recv_timeout(Duration::from_secs(60))
                .expect("a reply");
            if note.reply.best_move().is_some() {
                return note;
            }
        }
    }

    fn search(nodes: u32) -> Vec<String> {
        vec![
            "position startpos moves e2e4".to_string(),
            format!("go nodes {nodes}"),
        ]
    }

    #[test]
    fn engines_are_parked_least_recently_used_first_and_searches_are_never_cut() {
        let (sender, notes) = channel();
        let setup = vec!["setoption name Hash value 1".to_string()];
        let mut pool = EnginePool::new(2, sender, setup);
        let first = pool.start(Seat::Player(1), &search(500)).unwrap();
        let note = bestmove(&notes);
        assert_eq!((note.seat, note.ticket), (Seat::Player(1), first));
        pool.finished(Seat::Player(1), first);
        let second = pool.start(Seat::Player(2), &search(500)).unwrap();
        assert_eq!(bestmove(&notes).ticket, second);
        // Both engines live; game 2's has not answered as far as the pool
        // knows, so game 1's (idle) is parked for game 3.
        let third = pool.start(Seat::Player(3), &search(500)).unwrap();
        assert!(!pool.is_live(Seat::Player(1)) && pool.is_live(Seat::Player(2)));
        assert_eq!(bestmove(&notes).ticket, third);
        // Every engine busy with a game: no room.
        assert_eq!(pool.start(Seat::Player(4), &search(500)), Err(PoolFull));
        pool.finished(Seat::Player(2), second);
        assert!(pool.start(Seat::Player(4), &search(500)).is_ok());
        assert_eq!(pool.live(), 2);
    }

    #[test]
    fn a_stopped_analysis_answers_with_ticket_zero_and_gives_way_to_a_game() {
        let (sender, notes) = channel();
        let mut pool = EnginePool::new(1, sender, vec!["setoption name Hash value 1".into()]);
        let infinite = vec!["position startpos".to_string(), "go infinite".to_string()];
        let ticket = pool.start(Seat::Analyst(9), &infinite).unwrap();
        assert!(ticket > 0);
        // The game's search parks the analysis (stopped: its bestmove comes
        // with ticket 0).
        let game = pool.start(Seat::Player(1), &search(200)).unwrap();
        assert!(!pool.is_live(Seat::Analyst(9)));
        let mut tickets = Vec::new();
        while tickets.len() < 2 {
            tickets.push(bestmove(&notes).ticket);
        }
        assert_eq!(tickets, [0, game]);
    }
}
