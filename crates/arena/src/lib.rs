//! Engines against each other: matches, round robins and gauntlets played
//! in parallel, with win/draw/loss tables, Elo differences with 95%
//! confidence intervals, a sequential probability ratio test, maximum-
//! likelihood ratings, and every game recorded as one JSON line.
//!
//! The arena knows engines only as [`play::Agent`] factories
//! ([`Entrant`]); which engines exist is the apps' business.
//!
//! ```
//! use arena::{Entrant, Plan, RunOptions, run};
//! use board::Rules;
//! use play::RandomAgent;
//!
//! let random = |label: &str| Entrant::new(label, |seed| Box::new(RandomAgent::new(seed)));
//! let plan = Plan { seed: 7, ..Plan::new(Rules::tic_tac_toe(), vec![random("a"), random("b")], 20) };
//! let summary = run(&plan, RunOptions::default())?;
//! assert_eq!(summary.games_counted, 20);
//! assert_eq!(summary.pairings[0].results.games(), 20);
//! # Ok::<(), arena::ArenaError>(())
//! ```
#![warn(missing_docs)]

pub mod elo;
mod guard;
mod merge;
mod openings;
mod plan;
pub mod ratings;
mod records;
mod run;
mod schedule;
mod shard;
pub mod sprt;
mod summary;

use std::path::PathBuf;

use thiserror::Error;

pub use merge::merge;
pub use openings::{Openings, OpeningsError};
pub use plan::{Entrant, Plan};
pub use records::{GameLine, RunHeader, read_records, read_run};
pub use run::{Live, RATING_PRIOR, RunOptions, run};
pub use schedule::{Format, Slot};
pub use shard::{Shard, list_games, shards_not_given};
pub use summary::{PairingSummary, SprtState, Summary};

/// Why a run could not be played or finished.
#[derive(Debug, Error)]
pub enum ArenaError {
    /// The plan is inconsistent.
    #[error("{0}")]
    Plan(String),
    /// Its openings cannot be drawn.
    #[error(transparent)]
    Openings(#[from] OpeningsError),
    /// An opening cannot be played.
    #[error(transparent)]
    Opening(#[from] play::OpeningError),
    /// The records file cannot be read or written.
    #[error("records file {path}: {error}")]
    Records {
        /// The file.
        path: PathBuf,
        /// What failed (in the message, not as a source, so that a chain
        /// of causes does not say it twice).
        error: std::io::Error,
    },
    /// The records file already holds games and resuming was not asked for.
    #[error(
        "records file {path} already holds {games} games: resume it (bench: --resume) to play only the missing games, or write to another file"
    )]
    RecordsExist {
        /// The file.
        path: PathBuf,
        /// Games it holds.
        games: usize,
    },
    /// The records file belongs to another run.
    #[error(
        "records file {path} holds game {game} of another run (other rules, engines, games, openings, limits or seed): \
         resume with the same settings, or write to another file"
    )]
    OtherRun {
        /// The file.
        path: PathBuf,
        /// The first game from elsewhere.
        game: u64,
    },
    /// A line of the records file is not a game of this run.
    #[error("records file {path}, line {line}: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// The line (or game) at fault.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// The worker threads could not start.
    #[error("cannot start the worker threads: {0}")]
    Threads(String),
    /// The shards' records cannot be merged into their run.
    #[error("{0}")]
    Merge(String),
    /// An engine said it cannot play the run's games at all (a brain that
    /// does not speak the opening rule's protocol, say).
    #[error("{engine} cannot play this run: {reason}")]
    Unsupported {
        /// The entrant's label.
        engine: String,
        /// What it said.
        reason: String,
    },
    /// Something panicked outside any engine's move (building an agent, say).
    #[error("a game could not be played: {0}")]
    Panic(String),
}
