//! Monte-Carlo tree search for m,n,k-games.
//!
//! [`Mcts`] is classic UCB1 search exactly as first described: from the
//! root, choose the child maximising `w/n + c·√(ln N / n)` (c = √2 by
//! default) until a node with an untried move; try one new move (one new
//! node per iteration); play uniformly random moves to the end; credit 1,
//! ½ or 0 to every node on the path, from the view of the player who moved
//! into it. The move played is the most visited child. Nodes live in one
//! flat arena addressed by index, bounded by a node limit.
//!
//! Beyond the classic, each switched by [`MctsConfig`]: tree reuse,
//! heuristic playouts, MCTS-Solver, PUCT with priors from a
//! [`play::Evaluator`], playouts ranked by an evaluator,
//! and parallel search: a tree per thread, or one tree shared with
//! virtual loss.
//!
//! ```
//! use board::{Position, Rules};
//! use play::{Agent, Limits};
//! use mcts::{MctsAgent, MctsConfig};
//!
//! let rules = Rules::tic_tac_toe();
//! let pos = Position::from_one_line(rules, "xx./oo./...")?;
//! let mut agent = MctsAgent::new(MctsConfig { iterations: 2_000, ..MctsConfig::default() }, 1);
//! let cell = agent.select_move(&pos, &Limits::none())?;
//! assert_eq!(cell.name(&rules).to_string(), "c3");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod agent;
mod config;
mod playout;
mod search;
mod sqrt_ln;

pub use agent::MctsAgent;
pub use config::{MctsConfig, VALUE_SCALE, mcts_options, mcts_settings, uct_options, uct_settings};
pub use search::{Mcts, MctsReport, NODE_BYTES};
