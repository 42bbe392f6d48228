//! The transposition table of the alpha-beta engine: a fixed number of
//! slots chosen by memory budget, indexed by the position's hash, shared
//! by the search's threads; and what a node asks of it (a score that
//! decides the node, the move to try first) and tells it.

use std::ops::ControlFlow::{self, Break, Continue};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};

use board::Cell;

use super::depth::{Depth, MAX_STORED, plies};
use super::result::MATE_BOUND;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value itself.
    Exact,
    /// At least the score (the search failed high).
    Lower,
    /// At most the score (it failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) key: u64,
    pub(crate) score: i32,
    /// The best move found, in the key's coordinates.
    pub(crate) best: Option<Cell>,
    /// The depth searched, in sixteenths of a ply (see `depth`).
    pub(crate) depth: u16,
    pub(crate) bound: Bound,
    /// The search that stored it, modulo 64.
    pub(crate) age: u8,
}

/// A table of `2^n` entries, each slot holding the deepest (or newest)
/// result that hashed to it, shared by the threads of a search without
/// locks. A slot is two words: the key XOR the data, then the data
/// (score 32 bits, move 11, depth 13, bound 2 and age 6 packed), so a slot torn by two
/// threads writing at once fails the key check instead of lying. All
/// zero is empty, so a fresh table is zeroed memory the system hands out
/// lazily.
#[derive(Debug)]
pub(crate) struct Table {
    slots: Box<[[AtomicU64; 2]]>,
    mask: usize,
    /// Whether anything was stored since the table was made or cleared.
    used: AtomicBool,
    /// The current search, modulo 64: entries of older searches give way.
    age: AtomicU8,
}

impl Entry {
    fn pack(self) -> [u64; 2] {
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let best = self.best.map_or(0, |cell| cell.index() as u64 + 1);
        let data = u64::from(self.score as u32)
            | best << 32
            | u64::from(self.depth) << 43
            | bound << 56
            | u64::from(self.age & 63) << 58;
        [self.key, data]
    }

    fn unpack([key, data]: [u64; 2]) -> Option<Entry> {
        let bound = match data >> 56 & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let best = ((data >> 32) & 0x7ff) as usize;
        Some(Entry {
            key,
            score: data as u32 as i32,
            best: best.checked_sub(1).and_then(Cell::from_index),
            depth: ((data >> 43) & MAX_STORED as u64) as u16,
            bound,
            age: (data >> 58) as u8,
        })
    }
}

impl Table {
    /// A table within `bytes` of memory (at least one slot).
    pub(crate) fn new(bytes: usize) -> Table {
        let per_slot = std::mem::size_of::<[u64; 2]>();
        let wanted = (bytes / per_slot).max(1);
        let len = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        Table {
            slots: bytemuck::zeroed_slice_box(len),
            mask: len - 1,
            used: AtomicBool::new(false),
            age: AtomicU8::new(0),
        }
    }

    /// The words of `key`'s slot, as stored.
    #[inline]
    fn read(&self, key: u64) -> [u64; 2] {
        let [check, data] = &self.slots[key as usize & self.mask];
        let data = data.load(Ordering::Relaxed);
        [check.load(Ordering::Relaxed) ^ data, data]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        Entry::unpack(self.read(key)).filter(|entry| entry.key == key)
    }

    /// A new search begins: what earlier ones stored gives way first.
    pub(crate) fn new_search(&self) {
        let age = self.age.load(Ordering::Relaxed);
        self.age.store((age + 1) & 63, Ordering::Relaxed);
    }

    /// Stores a result (of the current search), replacing what is there
    /// unless that is the same position searched deeper, or another one
    /// of this search searched at least three plies deeper.
    #[inline]
    pub(crate) fn store(&self, entry: Entry) {
        let age = self.age.load(Ordering::Relaxed);
        if let Some(old) = Entry::unpack(self.read(entry.key)) {
            let same = old.key == entry.key;
            if (same && old.depth > entry.depth)
                || (!same && old.age == age && i32::from(old.depth) > i32::from(entry.depth) + plies(2))
            {
                return;
            }
        }
        let [key, data] = Entry { age, ..entry }.pack();
        let [check, stored] = &self.slots[key as usize & self.mask];
        check.store(key ^ data, Ordering::Relaxed);
        stored.store(data, Ordering::Relaxed);
        if !self.used.load(Ordering::Relaxed) {
            self.used.store(true, Ordering::Relaxed);
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        // A fresh table is left untouched: its pages are not even mapped
        // yet. A used one is zeroed where it stands, its pages kept: a new
        // table's would be mapped again, a fault at a time, by the next
        // search (measured: a sixth of a small search's time).
        if *self.used.get_mut() {
            for [check, data] in &mut self.slots {
                *check.get_mut() = 0;
                *data.get_mut() = 0;
            }
            *self.used.get_mut() = false;
        }
        *self.age.get_mut() = 0;
    }

    /// The table's word on a node `depth` (sixteenths of a ply) deep searched within
    /// `(alpha, beta)`, `ply` plies from the root: `Break(score)` if a
    /// stored result decides it, else the stored move (in the key's
    /// coordinates), if any, to try first.
    #[inline]
    pub(crate) fn look_up(
        &self,
        key: u64,
        depth: Depth,
        (alpha, beta): (i32, i32),
        ply: u32,
    ) -> ControlFlow<i32, Option<Cell>> {
        let Some(entry) = self.probe(key) else {
            return Continue(None);
        };
        if Depth::from(entry.depth) >= depth {
            let score = from_table(entry.score, ply);
            match entry.bound {
                Bound::Exact => return Break(score),
                Bound::Lower if score >= beta => return Break(score),
                Bound::Upper if score <= alpha => return Break(score),
                _ => {}
            }
        }
        Continue(entry.best)
    }

    /// Stores a node's result: its best score and move (in the key's
    /// coordinates), searched `depth` (sixteenths of a ply) deep within `(alpha, beta)`,
    /// `ply` plies from the root.
    #[inline]
    pub(crate) fn record(
        &self,
        key: u64,
        (alpha, beta): (i32, i32),
        (best, best_move): (i32, Option<Cell>),
        depth: Depth,
        ply: u32,
    ) {
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // The table stamps its own age.
        self.store(Entry {
            key,
            score: to_table(best, ply),
            best: best_move,
            depth: depth.clamp(0, MAX_STORED) as u16,
            bound,
            age: 0,
        });
    }

    /// The number of slots.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }
}

/// A win or loss score as stored: relative to the node, not the root.
fn to_table(score: i32, ply: u32) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score back relative to the root.
fn from_table(score: i32, ply: u32) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_deeper_results_of_the_same_position() {
        let mut table = Table::new(1 << 10);
        assert!(table.len().is_power_of_two() && table.len() * 16 <= 1 << 10);
        let entry = Entry { key: 7, score: 3, best: None, depth: 5 * 16, bound: Bound::Exact, age: 0 };
        let full = Entry {
            key: 9,
            score: -2_000_000_000,
            best: Some(Cell::new(31, 31)),
            depth: MAX_STORED as u16,
            bound: Bound::Upper,
            age: 63,
        };
        let back = Entry::unpack(full.pack()).unwrap();
        assert_eq!(
            (back.key, back.score, back.best, back.depth, back.bound, back.age),
            (9, full.score, full.best, MAX_STORED as u16, Bound::Upper, 63)
        );
        table.store(entry);
        table.store(Entry { depth: 2 * 16, score: 9, ..entry });
        assert_eq!(table.probe(7).unwrap().score, 3);
        table.store(Entry { depth: 6 * 16, score: 1, ..entry });
        assert_eq!(table.probe(7).unwrap().score, 1);
        assert!(table.probe(8).is_none());
        // Another position in the same slot: a much deeper entry of this
        // search stays, one of an earlier search gives way.
        let other = 7 + table.len() as u64;
        table.store(Entry { key: other, depth: 2 * 16, ..entry });
        assert_eq!(table.probe(7).unwrap().depth, 6 * 16);
        table.new_search();
        table.store(Entry { key: other, depth: 2 * 16, ..entry });
        assert!(table.probe(7).is_none());
        assert_eq!(table.probe(other).unwrap().depth, 2 * 16);
        table.clear();
        assert!(table.probe(7).is_none());
    }
}
