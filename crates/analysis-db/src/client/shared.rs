//! One opened database shared by whoever uses it in a program: a brain's
//! own commands and every search its engine makes, or a study and its
//! analysing engine. The file is opened once; each use locks it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use board::Position;
use play::{AnalysisStore, StoreEntry};

use crate::Database;

/// An opened [`Database`] that clones share.
#[derive(Clone)]
pub struct SharedDatabase {
    database: Arc<Mutex<Database>>,
    path: PathBuf,
}

impl SharedDatabase {
    /// Shares `database`.
    #[must_use]
    pub fn new(database: Database) -> SharedDatabase {
        let path = database.path().to_owned();
        SharedDatabase { database: Arc::new(Mutex::new(database)), path }
    }

    /// The database, for as long as the guard lives. (A user that
    /// panicked holding it left no half-written record: SQLite's writes
    /// are transactions.)
    pub fn lock(&self) -> MutexGuard<'_, Database> {
        self.database.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A search's [`AnalysisStore`] over this database, which writes what
    /// it finds back only if `write` (and the database was opened to).
    #[must_use]
    pub fn store(&self, write: bool) -> Box<dyn AnalysisStore> {
        Box::new(SharedStore { shared: self.clone(), write })
    }
}

impl std::fmt::Debug for SharedDatabase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedDatabase").field("path", &self.path).finish_non_exhaustive()
    }
}

/// The same opened database (not merely the same file).
impl PartialEq for SharedDatabase {
    fn eq(&self, other: &SharedDatabase) -> bool {
        Arc::ptr_eq(&self.database, &other.database)
    }
}

impl Eq for SharedDatabase {}

/// A search's view of a shared database.
struct SharedStore {
    shared: SharedDatabase,
    write: bool,
}

impl AnalysisStore for SharedStore {
    fn entry(&mut self, pos: &Position) -> Option<StoreEntry> {
        self.shared.lock().entry(pos)
    }

    fn keep(&mut self, pos: &Position, entry: &StoreEntry) -> Result<(), String> {
        if self.write { self.shared.lock().keep(pos, entry) } else { Ok(()) }
    }

    fn writes(&self) -> bool {
        self.write && self.shared.lock().writes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;
    use play::analysis_store::{Bound, Label};

    #[test]
    fn clones_share_one_opened_file_and_a_read_only_store_writes_nothing() {
        let dir = std::env::temp_dir().join(format!("mnk-shared-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shared.db");
        let shared = SharedDatabase::new(Database::open(&path).unwrap());
        let pos = Position::from_moves(Rules::gomoku15(), "h8 i9").unwrap();
        let entry = StoreEntry { label: Label::Win, value: Some(500), depth: Some(9), bound: Bound::Exact };
        let mut reader = shared.store(false);
        assert!(!reader.writes());
        reader.keep(&pos, &entry).unwrap();
        assert_eq!(shared.lock().get(&pos).unwrap(), None, "a read-only store wrote");
        let mut writer = shared.clone().store(true);
        assert!(writer.writes());
        writer.keep(&pos, &entry).unwrap();
        // The reader sees through the same connection what the writer kept.
        assert_eq!(reader.entry(&pos).map(|entry| entry.label), Some(Label::Win));
        assert_eq!(shared, shared.clone());
        assert_ne!(shared, SharedDatabase::new(Database::open(&path).unwrap()), "another opening");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
