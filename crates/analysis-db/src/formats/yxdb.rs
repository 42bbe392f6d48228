//! The database file of Yixin and of the reference engine (Rapfi's
//! `yxdb`), read into ours and written out of it, so that players bring
//! the databases they have.
//!
//! The file (LZ4-framed or plain; the frame's magic number tells) is a
//! little-endian `u32` count of records, then each record: a `u16` length
//! and the key — rule (0 freestyle, 1 exactly five, 2 renju), width,
//! height, then the black stones and the white ones as `(x, y)` byte
//! pairs (a pair of −1 is a pass) — and a `u16` length and the record:
//! the label (a character: `w` the move that led here wins, `l` loses,
//! `d`, `!` forced, `x` excluded; −1 none; 0 nothing but the key), an
//! `i16` value, an `i16` depth × 4 + bound, and the text: optionally
//! `@BTXT@` and point texts (two hex digits of the point, then the text,
//! lines apart), then a backspace and the comment (backspaces for line
//! breaks). A record of a 0×0 board carries metadata (`charset="UTF-8"`;
//! without it texts are in a legacy code page, kept one character a byte).
//!
//! A file's key is the least of the position's images, stones sorted by
//! `x · 32 + y`: an export writes that image, so the engine finds its
//! records. Values are the engine's units (its evaluations scaled by
//! 200 : 1130 against ours, which the labels of Strength V fitted), a
//! proven result ±(30000 − plies).

use std::io::Read;

use board::{Cell, Position, RuleSet, Rules, Side};
use play::analysis_store::{Bound, Label};
use rusqlite::params;

use crate::{Database, DbError, Record, gui};

/// The LZ4 frame's magic number, as the file's first four bytes.
const LZ4_MAGIC: [u8; 4] = [0x04, 0x22, 0x4D, 0x18];

const TEXTS_HEADER: &str = "@BTXT@";
const METADATA: &str = "charset=\"UTF-8\"";

/// What an import of the partner's file did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct YxdbImport {
    /// Records in the file (metadata not counted).
    pub records: u64,
    /// Records written.
    pub written: u64,
    /// Records left out: a pass anywhere but after its side's stones, or
    /// a position the rules refuse to reach by alternate moves.
    pub skipped: u64,
}

/// What an export to the partner's file did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct YxdbExport {
    /// Records written.
    pub written: u64,
    /// Records of rules the format has no number for (caro, k ≠ 5), or
    /// of a position it cannot hold (white a stone ahead of black).
    pub skipped: u64,
}

/// The file's bytes, read with the place kept for errors.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    record: u64,
}

impl Reader<'_> {
    fn error(&self, why: &str) -> DbError {
        DbError::Record(format!("the database file at byte {} (record {}): {why}", self.at, self.record))
    }

    fn take(&mut self, count: usize) -> Result<&[u8], DbError> {
        let end = self.at.checked_add(count).filter(|&end| end <= self.bytes.len());
        let end = end.ok_or_else(|| self.error("it ends inside a record"))?;
        let taken = &self.bytes[self.at..end];
        self.at = end;
        Ok(taken)
    }

    fn u16(&mut self) -> Result<usize, DbError> {
        let bytes = self.take(2)?;
        Ok(usize::from(u16::from_le_bytes([bytes[0], bytes[1]])))
    }
}

/// Whether the file at `path` starts as a Yixin database file does: an
/// LZ4 frame, or a count and the charset record (or a first key of a
/// known rule on a board).
pub(crate) fn looks_like_yxdb(path: &std::path::Path) -> bool {
    let mut start = [0u8; 12];
    let Ok(mut file) = std::fs::File::open(path) else { return false };
    if file.read_exact(&mut start).is_err() {
        return false;
    }
    start.starts_with(&LZ4_MAGIC)
        || (u16::from_le_bytes([start[4], start[5]]) % 2 == 1
            && start[6] <= 2
            && start[7] <= 32
            && start[8] <= 32)
}

/// The file unpacked, if it is LZ4-framed.
fn unpack(bytes: &[u8]) -> Result<std::borrow::Cow<'_, [u8]>, DbError> {
    if !bytes.starts_with(&LZ4_MAGIC) {
        return Ok(bytes.into());
    }
    let limit = crate::import_limit();
    let mut unpacked = Vec::new();
    lz4_flex::frame::FrameDecoder::new(bytes)
        .take(limit.saturating_add(1))
        .read_to_end(&mut unpacked)
        .map_err(|error| DbError::Record(format!("the LZ4-packed database file does not unpack: {error}")))?;
    if unpacked.len() as u64 > limit {
        return Err(DbError::Record(format!(
            "the LZ4-packed database file unpacks past {} MiB, the most read (MNK_MAX_FILE_MIB raises it)",
            limit >> 20
        )));
    }
    Ok(unpacked.into())
}

/// The rules of a file's rule number on a board.
fn rules_of(rule: u8, width: u8, height: u8) -> Result<Rules, String> {
    let rule_set = match rule {
        0 => RuleSet::Freestyle,
        1 => RuleSet::Exact,
        2 => RuleSet::Renju,
        other => return Err(format!("rule {other} is none of 0 (freestyle), 1 (exactly five), 2 (renju)")),
    };
    Rules::new(u32::from(width), u32::from(height), 5, rule_set).map_err(|error| error.to_string())
}

fn rule_number(rules: Rules) -> Option<u8> {
    if rules.k() != 5 {
        return None;
    }
    match rules.rule_set() {
        RuleSet::Freestyle => Some(0),
        RuleSet::Exact => Some(1),
        RuleSet::Renju => Some(2),
        RuleSet::Caro | RuleSet::CaroFreestyle => None,
    }
}

fn label_from_file(byte: u8) -> Label {
    gui::label_of_char(byte).unwrap_or(Label::None)
}

fn label_to_file(record: &Record) -> u8 {
    // (−1: none.)
    gui::label_char(record.label).unwrap_or(0xFF)
}

fn bound_from_file(bits: i16) -> Option<Bound> {
    match bits & 3 {
        1 => Some(Bound::Upper),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Exact),
        _ => None,
    }
}

fn bound_to_file(bound: Bound) -> i16 {
    match bound {
        Bound::Upper => 1,
        Bound::Lower => 2,
        Bound::Exact => 3,
    }
}

/// Bytes as text: UTF-8 when the file says so (or they are), else one
/// character a byte.
fn text_of(bytes: &[u8], utf8: bool) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) if utf8 || bytes.is_ascii() => text.to_owned(),
        _ => bytes.iter().map(|&byte| char::from(byte)).collect(),
    }
}

fn hex_digit(value: u8) -> char {
    char::from_digit(u32::from(value), 32).map_or('?', |c| c.to_ascii_uppercase())
}

fn digit_of(c: char) -> Option<u8> {
    c.to_digit(32).map(|d| d as u8)
}

/// The comment and the point texts of a record's text.
fn split_text(text: &str) -> (String, Vec<(u8, u8, String)>) {
    let Some(rest) = text.strip_prefix(TEXTS_HEADER) else {
        return (text.replace('\u{8}', "\n"), Vec::new());
    };
    let (texts, comment) = rest.split_once('\u{8}').unwrap_or((rest, ""));
    let points = texts
        .split('\n')
        .filter_map(|pair| {
            let mut chars = pair.chars();
            let (x, y) = (digit_of(chars.next()?)?, digit_of(chars.next()?)?);
            let text: String = chars.collect();
            (!text.is_empty()).then_some((x, y, text))
        })
        .collect();
    (comment.replace('\u{8}', "\n"), points)
}

impl Database {
    /// Reads a database file of Yixin or of the reference engine (plain or
    /// LZ4-packed) into this one, in one transaction: each record replaces
    /// the position's; a file that does not read changes nothing, and the
    /// error says at which byte and record.
    ///
    /// # Errors
    /// [`DbError::Record`] for a file that does not read, [`DbError::ReadOnly`],
    /// or a database that cannot be written.
    pub fn import_yxdb(&mut self, bytes: &[u8]) -> Result<YxdbImport, DbError> {
        let bytes = unpack(bytes)?;
        let mut reader = Reader { bytes: &bytes, at: 0, record: 0 };
        let count = reader.take(4)?;
        let count = u32::from_le_bytes([count[0], count[1], count[2], count[3]]);
        let mut import = YxdbImport::default();
        let mut utf8 = false;
        let mut records = Vec::new();
        for index in 0..count {
            reader.record = u64::from(index);
            let key_len = reader.u16()?;
            if key_len == 0 {
                continue;
            }
            if key_len < 3 || key_len % 2 == 0 {
                return Err(reader.error(&format!("a key of {key_len} bytes: 3 and two a stone")));
            }
            let key = reader.take(key_len)?.to_vec();
            let record_len = reader.u16()?;
            let body = reader.take(record_len)?.to_vec();
            let (rule, width, height) = (key[0], key[1], key[2]);
            if width == 0 && height == 0 {
                utf8 |= body.get(5..).is_some_and(|meta| meta.starts_with(METADATA.as_bytes()));
                continue;
            }
            import.records += 1;
            let rules = rules_of(rule, width, height).map_err(|why| reader.error(&why))?;
            match read_record(rules, &key[3..], &body, utf8) {
                Ok(Some(found)) => records.push(found),
                Ok(None) => import.skipped += 1,
                Err(why) => return Err(reader.error(&why)),
            }
        }
        if reader.at != bytes.len() {
            return Err(reader.error("bytes after the last record"));
        }
        import.written = self.write(|database| {
            for (pos, record) in &records {
                database.put_in(pos, record)?;
            }
            Ok(records.len() as u64)
        })?;
        Ok(import)
    }

    /// Every record (of the rules the format numbers) as a plain database
    /// file of Yixin and of the reference engine, in its order.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] if the file cannot be read, [`DbError::Record`]
    /// for a damaged record.
    pub fn export_yxdb(&self) -> Result<(Vec<u8>, YxdbExport), DbError> {
        let mut export = YxdbExport::default();
        let mut entries: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        for (rules, key) in self.all_keys()? {
            let Some(rule) = rule_number(rules) else {
                export.skipped += 1;
                continue;
            };
            let pos = crate::formats::csv::position_of_key(rules, &key).map_err(|why| {
                DbError::Record(format!("{}: a record's position is damaged: {why}", self.path().display()))
            })?;
            let Some(record) = self.get(&pos)? else { continue };
            match entry(rule, &pos, &record) {
                Some(entry) => entries.push(entry),
                None => export.skipped += 1,
            }
        }
        // The file's order: rule, size, stone count, stones, side to move.
        entries.sort_by(|(a, _), (b, _)| {
            (a[..3].cmp(&b[..3])).then(a.len().cmp(&b.len())).then_with(|| a[3..].cmp(&b[3..]))
        });
        let mut out = Vec::new();
        out.extend((entries.len() as u32 + 1).to_le_bytes());
        let mut metadata = vec![0u8; 5];
        metadata.extend(METADATA.as_bytes());
        for (key, body) in std::iter::once((vec![0u8; 3], metadata)).chain(entries) {
            out.extend((key.len() as u16).to_le_bytes());
            out.extend(&key);
            out.extend((body.len() as u16).to_le_bytes());
            out.extend(&body);
            export.written += 1;
        }
        export.written -= 1;
        Ok((out, export))
    }

    /// Every record's rules and key.
    fn all_keys(&self) -> Result<Vec<(Rules, Vec<u8>)>, DbError> {
        let mut statement = self
            .connection()
            .prepare("SELECT rules, key FROM positions ORDER BY rules, key")
            .map_err(|source| self.sqlite(source))?;
        let rows: Vec<(String, Vec<u8>)> = statement
            .query_map(params![], |row| Ok((row.get(0)?, row.get(1)?)))
            .and_then(Iterator::collect)
            .map_err(|source| self.sqlite(source))?;
        rows.into_iter()
            .map(|(text, key)| {
                let rules = text.parse().map_err(|_| {
                    DbError::Record(format!("{}: records of unknown rules {text:?}", self.path().display()))
                })?;
                Ok((rules, key))
            })
            .collect()
    }
}

/// One record of the file as ours: `None` for a position we do not keep
/// (a pass not after its side's stones, or stones no game reaches).
fn read_record(
    rules: Rules,
    stones: &[u8],
    body: &[u8],
    utf8: bool,
) -> Result<Option<(Position, Record)>, String> {
    let count = stones.len() / 2;
    let (black, white) = (count.div_ceil(2), count / 2);
    let mut cells = [Vec::new(), Vec::new()];
    for (i, pair) in stones.chunks(2).enumerate() {
        let (x, y) = (pair[0] as i8, pair[1] as i8);
        if (x, y) == (-1, -1) {
            // A pass, the last of its side's stones: counted for the side
            // to move, not a stone. Anywhere else the file says no position.
            if i + 1 == black || i + 1 == count {
                continue;
            }
            return Ok(None);
        }
        let cell = rules.cell(i32::from(x), i32::from(y)).ok_or_else(|| {
            format!("a stone at {x},{y} is off the {}×{} board", rules.width(), rules.height())
        })?;
        cells[usize::from(i >= black)].push(cell);
    }
    let to_move = if black == white { Side::X } else { Side::O };
    let Ok(pos) = crate::formats::csv::position_of(rules, to_move, &cells[0], &cells[1]) else {
        return Ok(None);
    };
    let mut record = Record::default();
    if let Some(&label) = body.first() {
        record.label = label_from_file(label);
    }
    if body.len() >= 5 {
        let value = i16::from_le_bytes([body[1], body[2]]);
        let depth_bound = i16::from_le_bytes([body[3], body[4]]);
        if let Some(bound) = bound_from_file(depth_bound) {
            record.value = Some(gui::value_from_reference(value));
            record.bound = bound;
            record.depth = u32::try_from(depth_bound >> 2).ok();
        }
        let (comment, points) = split_text(&text_of(&body[5..], utf8));
        record.comment = comment;
        for (x, y, text) in points {
            let cell = rules
                .cell(i32::from(x), i32::from(y))
                .ok_or_else(|| format!("a text at {x},{y} is off the board"))?;
            record.texts.push((cell, text.chars().take(crate::MAX_TEXT_CHARS).collect()));
        }
    }
    Ok(Some((pos, record)))
}

/// The file's key and record of `pos`: the least image, stones sorted,
/// and a pass (−1, −1) after the stones of the side that passed where
/// the stones alone do not give the side to move; `None` for a position
/// the file cannot hold (white a stone ahead: black passed before it).
fn entry(rule: u8, pos: &Position, record: &Record) -> Option<(Vec<u8>, Vec<u8>)> {
    let rules = pos.rules();
    let (x, o) = (pos.marks(Side::X).count(), pos.marks(Side::O).count());
    if o > x {
        return None;
    }
    let by_count = if (x + o) % 2 == 0 { Side::X } else { Side::O };
    let passed = (by_count != pos.side_to_move()).then_some(by_count);
    let image = |transform: board::Transform| -> Vec<u8> {
        let mut key = vec![rule, rules.width(), rules.height()];
        for side in [Side::X, Side::O] {
            let mut stones: Vec<(u8, u8)> = pos
                .marks(side)
                .into_iter()
                .map(|cell| {
                    let cell = transform.apply(cell, rules);
                    (cell.x(), cell.y())
                })
                .collect();
            stones.sort_unstable();
            key.extend(stones.into_iter().flat_map(|(x, y)| [x, y]));
            if passed == Some(side) {
                key.extend([0xFF, 0xFF]);
            }
        }
        key
    };
    let images: Vec<(Vec<u8>, board::Transform)> =
        rules.symmetries().iter().map(|&transform| (image(transform), transform)).collect();
    let key = images.iter().map(|(key, _)| key).min().cloned().unwrap_or_default();
    // A symmetric position has several transforms to the least image: a
    // text goes to the first in row order of the points they give, where
    // the reference engine looks it up.
    let onto: Vec<board::Transform> =
        images.iter().filter(|(image, _)| *image == key).map(|&(_, transform)| transform).collect();
    let mut body = vec![label_to_file(record)];
    let (value, depth_bound) = match record.value {
        Some(value) => {
            let depth = i16::try_from(record.depth.unwrap_or(0)).unwrap_or(i16::MAX >> 2).min(i16::MAX >> 2);
            (gui::value_to_reference(value), (depth << 2) | bound_to_file(record.bound))
        }
        None => (0, 0),
    };
    body.extend(value.to_le_bytes());
    body.extend(depth_bound.to_le_bytes());
    let mut text = String::new();
    if !record.texts.is_empty() {
        text.push_str(TEXTS_HEADER);
        let pairs: Vec<String> = record
            .texts
            .iter()
            .map(|(cell, point_text)| {
                let cell: Cell = crate::storage::key::canonical_point(pos, *cell, &onto);
                format!("{}{}{point_text}", hex_digit(cell.x()), hex_digit(cell.y()))
            })
            .collect();
        text.push_str(&pairs.join("\n"));
        if !record.comment.is_empty() {
            text.push('\u{8}');
        }
    }
    text.push_str(&record.comment.replace('\n', "\u{8}"));
    body.extend(text.as_bytes());
    Some((key, body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_split_into_comment_and_points() {
        let (comment, points) = split_text("@BTXT@77ab\nA3c\u{8}first\u{8}second");
        assert_eq!(comment, "first\nsecond");
        assert_eq!(points, [(7, 7, "ab".to_owned()), (10, 3, "c".to_owned())]);
        assert_eq!(split_text("plain\u{8}two"), ("plain\ntwo".to_owned(), Vec::new()));
    }
}
