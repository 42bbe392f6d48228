//! The shared vocabulary of mnk: rules of m,n,k-games, positions with
//! incremental win detection and hashing, symmetry, notation, and the
//! [`Agent`] and [`Evaluator`] traits every engine implements.
//!
//! ```
//! use board::{Outcome, Position, Rules, Side};
//!
//! let rules = Rules::tic_tac_toe();
//! let mut pos = Position::new(rules);
//! for name in ["b2", "a1", "c1", "a3", "a2", "c3", "c2"] {
//!     pos.play(rules.parse_cell(name)?)?;
//! }
//! assert_eq!(pos.outcome(), Some(Outcome::Win(Side::X)));
//! assert_eq!(pos.to_one_line(), "o.o/xxx/o.x");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod agent;
pub mod balance;
mod bitboard;
mod cell;
pub mod clock;
pub mod defence;
mod engine_option;
pub mod files;
mod game;
mod lines;
mod perft;
mod position;
mod random;
pub mod renju;
pub mod rif_opening;
mod rules;
pub mod sgf;
mod side;
mod swap;
mod swap_game;
mod symmetry;
mod text;
pub mod threats;
mod zobrist;

pub use agent::{
    Agent, AgentError, Analysis, CellScore, EVALUATION_SCALE, Evaluator, Limits, PROVEN_WIN, Progress,
    RootEvent, RootStep, ScoreKind, StopFlag, choose_allowed, format_score, proven_plies,
};
pub use bitboard::{Bitboard, Cells};
pub use cell::{Cell, CellError, CellName, ColumnName};
pub use engine_option::{EngineOption, OptionKind, OptionValueError};
pub use game::{
    Forfeit, GameRecord, MoveRecord, OpeningError, Thought, play_game, play_game_on_clock, report_game_over,
};
pub use lines::Direction;
pub use perft::{Perft, perft};
pub use position::{MoveError, Position, SetupError, WinningLine};
pub use random::{Playout, RandomAgent, random_playout};
pub use rules::{MAX_SIZE, RuleSet, Rules, RulesError};
pub use side::{Outcome, Side};
pub use swap::{
    OpeningRule, SwapChoice, SwapRecord, SwapStep, candidate_openings, choose_by_judging, opening_position,
    propose_by_judging,
};
pub use swap_game::play_swap_game;
pub use symmetry::Transform;
pub use text::{MovesError, PositionError, excerpt, shorten_words};
pub use zobrist::{key as zobrist_key, mix_seed};
