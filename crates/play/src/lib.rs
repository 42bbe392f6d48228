//! Playing m,n,k-games on `board`'s rules: the interface engines
//! implement ([`Agent`], [`Evaluator`], their [`Limits`], [`Analysis`] and
//! [`EngineOption`]s), running games and clocks, the opening rules (swap1,
//! swap2, Soosõrv-8, Taraguchi-10) and the engine decisions they ask for
//! (balance, defence), SGF, and the safe file writer.
//!
//! ```
//! use board::{Bitboard, Cell, MoveError, Outcome, Position, RuleSet, Rules, Side, renju, threats};
//! use play::{Agent, Limits, RandomAgent};
//!
//! let pos = Position::new(Rules::tic_tac_toe());
//! let cell = RandomAgent::new(7).select_move(&pos, &Limits::none())?;
//! assert!(pos.is_legal(cell));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod agent;
mod analysis;
pub mod analysis_store;
pub mod balance;
pub mod clock;
pub mod defence;
mod engine_option;
pub mod files;
mod game;
mod game_record;
mod limits;
pub mod opening_rules;
mod random_agent;
pub mod sgf;
mod wrapper;

pub use agent::{Accumulator, Agent, AgentError, Evaluator};
pub use analysis::{
    Analysis, CellScore, EVALUATION_SCALE, PROVEN_BOUND, PROVEN_WIN, ScoreKind, format_score, proven_plies,
};
pub use analysis_store::{AnalysisStore, StoreEntry};
pub use engine_option::{EngineOption, OptionKind, OptionValueError, Setting, options_of};
pub use game::{OpeningError, play_game, play_game_on_clock, report_game_over};
pub use game_record::{Forfeit, GameRecord, MoveRecord, Thought};
pub use limits::{Limits, Progress, RootEvent, RootStep, StopFlag, choose_allowed};
pub use opening_rules::{
    OpeningRule, SwapChoice, SwapRecord, SwapStep, candidate_openings, choose_by_judging, opening_position,
    play_swap_game, propose_by_judging,
};
pub use random_agent::RandomAgent;
pub use wrapper::{Wrapped, Wrapper};
