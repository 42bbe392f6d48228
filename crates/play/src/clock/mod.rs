//! Gomocup-style time controls: a match clock per side, an optional
//! increment added after each move and an optional limit on one move;
//! and how long an engine should think on such a clock.

mod clocks;

pub use clocks::Clocks;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control, written `MATCH[+INCREMENT][/TURN]` in seconds:
/// `300+2` is 300 s a side and 2 s added after each move; `300/5` is
/// 300 s a side and at most 5 s a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Each side's time for the whole game.
    pub total: Duration,
    /// Added to a side's clock after each of its moves.
    pub increment: Duration,
    /// The most one move may take, if limited.
    pub turn: Option<Duration>,
}

impl TimeControl {
    /// How long a side to move should think, with `left` on its clock
    /// and `empty` cells on the board: see [`move_budget`].
    #[must_use]
    pub fn budget(&self, left: Duration, empty: usize) -> (Duration, Duration) {
        move_budget(self.turn, Some(left), self.increment, empty)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = |time: Duration| {
            let text = format!("{:.3}", time.as_secs_f64());
            text.trim_end_matches('0').trim_end_matches('.').to_owned()
        };
        f.write_str(&seconds(self.total))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", seconds(self.increment))?;
        }
        if let Some(turn) = self.turn {
            write!(f, "/{}", seconds(turn))?;
        }
        Ok(())
    }
}

/// A side's clock as it stands before one of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReading {
    /// The time control of the game.
    pub control: TimeControl,
    /// What the side to move has left.
    pub left: Duration,
}

/// A time control that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("time control {text:?}: {why} (write MATCH[+INCREMENT][/TURN] in seconds, such as 300+2 or 300/5)")]
pub struct TimeControlError {
    text: String,
    why: &'static str,
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let error = |why| TimeControlError { text: text.to_owned(), why };
        let seconds = |part: &str, what| -> Result<Duration, TimeControlError> {
            let value: f64 = part.trim().parse().map_err(|_| error(what))?;
            if !(0.0..=86_400.0).contains(&value) {
                return Err(error("each time is from 0 to 86400 seconds"));
            }
            Ok(Duration::from_secs_f64(value))
        };
        let (rest, turn) = match text.split_once('/') {
            Some((rest, turn)) => (rest, Some(seconds(turn, "the turn limit is not a number")?)),
            None => (text, None),
        };
        let (total, increment) = match rest.split_once('+') {
            Some((total, increment)) => (total, seconds(increment, "the increment is not a number")?),
            None => (rest, Duration::ZERO),
        };
        let total = seconds(total, "the match time is not a number")?;
        if total < Duration::from_secs(1) {
            return Err(error("the match time is at least 1 second"));
        }
        if turn.is_some_and(|turn| turn < Duration::from_millis(10)) {
            return Err(error("the turn limit is at least 0.01 seconds"));
        }
        Ok(TimeControl { total, increment, turn })
    }
}

/// The most moves a clock is shared among: a game of gomoku seldom lasts
/// more than 30 moves a side, whatever the cells left.
pub const MOVES_TO_GO: u64 = 30;

/// Thinking time for a move with `empty` cells left: what to plan on, and
/// the most the engine may take where the position needs it (see
/// [`crate::limits::Limits::max_time`]). It plans on a share of the clock `left`
/// (as if half the empty cells were still to be played by each side, at
/// least 8 moves and at most [`MOVES_TO_GO`]) plus the increment, and on
/// at most three times that, within the turn limit and a fifth of the
/// clock; each less a margin for the program's own overhead.
#[must_use]
pub fn move_budget(
    turn: Option<Duration>,
    left: Option<Duration>,
    increment: Duration,
    empty: usize,
) -> (Duration, Duration) {
    let ms = |time: Duration| u64::try_from(time.as_millis()).unwrap_or(u64::MAX);
    let turn = turn.map(ms);
    let increment = ms(increment);
    let (mut planned, mut most) = match turn {
        Some(turn) => (turn, turn),
        None => (u64::MAX, u64::MAX),
    };
    if let Some(left) = left.map(ms) {
        planned = planned.min(left / (empty as u64 / 2).clamp(8, MOVES_TO_GO) + increment);
        most = most.min(planned.saturating_mul(3)).min(left / 5 + increment);
    }
    // A brain answers within 20 ms of its deadline (measured at 1 s a
    // move); the margin is a twentieth of the time, at least 30 ms.
    let less_margin = |ms: u64| Duration::from_millis(ms.saturating_sub((ms / 20).max(30)).max(5));
    (less_margin(planned), less_margin(most.max(planned)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_and_print_as_written() {
        for text in ["300", "300+2", "300/5", "60+0.5/2", "1.5"] {
            let control: TimeControl = text.parse().unwrap();
            assert_eq!(control.to_string(), text);
        }
        let control: TimeControl = "300+2/5".parse().unwrap();
        assert_eq!(control.total, Duration::from_mins(5));
        assert_eq!(control.increment, Duration::from_secs(2));
        assert_eq!(control.turn, Some(Duration::from_secs(5)));
        for bad in ["", "abc", "300+x", "300/", "0", "-5", "300/0", "99999999"] {
            let error = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(error.contains("MATCH[+INCREMENT][/TURN]"), "{bad}: {error}");
        }
    }

    #[test]
    fn the_budget_shares_the_clock_and_keeps_within_the_turn_limit() {
        let s = Duration::from_secs;
        // A turn limit alone: the turn less a margin.
        let (planned, most) = move_budget(Some(s(5)), None, Duration::ZERO, 225);
        assert_eq!((planned, most), (Duration::from_millis(4750), Duration::from_millis(4750)));
        // 300 s on the clock, 225 empty: a 30th of it (not a 112th), up to
        // three times that.
        let (planned, most) = move_budget(None, Some(s(300)), Duration::ZERO, 225);
        assert_eq!(planned, Duration::from_millis(10_000 - 500));
        assert!(most > planned && most <= s(60));
        // Few cells left: at least an 8th.
        let (few, _) = move_budget(None, Some(s(300)), Duration::ZERO, 10);
        assert_eq!(few, Duration::from_millis(37_500 - 1_875));
        // The increment is spent as well.
        let (with_increment, _) = move_budget(None, Some(s(300)), s(2), 225);
        assert!(with_increment > planned + Duration::from_millis(1500));
        // Nearly flagged: never more than the clock holds.
        let (planned, most) = move_budget(None, Some(Duration::from_millis(200)), Duration::ZERO, 100);
        assert!(planned <= Duration::from_millis(200) && most <= Duration::from_millis(200));
    }
}
