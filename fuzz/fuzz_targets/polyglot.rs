//! Polyglot books: `parse_entries` never panics and reads exactly the whole,
//! sorted inputs; then the entries are probed. Random keys would never
//! match a position, so the input is also read as entries for a few real
//! positions (each key replaced by the polyglot key of the position it
//! picks), which puts the fuzzer's move and weight fields through
//! `decode_move` and `probe`.
#![no_main]

use kiln::book::polyglot::{self, parse_entries, PolyglotEntry, ENTRY_BYTES};
use kiln::book::Book;
use kiln::chess::Position;
use libfuzzer_sys::fuzz_target;

const FENS: [&str; 6] = [
    Position::STARTPOS_FEN,
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

fn probe_all(book: &Book, positions: &[Position]) {
    for pos in positions {
        let moves = book.probe(pos);
        for (i, bm) in moves.iter().enumerate() {
            assert!(pos.is_legal(bm.mv));
            assert!(moves[..i].iter().all(|other| other.mv != bm.mv));
        }
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        match book.choose(pos, total.wrapping_mul(31)) {
            Some(mv) => assert!(moves.iter().any(|bm| bm.mv == mv && bm.weight > 0)),
            None => assert_eq!(total, 0),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let positions: Vec<Position> = FENS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let whole = data.len() % ENTRY_BYTES == 0;
    match parse_entries(data) {
        Ok(entries) => {
            assert!(whole);
            assert_eq!(entries.len(), data.len() / ENTRY_BYTES);
            assert!(entries.windows(2).all(|w| w[0].key <= w[1].key));
            probe_all(&Book::from_polyglot_bytes(data).unwrap(), &positions);
        }
        Err(problem) => assert!(!problem.to_string().is_empty()),
    }
    // The same entries, keyed for the positions above.
    let mut entries: Vec<PolyglotEntry> = data
        .chunks_exact(ENTRY_BYTES)
        .map(|chunk| {
            let mut entry = PolyglotEntry::from_bytes(chunk.try_into().unwrap());
            entry.key = polyglot::polyglot_key(&positions[entry.key as usize % positions.len()]);
            entry
        })
        .collect();
    entries.sort_by_key(|e| e.key);
    let bytes: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
    let book = Book::from_polyglot_bytes(&bytes).expect("sorted whole entries");
    probe_all(&book, &positions);
});
