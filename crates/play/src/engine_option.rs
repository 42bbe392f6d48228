//! How an engine crate describes the `key=value` options it takes in an
//! engine spec (`alphabeta:depth=9,threads=2`): name, what it does, what a
//! valid value is, and its default, read from the engine's own
//! configuration so that help text cannot drift from what the engine does.
//! A [`Setting`] binds such an option to what it sets in the engine's
//! configuration, so that the one declaration is read by the spec as well.

use std::fmt;
use std::str::FromStr;

/// What values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number within `min..=max`.
    Whole {
        /// The least valid value.
        min: u64,
        /// The greatest valid value.
        max: u64,
    },
    /// `true` or `false`.
    Flag,
    /// A real number, zero or more.
    NonNegative,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A file name.
    File,
    /// Free text.
    Text,
}

/// One option an engine takes in a spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The key, as written in a spec.
    pub name: &'static str,
    /// What it does.
    pub help: &'static str,
    /// What values it takes.
    pub kind: OptionKind,
    /// Its value when not given, as written in a spec; `None` where there
    /// is no such value (a file that is built in unless given, a required
    /// option, or a default that depends on something else, which `help`
    /// then says).
    pub default: Option<String>,
}

/// A value that is not valid for its option: the message says what is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("must be {expected}, got {value:?}")]
pub struct OptionValueError {
    /// The value given.
    pub value: String,
    /// What a valid value looks like.
    pub expected: String,
}

impl EngineOption {
    /// An option with a default value.
    #[must_use]
    #[allow(clippy::needless_pass_by_value, reason = "numbers, flags and words alike, written as given")]
    pub fn new(
        name: &'static str,
        kind: OptionKind,
        default: impl ToString,
        help: &'static str,
    ) -> EngineOption {
        EngineOption { name, help, kind, default: Some(default.to_string()) }
    }

    /// An option without a single default value (see [`EngineOption::default`]).
    #[must_use]
    pub fn without_default(name: &'static str, kind: OptionKind, help: &'static str) -> EngineOption {
        EngineOption { name, help, kind, default: None }
    }

    /// `seed`: the base seed of an engine's random choices, which every
    /// engine that draws at random takes.
    #[must_use]
    pub fn seed() -> EngineOption {
        EngineOption::new(
            "seed",
            OptionKind::Whole { min: 0, max: u64::MAX },
            0,
            "base seed of the engine's random choices, mixed with each game's seed",
        )
    }

    /// What a valid value looks like, for messages.
    #[must_use]
    pub fn expected(&self) -> String {
        match self.kind {
            OptionKind::Whole { min: 0, max: u64::MAX } => "a whole number from 0 to 2^64-1".to_owned(),
            OptionKind::Whole { min, max } => format!("a whole number from {min} to {max}"),
            OptionKind::Flag => "true or false".to_owned(),
            OptionKind::NonNegative => "zero or a positive number".to_owned(),
            OptionKind::Choice(words) => match words {
                [] => "nothing".to_owned(),
                [one] => (*one).to_owned(),
                [init @ .., last] => format!("{} or {last}", init.join(", ")),
            },
            OptionKind::File => "a file name".to_owned(),
            OptionKind::Text => "text".to_owned(),
        }
    }

    /// Checks `value` against the option's kind and reads it as a `T`.
    ///
    /// # Errors
    /// [`OptionValueError`] saying what a valid value is.
    pub fn read<T: FromStr>(&self, value: &str) -> Result<T, OptionValueError> {
        let bad = || OptionValueError { value: value.to_owned(), expected: self.expected() };
        let valid = match self.kind {
            OptionKind::Whole { min, max } => value.parse::<u64>().is_ok_and(|v| (min..=max).contains(&v)),
            OptionKind::Flag => matches!(value, "true" | "false"),
            OptionKind::NonNegative => value.parse::<f64>().is_ok_and(|v| v.is_finite() && v >= 0.0),
            OptionKind::Choice(words) => words.iter().any(|word| word.eq_ignore_ascii_case(value)),
            OptionKind::File | OptionKind::Text => true,
        };
        if !valid {
            return Err(bad());
        }
        value.parse().map_err(|_| bad())
    }
}

impl fmt::Display for EngineOption {
    /// `name: help (values; default D)`, as help text lists it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({}", self.name, self.help, self.expected())?;
        if let Some(default) = &self.default {
            write!(f, "; default {default}")?;
        }
        f.write_str(")")
    }
}

/// An option of an engine bound to its configuration `C`: declared once,
/// where the engine is, with its name, kind, help, default (read from the
/// configuration the engine starts from) and what a value given sets. A
/// spec reads the option through it ([`Setting::apply`]), help text lists
/// its [`EngineOption`], and a bad value's error says what the kind allows.
pub struct Setting<C> {
    option: EngineOption,
    set: Box<SetFromText<C>>,
}

/// Reads a value's text for its option and sets the configuration.
type SetFromText<C> = dyn Fn(&mut C, &str) -> Result<(), OptionValueError> + Send + Sync;

impl<C: 'static> Setting<C> {
    /// An option whose default is `get` of `defaults`, and whose value, read
    /// as a `T`, is given to `set`.
    #[must_use]
    pub fn new<T: FromStr + ToString + 'static>(
        name: &'static str,
        kind: OptionKind,
        help: &'static str,
        defaults: &C,
        get: fn(&C) -> T,
        set: fn(&mut C, T),
    ) -> Setting<C> {
        Setting::bind(EngineOption::new(name, kind, get(defaults), help), set)
    }

    /// An option with no single default (see [`EngineOption::default`]):
    /// the configuration keeps what it has unless one is given.
    #[must_use]
    pub fn without_default<T: FromStr + 'static>(
        name: &'static str,
        kind: OptionKind,
        help: &'static str,
        set: fn(&mut C, T),
    ) -> Setting<C> {
        Setting::bind(EngineOption::without_default(name, kind, help), set)
    }

    /// `option`, its value read as a `T` and given to `set`.
    #[must_use]
    pub fn bind<T: FromStr + 'static>(option: EngineOption, set: fn(&mut C, T)) -> Setting<C> {
        let reader = option.clone();
        Setting {
            option,
            set: Box::new(move |config, text| {
                set(config, reader.read(text)?);
                Ok(())
            }),
        }
    }

    /// The option as help text and a spec's checks know it.
    #[must_use]
    pub fn option(&self) -> &EngineOption {
        &self.option
    }

    /// Sets `config` from the value `text` given for the option.
    ///
    /// # Errors
    /// [`OptionValueError`] if the option's kind does not allow `text`.
    pub fn apply(&self, config: &mut C, text: &str) -> Result<(), OptionValueError> {
        (self.set)(config, text)
    }
}

impl<C> fmt::Debug for Setting<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Setting").field("option", &self.option).finish_non_exhaustive()
    }
}

/// The options of `settings`, as help text lists them.
#[must_use]
pub fn options_of<C: 'static>(settings: &[Setting<C>]) -> Vec<EngineOption> {
    settings.iter().map(|setting| setting.option().clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_against_the_kind() {
        let depth =
            EngineOption::new("depth", OptionKind::Whole { min: 1, max: 64 }, 64, "deepest iteration");
        assert_eq!(depth.read::<u32>("9"), Ok(9));
        let error = depth.read::<u32>("0").unwrap_err();
        assert_eq!(error.to_string(), "must be a whole number from 1 to 64, got \"0\"");
        assert!(depth.read::<u32>("nine").is_err());
        assert_eq!(depth.to_string(), "depth: deepest iteration (a whole number from 1 to 64; default 64)");
        let flag = EngineOption::new("reuse", OptionKind::Flag, false, "keep the tree");
        assert_eq!(flag.read::<bool>("true"), Ok(true));
        assert!(flag.read::<bool>("yes").is_err());
        let choice = EngineOption::new("parallel", OptionKind::Choice(&["root", "shared"]), "root", "trees");
        assert_eq!(choice.read::<String>("shared").as_deref(), Ok("shared"));
        assert_eq!(choice.read::<String>("leaf").unwrap_err().expected, "root or shared");
        let c = EngineOption::new("c", OptionKind::NonNegative, 1.5, "exploration");
        assert_eq!(c.read::<f64>("0"), Ok(0.0));
        for bad in ["-1", "inf", "NaN"] {
            assert!(c.read::<f64>(bad).is_err(), "{bad}");
        }
        let seed = EngineOption::seed();
        assert_eq!(seed.read::<u64>(&u64::MAX.to_string()), Ok(u64::MAX));
        assert_eq!(seed.read::<u64>("-1").unwrap_err().expected, "a whole number from 0 to 2^64-1");
        let weights = EngineOption::without_default("weights", OptionKind::File, "weights file");
        assert_eq!(weights.to_string(), "weights: weights file (a file name)");
    }

    #[test]
    fn a_setting_declares_its_default_and_sets_what_it_reads() {
        #[derive(Default)]
        struct Config {
            depth: u32,
            cap: Option<u64>,
        }
        let defaults = Config { depth: 12, cap: None };
        let depth = Setting::new(
            "depth",
            OptionKind::Whole { min: 1, max: 64 },
            "deepest iteration",
            &defaults,
            |config: &Config| config.depth,
            |config, depth| config.depth = depth,
        );
        let cap = Setting::without_default(
            "nodes",
            OptionKind::Whole { min: 1, max: u64::MAX },
            "a cap",
            |config: &mut Config, nodes: u64| config.cap = Some(nodes),
        );
        assert_eq!(depth.option().default.as_deref(), Some("12"));
        assert_eq!(cap.option().default, None);
        let mut config = Config::default();
        depth.apply(&mut config, "9").unwrap();
        cap.apply(&mut config, "500").unwrap();
        assert_eq!((config.depth, config.cap), (9, Some(500)));
        let error = depth.apply(&mut config, "65").unwrap_err();
        assert_eq!(error.expected, "a whole number from 1 to 64");
        assert_eq!(config.depth, 9, "a bad value sets nothing");
        assert_eq!(
            options_of(&[depth, cap]).iter().map(|option| option.name).collect::<Vec<_>>(),
            ["depth", "nodes"]
        );
    }
}
