//! Time control: when a search must stop (its node budget, its deadline,
//! a stop flag), when it is worth more time, and when a deeper iteration
//! could not finish.

use std::time::Instant;

use board::Cell;
use play::Limits;

use super::result::MATE_BOUND;

/// Half the width of the window an iteration first searches, around the
/// value of the last one; a value that falls by more is unsettled.
pub(super) const ASPIRATION: i32 = 60;

/// The budget of one search and what it has spent.
#[derive(Debug)]
pub(super) struct Budget {
    /// Positions visited so far.
    pub(super) nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    /// The deadline may be pushed back up to here (see [`Limits::max_time`]).
    latest: Option<Instant>,
    limits: Limits,
    stopped: bool,
    /// The deepest completed iteration, for progress reports.
    pub(super) depth_done: u32,
    /// How the moves' order fared: see [`Cutoffs`].
    pub(super) cutoffs: Cutoffs,
}

/// Nodes a move cut off (a score at or above beta), and how many of them
/// by the first move tried: the share is the usual measure of how well
/// moves are ordered (the rest of the node's moves go unsearched).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cutoffs {
    /// Nodes cut off by some move.
    pub nodes: u64,
    /// Of those, the nodes cut off by the first move tried.
    pub by_first: u64,
}

impl Budget {
    /// A budget with no limits.
    pub(super) fn new() -> Budget {
        Budget {
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            latest: None,
            limits: Limits::none(),
            stopped: false,
            depth_done: 0,
            cutoffs: Cutoffs::default(),
        }
    }

    /// A new search within `limits`, stopping at `deadline`, which may be
    /// pushed back up to `latest`.
    pub(super) fn begin(&mut self, limits: &Limits, deadline: Option<Instant>, latest: Option<Instant>) {
        *self = Budget {
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            deadline,
            latest,
            limits: limits.clone(),
            ..Budget::new()
        };
    }

    /// The limits of the search.
    pub(super) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The node budget (`u64::MAX` when none).
    pub(super) fn node_limit(&self) -> u64 {
        self.node_limit
    }

    /// The latest the deadline may be pushed back to.
    pub(super) fn latest(&self) -> Option<Instant> {
        self.latest
    }

    /// Whether the search was stopped.
    pub(super) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Counts a node and says whether to stop: the node budget at every
    /// node, the clock and the stop flag every 1,024.
    #[inline]
    pub(super) fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.trailing_zeros() >= 12 {
            self.limits.report(self.nodes, self.depth_done);
        }
        if !self.stopped
            && (self.nodes >= self.node_limit
                || (self.nodes.trailing_zeros() >= 10
                    && (self.limits.stopped() || self.deadline.is_some_and(|d| Instant::now() >= d))))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Pushes the deadline back by half the move's time, up to the latest
    /// the limits allow.
    pub(super) fn extend(&mut self) {
        if let (Some(deadline), Some(latest), Some(time)) = (self.deadline, self.latest, self.limits.time) {
            self.deadline = Some((deadline + time / 2).min(latest));
        }
    }

    /// The moment `1/parts` of the move's time from now has passed, if the
    /// move is timed.
    pub(super) fn share(&self, parts: u32) -> Option<Instant> {
        let time = self.limits.time?;
        Some(Instant::now() + time / parts)
    }

    /// Whether too little time is left for a deeper iteration to be worth
    /// starting: an eighth of the move's time. (An interrupted iteration
    /// is not lost: its first root move, the last best, is most of it, and
    /// a move it proved better is played; see `deepen`.)
    pub(super) fn too_late_for_deeper(&self) -> bool {
        matches!((self.deadline, self.limits.time),
            (Some(deadline), Some(time)) if deadline.saturating_duration_since(Instant::now()) < time / 8)
    }
}

/// Whether an iteration's `(best move, value)` leaves the search unsettled
/// against the last one's: another move, or a value fallen by more than
/// the aspiration window.
pub(super) fn unsettled(last: (Option<Cell>, i32), now: (Option<Cell>, i32)) -> bool {
    last.0 != now.0 || now.1 < last.1.saturating_sub(ASPIRATION)
}

/// The window an iteration at `depth` first searches after a value of
/// `last`: narrow around it from depth 4, unless it was a win or loss.
pub(super) fn aspiration_window(depth: u32, last: i32) -> (i32, i32) {
    use super::result::INFINITY;
    if depth >= 4 && last.abs() < MATE_BOUND {
        (last - ASPIRATION, last + ASPIRATION)
    } else {
        (-INFINITY, INFINITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::alphabeta::result::INFINITY;

    #[test]
    fn a_new_best_move_or_a_falling_value_is_unsettled() {
        let (a, b) = (Some(Cell::new(7, 7)), Some(Cell::new(7, 8)));
        assert!(!unsettled((a, 100), (a, 100)));
        assert!(!unsettled((a, 100), (a, 100 - ASPIRATION)));
        assert!(!unsettled((a, 100), (a, 5_000)));
        assert!(unsettled((a, 100), (a, 99 - ASPIRATION)));
        assert!(unsettled((a, 100), (b, 100)));
        assert!(!unsettled((a, -INFINITY), (a, -INFINITY)));
    }

    #[test]
    fn a_budget_stops_at_its_node_limit() {
        let mut budget = Budget::new();
        budget.begin(&Limits::nodes(3), None, None);
        assert!(!budget.visit() && !budget.visit());
        assert!(budget.visit() && budget.stopped() && budget.nodes == 3);
    }
}
