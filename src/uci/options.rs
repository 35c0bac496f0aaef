//! The UCI options, each declared once in the `declare_options!` list
//! below: its typed key (`HASH`, `PONDER`, ...), its name, type, default
//! and range, and the `Effect` a change has on the engine besides storing
//! the value. From that one list come the `uci` listing (`all`), the
//! defaults and the `setoption` parsing (`parse_setoption`), the current
//! values (`Options`, read through a key: `options.spin(HASH)`), and what
//! `Engine` does when an option changes (it matches on `Effect`, never on a
//! name). In a build with the `tune` feature, `all()` adds a spin option
//! for every tunable search parameter, declared in `search::params` (see
//! `TUNABLES`), whose value lives in that table.
//!
//! Adding an option is one line in `declare_options!`; reading it is a call
//! with its key, e.g. `options.check(SHOW_WDL)`.

use super::error::UciError;
use crate::nnue::USE_NNUE_DEFAULT;
#[cfg(feature = "tune")]
use crate::search::params::TUNABLES;
use crate::search::skill::{SKILL_LEVEL_COUNT, SKILL_MAX_ELO, SKILL_MIN_ELO};
use crate::search::time::DEFAULT_MOVE_OVERHEAD_MS;
use crate::search::tt::MAX_HASH_MB;
use crate::search::MAX_THREADS;
use crate::syzygy::DEFAULT_PROBE_LIMIT;
use std::marker::PhantomData;

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

/// What changing an option does besides storing its value; `Engine`
/// carries it out before the value is stored, and a refusal leaves the
/// option as it was. An option without an effect is only stored, and read
/// when it is needed (at the next `go`, `position`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// A spin option: the transposition table is replaced by an empty one
    /// of that many MB (refused when the memory is not free).
    ResizeHash,
    /// A button: the transposition table is emptied.
    ClearHash,
    /// A spin option: the number of search threads.
    SetThreads,
    /// A text option: the book file to load (empty: the embedded book).
    LoadBook,
    /// A text option: the Syzygy directories to load (empty: none).
    LoadTablebases,
    /// A text option: the network file to load (empty: the embedded one);
    /// the table and histories are emptied, as they belong to the old
    /// evaluation.
    LoadNetwork,
    /// A check option: which evaluation searches use; the table and
    /// histories are emptied, as they belong to the old evaluation.
    SwitchEvaluation,
}

impl Effect {
    /// The change touches what a running search uses, so it is refused
    /// (with an error) until the search has answered. Only the book, read
    /// before a search starts, may change meanwhile.
    pub const fn waits_for_search(self) -> bool {
        !matches!(self, Effect::LoadBook)
    }

    /// `kind` is the type of option whose value the effect uses.
    const fn fits(self, kind: OptionKind) -> bool {
        match self {
            Effect::ResizeHash | Effect::SetThreads => matches!(kind, OptionKind::Spin { .. }),
            Effect::ClearHash => matches!(kind, OptionKind::Button),
            Effect::LoadBook | Effect::LoadTablebases | Effect::LoadNetwork => {
                matches!(kind, OptionKind::Text { .. })
            }
            Effect::SwitchEvaluation => matches!(kind, OptionKind::Check { .. }),
        }
    }
}

/// Where `Options` keeps an option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// Its place in `OPTIONS` (and in `Options`' values).
    Engine(usize),
    /// A search parameter: its index in `TUNABLES`, which holds the value.
    #[cfg(feature = "tune")]
    Parameter(usize),
}

/// One option: what `uci` lists, how `setoption` parses its value, and
/// what a change does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// What a change does besides storing the value (`None`: nothing).
    pub effect: Option<Effect>,
    slot: Slot,
}

/// A spin option named `name`. The build fails when `default` lies outside
/// `min..=max`.
const fn spin(name: &'static str, default: i64, min: i64, max: i64) -> OptionSpec {
    assert!(
        min <= default && default <= max,
        "a spin option's default lies outside its range"
    );
    OptionSpec::new(name, OptionKind::Spin { default, min, max })
}

/// A check option named `name`.
const fn check(name: &'static str, default: bool) -> OptionSpec {
    OptionSpec::new(name, OptionKind::Check { default })
}

/// A button named `name`.
const fn button(name: &'static str) -> OptionSpec {
    OptionSpec::new(name, OptionKind::Button)
}

/// A text (`string`) option named `name`.
const fn text(name: &'static str, default: &'static str) -> OptionSpec {
    OptionSpec::new(name, OptionKind::Text { default })
}

impl OptionSpec {
    /// An option without effect; `declare_options!` gives it its slot.
    const fn new(name: &'static str, kind: OptionKind) -> OptionSpec {
        OptionSpec {
            name,
            kind,
            effect: None,
            slot: Slot::Engine(0),
        }
    }

    /// The option with `effect`. The build fails when the effect does not
    /// take this type of option.
    const fn on_change(self, effect: Effect) -> OptionSpec {
        assert!(
            effect.fits(self.kind),
            "the effect does not take this type of option"
        );
        OptionSpec {
            effect: Some(effect),
            ..self
        }
    }

    /// The option kept at `index` of `OPTIONS`.
    const fn at(self, index: usize) -> OptionSpec {
        OptionSpec {
            slot: Slot::Engine(index),
            ..self
        }
    }
}

/// Declares the engine's options, in `uci` order, each as
/// `KEY: KeyType = <declaration>;` with its doc comment. Emits `OPTIONS`
/// and a public constant `KEY` per option, whose type says how the value
/// is read: `SpinKey<T>` (as the integer type `T`), `CheckKey`, `TextKey`,
/// `ButtonKey`. The build fails when a key's type does not match its
/// declaration, or a spin option's range does not fit `T`.
macro_rules! declare_options {
    ($($(#[$doc:meta])* $key:ident: $key_type:ty = $spec:expr;)*) => {
        /// Each option's place in `OPTIONS`.
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        enum Declared {
            $($key,)*
        }

        /// Every option of the engine, in `uci` order. (A tune build lists
        /// the search parameters after them: see `all`.)
        pub const OPTIONS: &[OptionSpec] = &[$($spec.at(Declared::$key as usize),)*];

        $(
            $(#[$doc])*
            pub const $key: $key_type = <$key_type>::new(&OPTIONS[Declared::$key as usize]);
        )*
    };
}

declare_options! {
    /// `Hash`: the transposition table's size in MB.
    HASH: SpinKey<usize> = spin("Hash", 16, 1, MAX_HASH_MB as i64).on_change(Effect::ResizeHash);
    /// `Threads`: how many threads search.
    THREADS: SpinKey<usize> =
        spin("Threads", 1, 1, MAX_THREADS as i64).on_change(Effect::SetThreads);
    /// `Move Overhead`: milliseconds kept back from the clock for the GUI.
    MOVE_OVERHEAD: SpinKey<u64> = spin("Move Overhead", DEFAULT_MOVE_OVERHEAD_MS as i64, 0, 5_000);
    /// `Clear Hash`: empties the transposition table.
    CLEAR_HASH: ButtonKey = button("Clear Hash").on_change(Effect::ClearHash);
    /// `Ponder`: the GUI may send `go ponder` (read by the GUI only).
    PONDER: CheckKey = check("Ponder", false);
    /// `MultiPV`: how many best lines a search reports.
    MULTI_PV: SpinKey<usize> = spin("MultiPV", 1, 1, 256);
    /// `UCI_ShowWDL`: `wdl W D L` in every `info` line with a score
    /// (`search::wdl`).
    SHOW_WDL: CheckKey = check("UCI_ShowWDL", false);
    // Strength limiting (`search::skill`): `UCI_Elo` decides while
    // `UCI_LimitStrength` is on, `Skill Level` otherwise; the maximum of
    // either is full strength.
    /// `UCI_LimitStrength`: play at `UCI_Elo`, not at `Skill Level`.
    LIMIT_STRENGTH: CheckKey = check("UCI_LimitStrength", false);
    /// `UCI_Elo`.
    ELO: SpinKey<i64> = spin("UCI_Elo", SKILL_MAX_ELO, SKILL_MIN_ELO, SKILL_MAX_ELO);
    /// `Skill Level`.
    SKILL_LEVEL: SpinKey<i64> = spin("Skill Level", SKILL_LEVEL_COUNT, 0, SKILL_LEVEL_COUNT);
    /// `UCI_Chess960`: castling moves are written as the king taking its
    /// rook.
    CHESS960: CheckKey = check("UCI_Chess960", false);
    /// `OwnBook`: game moves come from the book while it has one.
    OWN_BOOK: CheckKey = check("OwnBook", true);
    /// `BookDepth`: the book is asked up to this game ply.
    BOOK_DEPTH: SpinKey<u32> = spin("BookDepth", 24, 0, 200);
    /// `BookFile`: the book to use; empty: the embedded book.
    BOOK_FILE: TextKey = text("BookFile", "").on_change(Effect::LoadBook);
    /// `SyzygyPath`: directories of Syzygy tables, `:`-separated; empty:
    /// none.
    SYZYGY_PATH: TextKey = text("SyzygyPath", "").on_change(Effect::LoadTablebases);
    /// `SyzygyProbeLimit`: positions with more pieces are not probed (0: no
    /// probes).
    SYZYGY_PROBE_LIMIT: SpinKey<u32> =
        spin("SyzygyProbeLimit", DEFAULT_PROBE_LIMIT as i64, 0, DEFAULT_PROBE_LIMIT as i64);
    // The evaluation (`crate::nnue`): the network, or the hand-written one
    // when `UseNNUE` is off.
    /// `UseNNUE`: the network evaluates, not the hand-written evaluation.
    USE_NNUE: CheckKey = check("UseNNUE", USE_NNUE_DEFAULT).on_change(Effect::SwitchEvaluation);
    /// `EvalFile`: a network file to use; empty: the embedded network.
    EVAL_FILE: TextKey = text("EvalFile", "").on_change(Effect::LoadNetwork);
}

/// An integer type a spin option's value is read as (`SpinKey<T>`).
pub trait SpinValue: Copy {
    /// The type's smallest value, as an `i64`.
    const LOWEST: i64;
    /// The type's largest value, as an `i64` (`i64::MAX` when larger).
    const HIGHEST: i64;
    /// `value`, which lies within `LOWEST..=HIGHEST`.
    fn from_spin(value: i64) -> Self;
}

macro_rules! spin_value {
    ($($t:ty),*) => {
        $(
            impl SpinValue for $t {
                const LOWEST: i64 = <$t>::MIN as i64;
                const HIGHEST: i64 = if <$t>::MAX as u128 > i64::MAX as u128 {
                    i64::MAX
                } else {
                    <$t>::MAX as i64
                };
                #[inline]
                fn from_spin(value: i64) -> Self {
                    value as $t
                }
            }
        )*
    };
}

spin_value!(i32, i64, u32, u64, usize);

/// The place in `OPTIONS` of the option `spec` (declared keys only).
const fn declared_index(spec: &OptionSpec) -> usize {
    match spec.slot {
        Slot::Engine(index) => index,
        #[cfg(feature = "tune")]
        Slot::Parameter(_) => panic!("a key for a search parameter"),
    }
}

/// The key of a spin option, whose value `Options::spin` reads as a `T`.
pub struct SpinKey<T> {
    spec: &'static OptionSpec,
    read_as: PhantomData<fn() -> T>,
}

impl<T> Clone for SpinKey<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for SpinKey<T> {}

impl<T> std::fmt::Debug for SpinKey<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SpinKey({})", self.spec.name)
    }
}

impl<T: SpinValue> SpinKey<T> {
    /// The key of `spec`. The build fails when it is not a spin option or
    /// its range does not fit `T`.
    const fn new(spec: &'static OptionSpec) -> Self {
        match spec.kind {
            OptionKind::Spin { min, max, .. } => assert!(
                T::LOWEST <= min && max <= T::HIGHEST,
                "a spin option's range does not fit the type its key reads"
            ),
            _ => panic!("a SpinKey for an option that is not a spin option"),
        }
        SpinKey {
            spec,
            read_as: PhantomData,
        }
    }
}

impl<T> SpinKey<T> {
    /// The option's declaration.
    pub const fn spec(self) -> &'static OptionSpec {
        self.spec
    }
}

/// Declares the keys of the options with one value type each.
macro_rules! plain_keys {
    ($($(#[$doc:meta])* $name:ident for $variant:ident;)*) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Copy, Debug)]
            pub struct $name {
                spec: &'static OptionSpec,
            }

            impl $name {
                /// The key of `spec`. The build fails when `spec` is
                /// another type of option.
                const fn new(spec: &'static OptionSpec) -> Self {
                    assert!(
                        matches!(spec.kind, OptionKind::$variant { .. }),
                        concat!("a ", stringify!($name), " for another type of option")
                    );
                    $name { spec }
                }

                /// The option's declaration.
                pub const fn spec(self) -> &'static OptionSpec {
                    self.spec
                }
            }
        )*
    };
}

plain_keys! {
    /// The key of a check option, whose value `Options::check` reads.
    CheckKey for Check;
    /// The key of a text option, whose value `Options::text` reads.
    TextKey for Text;
    /// The key of a button (it has no value; it names the option).
    ButtonKey for Button;
}

/// A parsed `setoption` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Spin(i64),
    Check(bool),
    Button,
    Text(String),
}

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

    /// `value` is a value of this option: of its type, within its range.
    pub fn admits(&self, value: &OptionValue) -> bool {
        match (self.kind, value) {
            (OptionKind::Spin { min, max, .. }, OptionValue::Spin(v)) => (min..=max).contains(v),
            (OptionKind::Check { .. }, OptionValue::Check(_))
            | (OptionKind::Button, OptionValue::Button)
            | (OptionKind::Text { .. }, OptionValue::Text(_)) => true,
            _ => false,
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

    /// The declaration this one was copied from: the one `Options` keeps
    /// the value of (`None` for a copy whose slot no option has).
    fn declared(&self) -> Option<&'static OptionSpec> {
        match self.slot {
            Slot::Engine(index) => OPTIONS.get(index),
            #[cfg(feature = "tune")]
            Slot::Parameter(index) => tunable_options().get(index),
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
                name: t.name,
                kind: OptionKind::Spin {
                    default: t.default,
                    min: t.min,
                    max: t.max,
                },
                effect: None,
                slot: Slot::Parameter(i),
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

/// The options' current values, read through their keys
/// (`options.spin(HASH)`). A search parameter's value lives in its
/// `TUNABLES` entry, shared by the process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// One per `OPTIONS` entry, always of its type and within its range.
    values: Vec<OptionValue>,
}

impl Default for Options {
    /// Every option at its declared default.
    fn default() -> Self {
        Options {
            values: OPTIONS.iter().map(OptionSpec::default_value).collect(),
        }
    }
}

impl Options {
    /// Stores `value` as the option's, when the option admits it (as a
    /// value from `parse_setoption` is); returns whether it did. A button
    /// stores nothing.
    pub fn set(&mut self, spec: &OptionSpec, value: &OptionValue) -> bool {
        let Some(declared) = spec.declared().filter(|d| d.admits(value)) else {
            return false;
        };
        match (declared.slot, value) {
            (_, OptionValue::Button) => {}
            (Slot::Engine(index), _) => self.values[index] = value.clone(),
            #[cfg(feature = "tune")]
            (Slot::Parameter(index), OptionValue::Spin(v)) => TUNABLES[index].set(*v),
            #[cfg(feature = "tune")]
            (Slot::Parameter(_), _) => return false,
        }
        true
    }

    /// The current value of the option (`Button` for a button).
    pub fn value(&self, spec: &OptionSpec) -> Option<OptionValue> {
        match spec.declared()?.slot {
            Slot::Engine(index) => self.values.get(index).cloned(),
            #[cfg(feature = "tune")]
            Slot::Parameter(index) => Some(OptionValue::Spin(TUNABLES[index].get())),
        }
    }

    /// A spin option's value.
    #[inline]
    pub fn spin<T: SpinValue>(&self, key: SpinKey<T>) -> T {
        match self.values[declared_index(key.spec)] {
            OptionValue::Spin(v) => T::from_spin(v),
            _ => unreachable!("{} holds a spin value", key.spec.name),
        }
    }

    /// A check option's value.
    #[inline]
    pub fn check(&self, key: CheckKey) -> bool {
        match self.values[declared_index(key.spec)] {
            OptionValue::Check(b) => b,
            _ => unreachable!("{} holds a check value", key.spec.name),
        }
    }

    /// A text option's value.
    #[inline]
    pub fn text(&self, key: TextKey) -> &str {
        match &self.values[declared_index(key.spec)] {
            OptionValue::Text(text) => text,
            _ => unreachable!("{} holds a text value", key.spec.name),
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
                        assert!(options.set(found, &value));
                        assert_eq!(options.value(spec), Some(value));
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
                        assert!(options.set(found, &value));
                        assert_eq!(options.value(spec), Some(value));
                    }
                    assert!(matches!(
                        setoption(&format!("name {name} value yes")),
                        Err(UciError::OptionNotABool { .. })
                    ));
                }
                OptionKind::Button => {
                    let (found, value) = setoption(&format!("name {name}")).unwrap();
                    assert_eq!(value, OptionValue::Button);
                    assert!(options.set(found, &value));
                    assert_eq!(options, Options::default(), "a button stores nothing");
                }
                OptionKind::Text { .. } => {
                    let (_, value) =
                        setoption(&format!("name {name} value some file.txt")).unwrap();
                    assert_eq!(value, OptionValue::Text("some file.txt".into()));
                    let (_, empty) = setoption(&format!("name {name} value <empty>")).unwrap();
                    assert_eq!(empty, OptionValue::Text(String::new()));
                    assert!(options.set(spec, &value));
                    assert_eq!(options.value(spec), Some(value));
                }
            }
        }
    }

    #[test]
    fn values_reach_the_options_through_their_keys() {
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
            assert!(options.set(spec, &value), "{line}");
        }
        assert_eq!(options.spin(HASH), 64usize);
        assert_eq!(options.spin(THREADS), 3usize);
        assert_eq!(options.spin(MOVE_OVERHEAD), 75u64);
        assert_eq!(options.spin(MULTI_PV), 4usize);
        assert!(options.check(LIMIT_STRENGTH));
        assert_eq!(options.spin(ELO), 1234i64);
        assert_eq!(options.spin(SKILL_LEVEL), 3i64);
        assert_eq!(options.spin(BOOK_DEPTH), 7u32);
        assert!(options.check(PONDER));
        assert!(options.check(CHESS960));
        assert!(!options.check(OWN_BOOK));
        assert_eq!(options.text(BOOK_FILE), "/tmp/x.txt");
        assert_eq!(options.text(SYZYGY_PATH), "/tb/345:/tb/6");
        assert_eq!(options.spin(SYZYGY_PROBE_LIMIT), 5u32);
        assert!(!options.check(USE_NNUE));
        assert_eq!(options.text(EVAL_FILE), "nets/my net.nnue");
        assert!(options.check(SHOW_WDL));
    }

    #[test]
    fn defaults_come_from_the_declarations() {
        let options = Options::default();
        for spec in OPTIONS {
            assert_eq!(options.value(spec), Some(spec.default_value()));
        }
        assert_eq!(options.spin(HASH), 16);
        assert_eq!(options.spin(MOVE_OVERHEAD), DEFAULT_MOVE_OVERHEAD_MS);
        assert!(options.check(OWN_BOOK));
        assert_eq!(options.spin(BOOK_DEPTH), 24);
        assert_eq!(
            (options.text(SYZYGY_PATH), options.spin(SYZYGY_PROBE_LIMIT)),
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
        assert!(!options.check(LIMIT_STRENGTH));
        assert_eq!((options.spin(ELO), options.spin(SKILL_LEVEL)), (2_800, 20));
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
        assert!(!options.check(SHOW_WDL));
        assert_eq!(
            find("uci_showwdl").unwrap().uci_line(),
            "option name UCI_ShowWDL type check default false"
        );
    }

    #[test]
    fn keys_name_their_own_declaration_and_names_are_unique() {
        assert_eq!(HASH.spec().name, "Hash");
        assert_eq!(CLEAR_HASH.spec().name, "Clear Hash");
        assert_eq!(PONDER.spec().name, "Ponder");
        assert_eq!(EVAL_FILE.spec().name, "EvalFile");
        for (i, spec) in OPTIONS.iter().enumerate() {
            assert_eq!(spec.slot, Slot::Engine(i), "{}", spec.name);
            assert_eq!(find(spec.name), Some(spec), "another option has the name");
        }
    }

    #[test]
    fn effects_are_declared_with_their_options() {
        let effect = |name: &str| find(name).unwrap().effect;
        assert_eq!(effect("Hash"), Some(Effect::ResizeHash));
        assert_eq!(effect("Threads"), Some(Effect::SetThreads));
        assert_eq!(effect("Clear Hash"), Some(Effect::ClearHash));
        assert_eq!(effect("BookFile"), Some(Effect::LoadBook));
        assert_eq!(effect("SyzygyPath"), Some(Effect::LoadTablebases));
        assert_eq!(effect("EvalFile"), Some(Effect::LoadNetwork));
        assert_eq!(effect("UseNNUE"), Some(Effect::SwitchEvaluation));
        let with_effect = OPTIONS.iter().filter(|s| s.effect.is_some()).count();
        assert_eq!(with_effect, 7, "an effect no test names");
        // What a running search uses waits for it; the book does not.
        let waiting: Vec<&str> = OPTIONS
            .iter()
            .filter(|s| s.effect.is_some_and(Effect::waits_for_search))
            .map(|s| s.name)
            .collect();
        assert_eq!(
            waiting,
            [
                "Hash",
                "Threads",
                "Clear Hash",
                "SyzygyPath",
                "UseNNUE",
                "EvalFile"
            ]
        );
    }

    #[test]
    fn values_the_option_does_not_admit_are_not_stored() {
        let mut options = Options::default();
        let hash = HASH.spec();
        assert!(!options.set(hash, &OptionValue::Spin(0)));
        assert!(!options.set(hash, &OptionValue::Check(true)));
        assert!(!options.set(hash, &OptionValue::Text("64".into())));
        assert!(!options.set(PONDER.spec(), &OptionValue::Spin(1)));
        assert!(!options.set(BOOK_FILE.spec(), &OptionValue::Button));
        // A copy with another type still stores only what the declared
        // option admits.
        let disguised = OptionSpec {
            kind: OptionKind::Text { default: "" },
            ..*hash
        };
        assert!(!options.set(&disguised, &OptionValue::Text("x".into())));
        assert_eq!(options, Options::default());
        assert!(options.set(hash, &OptionValue::Spin(1)));
        assert_eq!(options.spin(HASH), 1);
    }

    #[test]
    #[should_panic(expected = "outside its range")]
    fn a_spin_default_outside_its_range_is_refused() {
        spin("Nonsense", 5, 0, 3);
    }

    #[test]
    #[should_panic(expected = "does not take")]
    fn an_effect_on_the_wrong_type_of_option_is_refused() {
        check("Nonsense", false).on_change(Effect::ResizeHash);
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
        // The default is whatever the last tune left; the range is fixed.
        let rfp_default = crate::search::params::RFP_MARGIN();
        assert_eq!(
            find("rfp_margin").unwrap().uci_line(),
            format!("option name RFP_MARGIN type spin default {rfp_default} min 20 max 200")
        );
        // Parsing only: no parameter changes, so searches in other tests are
        // not disturbed.
        for (spec, t) in specs[OPTIONS.len()..].iter().zip(&TUNABLES) {
            assert_eq!(spec.name, t.name);
            assert_eq!(spec.effect, None);
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
                assert_eq!((found, value), (*spec, OptionValue::Spin(v)));
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
        assert!(options.set(spec, &value));
        assert_eq!(HELPER_START_DEPTH_COUNT(), 4);
        assert_eq!(options.value(spec), Some(OptionValue::Spin(4)));
        assert_eq!(options, Options::default(), "stored in the parameter only");
        // Refused values leave it as it was.
        assert!(setoption("name HELPER_START_DEPTH_COUNT value 0").is_err());
        assert!(!options.set(spec, &OptionValue::Spin(0)));
        assert_eq!(HELPER_START_DEPTH_COUNT(), 4);
        let (spec, value) = setoption("name HELPER_START_DEPTH_COUNT value 2").unwrap();
        assert!(options.set(spec, &value));
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
