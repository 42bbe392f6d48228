//! An analysis database: what players keep of positions from one sitting
//! to the next — a label (win, loss, draw, the only move, a move not to
//! consider), a value with its depth and bound, a comment, and short texts
//! on points — in an SQLite file that the terminal game and a brain can
//! share at once. A record is keyed by the position up to the board's
//! symmetries, so transpositions and mirror images share it.
//!
//! ```
//! use analysis_db::{Database, Record};
//! use play::analysis_store::Label;
//! use board::{Position, Rules};
//!
//! let path = std::env::temp_dir().join(format!("doc-{}.mnkdb", std::process::id()));
//! let mut database = Database::open(&path)?;
//! let pos = Position::from_moves(Rules::gomoku15(), "h8 i9")?;
//! database.put(&pos, &Record::labelled(Label::Win))?;
//! // The mirror image reads the same record.
//! let mirror = Position::from_moves(Rules::gomoku15(), "h8 g9")?;
//! assert_eq!(database.get(&mirror)?.map(|record| record.label), Some(Label::Win));
//! # drop(database);
//! # for end in ["", "-wal", "-shm"] { let _ = std::fs::remove_file(format!("{}{end}", path.display())); }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

mod client;
mod error;
mod formats;
mod storage;

pub use client::gui;
pub use client::record::{MAX_COMMENT_CHARS, MAX_TEXT_CHARS, Record};
pub use client::shared::SharedDatabase;
pub use error::DbError;
pub use formats::limits::{MAX_IMPORT_BYTES, import_limit, read_import};
pub use formats::renlib::{LibImport, MAX_EXPORT_NODES};
pub use formats::yxdb::{YxdbExport, YxdbImport};
pub use storage::key::{PositionKey, point_images};
pub use storage::store::{Database, SCHEMA};
pub use storage::tree::{Prune, Step};
