//! The records as CSV, one a line, for spreadsheets and scripts — and
//! read back, in one transaction.
//!
//! Columns: `rules` (as `15,15,5,renju`), `to_move` (`x` or `o`), `x` and
//! `o` (the stones of the record's canonical image, cell names apart by
//! spaces), `label`, `value`, `depth`, `bound`, `marked` (0 or 1),
//! `comment`, and `texts` (`h8=ab j9=c`). A field with a comma, a quote or
//! a line break is quoted, quotes doubled.

use board::{Bitboard, Cell, Position, Rules, Side};
use play::analysis_store::{Bound, Label};
use rusqlite::params;

use crate::storage::tree::cell_at;
use crate::{Database, DbError, Record};

const HEADER: &str = "rules,to_move,x,o,label,value,depth,bound,marked,comment,texts";

impl Database {
    /// Every record as CSV (of `only` these rules, if given), by rules
    /// then key.
    ///
    /// # Errors
    /// [`DbError::Sqlite`] if the file cannot be read, [`DbError::Record`]
    /// for a damaged record.
    pub fn to_csv(&self, only: Option<Rules>) -> Result<String, DbError> {
        let mut out = format!("{HEADER}\n");
        let mut statement = self
            .connection()
            .prepare("SELECT DISTINCT rules FROM positions ORDER BY rules")
            .map_err(|source| self.sqlite(source))?;
        let all_rules: Vec<String> = statement
            .query_map([], |row| row.get(0))
            .and_then(Iterator::collect)
            .map_err(|source| self.sqlite(source))?;
        let only = only.map(|rules| rules.to_string());
        for text in all_rules.into_iter().filter(|text| only.as_ref().is_none_or(|only| only == text)) {
            let rules: Rules = text.parse().map_err(|_| {
                DbError::Record(format!("{}: records of unknown rules {text:?}", self.path().display()))
            })?;
            let mut keys = self
                .connection()
                .prepare("SELECT key FROM positions WHERE rules = ?1 ORDER BY key")
                .map_err(|source| self.sqlite(source))?;
            let keys: Vec<Vec<u8>> = keys
                .query_map(params![text], |row| row.get(0))
                .and_then(Iterator::collect)
                .map_err(|source| self.sqlite(source))?;
            for key in keys {
                let pos = position_of_key(rules, &key).map_err(|why| {
                    DbError::Record(format!(
                        "{}: a record's position is damaged: {why}",
                        self.path().display()
                    ))
                })?;
                let Some(record) = self.get(&pos)? else { continue };
                out.push_str(&line(&pos, &record));
                out.push('\n');
            }
        }
        Ok(out)
    }

    /// Reads records from CSV as [`Database::to_csv`] writes them, each
    /// replacing the position's record, all in one transaction: a line
    /// that does not read changes nothing, and the error names it.
    ///
    /// # Errors
    /// [`DbError::Record`] for a line that does not read (with its
    /// number), [`DbError::ReadOnly`], or a file that cannot be written.
    pub fn import_csv(&mut self, text: &str) -> Result<u64, DbError> {
        let limit = crate::import_limit();
        if text.len() as u64 > limit {
            return Err(DbError::Record(format!(
                "a CSV file of {} bytes: at most {} MiB (MNK_MAX_FILE_MIB raises it)",
                text.len(),
                limit >> 20
            )));
        }
        let rows = split_rows(text).map_err(DbError::Record)?;
        let mut rows = rows.into_iter();
        match rows.next() {
            Some((_, header)) if header.join(",") == HEADER => {}
            _ => return Err(DbError::Record(format!("the CSV file's first line must be {HEADER}"))),
        }
        let records = rows
            .filter(|(_, fields)| fields.iter().any(|field| !field.is_empty()))
            .map(|(number, fields)| {
                read_row(&fields).map_err(|why| DbError::Record(format!("CSV line {number}: {why}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.write(|database| {
            for (pos, record) in &records {
                database.put_in(pos, record)?;
            }
            Ok(records.len() as u64)
        })
    }
}

/// The position a key's bytes spell.
pub(crate) fn position_of_key(rules: Rules, key: &[u8]) -> Result<Position, String> {
    let to_move = if key.first() == Some(&1) { Side::O } else { Side::X };
    let (mut x, mut o) = (Vec::new(), Vec::new());
    for i in 0..rules.area() {
        let mark = key.get(1 + i / 4).map_or(0, |byte| (byte >> (2 * (i % 4))) & 3);
        let cell = cell_at(rules, i).ok_or("a point off the board")?;
        match mark {
            1 => x.push(cell),
            2 => o.push(cell),
            _ => {}
        }
    }
    position_of(rules, to_move, &x, &o)
}

/// The position with these stones and `to_move` to move, as a game by
/// alternate moves could leave it, with a pass where the stones alone do
/// not give `to_move` (a RenLib library may hold passes): the stones set,
/// not replayed (under renju an order that reaches them may not be the
/// sorted one).
pub(crate) fn position_of(rules: Rules, to_move: Side, x: &[Cell], o: &[Cell]) -> Result<Position, String> {
    if x.len().abs_diff(o.len()) > 1 {
        return Err(format!(
            "{} X and {} O stones with {to_move:?} to move: not a position of alternate moves (and passes)",
            x.len(),
            o.len()
        ));
    }
    let board = |cells: &[Cell]| -> Result<Bitboard, String> {
        let mut board = Bitboard::EMPTY;
        for &cell in cells {
            if !rules.contains(cell) {
                return Err(format!("{cell:?} is off the board"));
            }
            board.insert(cell);
        }
        Ok(board)
    };
    // O a stone ahead: X passed before O's last stone.
    let (set_o, last_o) = match o.split_last() {
        Some((&last, rest)) if o.len() > x.len() => (rest, Some(last)),
        _ => (o, None),
    };
    let mut pos = Position::from_setup(rules, board(x)?, board(set_o)?).map_err(|error| error.to_string())?;
    if let Some(cell) = last_o {
        pos.pass();
        pos.play(cell).map_err(|error| error.to_string())?;
    }
    if pos.side_to_move() != to_move && !pos.is_over() {
        pos.pass();
    }
    Ok(pos)
}

fn line(pos: &Position, record: &Record) -> String {
    let rules = pos.rules();
    let names = |side: Side| {
        let mut cells: Vec<Cell> = pos.marks(side).into_iter().collect();
        cells.sort_by_key(|&cell| rules.dense_index(cell));
        cells.iter().map(|cell| cell.name(rules).to_string()).collect::<Vec<_>>().join(" ")
    };
    let texts: Vec<String> =
        record.texts.iter().map(|(cell, text)| format!("{}={text}", cell.name(rules))).collect();
    let fields = [
        rules.to_string(),
        if pos.side_to_move() == Side::X { "x" } else { "o" }.to_owned(),
        names(Side::X),
        names(Side::O),
        record.label.name().to_owned(),
        record.value.map_or(String::new(), |value| value.to_string()),
        record.depth.map_or(String::new(), |depth| depth.to_string()),
        record.bound.name().to_owned(),
        u8::from(record.marked).to_string(),
        record.comment.clone(),
        texts.join(" "),
    ];
    fields.iter().map(|field| quote(field)).collect::<Vec<_>>().join(",")
}

fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

/// The rows of a CSV text, each with the number of the line it starts on.
fn split_rows(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut rows = Vec::new();
    let (mut fields, mut field) = (Vec::new(), String::new());
    let (mut line, mut start, mut quoted) = (1, 1, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => fields.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                fields.push(std::mem::take(&mut field));
                rows.push((start, std::mem::take(&mut fields)));
                line += 1;
                start = line;
            }
            (_, c) => {
                if c == '\n' {
                    line += 1;
                }
                field.push(c);
            }
        }
    }
    if quoted {
        return Err(format!("CSV line {start}: a quoted field is not closed"));
    }
    if !field.is_empty() || !fields.is_empty() {
        fields.push(field);
        rows.push((start, fields));
    }
    Ok(rows)
}

fn read_row(fields: &[String]) -> Result<(Position, Record), String> {
    let [rules, to_move, x, o, label, value, depth, bound, marked, comment, texts] = fields else {
        return Err(format!("{} fields, not 11", fields.len()));
    };
    let rules: Rules = rules.parse().map_err(|error| format!("rules {rules:?}: {error}"))?;
    let cells = |text: &str| -> Result<Vec<Cell>, String> {
        text.split_whitespace()
            .map(|name| rules.parse_cell(name).map_err(|error| format!("{name:?}: {error}")))
            .collect()
    };
    let to_move = match to_move.as_str() {
        "x" => Side::X,
        "o" => Side::O,
        other => return Err(format!("to_move must be x or o, not {other:?}")),
    };
    let pos = position_of(rules, to_move, &cells(x)?, &cells(o)?)?;
    let number = |text: &str, what: &str| -> Result<Option<i64>, String> {
        if text.is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(|_| format!("{what} {text:?} is not a whole number"))
    };
    let texts = texts
        .split_whitespace()
        .map(|item| {
            let (name, text) =
                item.split_once('=').ok_or_else(|| format!("a text {item:?} is not point=text"))?;
            Ok((rules.parse_cell(name).map_err(|error| format!("{name:?}: {error}"))?, text.to_owned()))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let record = Record {
        label: label.parse::<Label>()?,
        value: number(value, "value")?
            .map(|v| i32::try_from(v).map_err(|_| format!("value {v} is out of range")))
            .transpose()?,
        depth: number(depth, "depth")?
            .map(|d| u32::try_from(d).map_err(|_| format!("depth {d} is out of range")))
            .transpose()?,
        bound: bound.parse::<Bound>()?,
        marked: match marked.as_str() {
            "0" | "" => false,
            "1" => true,
            other => return Err(format!("marked must be 0 or 1, not {other:?}")),
        },
        comment: comment.clone(),
        texts,
    };
    Ok((pos, record))
}
