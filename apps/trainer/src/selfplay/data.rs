//! The self-play data file: append-only and versioned. A header (magic,
//! format, the run's settings and shard as JSON), then one chunk per game
//! as it finishes: its length, the game in bincode (moves, the search's
//! score after each engine move, the result), and a 64-bit checksum.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use arena::Shard;
use board::Cell;
use serde::{Deserialize, Serialize};

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
}

/// One game as the file keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameData {
    /// Its number in the run.
    pub index: u64,
    /// Moves given before the engines played: the opening and the random moves.
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
        let json = serde_json::to_vec(self).expect("headers serialise");
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&FORMAT.to_le_bytes());
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(&json);
        out
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
        let mut bytes = Vec::new();
        File::open(path)
            .and_then(|mut file| file.read_to_end(&mut bytes))
            .with_context(|| format!("cannot read {}", path.display()))?;
        let not_ours = || format!("{} is not a self-play file", path.display());
        let rest = bytes.strip_prefix(MAGIC.as_slice()).with_context(not_ours)?;
        let (format, rest) = take_u32(rest).with_context(not_ours)?;
        if format != FORMAT {
            bail!(
                "{} is a self-play file of format {format}; this trainer reads format {FORMAT}",
                path.display()
            );
        }
        let (header_len, rest) = take_u32(rest).with_context(not_ours)?;
        let header = rest.get(..header_len as usize).with_context(not_ours)?;
        let header: Header = serde_json::from_slice(header)
            .with_context(|| format!("{}: the header is damaged", path.display()))?;
        let body_start = MAGIC.len() + 8 + header_len as usize;
        let mut at = body_start;
        let mut games = Vec::new();
        let torn_tail = loop {
            if at == bytes.len() {
                break false;
            }
            let Some(game) = read_chunk(&bytes[at..]) else { break true };
            at += game.1;
            games.push(game.0);
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
        board::files::write_atomically(path, &out).with_context(|| format!("cannot write {}", path.display()))
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

/// A little-endian `u32` and what follows it.
fn take_u32(bytes: &[u8]) -> Option<(u32, &[u8])> {
    let (head, rest) = bytes.split_first_chunk::<4>()?;
    Some((u32::from_le_bytes(*head), rest))
}

/// One chunk (length, bincode, checksum) and its size, if whole and sound.
fn read_chunk(bytes: &[u8]) -> Option<(GameData, usize)> {
    let (len, rest) = take_u32(bytes)?;
    let body = rest.get(..len as usize)?;
    let sum = rest.get(len as usize..len as usize + 8)?;
    if board::files::checksum(body).to_le_bytes() != sum {
        return None;
    }
    let (game, used) = bincode::serde::decode_from_slice(body, bincode::config::standard()).ok()?;
    (used == body.len()).then_some((game, 4 + len as usize + 8))
}

/// A chunk for `game`.
pub(super) fn chunk(game: &GameData) -> Vec<u8> {
    let body = bincode::serde::encode_to_vec(game, bincode::config::standard()).expect("games encode");
    let mut out = Vec::with_capacity(body.len() + 12);
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
    out.extend_from_slice(&board::files::checksum(&body).to_le_bytes());
    out
}
