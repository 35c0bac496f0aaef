//! FEN parsing: never a panic; a FEN that parses round-trips through
//! `to_fen`; a refusal has a message.
#![no_main]

use kiln::chess::{legal_moves, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match Position::from_fen(&text) {
        Ok(pos) => {
            let fen = pos.to_fen();
            assert_eq!(Position::from_fen(&fen), Ok(pos), "{text:?} -> {fen}");
            assert_eq!(pos.key(), pos.compute_key());
            for mv in legal_moves(&pos).iter() {
                let mut next = pos;
                next.make_move(mv);
                assert_eq!(next.key(), next.compute_key(), "{mv} in {fen}");
            }
        }
        Err(e) => assert!(e.to_string().len() > "invalid FEN: ".len()),
    }
});
