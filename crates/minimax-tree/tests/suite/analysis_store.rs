//! The search and an analysis store: forced and winning moves at the
//! root, excluded ones left out, results written back, and a second
//! search helped by the first one's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use board::{Position, Rules};
use minimax_tree::{AlphaBeta, AlphaBetaConfig, Reason};
use play::analysis_store::{Bound, Label};
use play::{AnalysisStore, Limits, StoreEntry};

use crate::support::Touching;

/// A store in memory, by the position's moves in order, shared so that a
/// test can read what the search wrote.
#[derive(Clone, Default)]
struct Memory(Arc<Mutex<HashMap<u64, StoreEntry>>>);

impl Memory {
    fn put(&self, pos: &Position, entry: StoreEntry) {
        self.0.lock().unwrap().insert(pos.hash(), entry);
    }

    fn get(&self, pos: &Position) -> Option<StoreEntry> {
        self.0.lock().unwrap().get(&pos.hash()).copied()
    }
}

impl AnalysisStore for Memory {
    fn entry(&mut self, pos: &Position) -> Option<StoreEntry> {
        self.get(pos)
    }
    fn keep(&mut self, pos: &Position, entry: &StoreEntry) -> Result<(), String> {
        self.put(pos, *entry);
        Ok(())
    }
    fn writes(&self) -> bool {
        true
    }
}

/// A store that may be read, never written.
struct ReadOnly(Memory);
impl AnalysisStore for ReadOnly {
    fn entry(&mut self, pos: &Position) -> Option<StoreEntry> {
        self.0.get(pos)
    }
    fn keep(&mut self, _: &Position, _: &StoreEntry) -> Result<(), String> {
        panic!("a read-only store was written")
    }
    fn writes(&self) -> bool {
        false
    }
}

fn engine(book: &Memory) -> AlphaBeta<Touching> {
    let mut engine =
        AlphaBeta::new(Touching, AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::default() });
    engine.set_store(Some(Box::new(book.clone())));
    engine
}

fn after(pos: &Position, name: &str) -> Position {
    let mut after = pos.clone();
    after.play(pos.rules().parse_cell(name).unwrap()).unwrap();
    after
}

fn labelled(label: Label) -> StoreEntry {
    StoreEntry { label, ..StoreEntry::default() }
}

#[test]
fn a_forced_move_is_played_at_once_and_a_known_win_first() {
    let pos = Position::from_moves(Rules::gomoku15(), "h8 i9 j9").unwrap();
    let book = Memory::default();
    book.put(&after(&pos, "a1"), labelled(Label::Forced));
    let report = engine(&book).search(&pos, &Limits::depth(6));
    assert_eq!(
        (report.best_move, report.reason, report.nodes),
        (Some(pos.rules().parse_cell("a1").unwrap()), Reason::AnalysisStore, 0)
    );
    // A move to a position its side to move loses beats a forced one.
    book.put(&after(&pos, "b1"), labelled(Label::Loss));
    let report = engine(&book).search(&pos, &Limits::depth(6));
    assert_eq!(report.best_move, Some(pos.rules().parse_cell("b1").unwrap()));
    assert!(report.win_in().is_some(), "{report:?}");
}

#[test]
fn an_excluded_move_is_not_played() {
    // X's four: o the block, unless the store excludes it.
    let pos = Position::from_moves(Rules::gomoku15(), "h8 a1 i8 a3 j8 a5").unwrap();
    let book = Memory::default();
    let plain = engine(&Memory::default()).search(&pos, &Limits::depth(4));
    let best = plain.best_move.unwrap();
    book.put(&after(&pos, &best.name(pos.rules()).to_string()), labelled(Label::Excluded));
    let report = engine(&book).search(&pos, &Limits::depth(4));
    assert_ne!(report.best_move, Some(best), "{report:?}");
}

#[test]
fn a_search_writes_its_line_back_and_the_next_one_reads_it() {
    let pos = Position::from_moves(Rules::gomoku15(), "h8 i9 j9 i8 i10").unwrap();
    let book = Memory::default();
    let first = engine(&book).search(&pos, &Limits::depth(6));
    assert_eq!(first.reason, Reason::Search);
    let root = book.get(&pos).expect("the root written back");
    assert_eq!((root.value, root.depth, root.bound), (Some(first.value), Some(6), Bound::Exact));
    let child = book
        .get(&after(&pos, &first.line[0].name(pos.rules()).to_string()))
        .expect("the line's next position");
    assert_eq!((child.value, child.depth), (Some(-first.value), Some(5)));
    // The same search again, with what the first one kept: the same value
    // (the move may be another of equal value: this evaluation ties many),
    // fewer positions.
    let second = engine(&book).search(&pos, &Limits::depth(6));
    assert_eq!(second.value, first.value, "{first:?}\n{second:?}");
    assert!(second.nodes < first.nodes, "{} then {}", first.nodes, second.nodes);
    // Read-only stores are not written.
    let untouched = Memory::default();
    let mut reader = AlphaBeta::new(Touching, AlphaBetaConfig::default());
    reader.set_store(Some(Box::new(ReadOnly(untouched))));
    reader.search(&pos, &Limits::depth(6));
}
