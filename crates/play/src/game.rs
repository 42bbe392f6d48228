//! One game between two agents, and its record.

use std::time::Instant;

use thiserror::Error;

use crate::agent::Agent;
use crate::clock::{Clocks, TimeControl};
use crate::game_record::{Forfeit, GameRecord, MoveRecord, Thought};
use crate::limits::Limits;
use board::{Cell, MoveError, Outcome, Position, Rules, Side};

impl Forfeit {
    /// `side` forfeited because its agent failed with `error`.
    #[must_use]
    pub fn of_error(side: Side, error: &crate::agent::AgentError) -> Forfeit {
        let unsupported = matches!(error, crate::agent::AgentError::UnsupportedRules { .. });
        Forfeit { side, reason: error.to_string(), unsupported }
    }
}

impl GameRecord {
    /// Checks that the record holds together: its moves replay, and its
    /// result is the one they lead to (a game that ended on the board), or
    /// a forfeit of the side to move where the game was not over.
    ///
    /// # Errors
    /// What does not hold, for a message about a damaged or altered file.
    pub fn check(&self) -> Result<(), String> {
        let pos = self.replay().map_err(|error| format!("its moves do not replay: {error}"))?;
        if let Some(swap) = &self.swap {
            if crate::opening_rules::rif::stones(&swap.steps) != self.opening {
                return Err("its swap opening's stones are not its opening".to_owned());
            }
            let forfeited = self.forfeit.as_ref().map(|forfeit| forfeit.side);
            let derived = if swap.rule.is_rif() {
                crate::opening_rules::rif::first_player_colour(&self.rules, swap, forfeited)?
            } else {
                swap.first_player_colour(forfeited)?
            };
            if derived != swap.opener {
                return Err(format!(
                    "its swap record says the first player ended as {}, but its steps give {derived}",
                    swap.opener
                ));
            }
        }
        match (&self.forfeit, pos.outcome()) {
            (None, Some(outcome)) if outcome == self.outcome => Ok(()),
            (None, Some(outcome)) => Err(format!("its moves end in {outcome}, but it says {}", self.outcome)),
            (None, None) => Err(format!("it says {}, but its moves leave the game unfinished", self.outcome)),
            (Some(_), Some(outcome)) => Err(format!("a forfeit after the game was over ({outcome})")),
            // (A RIF opening's pick is white's with black to move.)
            (Some(forfeit), None) if forfeit.side != pos.side_to_move() && !self.lost_in_a_rif_opening() => {
                Err(format!("{} forfeited, but it was {}'s move", forfeit.side, pos.side_to_move()))
            }
            (Some(forfeit), None) if self.outcome != Outcome::Win(forfeit.side.opponent()) => {
                Err(format!("{} forfeited, but it says {}", forfeit.side, self.outcome))
            }
            (Some(_), None) => Ok(()),
        }
    }

    /// Whether a player lost a RIF opening's phase (before any move).
    fn lost_in_a_rif_opening(&self) -> bool {
        self.forfeit.is_some()
            && self.moves.is_empty()
            && self.swap.as_ref().is_some_and(|swap| swap.rule.is_rif())
    }
}

/// An opening that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move {number} of the opening ({cell}) cannot be played: {source}")]
pub struct OpeningError {
    /// 1-based.
    pub number: usize,
    /// The move, zero-based `x,y`.
    pub cell: Cell,
    /// Why.
    pub source: MoveError,
}

/// Plays one game: `agents[0]` is X, `agents[1]` is O; the `opening` moves
/// are played first; each agent then moves within `limits` until the game
/// ends. An agent that fails to move or plays an illegal move loses by
/// forfeit, and the record says why. A game that ends on the board is
/// reported to both agents ([`Agent::game_over`]).
///
/// # Errors
/// [`OpeningError`] if an opening move is illegal.
pub fn play_game(
    rules: Rules,
    agents: [&mut dyn Agent; 2],
    opening: &[Cell],
    limits: &Limits,
) -> Result<GameRecord, OpeningError> {
    play(rules, agents, opening, limits, None)
}

/// [`play_game`] on a clock: each side has `control`'s time for the
/// game (plus its increment after each move), and thinks on each move for
/// the share [`Limits::on_clock`](crate::limits::Limits::on_clock) gives, told the reading itself
/// ([`Limits::clock`]); the node and depth limits of `limits` apply too.
/// A side whose move comes after its time ran out, or beyond the turn
/// limit, loses on time (a forfeit that says so).
///
/// # Errors
/// [`OpeningError`] if an opening move is illegal.
pub fn play_game_on_clock(
    rules: Rules,
    agents: [&mut dyn Agent; 2],
    opening: &[Cell],
    limits: &Limits,
    control: TimeControl,
) -> Result<GameRecord, OpeningError> {
    play(rules, agents, opening, limits, Some(control))
}

fn play(
    rules: Rules,
    mut agents: [&mut dyn Agent; 2],
    opening: &[Cell],
    limits: &Limits,
    clock: Option<TimeControl>,
) -> Result<GameRecord, OpeningError> {
    let mut pos = Position::new(rules);
    for (i, &cell) in opening.iter().enumerate() {
        pos.play(cell).map_err(|source| OpeningError { number: i + 1, cell, source })?;
    }
    for agent in &mut agents {
        agent.new_game(&rules);
    }
    let start = Start { pos, opening: opening.to_vec(), moves: Vec::new(), swap: None };
    Ok(play_on(agents, start, limits, clock.map(Clocks::new).as_mut()))
}

/// Where the agents take over: the position, how it came about, and what
/// a swap opening decided.
pub(crate) struct Start {
    pub pos: Position,
    pub opening: Vec<Cell>,
    pub moves: Vec<MoveRecord>,
    pub swap: Option<crate::opening_rules::swap::SwapRecord>,
}

/// Plays from `start` to the end: `agents[0]` is X, and on a `clock`
/// seat 0 is X's.
pub(crate) fn play_on(
    agents: [&mut dyn Agent; 2],
    start: Start,
    limits: &Limits,
    mut clock: Option<&mut Clocks>,
) -> GameRecord {
    let Start { mut pos, opening, mut moves, swap } = start;
    let mut forfeit = None;
    let outcome = loop {
        if let Some(outcome) = pos.outcome() {
            break outcome;
        }
        let side = pos.side_to_move();
        let timed =
            clock.as_ref().map(|clock| Limits::on_clocks(clock, side, limits, pos.legal_move_count()));
        let started = Instant::now();
        let choice = agents[side.index()].select_move(&pos, timed.as_ref().unwrap_or(limits));
        let elapsed = started.elapsed();
        if let Some(clock) = clock.as_mut()
            && let Err(reason) = clock.charge(side, elapsed)
        {
            forfeit = Some(Forfeit::new(side, reason));
            break Outcome::Win(side.opponent());
        }
        let lost = match choice {
            Ok(cell) => match pos.play(cell) {
                Ok(()) => {
                    let thought = agents[side.index()].analysis().as_ref().map(Thought::of);
                    moves.push(MoveRecord { cell, micros: elapsed.as_micros() as u64, thought });
                    continue;
                }
                Err(error) => Forfeit::new(side, format!("illegal move {cell}: {error}")),
            },
            Err(error) => Forfeit::of_error(side, &error),
        };
        forfeit = Some(lost);
        break Outcome::Win(side.opponent());
    };
    let mut record = GameRecord {
        rules: *pos.rules(),
        players: [agents[0].name(), agents[1].name()],
        opening,
        moves,
        outcome,
        forfeit,
        swap,
        learning_errors: Vec::new(),
    };
    if record.forfeit.is_none() {
        record.learning_errors = report_game_over(agents, &record);
    }
    record
}

/// Tells both agents that the game of `record` ended; returns what they
/// could not keep, each prefixed by the agent's name.
pub fn report_game_over(agents: [&mut dyn Agent; 2], record: &GameRecord) -> Vec<String> {
    agents
        .into_iter()
        .filter_map(|agent| agent.game_over(record).err().map(|error| format!("{}: {error}", agent.name())))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::agent::AgentError;
    use crate::random_agent::RandomAgent;

    /// Always plays the top-left cell: illegal from its second move on.
    struct Stubborn;

    impl Agent for Stubborn {
        fn name(&self) -> String {
            "stubborn".to_owned()
        }
        fn select_move(&mut self, _: &Position, _: &Limits) -> Result<Cell, AgentError> {
            Ok(Cell::new(0, 0))
        }
    }

    struct Broken;

    impl Agent for Broken {
        fn name(&self) -> String {
            "broken".to_owned()
        }
        fn select_move(&mut self, _: &Position, _: &Limits) -> Result<Cell, AgentError> {
            Err(AgentError::failed("engine crashed"))
        }
    }

    #[test]
    fn random_game_replays_to_its_outcome() {
        let rules = Rules::gomoku15();
        let (mut x, mut o) = (RandomAgent::new(1), RandomAgent::new(2));
        let opening = [Cell::new(7, 7)];
        let record = play_game(rules, [&mut x, &mut o], &opening, &Limits::none()).unwrap();
        assert_eq!(record.players, ["random", "random"]);
        assert_eq!(record.opening, opening);
        let end = record.replay().unwrap();
        assert_eq!(end.outcome(), Some(record.outcome));
        assert_eq!(record.forfeit, None);
        let json = serde_json::to_string(&record).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, record);
    }

    #[test]
    fn illegal_moves_and_errors_forfeit() {
        let rules = Rules::tic_tac_toe();
        let (mut x, mut o) = (Stubborn, RandomAgent::new(0));
        let record =
            play_game(rules, [&mut x, &mut o], &[Cell::new(0, 0), Cell::new(1, 1)], &Limits::none()).unwrap();
        assert_eq!(record.outcome, Outcome::Win(Side::O));
        let forfeit = record.forfeit.unwrap();
        assert_eq!(forfeit.side, Side::X);
        assert!(forfeit.reason.contains("already taken"), "{}", forfeit.reason);

        let (mut x, mut o) = (RandomAgent::new(0), Broken);
        let record = play_game(rules, [&mut x, &mut o], &[], &Limits::none()).unwrap();
        assert_eq!(record.outcome, Outcome::Win(Side::X));
        assert_eq!(record.moves.len(), 1);
        assert_eq!(record.forfeit.unwrap().reason, "engine crashed");
    }

    #[test]
    fn a_record_that_does_not_hold_together_fails_its_check() {
        let rules = Rules::gomoku15();
        let (mut x, mut o) = (RandomAgent::new(3), RandomAgent::new(4));
        let record = play_game(rules, [&mut x, &mut o], &[], &Limits::none()).unwrap();
        assert_eq!(record.check(), Ok(()));
        let flipped = match record.outcome {
            Outcome::Win(side) => Outcome::Win(side.opponent()),
            Outcome::Draw => Outcome::Win(Side::X),
        };
        let error = GameRecord { outcome: flipped, ..record.clone() }.check().unwrap_err();
        assert!(error.contains("its moves end in"), "{error}");
        let emptied = GameRecord { moves: Vec::new(), ..record.clone() }.check().unwrap_err();
        assert!(emptied.contains("unfinished"), "{emptied}");
        let mut twice = record.clone();
        twice.moves.push(twice.moves[0]);
        assert!(twice.check().unwrap_err().contains("do not replay"));
        // A forfeit: only of the side to move, and only its loss.
        let ttt = Rules::tic_tac_toe();
        let (mut x, mut o) = (RandomAgent::new(0), Broken);
        let forfeited = play_game(ttt, [&mut x, &mut o], &[], &Limits::none()).unwrap();
        assert_eq!(forfeited.check(), Ok(()));
        let wrong = GameRecord { outcome: Outcome::Win(Side::O), ..forfeited.clone() };
        assert!(wrong.check().unwrap_err().contains("forfeited, but it says"));
        let early = GameRecord { moves: Vec::new(), ..forfeited };
        assert!(early.check().unwrap_err().contains("it was X's move"), "{:?}", early.check());
    }

    /// Random moves; from its third move on it thinks 60 ms, and it notes
    /// the clock readings it is given.
    struct Slow {
        inner: RandomAgent,
        moves: u32,
        readings: Vec<Duration>,
    }

    impl Agent for Slow {
        fn name(&self) -> String {
            "slow".to_owned()
        }
        fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
            self.moves += 1;
            self.readings.push(limits.clock.map(|reading| reading.left).unwrap_or_default());
            assert!(limits.time.is_some() && limits.max_time.is_some());
            if self.moves >= 3 {
                std::thread::sleep(Duration::from_millis(60));
            }
            self.inner.select_move(pos, limits)
        }
    }

    #[test]
    fn on_a_clock_a_side_out_of_time_loses_and_the_clock_runs_with_increments() {
        let rules = Rules::gomoku15();
        // 1.1 s a side, 20 ms added a move, at most 50 ms a move: the slow
        // side's third move breaks the turn limit.
        let control: TimeControl = "1.1+0.02/0.05".parse().unwrap();
        let mut slow = Slow { inner: RandomAgent::new(1), moves: 0, readings: Vec::new() };
        let mut quick = RandomAgent::new(2);
        let record =
            play_game_on_clock(rules, [&mut slow, &mut quick], &[], &Limits::none(), control).unwrap();
        assert_eq!(record.outcome, Outcome::Win(Side::O));
        let forfeit = record.forfeit.clone().unwrap();
        assert_eq!(forfeit.side, Side::X);
        assert!(
            forfeit.reason.starts_with("lost on time:") && forfeit.reason.contains("the limit is 50 ms"),
            "{}",
            forfeit.reason
        );
        assert_eq!(record.moves.len(), 4);
        assert_eq!(record.check(), Ok(()));
        // The clock starts full and gains the increment less the time spent.
        assert_eq!(slow.readings[0], Duration::from_millis(1100));
        assert!(
            slow.readings[1] > Duration::from_millis(1100) && slow.readings[1] <= Duration::from_millis(1120)
        );
        // Without a turn limit the match time decides.
        let control =
            TimeControl { total: Duration::from_millis(100), increment: Duration::ZERO, turn: None };
        let mut slow = Slow { inner: RandomAgent::new(1), moves: 0, readings: Vec::new() };
        let record =
            play_game_on_clock(rules, [&mut quick, &mut slow], &[], &Limits::none(), control).unwrap();
        assert_eq!(record.outcome, Outcome::Win(Side::X));
        assert!(record.forfeit.unwrap().reason.contains("ms left"));
    }

    /// Random moves, counting the finished games it is told of; it cannot
    /// keep the third.
    struct Counting {
        inner: RandomAgent,
        told: Vec<Outcome>,
    }

    impl Agent for Counting {
        fn name(&self) -> String {
            "counting".to_owned()
        }
        fn select_move(&mut self, pos: &Position, limits: &Limits) -> Result<Cell, AgentError> {
            self.inner.select_move(pos, limits)
        }
        fn game_over(&mut self, record: &GameRecord) -> Result<(), AgentError> {
            self.told.push(record.outcome);
            if self.told.len() == 3 { Err(AgentError::failed("disk full")) } else { Ok(()) }
        }
    }

    #[test]
    fn finished_games_are_reported_once_to_both_forfeits_never() {
        let rules = Rules::tic_tac_toe();
        let mut x = Counting { inner: RandomAgent::new(1), told: Vec::new() };
        let mut o = Counting { inner: RandomAgent::new(2), told: Vec::new() };
        for game in 1..=3 {
            let record = play_game(rules, [&mut x, &mut o], &[], &Limits::none()).unwrap();
            assert_eq!(x.told.len(), game);
            assert_eq!(x.told.last(), Some(&record.outcome));
            assert_eq!(o.told, x.told);
            if game == 3 {
                assert_eq!(record.learning_errors, ["counting: disk full", "counting: disk full"]);
            } else {
                assert!(record.learning_errors.is_empty());
            }
        }
        let mut broken = Broken;
        let record = play_game(rules, [&mut x, &mut broken], &[], &Limits::none()).unwrap();
        assert!(record.forfeit.is_some());
        assert_eq!(x.told.len(), 3, "a forfeit is not a finished game");
    }

    #[test]
    fn bad_openings_are_errors() {
        let rules = Rules::tic_tac_toe();
        let (mut x, mut o) = (RandomAgent::new(0), RandomAgent::new(1));
        let err = play_game(rules, [&mut x, &mut o], &[Cell::new(1, 1), Cell::new(1, 1)], &Limits::none())
            .unwrap_err();
        assert_eq!(err.number, 2);
        assert!(err.to_string().contains("already taken"), "{err}");
    }
}
