//! What an opening rule is and how a game records its steps: the
//! vocabulary the rules ([`swap`](super::swap), [`rif`](super::rif)) and
//! a game's record share, apart from the decisions.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use board::{Cell, Position, Rules, Side};

/// How a game's first stones are put.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpeningRule {
    /// The players move in turn from the empty board (or a given opening).
    #[default]
    None,
    /// Three stones, then the other player chooses a colour.
    Swap1,
    /// Three stones, then the other player chooses a colour or puts two
    /// more and lets the first choose.
    Swap2,
    /// Renju's world-championship rule: a standard opening, a swap, the
    /// fourth stone with the number of fifth stones (up to 8), a swap, the
    /// fifth stones offered and one picked ([`crate::opening_rules::rif`]).
    Soosorv8,
    /// Renju's European-championship rule: the first four stones in
    /// growing central squares with a swap after each, then one fifth
    /// stone with swaps or ten offered ([`crate::opening_rules::rif`]).
    Taraguchi10,
}

impl OpeningRule {
    /// Whether the players put an opening and choose colours.
    #[must_use]
    pub fn is_swap(self) -> bool {
        self != OpeningRule::None
    }

    /// Whether this is one of the RIF's renju opening rules (Soosõrv-8,
    /// Taraguchi-10), whose steps [`crate::opening_rules::rif`] runs.
    #[must_use]
    pub fn is_rif(self) -> bool {
        matches!(self, OpeningRule::Soosorv8 | OpeningRule::Taraguchi10)
    }

    /// Whether a game under this rule can be played on the board of
    /// `rules`: a swap opening needs three stones near the centre that make
    /// no line (and, for swap2, room for two more and a game after them).
    ///
    /// # Errors
    /// A sentence saying why the board cannot hold it.
    pub fn check(self, rules: &Rules) -> Result<(), String> {
        let stones = match self {
            OpeningRule::None => return Ok(()),
            OpeningRule::Swap1 => 3,
            OpeningRule::Swap2 => 5,
            OpeningRule::Soosorv8 | OpeningRule::Taraguchi10 => {
                if rules.width() < 9 || rules.height() < 9 || rules.k() < 5 {
                    return Err(format!(
                        "the {}x{} board (k = {}) is too small for a {self} opening: it needs a central 9x9 \
                         square and five in a row",
                        rules.width(),
                        rules.height(),
                        rules.k()
                    ));
                }
                return Ok(());
            }
        };
        if candidate_openings(*rules).is_empty() || rules.area() <= stones {
            return Err(format!(
                "the {}x{} board (k = {}) is too small for a {self} opening: it needs {stones} stones that \
                 make no line near the centre, and room to play on",
                rules.width(),
                rules.height(),
                rules.k()
            ));
        }
        Ok(())
    }
}

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpeningRule::None => "none",
            OpeningRule::Swap1 => "swap1",
            OpeningRule::Swap2 => "swap2",
            OpeningRule::Soosorv8 => "soosorv8",
            OpeningRule::Taraguchi10 => "taraguchi10",
        })
    }
}

impl FromStr for OpeningRule {
    type Err = String;

    fn from_str(text: &str) -> Result<OpeningRule, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "none" | "free" => Ok(OpeningRule::None),
            "swap1" | "swap" => Ok(OpeningRule::Swap1),
            "swap2" => Ok(OpeningRule::Swap2),
            "soosorv8" | "soosorv-8" | "soosõrv8" | "soosõrv-8" => Ok(OpeningRule::Soosorv8),
            "taraguchi10" | "taraguchi-10" => Ok(OpeningRule::Taraguchi10),
            _ => Err(format!(
                "unknown opening rule {text:?}: write none, swap1, swap2, soosorv8 or taraguchi10"
            )),
        }
    }
}

/// One decision of a swap opening. Decisions alternate between the
/// players, the first player's first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SwapStep {
    /// Stones put, in order.
    Put(Vec<Cell>),
    /// The player took this colour (taking O, it played the game's next
    /// move, the first of the record's moves).
    Took(Side),
    /// Under a RIF rule: the player offered a swap took the other's colour
    /// (true) or kept its own.
    Swap(bool),
    /// Soosõrv-8: white's fourth stone, and the fifth stones it asks for.
    Declared {
        /// The fourth stone.
        stone: Cell,
        /// How many fifth stones black must offer.
        fifths: u8,
    },
    /// Taraguchi-10: black offers fifth stones (true) or puts one (false).
    ChoseOffer(bool),
    /// Fifth stones offered (not on the board).
    Offered(Vec<Cell>),
    /// The fifth stone white picked (white's sixth move is the game's next
    /// move, the first of the record's moves).
    Picked(Cell),
}

/// What a game's swap opening was: who put what and who took which colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwapRecord {
    /// The rule played.
    pub rule: OpeningRule,
    /// The colour the first player (who put the first three stones) ended
    /// with; the record's `players` are by colour.
    pub opener: Side,
    /// The decisions, alternating from the first player's.
    pub steps: Vec<SwapStep>,
}

impl SwapRecord {
    /// The colour the first player ended with, as the steps give it: the
    /// last `Took` is its own choice or the other player's (the players
    /// decide in turn from the first). A phase that ended without a choice
    /// was lost by the player whose turn it was, who is then the side that
    /// forfeited (`forfeited`).
    ///
    /// # Errors
    /// If the steps are not a swap opening's: stones put out of turn, a
    /// choice before any stones, or no choice and no forfeit. (The RIF
    /// rules' steps are replayed by [`crate::opening_rules::rif::first_player_colour`].)
    pub fn first_player_colour(&self, forfeited: Option<Side>) -> Result<Side, String> {
        let mut stones = 0;
        for (i, step) in self.steps.iter().enumerate() {
            let seat = i % 2;
            match step {
                SwapStep::Put(put) => {
                    let expected = if i == 0 { 3 } else { 2 };
                    if put.len() != expected || i > 1 || (i == 1 && self.rule != OpeningRule::Swap2) {
                        return Err(format!("its swap steps put {} stones at step {}", put.len(), i + 1));
                    }
                    stones += put.len();
                }
                SwapStep::Took(side) if stones > 0 && i + 1 == self.steps.len() => {
                    return Ok(if seat == 0 { *side } else { side.opponent() });
                }
                SwapStep::Took(_) => {
                    return Err(format!("its swap steps choose a colour out of turn (step {})", i + 1));
                }
                _ => return Err(format!("step {} is not a {} step", i + 1, self.rule)),
            }
        }
        // No choice: the player whose turn it was lost the phase, as the
        // side to move then, so the first player is that side or the other.
        let seat = self.steps.len() % 2;
        let side = forfeited.ok_or("its swap steps end without a choice of colour, and no one forfeited")?;
        Ok(if seat == 0 { side } else { side.opponent() })
    }
}

/// Stones put beside or near the centre, for a proposal: black at the
/// centre, white next to it (straight or diagonal), black within this
/// many cells of the centre.
const PROPOSAL_REACH: i32 = 3;

/// The candidate openings a proposal judges among ([`propose_by_judging`](super::swap::propose_by_judging)),
/// those that fit the board.
#[must_use]
pub fn candidate_openings(rules: Rules) -> Vec<[Cell; 3]> {
    let (width, height) = (i32::from(rules.width()), i32::from(rules.height()));
    let centre = (width / 2, height / 2);
    let at = |(x, y): (i32, i32)| {
        (x >= 0 && y >= 0 && x < width && y < height).then(|| Cell::new(x as u8, y as u8))
    };
    let Some(first) = at(centre) else { return Vec::new() };
    let mut candidates = Vec::new();
    for white in [(centre.0 + 1, centre.1), (centre.0 + 1, centre.1 + 1)].into_iter().filter_map(at) {
        for dy in -PROPOSAL_REACH..=PROPOSAL_REACH {
            for dx in -PROPOSAL_REACH..=PROPOSAL_REACH {
                let third = at((centre.0 + dx, centre.1 + dy)).filter(|&cell| cell != first && cell != white);
                if let Some(third) = third {
                    let stones = [first, white, third];
                    if opening_position(rules, &stones).is_ok_and(|pos| !pos.is_over()) {
                        candidates.push(stones);
                    }
                }
            }
        }
    }
    candidates
}

/// The position after `stones` put in turn from X.
///
/// # Errors
/// Which stone cannot be put, or that the stones already make a line.
pub fn opening_position(rules: Rules, stones: &[Cell]) -> Result<Position, String> {
    let mut pos = Position::new(rules);
    for (number, &cell) in stones.iter().enumerate() {
        if pos.is_over() {
            return Err("the opening's stones already make a line".to_owned());
        }
        pos.play(cell).map_err(|error| format!("opening stone {} ({cell}): {error}", number + 1))?;
    }
    Ok(pos)
}
