//! The clocks of a timed game: running the side to move's, charging a
//! move, a fallen flag, and what an engine may spend.

use std::time::Instant;

use board::Side;
use play::Limits;

use super::App;
use play::clock::Clocks;

impl App {
    /// The clocks of a timed game.
    #[must_use]
    pub fn clocks(&self) -> Option<&Clocks> {
        self.clocks.as_ref()
    }

    /// The side whose flag fell, if the game was lost on time.
    #[must_use]
    pub fn lost_on_time(&self) -> Option<Side> {
        self.time_loss
    }

    /// What an engine may spend on its move: from its clock in a timed
    /// game, else the game's time a move; never more positions than the
    /// game's level allows.
    pub(super) fn move_limits(&self, side: Side, now: Instant) -> Limits {
        let mut limits = match &self.clocks {
            Some(clocks) => {
                let (planned, most) =
                    clocks.control.budget(clocks.for_this_move(side, now), self.pos.legal_move_count());
                Limits::time(planned).with_max_time(most)
            }
            None => Limits::time(self.setup.time),
        };
        limits.nodes = self.setup.level.nodes();
        limits
    }

    /// Runs the side to move's clock while the game is played, and ends
    /// the game when a flag falls.
    pub(super) fn run_clocks(&mut self, now: Instant) {
        // A swap opening is decided off the clock.
        let playing = self.playing() && self.swap.is_none();
        let side = self.pos.side_to_move();
        let Some(clocks) = &mut self.clocks else { return };
        if self.time_loss.is_some() {
            return;
        }
        if playing {
            clocks.run(side, now);
        } else {
            clocks.pause(now);
        }
        if let Some(fallen) = clocks.check(now) {
            self.flag_fell(fallen);
        }
    }

    pub(super) fn flag_fell(&mut self, side: Side) {
        self.time_loss = Some(side);
        if let Some(thinking) = &self.thinking {
            thinking.stop();
        }
        self.message = format!(
            "{}'s time ran out: {} wins on time. N for a new game",
            side.mark().to_ascii_uppercase(),
            side.opponent().mark().to_ascii_uppercase()
        );
    }

    /// `side` is moving now: charges its clock (adding the increment).
    /// False, with the game lost on time, if its flag fell first.
    pub(super) fn charge_clock(&mut self, side: Side) -> bool {
        let studying = self.is_analysing() || self.review().is_some();
        let Some(clocks) = &mut self.clocks else { return true };
        if studying {
            return true;
        }
        let now = Instant::now();
        if clocks.moved(side, now) {
            // The other side's turn starts now.
            clocks.run(side.opponent(), now);
            true
        } else {
            self.flag_fell(side);
            false
        }
    }
}
