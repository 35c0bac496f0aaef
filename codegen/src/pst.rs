//! Material and piece-square values, read from `codegen/weights/pst.txt`
//! (the format: `weights.rs`; the other evaluation weights are in
//! `eval.txt`). Each table there is drawn from White's point of view as a
//! board is drawn, rank 8 on top, file a on the left; `packed_tables` adds
//! the material value and mirrors each table for Black, so the engine does
//! one lookup per piece and gets a (middlegame, endgame) pair.

use kiln_formats::weights::{Document, ErrorKind, WeightsError, HALF_LIMIT};

/// Piece kinds in table order.
pub const KINDS: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// Where the file is, as error messages name it.
pub const FILE: &str = "codegen/weights/pst.txt";

/// The file's text, compiled in: an edit rebuilds this crate, and with it
/// the build script that runs the generators.
pub const SOURCE: &str = include_str!("../weights/pst.txt");

/// The names of the kinds' tables in the file: `PAWN_MG`, `PAWN_EG`, ...
const TABLE_NAMES: [&str; 6] = ["PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN", "KING"];

/// The values of `pst.txt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSquareValues {
    /// Material (middlegame, endgame) per kind, pawn..king.
    pub material: [(i32, i32); 6],
    /// Game-phase weight per kind: 24 with all minor and major pieces on.
    pub phase_weight: [i32; 6],
    /// Per kind, the (middlegame, endgame) tables as drawn: index 0 is a8,
    /// 7 is h8, 56 is a1.
    pub drawn: [([i32; 64], [i32; 64]); 6],
}

impl PieceSquareValues {
    /// The committed file's values.
    pub fn load() -> Result<PieceSquareValues, WeightsError> {
        PieceSquareValues::from_document(&Document::parse(SOURCE)?)
    }

    /// The values of a parsed `pst.txt`: `MATERIAL` (6 pairs),
    /// `PHASE_WEIGHT` (6 numbers) and `<KIND>_MG`, `<KIND>_EG` (64 numbers
    /// each), nothing else; every table value plus its material must fit a
    /// packed half.
    pub fn from_document(doc: &Document) -> Result<PieceSquareValues, WeightsError> {
        let mut known = vec!["MATERIAL".to_string(), "PHASE_WEIGHT".to_string()];
        for name in TABLE_NAMES {
            known.push(format!("{name}_MG"));
            known.push(format!("{name}_EG"));
        }
        doc.only(&known)?;
        let mut values = PieceSquareValues {
            material: [(0, 0); 6],
            phase_weight: [0; 6],
            drawn: [([0; 64], [0; 64]); 6],
        };
        values
            .material
            .copy_from_slice(doc.entry("MATERIAL")?.pairs(6)?);
        values
            .phase_weight
            .copy_from_slice(doc.entry("PHASE_WEIGHT")?.numbers(6)?);
        for (kind, name) in TABLE_NAMES.iter().enumerate() {
            let (mat_mg, mat_eg) = values.material[kind];
            let (mg, eg) = &mut values.drawn[kind];
            for (table, suffix, material) in [(mg, "MG", mat_mg), (eg, "EG", mat_eg)] {
                let entry = doc.entry(&format!("{name}_{suffix}"))?;
                table.copy_from_slice(entry.numbers(64)?);
                let with_material = table.iter().map(|&v| v as i64 + material as i64);
                if let Some(sum) = with_material
                    .into_iter()
                    .find(|s| s.abs() > HALF_LIMIT as i64)
                {
                    return Err(WeightsError::at(
                        entry.line,
                        ErrorKind::OutOfRange {
                            name: format!("{name}_{suffix} + material"),
                            value: sum,
                        },
                    ));
                }
            }
        }
        Ok(values)
    }

    /// `[piece][square]` with piece = colour * 6 + kind, a1 = 0: material +
    /// position from that piece's owner's point of view, signed so that
    /// White's pieces count positive and Black's negative.
    // `sq` indexes two output rows and, mirrored, two source tables: a range
    // loop says that more plainly than iterators would.
    #[allow(clippy::needless_range_loop)]
    pub fn packed_tables(&self) -> [[(i32, i32); 64]; 12] {
        let mut out = [[(0, 0); 64]; 12];
        for kind in 0..6 {
            let (mg, eg) = &self.drawn[kind];
            let (mat_mg, mat_eg) = self.material[kind];
            for sq in 0..64 {
                // Drawn with rank 8 on top: a white piece on `sq` reads row 7 - rank.
                let (file, rank) = (sq % 8, sq / 8);
                let white_idx = (7 - rank) * 8 + file;
                let black_idx = rank * 8 + file; // the mirror image
                out[kind][sq] = (mat_mg + mg[white_idx], mat_eg + eg[white_idx]);
                out[6 + kind][sq] = (-(mat_mg + mg[black_idx]), -(mat_eg + eg[black_idx]));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_formats::weights::Value;

    #[test]
    fn the_committed_file_is_in_canonical_form() {
        let doc = Document::parse(SOURCE).unwrap();
        assert_eq!(
            doc.to_string(),
            SOURCE,
            "{FILE} is not as the writer writes it"
        );
        let values = PieceSquareValues::load().unwrap();
        assert_eq!(values.phase_weight, [0, 1, 1, 2, 4, 0]);
    }

    #[test]
    fn tables_are_drawn_rank_8_first_and_mirrored_for_black() {
        let values = PieceSquareValues::load().unwrap();
        let tables = values.packed_tables();
        let (mat_mg, mat_eg) = values.material[1];
        let (mg, eg) = &values.drawn[1];
        // a1 = 0 is drawn at index 56 (bottom left), h8 = 63 at index 7.
        assert_eq!(tables[1][0], (mat_mg + mg[56], mat_eg + eg[56]));
        assert_eq!(tables[1][63], (mat_mg + mg[7], mat_eg + eg[7]));
        // Black's knight on a8 is White's on a1, negated.
        assert_eq!(tables[7][56], (-tables[1][0].0, -tables[1][0].1));
    }

    fn with(text: &str, from: &str, to: &str) -> Result<PieceSquareValues, WeightsError> {
        assert!(text.contains(from));
        PieceSquareValues::from_document(&Document::parse(&text.replacen(from, to, 1))?)
    }

    #[test]
    fn a_file_that_does_not_fit_is_refused_naming_the_line() {
        let message = |r: Result<PieceSquareValues, WeightsError>| r.unwrap_err().located(FILE);
        let line = |name: &str| {
            let at = SOURCE.lines().position(|l| l.starts_with(name)).unwrap();
            format!("{FILE}:{}: ", at + 1)
        };
        assert_eq!(
            message(with(
                SOURCE,
                "PHASE_WEIGHT = [0, 1, 1, 2, 4, 0]",
                "PHASE_WEIGHT = [0, 1]"
            )),
            format!(
                "{}`PHASE_WEIGHT` should be an array of 6 numbers, not an array of 2 numbers",
                line("PHASE_WEIGHT")
            )
        );
        assert_eq!(
            message(with(SOURCE, "KNIGHT_MG = [", "KNIGHTS_MG = [")),
            format!(
                "{}`KNIGHTS_MG` is not a weight of this file",
                line("KNIGHT_MG")
            )
        );
        // Material plus a table value beyond a packed half.
        let synthetic = |material: i32, a8: i32| {
            let mut text = format!(
                "MATERIAL = [({material}, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)]\n\
                 PHASE_WEIGHT = [0, 1, 1, 2, 4, 0]\n"
            );
            for name in TABLE_NAMES {
                for suffix in ["MG", "EG"] {
                    let mut cells = vec![0; 64];
                    cells[0] = if name == "PAWN" && suffix == "MG" {
                        a8
                    } else {
                        0
                    };
                    text += &format!("{name}_{suffix} = {}\n", Value::Numbers(cells));
                }
            }
            PieceSquareValues::from_document(&Document::parse(&text)?)
        };
        let fits = synthetic(32767, -5).unwrap();
        assert_eq!(fits.packed_tables()[0][56], (32762, 0));
        assert_eq!(fits.packed_tables()[6][0], (-32762, 0));
        assert_eq!(
            message(synthetic(32767, 1)),
            format!(
                "{FILE}:3: `PAWN_MG + material`: 32768 does not fit a packed (middlegame, endgame) half (±32767)"
            )
        );
        let without_king_eg = &SOURCE[..SOURCE.find("KING_EG = [").unwrap()];
        assert_eq!(
            message(with(without_king_eg, "KING_MG", "KING_MG")),
            format!("{FILE}: `KING_EG` is missing")
        );
    }
}
