//! The engine's own commands as the protocol answers them: `bench`,
//! `perft` (also `go perft`) and `genfens`. Here their UCI arguments are
//! read and checked; the work is `crate::commands`'s, its text going to
//! the engine's sink line by line.

use super::error::UciError;
use super::options::CHESS960;
use super::output::Reply;
use super::parse;
use super::sink::TextLines;
use super::Engine;
use crate::commands::bench::{self, MAX_BENCH_DEPTH};
use crate::commands::genfens::genfens;
use crate::commands::perft::{run_divide, MAX_PERFT_DEPTH};
use crate::data::epd::EpdBook;
use crate::search::MAX_THREADS;
use std::sync::Arc;

impl Engine {
    pub(super) fn cmd_bench(&mut self, args: &[&str]) -> Result<(), UciError> {
        self.stop_search();
        let depth = match args.first() {
            None => bench::DEFAULT_BENCH_DEPTH,
            Some(d) => parse::parse_depth("bench", Some(d), 1, MAX_BENCH_DEPTH as u32)? as i32,
        };
        let threads = match args.get(1) {
            None => bench::DEFAULT_BENCH_THREADS,
            Some(t) => match t.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => n,
                _ => {
                    return Err(UciError::BenchThreads {
                        text: t.to_string(),
                        max: MAX_THREADS,
                    })
                }
            },
        };
        let mut out = TextLines::new(self.sink.as_ref());
        bench::run(depth, threads, &self.eval_choice(), &mut out);
        Ok(())
    }

    /// OpenBench's opening generator: `info string genfens <FEN>` lines.
    pub(super) fn cmd_genfens(&mut self, args: &[&str]) -> Result<(), UciError> {
        let request = parse::parse_genfens(args)?;
        let book = match &request.book {
            None => None,
            Some(path) => Some(Arc::new(EpdBook::open(path.as_ref()).map_err(|e| {
                UciError::GenfensBook {
                    path: path.to_string(),
                    reason: e.to_string(),
                }
            })?)),
        };
        // Each line goes out (and, on stdout, is flushed) as it is found.
        let sink = Arc::clone(&self.sink);
        genfens(request.count, request.seed, book, &mut |fen| {
            sink.emit(Reply::Message(format!("genfens {fen}")))
        });
        Ok(())
    }

    pub(super) fn cmd_perft(&mut self, args: &[&str]) -> Result<(), UciError> {
        self.stop_search();
        let depth = parse::parse_depth("perft", args.first().copied(), 0, MAX_PERFT_DEPTH)?;
        let mut out = TextLines::new(self.sink.as_ref());
        run_divide(
            &self.position,
            depth,
            self.options.check(CHESS960),
            &mut out,
        );
        Ok(())
    }
}
