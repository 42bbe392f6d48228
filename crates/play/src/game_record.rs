//! A game's record: its moves, what the agents said of them, its result
//! and how it ended — what a learning agent is told of a game
//! ([`Agent::game_over`](crate::agent::Agent::game_over)), apart from the
//! playing of one.

use serde::{Deserialize, Serialize};

use crate::analysis::Analysis;
use crate::opening_rules::record::SwapRecord;
use board::{Cell, MoveError, Outcome, Position, Rules, Side};

/// One move of a game, the time the agent took to choose it, and what it
/// said it thought.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The cell played.
    pub cell: Cell,
    /// Thinking time in microseconds.
    pub micros: u64,
    /// The agent's analysis of the move, in short, if it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thought: Option<Thought>,
}

impl MoveRecord {
    /// A move with its thinking time and no analysis.
    #[must_use]
    pub fn new(cell: Cell, micros: u64) -> MoveRecord {
        MoveRecord { cell, micros, thought: None }
    }
}

/// What an agent reported of one move's search (see [`Analysis`]), kept
/// in game records so that engines can be compared move by move: ours
/// and any Gomocup brain's, whose `MESSAGE` lines say as much.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Thought {
    /// The depth reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The deepest ply any line reached.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selective_depth: Option<u32>,
    /// The value for the side to move, in the engine's unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// A proven win (positive) or loss (negative) in plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_in: Option<i32>,
    /// Nodes, iterations or playouts spent.
    pub nodes: u64,
}

impl Thought {
    /// The short form of `analysis`.
    #[must_use]
    pub fn of(analysis: &Analysis) -> Thought {
        Thought {
            depth: analysis.depth,
            selective_depth: analysis.selective_depth,
            value: analysis.value,
            win_in: analysis.win_in,
            nodes: analysis.nodes,
        }
    }
}

/// A side lost by failing to move or by an illegal move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeit {
    /// The side that forfeited.
    pub side: Side,
    /// What went wrong.
    pub reason: String,
    /// The agent said it cannot play the game at all
    /// ([`AgentError::UnsupportedRules`](crate::agent::AgentError::UnsupportedRules)):
    /// a run stops there rather than score it game after game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsupported: bool,
}

impl Forfeit {
    /// `side` forfeited for `reason`.
    #[must_use]
    pub fn new(side: Side, reason: String) -> Forfeit {
        Forfeit { side, reason, unsupported: false }
    }
}

/// Everything needed to replay and score a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The rules played under.
    pub rules: Rules,
    /// The agents' names, X first.
    pub players: [String; 2],
    /// Moves given before the agents took over.
    pub opening: Vec<Cell>,
    /// The agents' moves.
    pub moves: Vec<MoveRecord>,
    /// The result.
    pub outcome: Outcome,
    /// Set when the game ended by a forfeit rather than on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Forfeit>,
    /// Under a swap opening rule: who put the opening's stones and who
    /// took which colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap: Option<SwapRecord>,
    /// What learning agents could not keep of this game (see
    /// [`Agent::game_over`](crate::agent::Agent::game_over)), each prefixed by the agent's name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub learning_errors: Vec<String>,
}

impl GameRecord {
    /// Every move of the game in order: the opening, then the agents' moves.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.opening.iter().copied().chain(self.moves.iter().map(|m| m.cell))
    }

    /// The final position, replayed from the moves.
    ///
    /// # Errors
    /// [`MoveError`] if a recorded move is illegal (a corrupt record).
    pub fn replay(&self) -> Result<Position, MoveError> {
        let mut pos = Position::new(self.rules);
        for cell in self.cells() {
            pos.play(cell)?;
        }
        Ok(pos)
    }
}
