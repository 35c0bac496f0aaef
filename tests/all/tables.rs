//! The committed generated tables are what codegen produces now, and
//! generation is deterministic.

use std::path::PathBuf;

#[test]
fn committed_tables_are_up_to_date() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/tables");
    let files = codegen::generate_tables().unwrap_or_else(|message| panic!("{message}"));
    for file in files {
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

/// The base late-move reduction in 1/1024 ply, computed here directly with
/// `f32` logarithms from the two tunable constants, independently of
/// codegen's table of logarithms, so the table is checked against the
/// formula, not against itself.
fn direct_lmr_1024(depth: i32, moves: usize) -> i32 {
    use kiln::search::params::{LMR_BASE, LMR_DIVISOR};
    let base = LMR_BASE() as f32 / 1000.0;
    let divisor = LMR_DIVISOR() as f32 / 1000.0;
    let ln = |x: f32| x.max(1.0).ln();
    ((base + ln(depth as f32) * ln(moves as f32) / divisor) * 1024.0) as i32
}

#[test]
fn lmr_from_its_parameters_equals_the_direct_formula() {
    use kiln::search::reduction::{base_reduction, PLY};
    use kiln::tables::lmr::LMR_LN;
    assert_eq!(LMR_LN.len(), 256);
    assert_eq!(PLY, 1024);
    for depth in 1..128 {
        for moves in 1..256 {
            assert_eq!(
                base_reduction(depth, moves),
                direct_lmr_1024(depth, moves),
                "base_reduction({depth}, {moves})"
            );
        }
    }
    // Below 1 counts as 1; out-of-range inputs clamp.
    for depth in [-5, 0, 1, 7, 127] {
        assert_eq!(base_reduction(depth, 0), direct_lmr_1024(depth, 0));
        assert_eq!(base_reduction(depth, 37), direct_lmr_1024(depth, 37));
    }
    assert_eq!(base_reduction(500, 20), base_reduction(127, 20));
    assert_eq!(base_reduction(20, 10_000), base_reduction(20, 255));
}

#[test]
fn packed_eval_weights_unpack_to_the_codegen_pairs() {
    // The engine's own `mg`/`eg` read back every (mg, eg) pair of
    // `codegen/weights/eval.txt` from the generated weights, and the
    // tuner's layout names every pair constant with its length. The list
    // of constants is codegen's own reading of the file, not a copy.
    use kiln::eval::{eg, mg};
    use kiln::tables::eval::TUNED_CONSTANTS;
    use kiln_formats::weights::Value;
    let doc = codegen::eval_params::document().unwrap_or_else(|e| panic!("{e}"));
    for entry in doc.entries() {
        let name = entry.name.as_str();
        let pairs = match &entry.value {
            Value::Pair(m, e) => vec![(*m, *e)],
            Value::Pairs(v) => v.clone(),
            _ => continue,
        };
        let (_, weights, _) = TUNED_CONSTANTS
            .iter()
            .find(|(n, ..)| *n == name)
            .unwrap_or_else(|| panic!("{name} missing from TUNED_CONSTANTS"));
        let engine: Vec<(i32, i32)> = weights
            .iter()
            .map(|w| (mg(w.packed), eg(w.packed)))
            .collect();
        assert_eq!(engine, pairs, "{name}");
    }
}

#[test]
fn engine_keys_match_the_reference_rules() {
    // The book is keyed by codegen's reference position; the engine must
    // compute the same key for the same position.
    let keys = codegen::zobrist::keys();
    let mut reference = codegen::rules::RefPosition::startpos();
    let mut pos = kiln::chess::Position::startpos();
    for san in [
        "e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6", "Be3", "e5", "Nb3",
        "Be6", "f3", "Be7", "Qd2", "O-O", "O-O-O",
    ] {
        assert_eq!(reference.key(&keys), pos.key(), "before {san}");
        let m = reference.parse_san(san).unwrap();
        reference.play_unchecked(m);
        pos.make_move(kiln::chess::Move::from_bits(m.0));
    }
    assert_eq!(reference.key(&keys), pos.key());
}

#[test]
fn engine_attacks_match_the_reference_geometry() {
    use codegen::geometry;
    use kiln::chess::attacks::*;
    use kiln::chess::{Bitboard, Color, Square};
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for a in 0..64usize {
        let sa = Square::new(a as u8);
        assert_eq!(knight_attacks(sa).0, geometry::knight_attacks(a));
        assert_eq!(king_attacks(sa).0, geometry::king_attacks(a));
        assert_eq!(
            pawn_attacks(Color::White, sa).0,
            geometry::pawn_attacks(0, a)
        );
        assert_eq!(
            pawn_attacks(Color::Black, sa).0,
            geometry::pawn_attacks(1, a)
        );
        for b in 0..64usize {
            let sb = Square::new(b as u8);
            assert_eq!(
                between(sa, sb).0,
                geometry::between(a, b),
                "between {a} {b}"
            );
            assert_eq!(line(sa, sb).0, geometry::line(a, b), "line {a} {b}");
        }
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & x.rotate_left(23);
            assert_eq!(
                rook_attacks(sa, Bitboard(occ)).0,
                geometry::rook_attacks(a, occ)
            );
            assert_eq!(
                bishop_attacks(sa, Bitboard(occ)).0,
                geometry::bishop_attacks(a, occ)
            );
        }
    }
}
