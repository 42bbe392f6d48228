//! Opening rules that let the second player answer an opening instead of
//! suffering it: swap1 and swap2, what the players decide under them,
//! how a game records it, and the decisions every engine makes by
//! default, from its own judgement of positions.
//!
//! Swap1: the first player puts three stones (X, O, X); the second takes
//! X (it *swaps*: the first player is left with O, to move) or takes O
//! and plays the fourth stone. Swap2 adds a third answer: the second
//! puts two more stones (O, X) and the first chooses in the same way. O is
//! to move whenever a choice is made, so every choice asks one question:
//! does the side to move stand better?

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

pub use crate::opening_rules::asks::SwapChoice;
use crate::{Agent, AgentError, Cell, Limits, Position, Rules, Side};

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

/// A side judged this close to even is left to the other player to choose
/// (by putting two more stones, where the rule allows).
const EVEN: f64 = 0.02;

/// The same limits, a `parts`-th of them: time and nodes shared out, and
/// no clock (the share is the time).
pub(crate) fn share(limits: &Limits, parts: u32) -> Limits {
    let parts = parts.max(1);
    let time = limits.time.or(limits.clock.map(|reading| reading.left / 20));
    Limits {
        time: time.map(|time| time / parts),
        max_time: None,
        nodes: limits.nodes.map(|nodes| (nodes / u64::from(parts)).max(1)),
        depth: limits.depth,
        clock: None,
        stop: limits.stop.clone(),
        progress: limits.progress.clone(),
        // Cells excluded in one position mean nothing in another.
        excluded: crate::Bitboard::EMPTY,
    }
}

/// The chance of the side to move in `pos` and the move `agent` would
/// play there, by its own search within `limits`; an engine that says
/// nothing of its chances counts the position even.
pub(crate) fn judge<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    limits: &Limits,
) -> Result<(f64, Cell), AgentError> {
    let cell = agent.select_move(pos, limits)?;
    let chance = agent.analysis().and_then(|analysis| analysis.win_chance()).unwrap_or(0.5);
    Ok((chance, cell))
}

/// The candidate openings of [`propose_by_judging`], those that fit the board.
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

/// Openings judged again, more deeply, after the first look at all.
const SHORTLIST: usize = 6;

/// The default proposal of three stones: of [`candidate_openings`], the
/// one after which `agent` judges O's chance nearest to even. Half of
/// `limits` goes to a first look at every candidate, the other half to a
/// deeper look at the six nearest to even (a shallow judgement
/// errs, mostly towards X).
///
/// # Errors
/// [`AgentError`] if the agent fails, or no opening fits the board.
pub fn propose_by_judging<A: Agent + ?Sized>(
    agent: &mut A,
    rules: Rules,
    limits: &Limits,
) -> Result<[Cell; 3], AgentError> {
    let mut candidates = candidate_openings(rules);
    let mut judged = Vec::with_capacity(candidates.len());
    for round in 0..2 {
        let part = share(limits, 2 * candidates.len() as u32);
        judged.clear();
        for &stones in &candidates {
            // Stopped: the best judged so far (the first, if none was).
            if limits.stopped() && !judged.is_empty() {
                break;
            }
            let pos = opening_position(rules, &stones).map_err(AgentError::failed)?;
            let (chance, _) = judge(agent, &pos, &part)?;
            judged.push(((chance - 0.5).abs(), stones));
        }
        // Stable: among equals the first candidate, the nearest the centre.
        judged.sort_by(|a, b| a.0.total_cmp(&b.0));
        if limits.stopped() {
            break;
        }
        if round == 0 {
            candidates = judged.iter().take(SHORTLIST).map(|&(_, stones)| stones).collect();
        }
    }
    judged
        .first()
        .map(|&(_, stones)| stones)
        .ok_or_else(|| AgentError::unsupported(rules, "the board is too small for a swap opening"))
}

/// The default choice, offered `pos` (three or five stones, O to move):
/// play on as O if `agent` judges O better, swap if X; a position it
/// judges even is left to the other player when `may_put_two`, with O's
/// move and X's answer as the engine would play them.
///
/// # Errors
/// [`AgentError`] if the agent fails.
pub fn choose_by_judging<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    may_put_two: bool,
    limits: &Limits,
) -> Result<SwapChoice, AgentError> {
    let part = share(limits, if may_put_two { 2 } else { 1 });
    let (chance, cell) = judge(agent, pos, &part)?;
    if may_put_two && (chance - 0.5).abs() <= EVEN && !limits.stopped() {
        let mut next = pos.clone();
        next.play(cell).map_err(AgentError::failed)?;
        if !next.is_over() {
            let (_, answer) = judge(agent, &next, &part)?;
            return Ok(SwapChoice::PutTwo([cell, answer]));
        }
    }
    Ok(if chance >= 0.5 { SwapChoice::Play(cell) } else { SwapChoice::Swap })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_too_small_for_a_swap_opening_are_refused_up_front() {
        for text in ["2,2,2", "1,1,1", "1,5,5,renju"] {
            let rules: Rules = text.parse().unwrap();
            let error = OpeningRule::Swap2.check(&rules).unwrap_err();
            assert!(error.contains("too small for a swap2 opening"), "{text}: {error}");
            assert_eq!(OpeningRule::None.check(&rules), Ok(()));
        }
        for rules in [Rules::gomoku15(), Rules::renju(), "7,7,5".parse().unwrap()] {
            assert_eq!(OpeningRule::Swap2.check(&rules), Ok(()), "{rules}");
            assert_eq!(OpeningRule::Swap1.check(&rules), Ok(()), "{rules}");
        }
    }
    use crate::{Analysis, ScoreKind};

    /// Plays the first legal cell and says the side to move wins with the
    /// chance its function gives the position.
    struct Judge(fn(&Position) -> f64, Option<Analysis>);

    impl Agent for Judge {
        fn name(&self) -> String {
            "judge".to_owned()
        }

        fn select_move(&mut self, pos: &Position, _: &Limits) -> Result<Cell, AgentError> {
            let cell = pos.legal_moves().next().ok_or(AgentError::GameOver)?;
            let value = (self.0)(pos);
            self.1 = Some(Analysis {
                best_move: Some(cell),
                score_kind: ScoreKind::WinRate,
                value: Some(value),
                ..Analysis::default()
            });
            Ok(cell)
        }

        fn analysis(&self) -> Option<Analysis> {
            self.1.clone()
        }
    }

    fn three() -> Position {
        opening_position(Rules::gomoku15(), &[Cell::new(7, 7), Cell::new(8, 7), Cell::new(9, 9)]).unwrap()
    }

    #[test]
    fn rules_read_and_print() {
        for rule in [
            OpeningRule::None,
            OpeningRule::Swap1,
            OpeningRule::Swap2,
            OpeningRule::Soosorv8,
            OpeningRule::Taraguchi10,
        ] {
            assert_eq!(rule.to_string().parse::<OpeningRule>(), Ok(rule));
        }
        assert_eq!("SWAP2".parse::<OpeningRule>(), Ok(OpeningRule::Swap2));
        assert_eq!("Soosõrv-8".parse::<OpeningRule>(), Ok(OpeningRule::Soosorv8));
        assert_eq!("Taraguchi-10".parse::<OpeningRule>(), Ok(OpeningRule::Taraguchi10));
        assert!(
            "swap3"
                .parse::<OpeningRule>()
                .unwrap_err()
                .contains("none, swap1, swap2, soosorv8 or taraguchi10")
        );
    }

    #[test]
    fn the_better_side_is_taken_and_an_even_one_left_to_the_other() {
        let limits = Limits::nodes(100);
        let mut white_wins = Judge(|_| 0.8, None);
        assert_eq!(
            choose_by_judging(&mut white_wins, &three(), true, &limits),
            Ok(SwapChoice::Play(Cell::new(0, 0)))
        );
        let mut black_wins = Judge(|_| 0.2, None);
        assert_eq!(choose_by_judging(&mut black_wins, &three(), true, &limits), Ok(SwapChoice::Swap));
        let mut even = Judge(|_| 0.5, None);
        assert_eq!(
            choose_by_judging(&mut even, &three(), true, &limits),
            Ok(SwapChoice::PutTwo([Cell::new(0, 0), Cell::new(1, 0)]))
        );
        // Without the third answer, even is good enough to play on.
        assert_eq!(
            choose_by_judging(&mut even, &three(), false, &limits),
            Ok(SwapChoice::Play(Cell::new(0, 0)))
        );
    }

    #[test]
    fn the_proposal_is_the_most_even_opening() {
        let mut judge =
            Judge(|pos| if pos.moves().last() == Some(&Cell::new(5, 9)) { 0.55 } else { 0.9 }, None);
        let stones = propose_by_judging(
            &mut judge,
            Rules::gomoku15(),
            &Limits::time(std::time::Duration::from_millis(5)),
        );
        assert_eq!(stones, Ok([Cell::new(7, 7), Cell::new(8, 7), Cell::new(5, 9)]));
        // A small board gets the stones that fit; a board with no room
        // for three gets an error that says so.
        let small = Rules::new(5, 5, 4, crate::RuleSet::Freestyle).unwrap();
        let stones = propose_by_judging(&mut judge, small, &Limits::nodes(10)).unwrap();
        assert!(opening_position(small, &stones).is_ok(), "{stones:?}");
        let tiny = Rules::new(1, 2, 1, crate::RuleSet::Freestyle).unwrap();
        assert!(
            propose_by_judging(&mut judge, tiny, &Limits::nodes(10))
                .unwrap_err()
                .to_string()
                .contains("too small")
        );
    }

    #[test]
    fn shares_split_time_and_nodes() {
        let limits = Limits { depth: Some(4), ..Limits::time(std::time::Duration::from_millis(100)) };
        let part = share(&limits, 4);
        assert_eq!(part.time, Some(std::time::Duration::from_millis(25)));
        assert_eq!(part.depth, Some(4));
        assert_eq!(share(&Limits::nodes(10), 48).nodes, Some(1));
    }

    #[test]
    fn openings_refuse_stones_that_do_not_fit() {
        let rules = Rules::gomoku15();
        let twice = [Cell::new(7, 7), Cell::new(7, 7)];
        assert!(opening_position(rules, &twice).unwrap_err().contains("opening stone 2"));
        let ttt = Rules::tic_tac_toe();
        let line = [
            Cell::new(0, 0),
            Cell::new(0, 1),
            Cell::new(1, 0),
            Cell::new(1, 1),
            Cell::new(2, 0),
            Cell::new(2, 2),
        ];
        assert!(opening_position(ttt, &line).unwrap_err().contains("already make a line"));
    }
}
