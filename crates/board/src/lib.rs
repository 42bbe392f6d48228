//! The rules of m,n,k-games, and nothing else: rules (m, n, k, overlines,
//! renju, caro), positions with incremental win detection and hashing,
//! symmetry, notation, the threat patterns and renju's forbidden points,
//! perft and random playouts. Engines, games, opening rules and files are
//! the `play` crate's.
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

mod bitboard;
mod cell;
mod lines;
mod perft;
mod playout;
mod position;
pub mod renju;
mod rules;
mod side;
mod symmetry;
mod text;
pub mod threats;
mod zobrist;

pub use bitboard::{Bitboard, Cells};
pub use cell::{Cell, CellError, CellName, ColumnName};
pub use lines::Direction;
pub use perft::{Perft, perft};
pub use playout::{Playout, random_playout};
pub use position::{MoveError, Position, SetupError, WinningLine};
pub use rules::{MAX_SIZE, RuleSet, Rules, RulesError};
pub use side::{Outcome, Side};
pub use symmetry::Transform;
pub use text::{MovesError, PositionError, excerpt, shorten_words};
pub use zobrist::{key as zobrist_key, mix_seed};
