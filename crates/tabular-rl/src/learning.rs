//! Learning while playing: a table shared by the agents that play from
//! it, updated from every game they finish by the learner's own rule, and
//! saved after each, so the next session goes on from there.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use board::{Cell, Position, Rules, Side};
use play::{Agent, AgentError, Analysis, GameRecord, Limits};
use rand::SeedableRng;
use rand::rngs::SmallRng;

use crate::file::{Table, TableError};
use crate::policy::{Policy, analysis_of};

impl Table {
    /// The table as a policy, borrowed.
    #[must_use]
    pub fn as_policy(&self) -> &dyn Policy {
        match self {
            Table::Matrix(table) => table,
            Table::Scores(table) => table,
            Table::Td(table) => table,
        }
    }

    /// Learns from a finished game the learner played as `side`, by the
    /// learner's own rule (the score table learns from every decisive
    /// game whatever the side). Returns whether the game taught anything.
    pub fn learn_game(&mut self, record: &GameRecord, side: Side) -> bool {
        match self {
            Table::Matrix(table) => table.learn_game(record, side),
            Table::Scores(table) => table.learn_game(record),
            Table::Td(table) => table.learn_game(record, side),
        }
    }
}

/// A table that learns from the finished games of every agent playing
/// from it, and is written to its file (if it has one) after each.
#[derive(Debug)]
pub struct LearningTable {
    path: Option<PathBuf>,
    rules: Rules,
    state: Mutex<Learned>,
    /// The hold on the file, taken before any game: a second program
    /// learning into the same file is refused before it plays, not after.
    _lock: Option<Arc<play::files::OutputLock>>,
}

#[derive(Debug)]
struct Learned {
    table: Table,
    games: u64,
}

impl LearningTable {
    /// Learning goes on from `table`; with `path`, the table is saved
    /// there after every game it learns from, and the file is held from now
    /// on: no other program may learn into it while this table lives (other
    /// tables of this program share the hold).
    ///
    /// # Errors
    /// [`TableError::Io`] if another program holds the file ("another
    /// program is writing"), or its lock cannot be made.
    pub fn new(table: Table, path: Option<PathBuf>) -> Result<LearningTable, TableError> {
        let rules = table.space().rules();
        let lock = match &path {
            Some(path) => Some(
                play::files::lock_output_shared(path)
                    .map_err(|source| TableError::Io { path: path.display().to_string(), source })?,
            ),
            None => None,
        };
        Ok(LearningTable { path, rules, state: Mutex::new(Learned { table, games: 0 }), _lock: lock })
    }

    /// The rules the table is for.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The file it is saved to, if any.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Games learned from since it was made.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.lock().games
    }

    /// A copy of the table as it stands.
    #[must_use]
    pub fn snapshot(&self) -> Table {
        self.lock().table.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Learned> {
        // A panic elsewhere cannot leave a table half-updated in a way
        // that matters more than losing it: go on with it.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Learns from `record`, played as `side`, and saves the table.
    /// Returns whether the game taught anything.
    ///
    /// # Errors
    /// [`TableError`] if the table could not be saved; what was learned is
    /// kept in memory.
    pub fn learn(&self, record: &GameRecord, side: Side) -> Result<bool, TableError> {
        let mut learned = self.lock();
        if !learned.table.learn_game(record, side) {
            return Ok(false);
        }
        learned.games += 1;
        if let Some(path) = &self.path {
            learned.table.save(path)?;
        }
        Ok(true)
    }

    /// The table's move, and its analysis.
    fn choose(&self, pos: &Position, empty: &[Cell], rng: &mut SmallRng) -> (Cell, Analysis) {
        let learned = self.lock();
        let policy = learned.table.as_policy();
        let keys = policy.space().keys_of(pos);
        let cell = policy.choose(pos, &keys, empty, rng);
        (cell, analysis_of(policy, pos, &keys, empty, cell))
    }
}

/// An agent that plays from a [`LearningTable`] and teaches it every game
/// it finishes.
#[derive(Debug)]
pub struct LearningAgent {
    name: String,
    table: Arc<LearningTable>,
    rng: SmallRng,
    /// The side it has played in this game, once it has moved.
    side: Option<Side>,
    empty: Vec<Cell>,
    analysis: Option<Analysis>,
}

impl LearningAgent {
    /// An agent named `name` playing from `table`, breaking ties from `seed`.
    #[must_use]
    pub fn new(name: impl Into<String>, table: Arc<LearningTable>, seed: u64) -> LearningAgent {
        LearningAgent {
            name: name.into(),
            table,
            rng: SmallRng::seed_from_u64(seed),
            side: None,
            empty: Vec::new(),
            analysis: None,
        }
    }
}

impl Agent for LearningAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _rules: &Rules) {
        self.side = None;
    }

    fn select_move(&mut self, pos: &Position, _limits: &Limits) -> Result<Cell, AgentError> {
        let trained = self.table.rules();
        if *pos.rules() != trained {
            return Err(AgentError::unsupported(
                *pos.rules(),
                format!("{} learns {trained}, not {}", self.name, pos.rules()),
            ));
        }
        if pos.is_over() {
            return Err(AgentError::GameOver);
        }
        self.side = Some(pos.side_to_move());
        self.empty.clear();
        self.empty.extend(pos.legal_cells().iter());
        let (cell, analysis) = self.table.choose(pos, &self.empty, &mut self.rng);
        self.analysis = Some(analysis);
        Ok(cell)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }

    /// Learns from the game if it moved in it (a game taken back after its
    /// end and finished again is learned from again: it is another game).
    fn game_over(&mut self, record: &GameRecord) -> Result<(), AgentError> {
        let Some(side) = self.side else {
            return Ok(());
        };
        self.table
            .learn(record, side)
            .map(|_| ())
            .map_err(|error| AgentError::failed(format!("what this game taught was not saved: {error}")))
    }

    fn games_learned(&self) -> Option<u64> {
        Some(self.table.games())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{KeySpace, MatrixParams, WeightMatrix};
    use play::{RandomAgent, play_game};

    fn fresh_matrix() -> Table {
        let space = KeySpace::new(Rules::tic_tac_toe(), true).unwrap();
        Table::Matrix(WeightMatrix::new(space, MatrixParams::default()))
    }

    #[test]
    fn agents_sharing_a_table_learn_each_finished_game_once() {
        let table = Arc::new(LearningTable::new(fresh_matrix(), None).unwrap());
        let rules = Rules::tic_tac_toe();
        for game in 1..=5 {
            let mut learner = LearningAgent::new("matrix", Arc::clone(&table), game);
            let mut random = RandomAgent::new(game);
            let record = play_game(rules, [&mut learner, &mut random], &[], &Limits::none()).unwrap();
            assert!(record.learning_errors.is_empty());
            // Every finished game counts, a draw too (it changes no weight).
            assert_eq!(table.games(), game, "{:?}", record.outcome);
            assert_eq!(learner.games_learned(), Some(game));
        }
        let Table::Matrix(matrix) = table.snapshot() else { panic!("a matrix") };
        assert!(matrix.situations() >= 5);
    }

    #[test]
    fn an_agent_that_did_not_move_learns_nothing_and_other_rules_are_refused() {
        let table = Arc::new(LearningTable::new(fresh_matrix(), None).unwrap());
        let mut agent = LearningAgent::new("matrix", Arc::clone(&table), 0);
        let record = crate::game::record_of(Rules::tic_tac_toe(), &[], "a1 b2 b1 c1 c2 a3");
        agent.game_over(&record).unwrap();
        assert_eq!(table.games(), 0);
        let four = Rules::new(4, 4, 3, board::RuleSet::Freestyle).unwrap();
        let error = agent.select_move(&Position::new(four), &Limits::none()).unwrap_err();
        assert_eq!(error.to_string(), "matrix learns 3,3,3, not 4,4,3");
        assert!(matches!(error, AgentError::UnsupportedRules { .. }));
    }
}
