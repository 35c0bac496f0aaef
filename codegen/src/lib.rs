//! Build-time generators for Kiln. `build.rs` drives them; the engine never
//! links this crate. Every generator is deterministic (fixed seeds, ChaCha20).
//! The evaluation weights are data, `codegen/weights/*.txt`, read with
//! `kiln_formats::weights` (which `kiln tune` uses too, to write them back).

pub mod book;
pub mod emit;
pub mod eval_params;
pub mod geometry;
pub mod lmr;
pub mod magic;
pub mod network;
pub mod pst;
pub mod rules;
pub mod web_assets;
pub mod zobrist;

use std::path::Path;

/// One generated source file under `src/tables/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedFile {
    pub name: &'static str,
    pub contents: String,
}

/// Runs every table generator and returns the files `src/tables/` should
/// hold, or the located error message (`<file>:<line>: <what>`) of a
/// weights file that does not parse or fit.
pub fn generate_tables() -> Result<Vec<GeneratedFile>, String> {
    let eval = eval_params::document()
        .and_then(|doc| emit::eval(&doc))
        .map_err(|e| e.located(eval_params::FILE))?;
    let pst = pst::PieceSquareValues::load().map_err(|e| e.located(pst::FILE))?;
    let knight: Vec<u64> = (0..64).map(geometry::knight_attacks).collect();
    let king: Vec<u64> = (0..64).map(geometry::king_attacks).collect();
    let pawn = [0, 1].map(|c| std::array::from_fn(|sq| geometry::pawn_attacks(c, sq)));
    Ok(vec![
        GeneratedFile {
            name: "mod.rs",
            contents: emit::tables_mod(),
        },
        GeneratedFile {
            name: "attacks.rs",
            contents: emit::attacks(&knight, &king, &pawn),
        },
        GeneratedFile {
            name: "eval.rs",
            contents: eval,
        },
        GeneratedFile {
            name: "lmr.rs",
            contents: emit::lmr(&lmr::ln_table()),
        },
        GeneratedFile {
            name: "magics.rs",
            contents: emit::magics(&magic::find_magics()),
        },
        GeneratedFile {
            name: "zobrist.rs",
            contents: emit::zobrist(&zobrist::keys()),
        },
        GeneratedFile {
            name: "pst.rs",
            contents: emit::pst(&pst),
        },
    ])
}

/// Writes the generated tables into `dir` (normally `src/tables`), touching
/// only files whose contents change; or says why it cannot.
pub fn write_tables(dir: &Path) -> Result<(), String> {
    let files = generate_tables()?;
    let io = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(io)?;
    for file in files {
        let path = dir.join(file.name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(file.contents.as_str()) {
            std::fs::write(&path, file.contents).map_err(io)?;
        }
    }
    Ok(())
}

/// Compiles the book text into a Rust module for `OUT_DIR`, or the located
/// error message (`<source>:<line>: <what>`).
pub fn compile_book_module(text: &str, source: &str) -> Result<String, String> {
    let entries = book::compile(text, &zobrist::keys()).map_err(|e| e.located(source))?;
    Ok(emit::book_module(&entries))
}
