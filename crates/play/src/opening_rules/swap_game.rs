//! A game under a swap opening rule: the players put the opening and
//! choose their colours (see [`crate::opening_rules::swap`]), then play it out as any
//! game.

use std::time::{Duration, Instant};

use crate::agent::{Agent, AgentError};
use crate::clock::Clocks;
use crate::clock::TimeControl;
use crate::game::{Start, play_on};
use crate::game_record::{Forfeit, GameRecord, MoveRecord, Thought};
use crate::limits::Limits;
use crate::opening_rules::asks::SwapChoice;
use crate::opening_rules::swap::opening_position;
use crate::opening_rules::swap::{OpeningRule, SwapRecord, SwapStep};
use board::{Cell, Outcome, Position, Rules, Side};

/// Plays one game under `rule`: `agents[0]` is the first player, who puts
/// the first three stones, `agents[1]` the second; colours fall where
/// their choices put them, and the record's `players` are by colour, its
/// [`SwapRecord`] says who did what. Each decision is thought over within
/// `limits`, or on `clock` as a move would be. A player that fails a
/// decision (an error, stones that cannot be put, an answer the rule does
/// not allow, its time run out) loses by forfeit, as on a move. Under
/// [`OpeningRule::None`] it is [`play_game`](crate::game::play_game) from the
/// empty board, the first player X.
pub fn play_swap_game(
    rules: Rules,
    rule: OpeningRule,
    mut agents: [&mut dyn Agent; 2],
    limits: &Limits,
    clock: Option<TimeControl>,
) -> GameRecord {
    for agent in &mut agents {
        agent.new_game(&rules);
    }
    let mut clock = clock.map(Clocks::new);
    let mut phase =
        Phase { rule, agents, limits, clock: clock.as_mut(), pos: Position::new(rules), steps: Vec::new() };
    if !rule.is_swap() {
        return phase.into_game(Side::X, None);
    }
    let decided = if rule.is_rif() { phase.decide_rif() } else { phase.decide() };
    match decided {
        Ok((opener, first)) => phase.into_game(opener, first),
        Err(lost) => phase.forfeit(lost),
    }
}

/// The opening phase under way: seats are players (0 the first player).
struct Phase<'a, 'b> {
    rule: OpeningRule,
    agents: [&'b mut dyn Agent; 2],
    limits: &'a Limits,
    clock: Option<&'a mut Clocks>,
    pos: Position,
    steps: Vec<SwapStep>,
}

/// A player's failed decision: which seat, and why.
struct Lost {
    seat: usize,
    reason: String,
    /// It cannot play swap openings at all.
    unsupported: bool,
}

impl Lost {
    fn new(seat: usize, reason: String) -> Lost {
        Lost { seat, reason, unsupported: false }
    }
}

impl Phase<'_, '_> {
    /// Runs the decisions; the colour the first player ends with, and the
    /// move the player who took O played with its choice.
    fn decide(&mut self) -> Result<(Side, Option<MoveRecord>), Lost> {
        let rules = *self.pos.rules();
        let (stones, _) = self.timed(0, |agent, limits| super::propose(agent, &rules, limits))?;
        self.put(0, &stones)?;
        let (choice, micros) = self.choose(1)?;
        match choice {
            SwapChoice::Swap => Ok((self.took(1, Side::X), None)),
            SwapChoice::Play(cell) => Ok((self.took(1, Side::O), Some(self.first_move(1, cell, micros)))),
            SwapChoice::PutTwo(_) if self.rule != OpeningRule::Swap2 => {
                Err(Lost::new(1, format!("put two more stones, which {} does not allow", self.rule)))
            }
            SwapChoice::PutTwo(stones) => {
                self.put(1, &stones)?;
                match self.choose(0)? {
                    (SwapChoice::Swap, _) => Ok((self.took(0, Side::X), None)),
                    (SwapChoice::Play(cell), micros) => {
                        Ok((self.took(0, Side::O), Some(self.first_move(0, cell, micros))))
                    }
                    (SwapChoice::PutTwo(_), _) => {
                        Err(Lost::new(0, "put two more stones where it had to choose a colour".to_owned()))
                    }
                }
            }
        }
    }

    /// Runs a RIF rule's steps ([`crate::opening_rules::rif`]): each asked of its
    /// player, checked and recorded; the colour the first player ends
    /// with, and white's sixth move when it came with a pick.
    fn decide_rif(&mut self) -> Result<(Side, Option<MoveRecord>), Lost> {
        use crate::opening_rules::rif::{OpeningAnswer, next_ask, seat_of, take_answer};
        let mut sixth = None;
        while let Some(ask) = next_ask(self.rule, &self.steps).map_err(|reason| Lost::new(0, reason))? {
            let seat = seat_of(&ask, &self.steps);
            let pos = self.pos.clone();
            let (answer, micros) =
                self.timed(seat, |agent, limits| super::decide_opening(agent, &pos, &ask, limits))?;
            let steps = take_answer(&pos, &ask, &answer).map_err(|reason| Lost::new(seat, reason))?;
            for step in steps {
                if let SwapStep::Put(stones) = &step {
                    let stones = stones.clone();
                    self.put(seat, &stones)?;
                    continue;
                }
                let placed = match &step {
                    SwapStep::Declared { stone, .. } | SwapStep::Picked(stone) => Some(*stone),
                    _ => None,
                };
                if let Some(stone) = placed {
                    self.place(seat, stone)?;
                }
                self.steps.push(step);
            }
            if let OpeningAnswer::Pick(_, move6) = answer {
                sixth = Some(self.first_move(seat, move6, micros));
            }
        }
        let opener = if crate::opening_rules::rif::black_seat(&self.steps) == 0 { Side::X } else { Side::O };
        Ok((opener, sixth))
    }

    /// Puts one stone of `seat` that a step records itself (the fourth
    /// with its count, a picked fifth).
    fn place(&mut self, seat: usize, stone: Cell) -> Result<(), Lost> {
        let mut pos = self.pos.clone();
        pos.play(stone).map_err(|error| Lost::new(seat, format!("cannot put {stone}: {error}")))?;
        if pos.is_over() {
            return Err(Lost::new(seat, format!("{stone} makes a line in the opening")));
        }
        self.pos = pos;
        Ok(())
    }

    /// `seat`'s choice on the stones put so far; two more stones are an
    /// answer only to the first three, under swap2.
    fn choose(&mut self, seat: usize) -> Result<(SwapChoice, u64), Lost> {
        let pos = self.pos.clone();
        let may_put_two = self.rule == OpeningRule::Swap2 && pos.moves().len() == 3;
        self.timed(seat, |agent, limits| super::choose_side(agent, &pos, may_put_two, limits))
    }

    /// One decision of `seat`, within its limits and charged to its clock.
    fn timed<T>(
        &mut self,
        seat: usize,
        decide: impl FnOnce(&mut dyn Agent, &Limits) -> Result<T, AgentError>,
    ) -> Result<(T, u64), Lost> {
        let empty = self.pos.legal_move_count();
        // Until the colours are taken, seat 0's clock is X's.
        let limits =
            self.clock.as_ref().map(|clock| Limits::on_clocks(clock, Side::ALL[seat], self.limits, empty));
        let limits = limits.as_ref().unwrap_or(self.limits);
        let started = Instant::now();
        let answer = decide(&mut *self.agents[seat], limits);
        let elapsed: Duration = started.elapsed();
        if let Some(clock) = self.clock.as_mut() {
            clock.charge(Side::ALL[seat], elapsed).map_err(|reason| Lost::new(seat, reason))?;
        }
        let answer = answer.map_err(|error| {
            let unsupported = matches!(error, AgentError::UnsupportedRules { .. });
            Lost { seat, reason: error.to_string(), unsupported }
        })?;
        Ok((answer, elapsed.as_micros() as u64))
    }

    /// Puts `seat`'s stones, all or none.
    fn put(&mut self, seat: usize, stones: &[Cell]) -> Result<(), Lost> {
        let all: Vec<Cell> = self.pos.moves().iter().chain(stones).copied().collect();
        let pos = opening_position(*self.pos.rules(), &all)
            .and_then(|pos| if pos.is_over() { Err("its stones make a line".to_owned()) } else { Ok(pos) })
            .map_err(|error| Lost::new(seat, format!("cannot put the opening: {error}")))?;
        self.pos = pos;
        self.steps.push(SwapStep::Put(stones.to_vec()));
        Ok(())
    }

    /// `seat` took `taken`; returns the first player's colour.
    fn took(&mut self, seat: usize, taken: Side) -> Side {
        self.steps.push(SwapStep::Took(taken));
        if seat == 0 { taken } else { taken.opponent() }
    }

    /// The move the chooser in `seat` played with its choice to take O.
    fn first_move(&self, seat: usize, cell: Cell, micros: u64) -> MoveRecord {
        let thought = self.agents[seat].analysis().as_ref().map(Thought::of);
        MoveRecord { cell, micros, thought }
    }

    /// The game from the opening on, the first player as `opener`.
    fn into_game(self, opener: Side, first: Option<MoveRecord>) -> GameRecord {
        let Phase { rule, agents: [first_player, second], limits, clock, pos, steps } = self;
        let opening = pos.moves().to_vec();
        let swap = rule.is_swap().then_some(SwapRecord { rule, opener, steps });
        let mut clock = clock;
        let agents = if opener == Side::X {
            [first_player, second]
        } else {
            if let Some(clock) = clock.as_mut() {
                clock.swap_sides();
            }
            [second, first_player]
        };
        let mut start = Start { pos, opening, moves: Vec::new(), swap };
        if let Some(first) = first {
            // A move the rules refuse is the chooser's forfeit, as any.
            if let Err(error) = start.pos.play(first.cell) {
                let side = start.pos.side_to_move();
                let forfeit = Forfeit::new(side, format!("illegal move {}: {error}", first.cell));
                return forfeit_record(start, agents.map(|agent| agent.name()), forfeit);
            }
            start.moves.push(first);
        }
        play_on(agents, start, limits, clock)
    }

    /// The record of a phase a player lost: it is the side to move, so the
    /// record's check holds.
    fn forfeit(self, lost: Lost) -> GameRecord {
        let names = self.agents.map(|agent| agent.name());
        // Under a RIF rule the colours are the swaps'; a pick is white's
        // with black to move.
        let (first_side, side) = if self.rule.is_rif() {
            let first =
                if crate::opening_rules::rif::black_seat(&self.steps) == 0 { Side::X } else { Side::O };
            (first, if lost.seat == 0 { first } else { first.opponent() })
        } else {
            let side = self.pos.side_to_move();
            (if lost.seat == 0 { side } else { side.opponent() }, side)
        };
        let players = if first_side == Side::X { names } else { [names[1].clone(), names[0].clone()] };
        let opening = self.pos.moves().to_vec();
        let swap = Some(SwapRecord { rule: self.rule, opener: first_side, steps: self.steps });
        let forfeit = Forfeit { side, reason: lost.reason, unsupported: lost.unsupported };
        forfeit_record(Start { pos: self.pos, opening, moves: Vec::new(), swap }, players, forfeit)
    }
}

fn forfeit_record(start: Start, players: [String; 2], forfeit: Forfeit) -> GameRecord {
    GameRecord {
        rules: *start.pos.rules(),
        players,
        opening: start.opening,
        moves: start.moves,
        outcome: Outcome::Win(forfeit.side.opponent()),
        forfeit: Some(forfeit),
        swap: start.swap,
        learning_errors: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_agent::RandomAgent;

    /// Opens with fixed stones, answers with fixed choices in turn, and
    /// moves at random.
    struct Scripted {
        name: &'static str,
        stones: [Cell; 3],
        choices: Vec<SwapChoice>,
        inner: RandomAgent,
    }

    impl Scripted {
        fn new(name: &'static str, choices: &[SwapChoice]) -> Scripted {
            let stones = [Cell::new(7, 7), Cell::new(8, 7), Cell::new(7, 9)];
            Scripted { name, stones, choices: choices.to_vec(), inner: RandomAgent::new(name.len() as u64) }
        }
    }

    impl Agent for Scripted {
        fn name(&self) -> String {
            self.name.to_owned()
        }
        fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
            self.inner.select_move(pos, limits)
        }
        fn propose_opening(&mut self, _: &Rules, _: &Limits) -> Result<Option<[Cell; 3]>, AgentError> {
            Ok(Some(self.stones))
        }
        fn choose_side(
            &mut self,
            _: &Position,
            _: bool,
            _: &Limits,
        ) -> Result<Option<SwapChoice>, AgentError> {
            if self.choices.is_empty() {
                Err(AgentError::failed("no choice left"))
            } else {
                Ok(Some(self.choices.remove(0)))
            }
        }
    }

    fn play(rule: OpeningRule, first: &mut Scripted, second: &mut Scripted) -> GameRecord {
        let record = play_swap_game(Rules::gomoku15(), rule, [first, second], &Limits::none(), None);
        assert_eq!(record.check(), Ok(()), "{record:?}");
        record
    }

    #[test]
    fn a_record_whose_swap_says_another_colour_than_its_steps_is_refused() {
        let (mut first, mut second) =
            (Scripted::new("first", &[]), Scripted::new("second", &[SwapChoice::Swap]));
        let record = play(OpeningRule::Swap2, &mut first, &mut second);
        let mut flipped = record.clone();
        flipped.swap.as_mut().unwrap().opener = Side::X;
        assert!(flipped.check().unwrap_err().contains("its steps give O"), "{:?}", flipped.check());
        let mut chosen_otherwise = record.clone();
        chosen_otherwise.swap.as_mut().unwrap().steps[1] = SwapStep::Took(Side::O);
        assert!(chosen_otherwise.check().is_err());
        let mut no_choice = record;
        no_choice.swap.as_mut().unwrap().steps.pop();
        assert!(no_choice.check().unwrap_err().contains("without a choice"));
    }

    #[test]
    fn a_swap_gives_the_first_player_o_to_move() {
        let (mut first, mut second) =
            (Scripted::new("first", &[]), Scripted::new("second", &[SwapChoice::Swap]));
        let record = play(OpeningRule::Swap1, &mut first, &mut second);
        assert_eq!(record.players, ["second", "first"]);
        assert_eq!(record.opening, first.stones);
        let swap = record.swap.unwrap();
        assert_eq!(swap.opener, Side::O);
        assert_eq!(swap.steps, [SwapStep::Put(first.stones.to_vec()), SwapStep::Took(Side::X)]);
        assert!(record.forfeit.is_none());
    }

    #[test]
    fn taking_o_plays_the_fourth_stone() {
        let fourth = Cell::new(0, 0);
        let (mut first, mut second) =
            (Scripted::new("first", &[]), Scripted::new("second", &[SwapChoice::Play(fourth)]));
        let record = play(OpeningRule::Swap2, &mut first, &mut second);
        assert_eq!(record.players, ["first", "second"]);
        assert_eq!(record.moves[0].cell, fourth);
        assert_eq!(record.swap.unwrap().opener, Side::X);
    }

    #[test]
    fn two_more_stones_leave_the_choice_to_the_first_player() {
        let two = [Cell::new(6, 6), Cell::new(9, 9)];
        let sixth = Cell::new(0, 14);
        // The first player then takes O and plays the sixth stone.
        let (mut first, mut second) = (
            Scripted::new("first", &[SwapChoice::Play(sixth)]),
            Scripted::new("second", &[SwapChoice::PutTwo(two)]),
        );
        let record = play(OpeningRule::Swap2, &mut first, &mut second);
        assert_eq!(record.players, ["second", "first"]);
        assert_eq!(record.opening.len(), 5);
        assert_eq!(record.moves[0].cell, sixth);
        let swap = record.swap.unwrap();
        assert_eq!(swap.opener, Side::O);
        assert_eq!(swap.steps[1..], [SwapStep::Put(two.to_vec()), SwapStep::Took(Side::O)]);
        // Or takes X: the second player moves sixth, as O.
        let (mut first, mut second) = (
            Scripted::new("first", &[SwapChoice::Swap]),
            Scripted::new("second", &[SwapChoice::PutTwo(two)]),
        );
        let record = play(OpeningRule::Swap2, &mut first, &mut second);
        assert_eq!(record.players, ["first", "second"]);
        assert_eq!(record.swap.unwrap().opener, Side::X);
    }

    #[test]
    fn a_decision_the_rule_does_not_allow_is_a_forfeit_of_its_player() {
        let two = [Cell::new(6, 6), Cell::new(9, 9)];
        // Swap1 has no third answer.
        let (mut first, mut second) =
            (Scripted::new("first", &[]), Scripted::new("second", &[SwapChoice::PutTwo(two)]));
        let record = play(OpeningRule::Swap1, &mut first, &mut second);
        let forfeit = record.forfeit.unwrap();
        assert_eq!((forfeit.side, record.players[1].as_str()), (Side::O, "second"));
        assert!(forfeit.reason.contains("which swap1 does not allow"), "{}", forfeit.reason);
        // Two more stones twice: the first player loses, and is O to move.
        let (mut first, mut second) = (
            Scripted::new("first", &[SwapChoice::PutTwo(two)]),
            Scripted::new("second", &[SwapChoice::PutTwo(two)]),
        );
        let record = play(OpeningRule::Swap2, &mut first, &mut second);
        assert_eq!(record.players, ["second", "first"]);
        assert_eq!(record.forfeit.unwrap().side, Side::O);
        // Stones on one cell: nothing is put, and the first player loses.
        let mut first = Scripted::new("first", &[]);
        first.stones[2] = first.stones[0];
        let record = play(OpeningRule::Swap2, &mut first, &mut second);
        assert!(record.opening.is_empty());
        let forfeit = record.forfeit.unwrap();
        assert_eq!(forfeit.side, Side::X);
        assert!(forfeit.reason.contains("cannot put the opening"), "{}", forfeit.reason);
        // An engine that cannot choose.
        let (mut first, mut second) = (Scripted::new("first", &[]), Scripted::new("second", &[]));
        let record = play(OpeningRule::Swap2, &mut first, &mut second);
        assert_eq!(record.forfeit.unwrap().reason, "no choice left");
        // An illegal fourth stone.
        let (mut first, mut second) =
            (Scripted::new("first", &[]), Scripted::new("second", &[SwapChoice::Play(Cell::new(7, 7))]));
        let record = play(OpeningRule::Swap2, &mut first, &mut second);
        assert!(record.forfeit.unwrap().reason.contains("illegal move"));
    }

    #[test]
    fn engines_that_judge_by_default_play_every_rule_to_the_end() {
        for rule in [OpeningRule::None, OpeningRule::Swap1, OpeningRule::Swap2] {
            let (mut first, mut second) = (RandomAgent::new(1), RandomAgent::new(2));
            let record =
                play_swap_game(Rules::gomoku15(), rule, [&mut first, &mut second], &Limits::none(), None);
            assert_eq!(record.check(), Ok(()));
            assert_eq!(record.forfeit, None, "{rule}");
            assert_eq!(record.swap.is_some(), rule.is_swap());
            if rule == OpeningRule::Swap2 {
                // Random play judges every position even: it puts two more.
                assert_eq!(record.opening.len(), 5);
            }
        }
    }

    #[test]
    fn the_sgf_says_who_put_the_stones_and_who_took_which_colour() {
        let two = [Cell::new(6, 6), Cell::new(9, 9)];
        let (mut first, mut second) = (
            Scripted::new("first", &[SwapChoice::Swap]),
            Scripted::new("second", &[SwapChoice::PutTwo(two)]),
        );
        let record = play(OpeningRule::Swap2, &mut first, &mut second);
        let sgf = crate::sgf::SgfGame::of_record(&record).to_sgf();
        assert!(sgf.contains("PB[first]PW[second]"), "{sgf}");
        assert_eq!(sgf.matches("swap2 opening stone put by first").count(), 3, "{sgf}");
        assert!(sgf.contains("swap2 opening stone put by second; first took black"), "{sgf}");
    }

    /// Sleeps past its turn on its first look at a position.
    struct Slow(bool);

    impl Agent for Slow {
        fn name(&self) -> String {
            "slow".to_owned()
        }
        fn select_move(&mut self, pos: &Position, _: &Limits) -> Result<Cell, AgentError> {
            if !std::mem::replace(&mut self.0, true) {
                std::thread::sleep(Duration::from_millis(30));
            }
            pos.legal_moves().next().ok_or(AgentError::GameOver)
        }
    }

    #[test]
    fn decisions_run_on_the_clock() {
        let control: TimeControl = "10/0.02".parse().unwrap();
        let (mut slow, mut quick) = (Slow(false), RandomAgent::new(3));
        let record = play_swap_game(
            Rules::gomoku15(),
            OpeningRule::Swap2,
            [&mut slow, &mut quick],
            &Limits::none(),
            Some(control),
        );
        assert_eq!(record.check(), Ok(()));
        let forfeit = record.forfeit.unwrap();
        assert!(forfeit.reason.contains("lost on time"), "{}", forfeit.reason);
        assert_eq!((forfeit.side, record.opening.len()), (Side::X, 0));
    }
}
