//! `matrix`, `montecarlo`, `td`: the tabular learners, playing from a
//! table the trainer wrote, or from one trained here on first use; with
//! `learn=true` they go on learning from every game they finish.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use board::{Cell, Position, Rules, mix_seed};
use play::{Agent, AgentError, Limits};
use tabular_rl::{
    KeySpace, LearningAgent, LearningTable, MAX_TRAINING_GAMES, MatrixParams, Policy, ScoreTable, Seat,
    Table, TabularAgent, TdLearner, TdParams, WeightMatrix,
};

use crate::built::{Built, Maker};
use crate::error::SpecError;
use crate::options::Options;

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
    let policy = fresh_table(learner, rules, symmetric, games, seed)?.into_policy();
    cache.get_or_insert_with(HashMap::new).insert(key, Arc::clone(&policy));
    Ok(policy)
}

/// A table of `learner` for `rules` after `games` training games (none:
/// an empty table).
fn fresh_table(
    learner: &'static str,
    rules: Rules,
    symmetric: bool,
    games: u64,
    seed: u64,
) -> Result<Table, AgentError> {
    KeySpace::check(&rules).map_err(|reason| AgentError::unsupported(rules, reason))?;
    let space = KeySpace::new(rules, symmetric).expect("checked");
    Ok(match learner {
        "matrix" => {
            let mut table = WeightMatrix::new(space, MatrixParams::default());
            table.train(games, Seat::Random, seed);
            Table::Matrix(table)
        }
        "montecarlo" => {
            let mut table = ScoreTable::new(space);
            table.train(games, seed);
            Table::Scores(table)
        }
        _ => {
            let mut table = TdLearner::new(space, TdParams::default());
            table.train(games, Seat::Random, seed);
            Table::Td(table)
        }
    })
}

/// How a table not read from a file starts.
#[derive(Clone, Copy)]
struct Start {
    learner: &'static str,
    symmetric: bool,
    games: u64,
    seed: u64,
}

/// An agent whose table is trained for the rules of its first game.
struct TrainedHere {
    start: Start,
    game_seed: u64,
    agent: Option<(Rules, TabularAgent)>,
}

impl TrainedHere {
    fn agent(&mut self, rules: Rules) -> Result<&mut TabularAgent, AgentError> {
        if self.agent.as_ref().is_none_or(|(trained_for, _)| *trained_for != rules) {
            let Start { learner, symmetric, games, seed } = self.start;
            let policy = trained(learner, rules, symmetric, games, seed)?;
            self.agent = Some((rules, TabularAgent::new(self.name(), policy, self.game_seed)));
        }
        Ok(&mut self.agent.as_mut().expect("just set").1)
    }
}

impl Agent for TrainedHere {
    /// Says that the table was trained here, and how.
    fn name(&self) -> String {
        let Start { learner, games, seed, .. } = self.start;
        format!("{learner} (trained here: {games} games, seed {seed})")
    }

    /// Trains (or fetches) the table before the clock of the first move runs.
    fn new_game(&mut self, rules: &Rules) {
        // A board too big is reported by the first move instead.
        let _ = self.agent(*rules);
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        self.agent(*pos.rules())?.select_move(pos, limits)
    }

    fn analysis(&self) -> Option<play::Analysis> {
        self.agent.as_ref()?.1.analysis()
    }
}

pub(super) fn build(options: &Options) -> Result<Built, SpecError> {
    let learner: &'static str = match options.engine_name() {
        "matrix" => "matrix",
        "montecarlo" => "montecarlo",
        _ => "td",
    };
    let seed: u64 = options.get("seed")?;
    let learn: bool = options.get("learn")?;
    let path: Option<String> = options.given("table")?;
    let unusable = |reason: String| SpecError::Unusable { engine: learner, option: "table", reason };
    // A table to learn from goes on from its file; a missing file is created.
    let table = match &path {
        Some(path) if !learn || Path::new(path).exists() => {
            let (table, note) =
                Table::load_noting(Path::new(path)).map_err(|error| unusable(error.to_string()))?;
            if let Some(note) = note {
                eprintln!("note: {note}");
            }
            if table.kind() != learner {
                return Err(unusable(format!("{path} holds a {} table, not a {learner} one", table.kind())));
            }
            Some(table)
        }
        Some(path) => {
            let folder = Path::new(path).parent().filter(|folder| !folder.as_os_str().is_empty());
            if folder.is_some_and(|folder| !folder.is_dir()) {
                return Err(unusable(format!("{path} cannot be created: its folder does not exist")));
            }
            None
        }
        None => None,
    };
    if let Some(table) = table {
        let trained_for = table.space().rules();
        let rules_check = Arc::new(move |rules: &Rules| {
            if *rules == trained_for {
                Ok(())
            } else {
                Err(format!("the table was trained on {trained_for}"))
            }
        });
        let maker: Maker = if learn {
            let name = options.text();
            let shared = Arc::new(LearningTable::new(table, path.map(PathBuf::from)).map_err(|err| {
                SpecError::Unusable { engine: learner, option: "table", reason: err.to_string() }
            })?);
            Arc::new(move |game_seed| -> Box<dyn Agent> {
                Box::new(LearningAgent::new(name.clone(), Arc::clone(&shared), mix_seed(seed, game_seed)))
            })
        } else {
            let policy = table.into_policy();
            Arc::new(move |game_seed| -> Box<dyn Agent> {
                Box::new(TabularAgent::new(learner, Arc::clone(&policy), mix_seed(seed, game_seed)))
            })
        };
        return Ok(Built { maker, rules_check });
    }
    let games: u64 = options.get("games")?;
    if games == 0 && !learn {
        return Err(options.bad_value(
            "games",
            format!("a whole number from 1 to {MAX_TRAINING_GAMES} (0 only with learn=true)"),
        ));
    }
    let symmetric: bool = options.get("symmetric")?;
    let rules_check = Arc::new(KeySpace::check);
    let start = Start { learner, symmetric, games, seed };
    let maker: Maker = if learn {
        let name = options.text();
        let shared: SharedLearning = Arc::new(Mutex::new(None));
        let path = path.map(PathBuf::from);
        // The file is held from now on, before any game, as a table read
        // from a file is: a second program learning into it is refused here.
        let held = path
            .as_deref()
            .map(play::files::lock_output_shared)
            .transpose()
            .map_err(|error| unusable(error.to_string()))?;
        Arc::new(move |game_seed| -> Box<dyn Agent> {
            let _held = &held;
            Box::new(LearnsHere {
                name: name.clone(),
                start,
                path: path.clone(),
                shared: Arc::clone(&shared),
                game_seed: mix_seed(seed, game_seed),
                agent: None,
            })
        })
    } else {
        Arc::new(move |game_seed| -> Box<dyn Agent> {
            Box::new(TrainedHere { start, game_seed: mix_seed(seed, game_seed), agent: None })
        })
    };
    Ok(Built { maker, rules_check })
}

/// The learning table of a spec without a table file yet, made for the
/// rules of its first game and shared by every agent of the spec.
type SharedLearning = Arc<Mutex<Option<Arc<LearningTable>>>>;

/// An agent that learns from its games, on a table started (trained, or
/// empty with games=0) for the rules of the spec's first game.
struct LearnsHere {
    name: String,
    start: Start,
    path: Option<PathBuf>,
    shared: SharedLearning,
    game_seed: u64,
    agent: Option<LearningAgent>,
}

impl LearnsHere {
    fn agent(&mut self, rules: Rules) -> Result<&mut LearningAgent, AgentError> {
        if self.agent.is_none() {
            let mut shared = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
            let table = if let Some(table) = &*shared {
                Arc::clone(table)
            } else {
                let Start { learner, symmetric, games, seed } = self.start;
                let table = fresh_table(learner, rules, symmetric, games, seed)?;
                let table = Arc::new(
                    LearningTable::new(table, self.path.clone())
                        .map_err(|err| AgentError::failed(err.to_string()))?,
                );
                *shared = Some(Arc::clone(&table));
                table
            };
            self.agent = Some(LearningAgent::new(self.name.clone(), table, self.game_seed));
        }
        Ok(self.agent.as_mut().expect("just set"))
    }
}

impl Agent for LearnsHere {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, rules: &Rules) {
        // A board the table cannot hold is reported by the first move.
        if let Ok(agent) = self.agent(*rules) {
            agent.new_game(rules);
        }
    }

    fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
        self.agent(*pos.rules())?.select_move(pos, limits)
    }

    fn analysis(&self) -> Option<play::Analysis> {
        self.agent.as_ref()?.analysis()
    }

    fn game_over(&mut self, record: &play::GameRecord) -> Result<(), AgentError> {
        self.agent.as_mut().map_or(Ok(()), |agent| agent.game_over(record))
    }

    fn games_learned(&self) -> Option<u64> {
        Some(self.agent.as_ref().map_or_else(
            || self.shared.lock().unwrap_or_else(PoisonError::into_inner).as_ref().map_or(0, |t| t.games()),
            |agent| agent.games_learned().unwrap_or(0),
        ))
    }
}
