//! What a trained table does with a position: a policy. Policies play as
//! [`play::Agent`]s and are measured against a uniformly random player.

use std::sync::Arc;

use board::{Cell, Outcome, Position, Rules, Side, mix_seed};
use play::{Agent, AgentError, Analysis, CellScore, Limits, ScoreKind};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::keys::{KeySpace, Keys};

/// A trained table's way of choosing moves (learning while playing is
/// [`crate::LearningAgent`]'s).
pub trait Policy: Send + Sync {
    /// The board and keys the table was trained on.
    fn space(&self) -> &KeySpace;

    /// The move for the side to move in `pos` (not over), whose keys are `keys`.
    fn choose(&self, pos: &Position, keys: &Keys, empty: &[Cell], rng: &mut SmallRng) -> Cell;

    /// What the table says of each empty cell of `pos`, and in what kind:
    /// the weight matrix the chance of drawing it, the others the learned
    /// value of the position it leads to.
    fn scores(&self, pos: &Position, keys: &Keys, empty: &[Cell]) -> (ScoreKind, Vec<CellScore>);
}

/// The analysis of a move a table chose: each cell's score, as
/// [`Policy::scores`] gives them.
pub(crate) fn analysis_of(
    policy: &dyn Policy,
    pos: &Position,
    keys: &Keys,
    empty: &[Cell],
    chosen: Cell,
) -> Analysis {
    let (score_kind, scores) = policy.scores(pos, keys, empty);
    let value = scores.iter().find(|score| score.cell == chosen).map(|score| score.score);
    Analysis::of_move(chosen, score_kind)
        .with_scores(scores.iter().map(|score| (score.cell, score.score)))
        .with_value(value)
        .with_nodes(1)
}

/// Results from the learner's view: wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Tally {
    /// Counts a game that ended in `outcome`, the learner playing `side`.
    pub fn add(&mut self, outcome: Outcome, side: Side) {
        match outcome {
            Outcome::Draw => self.draws += 1,
            Outcome::Win(winner) if winner == side => self.wins += 1,
            Outcome::Win(_) => self.losses += 1,
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds another tally.
    #[must_use]
    pub fn merged(self, other: Tally) -> Tally {
        Tally {
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
        }
    }

    /// A share of the games, in percent.
    #[must_use]
    pub fn percent(&self, count: u64) -> f64 {
        if self.games() == 0 { 0.0 } else { 100.0 * count as f64 / self.games() as f64 }
    }
}

/// The results of a block of training games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrainingBlock {
    /// From the learner's view (for self-play, from X's).
    pub learner: Tally,
    /// Games X won.
    pub x_wins: u64,
    /// Games O won.
    pub o_wins: u64,
    /// Games drawn.
    pub draws: u64,
}

impl TrainingBlock {
    /// Counts a game the learner played as `side`.
    pub fn add(&mut self, outcome: Outcome, side: Side) {
        self.learner.add(outcome, side);
        match outcome {
            Outcome::Win(Side::X) => self.x_wins += 1,
            Outcome::Win(Side::O) => self.o_wins += 1,
            Outcome::Draw => self.draws += 1,
        }
    }

    /// Adds another block.
    #[must_use]
    pub fn merged(self, other: TrainingBlock) -> TrainingBlock {
        TrainingBlock {
            learner: self.learner.merged(other.learner),
            x_wins: self.x_wins + other.x_wins,
            o_wins: self.o_wins + other.o_wins,
            draws: self.draws + other.draws,
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.x_wins + self.o_wins + self.draws
    }
}

/// A policy's results against a uniformly random player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersusRandom {
    /// Playing X.
    pub as_x: Tally,
    /// Playing O.
    pub as_o: Tally,
}

/// Games per chunk of an evaluation: each chunk has its own seed, so the
/// results do not depend on the number of threads.
const CHUNK: u64 = 1024;

/// Plays `games` games as X and `games` as O against a uniformly random
/// player, in parallel, reproducibly from `seed`.
pub fn versus_random(policy: &dyn Policy, games: u64, seed: u64) -> VersusRandom {
    let chunks = games.div_ceil(CHUNK);
    let play = |side: Side| -> Tally {
        (0..chunks)
            .into_par_iter()
            .map(|chunk| {
                let mut rng = SmallRng::seed_from_u64(mix_seed(mix_seed(seed, side.index() as u64), chunk));
                let mut game = Game::new(policy.space());
                let mut tally = Tally::default();
                for _ in 0..CHUNK.min(games - chunk * CHUNK) {
                    game.reset();
                    let outcome = loop {
                        if let Some(outcome) = game.outcome() {
                            break outcome;
                        }
                        let cell = if game.side() == side {
                            policy.choose(&game.pos, &game.keys, game.moves(), &mut rng)
                        } else {
                            game.random_move(&mut rng)
                        };
                        game.play(cell);
                    };
                    tally.add(outcome, side);
                }
                tally
            })
            .reduce(Tally::default, Tally::merged)
    };
    VersusRandom { as_x: play(Side::X), as_o: play(Side::O) }
}

/// A policy as a [`play::Agent`], for the arena, the TUI and the bench.
pub struct TabularAgent {
    name: String,
    policy: Arc<dyn Policy>,
    rng: SmallRng,
    /// The empty cells of the position asked about, reused move to move.
    empty: Vec<Cell>,
    analysis: Option<Analysis>,
}

impl std::fmt::Debug for TabularAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TabularAgent").field("name", &self.name).finish_non_exhaustive()
    }
}

impl TabularAgent {
    /// An agent named `name` that plays `policy`, breaking ties from `seed`.
    #[must_use]
    pub fn new(name: impl Into<String>, policy: Arc<dyn Policy>, seed: u64) -> TabularAgent {
        TabularAgent {
            name: name.into(),
            policy,
            rng: SmallRng::seed_from_u64(seed),
            empty: Vec::new(),
            analysis: None,
        }
    }

    fn check(&self, rules: Rules) -> Result<(), AgentError> {
        let trained = self.policy.space().rules();
        if rules == trained {
            Ok(())
        } else {
            Err(AgentError::unsupported(
                rules,
                format!("{} was trained on {trained}, not {rules}", self.name),
            ))
        }
    }
}

impl Agent for TabularAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(&mut self, pos: &Position, _limits: &Limits) -> Result<Cell, AgentError> {
        self.check(*pos.rules())?;
        if pos.outcome().is_some() {
            return Err(AgentError::GameOver);
        }
        let keys = self.policy.space().keys_of(pos);
        self.empty.clear();
        self.empty.extend(pos.legal_cells().iter());
        let cell = self.policy.choose(pos, &keys, &self.empty, &mut self.rng);
        self.analysis = Some(analysis_of(&*self.policy, pos, &keys, &self.empty, cell));
        Ok(cell)
    }

    fn analysis(&self) -> Option<Analysis> {
        self.analysis.clone()
    }
}
