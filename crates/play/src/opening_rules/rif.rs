//! The opening rules renju tournaments play, as the RIF certified them:
//! **Soosõrv-8** (the world championship's) and **Taraguchi-10** (the
//! European championship's), as the RIF's opening-rule pages summarize
//! them (Taraguchi-N with N = 10). Both give each player
//! stones to put and colours to take in turn, so that the player who
//! opens cannot simply take the stronger side:
//!
//! - *Soosõrv-8*: the first player puts one of the 26 standard openings
//!   (black at the centre, white within the central 3×3, black within
//!   5×5); the other may swap; white puts the fourth stone anywhere and
//!   declares n, 1 ≤ n ≤ 8; the other may swap; black puts n fifth stones,
//!   no two mapped onto each other by a symmetry that leaves the four
//!   stones in place; white picks one and plays the sixth move.
//! - *Taraguchi-10*: black puts the first stone at the centre, the other
//!   may swap; white puts the second within 3×3, swap; black the third
//!   within 5×5, swap; white the fourth within 7×7; then the player with
//!   black either (a) may swap, the fifth is put within 9×9, the other may
//!   swap, and white plays the sixth anywhere, or (b) puts ten fifth
//!   stones anywhere, no two symmetric, and white picks one and plays the
//!   sixth.
//!
//! Every step is asked through [`decide_opening`](super::decide_opening):
//! the agent's own answer ([`Agent::decide_opening`]) or, where it has
//! none, its search's judgement ([`decide_by_judging`]); a step's player
//! is the one holding the colour of the stone to put, and a swap is
//! offered to the player who did not put the last stone.
//!
//! [`Agent::decide_opening`]: crate::agent::Agent::decide_opening

use crate::agent::{Agent, AgentError};
use crate::balance::balance_one;
use crate::limits::Limits;
pub use crate::opening_rules::asks::{OpeningAnswer, OpeningAsk};
use crate::opening_rules::swap::{OpeningRule, SwapRecord, SwapStep};
use crate::opening_rules::swap::{judge, share};
use board::renju::openings::STANDARD_OPENINGS;
use board::{Bitboard, Cell, Position, Rules, Side};

/// The most fifth stones Soosõrv-8 lets white ask of black.
pub const SOOSORV_MOST: u8 = 8;
/// The fifth stones Taraguchi-10's second way offers.
pub const TARAGUCHI_OFFER: u8 = 10;

/// The next step of `rule` after `steps`, or `None` when the opening is
/// over (the game goes on with white's sixth move, or — after a pick —
/// after it).
///
/// # Errors
/// A step that is not the rule's at its place.
pub fn next_ask(rule: OpeningRule, steps: &[SwapStep]) -> Result<Option<OpeningAsk>, String> {
    let swap_holder = || holder_to_decide(steps);
    let ask = match (rule, steps.len()) {
        (OpeningRule::Soosorv8, 0) => Some(OpeningAsk::StandardOpening),
        (OpeningRule::Soosorv8, 1 | 3) | (OpeningRule::Taraguchi10, 1 | 3 | 5) => {
            Some(OpeningAsk::MaySwap { holding: swap_holder() })
        }
        (OpeningRule::Soosorv8, 2) => Some(OpeningAsk::FourthAndCount { most: SOOSORV_MOST }),
        (OpeningRule::Soosorv8, 4) => match steps[2] {
            SwapStep::Declared { fifths, .. } => Some(OpeningAsk::Offer { count: fifths }),
            _ => return Err("step 3 of a Soosõrv-8 opening is not the fourth stone".to_owned()),
        },
        (OpeningRule::Soosorv8, 5) => match &steps[4] {
            SwapStep::Offered(offered) => Some(OpeningAsk::Pick { offered: offered.clone() }),
            _ => return Err("step 5 of a Soosõrv-8 opening is not an offer".to_owned()),
        },
        (OpeningRule::Soosorv8, _) => None,
        (OpeningRule::Taraguchi10, n @ (0 | 2 | 4 | 6)) => Some(OpeningAsk::Put { radius: (n / 2) as u8 }),
        (OpeningRule::Taraguchi10, 7) => Some(OpeningAsk::OfferOrPut { count: TARAGUCHI_OFFER }),
        (OpeningRule::Taraguchi10, n) => match (&steps[7], n) {
            (SwapStep::ChoseOffer(true), 8) => Some(OpeningAsk::Offer { count: TARAGUCHI_OFFER }),
            (SwapStep::ChoseOffer(true), 9) => match &steps[8] {
                SwapStep::Offered(offered) => Some(OpeningAsk::Pick { offered: offered.clone() }),
                _ => return Err("step 9 of a Taraguchi-10 opening is not an offer".to_owned()),
            },
            (SwapStep::ChoseOffer(false), 8 | 10) => Some(OpeningAsk::MaySwap { holding: swap_holder() }),
            (SwapStep::ChoseOffer(false), 9) => Some(OpeningAsk::Put { radius: 4 }),
            (SwapStep::ChoseOffer(_), _) => None,
            _ => return Err("step 8 of a Taraguchi-10 opening is not black's choice of way".to_owned()),
        },
        _ => return Err(format!("{rule} is not a RIF opening rule")),
    };
    Ok(ask)
}

/// The seat (0 the first player, who starts with black) holding black
/// after `steps`: each swap hands the colours over.
#[must_use]
pub fn black_seat(steps: &[SwapStep]) -> usize {
    steps.iter().filter(|step| matches!(step, SwapStep::Swap(true))).count() % 2
}

/// Stones on the board after `steps`: every stone put, and the fifth picked.
#[must_use]
pub fn stones(steps: &[SwapStep]) -> Vec<Cell> {
    let mut stones = Vec::new();
    for step in steps {
        match step {
            SwapStep::Put(put) => stones.extend(put),
            SwapStep::Declared { stone, .. } | SwapStep::Picked(stone) => stones.push(*stone),
            _ => {}
        }
    }
    stones
}

/// The seat asked `ask` after `steps`: the holder of the colour to put
/// (for a swap, of the side to move: the player who did not put last),
/// and for a pick the holder of white.
#[must_use]
pub fn seat_of(ask: &OpeningAsk, steps: &[SwapStep]) -> usize {
    let to_move = if stones(steps).len().is_multiple_of(2) { Side::X } else { Side::O };
    let side = if matches!(ask, OpeningAsk::Pick { .. }) { Side::O } else { to_move };
    holder(side, steps)
}

/// The seat holding `side` after `steps`.
fn holder(side: Side, steps: &[SwapStep]) -> usize {
    let black = black_seat(steps);
    if side == Side::X { black } else { 1 - black }
}

/// The colour the player asked to swap after `steps` holds (the side to move's).
fn holder_to_decide(steps: &[SwapStep]) -> Side {
    if stones(steps).len().is_multiple_of(2) { Side::X } else { Side::O }
}

/// The colour the first player ended with, as a RIF opening's steps give
/// it: each step in its place and holding what the live game allows of
/// an answer there ([`take_answer`], the one judge of both: stones in
/// their squares and on empty cells, the declared count within bounds,
/// the offer of that many stones with no two alike, the pick among them),
/// the colours handed over at each swap; a phase cut short needs a
/// forfeit.
///
/// # Errors
/// A step out of its place or that the rule does not allow there, steps
/// after the opening is over, or steps that stop short without a forfeit.
pub fn first_player_colour(
    rules: &Rules,
    record: &SwapRecord,
    forfeited: Option<Side>,
) -> Result<Side, String> {
    let mut pos = Position::new(*rules);
    for i in 0..=record.steps.len() {
        let Some(ask) = next_ask(record.rule, &record.steps[..i])? else {
            if i < record.steps.len() {
                return Err(format!("its {} steps go on after the opening is over", record.rule));
            }
            break;
        };
        match record.steps.get(i) {
            None if forfeited.is_some() => break,
            None => return Err(format!("its {} steps stop short, and no one forfeited", record.rule)),
            Some(step) if !answers(&ask, step) => {
                return Err(format!("step {} of its {} opening is not the rule's", i + 1, record.rule));
            }
            Some(step) => {
                let wrong = |why: String| format!("step {} of its {} opening: {why}", i + 1, record.rule);
                let answer =
                    answer_of(step).ok_or_else(|| wrong("not a step of a RIF opening".to_owned()))?;
                take_answer(&pos, &ask, &answer).map_err(wrong)?;
                for stone in stones(std::slice::from_ref(step)) {
                    pos.play(stone).map_err(|error| wrong(error.to_string()))?;
                }
            }
        }
    }
    Ok(if black_seat(&record.steps) == 0 { Side::X } else { Side::O })
}

/// The answer a recorded step gives (a pick's sixth move is the game's
/// first move, not the opening's: the pick stands for it).
fn answer_of(step: &SwapStep) -> Option<OpeningAnswer> {
    Some(match step {
        SwapStep::Put(put) | SwapStep::Offered(put) => OpeningAnswer::Stones(put.clone()),
        SwapStep::Swap(swapped) => OpeningAnswer::Swap(*swapped),
        SwapStep::Declared { stone, fifths } => OpeningAnswer::FourthAndCount(*stone, *fifths),
        SwapStep::ChoseOffer(offer) => OpeningAnswer::Offer(*offer),
        SwapStep::Picked(fifth) => OpeningAnswer::Pick(*fifth, *fifth),
        SwapStep::Took(_) => return None,
    })
}

/// Whether `step` is of the kind `ask` asks for.
fn answers(ask: &OpeningAsk, step: &SwapStep) -> bool {
    matches!(
        (ask, step),
        (OpeningAsk::StandardOpening | OpeningAsk::Put { .. }, SwapStep::Put(_))
            | (OpeningAsk::MaySwap { .. }, SwapStep::Swap(_))
            | (OpeningAsk::FourthAndCount { .. }, SwapStep::Declared { .. })
            | (OpeningAsk::OfferOrPut { .. }, SwapStep::ChoseOffer(_))
            | (OpeningAsk::Offer { .. }, SwapStep::Offered(_))
            | (OpeningAsk::Pick { .. }, SwapStep::Picked(_))
    )
}

/// The cells of the central square of `radius` on `rules`' board.
#[must_use]
pub fn central_square(rules: &Rules, radius: u8) -> Bitboard {
    let (cx, cy) = (i32::from(rules.width() / 2), i32::from(rules.height() / 2));
    let r = i32::from(radius);
    (-r..=r).flat_map(|dy| (-r..=r).filter_map(move |dx| rules.cell(cx + dx, cy + dy))).collect()
}

/// Checks `answer` to `ask` in `pos`, and turns it into the record's steps.
///
/// # Errors
/// What the rule does not allow, in a sentence.
pub fn take_answer(
    pos: &Position,
    ask: &OpeningAsk,
    answer: &OpeningAnswer,
) -> Result<Vec<SwapStep>, String> {
    let rules = pos.rules();
    match (ask, answer) {
        (OpeningAsk::StandardOpening, OpeningAnswer::Stones(put)) => {
            let [black, white, third] = put[..] else {
                return Err(format!("a standard opening is three stones, not {}", put.len()));
            };
            let within = |cell: Cell, radius| central_square(rules, radius).contains(cell);
            if !(within(black, 0) && within(white, 1) && within(third, 2)) {
                return Err(
                    "a standard opening puts black at the centre, white within 3x3 and black within 5x5"
                        .to_owned(),
                );
            }
            Ok(vec![SwapStep::Put(put.clone())])
        }
        (OpeningAsk::Put { radius }, OpeningAnswer::Stones(put)) => match put[..] {
            [cell] if central_square(rules, *radius).contains(cell) => Ok(vec![SwapStep::Put(put.clone())]),
            [cell] => Err(format!(
                "{} lies outside the central {}x{} square",
                cell.name(rules),
                2 * radius + 1,
                2 * radius + 1
            )),
            _ => Err(format!("one stone was asked for, not {}", put.len())),
        },
        (OpeningAsk::MaySwap { .. }, OpeningAnswer::Swap(swapped)) => Ok(vec![SwapStep::Swap(*swapped)]),
        (OpeningAsk::FourthAndCount { most }, OpeningAnswer::FourthAndCount(stone, fifths)) => {
            if !(1..=*most).contains(fifths) {
                return Err(format!("the number of fifth stones is 1 to {most}, not {fifths}"));
            }
            Ok(vec![SwapStep::Declared { stone: *stone, fifths: *fifths }])
        }
        (OpeningAsk::OfferOrPut { .. }, OpeningAnswer::Offer(offer)) => {
            Ok(vec![SwapStep::ChoseOffer(*offer)])
        }
        (OpeningAsk::Offer { count }, OpeningAnswer::Stones(offered)) => {
            if offered.len() != usize::from(*count) {
                return Err(format!("{count} fifth stones were asked for, not {}", offered.len()));
            }
            for (i, &cell) in offered.iter().enumerate() {
                if !pos.is_legal(cell) {
                    return Err(format!("the fifth stone {} cannot be played", cell.name(rules)));
                }
                if let Some(&twin) = offered[..i].iter().find(|&&other| symmetric(pos, other, cell)) {
                    return Err(format!(
                        "the fifth stones {} and {} are the same by a symmetry of the position",
                        twin.name(rules),
                        cell.name(rules)
                    ));
                }
            }
            Ok(vec![SwapStep::Offered(offered.clone())])
        }
        (OpeningAsk::Pick { offered }, OpeningAnswer::Pick(fifth, _)) if offered.contains(fifth) => {
            Ok(vec![SwapStep::Picked(*fifth)])
        }
        (OpeningAsk::Pick { .. }, OpeningAnswer::Pick(fifth, _)) => {
            Err(format!("{} is not one of the fifth stones offered", fifth.name(rules)))
        }
        (ask, answer) => Err(format!("{answer:?} does not answer {ask:?}")),
    }
}

/// Whether a symmetry of the board that leaves `pos`'s stones in place
/// maps `a` onto `b`.
#[must_use]
pub fn symmetric(pos: &Position, a: Cell, b: Cell) -> bool {
    let rules = pos.rules();
    let (black, white) = (pos.marks(Side::X), pos.marks(Side::O));
    rules.symmetries().iter().any(|&transform| {
        transform.apply(a, rules) == b
            && black.iter().all(|cell| black.contains(transform.apply(cell, rules)))
            && white.iter().all(|cell| white.contains(transform.apply(cell, rules)))
    })
}

/// A fifth stone's winning chance for black this close to another's
/// counts the same (the offer's order then keeps the nearer the centre).
const OFFER_THRESHOLD: f64 = 0.6;

/// The default decisions, from the agent's own judgement of positions
/// (its search's value as a winning chance):
///
/// - a stone to put (the standard opening's three, one within a square,
///   the fourth) is the one the agent judges nearest even, since the
///   other player may take either colour after it;
/// - a swap takes the colour the agent judges better;
/// - the number of fifth stones grows with black's chance after the
///   fourth (one when even or worse, eight at 80% and above);
/// - black offers ten fifth stones when its chance is 60% or more (it
///   has ten good ones to spare), else puts one;
/// - the offered stones are black's best by its judgement, no two
///   symmetric; white picks the one it judges best for white and plays
///   the sixth as its search would.
///
/// # Errors
/// [`AgentError`] if the agent fails, or the position leaves no answer.
pub fn decide_by_judging<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    ask: &OpeningAsk,
    limits: &Limits,
) -> Result<OpeningAnswer, AgentError> {
    let rules = *pos.rules();
    match ask {
        OpeningAsk::StandardOpening => {
            let part = share(limits, STANDARD_OPENINGS.len() as u32);
            let mut best: Option<(f64, [Cell; 3])> = None;
            for opening in &STANDARD_OPENINGS {
                if limits.stopped() && best.is_some() {
                    break;
                }
                let Some(moves) = opening.moves(&rules) else { continue };
                let Ok(after) = crate::opening_rules::swap::opening_position(rules, &moves) else { continue };
                let (chance, _) = judge(agent, &after, &part)?;
                let distance = (chance - 0.5).abs();
                if best.is_none_or(|(nearest, _)| distance < nearest) {
                    best = Some((distance, moves));
                }
            }
            let (_, moves) =
                best.ok_or_else(|| AgentError::unsupported(rules, "no standard opening fits the board"))?;
            Ok(OpeningAnswer::Stones(moves.to_vec()))
        }
        OpeningAsk::Put { radius } => {
            let outside = Bitboard::full(&rules) - central_square(&rules, *radius);
            let found = balance_one(agent, pos, 0.0, &limits.clone().with_excluded(outside))?;
            Ok(OpeningAnswer::Stones(found.stones))
        }
        OpeningAsk::MaySwap { holding } => {
            let (chance, _) = judge(agent, pos, limits)?;
            let mine = if *holding == pos.side_to_move() { chance } else { 1.0 - chance };
            Ok(OpeningAnswer::Swap(mine < 0.5))
        }
        OpeningAsk::FourthAndCount { most } => {
            let found = balance_one(agent, pos, 0.0, &share(limits, 1))?;
            let black = 1.0 - found.chance;
            let steps = f64::from(most - 1) * ((black - 0.5) / 0.3).clamp(0.0, 1.0);
            Ok(OpeningAnswer::FourthAndCount(found.stones[0], 1 + steps.round() as u8))
        }
        OpeningAsk::OfferOrPut { .. } => {
            let (chance, _) = judge(agent, pos, limits)?;
            Ok(OpeningAnswer::Offer(chance >= OFFER_THRESHOLD))
        }
        OpeningAsk::Offer { count } => Ok(OpeningAnswer::Stones(best_fifths(agent, pos, *count, limits)?)),
        OpeningAsk::Pick { offered } => {
            let part = share(limits, offered.len() as u32 + 1);
            let mut best: Option<(f64, Cell)> = None;
            for &fifth in offered {
                if limits.stopped() && best.is_some() {
                    break;
                }
                let mut after = pos.clone();
                after.play(fifth).map_err(AgentError::failed)?;
                let white = if after.is_over() { 0.0 } else { judge(agent, &after, &part)?.0 };
                if best.is_none_or(|(most, _)| white > most) {
                    best = Some((white, fifth));
                }
            }
            let (_, fifth) = best.ok_or_else(|| AgentError::failed("no fifth stone was offered"))?;
            let mut after = pos.clone();
            after.play(fifth).map_err(AgentError::failed)?;
            let sixth = agent.select_move(&after, &part)?;
            Ok(OpeningAnswer::Pick(fifth, sixth))
        }
    }
}

/// Black's `count` best fifth stones by the agent's judgement, no two
/// symmetric: the legal cells within two of a stone, then further out
/// where those are too few.
fn best_fifths<A: Agent + ?Sized>(
    agent: &mut A,
    pos: &Position,
    count: u8,
    limits: &Limits,
) -> Result<Vec<Cell>, AgentError> {
    let count = usize::from(count);
    let mut cells: Vec<Cell> = Vec::new();
    for radius in 2..=4 {
        for cell in pos.cells_within(radius) {
            if pos.is_legal(cell)
                && !cells.contains(&cell)
                && !cells.iter().any(|&kept| symmetric(pos, kept, cell))
            {
                cells.push(cell);
            }
        }
        if cells.len() >= 2 * count {
            break;
        }
    }
    let part = share(limits, cells.len() as u32);
    let mut judged: Vec<(f64, Cell)> = Vec::with_capacity(cells.len());
    for &cell in &cells {
        if limits.stopped() && judged.len() >= count {
            break;
        }
        let mut after = pos.clone();
        after.play(cell).map_err(AgentError::failed)?;
        let black = if after.is_over() { 1.0 } else { 1.0 - judge(agent, &after, &part)?.0 };
        judged.push((black, cell));
    }
    judged.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut offered: Vec<Cell> = judged.iter().map(|&(_, cell)| cell).take(count).collect();
    // Stopped early: the rest in board order, so the offer is whole.
    for &cell in &cells {
        if offered.len() >= count {
            break;
        }
        if !offered.contains(&cell) {
            offered.push(cell);
        }
    }
    if offered.len() < count {
        return Err(AgentError::failed(format!(
            "only {} distinct fifth stones fit the board",
            offered.len()
        )));
    }
    Ok(offered)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_record::GameRecord;
    use crate::opening_rules::swap_game::play_swap_game;
    use crate::random_agent::RandomAgent;

    fn play(rule: OpeningRule, first: &mut dyn Agent, second: &mut dyn Agent) -> GameRecord {
        play_swap_game(Rules::renju(), rule, [first, second], &Limits::nodes(50), None)
    }

    fn kinds(record: &GameRecord) -> Vec<&'static str> {
        let swap = record.swap.as_ref().expect("a swap record");
        swap.steps
            .iter()
            .map(|step| match step {
                SwapStep::Put(_) => "put",
                SwapStep::Took(_) => "took",
                SwapStep::Swap(true) => "swap",
                SwapStep::Swap(false) => "keep",
                SwapStep::Declared { .. } => "declare",
                SwapStep::ChoseOffer(true) => "offer",
                SwapStep::ChoseOffer(false) => "one",
                SwapStep::Offered(_) => "offered",
                SwapStep::Picked(_) => "picked",
            })
            .collect()
    }

    #[test]
    fn soosorv8_runs_every_step_and_the_record_holds() {
        let record = play(OpeningRule::Soosorv8, &mut RandomAgent::new(1), &mut RandomAgent::new(2));
        assert_eq!(record.check(), Ok(()), "{record:?}");
        assert_eq!(kinds(&record), ["put", "keep", "declare", "keep", "offered", "picked"]);
        // Five stones put; the sixth is white's first move of the game.
        assert_eq!(record.opening.len(), 5);
        assert!(!record.moves.is_empty() && record.forfeit.is_none(), "{record:?}");
        // An agent that judges everything even opens with 1D, asks for one
        // fifth stone and keeps its colours: the first player is black.
        let rules = Rules::renju();
        let names: Vec<String> =
            record.opening[..3].iter().map(|cell| cell.name(&rules).to_string()).collect();
        assert_eq!(names, ["h8", "h9", "h10"]);
        assert_eq!(record.swap.as_ref().map(|swap| swap.opener), Some(Side::X));
    }

    #[test]
    fn taraguchi10_puts_each_stone_in_its_square() {
        let record = play(OpeningRule::Taraguchi10, &mut RandomAgent::new(3), &mut RandomAgent::new(4));
        assert_eq!(record.check(), Ok(()), "{record:?}");
        assert_eq!(
            kinds(&record),
            ["put", "keep", "put", "keep", "put", "keep", "put", "one", "keep", "put", "keep"]
        );
        let rules = Rules::renju();
        for (i, &stone) in record.opening.iter().enumerate() {
            assert!(central_square(&rules, i as u8).contains(stone), "stone {} at {stone}", i + 1);
        }
    }

    /// Answers as scripted, in turn; judges everything even otherwise.
    struct Scripted(Vec<OpeningAnswer>, RandomAgent);

    impl Agent for Scripted {
        fn name(&self) -> String {
            "scripted".to_owned()
        }
        fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
            self.1.select_move(pos, limits)
        }
        fn decide_opening(
            &mut self,
            pos: &Position,
            ask: &OpeningAsk,
            limits: &Limits,
        ) -> Result<Option<OpeningAnswer>, AgentError> {
            if self.0.is_empty() {
                return decide_by_judging(self, pos, ask, limits).map(Some);
            }
            Ok(Some(self.0.remove(0)))
        }
    }

    fn cell(name: &str) -> Cell {
        Rules::renju().parse_cell(name).unwrap()
    }

    #[test]
    fn swaps_hand_the_colours_over_and_ten_fifth_stones_are_offered() {
        // The second player swaps after the first stone: it is black from then.
        let first = Scripted(Vec::new(), RandomAgent::new(5));
        let mut second = Scripted(vec![OpeningAnswer::Swap(true)], RandomAgent::new(6));
        let mut first = first;
        let record = play(OpeningRule::Taraguchi10, &mut first, &mut second);
        assert_eq!(record.check(), Ok(()), "{record:?}");
        assert_eq!(record.swap.as_ref().map(|swap| swap.opener), Some(Side::O));
        assert_eq!(record.players, ["scripted", "scripted"]);
        // Black's way of ten: offered and picked, the record holds.
        let mut black = Scripted(Vec::new(), RandomAgent::new(7));
        black.0 = vec![
            OpeningAnswer::Stones(vec![cell("h8")]),
            OpeningAnswer::Swap(false),
            OpeningAnswer::Stones(vec![cell("h10")]),
            OpeningAnswer::Offer(true),
        ];
        let mut white = Scripted(
            vec![
                OpeningAnswer::Swap(false),
                OpeningAnswer::Stones(vec![cell("h9")]),
                OpeningAnswer::Swap(false),
            ],
            RandomAgent::new(8),
        );
        let record = play(OpeningRule::Taraguchi10, &mut black, &mut white);
        assert_eq!(record.check(), Ok(()), "{record:?}");
        let steps = &record.swap.as_ref().unwrap().steps;
        assert!(matches!(&steps[8], SwapStep::Offered(offered) if offered.len() == 10), "{steps:?}");
        assert!(matches!(steps[9], SwapStep::Picked(_)), "{steps:?}");
    }

    #[test]
    fn answers_the_rule_does_not_allow_lose_the_game() {
        // A first stone off the centre.
        let mut wrong = Scripted(vec![OpeningAnswer::Stones(vec![cell("a1")])], RandomAgent::new(9));
        let record = play(OpeningRule::Taraguchi10, &mut wrong, &mut RandomAgent::new(10));
        let forfeit = record.forfeit.as_ref().expect("a forfeit");
        assert!(forfeit.reason.contains("outside the central 1x1 square"), "{forfeit:?}");
        assert_eq!(record.check(), Ok(()));
        // Two fifth stones the same by the position's symmetry (1D is
        // symmetric in the h column, and the fourth stone on it keeps it).
        let mut black = Scripted(
            vec![
                OpeningAnswer::Stones(vec![cell("h8"), cell("h9"), cell("h10")]),
                OpeningAnswer::Swap(false),
                OpeningAnswer::Stones(vec![cell("g7"), cell("i7")]),
            ],
            RandomAgent::new(11),
        );
        let mut white = Scripted(
            vec![OpeningAnswer::Swap(false), OpeningAnswer::FourthAndCount(cell("h12"), 2)],
            RandomAgent::new(12),
        );
        let record = play(OpeningRule::Soosorv8, &mut black, &mut white);
        let forfeit = record.forfeit.as_ref().expect("a forfeit");
        assert!(forfeit.reason.contains("the same by a symmetry"), "{forfeit:?}");
        assert_eq!(record.check(), Ok(()));
        // Nine fifth stones asked for.
        let mut white = Scripted(
            vec![OpeningAnswer::Swap(false), OpeningAnswer::FourthAndCount(cell("h12"), 9)],
            RandomAgent::new(13),
        );
        let record = play(OpeningRule::Soosorv8, &mut RandomAgent::new(14), &mut white);
        assert!(record.forfeit.as_ref().unwrap().reason.contains("1 to 8, not 9"));
    }

    #[test]
    fn altered_records_are_caught() {
        let mut record = play(OpeningRule::Soosorv8, &mut RandomAgent::new(15), &mut RandomAgent::new(16));
        let swap = record.swap.as_mut().unwrap();
        swap.steps.swap(1, 2);
        assert!(record.check().unwrap_err().contains("not the rule's"), "{record:?}");
        let mut record = play(OpeningRule::Soosorv8, &mut RandomAgent::new(15), &mut RandomAgent::new(16));
        record.swap.as_mut().unwrap().opener = Side::O;
        assert!(record.check().unwrap_err().contains("first player ended as"));
    }

    fn steps(record: &mut GameRecord) -> &mut Vec<SwapStep> {
        &mut record.swap.as_mut().unwrap().steps
    }

    #[test]
    fn records_whose_steps_hold_what_the_rule_forbids_are_caught() {
        let played = play(OpeningRule::Soosorv8, &mut RandomAgent::new(15), &mut RandomAgent::new(16));
        assert_eq!(played.check(), Ok(()));
        let tampered = |change: &dyn Fn(&mut GameRecord)| {
            let mut record = played.clone();
            change(&mut record);
            record.check().unwrap_err()
        };
        let declared = |fifths: u8| {
            move |record: &mut GameRecord| {
                if let SwapStep::Declared { fifths: count, .. } = &mut steps(record)[2] {
                    *count = fifths;
                }
            }
        };
        for (fifths, says) in
            [(0, "1 to 8, not 0"), (9, "1 to 8, not 9"), (255, "1 to 8, not 255"), (2, "2 fifth stones")]
        {
            let error = tampered(&declared(fifths));
            assert!(error.contains(says), "{fifths}: {error}");
        }
        let offered = |cells: Vec<Cell>| {
            move |record: &mut GameRecord| {
                if let SwapStep::Offered(offer) = &mut steps(record)[4] {
                    offer.clone_from(&cells);
                }
            }
        };
        let picked = played.opening[4];
        let error = tampered(&offered(vec![picked, picked]));
        assert!(error.contains("1 fifth stones were asked for, not 2"), "{error}");
        let error = tampered(&offered(vec![cell("h8")]));
        assert!(error.contains("cannot be played"), "{error}");
        let elsewhere = if picked == cell("a1") { cell("a2") } else { cell("a1") };
        let error = tampered(&offered(vec![elsewhere]));
        assert!(error.contains("not one of the fifth stones offered"), "{error}");
        // The first stone off the centre (opening and steps alike).
        let error = tampered(&|record: &mut GameRecord| {
            record.opening[0] = cell("a15");
            if let SwapStep::Put(put) = &mut steps(record)[0] {
                put[0] = cell("a15");
            }
        });
        assert!(error.contains("black at the centre") || error.contains("do not replay"), "{error}");
    }

    #[test]
    fn symmetry_is_that_of_the_stones() {
        let rules = Rules::renju();
        let pos = crate::opening_rules::swap::opening_position(rules, &[cell("h8"), cell("h9"), cell("h10")])
            .unwrap();
        assert!(symmetric(&pos, cell("g7"), cell("i7")));
        assert!(!symmetric(&pos, cell("g7"), cell("i9")));
        let pos = crate::opening_rules::swap::opening_position(rules, &[cell("h8"), cell("h9"), cell("i9")])
            .unwrap();
        assert!(!symmetric(&pos, cell("g7"), cell("i7")));
    }
}
