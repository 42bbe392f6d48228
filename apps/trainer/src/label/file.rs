//! The label file: append-only and versioned, as the self-play file is. A
//! header (magic, format, then the run's settings, shard and sources as
//! JSON), then one checksummed chunk per labelled position
//! (`crate::chunks`), written as the judge answers: a killed run keeps
//! every whole label, and `--resume` cuts a torn last chunk and goes on.

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use arena::{Shard, shards_not_given};
use board::Rules;
use serde::{Deserialize, Serialize};

use super::Label;
use crate::chunks::{Chunk, chunk, read_chunk};

/// The first bytes of a label file.
pub const MAGIC: &[u8; 11] = b"mnk-labels\n";

/// The version of the file's layout; files of another are refused.
pub const FORMAT: u32 = 1;

/// What decides a label: checked on resume and merge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabelSettings {
    /// The rules of every position.
    pub rules: Rules,
    /// The judge, as a spec.
    pub judge: String,
    /// Nodes the judge searched a position, if by nodes.
    pub nodes: Option<u64>,
    /// Milliseconds a position, if by time.
    pub ms: Option<u64>,
    /// The judge's value worth odds of e : 1: chance = σ(value / scale).
    pub scale: f64,
    /// Positions with fewer stones were left out.
    pub from_ply: usize,
}

/// The header: the settings, the shard, and the sources read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabelHeader {
    /// What decides the labels.
    #[serde(flatten)]
    pub settings: LabelSettings,
    /// Which symmetry classes the file holds (`hash % count == index`).
    pub shard: Shard,
    /// The game files the positions came from, as named.
    pub sources: Vec<String>,
}

impl LabelHeader {
    fn bytes(&self) -> Vec<u8> {
        crate::chunks::header_bytes(MAGIC, FORMAT, self)
    }
}

/// A label file as read.
#[derive(Debug)]
pub struct LabelFile {
    /// Its header.
    pub header: LabelHeader,
    /// Every whole label, in the order written.
    pub labels: Vec<Label>,
    /// Bytes of the header and the whole chunks.
    pub good_len: u64,
    /// Whether a chunk cut short followed (an interrupted write).
    pub torn_tail: bool,
}

impl LabelFile {
    /// Reads and checks a label file: every label's moves replay under
    /// its rules, its judge's move is a legal cell, its chance a chance.
    ///
    /// # Errors
    /// If it cannot be read, is not a label file of this format, or holds
    /// damage (a torn last chunk is not damage: see `torn_tail`).
    pub fn read(path: &Path) -> Result<LabelFile> {
        let (header, bytes, body_start): (LabelHeader, _, _) =
            crate::chunks::read_file(path, (MAGIC, FORMAT, "a label file (made by trainer label)"))?;
        if !(header.settings.scale.is_finite() && header.settings.scale > 0.0) {
            bail!(
                "{}: the header's scale {} is not a positive number",
                path.display(),
                header.settings.scale
            );
        }
        let mut at = body_start;
        let mut labels = Vec::new();
        let torn_tail = loop {
            if at == bytes.len() {
                break false;
            }
            match read_chunk::<Label>(&bytes[at..]) {
                Chunk::Torn => break true,
                Chunk::Damaged(why) => bail!(
                    "{}: the chunk at byte {at} (after {} labels) is damaged: {why}; nothing was changed",
                    path.display(),
                    labels.len()
                ),
                Chunk::Whole(label, size) => {
                    if let Err(why) = check(&label, header.settings.rules) {
                        bail!("{}: label {} does not hold together: {why}", path.display(), labels.len() + 1);
                    }
                    labels.push(label);
                    at += size;
                }
            }
        };
        Ok(LabelFile { header, labels, good_len: at as u64, torn_tail })
    }

    /// The symmetry classes the file holds.
    #[must_use]
    pub fn keys(&self) -> HashSet<u64> {
        self.keys_in_order().into_iter().collect()
    }
}

/// What must hold of a label under `rules`.
fn check(label: &Label, rules: Rules) -> Result<(), String> {
    let pos = label.position(rules)?;
    if !(0.0..=1.0).contains(&label.chance) {
        return Err(format!("chance {} is not within 0 to 1", label.chance));
    }
    if !(-1..=1).contains(&label.result) {
        return Err(format!("result {} (1, 0 or -1)", label.result));
    }
    if let Some(best) = label.best {
        let (x, y) = (best >> 8, best & 0xff);
        let legal = rules.cell(i32::from(x), i32::from(y)).is_some_and(|cell| pos.is_legal(cell));
        if !legal {
            return Err(format!("the judge's move ({x},{y}) is not a legal move there"));
        }
    }
    Ok(())
}

/// Where labels are appended, one flushed chunk each.
#[derive(Debug)]
pub struct LabelWriter {
    file: BufWriter<File>,
    path: PathBuf,
    _lock: play::files::OutputLock,
}

impl LabelWriter {
    /// Creates `path` with `header` and no labels; refuses a file that
    /// holds anything.
    ///
    /// # Errors
    /// The file holds something, another program writes it, or it cannot
    /// be written.
    pub fn create(path: &Path, header: &LabelHeader) -> Result<LabelWriter> {
        let lock =
            play::files::lock_output(path).with_context(|| format!("cannot write {}", path.display()))?;
        if path.metadata().is_ok_and(|meta| meta.len() > 0) {
            bail!(
                "{} holds labels already: give --resume to go on with them, or another --out",
                path.display()
            );
        }
        let mut file =
            BufWriter::new(File::create(path).with_context(|| format!("cannot create {}", path.display()))?);
        file.write_all(&header.bytes())
            .and_then(|()| file.flush())
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(LabelWriter { file, path: path.to_owned(), _lock: lock })
    }

    /// Opens `path`, read as `read`, to go on appending: a torn last chunk
    /// is cut off first.
    ///
    /// # Errors
    /// Another program writes it, or it cannot be written.
    pub fn resume(path: &Path, read: &LabelFile) -> Result<LabelWriter> {
        let lock =
            play::files::lock_output(path).with_context(|| format!("cannot write {}", path.display()))?;
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        file.set_len(read.good_len).with_context(|| format!("cannot cut {}", path.display()))?;
        let mut file = BufWriter::new(file);
        std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0))
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(LabelWriter { file, path: path.to_owned(), _lock: lock })
    }

    /// Appends one label, flushed.
    ///
    /// # Errors
    /// It cannot be written.
    pub fn append(&mut self, label: &Label) -> Result<()> {
        self.file
            .write_all(&chunk(label))
            .and_then(|()| self.file.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// Merges shards' label files into `out` (which must not exist): one run's
/// settings and sources, split one way, each shard once, all of them
/// unless `allow_missing`. Returns the labels written.
///
/// # Errors
/// The first thing wrong with the shards, or a file that cannot be read
/// or written.
pub fn merge(paths: &[PathBuf], out: &Path, allow_missing: bool) -> Result<u64> {
    if out.metadata().is_ok_and(|meta| meta.len() > 0) {
        bail!("{} already exists: merge into a new file", out.display());
    }
    let _lock = play::files::lock_output(out).with_context(|| format!("cannot write {}", out.display()))?;
    let mut first: Option<(&Path, LabelHeader)> = None;
    let mut shards: BTreeMap<u64, &Path> = BTreeMap::new();
    let mut labels = Vec::new();
    let mut keys = HashSet::new();
    for path in paths {
        if play::files::same_file(path, out) {
            bail!("{} is both a shard and the output", out.display());
        }
        let file = LabelFile::read(path)?;
        if let Some((first_path, expected)) = &first {
            if file.header.settings != expected.settings || file.header.sources != expected.sources {
                bail!(
                    "{} is a shard of another run than {} (another judge, budget, scale or sources)",
                    path.display(),
                    first_path.display()
                );
            }
            if file.header.shard.count != expected.shard.count {
                bail!(
                    "{} is shard {} but {} is shard {}: the run was split two ways",
                    path.display(),
                    file.header.shard,
                    first_path.display(),
                    expected.shard
                );
            }
        }
        if let Some(other) = shards.insert(file.header.shard.index, path) {
            bail!(
                "{} and {} are both shard {}: give each shard once",
                other.display(),
                path.display(),
                file.header.shard
            );
        }
        if file.torn_tail {
            eprintln!("{}: its last label is incomplete and is left out", path.display());
        }
        for (label, key) in file.labels.iter().zip(file.keys_in_order()) {
            if keys.insert(key) {
                labels.push(label.clone());
            }
        }
        first.get_or_insert((path, file.header));
    }
    let Some((_, header)) = first else { bail!("no label file given") };
    let count = header.shard.count;
    if shards.len() as u64 != count && !allow_missing {
        bail!(
            "shards missing: {} (give them, or --allow-missing)",
            shards_not_given(count, |index| shards.contains_key(&index))
        );
    }
    let header = LabelHeader { shard: Shard::WHOLE, ..header };
    let mut bytes = header.bytes();
    for label in &labels {
        bytes.extend_from_slice(&chunk(label));
    }
    play::files::write_atomically(out, &bytes).with_context(|| format!("cannot write {}", out.display()))?;
    Ok(labels.len() as u64)
}

impl LabelFile {
    /// Each label's symmetry class, in order.
    ///
    /// # Panics
    /// Never: [`LabelFile::read`] checked every label's moves.
    #[must_use]
    pub fn keys_in_order(&self) -> Vec<u64> {
        let rules = self.header.settings.rules;
        self.labels
            .iter()
            .map(|label| label.position(rules).expect("checked on reading").canonical().0)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(shard: Shard) -> LabelHeader {
        LabelHeader {
            settings: LabelSettings {
                rules: "15,15,5".parse().unwrap(),
                judge: "alphabeta".to_owned(),
                nodes: Some(1000),
                ms: None,
                scale: 1130.0,
                from_ply: 2,
            },
            shard,
            sources: vec!["a.jsonl".to_owned()],
        }
    }

    fn label(moves: &[u16], game: u64) -> Label {
        Label {
            moves: moves.to_vec(),
            value: Some(35.0),
            win_in: None,
            chance: 0.6,
            best: Some(7 << 8 | 9),
            result: 1,
            game,
        }
    }

    #[test]
    fn labels_read_back_and_a_torn_tail_is_cut_on_resume() {
        let dir = tempfile_dir("labels-resume");
        let path = dir.join("labels.bin");
        let mut writer = LabelWriter::create(&path, &header(Shard::WHOLE)).unwrap();
        writer.append(&label(&[7 << 8 | 7, 8 << 8 | 8], 1)).unwrap();
        writer.append(&label(&[7 << 8 | 7, 8 << 8 | 8, 6 << 8 | 6], 1)).unwrap();
        drop(writer);
        assert!(
            LabelWriter::create(&path, &header(Shard::WHOLE)).is_err(),
            "a file with labels is not overwritten"
        );
        let whole = std::fs::read(&path).unwrap();
        std::fs::write(&path, &whole[..whole.len() - 5]).unwrap();
        let read = LabelFile::read(&path).unwrap();
        assert!(read.torn_tail);
        assert_eq!(read.labels, vec![label(&[7 << 8 | 7, 8 << 8 | 8], 1)]);
        let mut writer = LabelWriter::resume(&path, &read).unwrap();
        writer.append(&label(&[7 << 8 | 7, 8 << 8 | 8, 6 << 8 | 6], 1)).unwrap();
        drop(writer);
        let again = LabelFile::read(&path).unwrap();
        assert!(!again.torn_tail);
        assert_eq!(again.labels.len(), 2);
        assert_eq!(again.keys().len(), 2);
    }

    #[test]
    fn damage_and_other_files_are_refused_with_reasons() {
        let dir = tempfile_dir("labels-damage");
        let path = dir.join("labels.bin");
        let mut writer = LabelWriter::create(&path, &header(Shard::WHOLE)).unwrap();
        writer.append(&label(&[7 << 8 | 7], 1)).unwrap();
        drop(writer);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 9;
        bytes[last] ^= 0x40;
        std::fs::write(&path, &bytes).unwrap();
        let error = LabelFile::read(&path).unwrap_err().to_string();
        assert!(error.contains("damaged"), "{error}");
        std::fs::write(&path, b"{\"header\":1}\n").unwrap();
        assert!(LabelFile::read(&path).unwrap_err().to_string().contains("not a label file"));
        // A label whose judge's move is taken is refused.
        let mut writer = {
            std::fs::remove_file(&path).unwrap();
            LabelWriter::create(&path, &header(Shard::WHOLE)).unwrap()
        };
        writer.append(&Label { best: Some(7 << 8 | 7), ..label(&[7 << 8 | 7], 1) }).unwrap();
        drop(writer);
        let error = LabelFile::read(&path).unwrap_err().to_string();
        assert!(error.contains("not a legal move"), "{error}");
    }

    #[test]
    fn shards_merge_whole_once_each_and_other_runs_are_refused() {
        let dir = tempfile_dir("labels-merge");
        let shard = |index: u64, moves: &[&[u16]]| {
            let path = dir.join(format!("shard-{index}.bin"));
            let mut writer = LabelWriter::create(&path, &header(Shard::new(index, 2).unwrap())).unwrap();
            for m in moves {
                writer.append(&label(m, 3)).unwrap();
            }
            path
        };
        let a = shard(0, &[&[7 << 8 | 7]]);
        let b = shard(1, &[&[7 << 8 | 7, 8 << 8 | 8], &[7 << 8 | 7, 9 << 8 | 8]]);
        let out = dir.join("merged.bin");
        assert!(
            merge(std::slice::from_ref(&a), &out, false).unwrap_err().to_string().contains("shards missing")
        );
        assert_eq!(merge(&[a.clone(), b.clone()], &out, false).unwrap(), 3);
        let merged = LabelFile::read(&out).unwrap();
        assert_eq!((merged.header.shard, merged.labels.len()), (Shard::WHOLE, 3));
        assert!(
            merge(&[a.clone(), b.clone()], &out, false).unwrap_err().to_string().contains("already exists")
        );
        assert!(
            merge(&[a.clone(), a], &dir.join("twice.bin"), false)
                .unwrap_err()
                .to_string()
                .contains("both shard")
        );
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mnk-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
