//! Files written whole or not at all.

use std::path::Path;

use anyhow::{Context, Result};

/// Writes `text` to a temporary file beside `path`, then renames it over
/// `path`, so a reader never sees half a file and an old one is replaced
/// only by a complete new one.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    board::files::write_atomically(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}
