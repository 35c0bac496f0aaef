//! What `kiln serve` reads from a request: form bodies, the fields of a new
//! game, a PGN to import, and the engines' `info` lines. Never a panic;
//! what parses means what it says (an imported game's moves are legal).
//! JSON is serde_json's, fuzzed by its own project.
#![no_main]

use kiln::data::pgn::{replay, split_games};
use kiln::serve::form::Form;
use kiln::serve::settings::Settings;
use kiln::uci::info_line::InfoLine;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(form) = Form::parse(data) {
        let _ = Settings::from_form(&form);
    }
    let text = String::from_utf8_lossy(data);
    let _ = text.parse::<InfoLine>();
    for game in split_games(&text) {
        if let Ok((start, moves)) = replay(&game) {
            let mut pos = start;
            for mv in moves {
                assert!(pos.is_legal(mv));
                pos.make_move(mv);
            }
        }
    }
});
