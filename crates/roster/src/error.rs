//! What can be wrong with a spec.

use thiserror::Error;

/// A spec that does not name a valid engine configuration.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// Nothing was given.
    #[error("no engine given; valid engines: {valid}")]
    Empty {
        /// The engines there are.
        valid: String,
    },
    /// No engine has that name.
    #[error("unknown engine {name:?}; valid engines: {valid}")]
    UnknownEngine {
        /// The name given.
        name: String,
        /// The engines there are.
        valid: String,
    },
    /// The engine has no such option.
    #[error("{engine} has no option {option:?}; valid options: {valid}")]
    UnknownOption {
        /// The engine.
        engine: &'static str,
        /// The option given.
        option: String,
        /// The engine's options.
        valid: String,
    },
    /// An option without `=`.
    #[error("cannot read {item:?} in the options of {engine}: write key=value, separated by commas")]
    Malformed {
        /// The engine.
        engine: &'static str,
        /// The text given.
        item: String,
    },
    /// An option given twice.
    #[error("option {option} of {engine} is given twice")]
    Duplicate {
        /// The engine.
        engine: &'static str,
        /// The option.
        option: String,
    },
    /// A value of the wrong kind.
    #[error("option {option} of {engine} must be {expected}, got {value:?}")]
    BadValue {
        /// The engine.
        engine: &'static str,
        /// The option.
        option: &'static str,
        /// The value given.
        value: String,
        /// What a valid value looks like.
        expected: String,
    },
    /// A value that names something unusable, such as a weights file
    /// that cannot be read.
    #[error("option {option} of {engine}: {reason}")]
    Unusable {
        /// The engine.
        engine: &'static str,
        /// The option.
        option: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// An evaluation that does not exist, or cannot score the rules.
    #[error("evaluation {name:?}: {reason}")]
    Evaluation {
        /// The name given.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A spec read from a file that would start a program or name a file.
    #[error(
        "a file may not name {engine} this way: {reason} (choose such an engine yourself, on the command line or in the menu)"
    )]
    NotFromFile {
        /// The engine.
        engine: &'static str,
        /// What it would do.
        reason: String,
    },
}
