//! `uct` and `mcts`: UCB1 Monte-Carlo tree search, the classic and the
//! one with every option, priors from the evaluation a spec names.

use std::sync::Arc;

use board::mix_seed;
use mcts::{MctsAgent, MctsConfig};
use pattern_eval::{EvalChoice, leaf_value_for};
use play::{Agent, Evaluator};

use super::for_rules::ForRules;
use crate::built::{Built, Maker};
use crate::error::SpecError;
use crate::options::Options;

pub(super) fn build(options: &Options) -> Result<Built, SpecError> {
    // `uct` is the classic and takes none of the options beyond it.
    let classic = options.engine_name() == "uct";
    let (mut config, settings) = if classic {
        (MctsConfig::uct(), mcts::uct_settings())
    } else {
        (MctsConfig::strong(), mcts::mcts_settings())
    };
    options.configure(&settings, &mut config)?;
    let seed: u64 = options.get("seed")?;
    let mut priors = None;
    let mut leaf_value = None;
    let mut ranked = false;
    if !classic {
        // What the roster composes: the evaluations of the priors, the
        // ranked playouts and the leaves' values.
        ranked = options.get::<String>("playout")? == "ranked";
        let prior: String = options.get("prior")?;
        // Every name but `none` names an evaluation.
        priors = prior.parse::<EvalChoice>().ok();
        // Every name but `playout` names an evaluation.
        leaf_value = options.get::<String>("value")?.parse::<EvalChoice>().ok();
    }
    let maker: Maker = match (priors, ranked, leaf_value) {
        (None, false, None) => Arc::new(move |game_seed| -> Box<dyn Agent> {
            Box::new(MctsAgent::new(config.clone(), mix_seed(seed, game_seed)))
        }),
        // Priors, ranked playouts and valued leaves score with an
        // evaluation made for the game's rules.
        _ => Arc::new(move |game_seed| -> Box<dyn Agent> {
            let config = config.clone();
            let seed = mix_seed(seed, game_seed);
            Box::new(ForRules::new("uct".to_owned(), move |rules| {
                let evaluator =
                    |choice: EvalChoice| Arc::new(choice.evaluator(rules, None)) as Arc<dyn Evaluator>;
                let playout_ranking = ranked.then(|| evaluator(priors.unwrap_or(EvalChoice::Auto)));
                let config = MctsConfig {
                    priors: priors.map(evaluator),
                    playout_ranking,
                    leaf_value: leaf_value.and_then(|choice| leaf_value_for(choice, rules)).map(evaluator),
                    ..config.clone()
                };
                Box::new(MctsAgent::new(config, seed))
            }))
        }),
    };
    if priors.is_none() && leaf_value.is_none() {
        return Ok(Built::any_rules(maker));
    }
    let check = move |rules: &board::Rules| {
        // Under caro-freestyle, whose fives the threat tables do not
        // keep, the priors' evaluation has none to read and ranks no
        // move: the tree searches without priors there.
        match priors {
            Some(choice) if board::threats::tables_rule_set(*rules) => choice.check(*rules)?,
            _ => {}
        }
        leaf_value
            .and_then(|choice| leaf_value_for(choice, *rules))
            .map_or(Ok(()), |choice| choice.check(*rules))
    };
    Ok(Built { maker, rules_check: Arc::new(check) })
}
