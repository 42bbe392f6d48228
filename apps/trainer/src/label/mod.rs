//! Positions labelled by a judge: the values a stronger search gives
//! positions, for fitting our evaluations to (`trainer label`, then
//! `trainer tune --labels`).
//!
//! Positions come from games (`bench match` records, self-play data, SGF
//! collections, see [`sources`](mod@sources)); one position of each symmetry class is
//! kept, and positions already decided are left out (the game over, a
//! five to make, or after a proven win in the record). A judge — any
//! engine, an external Gomocup brain among them — searches each at a node
//! or time budget, and its value, its best move and the winning chance the
//! value stands for are written, with the game's result and where the
//! position came from, to an append-only label file ([`file`](mod@file)) that a
//! killed run resumes and whose shards merge.

pub mod cuts;
pub mod file;
pub mod judge;
pub mod sources;

use board::{Cell, Position, Rules};
use serde::{Deserialize, Serialize};

pub use file::{LabelFile, LabelHeader, LabelSettings, merge};
pub use judge::{Judged, judge_all};
pub use sources::{Candidate, Gathered, gather};

/// One position as the judge saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Label {
    /// The moves from the empty board to the position, each `x << 8 | y`.
    pub moves: Vec<u16>,
    /// The judge's value for the side to move, in the judge's unit, if it
    /// said one.
    pub value: Option<f32>,
    /// A result the judge proved: a win in this many plies (positive) or a
    /// loss (negative), for the side to move.
    pub win_in: Option<i32>,
    /// The winning chance of the side to move, as the judge sees it: 1 or 0
    /// for a proven result, else σ(value / scale).
    pub chance: f32,
    /// The judge's move, `x << 8 | y`.
    pub best: Option<u16>,
    /// How the game went on: 1 X won, −1 O won, 0 a draw.
    pub result: i8,
    /// The game the position came from: a number of its source file's name
    /// plus its index there, the same in every shard (the hold-out is by
    /// game: see `sources::game_number`).
    pub game: u64,
}

impl Label {
    /// The position, replayed under `rules`.
    ///
    /// # Errors
    /// Which move does not play.
    pub fn position(&self, rules: Rules) -> Result<Position, String> {
        position_of(&self.moves, rules)
    }

    /// The game's result for the side to move: 1 a win, ½ a draw, 0 a loss.
    #[must_use]
    pub fn result_for_mover(&self) -> f64 {
        let x_to_move = self.moves.len().is_multiple_of(2);
        match (self.result, x_to_move) {
            (0, _) => 0.5,
            (1, true) | (-1, false) => 1.0,
            _ => 0.0,
        }
    }

    /// The judge's move as a cell.
    #[must_use]
    pub fn best_cell(&self) -> Option<Cell> {
        self.best.map(unpack)
    }
}

/// A cell packed as `x << 8 | y`.
#[must_use]
pub fn pack(cell: Cell) -> u16 {
    u16::from(cell.x()) << 8 | u16::from(cell.y())
}

/// The cell of `x << 8 | y`.
#[must_use]
pub fn unpack(packed: u16) -> Cell {
    Cell::new((packed >> 8) as u8, packed as u8)
}

/// The position after `moves` (packed cells) under `rules`.
///
/// # Errors
/// Which move is off the board or does not play.
pub fn position_of(moves: &[u16], rules: Rules) -> Result<Position, String> {
    let mut pos = Position::new(rules);
    for (i, &packed) in moves.iter().enumerate() {
        let (x, y) = (packed >> 8, packed & 0xff);
        let cell = rules
            .cell(i32::from(x), i32::from(y))
            .ok_or_else(|| format!("move {} ({x},{y}) is off the {rules} board", i + 1))?;
        pos.play(cell).map_err(|err| format!("move {} ({x},{y}): {err}", i + 1))?;
    }
    Ok(pos)
}

/// The winning chance a judge's value stands for at `scale` (the value
/// worth odds of e : 1), or its proven result.
#[must_use]
pub fn chance_of(value: Option<f64>, win_in: Option<i32>, scale: f64) -> Option<f64> {
    match (win_in, value) {
        (Some(plies), _) if plies > 0 => Some(1.0),
        (Some(_), _) => Some(0.0),
        (None, Some(value)) => Some(1.0 / (1.0 + (-value / scale).exp())),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_follow_the_scale_and_proofs_are_certain() {
        assert_eq!(chance_of(Some(0.0), None, 200.0), Some(0.5));
        let up = chance_of(Some(200.0), None, 200.0).unwrap();
        assert!((up - 1.0 / (1.0 + (-1.0_f64).exp())).abs() < 1e-12);
        assert_eq!(chance_of(Some(-5.0), Some(7), 200.0), Some(1.0));
        assert_eq!(chance_of(None, Some(-4), 200.0), Some(0.0));
        assert_eq!(chance_of(None, None, 200.0), None);
    }

    #[test]
    fn results_are_read_for_the_side_to_move() {
        let label = |moves: usize, result| Label {
            moves: vec![0; moves],
            value: None,
            win_in: None,
            chance: 0.5,
            best: None,
            result,
            game: 0,
        };
        assert!((label(4, 1).result_for_mover() - 1.0).abs() < 1e-12);
        assert!(label(5, 1).result_for_mover().abs() < 1e-12);
        assert!((label(5, -1).result_for_mover() - 1.0).abs() < 1e-12);
        assert!((label(6, 0).result_for_mover() - 0.5).abs() < 1e-12);
    }
}
