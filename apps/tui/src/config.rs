//! What the game remembers between sessions, in the user's config
//! directory (`~/.config/mnk/tui.json` on Linux; `MNK_CONFIG_DIR` moves
//! it): the path of the last external brain played.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// The remembered settings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// The last external brain's executable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brain: Option<String>,
}

/// The config file: in `MNK_CONFIG_DIR` if set, else the user's config
/// directory; `None` where there is none.
#[must_use]
pub fn default_path() -> Option<PathBuf> {
    let dir = match std::env::var_os("MNK_CONFIG_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => dirs::config_dir()?.join("mnk"),
    };
    Some(dir.join("tui.json"))
}

impl Config {
    /// Reads `path`; a missing file is the defaults.
    ///
    /// # Errors
    /// If the file exists but cannot be read or is not such JSON.
    pub fn load(path: &Path) -> Result<Config> {
        if !path.exists() {
            return Ok(Config::default());
        }
        let text =
            play::files::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{} is not the game's config", path.display()))
    }

    /// Writes `path` (through a temporary file), making its directory.
    ///
    /// # Errors
    /// If it cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
        }
        play::files::write_atomically(path, serde_json::to_string_pretty(self)?.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}
