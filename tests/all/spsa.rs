//! `kiln spsa run`: a local SPSA tune of this build against itself (a tune
//! build: its parameters are UCI options), a few tiny iterations, resumed
//! from its state file; and the errors that stop a tune before it starts.

#[cfg(feature = "tune")]
use std::path::Path;
use std::process::Command;
#[cfg(feature = "tune")]
use std::process::Output;

const KILN: &str = env!("CARGO_BIN_EXE_kiln");

#[cfg(feature = "tune")]
fn spsa_run(state: &Path, extra: &[&str]) -> Output {
    Command::new(KILN)
        .args(["spsa", "run", "--engine", KILN, "--state"])
        .arg(state)
        .args(extra)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The state file's `KEY VALUE` line's value.
#[cfg(feature = "tune")]
fn field<'a>(state: &'a str, key: &str) -> &'a str {
    state
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no {key} in {state}"))
}

#[cfg(feature = "tune")]
#[test]
fn spsa_run_tunes_saves_its_state_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let state_path = dir.path().join("tune.spsa");
    let tune = [
        "--nodes",
        "200",
        "--params",
        "RFP_MARGIN,LMP_BASE",
        "--seed",
        "5",
    ];
    let out = spsa_run(&state_path, &[&tune[..], &["--iterations", "2"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let state = std::fs::read_to_string(&state_path).unwrap();
    assert_eq!(field(&state, "iteration"), "2");
    assert_eq!(field(&state, "iterations"), "2");
    let games: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| field(&state, k).parse::<u64>().unwrap())
        .sum();
    assert_eq!(games, 4, "two iterations of one pair: {state}");
    let params: Vec<Vec<&str>> = state
        .lines()
        .filter(|l| l.starts_with("param "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(params.len(), 2, "{state}");
    for (p, (name, min, max)) in params
        .iter()
        .zip([("RFP_MARGIN", 20, 200), ("LMP_BASE", 0, 12)])
    {
        assert_eq!(p[1], name);
        let value: f64 = p[2].parse().unwrap();
        assert!((min as f64..=max as f64).contains(&value), "{state}");
        assert_eq!(p[3..5], [min.to_string(), max.to_string()]);
    }
    // The final values, for params.rs and for OpenBench.
    let printed = text(&out.stdout);
    let rounded = |name: &str| -> i64 {
        let line = params.iter().find(|p| p[1] == name).unwrap();
        line[2].parse::<f64>().unwrap().round() as i64
    };
    assert!(
        printed.contains(&format!("RFP_MARGIN = {}\n", rounded("RFP_MARGIN"))),
        "{printed}"
    );
    assert!(
        printed.contains(&format!(
            "LMP_BASE, int, {}, 0, 12, 1, 0.002\n",
            rounded("LMP_BASE")
        )),
        "{printed}"
    );

    // Once more, to 3 iterations: it resumes at 2 and plays one.
    let out = spsa_run(&state_path, &[&tune[..], &["--iterations", "3"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = text(&out.stderr);
    assert!(log.contains("resuming"), "{log}");
    assert!(log.contains("iteration 3/3"), "{log}");
    assert!(!log.contains("iteration 1/"), "{log}");
    let state = std::fs::read_to_string(&state_path).unwrap();
    assert_eq!(field(&state, "iteration"), "3");
    assert_eq!(field(&state, "seed"), "5");

    // Another parameter set is another tune: refused, the state untouched.
    let out = spsa_run(&state_path, &["--nodes", "200", "--params", "RFP_MARGIN"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is another tune"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&state_path).unwrap(), state);
}

#[cfg(feature = "tune")]
#[test]
fn spsa_run_stops_on_an_unknown_parameter_before_it_starts() {
    let dir = tempfile::tempdir().unwrap();
    let state_path = dir.path().join("tune.spsa");
    let out = spsa_run(
        &state_path,
        &["--nodes", "200", "--params", "NO_SUCH_PARAM"],
    );
    assert_eq!(out.status.code(), Some(1));
    let log = text(&out.stderr);
    assert!(
        log.contains("no tunable parameter 'NO_SUCH_PARAM'"),
        "{log}"
    );
    assert!(!state_path.exists());
}

#[test]
fn spsa_run_reports_a_missing_engine_or_flag_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let state_path = dir.path().join("tune.spsa");
    let out = Command::new(KILN)
        .args(["spsa", "run", "--engine", "/nonexistent/kiln", "--state"])
        .arg(&state_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let log = text(&out.stderr);
    assert!(
        log.contains("engine /nonexistent/kiln: cannot run it"),
        "{log}"
    );
    assert!(!log.contains("panicked"), "{log}");

    let out = Command::new(KILN)
        .args(["spsa", "run", "--state", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--engine needs a value"));
}

#[cfg(feature = "tune")]
#[test]
fn spsa_run_refuses_a_state_file_that_is_not_one() {
    let dir = tempfile::tempdir().unwrap();
    let state_path = dir.path().join("tune.spsa");
    std::fs::write(&state_path, "version 1\niteration x\n").unwrap();
    let out = spsa_run(&state_path, &["--nodes", "200"]);
    assert_eq!(out.status.code(), Some(1));
    let log = text(&out.stderr);
    assert!(
        log.contains("line 2: iteration 'x' is not a count"),
        "{log}"
    );
    assert!(!log.contains("panicked"), "{log}");
}
