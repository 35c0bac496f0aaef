//! Build driver. The chess logic lives in the `codegen` crate; this file only
//! lists the steps.

use std::env;
use std::path::PathBuf;

fn main() {
    regenerate_tables_if_requested();
    compile_opening_book();
    embed_network();
    embed_web_page();
    record_target_features();
}

/// The network the binary carries (committed; see `docs/network.md`).
const NETWORK: &str = "networks/kiln-9.nnue";

/// Checks the network and embeds it: the committed one, or the file the
/// `EVALFILE` environment variable names (OpenBench's `make EVALFILE=...`
/// passes it on; a relative path is from the repository root). A damaged
/// or mismatched file fails the build with `<file>: <what>`.
fn embed_network() {
    println!("cargo:rerun-if-env-changed=EVALFILE");
    let chosen = env::var("EVALFILE").ok().filter(|f| !f.trim().is_empty());
    let shown = chosen.as_deref().unwrap_or(NETWORK);
    let path = manifest_dir().join(shown);
    println!("cargo:rerun-if-changed={}", path.display());
    match codegen::network::network_module(&path, shown) {
        Ok(embedding) => {
            write_out("network.rs", &embedding.module);
            write_out_bytes(codegen::network::INPUT_IMAGE_FILE, &embedding.input_image);
        }
        Err(message) => {
            println!("cargo:warning={message}");
            eprintln!("error: {message}");
            std::process::exit(1);
        }
    }
}

/// The weights files the generators read (`codegen` compiles them in).
const WEIGHTS_FILES: [&str; 2] = ["codegen/weights/eval.txt", "codegen/weights/pst.txt"];

/// `cargo build --features regen` reruns the generators (magic search,
/// Zobrist keys, PST, evaluation weights, LMR) and rewrites the committed
/// `src/tables/`; a weights file that does not parse fails the build with
/// `codegen/weights/<file>:LINE: <what>`.
fn regenerate_tables_if_requested() {
    if env::var_os("CARGO_FEATURE_REGEN").is_some() {
        for file in WEIGHTS_FILES {
            println!(
                "cargo:rerun-if-changed={}",
                manifest_dir().join(file).display()
            );
        }
        let dir = manifest_dir().join("src").join("tables");
        if let Err(message) = codegen::write_tables(&dir) {
            println!("cargo:warning={message}");
            eprintln!("error: {message}");
            std::process::exit(1);
        }
    }
}

/// Replays `openings.txt` and embeds the compiled book; a bad line fails the
/// build with `openings.txt:LINE: <what> after <moves>`.
fn compile_opening_book() {
    let path = manifest_dir().join("openings.txt");
    println!("cargo:rerun-if-changed={}", path.display());
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("error: openings.txt: cannot read {}: {e}", path.display());
            std::process::exit(1);
        }
    };
    match codegen::compile_book_module(&text, "openings.txt") {
        Ok(module) => write_out("book.rs", &module),
        Err(message) => {
            println!("cargo:warning={message}");
            eprintln!("error: {message}");
            std::process::exit(1);
        }
    }
}

/// Embeds the browser page of `kiln serve`: every file under `web/`, as a
/// table of (path, bytes, content type). A file of an unknown kind fails
/// the build with `web/<file>: <what>`.
fn embed_web_page() {
    let dir = manifest_dir().join("web");
    println!("cargo:rerun-if-changed={}", dir.display());
    match codegen::web_assets::assets_module(&dir) {
        Ok(module) => write_out("web_assets.rs", &module),
        Err(message) => {
            println!("cargo:warning={message}");
            eprintln!("error: {message}");
            std::process::exit(1);
        }
    }
}

/// The CPU features the engine is compiled for, read from the target (not
/// the host), so `kiln` can say what it assumes.
fn record_target_features() {
    let features = env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let wanted = ["popcnt", "bmi1", "bmi2", "lzcnt", "avx2", "sse4.2", "neon"];
    let present: Vec<&str> = features.split(',').filter(|f| wanted.contains(f)).collect();
    write_out(
        "target_features.rs",
        &format!(
            "pub const TARGET_FEATURES: &str = {:?};\n",
            present.join(" ")
        ),
    );
}

fn manifest_dir() -> PathBuf {
    PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
}

fn write_out(name: &str, contents: &str) {
    write_out_bytes(name, contents.as_bytes());
}

/// `write_out` for bytes.
fn write_out_bytes(name: &str, contents: &[u8]) {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join(name);
    if std::fs::read(&out).ok().as_deref() != Some(contents) {
        std::fs::write(&out, contents).expect("writing to OUT_DIR");
    }
}
