//! A swap opening in the terminal game: X's player puts three stones,
//! O's takes a colour or (swap2) puts two more and X's player takes one;
//! a person is told what is asked, an engine's choice is explained.
//! Until the colours are settled, `players[0]` is the player who opened.

use std::time::Instant;

use board::{Cell, Side};
use play::{Analysis, OpeningRule, SwapChoice, SwapRecord, SwapStep};

use super::App;
use crate::engine::{Answer, Job, Purpose, Thinking};
use crate::setup::Player;

/// A swap opening under way; its stones are the board's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwapPhase {
    pub rule: OpeningRule,
    /// The second player chose to put two more stones (a person puts
    /// them one at a time).
    pub putting_two: bool,
    /// Under a RIF rule, its steps so far.
    pub rif: super::rif::RifSteps,
}

/// The player (0 the one who opened) who decides with `ply` stones on the
/// board: the opener with none or five, the other with three (or four,
/// putting two more).
#[must_use]
pub(super) fn seat_at(ply: usize) -> usize {
    usize::from(matches!(ply, 3 | 4))
}

impl SwapPhase {
    #[must_use]
    pub fn new(rule: OpeningRule) -> SwapPhase {
        SwapPhase { rule, putting_two: false, rif: super::rif::RifSteps::default() }
    }
}

impl App {
    /// The swap opening under way, if one is.
    #[must_use]
    pub fn swap_phase(&self) -> Option<&SwapPhase> {
        self.swap.as_ref()
    }

    /// The swap opening this game had, once its colours were settled.
    #[must_use]
    pub fn settled_opening(&self) -> Option<&SwapRecord> {
        self.opening.as_ref()
    }

    /// Stones take-back does not remove: a settled swap opening's.
    pub(super) fn opening_stones(&self) -> usize {
        self.opening.as_ref().map_or(0, |opening| play::opening_rules::rif::stones(&opening.steps).len())
    }

    /// Who decides now in the opening: 0 the player who opened.
    pub(super) fn opening_seat(&self) -> Option<usize> {
        let phase = self.swap.as_ref()?;
        if phase.rule.is_rif() {
            return self.rif_seat();
        }
        Some(seat_at(self.pos.ply()))
    }

    /// The seat (0 the player who opened) holding `side` now: during a
    /// RIF opening it changes with each swap; a swap opening's opener
    /// holds black until the colours are taken.
    #[must_use]
    pub fn seat_holding(&self, side: Side) -> usize {
        let black = match &self.swap {
            Some(phase) if phase.rule.is_rif() => play::opening_rules::rif::black_seat(&phase.rif.steps),
            _ => 0,
        };
        if side == Side::X { black } else { 1 - black }
    }

    /// The colour whose player must act now (its part of the opening, or
    /// its move), if the game goes on.
    #[must_use]
    pub fn side_to_act(&self) -> Option<Side> {
        if self.over() {
            return None;
        }
        match self.opening_seat() {
            Some(seat) => Side::ALL.into_iter().find(|&side| self.seat_holding(side) == seat),
            None => Some(self.pos.side_to_move()),
        }
    }

    /// What the opening asks of its player now.
    #[must_use]
    pub fn opening_prompt(&self) -> String {
        let Some(phase) = &self.swap else { return String::new() };
        if phase.rule.is_rif() {
            return self.rif_prompt();
        }
        let asks = match (self.pos.ply(), phase.putting_two) {
            (0..=2, _) => format!("put 3 stones: 2 black (X), 1 white (O); {} of 3 put", self.pos.ply()),
            (3, false) if phase.rule == OpeningRule::Swap2 => {
                "X swaps (take black), a stone plays on as white, F puts 2 more".to_owned()
            }
            (3 | 5, false) => "X swaps (take black), a stone plays on as white".to_owned(),
            _ => "put 2 more stones: white, then black".to_owned(),
        };
        let seat = seat_at(self.pos.ply());
        match &self.setup.players[seat] {
            Player::Human => format!("{}: {asks}", phase.rule),
            Player::Engine(spec) => format!("{}: {} decides ({asks})", phase.rule, spec.text()),
        }
    }

    /// Starts the engine whose part of the opening it is.
    pub(super) fn think_on_opening(&mut self, now: Instant) {
        let Some(phase) = &self.swap else { return };
        if phase.rule.is_rif() {
            self.think_on_rif(now);
            return;
        }
        let seat = seat_at(self.pos.ply());
        let job = match self.pos.ply() {
            0 => Job::Propose,
            ply => Job::Choose { may_put_two: ply == 3 && phase.rule == OpeningRule::Swap2 },
        };
        if let Some(agent) = self.agents[seat].take() {
            let limits = self.move_limits(self.pos.side_to_move(), now);
            self.thinking =
                Some(Thinking::start_job(agent, &self.pos, limits, Purpose::Opening, job).for_seat(seat));
        }
    }

    /// A person's stone in the opening: one of the three (or two more),
    /// or, offered the stones, a move as white.
    pub(super) fn place_in_opening(&mut self, cell: Cell) {
        if self.swap.as_ref().is_some_and(|phase| phase.rule.is_rif()) {
            self.place_in_rif(cell);
            return;
        }
        if !self.pos.is_legal(cell) {
            let why = self.pos.clone().play(cell).err().map_or_else(String::new, |err| err.to_string());
            self.message = format!("cannot put a stone on {}: {why}", cell.name(&self.setup.rules));
            return;
        }
        let putting_two = self.swap.as_ref().is_some_and(|phase| phase.putting_two);
        match self.pos.ply() {
            3 if !putting_two => self.choose(SwapChoice::Play(cell), None),
            5 => self.choose(SwapChoice::Play(cell), None),
            _ => {
                self.put(&[cell]);
            }
        }
    }

    /// `X` (swap) or `F` (two more stones), from a person offered the
    /// stones; under a RIF rule `X`, `F` or `K` (see [`super::rif`]).
    pub(super) fn opening_key(&mut self, key: char) {
        let Some(phase) = &self.swap else {
            self.say("nothing to choose now: the colours are settled");
            return;
        };
        if phase.rule.is_rif() {
            self.rif_key(key);
            return;
        }
        let offered = matches!(self.pos.ply(), 3 | 5) && !phase.putting_two;
        let may_put_two = self.pos.ply() == 3 && phase.rule == OpeningRule::Swap2;
        if !offered || !self.human_to_move() {
            self.say("nothing to choose now");
            return;
        }
        match key {
            'F' if may_put_two => {
                if let Some(phase) = &mut self.swap {
                    phase.putting_two = true;
                }
                self.say("put 2 more stones: white, then black");
            }
            'X' => self.choose(SwapChoice::Swap, None),
            _ => self.say("F puts two more stones only when three are offered under swap2"),
        }
    }

    /// Puts stones of the opening, all or none, and says what comes next;
    /// false, the message saying why, if one cannot be put.
    fn put(&mut self, stones: &[Cell]) -> bool {
        for (done, &cell) in stones.iter().enumerate() {
            let name = cell.name(&self.setup.rules);
            let refused = match self.pos.play(cell) {
                Err(err) => Some((done, format!("the opening stone {name} cannot be put: {err}"))),
                // Opening stones put a position to choose from, not a result.
                Ok(()) if self.pos.is_over() => {
                    Some((done + 1, format!("the opening stone {name} would make a line")))
                }
                Ok(()) => None,
            };
            if let Some((played, why)) = refused {
                (0..played).for_each(|_| _ = self.pos.undo());
                self.message = why;
                return false;
            }
            self.cursor = cell;
        }
        self.dirty = true;
        if let Some(phase) = &mut self.swap
            && self.pos.ply() == 5
        {
            phase.putting_two = false;
        }
        self.message = self.opening_prompt();
        true
    }

    /// The player deciding now chose `choice`; `why` is an engine's reason.
    fn choose(&mut self, choice: SwapChoice, why: Option<&str>) {
        let seat = seat_at(self.pos.ply());
        let (name, s) = self.subject(seat);
        match choice {
            SwapChoice::PutTwo(two) => {
                let allowed =
                    self.pos.ply() == 3 && self.swap.as_ref().is_some_and(|p| p.rule == OpeningRule::Swap2);
                if !allowed {
                    self.message =
                        format!("{name} put{s} two more stones, which the rule does not allow; paused");
                    self.paused = true;
                    return;
                }
                if !self.put(&two) {
                    self.message = format!("{name}: {}; paused", self.message);
                    self.paused = true;
                    return;
                }
                let names: Vec<String> =
                    two.iter().map(|cell| cell.name(&self.setup.rules).to_string()).collect();
                self.message = format!(
                    "{name} put{s} two more, {}{} — {}",
                    names.join(" "),
                    because(why),
                    self.opening_prompt()
                );
            }
            SwapChoice::Swap => {
                let first = if seat == 0 { Side::X } else { Side::O };
                self.settle(Side::X, first);
                self.message = format!("{name} take{s} black (X){}: O to move", because(why));
            }
            SwapChoice::Play(cell) => {
                let first = if seat == 0 { Side::O } else { Side::X };
                self.settle(Side::O, first);
                if self.play_move(cell) {
                    self.message = format!(
                        "{name} take{s} white (O) and play{s} {}{}",
                        cell.name(&self.setup.rules),
                        because(why)
                    );
                } else if self.lost_on_time().is_none() {
                    self.message =
                        format!("{name} took white with a move refused ({}); paused", self.message);
                    self.paused = true;
                }
            }
        }
    }

    /// The colours are settled: the chooser took `taken`, the opener has
    /// `first`. Players (and their engines) change places if the opener
    /// ended with O.
    fn settle(&mut self, taken: Side, first: Side) {
        let Some(phase) = self.swap.take() else { return };
        let stones = self.pos.moves();
        let mut steps: Vec<SwapStep> = stones.chunks(3).map(|put| SwapStep::Put(put.to_vec())).collect();
        steps.push(SwapStep::Took(taken));
        self.opening = Some(SwapRecord { rule: phase.rule, opener: first, steps });
        if first == Side::O {
            self.setup.players.swap(0, 1);
            self.agents.swap(0, 1);
            self.learning.swap(0, 1);
            self.learning_lost.swap(0, 1);
        }
        self.dirty = true;
    }

    /// An engine's part of the opening came back.
    pub(super) fn finish_opening(
        &mut self,
        ply: usize,
        result: Result<Answer, String>,
        analysis: Option<&Analysis>,
    ) {
        if self.swap.as_ref().is_some_and(|phase| phase.rule.is_rif()) {
            self.finish_rif(result);
            return;
        }
        let (name, s) = self.subject(seat_at(ply));
        match result {
            Ok(Answer::Stones(stones)) => {
                if !self.put(&stones) {
                    self.message = format!("{name}: {}; paused", self.message);
                    self.paused = true;
                    return;
                }
                let names: Vec<String> =
                    stones.iter().map(|cell| cell.name(&self.setup.rules).to_string()).collect();
                self.message = format!("{name} open{s} with {} — {}", names.join(" "), self.opening_prompt());
            }
            Ok(Answer::Choice(choice)) => {
                let why = analysis.and_then(Analysis::win_chance).map(|chance| {
                    let value =
                        analysis.and_then(|a| a.value).map_or(String::new(), |v| format!(", {v:+.0}"));
                    format!("white's chance as it judges it {:.0}%{value}", chance * 100.0)
                });
                self.choose(choice, why.as_deref());
            }
            Ok(Answer::Move(_) | Answer::Rif(_)) => {
                self.message = format!("{name} answered another question than the opening's; paused");
                self.paused = true;
            }
            Err(err) => {
                self.message = format!("{name} could not decide the opening: {err}; paused");
                self.paused = true;
            }
        }
    }

    /// Who sits in `seat`, and the ending of a verb after it: `you`
    /// take, an engine takes.
    fn subject(&self, seat: usize) -> (String, &'static str) {
        match &self.setup.players[seat] {
            Player::Human => ("you".to_owned(), ""),
            Player::Engine(spec) => (spec.text().to_owned(), "s"),
        }
    }
}

/// `: REASON`, or nothing.
fn because(why: Option<&str>) -> String {
    why.map_or(String::new(), |why| format!(": {why}"))
}
