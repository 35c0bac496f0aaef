//! The datagen run: one player per thread, each playing its own games
//! (own table, own seed) and appending whole records to one file, until
//! the game or position count is reached; progress goes to a log.

use super::config::Config;
use super::game::play;
use crate::data::append::{open_for_append, Counts};
use crate::data::format::{encode_game, DataError};
use crate::rng::Rng;
use crate::selfplay::Player;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often progress goes to the log.
const PROGRESS_INTERVAL: Duration = Duration::from_secs(5);

/// A thread gives up (and the run fails with `DataError::NoUsableStart`)
/// after this many start positions in a row could not be played: a book of
/// decided or finished positions would otherwise spin for ever. With a
/// usable book rejections are a minority, so a thousand in a row never
/// happen by chance.
const MAX_REJECTED_STARTS_IN_A_ROW: usize = 1_000;

/// Runs `kiln datagen`: plays until the game or position count is reached
/// (or forever), printing progress to `progress`. Returns what this run wrote.
pub fn run(config: &Config, progress: &mut impl Write) -> Result<Counts, DataError> {
    let out = open_for_append(&config.out)?;
    let _ = writeln!(
        progress,
        "datagen: {}, {} threads, {} soft nodes, {} random plies, eval {}, seed {}",
        out.describe(&config.out),
        config.threads,
        config.soft_nodes,
        config.random_plies,
        config.teacher,
        config.seed
    );
    let existing = out.existing;
    let file = Mutex::new(out.file);
    let games = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<DataError>> = Mutex::new(None);
    // The first error of any thread ends the run: it is kept and all stop.
    let fail = |error: DataError| {
        failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(error);
        stop.store(true, Ordering::Relaxed);
    };
    let start = Instant::now();
    let done = || {
        config
            .games
            .is_some_and(|n| games.load(Ordering::Relaxed) >= n)
            || config
                .positions
                .is_some_and(|n| positions.load(Ordering::Relaxed) >= n)
    };
    std::thread::scope(|scope| {
        for thread in 0..config.threads.max(1) {
            let (file, games, positions, stop, fail) = (&file, &games, &positions, &stop, &fail);
            scope.spawn(move || {
                let mut rng = Rng::new(thread_seed(config.seed, thread, existing.games));
                let mut player =
                    Player::new(config.hash_mb, config.soft_nodes, config.teacher.eval());
                let mut rejected_in_a_row = 0;
                while !stop.load(Ordering::Relaxed) && !done() {
                    let Some(game) = play(&mut player, config, &mut rng) else {
                        rejected_in_a_row += 1;
                        if rejected_in_a_row >= MAX_REJECTED_STARTS_IN_A_ROW {
                            fail(DataError::NoUsableStart {
                                tries: rejected_in_a_row,
                            });
                        }
                        continue;
                    };
                    rejected_in_a_row = 0;
                    let record = encode_game(&game);
                    let mut out = file.lock().unwrap_or_else(|e| e.into_inner());
                    if stop.load(Ordering::Relaxed) || done() {
                        break;
                    }
                    // One write of a whole record: a crash leaves at most a
                    // partial tail, which the next run cuts off.
                    if let Err(e) = out.write_all(&record) {
                        fail(e.into());
                        break;
                    }
                    games.fetch_add(1, Ordering::Relaxed);
                    positions.fetch_add(game.plies.len() as u64, Ordering::Relaxed);
                    drop(out);
                    if done() {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
        let mut last_report = Instant::now();
        while !stop.load(Ordering::Relaxed) && !done() {
            std::thread::sleep(Duration::from_millis(50));
            if last_report.elapsed() >= PROGRESS_INTERVAL {
                last_report = Instant::now();
                report_progress(progress, &games, &positions, start);
            }
        }
    });
    report_progress(progress, &games, &positions, start);
    if let Some(error) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    file.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .flush()?;
    Ok(Counts {
        games: games.load(Ordering::Relaxed),
        positions: positions.load(Ordering::Relaxed),
    })
}

/// The seed of one thread's random numbers: the run's `--seed`, the
/// thread's number, and how many games the file already held. The last
/// makes a resumed run (same seed, same file) play new games instead of
/// replaying the ones it appends to, while a run on the same file state
/// still repeats exactly. A new file (0 games) gives the seeds runs always
/// had.
fn thread_seed(seed: u64, thread: usize, existing_games: u64) -> u64 {
    seed ^ (thread as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)
        ^ existing_games.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn report_progress(
    progress: &mut impl Write,
    games: &AtomicU64,
    positions: &AtomicU64,
    start: Instant,
) {
    let secs = start.elapsed().as_secs_f64();
    let n = positions.load(Ordering::Relaxed);
    let _ = writeln!(
        progress,
        "games {} positions {} positions/s {:.0} elapsed {:.0} s",
        games.load(Ordering::Relaxed),
        n,
        n as f64 / secs.max(1e-9),
        secs
    );
}
