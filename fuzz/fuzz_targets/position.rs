//! `position (startpos | fen <FEN>) [moves ...]` arguments: never a panic;
//! what parses is a position reached by legal moves; a refusal has a
//! message. The first byte chooses Chess960 notation.
#![no_main]

use kiln::chess::legal_moves;
use kiln::uci::parse::parse_position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let chess960 = flags & 1 == 1;
    let text = String::from_utf8_lossy(rest);
    let args: Vec<&str> = text.split_whitespace().collect();
    match parse_position(&args, chess960) {
        Ok((pos, keys)) => {
            let moves = args.iter().position(|&w| w == "moves");
            assert_eq!(keys.len(), moves.map_or(0, |i| args.len() - i - 1));
            assert_eq!(pos.key(), pos.compute_key());
            // The position is one play can go on from.
            for mv in legal_moves(&pos).iter() {
                assert!(pos.is_legal(mv));
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
