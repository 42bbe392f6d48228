//! The two clocks of a timed game, the one match clock every program
//! uses: each side's time left, ticking for the side to move (a live game:
//! `run`, `pause`, `moved`, `check`) or charged a whole move at once (a
//! game between engines: `charge`); an increment after each move; a turn
//! limit; a fallen flag. Every method takes the instant it acts at, so
//! tests drive the clocks without waiting.

use std::time::{Duration, Instant};

use super::{ClockReading, TimeControl};
use board::Side;

/// Both sides' clocks.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// The time control the clocks keep.
    pub control: TimeControl,
    /// Each side's time left when its clock last stopped.
    left: [Duration; 2],
    /// The side whose clock runs, since when, and since when its turn began.
    running: Option<Running>,
    /// A turn stopped by a pause: its side and the time it has used.
    paused_turn: Option<(Side, Duration)>,
    /// The side whose time ran out, if one did.
    fallen: Option<Side>,
}

#[derive(Clone, Copy, Debug)]
struct Running {
    side: Side,
    since: Instant,
    /// Time this turn used before the clock last stopped (a pause).
    used: Duration,
}

impl Clocks {
    /// Both clocks full, neither running.
    #[must_use]
    pub fn new(control: TimeControl) -> Clocks {
        Clocks { control, left: [control.total; 2], running: None, paused_turn: None, fallen: None }
    }

    /// The time `side` has left at `now`, its running turn counted.
    #[must_use]
    pub fn left(&self, side: Side, now: Instant) -> Duration {
        let left = self.left[side.index()];
        match self.running {
            Some(running) if running.side == side => left.saturating_sub(now - running.since),
            _ => left,
        }
    }

    /// The time `side` has for its current move at `now`: its clock, or
    /// what the turn limit leaves, whichever is less.
    #[must_use]
    pub fn for_this_move(&self, side: Side, now: Instant) -> Duration {
        let left = self.left(side, now);
        match (self.control.turn, self.running) {
            (Some(turn), Some(running)) if running.side == side => {
                left.min(turn.saturating_sub(running.used + (now - running.since)))
            }
            (Some(turn), _) => left.min(turn),
            (None, _) => left,
        }
    }

    /// Runs `side`'s clock from `now` (a new turn if it was not its turn).
    pub fn run(&mut self, side: Side, now: Instant) {
        match self.running {
            Some(running) if running.side == side => {}
            _ => {
                let used =
                    self.paused_turn.take_if(|paused| paused.0 == side).map_or(Duration::ZERO, |p| p.1);
                self.stop(now);
                self.running = Some(Running { side, since: now, used });
            }
        }
    }

    /// Stops the running clock at `now`, charging it (a pause: the turn
    /// goes on when it runs again).
    pub fn pause(&mut self, now: Instant) {
        if let Some(running) = self.running {
            let spent = now - running.since;
            self.paused_turn = Some((running.side, running.used + spent));
        }
        self.stop(now);
    }

    fn stop(&mut self, now: Instant) {
        if let Some(running) = self.running.take() {
            let left = &mut self.left[running.side.index()];
            *left = left.saturating_sub(now - running.since);
        }
    }

    /// `side` has moved at `now`: its clock is charged and given the
    /// increment. False (and the flag fallen) if its time or the turn
    /// limit ran out first.
    pub fn moved(&mut self, side: Side, now: Instant) -> bool {
        if self.check(now).is_some() {
            return false;
        }
        self.stop(now);
        self.paused_turn = None;
        self.left[side.index()] += self.control.increment;
        true
    }

    /// Whether the running side's flag has fallen at `now`: its side then.
    pub fn check(&mut self, now: Instant) -> Option<Side> {
        if self.fallen.is_none()
            && let Some(running) = self.running
            && self.for_this_move(running.side, now).is_zero()
        {
            self.stop(now);
            self.left[running.side.index()] = Duration::ZERO;
            self.fallen = Some(running.side);
        }
        self.fallen
    }

    /// What `side`'s clock reads now (a running clock as it stood when it
    /// started).
    #[must_use]
    pub fn reading(&self, side: Side) -> ClockReading {
        ClockReading { control: self.control, left: self.left[side.index()] }
    }

    /// Charges a whole move of `side` that took `elapsed` (the clocks not
    /// running), with its increment; why it lost on time if it did (its
    /// flag then fallen).
    ///
    /// # Errors
    /// The move took longer than the turn limit or the time left.
    pub fn charge(&mut self, side: Side, elapsed: Duration) -> Result<(), String> {
        let ms = |time: Duration| time.as_millis();
        let left = self.left[side.index()];
        let lost = if let Some(turn) = self.control.turn.filter(|&turn| elapsed > turn) {
            format!("lost on time: {} ms on a move, the limit is {} ms", ms(elapsed), ms(turn))
        } else if elapsed > left {
            format!("lost on time: {} ms on a move with {} ms left", ms(elapsed), ms(left))
        } else {
            self.left[side.index()] = left.saturating_sub(elapsed) + self.control.increment;
            return Ok(());
        };
        self.left[side.index()] = Duration::ZERO;
        self.fallen = Some(side);
        Err(lost)
    }

    /// The sides' clocks exchanged: they follow the players when a swap
    /// opening gives them their colours.
    pub fn swap_sides(&mut self) {
        self.left.swap(0, 1);
    }

    /// `m:ss` (or `s.s` under ten seconds) for a time left.
    #[must_use]
    pub fn show(time: Duration) -> String {
        let tenths = time.as_millis() / 100;
        if tenths < 100 {
            format!("{}.{}", tenths / 10, tenths % 10)
        } else {
            let seconds = tenths / 10;
            format!("{}:{:02}", seconds / 60, seconds % 60)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clocks(text: &str) -> (Clocks, Instant) {
        (Clocks::new(text.parse().unwrap()), Instant::now())
    }

    #[test]
    fn the_running_side_is_charged_and_given_its_increment() {
        let (mut clocks, t0) = clocks("60+2");
        let s = Duration::from_secs;
        clocks.run(Side::X, t0);
        assert_eq!(clocks.left(Side::X, t0 + s(5)), s(55));
        assert_eq!(clocks.left(Side::O, t0 + s(5)), s(60));
        assert!(clocks.moved(Side::X, t0 + s(5)));
        clocks.run(Side::O, t0 + s(5));
        assert_eq!(clocks.left(Side::X, t0 + s(9)), s(57));
        assert_eq!(clocks.left(Side::O, t0 + s(9)), s(56));
    }

    #[test]
    fn a_pause_stops_the_clock_and_the_turn_goes_on() {
        let (mut clocks, t0) = clocks("60/10");
        let s = Duration::from_secs;
        clocks.run(Side::X, t0);
        clocks.pause(t0 + s(4));
        assert_eq!(clocks.left(Side::X, t0 + s(100)), s(56));
        clocks.run(Side::X, t0 + s(100));
        // 4 s of the 10 s turn were used before the pause.
        assert_eq!(clocks.for_this_move(Side::X, t0 + s(103)), s(3));
        assert_eq!(clocks.check(t0 + s(106)), Some(Side::X));
    }

    #[test]
    fn a_flag_falls_when_the_time_runs_out() {
        let (mut clocks, t0) = clocks("3");
        let s = Duration::from_secs;
        clocks.run(Side::X, t0);
        assert_eq!(clocks.check(t0 + s(2)), None);
        assert!(!clocks.moved(Side::X, t0 + s(4)), "too late");
        assert_eq!(clocks.fallen, Some(Side::X));
        assert_eq!(clocks.left(Side::X, t0 + s(9)), Duration::ZERO);
        assert_eq!(Clocks::show(s(125)), "2:05");
        assert_eq!(Clocks::show(Duration::from_millis(9_450)), "9.4");
    }

    #[test]
    fn a_whole_move_is_charged_with_its_increment_or_loses_on_time() {
        let (mut timed, _) = clocks("10+1/4");
        let s = Duration::from_secs;
        assert_eq!(timed.charge(Side::X, s(3)), Ok(()));
        assert_eq!(timed.left(Side::X, Instant::now()), s(8));
        let turn = timed.charge(Side::O, s(5)).unwrap_err();
        assert!(turn.contains("the limit is 4000 ms"), "{turn}");
        assert_eq!(timed.fallen, Some(Side::O));
        let (mut short, _) = clocks("2");
        assert!(short.charge(Side::X, s(3)).unwrap_err().contains("with 2000 ms left"));
        // The players' clocks follow them through a swap.
        let (mut swapped, _) = clocks("10");
        swapped.charge(Side::X, s(4)).unwrap();
        swapped.swap_sides();
        assert_eq!(swapped.left(Side::O, Instant::now()), s(6));
    }
}
