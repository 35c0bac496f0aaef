//! How `params.rs` declares the search parameters, and (with the `tune`
//! feature) the type of the run-time table behind their UCI options and
//! `kiln spsa`, which the declaration defines in `params`.
//!
//! An integer parameter is declared once, with its default, its range and
//! its SPSA step, and the search reads it as a call, `RFP_MARGIN()`:
//!
//! - without `tune` (the default) the call is an `#[inline(always)] const fn`
//!   returning the literal, so the compiled search is the same as with a
//!   plain `const`;
//! - with `tune` it is a relaxed load from an atomic in `params::TUNABLES`,
//!   which `setoption name RFP_MARGIN value 85` writes.

/// Declares search parameters; `params.rs` is one invocation. Two kinds of
/// item, each with its doc comments:
///
/// - `pub const NAME: T = value;` a plain constant, emitted as written
///   (for arrays, floats, and numbers that are not tuned);
/// - `pub tunable NAME: T = DEFAULT, MIN..=MAX, step C_END;` an integer
///   parameter (`T` an integer type: `i32`, `u64`, `usize`), read as
///   `NAME()`. `C_END` is the
///   SPSA perturbation at the end of a tune, in the parameter's unit (at
///   least 1). The build fails when the default lies outside `MIN..=MAX`.
///
/// With `tune` the invocation also defines `TUNABLES`, every tunable in
/// declaration order, with `find` (one by name) and `spsa_lines` (`kiln
/// spsa`'s output) beside it.
macro_rules! search_params {
    // Every item emitted: the table of tunables (tune builds only).
    (@items [$({ $name:ident, $default:literal, $min:literal, $max:literal, $c_end:literal })*]) => {
        /// Index of each tunable in `TUNABLES`.
        #[cfg(feature = "tune")]
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        enum TunableId {
            $($name,)*
        }

        #[cfg(feature = "tune")]
        const TUNABLE_COUNT: usize = [$(TunableId::$name),*].len();

        /// Every tunable parameter, in declaration order, holding its current value.
        #[cfg(feature = "tune")]
        pub static TUNABLES: [$crate::search::tunable::Tunable; TUNABLE_COUNT] = [
            $($crate::search::tunable::Tunable::new(
                stringify!($name),
                $default,
                $min,
                $max,
                $c_end,
            ),)*
        ];

        /// The tunable named `name` (case-insensitive, as UCI option names are).
        #[cfg(feature = "tune")]
        pub fn find(name: &str) -> Option<&'static $crate::search::tunable::Tunable> {
            TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
        }

        /// `kiln spsa`'s output: every tunable's SPSA line, in declaration order.
        #[cfg(feature = "tune")]
        pub fn spsa_lines() -> impl Iterator<Item = String> {
            TUNABLES.iter().map($crate::search::tunable::Tunable::spsa_line)
        }
    };

    // A plain constant.
    (@items [$($done:tt)*]
        $(#[$attr:meta])*
        pub const $name:ident: $ty:ty = $value:expr;
        $($rest:tt)*
    ) => {
        $(#[$attr])*
        pub const $name: $ty = $value;

        $crate::search::tunable::search_params!(@items [$($done)*] $($rest)*);
    };

    // A tunable integer parameter.
    (@items [$($done:tt)*]
        $(#[$attr:meta])*
        pub tunable $name:ident: $ty:ty = $default:literal, $min:literal..=$max:literal, step $c_end:literal;
        $($rest:tt)*
    ) => {
        const _: () = {
            let (min, default, max): ($ty, $ty, $ty) = ($min, $default, $max);
            assert!(
                min <= default && default <= max,
                concat!(stringify!($name), ": the default is outside MIN..=MAX")
            );
            assert!($c_end >= 1, concat!(stringify!($name), ": the step is below 1"));
        };

        $(#[$attr])*
        #[cfg(not(feature = "tune"))]
        #[allow(non_snake_case)]
        #[inline(always)]
        pub const fn $name() -> $ty {
            $default
        }

        $(#[$attr])*
        #[cfg(feature = "tune")]
        #[allow(non_snake_case)]
        #[inline(always)]
        pub fn $name() -> $ty {
            TUNABLES[TunableId::$name as usize].get() as $ty
        }

        $crate::search::tunable::search_params!(
            @items [$($done)* { $name, $default, $min, $max, $c_end }] $($rest)*
        );
    };

    // Entry point.
    ($($items:tt)*) => {
        $crate::search::tunable::search_params!(@items [] $($items)*);
    };
}

pub(crate) use search_params;

#[cfg(feature = "tune")]
pub use table::*;

/// The run-time side: only in tune builds.
#[cfg(feature = "tune")]
mod table {
    use std::sync::atomic::{AtomicI64, Ordering};

    /// OpenBench's `R_END` (the learning rate at the end of a tune) for
    /// every parameter.
    pub const SPSA_R_END: f64 = 0.002;

    /// One tunable parameter: its declaration and its current value.
    pub struct Tunable {
        /// The constant's name, also the UCI option's.
        pub name: &'static str,
        pub default: i64,
        pub min: i64,
        pub max: i64,
        /// OpenBench's `C_END`: the perturbation at the end of a tune.
        pub c_end: i64,
        value: AtomicI64,
    }

    impl Tunable {
        pub const fn new(
            name: &'static str,
            default: i64,
            min: i64,
            max: i64,
            c_end: i64,
        ) -> Tunable {
            Tunable {
                name,
                default,
                min,
                max,
                c_end,
                value: AtomicI64::new(default),
            }
        }

        /// The current value (relaxed: a `setoption` happens before the
        /// `go` whose threads read it).
        #[inline(always)]
        pub fn get(&self) -> i64 {
            self.value.load(Ordering::Relaxed)
        }

        /// Sets the value, which the caller has checked against
        /// `min..=max` (the UCI option's range; `setoption` reports a
        /// value outside it as an error).
        ///
        /// # Panics
        /// On a value outside `min..=max`.
        pub fn set(&self, value: i64) {
            assert!(
                (self.min..=self.max).contains(&value),
                "{} = {value} is outside {}..={}",
                self.name,
                self.min,
                self.max
            );
            self.value.store(value, Ordering::Relaxed);
        }

        /// The parameter as a line of OpenBench's SPSA input:
        /// `NAME, int, DEFAULT, MIN, MAX, C_END, R_END`.
        pub fn spsa_line(&self) -> String {
            format!(
                "{}, int, {}, {}, {}, {}, {}",
                self.name, self.default, self.min, self.max, self.c_end, SPSA_R_END
            )
        }
    }
}
