//! The evaluation weights other than material and piece-square values,
//! read from `codegen/weights/eval.txt` (the format: `weights.rs`) and
//! emitted by `emit::eval` into `src/tables/eval.rs`, which `src/eval/`
//! reads. `kiln tune` writes the file back with tuned values.

use kiln_formats::weights::{Document, WeightsError};

/// Where the file is, as error messages name it.
pub const FILE: &str = "codegen/weights/eval.txt";

/// The file's text, compiled in: an edit rebuilds this crate, and with it
/// the build script that runs the generators.
pub const SOURCE: &str = include_str!("../weights/eval.txt");

/// The committed file, parsed.
pub fn document() -> Result<Document, WeightsError> {
    Document::parse(SOURCE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_file_is_in_canonical_form() {
        assert_eq!(
            document().unwrap().to_string(),
            SOURCE,
            "{FILE} is not as the writer writes it"
        );
    }
}
