//! The committed generated tables are what codegen produces now, and
//! generation is deterministic.

use std::path::PathBuf;

#[test]
fn committed_tables_are_up_to_date() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/tables");
    for file in codegen::generate_tables() {
        let path = dir.join(file.name);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == file.contents,
            "src/tables/{} is stale: it differs from what codegen generates. \
             Regenerate with `cargo build --features regen` and commit the diff.",
            file.name
        );
    }
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(codegen::generate_tables(), codegen::generate_tables());
}

#[test]
fn engine_keys_match_the_reference_rules() {
    // The book is keyed by codegen's reference position; the engine must
    // compute the same key for the same position.
    let keys = codegen::zobrist::keys();
    let mut reference = codegen::rules::RefPosition::startpos();
    let mut pos = kiln::chess::Position::startpos();
    for san in ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5", "Nb3", "Be6", "f3", "Be7", "Qd2", "O-O", "O-O-O"] {
        assert_eq!(reference.key(&keys), pos.key(), "before {san}");
        let m = reference.parse_san(san).unwrap();
        reference.play_unchecked(m);
        pos.make_move(kiln::chess::Move::from_bits(m.0));
    }
    assert_eq!(reference.key(&keys), pos.key());
}
