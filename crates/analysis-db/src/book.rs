//! The database as a search's [`Book`]: entries read from records, and
//! what a search found written back into them, comments and texts kept.

use board::Position;
use play::{Book, BookEntry};

use crate::{Database, Record};

impl Book for Database {
    /// (A record that cannot be read is as none: a search goes on.)
    fn entry(&mut self, pos: &Position) -> Option<BookEntry> {
        let record = self.get(pos).ok()??;
        Some(BookEntry { label: record.label, value: record.value, depth: record.depth, bound: record.bound })
    }

    fn keep(&mut self, pos: &Position, entry: &BookEntry) -> Result<(), String> {
        self.write(|database| {
            let old = database.get(pos)?.unwrap_or_default();
            let record = Record {
                label: entry.label,
                value: entry.value,
                depth: entry.depth,
                bound: entry.bound,
                ..old
            };
            database.put_in(pos, &record)
        })
        .map_err(|error| error.to_string())
    }

    fn writes(&self) -> bool {
        !self.is_read_only()
    }
}
