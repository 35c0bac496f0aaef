//! OpenBench's `make EXE=<name> EVALFILE=<path>`: the named network is the
//! one embedded, checked like the committed one. Each case is a whole
//! release build (minutes), so the test is ignored by `cargo test`; run it
//! with `cargo test --release --test all evalfile:: -- --ignored`.

use std::path::Path;
use std::process::{Command, Output};

/// `make` in the repository with `vars`, building into its own target
/// directory so the normal build stays as it is.
fn make(vars: &[&str]) -> Output {
    let root = env!("CARGO_MANIFEST_DIR");
    Command::new("make")
        .current_dir(root)
        .args(vars)
        .env("CARGO_TARGET_DIR", Path::new(root).join("target/evalfile"))
        .output()
        .expect("make runs")
}

fn run(exe: &str, arg: &str) -> String {
    let out = Command::new(exe).arg(arg).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
#[ignore = "a release build per case: run with --ignored"]
fn evalfile_embeds_another_network_and_refuses_a_bad_one() {
    let root = env!("CARGO_MANIFEST_DIR");
    let exe = format!("{root}/target/evalfile/kiln-evalfile");
    let out = make(&[
        &format!("EXE={exe}"),
        &format!("EVALFILE={root}/networks/kiln-3.nnue"),
    ]);
    assert!(out.status.success(), "{out:?}");
    let version = run(&exe, "--version");
    assert!(version.contains("network kiln-3.nnue "), "{version}");
    let bench = run(&exe, "bench");
    let nodes = bench.lines().last().unwrap().split(' ').next().unwrap();
    let committed = include_str!("../../bench.txt").trim();
    assert_ne!(nodes, committed, "another network, the same search?");

    // A file that is no network fails the build, naming the file.
    let out = make(&[&format!("EXE={exe}"), "EVALFILE=openings.txt"]);
    assert!(!out.status.success(), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("openings.txt: "), "{said}");
}
