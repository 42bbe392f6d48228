//! The two players and the result of a game.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player: X moves first, then O.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Side {
    /// Both sides, X first.
    pub const ALL: [Side; 2] = [Side::X, Side::O];

    /// 0 for X, 1 for O: an index into per-side arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::X => Side::O,
            Side::O => Side::X,
        }
    }

    /// The mark this side puts on the board in text forms: `x` or `o`.
    #[inline]
    #[must_use]
    pub const fn mark(self) -> char {
        match self {
            Side::X => 'x',
            Side::O => 'o',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::X => "X",
            Side::O => "O",
        })
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "OutcomeName", from = "OutcomeName")]
pub enum Outcome {
    /// This side completed a line.
    Win(Side),
    /// The board filled up with no winning line.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[inline]
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(side) => Some(side),
            Outcome::Draw => None,
        }
    }

    /// The game score for `side`: 1 for a win, ½ for a draw, 0 for a loss.
    #[inline]
    #[must_use]
    pub fn score_for(self, side: Side) -> f64 {
        match self {
            Outcome::Win(winner) if winner == side => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(side) => write!(f, "{side} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// The serialised names of outcomes: `"x_wins"`, `"o_wins"`, `"draw"`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum OutcomeName {
    XWins,
    OWins,
    Draw,
}

impl From<Outcome> for OutcomeName {
    fn from(outcome: Outcome) -> Self {
        match outcome {
            Outcome::Win(Side::X) => OutcomeName::XWins,
            Outcome::Win(Side::O) => OutcomeName::OWins,
            Outcome::Draw => OutcomeName::Draw,
        }
    }
}

impl From<OutcomeName> for Outcome {
    fn from(name: OutcomeName) -> Self {
        match name {
            OutcomeName::XWins => Outcome::Win(Side::X),
            OutcomeName::OWins => Outcome::Win(Side::O),
            OutcomeName::Draw => Outcome::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_an_involution() {
        for side in Side::ALL {
            assert_ne!(side, side.opponent());
            assert_eq!(side, side.opponent().opponent());
        }
    }

    #[test]
    #[allow(clippy::float_cmp, reason = "1, ½ and 0 are exact")]
    fn outcome_scores_and_names() {
        assert_eq!(Outcome::Win(Side::X).score_for(Side::X), 1.0);
        assert_eq!(Outcome::Win(Side::X).score_for(Side::O), 0.0);
        assert_eq!(Outcome::Draw.score_for(Side::O), 0.5);
        assert_eq!(Outcome::Win(Side::O).to_string(), "O wins");
        let json = serde_json::to_string(&Outcome::Win(Side::O)).unwrap();
        assert_eq!(json, "\"o_wins\"");
        let back: Outcome = serde_json::from_str("\"draw\"").unwrap();
        assert_eq!(back, Outcome::Draw);
    }
}
