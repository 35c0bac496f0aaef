//! The bench signature: `kiln bench` (one thread, depth 12, the default
//! evaluation) searches exactly the node count committed in `bench.txt`.
//! Every commit message ends with `Bench: N` for OpenBench; a change of
//! search behaviour must update `bench.txt` in the same commit, so a
//! stale signature fails here instead of misleading a test run.

use crate::common;

use common::engine_path;
use std::process::Command;

/// The count `bench.txt` holds.
fn committed() -> u64 {
    let text = include_str!("../../bench.txt");
    text.trim()
        .parse()
        .unwrap_or_else(|e| panic!("bench.txt: '{}' is no node count: {e}", text.trim()))
}

#[test]
fn the_bench_searches_the_committed_node_count() {
    let out = Command::new(engine_path()).arg("bench").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    // OpenBench reads the last line: `N nodes M nps`.
    let last = text.lines().last().unwrap_or_default();
    let nodes: u64 = last
        .strip_suffix(" nps")
        .and_then(|rest| rest.split(" nodes ").next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no 'N nodes M nps' last line: {last:?}"));
    assert_eq!(
        nodes,
        committed(),
        "kiln bench searched {nodes} nodes; bench.txt says {}: update bench.txt \
         (and the commit's Bench: line) when the search changes",
        committed()
    );
}
