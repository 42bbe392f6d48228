//! `pattern`: the greedy line-pattern player.

use std::path::Path;
use std::sync::Arc;

use board::{Rules, mix_seed};
use pattern_eval::{Family, GreedyAgent, PatternEvaluator, PatternTable, Weights};
use play::Agent;

use crate::built::Built;
use crate::error::SpecError;
use crate::options::Options;

pub(super) fn build(options: &Options) -> Result<Built, SpecError> {
    let seed: u64 = options.get("seed")?;
    let family: Family = options.get("family")?;
    let weights = options
        .given::<String>("weights")?
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
