//! The transposition table of the alpha-beta engine: a fixed number of
//! slots chosen by memory budget, indexed by the position's hash.

use board::Cell;

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
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
}

/// A table of `2^n` entries, each slot holding the deepest (or newest)
/// result that hashed to it.
#[derive(Debug)]
pub(crate) struct Table {
    slots: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table within `bytes` of memory (at least one slot).
    pub(crate) fn new(bytes: usize) -> Table {
        let per_slot = std::mem::size_of::<Option<Entry>>();
        let wanted = (bytes / per_slot).max(1);
        let len = if wanted.is_power_of_two() { wanted } else { wanted.next_power_of_two() / 2 };
        Table { slots: vec![None; len], mask: len - 1 }
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[key as usize & self.mask].filter(|entry| entry.key == key)
    }

    /// Stores a result, replacing what is there unless that is the same
    /// position searched deeper.
    #[inline]
    pub(crate) fn store(&mut self, entry: Entry) {
        let slot = &mut self.slots[entry.key as usize & self.mask];
        if let Some(old) = slot
            && old.key == entry.key
            && old.depth > entry.depth
        {
            return;
        }
        *slot = Some(entry);
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.slots.fill(None);
    }

    /// The number of slots.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_deeper_results_of_the_same_position() {
        let mut table = Table::new(1 << 10);
        assert!(table.len().is_power_of_two() && table.len() * std::mem::size_of::<Option<Entry>>() <= 1 << 10);
        let entry = Entry { key: 7, score: 3, best: None, depth: 5, bound: Bound::Exact };
        table.store(entry);
        table.store(Entry { depth: 2, score: 9, ..entry });
        assert_eq!(table.probe(7).unwrap().score, 3);
        table.store(Entry { depth: 6, score: 1, ..entry });
        assert_eq!(table.probe(7).unwrap().score, 1);
        assert!(table.probe(8).is_none());
        table.clear();
        assert!(table.probe(7).is_none());
    }
}
