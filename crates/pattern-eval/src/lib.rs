//! Every evaluation of m,n,k-games, and the choice among them by name.
//! Most are line-pattern evaluations: for every empty cell, the marks on
//! the four lines through it, within k−1 cells on each side, looked up in
//! a weight vector.
//!
//! - [`PatternTable`]: the patterns of a [`Family`] for one k, which ones
//!   share a weight (a pattern and its mirror image), and the layout of a
//!   weight vector. The classic family (binary masks, opponent unseen) has
//!   109 weights for k = 5, in the order the classic gomoku weight
//!   vectors use, so a published vector loads as is.
//! - [`Weights`]: a weight vector, read and written as a plain JSON array
//!   or as bincode; [`Weights::default_for`] gives the weights engines
//!   play with: for k = 5 the embedded vectors (the classic ones evolved
//!   by the genetic crate), else [`Weights::hand_set`].
//! - [`PatternEvaluator`]: cell scores and a position score from weights;
//!   it implements [`play::Evaluator`] for search engines.
//! - [`PatternBoard`]: every cell's windows, kept up to date incrementally
//!   as marks are placed and removed.
//! - [`GreedyAgent`]: plays the best-scoring cell.
//! - [`ThreatEvaluator`]: the threat family, scored from the line-pattern
//!   classes of [`board::threats`] with [`ThreatWeights`]; the default
//!   evaluation of the `alphabeta` engine where k is 4 to 8.
//! - [`CodeEvaluator`]: the code family, a value per cell shape (its four
//!   line patterns as a multiset) with [`CodeWeights`], summed as moves
//!   are made in the accumulator a search keeps
//!   ([`play::Evaluator::accumulator`]); it generalises the
//!   threat family, whose weights it can take over exactly.
//! - [`NetEvaluator`]: the line-pattern network ([`net`]), a learned
//!   value per window summed per cell, clipped, pooled and read by a
//!   small dense head; kept move by move.
//! - [`OpenLines`]: the classic open-lines heuristic, for any k.
//! - [`Evaluation`] and [`EvalChoice`]: every evaluation above as one
//!   type, chosen by name (`eval=` of a spec) for a game's rules — the
//!   one place a search engine's evaluation is picked.
//!
//! ```
//! use board::{Position, Rules};
//! use play::{Agent, Limits};
//! use pattern_eval::{Family, GreedyAgent, PatternTable};
//!
//! assert_eq!(PatternTable::classic(5)?.len(), 109);
//!
//! let rules = Rules::gomoku15();
//! let mut pos = Position::new(rules);
//! for name in ["h8", "a1", "h9", "a2", "h10", "a3", "h11"] {
//!     pos.play(rules.parse_cell(name)?)?;
//! }
//! // O must block the four: h7 or h12.
//! let mut greedy = GreedyAgent::new(Family::Ternary, 7);
//! let reply = greedy.select_move(&pos, &Limits::none())?;
//! assert!(["h7", "h12"].contains(&reply.name(&rules).to_string().as_str()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod code_eval;
mod evaluation;
mod evaluator;
mod greedy;
mod hand_set;
mod incremental;
mod kept;
mod move_policy;
pub mod net;
mod open_lines;
mod shapes;
mod table;
mod threat_eval;
pub mod threat_mask;
mod weights;
mod window;

pub use code_eval::{CodeEvaluator, CodeWeights, MAX_CODE_WEIGHT};
pub use evaluation::{
    EVAL_NAMES, EvalChoice, EvalWeights, Evaluation, VALUE_NAMES, WeightedFamily, default_lazy_margin,
    leaf_value_for, net_is_default,
};
pub use evaluator::{BLOCKS_NOW, FORCED_WIN, PatternEvaluator, WINS_NOW};
pub use greedy::{GreedyAgent, greedy_options};
pub use incremental::PatternBoard;
pub use move_policy::MovePolicy;
pub use net::{NetEvaluator, NetWeights};
pub use open_lines::{OPEN_LINES_WIN, OpenLines, open_segments};
pub use shapes::{
    PLAIN_SHAPES, SHAPES, plain_shape, plain_shape_name, plain_shape_patterns, shape, shape_name,
};
pub use table::{Family, FamilyError, MAX_K, MIN_K, PatternIndex, PatternTable, UnsupportedK};
pub use threat_eval::{THREAT_FEATURES, ThreatEvaluator, ThreatWeights};
pub use weights::{FORMAT, MAX_WEIGHT, Weights, WeightsError};
pub use window::Window;
