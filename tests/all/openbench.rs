//! `openbench/Kiln.json`, the engine configuration an OpenBench instance
//! loads, held to the rules of OpenBench's loader and form checks (the
//! required fields and their types, the keys each kind of preset may
//! have, the time-control and adjudication forms) and to the engine
//! itself: every option a preset sends is one Kiln accepts, every preset
//! turns Kiln's own book off, the compiler bound is `Cargo.toml`'s
//! `rust-version`, and tunes build from the `tune` branch.

use crate::common;

use common::{errors, Engine};
use serde_json::{Map, Value};

fn config() -> Map<String, Value> {
    let text = include_str!("../../openbench/Kiln.json");
    match serde_json::from_str(text) {
        Ok(Value::Object(map)) => map,
        other => panic!("openbench/Kiln.json is no JSON object: {other:?}"),
    }
}

/// The keys OpenBench accepts in each kind of preset.
const SHARED_KEYS: &[&str] = &[
    "both_branch",
    "both_bench",
    "both_network",
    "both_options",
    "both_time_control",
    "dev_branch",
    "dev_bench",
    "dev_network",
    "dev_options",
    "dev_time_control",
    "book_name",
    "upload_pgns",
    "priority",
    "throughput",
    "syzygy_wdl",
    "syzygy_adj",
    "win_adj",
    "draw_adj",
];
const BASE_KEYS: &[&str] = &[
    "base_branch",
    "base_bench",
    "base_network",
    "base_options",
    "base_time_control",
    "workload_size",
];
const TEST_KEYS: &[&str] = &["test_bounds", "test_confidence", "test_max_games"];
const TUNE_KEYS: &[&str] = &[
    "spsa_reporting_type",
    "spsa_distribution_type",
    "spsa_alpha",
    "spsa_gamma",
    "spsa_A_ratio",
    "spsa_iterations",
    "spsa_pairs_per",
];
const DATAGEN_KEYS: &[&str] = &[
    "datagen_custom_genfens",
    "datagen_play_reverses",
    "datagen_max_games",
];

fn allowed(kind: &str) -> Vec<&'static str> {
    let extra: &[&[&str]] = match kind {
        "test_presets" => &[BASE_KEYS, TEST_KEYS],
        "tune_presets" => &[TUNE_KEYS],
        "datagen_presets" => &[BASE_KEYS, DATAGEN_KEYS],
        other => panic!("no preset kind {other}"),
    };
    let mut keys = SHARED_KEYS.to_vec();
    for more in extra {
        keys.extend_from_slice(more);
    }
    keys
}

/// Each preset of `kind` merged over the kind's `default`, by name.
fn presets(kind: &str) -> Vec<(String, Map<String, Value>)> {
    let config = config();
    let all = config[kind].as_object().unwrap_or_else(|| panic!("{kind}"));
    let default = all["default"].as_object().unwrap().clone();
    all.iter()
        .filter(|(name, _)| *name != "default")
        .map(|(name, preset)| {
            let mut merged = default.clone();
            for (key, value) in preset.as_object().unwrap() {
                merged.insert(key.clone(), value.clone());
            }
            (name.clone(), merged)
        })
        .collect()
}

/// A string field of a merged preset for one side (`dev` or `base`),
/// falling back to `both_`.
fn side<'a>(preset: &'a Map<String, Value>, side: &str, field: &str) -> Option<&'a str> {
    preset
        .get(&format!("{side}_{field}"))
        .or_else(|| preset.get(&format!("both_{field}")))
        .and_then(Value::as_str)
}

/// OpenBench's time-control forms: `N=` nodes, `D=` depth, `MT=` move
/// time, or `[moves/]base[+inc]` in seconds.
fn is_time_control(text: &str) -> bool {
    let number = |s: &str| {
        !s.is_empty()
            && s.split_once('.')
                .map_or(s.bytes().all(|b| b.is_ascii_digit()), |(a, b)| {
                    !a.is_empty()
                        && a.bytes().all(|c| c.is_ascii_digit())
                        && !b.is_empty()
                        && b.bytes().all(|c| c.is_ascii_digit())
                })
    };
    for prefix in ["N=", "D=", "MT="] {
        if let Some(value) = text.strip_prefix(prefix) {
            return !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
        }
    }
    let clock = text.split_once('/').map_or(text, |(moves, rest)| {
        if moves.is_empty() || !moves.bytes().all(|b| b.is_ascii_digit()) {
            ""
        } else {
            rest
        }
    });
    match clock.split_once('+') {
        Some((base, inc)) => number(base) && number(inc),
        None => number(clock),
    }
}

/// `name=value` pairs of an options string.
fn options(text: &str) -> Vec<(&str, &str)> {
    text.split_whitespace()
        .map(|pair| {
            pair.split_once('=')
                .unwrap_or_else(|| panic!("'{pair}' is no name=value"))
        })
        .collect()
}

#[test]
fn the_engine_config_has_the_fields_openbench_requires() {
    let config = config();
    assert_eq!(config["private"], Value::Bool(false));
    assert!(config["nps"].as_u64().is_some_and(|n| n > 0));
    let source = config["source"].as_str().unwrap();
    let repo = source.strip_prefix("https://github.com/").unwrap();
    let parts: Vec<&str> = repo.trim_end_matches('/').split('/').collect();
    assert_eq!(parts.len(), 2, "{source}");
    assert!(parts.iter().all(|p| !p.is_empty()), "{source}");

    let build = config["build"].as_object().unwrap();
    let path = build["path"].as_str().unwrap();
    let makefile = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .join("makefile");
    assert!(makefile.is_file(), "no makefile at build.path '{path}'");
    for list in ["compilers", "cpuflags", "systems"] {
        let items = build[list].as_array().unwrap();
        assert!(items.iter().all(Value::is_string), "{list}");
    }
    // The compiler bound is the crate's own minimum Rust.
    let cargo_toml = include_str!("../../Cargo.toml");
    let rust_version = cargo_toml
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("Cargo.toml declares rust-version");
    assert_eq!(
        build["compilers"],
        serde_json::json!([format!("cargo>={rust_version}")])
    );
}

#[test]
fn every_preset_uses_only_keys_and_forms_openbench_accepts() {
    let config = config();
    for kind in ["test_presets", "tune_presets", "datagen_presets"] {
        let all = config[kind].as_object().unwrap();
        assert!(all.contains_key("default"), "{kind} has no default");
        let keys = allowed(kind);
        for (name, preset) in all {
            for key in preset.as_object().unwrap().keys() {
                assert!(keys.contains(&key.as_str()), "{kind} {name}: key {key}");
            }
        }
        for (name, preset) in presets(kind) {
            let sides: &[&str] = if kind == "tune_presets" {
                &["dev"]
            } else {
                &["dev", "base"]
            };
            for s in sides {
                let tc = side(&preset, s, "time_control").unwrap_or_default();
                assert!(is_time_control(tc), "{kind} {name}: time control '{tc}'");
            }
            for (field, forms) in [
                ("win_adj", &["movecount=", " score="][..]),
                ("draw_adj", &["movenumber=", " movecount=", " score="][..]),
            ] {
                let text = preset[field].as_str().unwrap();
                assert!(
                    text == "None" || forms.iter().all(|f| text.contains(f)),
                    "{kind} {name}: {field} '{text}'"
                );
            }
        }
    }
    for (name, preset) in presets("tune_presets") {
        // Tunes need the parameters as UCI options: the `tune` branch's
        // makefile builds with `--features tune`.
        assert_eq!(preset["dev_branch"], "tune", "tune preset {name}");
    }
}

#[test]
fn every_preset_sends_options_kiln_accepts_and_turns_its_book_off() {
    let mut engine = Engine::start();
    for kind in ["test_presets", "tune_presets", "datagen_presets"] {
        for (name, preset) in presets(kind) {
            for s in ["dev", "base"] {
                let Some(text) = side(&preset, s, "options") else {
                    continue;
                };
                let pairs = options(text);
                for required in ["Threads", "Hash"] {
                    let value = pairs.iter().find(|(n, _)| *n == required);
                    assert!(
                        value.is_some_and(|(_, v)| v.parse::<u32>().is_ok_and(|v| v >= 1)),
                        "{kind} {name}: {required}"
                    );
                }
                assert!(
                    pairs.contains(&("OwnBook", "false")),
                    "{kind} {name}: Kiln's own book must be off"
                );
                for (option, value) in pairs {
                    engine.send(&format!("setoption name {option} value {value}"));
                }
                let lines = engine.sync();
                assert!(errors(&lines).is_empty(), "{kind} {name}: {lines:?}");
            }
        }
    }
}

#[test]
fn time_controls_in_openbench_forms() {
    for good in [
        "10.0+0.1",
        "8+0.08",
        "60",
        "40/60+0.6",
        "N=20000",
        "D=8",
        "MT=500",
    ] {
        assert!(is_time_control(good), "{good}");
    }
    for bad in ["", "N=", "10+", "+0.1", "1.+2", "fast", "N=2k"] {
        assert!(!is_time_control(bad), "{bad}");
    }
}
