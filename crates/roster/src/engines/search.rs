//! The search engines of `minimax-tree`: `alphabeta`, `minimax`, `tree`
//! and `perfect`, with the evaluation a spec names.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use analysis_db::{Database, SharedDatabase};
use board::{Rules, mix_seed};
use minimax_tree::{
    AlphaBeta, AlphaBetaAgent, AlphaBetaConfig, MinimaxAgent, PerfectPlayer, TreeMinimaxPlayer, TreePlayer,
    check_perfect, check_tree,
};
use pattern_eval::{
    CodeWeights, EvalChoice, EvalWeights, Evaluation, MovePolicy, NetWeights, OpenLines, ThreatWeights,
    WeightedFamily, default_lazy_margin,
};
use play::{Agent, EngineOption, OptionKind};

use super::for_rules::ForRules;
use crate::built::{Built, Maker};
use crate::error::SpecError;
use crate::options::Options;

/// `weights=` of `alphabeta`: the network's, the threat or the code family's weights.
pub(super) fn threat_weights_option() -> EngineOption {
    EngineOption::without_default(
        "weights",
        OptionKind::File,
        "weights file: a network (.bin) for eval=net, and for eval=auto, which then plays that network; of the code family (JSON, or .bin) for eval=codes, and for eval=auto, which then plays those code tables; of the threat family for eval=threat; built in unless given",
    )
}

/// `policy=` of `alphabeta`: a learned move policy for the code family.
pub(super) fn policy_option() -> EngineOption {
    EngineOption::without_default(
        "policy",
        OptionKind::File,
        "move policy file (JSON, from trainer policy) the search orders, reduces and prunes moves by, for eval=auto, codes or net (the network's own policy head, if it has one, still scores its quiet moves); the hand-set move score unless given",
    )
}

/// `lazy=` of `alphabeta`: the margin of the network's lazy evaluation.
pub(super) fn lazy_option() -> EngineOption {
    EngineOption::without_default(
        "lazy",
        OptionKind::Whole { min: 0, max: 100_000 },
        "where the evaluation is the network, at the leaves the code tables' score stands for it when it lies this far outside the window, in the evaluation's units (0: the network always); unless given 800 for freestyle and renju on 15 x 15, where it measured stronger, and 0 elsewhere",
    )
}

/// `db=FILE` and `db_write`: an analysis database the search consults and
/// writes back to.
pub(super) fn database_options() -> [EngineOption; 2] {
    [
        EngineOption::without_default(
            "db",
            OptionKind::File,
            "analysis database (made if missing): a forced or winning move it holds is played at once, its positions near the root decide or cut, and the search's results are written back",
        ),
        EngineOption::new(
            "db_write",
            OptionKind::Flag,
            true,
            "write the search's results back to db= (false: read it only)",
        ),
    ]
}

/// The analysis database of the searches: the one a program opened for
/// the spec, else the file `db=FILE` names, opened now — once for every
/// search the spec makes, and so that a file that is not one is an error
/// before any game — with whether to write.
fn database(options: &Options) -> Result<Option<(SharedDatabase, bool)>, SpecError> {
    if let Some(opened) = options.store() {
        return Ok(Some(opened.clone()));
    }
    let Some(path) = options.given::<String>("db")? else {
        return Ok(None);
    };
    let write: bool = options.get("db_write")?;
    let path = PathBuf::from(path);
    let opened = if write { Database::open(&path) } else { Database::open_read_only(&path) };
    let database = opened.map_err(|err| SpecError::Unusable {
        engine: "alphabeta",
        option: "db",
        reason: err.to_string(),
    })?;
    Ok(Some((SharedDatabase::new(database), write)))
}

/// The move policy `policy=FILE` names, read now so that a bad file is an
/// error before any game.
fn move_policy(options: &Options, eval: EvalChoice) -> Result<Option<Arc<MovePolicy>>, SpecError> {
    let Some(path) = options.given::<String>("policy")? else {
        return Ok(None);
    };
    let unusable = |reason: String| SpecError::Unusable { engine: "alphabeta", option: "policy", reason };
    if !matches!(eval.weighted_family(), Some(WeightedFamily::Codes | WeightedFamily::Net)) {
        return Err(unusable("a move policy goes with eval=auto, codes or net".to_owned()));
    }
    MovePolicy::load(Path::new(&path))
        .map(|policy| Some(Arc::new(policy)))
        .map_err(|err| unusable(err.to_string()))
}

/// What an `alphabeta` spec makes its searches of: the evaluation, its
/// weights and move policy, and the search's settings.
#[derive(Clone)]
pub(crate) struct AlphaBetaParts {
    eval: EvalChoice,
    weights: Option<EvalWeights>,
    policy: Option<Arc<MovePolicy>>,
    /// `lazy=`, if given: see [`lazy_option`].
    lazy_margin: Option<i32>,
    config: AlphaBetaConfig,
    /// The analysis database, opened once for every search the spec
    /// makes, and whether the searches write to it.
    database: Option<(SharedDatabase, bool)>,
}

impl AlphaBetaParts {
    /// The search for `rules`, with its analysis database if it has one.
    pub(crate) fn search(&self, rules: Rules) -> AlphaBeta<Evaluation> {
        let evaluator = self
            .eval
            .evaluator(rules, self.weights.as_ref())
            .with_policy(self.policy.as_deref())
            .with_lazy_margin(self.lazy_margin.unwrap_or_else(|| default_lazy_margin(rules)));
        let mut search = AlphaBeta::new(evaluator, self.config.clone());
        if let Some((database, write)) = &self.database {
            search.set_store(Some(database.store(*write)));
        }
        search
    }
}

pub(crate) fn alphabeta_parts(options: &Options) -> Result<AlphaBetaParts, SpecError> {
    let (eval, weights) = eval_weights(options, options.get("eval")?)?;
    let policy = move_policy(options, eval)?;
    let lazy_margin: Option<i32> = options.given("lazy")?;
    let mut config = AlphaBetaConfig::default();
    options.configure(&minimax_tree::alphabeta_settings(), &mut config)?;
    let database = database(options)?;
    Ok(AlphaBetaParts { eval, weights, policy, lazy_margin, config, database })
}

pub(super) fn build_alphabeta(options: &Options) -> Result<Built, SpecError> {
    let parts = alphabeta_parts(options)?;
    let eval = parts.eval;
    let name = options.text();
    let maker: Maker = Arc::new(move |_game_seed| -> Box<dyn Agent> {
        let (parts, name) = (parts.clone(), name.clone());
        Box::new(ForRules::new(name.clone(), move |rules| {
            Box::new(AlphaBetaAgent::new(parts.search(rules), name.clone()))
        }))
    });
    Ok(Built { maker, rules_check: Arc::new(move |rules: &Rules| eval.check(*rules)) })
}

/// The evaluation's weights from `weights=FILE`, read now so that a bad
/// file is an error before any game. Under `eval=auto` the file says
/// which evaluation it is for: a network is played as `eval=net` (the
/// default evaluation where k = 5), code weights as the code tables.
fn eval_weights(options: &Options, eval: EvalChoice) -> Result<(EvalChoice, Option<EvalWeights>), SpecError> {
    let Some(path) = options.given::<String>("weights")? else {
        return Ok((eval, None));
    };
    let unusable = |reason: String| SpecError::Unusable { engine: "alphabeta", option: "weights", reason };
    let path = Path::new(&path);
    if eval == EvalChoice::Auto {
        return match (NetWeights::load(path), CodeWeights::load(path)) {
            (Ok(net), _) => Ok((EvalChoice::Net, Some(EvalWeights::Net(net)))),
            (_, Ok(codes)) => Ok((eval, Some(EvalWeights::Codes(codes)))),
            (Err(net), Err(codes)) => {
                Err(unusable(format!("neither a network ({net}) nor code weights ({codes})")))
            }
        };
    }
    let weights = match eval.weighted_family() {
        Some(WeightedFamily::Codes) => CodeWeights::load(path).map(EvalWeights::Codes),
        Some(WeightedFamily::Threat) => ThreatWeights::load(path).map(EvalWeights::Threat),
        Some(WeightedFamily::Net) => NetWeights::load(path).map(EvalWeights::Net),
        None => {
            return Err(unusable(
                "weights are for the code evaluation (eval=auto or eval=codes), the threat evaluation (eval=threat) \
                 or the network (eval=net)"
                    .to_owned(),
            ));
        }
    };
    weights.map(|weights| (eval, Some(weights))).map_err(|err| unusable(err.to_string()))
}

pub(super) fn build_minimax(options: &Options) -> Result<Built, SpecError> {
    let depth: u32 = options.get("depth")?;
    let eval: EvalChoice = options.get("eval")?;
    let seed: u64 = options.get("seed")?;
    let maker: Maker = Arc::new(move |game_seed| -> Box<dyn Agent> {
        let seed = mix_seed(seed, game_seed);
        Box::new(ForRules::new(format!("minimax:depth={depth}"), move |rules| {
            Box::new(MinimaxAgent::new(eval.evaluator(rules, None), depth, seed))
        }))
    });
    Ok(Built { maker, rules_check: Arc::new(move |rules: &Rules| eval.check(*rules)) })
}

pub(super) fn build_tree(options: &Options) -> Result<Built, SpecError> {
    let minimax: Option<u32> = options.given("minimax")?;
    let seed: u64 = options.get("seed")?;
    let maker = Arc::new(move |game_seed| -> Box<dyn Agent> {
        match minimax {
            Some(depth) => Box::new(TreeMinimaxPlayer::new(OpenLines, depth)),
            None => Box::new(TreePlayer::new(mix_seed(seed, game_seed))),
        }
    });
    Ok(Built {
        maker,
        rules_check: Arc::new(|rules: &Rules| check_tree(rules).map_err(|err| err.to_string())),
    })
}

#[allow(clippy::unnecessary_wraps, reason = "every builder has the same signature")]
pub(super) fn build_perfect(_options: &Options) -> Result<Built, SpecError> {
    let maker = Arc::new(|_game_seed| -> Box<dyn Agent> { Box::new(PerfectPlayer::new()) });
    Ok(Built { maker, rules_check: Arc::new(check_perfect) })
}
