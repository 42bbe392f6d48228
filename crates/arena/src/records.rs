//! Game records: one JSON object per line, appended and flushed as each
//! game ends, so an interrupted run keeps every finished game and can be
//! resumed.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use board::GameRecord;
use serde::{Deserialize, Serialize};

use crate::ArenaError;

/// One finished game of a run, as written to the records file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// The fingerprint of the run's plan.
    pub run: String,
    /// The game's index in the schedule.
    pub game: u64,
    /// Which pairing played it.
    pub pairing: usize,
    /// The game's number within its pairing.
    pub number: u64,
    /// The entrants' labels (their specs), X first.
    pub specs: [String; 2],
    /// Rules, agent names, opening, moves with their thinking times,
    /// result, and the reason of a forfeit.
    #[serde(flatten)]
    pub record: GameRecord,
}

/// An open records file, appended to game by game.
#[derive(Debug)]
pub(crate) struct RecordsFile {
    path: PathBuf,
    file: File,
}

impl RecordsFile {
    /// Opens `path` for the run `fingerprint`. Without `resume` the file
    /// must not hold games already (nothing the user has is overwritten);
    /// with it, the games it holds are read back and returned, after
    /// dropping a last line cut short by an interruption.
    pub(crate) fn open(
        path: &Path,
        fingerprint: &str,
        resume: bool,
    ) -> Result<(RecordsFile, Vec<GameLine>), ArenaError> {
        let io = |source| ArenaError::Records { path: path.to_owned(), source };
        let mut file = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(io)?;
        let (games, good_length) = read_lines(&file, path)?;
        if !resume && !games.is_empty() {
            return Err(ArenaError::RecordsExist { path: path.to_owned(), games: games.len() });
        }
        if let Some(other) = games.iter().find(|line| line.run != fingerprint) {
            return Err(ArenaError::OtherRun { path: path.to_owned(), game: other.game });
        }
        if file.metadata().map_err(io)?.len() != good_length {
            file.set_len(good_length).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        Ok((RecordsFile { path: path.to_owned(), file }, games))
    }

    /// Appends one game and flushes it to the operating system.
    pub(crate) fn append(&mut self, line: &GameLine) -> Result<(), ArenaError> {
        let mut text = serde_json::to_string(line).expect("records serialise");
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|source| ArenaError::Records { path: self.path.clone(), source })
    }
}

/// The games of a records file and the length of its complete lines. A
/// last line without its newline is an interrupted write and is dropped;
/// any other line that does not read is corruption.
fn read_lines(file: &File, path: &Path) -> Result<(Vec<GameLine>, u64), ArenaError> {
    let mut reader = BufReader::new(file);
    reader
        .seek(SeekFrom::Start(0))
        .map_err(|source| ArenaError::Records { path: path.to_owned(), source })?;
    let mut games = Vec::new();
    let mut length = 0u64;
    let mut buffer = Vec::new();
    for number in 1.. {
        buffer.clear();
        let read = reader
            .read_until(b'\n', &mut buffer)
            .map_err(|source| ArenaError::Records { path: path.to_owned(), source })?;
        if read == 0 || buffer.last() != Some(&b'\n') {
            break;
        }
        let text = String::from_utf8_lossy(&buffer);
        if !text.trim().is_empty() {
            let line: GameLine = serde_json::from_str(&text).map_err(|error| ArenaError::Corrupt {
                path: path.to_owned(),
                line: number,
                reason: error.to_string(),
            })?;
            games.push(line);
        }
        length += read as u64;
    }
    Ok((games, length))
}

/// Reads every game of a records file (for analysis or tests).
///
/// # Errors
/// [`ArenaError`] if the file cannot be read or a line is not a game.
pub fn read_records(path: &Path) -> Result<Vec<GameLine>, ArenaError> {
    let file = File::open(path).map_err(|source| ArenaError::Records { path: path.to_owned(), source })?;
    Ok(read_lines(&file, path)?.0)
}
