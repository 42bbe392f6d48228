//! The search and an analysis store ([`AnalysisStore`]): at the root a move the
//! store marks forced is played at once and a known win preferred; a few
//! plies down, a labelled position is decided and a stored value deep
//! enough cuts as a table entry would; after a search the root and the
//! first positions of the best line are written back, unless the store is
//! read-only.

use board::{Bitboard, Cell, Position};
use play::analysis_store::{Bound, Label};
use play::{AnalysisStore, Evaluator, StoreEntry};

use super::AlphaBeta;
use super::depth::{Depth, PLY};
use super::result::{AlphaBetaReport, MATE, MATE_BOUND, Reason};

/// The store a search consults, if any.
#[derive(Default)]
pub(super) struct StoreSlot(pub(super) Option<Box<dyn AnalysisStore>>);

impl std::fmt::Debug for StoreSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "a store" } else { "no store" })
    }
}

/// How many plies below the root the store is asked.
pub(super) const STORE_PLIES: u32 = 4;

/// The distance a labelled win or loss is given when the store says no
/// more: far, so that any win the search proves itself is shorter.
const UNKNOWN_DISTANCE: i32 = 1000;

/// The shallowest search whose results are written back.
const MIN_DEPTH_KEPT: u32 = 4;

impl<E: Evaluator> AlphaBeta<E> {
    /// Consults and feeds `book` from now on (`None`: no store).
    pub fn set_store(&mut self, book: Option<Box<dyn AnalysisStore>>) {
        self.store = StoreSlot(book);
    }

    /// The root's moves the store decides: a forced move, or a move to a
    /// position the side to move then loses (a win for us, preferred);
    /// also the moves it excludes.
    pub(super) fn decide_by_store(
        &mut self,
        pos: &Position,
        cells: Bitboard,
    ) -> (Option<AlphaBetaReport>, Bitboard) {
        let mut excluded = Bitboard::EMPTY;
        let Some(book) = self.store.0.as_mut() else { return (None, excluded) };
        let mut after = pos.clone();
        let (mut forced, mut win): (Option<Cell>, Option<(Cell, i32)>) = (None, None);
        for cell in cells {
            after.play_unchecked(cell);
            let entry = book.entry(&after);
            after.undo();
            match entry.map(|entry| entry.label) {
                Some(Label::Forced) => forced = forced.or(Some(cell)),
                Some(Label::Loss) => {
                    let value =
                        entry.and_then(|entry| won_by(entry, 1)).unwrap_or(MATE - 1 - UNKNOWN_DISTANCE);
                    if win.is_none_or(|(_, best)| value > best) {
                        win = Some((cell, value));
                    }
                }
                Some(Label::Excluded) => excluded.insert(cell),
                _ => {}
            }
        }
        let decided = win.or_else(|| forced.map(|cell| (cell, 0)));
        let report = decided.map(|(cell, value)| AlphaBetaReport {
            best_move: Some(cell),
            value,
            depth: 0,
            selective_depth: 1,
            nodes: 0,
            line: vec![cell],
            root_scores: Vec::new(),
            reason: Reason::AnalysisStore,
        });
        (report, excluded)
    }

    /// What the store decides of `pos` at `ply` (1 to [`STORE_PLIES`])
    /// searched `depth` within `(alpha, beta)`, if anything.
    pub(super) fn store_cut(
        &mut self,
        pos: &Position,
        depth: Depth,
        (alpha, beta): (i32, i32),
        ply: u32,
    ) -> Option<i32> {
        let entry = self.store.0.as_mut()?.entry(pos)?;
        let ply = ply as i32;
        match entry.label {
            Label::Win => {
                return Some(
                    entry
                        .value
                        .filter(|&value| value > MATE_BOUND)
                        .map_or(MATE - ply - UNKNOWN_DISTANCE, |value| value - ply),
                );
            }
            Label::Loss => {
                return Some(
                    entry
                        .value
                        .filter(|&value| value < -MATE_BOUND)
                        .map_or(-(MATE - ply - UNKNOWN_DISTANCE), |value| value + ply),
                );
            }
            Label::Draw => return Some(0),
            Label::None | Label::Forced | Label::Excluded => {}
        }
        let value = entry.value?;
        if value.abs() > MATE_BOUND || Depth::try_from(entry.depth?).ok()? * PLY < depth {
            return None;
        }
        match entry.bound {
            Bound::Exact => Some(value),
            Bound::Lower if value >= beta => Some(value),
            Bound::Upper if value <= alpha => Some(value),
            _ => None,
        }
    }

    /// Writes what a search of `pos` found back to the store: the root,
    /// and the best line's positions a few plies down, each with its own
    /// value and the depth left there; a proven result as a label.
    pub(super) fn write_back(&mut self, pos: &Position, result: &AlphaBetaReport) {
        let Some(book) = self.store.0.as_mut().filter(|book| book.writes()) else { return };
        if result.reason != Reason::Search || result.depth < MIN_DEPTH_KEPT {
            return;
        }
        let mut here = pos.clone();
        let mut value = result.value;
        for ply in 0..=STORE_PLIES {
            let left = result.depth.saturating_sub(ply);
            if left == 0 {
                break;
            }
            let label = if value > MATE_BOUND {
                Label::Win
            } else if value < -MATE_BOUND {
                Label::Loss
            } else {
                Label::None
            };
            let entry = StoreEntry { label, value: Some(value), depth: Some(left), bound: Bound::Exact };
            // A store that cannot write now is no reason to lose the move.
            let _ = book.keep(&here, &entry);
            let Some(&cell) = result.line.get(ply as usize) else { break };
            if here.play(cell).is_err() || here.is_over() {
                break;
            }
            // One ply on: the other side's view, a win a ply nearer.
            value = if value.abs() > MATE_BOUND { -(value.signum() * (value.abs() + 1)) } else { -value };
        }
    }
}

/// The value of a move to a position the store says its side to move
/// loses, `plies` below the root: the stored distance if it is one.
fn won_by(entry: StoreEntry, plies: i32) -> Option<i32> {
    entry.value.filter(|&value| value < -MATE_BOUND).map(|value| -value - plies)
}
