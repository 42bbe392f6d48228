//! Threads (lazy SMP): helper engines search the same root at the same
//! depths over the shared table, each starting on another root move, and
//! what they store orders and cuts the main thread's search.

use std::sync::Arc;
use std::thread;

use board::{Cell, Position};
use play::{Evaluator, Limits, StopFlag};

use super::AlphaBeta;
use super::result::AlphaBetaReport;

impl<E: Evaluator> AlphaBeta<E> {
    /// [`AlphaBeta::deepen`] on this thread while the helpers search the
    /// same root on theirs, until this one is done; their nodes count.
    pub(super) fn deepen_with_helpers(
        &mut self,
        pos: &mut Position,
        root: Vec<(Cell, i32)>,
        max_depth: u32,
    ) -> AlphaBetaReport {
        while self.helpers.len() + 1 < self.config.threads {
            let helper =
                AlphaBeta::sharing(Arc::clone(&self.evaluator), self.config.clone(), self.table.clone());
            self.helpers.push(helper);
        }
        // Helpers stop when this thread is done, or at its latest deadline.
        let stop = StopFlag::new();
        let limits = self.budget.limits();
        let helper_limits = Limits {
            time: limits.time,
            max_time: limits.max_time,
            nodes: None,
            depth: limits.depth,
            clock: None,
            stop: Some(stop.clone()),
            progress: None,
            excluded: limits.excluded,
        };
        let latest = self.budget.latest();
        let mut helpers = std::mem::take(&mut self.helpers);
        let result = thread::scope(|scope| {
            for (id, helper) in helpers.iter_mut().enumerate() {
                helper.begin(&helper_limits, latest, None);
                helper.keep(pos);
                let mut pos = pos.clone();
                let mut root = root.clone();
                // The same depths as this thread (scores of neighbouring
                // depths differ too much to mix), the root moves rotated so
                // each helper starts on another one.
                let turn = (id + 1).min(root.len() - 1);
                root.rotate_left(turn);
                scope.spawn(move || helper.deepen(&mut pos, root, max_depth));
            }
            let result = self.deepen(pos, root, max_depth);
            stop.stop();
            result
        });
        self.budget.nodes += helpers.iter().map(|helper| helper.budget.nodes).sum::<u64>();
        self.helpers = helpers;
        result
    }
}
