//! Learning small m,n,k-games from games: the classic weight-matrix
//! learner, the Monte-Carlo score table, and TD / Q-learning of afterstate
//! values (see "Tabular learners" in docs/algorithms.md). Tables are keyed by the exact position (base 3), or
//! by its symmetry class (the default), on any board of up to 40 cells;
//! they are saved with bincode, and play as [`play::Agent`]s — read-only
//! ([`TabularAgent`]) or learning from every game they finish
//! ([`LearningAgent`]).
//!
//! ```
//! use board::Rules;
//! use tabular_rl::{KeySpace, MatrixParams, Seat, WeightMatrix, versus_random};
//!
//! let space = KeySpace::new(Rules::tic_tac_toe(), true).expect("a small board");
//! let mut learner = WeightMatrix::new(space, MatrixParams::default());
//! let training = learner.train(20_000, Seat::X, 1);
//! assert_eq!(training.games(), 20_000);
//! let results = versus_random(&learner, 2_000, 2);
//! assert!(results.as_x.wins > results.as_x.losses);
//! ```
#![warn(missing_docs)]

mod file;
mod game;
mod keys;
mod learning;
mod matrix;
mod montecarlo;
mod options;
mod policy;
mod td;

pub use file::{FORMAT, Table, TableError};
pub use keys::{KeySpace, Keys, MAX_AREA};
pub use learning::{LearningAgent, LearningTable};
pub use matrix::{INITIAL_WEIGHT, MatrixParams, Seat, WeightMatrix};
pub use montecarlo::ScoreTable;
pub use options::{DEFAULT_TRAINING_GAMES, MAX_TRAINING_GAMES, learner_options};
pub use policy::{Policy, TabularAgent, Tally, TrainingBlock, VersusRandom, versus_random};
pub use td::{Opponent, TdLearner, TdParams};
