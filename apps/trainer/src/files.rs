//! Files written whole or not at all.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

/// Writes `text` to a temporary file beside `path`, then renames it over
/// `path`, so a reader never sees half a file and an old one is replaced
/// only by a complete new one.
pub fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let name = path.file_name().with_context(|| format!("{} is not a file name", path.display()))?;
    let temporary = path.with_file_name(format!(".{}.tmp", name.to_string_lossy()));
    fs::write(&temporary, text).with_context(|| format!("cannot write {}", temporary.display()))?;
    fs::rename(&temporary, path).with_context(|| format!("cannot write {}", path.display()))
}
