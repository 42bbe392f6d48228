//! What an opening rule asks a player and what the player answers: the
//! words [`Agent`](crate::agent::Agent)'s opening decisions are in, apart from
//! the rules that ask them ([`swap`](super::swap), [`rif`](super::rif)),
//! so that an agent needs nothing of the rules to answer.

use board::{Cell, Side};
use serde::{Deserialize, Serialize};

/// An answer to an opening offered under a swap rule (O to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwapChoice {
    /// Take X, the side that just put its stone: the other player is O
    /// and moves next.
    Swap,
    /// Take O and play this move.
    Play(Cell),
    /// Swap2 only, offered three stones: put these two more (O, then X)
    /// and let the other player choose.
    PutTwo([Cell; 2]),
}

/// What a player is asked at one step of an opening rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningAsk {
    /// One of the 26 standard openings: black at the centre, white within
    /// the central 3×3, black within 5×5 (three stones, in that order).
    StandardOpening,
    /// One stone for the side to move within the central square of this
    /// radius (0: the centre itself).
    Put {
        /// Cells from the centre the stone may lie, each way.
        radius: u8,
    },
    /// Take the other player's colour (swap) or keep your own, `holding`.
    MaySwap {
        /// The colour the asked player holds now.
        holding: Side,
    },
    /// White's fourth stone, anywhere, and how many fifth stones black
    /// must offer (1 to `most`).
    FourthAndCount {
        /// The most fifth stones that may be asked for.
        most: u8,
    },
    /// Black's way after the fourth stone: offer `count` fifth stones
    /// (true), or put one within 9×9 with swaps before and after (false).
    OfferOrPut {
        /// The stones the first way offers.
        count: u8,
    },
    /// `count` fifth stones, no two mapped onto each other by a symmetry
    /// that leaves the stones on the board in place.
    Offer {
        /// How many.
        count: u8,
    },
    /// One of the offered fifth stones, and white's sixth move after it.
    Pick {
        /// The stones offered.
        offered: Vec<Cell>,
    },
}

/// A player's answer to an [`OpeningAsk`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningAnswer {
    /// Stones put (or offered), in order.
    Stones(Vec<Cell>),
    /// Whether the player swapped colours.
    Swap(bool),
    /// The fourth stone and the number of fifth stones asked for.
    FourthAndCount(Cell, u8),
    /// Offer fifth stones (true) or put one (false).
    Offer(bool),
    /// The fifth stone picked and the sixth move.
    Pick(Cell, Cell),
}
