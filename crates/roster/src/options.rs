//! The `key=value` options of a spec, checked against the engine's list.

use std::collections::BTreeMap;
use std::str::FromStr;

use crate::{EngineInfo, SpecError};

/// The options given in one spec, each read at most once by the engine's builder.
#[derive(Debug)]
pub struct Options {
    engine: &'static EngineInfo,
    values: BTreeMap<String, String>,
}

impl Options {
    /// Splits `key=value,key=value` and checks every key against the engine's options.
    pub(crate) fn parse(engine: &'static EngineInfo, text: &str) -> Result<Options, SpecError> {
        let mut values = BTreeMap::new();
        for item in text.split(',').map(str::trim).filter(|item| !item.is_empty()) {
            let Some((key, value)) = item.split_once('=') else {
                return Err(SpecError::Malformed { engine: engine.name, item: item.to_owned() });
            };
            let key = key.trim().to_ascii_lowercase();
            if !engine.options.iter().any(|option| option.name == key) {
                return Err(SpecError::UnknownOption {
                    engine: engine.name,
                    option: key,
                    valid: engine.option_list(),
                });
            }
            if values.insert(key.clone(), value.trim().to_owned()).is_some() {
                return Err(SpecError::Duplicate { engine: engine.name, option: key });
            }
        }
        Ok(Options { engine, values })
    }

    /// The engine's name, for errors.
    pub(crate) fn engine_name(&self) -> &'static str {
        self.engine.name
    }

    /// The options as written, `key=value` joined by commas, in key order.
    pub(crate) fn text(&self) -> String {
        let options: Vec<String> = self.values.iter().map(|(key, value)| format!("{key}={value}")).collect();
        if options.is_empty() {
            self.engine.name.to_owned()
        } else {
            format!("{}:{}", self.engine.name, options.join(","))
        }
    }

    /// Whether option `name` was given as `true` (for any engine, whether
    /// or not it has the option).
    pub(crate) fn is_true(&self, name: &str) -> bool {
        self.values.get(name).is_some_and(|value| value == "true")
    }

    /// The value of option `name` read as a `T`, or `None` if not given.
    /// `expected` describes a valid value for the error message.
    pub(crate) fn get<T: FromStr>(
        &self,
        name: &'static str,
        expected: &'static str,
    ) -> Result<Option<T>, SpecError> {
        debug_assert!(
            self.engine.options.iter().any(|option| option.name == name),
            "{name} is not in the option list of {}",
            self.engine.name
        );
        self.values
            .get(name)
            .map(|value| {
                value.parse().map_err(|_| SpecError::BadValue {
                    engine: self.engine.name,
                    option: name,
                    value: value.clone(),
                    expected,
                })
            })
            .transpose()
    }
}
