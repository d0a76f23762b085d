//! The engine's USI options: the `option` lines sent after `usi`, their
//! current values, and `setoption`.
//!
//! # Example
//!
//! ```
//! use tsume::usi_engine::options::EngineOptions;
//! let mut o = EngineOptions::default();
//! o.set("usi_hash", Some("64")).unwrap();
//! assert_eq!(o.hash_mib, 64);
//! o.set("Threads", Some("2")).unwrap();
//! assert_eq!(o.threads, 2, "each `go mate` searches on two threads");
//! assert!(o.set("NodesLimit", Some("-1")).is_err(), "refused, the old value kept");
//! assert_eq!(o.nodes_limit, 0);
//! ```

use super::shorten;
use crate::search::FutileMode;

/// Largest `USI_Hash` in MiB (1 TiB; the table is also checked to be
/// allocatable before it is built).
pub const HASH_MAX_MIB: u64 = 1 << 20;

/// Largest `Threads`.
pub const THREADS_MAX: u64 = 1024;

/// Largest non-zero `NodesLimit` (the largest value a GUI reading spin
/// bounds as 32-bit integers can show; 0 means no limit).
pub const NODES_LIMIT_MAX: u64 = i32::MAX as u64;

/// The values of the engine's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// `USI_Hash`: transposition table size in MiB.
    pub hash_mib: u64,
    /// `Threads`: search threads of each `go mate`, sharing the table
    /// (default 1; a GUI sets it).
    pub threads: u64,
    /// `NodesLimit`: node limit of each `go mate`; 0 = none.
    pub nodes_limit: u64,
    /// `FutileInterpositions`: how futile interpositions (無駄合) count.
    pub futile: FutileMode,
    /// `DefenderHandRest`: give the defender every piece that is on
    /// neither the board nor a hand (玉方持駒は残り全部).
    pub defender_hand_rest: bool,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mib: 256,
            threads: 1,
            nodes_limit: 0,
            futile: FutileMode::Exclude,
            defender_hand_rest: true,
        }
    }
}

/// Why a `setoption` was refused (the old value is kept).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such option.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The option needs `value <x>`.
    #[error("option {0} needs a value")]
    MissingValue(&'static str),
    /// The value does not fit the option.
    #[error("option {name}: '{value}' is not {expected}")]
    BadValue {
        /// The option.
        name: &'static str,
        /// The value given (shortened).
        value: String,
        /// What was expected.
        expected: String,
    },
}

impl EngineOptions {
    /// The `option ...` lines announcing every option with its default.
    pub fn usi_lines() -> Vec<String> {
        let d = EngineOptions::default();
        vec![
            format!(
                "option name USI_Hash type spin default {} min 1 max {HASH_MAX_MIB}",
                d.hash_mib
            ),
            format!(
                "option name Threads type spin default {} min 1 max {THREADS_MAX}",
                d.threads
            ),
            format!(
                "option name NodesLimit type spin default {} min 0 max {NODES_LIMIT_MAX}",
                d.nodes_limit
            ),
            format!(
                "option name FutileInterpositions type combo default {} var exclude var count",
                futile_name(d.futile)
            ),
            format!(
                "option name DefenderHandRest type check default {}",
                d.defender_hand_rest
            ),
        ]
    }

    /// Apply `setoption name <name> [value <value>]`. Names are matched
    /// without regard to case; `USI_Ponder` is accepted and ignored.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), OptionError> {
        let key = name.to_ascii_lowercase();
        match key.as_str() {
            "usi_hash" => {
                self.hash_mib = spin("USI_Hash", value, 1, HASH_MAX_MIB)?;
            }
            "threads" => {
                self.threads = spin("Threads", value, 1, THREADS_MAX)?;
            }
            "nodeslimit" => {
                self.nodes_limit = spin("NodesLimit", value, 0, NODES_LIMIT_MAX)?;
            }
            "futileinterpositions" => {
                let v = value.ok_or(OptionError::MissingValue("FutileInterpositions"))?;
                self.futile = match v.to_ascii_lowercase().as_str() {
                    "exclude" => FutileMode::Exclude,
                    "count" => FutileMode::Count,
                    _ => return Err(bad("FutileInterpositions", v, "exclude or count".into())),
                };
            }
            "defenderhandrest" => {
                self.defender_hand_rest = check("DefenderHandRest", value)?;
            }
            "usi_ponder" => {}
            _ => return Err(OptionError::Unknown(shorten(name))),
        }
        Ok(())
    }
}

/// The combo value naming a futile-interposition mode.
pub fn futile_name(mode: FutileMode) -> &'static str {
    match mode {
        FutileMode::Exclude => "exclude",
        FutileMode::Count => "count",
    }
}

fn spin(name: &'static str, value: Option<&str>, min: u64, max: u64) -> Result<u64, OptionError> {
    let v = value.ok_or(OptionError::MissingValue(name))?;
    match v.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(bad(name, v, format!("a whole number from {min} to {max}"))),
    }
}

fn check(name: &'static str, value: Option<&str>) -> Result<bool, OptionError> {
    let v = value.ok_or(OptionError::MissingValue(name))?;
    match v.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(name, v, "true or false".into())),
    }
}

fn bad(name: &'static str, value: &str, expected: String) -> OptionError {
    OptionError::BadValue {
        name,
        value: shorten(value),
        expected,
    }
}
