//! The self-play data file: append-only and versioned. A header (magic,
//! format, the run's settings and shard as JSON), then one chunk per game
//! as it finishes (`crate::chunks`): the game's moves, the search's score
//! after each engine move, and the result.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use arena::Shard;
use board::Cell;
use play::OpeningRule;
use serde::{Deserialize, Serialize};

use crate::chunks::{Chunk, read_chunk};

/// The first bytes of a self-play file.
pub const MAGIC: &[u8; 13] = b"mnk-selfplay\n";

/// The version of the file's layout; files of another are refused.
pub const FORMAT: u32 = 1;

/// Everything that decides a run's games; written in the file's header,
/// and checked on resume.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// The rules, as `W,H,K` (and `,exact`).
    pub rules: String,
    /// The engine playing X in even games, as a spec.
    pub engine: String,
    /// The other engine (the same for self-play).
    pub against: String,
    /// The openings as given (`none`, `random:N`, a file name).
    pub openings: String,
    /// Random moves played after each opening, near the stones.
    pub random_plies: usize,
    /// Nodes a move, if the moves are searched by nodes.
    pub nodes: Option<u64>,
    /// Milliseconds a move, if by time (games then do not repeat exactly).
    pub ms: Option<u64>,
    /// The run's seed.
    pub seed: u64,
    /// Under a swap rule the engines put the opening and choose colours
    /// (no openings or random moves then); files from before it say none.
    #[serde(default, skip_serializing_if = "is_none_rule")]
    pub opening: OpeningRule,
}

#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's skip_serializing_if passes a reference")]
fn is_none_rule(rule: &OpeningRule) -> bool {
    !rule.is_swap()
}

/// One game as the file keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameData {
    /// Its number in the run.
    pub index: u64,
    /// Moves given before the engines played: the opening and the random
    /// moves, or the stones of a swap opening.
    pub given: u16,
    /// Every move, each as `x << 8 | y`.
    pub moves: Vec<u16>,
    /// After each engine move (`moves[given..]`), the search's score for
    /// the side that moved, if the engine said one.
    pub scores: Vec<Option<f32>>,
    /// 1: X won, -1: O won, 0: a draw.
    pub result: i8,
}

impl GameData {
    /// The moves as cells.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.moves.iter().map(|&packed| Cell::new((packed >> 8) as u8, packed as u8))
    }

    /// Checks that the game holds together under `rules`: its moves are on
    /// the board and replay, `given` and the scores fit them, and the
    /// result is a result.
    ///
    /// # Errors
    /// What does not hold.
    pub fn check(&self, rules: &board::Rules) -> Result<(), String> {
        let mut pos = board::Position::new(*rules);
        for (i, &packed) in self.moves.iter().enumerate() {
            let (x, y) = (packed >> 8, packed & 0xff);
            let cell = rules
                .cell(i32::from(x), i32::from(y))
                .ok_or_else(|| format!("move {} ({x},{y}) is off the {rules} board", i + 1))?;
            pos.play(cell).map_err(|err| format!("move {} ({x},{y}): {err}", i + 1))?;
        }
        if usize::from(self.given) > self.moves.len() {
            return Err(format!("{} moves given of {}", self.given, self.moves.len()));
        }
        if self.scores.len() > self.moves.len() - usize::from(self.given) {
            return Err(format!("{} scores for {} engine moves", self.scores.len(), self.moves.len()));
        }
        if !(-1..=1).contains(&self.result) {
            return Err(format!("result {} (1, 0 or -1)", self.result));
        }
        Ok(())
    }

    /// The result for the side to move after `plies` moves: 1 a win, ½ a
    /// draw, 0 a loss.
    #[must_use]
    pub fn result_for_mover(&self, plies: usize) -> f64 {
        let x_to_move = plies.is_multiple_of(2);
        match (self.result, x_to_move) {
            (0, _) => 0.5,
            (1, true) | (-1, false) => 1.0,
            _ => 0.0,
        }
    }
}

/// The file's header: the settings, and which part of how many games it
/// holds (files from before shards say neither).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// What decides the games.
    #[serde(flatten)]
    pub settings: Settings,
    /// The shard of the run the file holds.
    #[serde(default)]
    pub shard: Shard,
    /// Games in the whole run.
    #[serde(default)]
    pub games: Option<u64>,
}

impl Header {
    /// The header's bytes: magic, format, length, JSON.
    fn bytes(&self) -> Vec<u8> {
        crate::chunks::header_bytes(MAGIC, FORMAT, self)
    }
}

/// The games of a self-play file and the settings they were played with.
#[derive(Debug)]
pub struct DataFile {
    /// The run's settings.
    pub settings: Settings,
    /// The shard of the run the file holds.
    pub shard: Shard,
    /// Games in the whole run, if the file says (files from before shards do not).
    pub planned: Option<u64>,
    /// Every complete game, in the order they finished.
    pub games: Vec<GameData>,
    /// Bytes of complete chunks: a partial chunk after them is cut off on resume.
    pub good_len: u64,
    /// Whether a partial or damaged chunk followed the complete ones.
    pub torn_tail: bool,
    /// Where the chunks start.
    body_start: u64,
}

impl DataFile {
    /// Reads a self-play file.
    ///
    /// # Errors
    /// If it cannot be read, or is not a self-play file of this format.
    pub fn read(path: &Path) -> Result<DataFile> {
        let (header, bytes, body_start): (Header, _, _) =
            crate::chunks::read_file(path, (MAGIC, FORMAT, "a self-play file"))?;
        let rules: board::Rules = header
            .settings
            .rules
            .parse()
            .map_err(|err| anyhow::anyhow!("{}: the header's rules: {err}", path.display()))?;
        let mut at = body_start;
        let mut games = Vec::new();
        let torn_tail = loop {
            if at == bytes.len() {
                break false;
            }
            // A chunk cut short is an interrupted write, dropped on resume;
            // a whole chunk that does not read is damage, never dropped.
            let game = match read_chunk::<GameData>(&bytes[at..]) {
                Chunk::Torn => break true,
                Chunk::Damaged(why) => bail!(
                    "{}: the chunk at byte {at} (after {} games) is damaged: {why}; nothing was changed",
                    path.display(),
                    games.len()
                ),
                Chunk::Whole(game, size) => {
                    at += size;
                    game
                }
            };
            if let Err(why) = game.check(&rules) {
                bail!(
                    "{}: game {} does not hold together: {why}; nothing was changed",
                    path.display(),
                    game.index
                );
            }
            games.push(game);
        };
        Ok(DataFile {
            settings: header.settings,
            shard: header.shard,
            planned: header.games,
            games,
            good_len: at as u64,
            torn_tail,
            body_start: body_start as u64,
        })
    }

    /// Rewrites the file at `path` (which `self` was read from) with a new
    /// header and its complete chunks, through a temporary file.
    pub(super) fn rewrite(&self, path: &Path, header: &Header) -> Result<()> {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut out = header.bytes();
        out.extend_from_slice(&bytes[self.body_start as usize..self.good_len as usize]);
        play::files::write_atomically(path, &out).with_context(|| format!("cannot write {}", path.display()))
    }
}

/// Creates the data file `path` with `header` and no games.
pub(super) fn create(path: &Path, header: &Header) -> Result<BufWriter<File>> {
    if let Some(folder) = path.parent().filter(|folder| !folder.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).with_context(|| format!("cannot create {}", folder.display()))?;
    }
    let mut file =
        BufWriter::new(File::create(path).with_context(|| format!("cannot create {}", path.display()))?);
    file.write_all(&header.bytes())
        .and_then(|()| file.flush())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(file)
}

/// A whole file: `header`, then `games` in the order given.
pub(super) fn file_bytes(header: &Header, games: &[&GameData]) -> Vec<u8> {
    let mut out = header.bytes();
    for game in games {
        out.extend_from_slice(&chunk(game));
    }
    out
}

/// A chunk for `game`.
pub(super) fn chunk(game: &GameData) -> Vec<u8> {
    crate::chunks::chunk(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_off_the_board_or_out_of_shape_fails_its_check() {
        let rules: board::Rules = "9,9,5".parse().unwrap();
        let game = GameData {
            index: 0,
            given: 1,
            moves: vec![4 << 8 | 4, 5 << 8 | 5],
            scores: vec![Some(0.5)],
            result: 0,
        };
        assert_eq!(game.check(&rules), Ok(()));
        let off = GameData { moves: vec![4 << 8 | 4, 20 << 8 | 3], ..game.clone() };
        assert!(off.check(&rules).unwrap_err().contains("off the 9,9,5 board"));
        let twice = GameData { moves: vec![4 << 8 | 4, 4 << 8 | 4], ..game.clone() };
        assert!(twice.check(&rules).unwrap_err().contains("move 2"));
        assert!(GameData { given: 3, ..game.clone() }.check(&rules).is_err());
        assert!(GameData { scores: vec![None; 2], ..game.clone() }.check(&rules).is_err());
        assert!(GameData { result: 7, ..game }.check(&rules).is_err());
    }
}
