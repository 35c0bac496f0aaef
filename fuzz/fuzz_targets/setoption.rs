//! `setoption` arguments: never a panic; what parses is a value of the
//! option's type in its range, which can be stored; a refusal has a message.
#![no_main]

use kiln::uci::options::{parse_setoption, OptionKind, OptionValue, Options};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let args: Vec<&str> = text.split_whitespace().collect();
    match parse_setoption(&args) {
        Ok((spec, value)) => {
            match (spec.kind, &value) {
                (OptionKind::Spin { min, max, .. }, OptionValue::Spin(v)) => {
                    assert!((min..=max).contains(v))
                }
                (OptionKind::Check { .. }, OptionValue::Check(_))
                | (OptionKind::Button, OptionValue::Button)
                | (OptionKind::Text { .. }, OptionValue::Text(_)) => {}
                (kind, value) => panic!("{value:?} for {kind:?}"),
            }
            Options::default().set(spec, &value);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
