//! The `key=value` options of a spec, checked against the options the
//! engine describes (their kinds, ranges and defaults).

use std::collections::BTreeMap;
use std::str::FromStr;

use analysis_db::SharedDatabase;
use play::{EngineOption, OptionKind, Setting};

use crate::error::SpecError;

/// The options given in one spec, each read by the engine's builder.
#[derive(Debug)]
pub(crate) struct Options {
    engine: &'static str,
    described: Vec<EngineOption>,
    values: BTreeMap<String, String>,
    /// An analysis database a program opened for the engine, and whether
    /// its searches write to it: see [`crate::AgentSpec::with_store`].
    store: Option<(SharedDatabase, bool)>,
}

impl Options {
    /// Splits `key=value,key=value` and checks every key against `described`.
    pub(crate) fn parse(
        engine: &'static str,
        described: Vec<EngineOption>,
        text: &str,
    ) -> Result<Options, SpecError> {
        let mut values = BTreeMap::new();
        for item in text.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(SpecError::Malformed { engine, item: item.to_owned() });
            };
            let key = key.trim().to_ascii_lowercase();
            if !described.iter().any(|option| option.name == key) {
                return Err(SpecError::UnknownOption { engine, option: key, valid: name_list(&described) });
            }
            if values.insert(key.clone(), value.trim().to_owned()).is_some() {
                return Err(SpecError::Duplicate { engine, option: key });
            }
        }
        Ok(Options { engine, described, values, store: None })
    }

    /// The same options with the analysis database a program opened.
    pub(crate) fn with_store(self, store: Option<(SharedDatabase, bool)>) -> Options {
        Options { store, ..self }
    }

    /// The analysis database a program opened for the engine, if any.
    pub(crate) fn store(&self) -> Option<&(SharedDatabase, bool)> {
        self.store.as_ref()
    }

    /// The engine's name, for errors.
    pub(crate) fn engine_name(&self) -> &'static str {
        self.engine
    }

    /// The options as written, `key=value` joined by commas, in key order.
    pub(crate) fn text(&self) -> String {
        let options: Vec<String> = self.values.iter().map(|(key, value)| format!("{key}={value}")).collect();
        if options.is_empty() {
            self.engine.to_owned()
        } else {
            format!("{}:{}", self.engine, options.join(","))
        }
    }

    /// Whether option `name` was given as `true` (for any engine, whether
    /// or not it has the option).
    pub(crate) fn is_true(&self, name: &str) -> bool {
        self.values.get(name).is_some_and(|value| value == "true")
    }

    /// The options given whose values name files or free text (which an
    /// engine may read as a path or a command line).
    pub(crate) fn naming_files(&self) -> impl Iterator<Item = &str> {
        self.values
            .keys()
            .map(String::as_str)
            .filter(|name| matches!(self.described(name).kind, OptionKind::File | OptionKind::Text))
    }

    fn described(&self, name: &str) -> &EngineOption {
        self.described
            .iter()
            .find(|option| option.name == name)
            .unwrap_or_else(|| panic!("{name} is not an option of {}", self.engine))
    }

    /// The value of option `name` checked against its kind and read as a
    /// `T`, or `None` if not given.
    pub(crate) fn given<T: FromStr>(&self, name: &'static str) -> Result<Option<T>, SpecError> {
        let option = self.described(name);
        self.values
            .get(name)
            .map(|value| {
                option.read(value).map_err(|error| SpecError::BadValue {
                    engine: self.engine,
                    option: name,
                    value: error.value,
                    expected: error.expected,
                })
            })
            .transpose()
    }

    /// Sets `config` from every option of `settings` the spec gives (the
    /// rest keep what `config` has: the engine's defaults, which the
    /// settings' declared defaults are read from).
    pub(crate) fn configure<C: 'static>(
        &self,
        settings: &[Setting<C>],
        config: &mut C,
    ) -> Result<(), SpecError> {
        for setting in settings {
            let name = setting.option().name;
            if let Some(value) = self.values.get(name) {
                setting.apply(config, value).map_err(|error| SpecError::BadValue {
                    engine: self.engine,
                    option: name,
                    value: error.value,
                    expected: error.expected,
                })?;
            }
        }
        Ok(())
    }

    /// The value of option `name` as given, or else its described default.
    pub(crate) fn get<T: FromStr>(&self, name: &'static str) -> Result<T, SpecError> {
        if let Some(value) = self.given(name)? {
            return Ok(value);
        }
        let option = self.described(name);
        let default = option.default.as_deref().unwrap_or_else(|| panic!("{name} has no default"));
        Ok(option.read(default).unwrap_or_else(|_| panic!("the default of {name} is not valid: {default}")))
    }

    /// A value that the option's kind allows but the engine does not,
    /// here: `expected` says what it does allow.
    pub(crate) fn bad_value(&self, name: &'static str, expected: impl Into<String>) -> SpecError {
        SpecError::BadValue {
            engine: self.engine,
            option: name,
            value: self.values.get(name).cloned().unwrap_or_default(),
            expected: expected.into(),
        }
    }
}

/// The names of `options`, for messages.
pub(crate) fn name_list(options: &[EngineOption]) -> String {
    if options.is_empty() {
        return "none".to_owned();
    }
    options.iter().map(|option| option.name).collect::<Vec<_>>().join(", ")
}
