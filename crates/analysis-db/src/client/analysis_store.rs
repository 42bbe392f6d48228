//! The database as a search's [`AnalysisStore`]: entries read from records, and
//! what a search found written back into them — comments, texts, a label
//! it does not replace and a value searched deeper kept.

use board::Position;
use play::analysis_store::Label;
use play::{AnalysisStore, StoreEntry};

use crate::{Database, Record};

impl AnalysisStore for Database {
    /// (A record that cannot be read is as none: a search goes on.)
    fn entry(&mut self, pos: &Position) -> Option<StoreEntry> {
        let record = self.get(pos).ok()??;
        Some(StoreEntry {
            label: record.label,
            value: record.value,
            depth: record.depth,
            bound: record.bound,
        })
    }

    fn keep(&mut self, pos: &Position, entry: &StoreEntry) -> Result<(), String> {
        self.write(|database| {
            let old = database.get(pos)?.unwrap_or_default();
            // A search without a result leaves a person's label (a forced
            // or excluded move, a win) as it was.
            let label = if entry.label == Label::None { old.label } else { entry.label };
            // A shallower search does not replace a deeper value.
            let deeper = old.value.is_none() || entry.depth.unwrap_or(0) >= old.depth.unwrap_or(0);
            let record = if deeper {
                Record { label, value: entry.value, depth: entry.depth, bound: entry.bound, ..old }
            } else {
                Record { label, ..old }
            };
            database.put_in(pos, &record)
        })
        .map_err(|error| error.to_string())
    }

    fn writes(&self) -> bool {
        !self.is_read_only()
    }
}
