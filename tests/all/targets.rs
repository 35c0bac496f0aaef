//! What the test targets leave out: `src/main.rs` has no test binary
//! (`test = false` in Cargo.toml, a fat-LTO link saved), so a test put
//! there would never run; this fails instead.

#[test]
fn the_binary_holds_no_tests() {
    let main = include_str!("../../src/main.rs");
    for marker in ["#[test]", "#[cfg(test)]"] {
        assert!(
            !main.contains(marker),
            "src/main.rs has {marker}, but Cargo.toml builds no test binary of it \
             (test = false): put the test beside the library code it checks"
        );
    }
}
