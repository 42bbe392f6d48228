//! Who meets whom and in what order: the pairings of a run's entrants
//! and the schedule of their games, which a plan draws up and a records
//! file's header is enough to draw up again.

use serde::{Deserialize, Serialize};

/// Who meets whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// The first two entrants against each other.
    #[default]
    Match,
    /// Every entrant against every other.
    RoundRobin,
    /// The first entrant against each of the others.
    Gauntlet,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Which pairing (an index into [`Plan::pairings`](crate::Plan::pairings)).
    pub pairing: usize,
    /// The game's number within its pairing.
    pub number: u64,
}

impl Slot {
    /// The pairing's first engine (A) plays X in even games, O in odd ones.
    #[must_use]
    pub fn a_is_x(self) -> bool {
        self.number.is_multiple_of(2)
    }

    /// Games 2p and 2p + 1 share opening p.
    #[must_use]
    pub fn pair(self) -> u64 {
        self.number / 2
    }
}

/// The pairings of `n` entrants in `format`.
pub(crate) fn pairings_of(format: Format, n: usize) -> Vec<(usize, usize)> {
    match format {
        Format::Match => vec![(0, 1)],
        Format::RoundRobin => (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect(),
        Format::Gauntlet => (1..n).map(|b| (0, b)).collect(),
    }
}

/// The schedule of `games` games per pairing of `n` entrants in `format`.
pub(crate) fn schedule_of(format: Format, n: usize, games: u64) -> Vec<Slot> {
    let pairings = pairings_of(format, n).len();
    let mut slots = Vec::with_capacity(pairings * games as usize);
    for pair in 0..games.div_ceil(2) {
        for pairing in 0..pairings {
            for number in [2 * pair, 2 * pair + 1] {
                if number < games {
                    slots.push(Slot { pairing, number });
                }
            }
        }
    }
    slots
}
