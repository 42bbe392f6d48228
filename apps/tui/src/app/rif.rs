//! A RIF opening (Soosõrv-8, Taraguchi-10) in the terminal game: each
//! step asked of the player whose part it is, as `play::opening_rules::rif`
//! orders them — a person by stones and keys, an engine by its
//! `decide_opening` — until the colours settle and white plays on.
//!
//! A person answers with:
//! - stones (typed or Space): the standard opening's three, one stone
//!   within its square, the fourth stone (then its count: a number and
//!   Enter), fifth stones to offer (shown as `5`, a second time takes one
//!   back), or a picked fifth stone and then white's sixth move;
//! - `X` swap colours, `K` keep them; `F` offer fifth stones, `K` put one.

use std::time::Instant;

use board::{Cell, Side};
use play::opening_rules::rif::{OpeningAnswer, OpeningAsk, black_seat, next_ask, seat_of, take_answer};
use play::{SwapRecord, SwapStep};

use super::App;
use crate::engine::{Answer, Job, Purpose, Thinking};
use crate::rif_stones::refusal;
use crate::setup::Player;

/// The steps of a RIF opening so far, and what a person has given
/// toward the step asked now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RifSteps {
    pub steps: Vec<SwapStep>,
    /// Stones a person has given toward the step: the standard opening's
    /// or the fourth stone (on the board), fifth stones offered (off it),
    /// or the picked fifth (on the board, awaiting white's sixth move).
    pub pending: Vec<Cell>,
}

impl App {
    /// The RIF step asked now, if a RIF opening is under way.
    #[must_use]
    pub fn opening_ask(&self) -> Option<OpeningAsk> {
        self.rif_ask()
    }

    fn rif_ask(&self) -> Option<OpeningAsk> {
        let phase = self.swap.as_ref().filter(|phase| phase.rule.is_rif())?;
        next_ask(phase.rule, &phase.rif.steps).ok().flatten()
    }

    fn rif_steps(&self) -> &[SwapStep] {
        self.swap.as_ref().map_or(&[], |phase| &phase.rif.steps)
    }

    fn pending(&self) -> &[Cell] {
        self.swap.as_ref().map_or(&[], |phase| &phase.rif.pending)
    }

    /// Changes the pending stones (of the RIF opening under way).
    fn edit_pending<T: Default>(&mut self, edit: impl FnOnce(&mut Vec<Cell>) -> T) -> T {
        self.swap.as_mut().map(|phase| edit(&mut phase.rif.pending)).unwrap_or_default()
    }

    /// Fifth stones a person is offering, to be drawn on the board.
    #[must_use]
    pub fn offered(&self) -> Vec<Cell> {
        match self.rif_ask() {
            Some(OpeningAsk::Offer { .. }) => self.pending().to_vec(),
            Some(OpeningAsk::Pick { offered }) if self.pending().is_empty() => offered,
            _ => Vec::new(),
        }
    }

    /// The seat (0 the player who opened) asked the RIF step now.
    pub(super) fn rif_seat(&self) -> Option<usize> {
        self.rif_ask().map(|ask| seat_of(&ask, self.rif_steps()))
    }

    /// What the RIF opening asks now, and of whom.
    pub(super) fn rif_prompt(&self) -> String {
        let (Some(ask), Some(phase)) = (self.rif_ask(), &self.swap) else { return String::new() };
        let pending = self.pending().len();
        let rules = &self.setup.rules;
        let asks = match &ask {
            OpeningAsk::StandardOpening => format!(
                "put a standard opening: black at the centre, white within 3x3, black within 5x5; {pending} of 3 put"
            ),
            OpeningAsk::Put { radius } => {
                let colour = if self.pos.ply().is_multiple_of(2) { "black" } else { "white" };
                let width = 2 * radius + 1;
                format!("put {colour}'s stone {} within the central {width}x{width}", self.pos.ply() + 1)
            }
            OpeningAsk::MaySwap { holding } => {
                format!("you hold {}: X swaps colours, K keeps them", colour(*holding))
            }
            OpeningAsk::FourthAndCount { most } if pending == 0 => {
                format!(
                    "put white's fourth stone anywhere (then how many fifth stones black offers, 1 to {most})"
                )
            }
            OpeningAsk::FourthAndCount { most } => {
                format!(
                    "how many fifth stones black must offer: type 1 to {most} and Enter (or put the fourth elsewhere)"
                )
            }
            OpeningAsk::OfferOrPut { count } => {
                format!(
                    "F offers {count} fifth stones for white to pick from, K puts one within 9x9 (swaps after)"
                )
            }
            OpeningAsk::Offer { count } => {
                format!(
                    "offer {count} fifth stones, no two alike by a symmetry; {pending} of {count} offered"
                )
            }
            OpeningAsk::Pick { offered } if pending == 0 => {
                let names: Vec<String> = offered.iter().map(|cell| cell.name(rules).to_string()).collect();
                format!(
                    "pick one of the fifth stones offered ({}), then play white's sixth move",
                    names.join(" ")
                )
            }
            OpeningAsk::Pick { .. } => "play white's sixth move".to_owned(),
        };
        let seat = seat_of(&ask, &phase.rif.steps);
        match &self.setup.players[seat] {
            Player::Human => format!("{}: {asks}", phase.rule),
            Player::Engine(spec) => format!("{}: {} decides ({asks})", phase.rule, spec.text()),
        }
    }

    /// Who is asked the RIF step now, as the messages name them (`you`
    /// or an engine's spec), and whether it is a person.
    fn rif_player(&self) -> (String, bool) {
        match self.rif_seat().map(|seat| &self.setup.players[seat]) {
            Some(Player::Engine(spec)) => (spec.text().to_owned(), false),
            _ => ("you".to_owned(), true),
        }
    }

    /// Starts the engine whose RIF step it is.
    pub(super) fn think_on_rif(&mut self, now: Instant) {
        let Some(ask) = self.rif_ask() else { return };
        let seat = seat_of(&ask, self.rif_steps());
        if let Some(agent) = self.agents[seat].take() {
            let limits = self.move_limits(self.pos.side_to_move(), now);
            let job = Job::Rif(ask);
            self.thinking =
                Some(Thinking::start_job(agent, &self.pos, limits, Purpose::Opening, job).for_seat(seat));
        }
    }

    /// An engine's RIF step came back.
    pub(super) fn finish_rif(&mut self, result: Result<Answer, String>) {
        let Some(ask) = self.rif_ask() else { return };
        let (name, _) = self.rif_player();
        match result {
            Ok(Answer::Rif(answer)) => self.answer_rif(&ask, &answer),
            Ok(_) => {
                self.message = format!("{name} answered something else than the opening step; paused");
                self.paused = true;
            }
            Err(err) => {
                self.message = format!("{name} could not decide the opening: {err}; paused");
                self.paused = true;
            }
        }
    }

    /// A person's stone (typed or Space) in a RIF opening.
    pub(super) fn place_in_rif(&mut self, cell: Cell) {
        let Some(ask) = self.rif_ask() else { return };
        let rules = self.setup.rules;
        let name = cell.name(&rules).to_string();
        let pending = self.pending().to_vec();
        // An offered fifth stone is taken back by giving it again.
        if matches!(ask, OpeningAsk::Offer { .. }) && pending.contains(&cell) {
            self.edit_pending(|pending| pending.retain(|&other| other != cell));
            self.message = format!("{name} is offered no more — {}", self.rif_prompt());
            return;
        }
        if let Some(why) = refusal(&self.pos, &ask, &pending, cell) {
            self.message = format!("{why} — {}", self.rif_prompt());
            return;
        }
        match ask {
            OpeningAsk::StandardOpening => {
                self.put_pending(cell);
                if pending.len() + 1 == 3 {
                    let stones = self.take_pending();
                    self.answer_rif(&ask, &OpeningAnswer::Stones(stones));
                } else {
                    self.message = self.rif_prompt();
                }
            }
            OpeningAsk::Put { .. } => self.answer_rif(&ask, &OpeningAnswer::Stones(vec![cell])),
            OpeningAsk::FourthAndCount { .. } => {
                // Another fourth stone replaces the one put.
                self.take_pending();
                self.put_pending(cell);
                self.message = self.rif_prompt();
            }
            OpeningAsk::Offer { count } => {
                self.edit_pending(|pending| pending.push(cell));
                if pending.len() + 1 == usize::from(count) {
                    let offered = self.edit_pending(std::mem::take);
                    self.answer_rif(&ask, &OpeningAnswer::Stones(offered));
                } else {
                    self.message = format!("{name} offered — {}", self.rif_prompt());
                }
            }
            OpeningAsk::Pick { .. } => match pending.first() {
                None => {
                    self.put_pending(cell);
                    self.message = format!("you pick {name} — {}", self.rif_prompt());
                }
                Some(&fifth) => {
                    self.take_pending();
                    self.answer_rif(&ask, &OpeningAnswer::Pick(fifth, cell));
                }
            },
            // Refused above.
            OpeningAsk::MaySwap { .. } | OpeningAsk::OfferOrPut { .. } => {}
        }
    }

    /// A person's key in a RIF opening: `X` swap, `K` keep (or put one
    /// fifth stone), `F` offer fifth stones.
    pub(super) fn rif_key(&mut self, key: char) {
        let Some(ask) = self.rif_ask() else { return };
        if !self.human_to_move() {
            self.say("it is the engine's part of the opening");
            return;
        }
        let answer = match (&ask, key) {
            (OpeningAsk::MaySwap { .. }, 'X' | 'K') => OpeningAnswer::Swap(key == 'X'),
            (OpeningAsk::OfferOrPut { .. }, 'F' | 'K') => OpeningAnswer::Offer(key == 'F'),
            _ => {
                self.message = format!("{key} does not answer this step — {}", self.rif_prompt());
                return;
            }
        };
        self.answer_rif(&ask, &answer);
    }

    /// Whether a number typed now is the count of fifth stones.
    pub(super) fn rif_wants_count(&self) -> bool {
        matches!(self.rif_ask(), Some(OpeningAsk::FourthAndCount { .. }))
    }

    /// A person's count of fifth stones, after the fourth stone.
    pub(super) fn rif_count(&mut self, typed: &str) {
        let Some(ask @ OpeningAsk::FourthAndCount { most }) = self.rif_ask() else { return };
        let Some(&fourth) = self.pending().first() else {
            self.message = format!("put the fourth stone first — {}", self.rif_prompt());
            return;
        };
        match typed.parse::<u8>() {
            Ok(count) if (1..=most).contains(&count) => {
                self.take_pending();
                self.answer_rif(&ask, &OpeningAnswer::FourthAndCount(fourth, count));
            }
            _ => self.message = format!("the count of fifth stones is 1 to {most}, not {typed:?}"),
        }
    }

    /// Puts a person's pending stone on the board.
    fn put_pending(&mut self, cell: Cell) {
        if self.pos.play(cell).is_ok() {
            self.edit_pending(|pending| pending.push(cell));
            self.cursor = cell;
            self.dirty = true;
        }
    }

    /// Takes a person's pending stones off the board (and out of the
    /// list), returning them in order.
    fn take_pending(&mut self) -> Vec<Cell> {
        let pending = self.edit_pending(std::mem::take);
        for _ in &pending {
            self.pos.undo();
        }
        pending
    }

    /// Checks `answer` to `ask` by the rule, records its steps and puts
    /// its stones; then the next step, or the colours settled and white's
    /// sixth move (after a pick) played.
    fn answer_rif(&mut self, ask: &OpeningAsk, answer: &OpeningAnswer) {
        let rules = self.setup.rules;
        let (who, person) = self.rif_player();
        let steps = match take_answer(&self.pos, ask, answer) {
            Ok(steps) => steps,
            // A person tries again; an engine's game waits.
            Err(why) if person => {
                self.message = format!("{who}: {why}");
                return;
            }
            Err(why) => {
                self.message = format!("{who}: {why}; paused");
                self.paused = true;
                return;
            }
        };
        let mut said = Vec::new();
        for step in steps {
            let stones = match &step {
                SwapStep::Put(stones) => stones.clone(),
                SwapStep::Declared { stone, .. } | SwapStep::Picked(stone) => vec![*stone],
                _ => Vec::new(),
            };
            for stone in stones {
                if let Err(err) = self.pos.play(stone) {
                    self.message = format!("{who}: {} cannot be put: {err}; paused", stone.name(&rules));
                    self.paused = true;
                    return;
                }
                self.cursor = stone;
            }
            said.push(describe(&step, rules));
            if let Some(phase) = &mut self.swap {
                phase.rif.steps.push(step);
            }
        }
        self.dirty = true;
        let done = format!("{who}: {}", said.join(", "));
        if self.rif_ask().is_some() {
            self.message = format!("{done} — {}", self.rif_prompt());
            return;
        }
        self.settle_rif();
        self.message.clone_from(&done);
        if let OpeningAnswer::Pick(_, sixth) = answer {
            if self.play_move(*sixth) {
                self.message = format!("{done}; white plays {}", sixth.name(&rules));
            } else if self.lost_on_time().is_none() {
                self.message = format!("{done}; white's sixth move was refused ({}); paused", self.message);
                self.paused = true;
            }
        }
    }

    /// The RIF opening is over: the record keeps its steps, and the
    /// players (and their engines) change places if the one who opened
    /// ended with white.
    fn settle_rif(&mut self) {
        let Some(phase) = self.swap.take() else { return };
        let first = if black_seat(&phase.rif.steps) == 0 { Side::X } else { Side::O };
        self.opening = Some(SwapRecord { rule: phase.rule, opener: first, steps: phase.rif.steps });
        if first == Side::O {
            self.setup.players.swap(0, 1);
            self.agents.swap(0, 1);
            self.learning.swap(0, 1);
            self.learning_lost.swap(0, 1);
        }
    }
}

/// A step in a few words.
fn describe(step: &SwapStep, rules: board::Rules) -> String {
    let names =
        |cells: &[Cell]| cells.iter().map(|cell| cell.name(&rules).to_string()).collect::<Vec<_>>().join(" ");
    match step {
        SwapStep::Put(stones) => format!("put {}", names(stones)),
        SwapStep::Swap(true) => "swaps colours".to_owned(),
        SwapStep::Swap(false) => "keeps the colours".to_owned(),
        SwapStep::Declared { stone, fifths } => {
            format!(
                "put {} and asks for {fifths} fifth {}",
                stone.name(&rules),
                if *fifths == 1 { "stone" } else { "stones" }
            )
        }
        SwapStep::ChoseOffer(true) => "offers fifth stones".to_owned(),
        SwapStep::ChoseOffer(false) => "puts one fifth stone".to_owned(),
        SwapStep::Offered(stones) => format!("offers {}", names(stones)),
        SwapStep::Picked(stone) => format!("picks {}", stone.name(&rules)),
        SwapStep::Took(side) => format!("takes {}", colour(*side)),
    }
}

fn colour(side: Side) -> &'static str {
    match side {
        Side::X => "black (X)",
        Side::O => "white (O)",
    }
}
