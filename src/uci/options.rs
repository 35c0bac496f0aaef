//! The UCI options, declared once in `OPTIONS`: the `uci` listing, the
//! defaults and the `setoption` parsing are all driven by that table. In a
//! build with the `tune` feature, `all()` adds a spin option for every
//! tunable search parameter, declared in `search::params` (see `TUNABLES`).

use super::error::UciError;
use crate::nnue::USE_NNUE_DEFAULT;
#[cfg(feature = "tune")]
use crate::search::params::TUNABLES;
use crate::search::skill::{SKILL_LEVEL_COUNT, SKILL_MAX_ELO, SKILL_MIN_ELO};
use crate::search::time::DEFAULT_MOVE_OVERHEAD_MS;
use crate::search::tt::MAX_HASH_MB;
use crate::search::MAX_THREADS;
use crate::syzygy::DEFAULT_PROBE_LIMIT;

/// The type of an option, with its default and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// A text option; the empty default is listed as `<empty>`.
    Text {
        default: &'static str,
    },
}

/// Which option: the engine matches on this, never on the name's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionId {
    Hash,
    Threads,
    MoveOverhead,
    ClearHash,
    Ponder,
    MultiPv,
    ShowWdl,
    LimitStrength,
    Elo,
    SkillLevel,
    Chess960,
    OwnBook,
    BookDepth,
    BookFile,
    SyzygyPath,
    SyzygyProbeLimit,
    UseNnue,
    EvalFile,
    /// A search parameter (tune builds): its index in `TUNABLES`.
    #[cfg(feature = "tune")]
    Tunable(usize),
}

/// One option as `uci` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub id: OptionId,
    pub name: &'static str,
    pub kind: OptionKind,
}

/// A parsed `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Spin(i64),
    Check(bool),
    Button,
    Text(String),
}

/// Every option Kiln has.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        id: OptionId::Hash,
        name: "Hash",
        kind: OptionKind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB as i64,
        },
    },
    OptionSpec {
        id: OptionId::Threads,
        name: "Threads",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as i64,
        },
    },
    OptionSpec {
        id: OptionId::MoveOverhead,
        name: "Move Overhead",
        kind: OptionKind::Spin {
            default: DEFAULT_MOVE_OVERHEAD_MS as i64,
            min: 0,
            max: 5_000,
        },
    },
    OptionSpec {
        id: OptionId::ClearHash,
        name: "Clear Hash",
        kind: OptionKind::Button,
    },
    OptionSpec {
        id: OptionId::Ponder,
        name: "Ponder",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        id: OptionId::MultiPv,
        name: "MultiPV",
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    // `wdl W D L` in every `info` line with a score (`search::wdl`).
    OptionSpec {
        id: OptionId::ShowWdl,
        name: "UCI_ShowWDL",
        kind: OptionKind::Check { default: false },
    },
    // Strength limiting (`search::skill`): `UCI_Elo` decides while
    // `UCI_LimitStrength` is on, `Skill Level` otherwise; the maximum of
    // either is full strength.
    OptionSpec {
        id: OptionId::LimitStrength,
        name: "UCI_LimitStrength",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        id: OptionId::Elo,
        name: "UCI_Elo",
        kind: OptionKind::Spin {
            default: SKILL_MAX_ELO,
            min: SKILL_MIN_ELO,
            max: SKILL_MAX_ELO,
        },
    },
    OptionSpec {
        id: OptionId::SkillLevel,
        name: "Skill Level",
        kind: OptionKind::Spin {
            default: SKILL_LEVEL_COUNT,
            min: 0,
            max: SKILL_LEVEL_COUNT,
        },
    },
    OptionSpec {
        id: OptionId::Chess960,
        name: "UCI_Chess960",
        kind: OptionKind::Check { default: false },
    },
    OptionSpec {
        id: OptionId::OwnBook,
        name: "OwnBook",
        kind: OptionKind::Check { default: true },
    },
    OptionSpec {
        id: OptionId::BookDepth,
        name: "BookDepth",
        kind: OptionKind::Spin {
            default: 24,
            min: 0,
            max: 200,
        },
    },
    OptionSpec {
        id: OptionId::BookFile,
        name: "BookFile",
        kind: OptionKind::Text { default: "" },
    },
    OptionSpec {
        id: OptionId::SyzygyPath,
        name: "SyzygyPath",
        kind: OptionKind::Text { default: "" },
    },
    OptionSpec {
        id: OptionId::SyzygyProbeLimit,
        name: "SyzygyProbeLimit",
        kind: OptionKind::Spin {
            default: DEFAULT_PROBE_LIMIT as i64,
            min: 0,
            max: DEFAULT_PROBE_LIMIT as i64,
        },
    },
    // The evaluation (`crate::nnue`): the network, or the hand-written one
    // when `UseNNUE` is off. An empty `EvalFile` is the embedded network.
    OptionSpec {
        id: OptionId::UseNnue,
        name: "UseNNUE",
        kind: OptionKind::Check {
            default: USE_NNUE_DEFAULT,
        },
    },
    OptionSpec {
        id: OptionId::EvalFile,
        name: "EvalFile",
        kind: OptionKind::Text { default: "" },
    },
];

impl OptionSpec {
    /// The option's `uci` line.
    pub fn uci_line(&self) -> String {
        let name = self.name;
        match self.kind {
            OptionKind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            OptionKind::Check { default } => {
                format!("option name {name} type check default {default}")
            }
            OptionKind::Button => format!("option name {name} type button"),
            OptionKind::Text { default } => {
                let shown = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                format!("option name {name} type string default {shown}")
            }
        }
    }

    /// The default as a value.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Check { default } => OptionValue::Check(default),
            OptionKind::Button => OptionValue::Button,
            OptionKind::Text { default } => OptionValue::Text(default.to_string()),
        }
    }

    /// Parses a `setoption` value for this option.
    pub fn parse_value(&self, value: &str) -> Result<OptionValue, UciError> {
        let text = value.trim();
        match self.kind {
            OptionKind::Spin { min, max, .. } => match text.parse::<i64>() {
                Ok(v) if (min..=max).contains(&v) => Ok(OptionValue::Spin(v)),
                Ok(v) => Err(UciError::OptionOutOfRange {
                    name: self.name,
                    value: v,
                    min,
                    max,
                }),
                Err(_) => Err(UciError::OptionNotANumber {
                    name: self.name,
                    value: text.to_string(),
                    min,
                    max,
                }),
            },
            OptionKind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(UciError::OptionNotABool {
                    name: self.name,
                    value: text.to_string(),
                }),
            },
            OptionKind::Button => Ok(OptionValue::Button),
            OptionKind::Text { .. } => {
                // GUIs send the listed default back for "empty".
                let text = if text == "<empty>" { "" } else { text };
                Ok(OptionValue::Text(text.to_string()))
            }
        }
    }
}

/// Every option, in `uci` order: `OPTIONS`, then (tune builds) the search
/// parameters.
pub fn all() -> impl Iterator<Item = &'static OptionSpec> {
    let options = OPTIONS.iter();
    #[cfg(feature = "tune")]
    let options = options.chain(tunable_options());
    options
}

/// A spin option per tunable search parameter, with its range and default.
#[cfg(feature = "tune")]
fn tunable_options() -> &'static [OptionSpec] {
    static SPECS: std::sync::LazyLock<Vec<OptionSpec>> = std::sync::LazyLock::new(|| {
        TUNABLES
            .iter()
            .enumerate()
            .map(|(i, t)| OptionSpec {
                id: OptionId::Tunable(i),
                name: t.name,
                kind: OptionKind::Spin {
                    default: t.default,
                    min: t.min,
                    max: t.max,
                },
            })
            .collect()
    });
    &SPECS
}

/// The option named `name` (UCI option names are case-insensitive).
pub fn find(name: &str) -> Option<&'static OptionSpec> {
    all().find(|spec| spec.name.eq_ignore_ascii_case(name))
}

/// Parses `setoption name <name words> [value <value words>]`.
pub fn parse_setoption(args: &[&str]) -> Result<(&'static OptionSpec, OptionValue), UciError> {
    if args.first() != Some(&"name") || args.len() < 2 {
        return Err(UciError::SetoptionSyntax);
    }
    let value_at = args.iter().position(|&t| t == "value");
    let name = args[1..value_at.unwrap_or(args.len())].join(" ");
    let value = value_at
        .map(|i| args[i + 1..].join(" "))
        .unwrap_or_default();
    let spec = find(&name).ok_or(UciError::UnknownOption(name))?;
    Ok((spec, spec.parse_value(&value)?))
}

/// The options' current values, in the types the engine uses. (A search
/// parameter's value lives in its `TUNABLES` entry, shared by the process.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: usize,
    pub threads: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
    pub multipv: usize,
    /// `UCI_ShowWDL`: info lines carry the expected win/draw/loss shares.
    pub show_wdl: bool,
    /// `UCI_LimitStrength`: play at `elo`, not at `skill_level`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: i64,
    /// `Skill Level`.
    pub skill_level: i64,
    pub chess960: bool,
    pub own_book: bool,
    pub book_depth: u32,
    /// Empty: the embedded book.
    pub book_file: String,
    /// Directories of Syzygy tables, `:`-separated; empty: none.
    pub syzygy_path: String,
    /// Positions with more pieces are not probed (0: no probes).
    pub syzygy_probe_limit: u32,
    /// `UseNNUE`: the network evaluates, not the hand-written evaluation.
    pub use_nnue: bool,
    /// A network file to use; empty: the embedded network.
    pub eval_file: String,
}

impl Default for Options {
    /// Every option at the default its `OPTIONS` entry lists.
    fn default() -> Self {
        let mut options = Options {
            hash_mb: 0,
            threads: 0,
            move_overhead_ms: 0,
            ponder: false,
            multipv: 0,
            show_wdl: false,
            limit_strength: false,
            elo: 0,
            skill_level: 0,
            chess960: false,
            own_book: false,
            book_depth: 0,
            book_file: String::new(),
            syzygy_path: String::new(),
            syzygy_probe_limit: 0,
            use_nnue: false,
            eval_file: String::new(),
        };
        for spec in OPTIONS {
            options.set(spec, &spec.default_value());
        }
        options
    }
}

impl Options {
    /// Stores a value already checked against `spec` (buttons store nothing).
    pub fn set(&mut self, spec: &OptionSpec, value: &OptionValue) {
        // Spin values are within their (small, non-negative) ranges.
        let spin = |value: &OptionValue| match value {
            OptionValue::Spin(v) => *v,
            _ => unreachable!("{} is a spin option", spec.name),
        };
        let check = |value: &OptionValue| match value {
            OptionValue::Check(b) => *b,
            _ => unreachable!("{} is a check option", spec.name),
        };
        match spec.id {
            OptionId::Hash => self.hash_mb = spin(value) as usize,
            OptionId::Threads => self.threads = spin(value) as usize,
            OptionId::MoveOverhead => self.move_overhead_ms = spin(value) as u64,
            OptionId::MultiPv => self.multipv = spin(value) as usize,
            OptionId::Elo => self.elo = spin(value),
            OptionId::SkillLevel => self.skill_level = spin(value),
            OptionId::LimitStrength => self.limit_strength = check(value),
            OptionId::BookDepth => self.book_depth = spin(value) as u32,
            OptionId::SyzygyProbeLimit => self.syzygy_probe_limit = spin(value) as u32,
            OptionId::Ponder => self.ponder = check(value),
            OptionId::ShowWdl => self.show_wdl = check(value),
            OptionId::Chess960 => self.chess960 = check(value),
            OptionId::OwnBook => self.own_book = check(value),
            OptionId::UseNnue => self.use_nnue = check(value),
            OptionId::EvalFile => {
                if let OptionValue::Text(path) = value {
                    self.eval_file = path.clone();
                }
            }
            OptionId::BookFile => {
                if let OptionValue::Text(path) = value {
                    self.book_file = path.clone();
                }
            }
            OptionId::SyzygyPath => {
                if let OptionValue::Text(path) = value {
                    self.syzygy_path = path.clone();
                }
            }
            OptionId::ClearHash => {}
            #[cfg(feature = "tune")]
            OptionId::Tunable(i) => TUNABLES[i].set(spin(value)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setoption(line: &str) -> Result<(&'static OptionSpec, OptionValue), UciError> {
        let args: Vec<&str> = line.split_whitespace().collect();
        parse_setoption(&args)
    }

    #[test]
    fn every_option_is_accepted_at_its_bounds_and_rejected_outside() {
        for spec in OPTIONS {
            let name = spec.name;
            let mut options = Options::default();
            match spec.kind {
                OptionKind::Spin { min, max, default } => {
                    assert!((min..=max).contains(&default), "{name}");
                    for v in [min, max, default] {
                        let (found, value) = setoption(&format!("name {name} value {v}")).unwrap();
                        assert_eq!(found, spec);
                        assert_eq!(value, OptionValue::Spin(v));
                        options.set(found, &value);
                    }
                    for v in [min - 1, max + 1] {
                        assert_eq!(
                            setoption(&format!("name {name} value {v}")),
                            Err(UciError::OptionOutOfRange {
                                name,
                                value: v,
                                min,
                                max
                            })
                        );
                    }
                    for bad in ["abc", "1.5", ""] {
                        assert!(matches!(
                            setoption(&format!("name {name} value {bad}")),
                            Err(UciError::OptionNotANumber { .. })
                        ));
                    }
                }
                OptionKind::Check { .. } => {
                    for (text, b) in [("true", true), ("FALSE", false)] {
                        let (found, value) =
                            setoption(&format!("name {name} value {text}")).unwrap();
                        assert_eq!(value, OptionValue::Check(b));
                        options.set(found, &value);
                    }
                    assert!(matches!(
                        setoption(&format!("name {name} value yes")),
                        Err(UciError::OptionNotABool { .. })
                    ));
                }
                OptionKind::Button => {
                    assert_eq!(
                        setoption(&format!("name {name}")).unwrap().1,
                        OptionValue::Button
                    );
                }
                OptionKind::Text { .. } => {
                    let (_, value) =
                        setoption(&format!("name {name} value some file.txt")).unwrap();
                    assert_eq!(value, OptionValue::Text("some file.txt".into()));
                    let (_, empty) = setoption(&format!("name {name} value <empty>")).unwrap();
                    assert_eq!(empty, OptionValue::Text(String::new()));
                }
            }
        }
    }

    #[test]
    fn values_reach_the_options() {
        let mut options = Options::default();
        for line in [
            "name hash value 64",
            "name Threads value 3",
            "name move overhead value 75",
            "name MultiPV value 4",
            "name uci_limitstrength value true",
            "name UCI_Elo value 1234",
            "name skill level value 3",
            "name bookdepth value 7",
            "name Ponder value true",
            "name uci_chess960 value true",
            "name OwnBook value false",
            "name BookFile value /tmp/x.txt",
            "name SyzygyPath value /tb/345:/tb/6",
            "name syzygyprobelimit value 5",
            "name usennue value false",
            "name EvalFile value nets/my net.nnue",
            "name UCI_ShowWDL value true",
        ] {
            let (spec, value) = setoption(line).unwrap();
            options.set(spec, &value);
        }
        assert_eq!(
            options,
            Options {
                hash_mb: 64,
                threads: 3,
                move_overhead_ms: 75,
                ponder: true,
                multipv: 4,
                show_wdl: true,
                limit_strength: true,
                elo: 1234,
                skill_level: 3,
                chess960: true,
                own_book: false,
                book_depth: 7,
                book_file: "/tmp/x.txt".into(),
                syzygy_path: "/tb/345:/tb/6".into(),
                syzygy_probe_limit: 5,
                use_nnue: false,
                eval_file: "nets/my net.nnue".into(),
            }
        );
    }

    #[test]
    fn defaults_come_from_the_table() {
        let options = Options::default();
        assert_eq!(options.hash_mb, 16);
        assert_eq!(options.move_overhead_ms, DEFAULT_MOVE_OVERHEAD_MS);
        assert!(options.own_book);
        assert_eq!(options.book_depth, 24);
        assert_eq!(
            (options.syzygy_path.as_str(), options.syzygy_probe_limit),
            ("", 7)
        );
        assert_eq!(
            find("SyzygyProbeLimit").unwrap().uci_line(),
            "option name SyzygyProbeLimit type spin default 7 min 0 max 7"
        );
        assert_eq!(
            find("move overhead").unwrap().uci_line(),
            format!("option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max 5000")
        );
        assert_eq!(
            find("BookFile").unwrap().uci_line(),
            "option name BookFile type string default <empty>"
        );
        // Full strength by default.
        assert!(!options.limit_strength);
        assert_eq!((options.elo, options.skill_level), (2_800, 20));
        assert_eq!(
            find("UCI_Elo").unwrap().uci_line(),
            "option name UCI_Elo type spin default 2800 min 1000 max 2800"
        );
        assert_eq!(
            find("skill level").unwrap().uci_line(),
            "option name Skill Level type spin default 20 min 0 max 20"
        );
        assert_eq!(
            find("UCI_LimitStrength").unwrap().uci_line(),
            "option name UCI_LimitStrength type check default false"
        );
        assert!(!options.show_wdl);
        assert_eq!(
            find("uci_showwdl").unwrap().uci_line(),
            "option name UCI_ShowWDL type check default false"
        );
    }

    #[cfg(feature = "tune")]
    #[test]
    fn search_parameters_follow_the_engine_options_and_check_their_range() {
        let specs: Vec<&OptionSpec> = all().collect();
        assert_eq!(specs.len(), OPTIONS.len() + TUNABLES.len());
        let mut names: Vec<String> = specs.iter().map(|s| s.name.to_lowercase()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), specs.len(), "two options share a name");
        assert_eq!(
            find("rfp_margin").unwrap().uci_line(),
            "option name RFP_MARGIN type spin default 80 min 20 max 200"
        );
        // Parsing only: no parameter changes, so searches in other tests are
        // not disturbed.
        for (spec, t) in specs[OPTIONS.len()..].iter().zip(&TUNABLES) {
            assert_eq!(spec.name, t.name);
            assert_eq!(
                spec.kind,
                OptionKind::Spin {
                    default: t.default,
                    min: t.min,
                    max: t.max
                }
            );
            let name = t.name;
            for v in [t.min, t.default, t.max] {
                let (found, value) = setoption(&format!("name {name} value {v}")).unwrap();
                assert_eq!((found.id, value), (spec.id, OptionValue::Spin(v)));
            }
            for v in [t.min - 1, t.max + 1] {
                assert_eq!(
                    setoption(&format!("name {name} value {v}")),
                    Err(UciError::OptionOutOfRange {
                        name,
                        value: v,
                        min: t.min,
                        max: t.max
                    })
                );
            }
            assert!(matches!(
                setoption(&format!("name {name} value 1.5")),
                Err(UciError::OptionNotANumber { .. })
            ));
        }
    }

    #[cfg(feature = "tune")]
    #[test]
    fn setoption_sets_a_search_parameter() {
        use crate::search::params::HELPER_START_DEPTH_COUNT;
        // Only helper threads read this parameter, and no unit test compares
        // multi-threaded searches, so changing it cannot disturb other tests.
        let mut options = Options::default();
        assert_eq!(HELPER_START_DEPTH_COUNT(), 2);
        let (spec, value) = setoption("name helper_start_depth_count value 4").unwrap();
        options.set(spec, &value);
        assert_eq!(HELPER_START_DEPTH_COUNT(), 4);
        assert_eq!(options, Options::default(), "stored in the parameter only");
        // Refused values leave it as it was.
        assert!(setoption("name HELPER_START_DEPTH_COUNT value 0").is_err());
        assert_eq!(HELPER_START_DEPTH_COUNT(), 4);
        let (spec, value) = setoption("name HELPER_START_DEPTH_COUNT value 2").unwrap();
        options.set(spec, &value);
        assert_eq!(HELPER_START_DEPTH_COUNT(), 2);
    }

    #[test]
    fn malformed_setoption_is_an_error() {
        assert_eq!(setoption("value 3"), Err(UciError::SetoptionSyntax));
        assert_eq!(setoption("name"), Err(UciError::SetoptionSyntax));
        assert_eq!(
            setoption("name Nonsense value 3"),
            Err(UciError::UnknownOption("Nonsense".into()))
        );
    }
}
