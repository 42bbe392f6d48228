//! m,n,k-games by search.
//!
//! - [`SymmetricTree`]: the classic explicit game tree of a small board,
//!   one position per symmetry class and layer, solved by backward
//!   induction; [`TreePlayer`] plays from it.
//! - [`minimax`] and [`MinimaxAgent`]: depth-limited minimax on any
//!   board, preferring sooner wins; [`TreeMinimax`], the classic minimax
//!   over the symmetric tree. Every search here scores positions with the
//!   [`play::Evaluator`] it is given: the evaluations are pattern-eval's
//!   (the classic players' is its open lines).
//! - [`AlphaBeta`] and [`AlphaBetaAgent`]: a real engine for any board,
//!   generic over [`play::Evaluator`].
//! - [`find_threat_win`] and [`ThreatSearch`]: the threat-space search,
//!   victory by continuous fours (VCF) and through threes (VCT) over
//!   [`board::threats`], by fours alone over the lines where k is beyond
//!   its tables ([`LineScan`]).
//! - [`Solver`] and [`PerfectPlayer`]: proven values of small games.
//!
//! ```
//! use board::{Cell, Position, Rules};
//! use play::{Evaluator, Limits};
//! use minimax_tree::{AlphaBeta, AlphaBetaConfig};
//!
//! /// Nothing but the result: a won game is worth 1,000, all else 0.
//! struct Result;
//! impl Evaluator for Result {
//!     fn evaluate(&self, pos: &Position) -> i32 {
//!         let winner = pos.outcome().and_then(|outcome| outcome.winner());
//!         winner.map_or(0, |side| if side == pos.side_to_move() { 1_000 } else { -1_000 })
//!     }
//!     fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
//!         out.clear();
//!         out.extend(pos.legal_moves().map(|cell| (cell, 0)));
//!     }
//! }
//!
//! let rules = Rules::tic_tac_toe();
//! let pos = Position::from_one_line(rules, "x../.o./..x")?;
//! let mut engine = AlphaBeta::new(Result, AlphaBetaConfig::default());
//! let result = engine.search(&pos, &Limits::depth(9));
//! // O must not take a corner: only an edge holds the draw.
//! assert_eq!(result.value, 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod alphabeta;
mod candidates;
mod canonical;
mod minimax;
mod options;
mod pairing;
mod solver;
mod threat_search;
mod tree;
mod tree_minimax;

pub use alphabeta::{
    AlphaBeta, AlphaBetaAgent, AlphaBetaConfig, AlphaBetaReport, Cut, Cutoffs, EVAL_LIMIT, History, MATE,
    Reason,
};
pub use candidates::Candidates;
pub use canonical::{MAX_AREA, Symmetries};
pub use minimax::{CLASSIC_DEPTH, MinimaxAgent, minimax};
pub use options::{MAX_MINIMAX_DEPTH, alphabeta_options, alphabeta_settings, minimax_options, tree_options};
pub use solver::{
    DEFAULT_SOLVER_BYTES, PERFECT_AREA, PerfectPlayer, Solution, SolveError, Solver, check_perfect,
};
pub use threat_search::{
    Deepening, LineScan, ThreatLimits, ThreatSearch, ThreatView, ThreatWin, find_threat_win, three_defences,
};
pub use tree::{DEFAULT_TREE_BUDGET, SymmetricTree, TreeError, TreePlayer, check_tree};
pub use tree_minimax::{CLASSIC_TREE_DEPTH, TreeChoice, TreeMinimax, TreeMinimaxPlayer};
