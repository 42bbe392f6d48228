//! `matrix`, `montecarlo`, `td`: the tabular learners, playing from a
//! table the trainer wrote, or from one trained here on first use.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use board::{Agent, AgentError, Cell, Limits, Position, Rules, mix_seed};
use tabular_rl::{
    KeySpace, MatrixParams, Policy, ScoreTable, Seat, Table, TabularAgent, TdLearner, TdParams, WeightMatrix,
};

use super::{OptionInfo, SEED_EXPECTED};
use crate::options::Options;
use crate::spec::{Built, SpecError};

pub(super) const TABLE: OptionInfo = OptionInfo {
    name: "table",
    help: "a table file written by the trainer (default: train one on first use)",
};
pub(super) const GAMES: OptionInfo =
    OptionInfo { name: "games", help: "training games when no table is given (default 100000)" };
pub(super) const SYMMETRIC: OptionInfo = OptionInfo {
    name: "symmetric",
    help: "key positions by their symmetry class when training here: true (default) or false (the classic)",
};

/// Training games of a table trained on first use.
const DEFAULT_GAMES: u64 = 100_000;

/// Tables trained on first use, shared by every agent of the process:
/// (learner, rules, symmetric, games, seed) → the policy.
type Trained = HashMap<(&'static str, String, bool, u64, u64), Arc<dyn Policy>>;
static TRAINED: Mutex<Option<Trained>> = Mutex::new(None);

/// The policy `learner` learns in `games` games on `rules`, trained once
/// per process (later callers wait for the first and share its table).
fn trained(
    learner: &'static str,
    rules: Rules,
    symmetric: bool,
    games: u64,
    seed: u64,
) -> Result<Arc<dyn Policy>, AgentError> {
    let mut cache = TRAINED.lock().unwrap_or_else(PoisonError::into_inner);
    let key = (learner, rules.to_string(), symmetric, games, seed);
    if let Some(policy) = cache.get_or_insert_with(HashMap::new).get(&key) {
        return Ok(Arc::clone(policy));
    }
    let space = KeySpace::new(rules, symmetric).ok_or_else(|| AgentError(too_big(rules)))?;
    let policy: Arc<dyn Policy> = match learner {
        "matrix" => {
            let mut table = WeightMatrix::new(space, MatrixParams::default());
            table.train(games, Seat::Random, seed);
            Arc::new(table)
        }
        "montecarlo" => {
            let mut table = ScoreTable::new(space);
            table.train(games, seed);
            Arc::new(table)
        }
        _ => {
            let mut table = TdLearner::new(space, TdParams::default());
            table.train(games, Seat::Random, seed);
            Arc::new(table)
        }
    };
    cache.get_or_insert_with(HashMap::new).insert(key, Arc::clone(&policy));
    Ok(policy)
}

fn too_big(rules: Rules) -> String {
    format!("tables hold boards of at most {} cells, not {}", tabular_rl::MAX_AREA, rules.area())
}

/// An agent whose table is trained for the rules of its first game.
struct TrainedHere {
    learner: &'static str,
    symmetric: bool,
    games: u64,
    seed: u64,
    game_seed: u64,
    agent: Option<(Rules, TabularAgent)>,
}

impl TrainedHere {
    fn agent(&mut self, rules: Rules) -> Result<&mut TabularAgent, AgentError> {
        if self.agent.as_ref().is_none_or(|(trained_for, _)| *trained_for != rules) {
            let policy = trained(self.learner, rules, self.symmetric, self.games, self.seed)?;
            self.agent = Some((rules, TabularAgent::new(self.name(), policy, self.game_seed)));
        }
        Ok(&mut self.agent.as_mut().expect("just set").1)
    }
}

impl Agent for TrainedHere {
    /// Says that the table was trained here, and how.
    fn name(&self) -> String {
        format!("{} (trained here: {} games, seed {})", self.learner, self.games, self.seed)
    }

    /// Trains (or fetches) the table before the clock of the first move runs.
    fn new_game(&mut self, rules: &Rules) {
        // A board too big is reported by the first move instead.
        let _ = self.agent(*rules);
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        self.agent(*pos.rules())?.select_move(pos, limits)
    }
}

pub(super) fn build(options: &Options) -> Result<Built, SpecError> {
    let learner: &'static str = match options.engine_name() {
        "matrix" => "matrix",
        "montecarlo" => "montecarlo",
        _ => "td",
    };
    let seed: u64 = options.get("seed", SEED_EXPECTED)?.unwrap_or(0);
    if let Some(path) = options.get::<String>("table", "a file name")? {
        let unusable = |reason: String| SpecError::Unusable { engine: learner, option: "table", reason };
        let table = Table::load(Path::new(&path)).map_err(|error| unusable(error.to_string()))?;
        if table.kind() != learner {
            return Err(unusable(format!("{path} holds a {} table, not a {learner} one", table.kind())));
        }
        let trained_for = table.space().rules();
        let policy = table.into_policy();
        let rules_check = Arc::new(move |rules: &Rules| {
            if *rules == trained_for {
                Ok(())
            } else {
                Err(format!("the table was trained on {trained_for}"))
            }
        });
        let maker = Arc::new(move |game_seed| -> Box<dyn Agent> {
            Box::new(TabularAgent::new(learner, Arc::clone(&policy), mix_seed(seed, game_seed)))
        });
        return Ok(Built { maker, rules_check });
    }
    let games: u64 =
        options.get("games", "a whole number of games from 1 to 100000000")?.unwrap_or(DEFAULT_GAMES);
    if !(1..=100_000_000).contains(&games) {
        return Err(SpecError::BadValue {
            engine: learner,
            option: "games",
            value: games.to_string(),
            expected: "a whole number of games from 1 to 100000000",
        });
    }
    let symmetric: bool = options.get("symmetric", "true or false")?.unwrap_or(true);
    let rules_check =
        Arc::new(
            |rules: &Rules| if rules.area() <= tabular_rl::MAX_AREA { Ok(()) } else { Err(too_big(*rules)) },
        );
    let maker = Arc::new(move |game_seed| -> Box<dyn Agent> {
        Box::new(TrainedHere {
            learner,
            symmetric,
            games,
            seed,
            game_seed: mix_seed(seed, game_seed),
            agent: None,
        })
    });
    Ok(Built { maker, rules_check })
}
