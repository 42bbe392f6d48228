//! Game records: one JSON object per line, appended and flushed as each
//! game ends, so an interrupted run keeps every finished game and can be
//! resumed. The first line, `{"header": …}`, says which run (and which
//! shard of it) the file belongs to, so that shards can be merged without
//! the engines.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use board::Rules;
use play::{GameRecord, OpeningRule};
use serde::{Deserialize, Serialize};

use crate::ArenaError;
use crate::schedule::{Format, Slot, pairings_of, schedule_of};
use crate::shard::Shard;
use crate::sprt::Sprt;

/// What a records file says of its run: enough to check its games and
/// summarise them without the engines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunHeader {
    /// The fingerprint of the run's plan.
    pub run: String,
    /// The rules.
    pub rules: Rules,
    /// Who meets whom.
    pub format: Format,
    /// Games per pairing.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
    /// The entrants' labels.
    pub entrants: Vec<String>,
    /// The SPRT the match runs, if any.
    pub sprt: Option<Sprt>,
    /// How the games' first stones are put (files written before opening
    /// rules existed have none).
    #[serde(default, skip_serializing_if = "is_none_rule")]
    pub opening_rule: OpeningRule,
    /// Which part of the run the file holds.
    pub shard: Shard,
}

impl RunHeader {
    /// The pairings `(a, b)`, A first.
    #[must_use]
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        pairings_of(self.format, self.entrants.len())
    }

    /// Every game of the run, in schedule order.
    #[must_use]
    pub fn schedule(&self) -> Vec<Slot> {
        schedule_of(self.format, self.entrants.len(), self.games)
    }
}

#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_none_rule(rule: &OpeningRule) -> bool {
    !rule.is_swap()
}

/// The first line of a records file.
#[derive(Serialize, Deserialize)]
struct HeaderLine {
    header: RunHeader,
}

const HEADER_START: &str = "{\"header\"";

/// One finished game of a run, as written to the records file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// No other run writes the file while this one does.
    _lock: play::files::OutputLock,
}

impl RecordsFile {
    /// Opens `path` for the run (or shard) `header` describes. Without
    /// `resume` the file must not hold games already (nothing the user
    /// has is overwritten); with it, the games it holds are read back and
    /// returned, after dropping a last line cut short by an interruption.
    /// A new file starts with the header.
    pub(crate) fn open(
        path: &Path,
        header: &RunHeader,
        resume: bool,
    ) -> Result<(RecordsFile, Vec<GameLine>), ArenaError> {
        let io = |error| ArenaError::Records { path: path.to_owned(), error };
        let lock = play::files::lock_output(path).map_err(io)?;
        let mut file = OpenOptions::new().read(true).append(true).create(true).open(path).map_err(io)?;
        let (found, games, good_length) = read_lines(&file, path)?;
        if found.is_none() && games.is_empty() && !starts_as_records(&file, path)? {
            return Err(ArenaError::Corrupt {
                path: path.to_owned(),
                line: 1,
                reason:
                    "it is not a records file (no header, no game): nothing was changed; name another file"
                        .to_owned(),
            });
        }
        if !resume && !games.is_empty() {
            return Err(ArenaError::RecordsExist { path: path.to_owned(), games: games.len() });
        }
        if let Some(other) = games.iter().find(|line| line.run != header.run) {
            return Err(ArenaError::OtherRun { path: path.to_owned(), game: other.game });
        }
        // A file with no games holds nothing to keep: it starts afresh.
        let keep = if games.is_empty() { 0 } else { good_length };
        if let Some(found) = found.filter(|_| keep > 0)
            && (found.run != header.run || found.shard != header.shard)
        {
            return Err(ArenaError::Corrupt {
                path: path.to_owned(),
                line: 1,
                reason: format!(
                    "it holds shard {} of run {}, not shard {} of run {}: resume with the same settings and --shard, or write to another file",
                    found.shard, found.run, header.shard, header.run
                ),
            });
        }
        if file.metadata().map_err(io)?.len() != keep {
            file.set_len(keep).map_err(io)?;
        }
        file.seek(SeekFrom::End(0)).map_err(io)?;
        let mut records = RecordsFile { path: path.to_owned(), file, _lock: lock };
        if keep == 0 {
            records.write_line(
                &serde_json::to_string(&HeaderLine { header: header.clone() }).expect("headers serialise"),
            )?;
        }
        Ok((records, games))
    }

    /// Appends one game and flushes it to the operating system.
    pub(crate) fn append(&mut self, line: &GameLine) -> Result<(), ArenaError> {
        self.write_line(&serde_json::to_string(line).expect("records serialise"))
    }

    fn write_line(&mut self, text: &str) -> Result<(), ArenaError> {
        let mut text = text.to_owned();
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|error| ArenaError::Records { path: self.path.clone(), error })
    }
}

/// Whether `file` is empty or starts as a records file does (a header,
/// perhaps cut short by an interruption, or a game), so that a run may
/// write to it.
fn starts_as_records(file: &File, path: &Path) -> Result<bool, ArenaError> {
    let io = |error| ArenaError::Records { path: path.to_owned(), error };
    let mut start = Vec::with_capacity(HEADER_START.len());
    let mut reader = BufReader::new(file);
    reader.seek(SeekFrom::Start(0)).map_err(io)?;
    reader.take(HEADER_START.len() as u64).read_to_end(&mut start).map_err(io)?;
    Ok(start.is_empty() || HEADER_START.as_bytes().starts_with(&start) || start.starts_with(b"{\"run\""))
}

/// The header (if the file has one), the games of a records file and the
/// length of its complete lines. A last line without its newline is an
/// interrupted write and is dropped; any other line that does not read is
/// corruption.
fn read_lines(file: &File, path: &Path) -> Result<(Option<RunHeader>, Vec<GameLine>, u64), ArenaError> {
    let mut reader = BufReader::new(file);
    reader.seek(SeekFrom::Start(0)).map_err(|error| ArenaError::Records { path: path.to_owned(), error })?;
    let mut header = None;
    let mut games = Vec::new();
    let mut length = 0u64;
    let mut buffer = Vec::new();
    for number in 1.. {
        let read = play::files::read_line_limited(&mut reader, &mut buffer, play::files::MAX_LINE_BYTES)
            .map_err(|error| ArenaError::Records { path: path.to_owned(), error })?;
        if read == 0 || buffer.last() != Some(&b'\n') {
            break;
        }
        let text = String::from_utf8_lossy(&buffer);
        let corrupt = |reason: String| ArenaError::Corrupt { path: path.to_owned(), line: number, reason };
        if number == 1 && text.starts_with(HEADER_START) {
            let line: HeaderLine = serde_json::from_str(&text).map_err(|error| corrupt(error.to_string()))?;
            header = Some(line.header);
        } else if text.starts_with(HEADER_START) {
            return Err(corrupt(
                "a header belongs on the first line only: is this two files joined?".to_owned(),
            ));
        } else if !text.trim().is_empty() {
            let line: GameLine = serde_json::from_str(&text).map_err(|error| corrupt(error.to_string()))?;
            line.record.check().map_err(|reason| corrupt(format!("game {}: {reason}", line.game)))?;
            // The run's opening rule decides whether a game has a swap record.
            if let Some(rule) = header.as_ref().map(|header: &RunHeader| header.opening_rule)
                && rule.is_swap() != line.record.swap.is_some()
            {
                return Err(corrupt(format!(
                    "game {}: the run's opening rule is {rule}, but the game {} a swap record",
                    line.game,
                    if line.record.swap.is_some() { "has" } else { "lacks" }
                )));
            }
            games.push(line);
        }
        length += read as u64;
    }
    Ok((header, games, length))
}

/// Reads every game of a records file (for analysis or tests).
///
/// # Errors
/// [`ArenaError`] if the file cannot be read or a line is not a game.
pub fn read_records(path: &Path) -> Result<Vec<GameLine>, ArenaError> {
    Ok(read_run(path)?.1)
}

/// Reads a records file: its header (files written before headers have
/// none) and its games.
///
/// # Errors
/// [`ArenaError`] if the file cannot be read or a line is not a game.
pub fn read_run(path: &Path) -> Result<(Option<RunHeader>, Vec<GameLine>), ArenaError> {
    let file = File::open(path).map_err(|error| ArenaError::Records { path: path.to_owned(), error })?;
    let (header, games, _) = read_lines(&file, path)?;
    Ok((header, games))
}
