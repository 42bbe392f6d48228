//! The engines there are, their options, and how each is built.

use std::sync::Arc;

use std::path::Path;

use board::{Agent, RandomAgent, Rules, mix_seed};
use pattern_eval::{Family, GreedyAgent, PatternEvaluator, PatternTable, Weights};

use crate::options::Options;
use crate::spec::{Built, SpecError};

/// One option of an engine.
#[derive(Debug)]
pub struct OptionInfo {
    /// The key, as written in a spec.
    pub name: &'static str,
    /// What it does and its default.
    pub help: &'static str,
}

/// One engine the roster can build.
pub struct EngineInfo {
    /// The name, as written in a spec.
    pub name: &'static str,
    /// One line on what it is.
    pub summary: &'static str,
    /// Its options.
    pub options: &'static [OptionInfo],
    pub(crate) build: fn(&Options) -> Result<Built, SpecError>,
}

impl std::fmt::Debug for EngineInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineInfo")
            .field("name", &self.name)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl EngineInfo {
    pub(crate) fn engine_list() -> String {
        ENGINES.iter().map(|engine| engine.name).collect::<Vec<_>>().join(", ")
    }

    pub(crate) fn option_list(&self) -> String {
        if self.options.is_empty() {
            return "none".to_owned();
        }
        self.options.iter().map(|option| option.name).collect::<Vec<_>>().join(", ")
    }
}

const SEED: OptionInfo = OptionInfo {
    name: "seed",
    help: "base seed of the engine's random choices (default 0), mixed with each game's seed",
};

const SEED_EXPECTED: &str = "a whole number from 0 to 2^64-1";

/// Every engine, in the order they are listed to users.
pub static ENGINES: &[EngineInfo] = &[
    EngineInfo {
        name: "random",
        summary: "plays a uniformly random legal move",
        options: &[SEED],
        build: build_random,
    },
    EngineInfo {
        name: "pattern",
        summary: "greedy line-pattern player: the empty cell with the best pattern score",
        options: &[
            OptionInfo {
                name: "family",
                help: "pattern family: classic (default, binary masks) or ternary (sees blocks)",
            },
            OptionInfo {
                name: "weights",
                help: "weights file: a JSON array in the family's order, or .bin from the trainer (default: built in)",
            },
            SEED,
        ],
        build: build_pattern,
    },
];

fn build_random(options: &Options) -> Result<Built, SpecError> {
    let seed: u64 = options.get("seed", SEED_EXPECTED)?.unwrap_or(0);
    Ok(Built::any_rules(Arc::new(move |game_seed| Box::new(RandomAgent::new(mix_seed(seed, game_seed))))))
}

fn build_pattern(options: &Options) -> Result<Built, SpecError> {
    let seed: u64 = options.get("seed", SEED_EXPECTED)?.unwrap_or(0);
    let family: Family = options.get("family", "classic or ternary")?.unwrap_or(Family::Classic);
    let weights = options
        .get::<String>("weights", "a file name")?
        .map(|path| Weights::load(Path::new(&path), family).map(PatternEvaluator::new))
        .transpose()
        .map_err(|err| SpecError::Unusable {
            engine: "pattern",
            option: "weights",
            reason: err.to_string(),
        })?;
    let fixed_k = weights.as_ref().map(PatternEvaluator::k);
    let rules_check = Arc::new(move |rules: &Rules| {
        let k = u32::from(rules.k());
        PatternTable::new(family, k).map_err(|err| err.to_string())?;
        match fixed_k {
            Some(fixed) if fixed != k => Err(format!("the weights are for k = {fixed}, not k = {k}")),
            _ => Ok(()),
        }
    });
    let maker = Arc::new(move |game_seed| -> Box<dyn Agent> {
        let seed = mix_seed(seed, game_seed);
        Box::new(match &weights {
            Some(evaluator) => GreedyAgent::with_evaluator(evaluator.clone(), seed),
            None => GreedyAgent::new(family, seed),
        })
    });
    Ok(Built { maker, rules_check })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_lower_case() {
        for (i, engine) in ENGINES.iter().enumerate() {
            assert_eq!(engine.name, engine.name.to_ascii_lowercase());
            assert!(ENGINES[i + 1..].iter().all(|other| other.name != engine.name));
            for option in engine.options {
                assert_eq!(option.name, option.name.to_ascii_lowercase());
            }
        }
    }
}
