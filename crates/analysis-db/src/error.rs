//! What can go wrong with a database, said so a person can act on it.

use std::path::PathBuf;

use thiserror::Error;

/// Why the database could not do what was asked.
#[derive(Debug, Error)]
pub enum DbError {
    /// SQLite failed (a locked, damaged or unreadable file).
    #[error("{path}: {source}")]
    Sqlite {
        /// The database file.
        path: PathBuf,
        /// SQLite's error.
        source: rusqlite::Error,
    },
    /// The file is an SQLite database of another program (or not one at
    /// all): it is left as it is.
    #[error("{path} is not an mnk analysis database ({why}); it was left as it is")]
    Foreign {
        /// The file.
        path: PathBuf,
        /// What gave it away.
        why: String,
    },
    /// The file was written by a newer mnk: it is left as it is.
    #[error(
        "{path} is an analysis database of schema {found}, newer than this build reads ({reads}): use a newer mnk; it was left as it is"
    )]
    Newer {
        /// The file.
        path: PathBuf,
        /// Its schema version.
        found: i64,
        /// The version this build reads.
        reads: i64,
    },
    /// A write to a database opened read-only.
    #[error("{path} is open read-only: nothing was written")]
    ReadOnly {
        /// The file.
        path: PathBuf,
    },
    /// A record that cannot be kept as it is.
    #[error("{0}")]
    Record(String),
}
