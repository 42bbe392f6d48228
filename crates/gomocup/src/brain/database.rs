//! The analysis database as Yixin-Board uses it through a brain: which
//! file (`INFO usedatabase`, `YXSETDATABASE`, `INFO database_readonly`),
//! what it holds of a position and of the points one move on (shown on
//! the board), edits, deletions, and files in and out (CSV, RenLib
//! `.lib`, another database merged or split off).
//!
//! The GUI's labels are the mover's (`w`: the move that led here wins),
//! ours the side to move's; values are the engine's own units, a proven
//! result as ±(30000 − plies).

use std::path::{Path, PathBuf};

use analysis_db::{Database, Prune, Record, SharedDatabase, gui};
use board::{Cell, Position, Rules};
use play::analysis_store::{Bound, Label};

use super::State;
use super::refusal::{Refusal, Reply};
use crate::database_command::{DatabaseCommand, DeleteFilter, Picks, Query, quote};
use crate::protocol::format_cell;

/// The file `INFO usedatabase 1` opens when no `YXSETDATABASE` named one:
/// `$MNK_DATABASE`, else this name in the working directory.
pub const DEFAULT_DATABASE: &str = "mnk-analysis.db";

/// The database the brain uses, if any.
#[derive(Default)]
pub(super) struct DatabaseUse {
    /// Set by `INFO usedatabase` or `YXSETDATABASE`.
    pub(super) path: Option<PathBuf>,
    pub(super) read_only: bool,
    /// Opened once, and shared with the engine's searches.
    pub(super) open: Option<SharedDatabase>,
}

impl DatabaseUse {
    /// The file `INFO usedatabase 1` means.
    fn default_path() -> PathBuf {
        std::env::var_os("MNK_DATABASE")
            .filter(|path| !path.is_empty())
            .map_or(DEFAULT_DATABASE.into(), PathBuf::from)
    }
}

/// What the database use means for the engine: the opened database and
/// whether it writes, for [`super::Resources`].
pub(super) fn engine_database(database: &DatabaseUse) -> Option<(SharedDatabase, bool)> {
    database.open.as_ref().map(|open| (open.clone(), !database.read_only))
}

impl State<'_> {
    /// `INFO usedatabase` (`on`) and `INFO database_readonly`.
    pub(super) fn use_database(&mut self, path: Option<PathBuf>, read_only: Option<bool>) -> Option<Refusal> {
        if let Some(read_only) = read_only {
            self.database.read_only = read_only;
        }
        if let Some(path) = path {
            self.database.path = Some(path);
        }
        let opened = self.database.path.as_ref().map(|path| {
            if self.database.read_only && path.exists() {
                Database::open_read_only(path)
            } else {
                Database::open(path)
            }
        });
        let mut said = None;
        self.database.open = match opened {
            Some(Ok(database)) => Some(SharedDatabase::new(database)),
            Some(Err(error)) => {
                said = Some(Refusal::new(format!("the database cannot be used: {error}")));
                self.database.path = None;
                None
            }
            None => None,
        };
        let resources =
            super::Resources { database: engine_database(&self.database), ..self.resources.clone() };
        let rebuilt = self.rebuild(resources);
        said.or(rebuilt)
    }

    /// `INFO usedatabase n`.
    pub(super) fn database_switch(&mut self, on: bool) -> Option<Refusal> {
        if on {
            let path = self.database.path.clone().unwrap_or_else(DatabaseUse::default_path);
            self.use_database(Some(path), None)
        } else {
            self.database.path = None;
            self.use_database(None, None)
        }
    }

    /// A database command, with the position its moves give (`moves`
    /// `None`: the game's position).
    pub(super) fn database_command(
        &mut self,
        command: DatabaseCommand,
        moves: Option<&[Cell]>,
    ) -> Option<Reply> {
        if let DatabaseCommand::Set(path) = command {
            return self.use_database(Some(PathBuf::from(path)), None).map(Err);
        }
        let Some(rules) = self.rules else { return Some(Err(Refusal::new("no game: send START first"))) };
        let pos = match moves {
            Some(moves) => {
                let mut pos = Position::new(rules);
                for &cell in moves {
                    if let Err(error) = pos.play(cell) {
                        return Some(Err(Refusal::new(format!(
                            "the database position at {}: {error}",
                            format_cell(cell)
                        ))));
                    }
                }
                pos
            }
            None => match self.position() {
                Ok(pos) => pos,
                Err(error) => return Some(Err(Refusal::new(error))),
            },
        };
        let Some(shared) = self.database.open.clone() else {
            return Some(Ok(
                "MESSAGE no database in use: send INFO usedatabase 1 or YXSETDATABASE".to_owned()
            ));
        };
        let mut database = shared.lock();
        let read_only = database.is_read_only();
        let writes = matches!(
            command,
            DatabaseCommand::EditValue { .. }
                | DatabaseCommand::EditComment(_)
                | DatabaseCommand::EditPointText(..)
                | DatabaseCommand::DeleteOne
                | DatabaseCommand::DeleteAll(_)
                | DatabaseCommand::LibToDb(_)
                | DatabaseCommand::Merge(_)
        );
        if writes && read_only {
            return Some(Ok(
                "MESSAGE the database is read-only (INFO database_readonly 1): nothing was written"
                    .to_owned(),
            ));
        }
        match run(&mut database, command, &pos, rules) {
            // An edit says nothing.
            Ok(answer) if answer.is_empty() => None,
            Ok(answer) => Some(Ok(answer)),
            Err(error) => Some(Err(Refusal::new(error))),
        }
    }
}

/// Runs a command on `database` at `pos`.
fn run(
    database: &mut Database,
    command: DatabaseCommand,
    pos: &Position,
    rules: Rules,
) -> Result<String, String> {
    let error = |error: analysis_db::DbError| error.to_string();
    Ok(match command {
        DatabaseCommand::Set(_) => unreachable!("handled before"),
        DatabaseCommand::Save => {
            "MESSAGE the database is saved: every change is committed as it is made".to_owned()
        }
        DatabaseCommand::Query(query) => {
            let mut lines = Vec::new();
            if matches!(query, Query::All | Query::AllAndComment) {
                // (A read writes nothing, as the reference's does not.)
                lines.extend(board_lines(database, pos).map_err(error)?);
            }
            if query == Query::One {
                lines.push(one_line(database.get(pos).map_err(error)?.as_ref()));
            }
            if matches!(query, Query::AllAndComment | Query::Comment) {
                let comment =
                    database.get(pos).map_err(error)?.map(|record| record.comment).unwrap_or_default();
                lines.push(format!("MESSAGE DATABASE TEXT {}", quote(&comment)));
            }
            lines.join("\n")
        }
        DatabaseCommand::EditValue { mask, label, value, depth } => {
            let mut record = database.get(pos).map_err(error)?.unwrap_or_default();
            if mask & 1 != 0 {
                record.label = label_from_protocol(label)?;
            }
            if mask & 2 != 0 {
                record.value = Some(value_from_protocol(value));
            }
            if mask & 4 != 0 {
                record.depth = u32::try_from(depth).ok();
                record.bound = Bound::Exact;
            }
            database.put(pos, &record).map_err(error)?;
            one_line(Some(&record))
        }
        DatabaseCommand::EditComment(comment) => {
            let mut record = database.get(pos).map_err(error)?.unwrap_or_default();
            record.comment = comment;
            database.put(pos, &record).map_err(error)?;
            String::new()
        }
        DatabaseCommand::EditPointText(cell, text) => {
            if !rules.contains(cell) {
                return Err(format!("{} is off the board", format_cell(cell)));
            }
            let mut record = database.get(pos).map_err(error)?.unwrap_or_default();
            record.set_text(pos, cell, Some(text));
            database.put(pos, &record).map_err(error)?;
            String::new()
        }
        DatabaseCommand::DeleteOne => {
            database.delete(pos).map_err(error)?;
            String::new()
        }
        DatabaseCommand::DeleteAll(filter) => {
            let started = std::time::Instant::now();
            let deleted = database.delete_below(pos, |record| prune(filter, record)).map_err(error)?;
            if let Some(mut record) = database.get(pos).map_err(error)?
                && !record.texts.is_empty()
            {
                record.texts.clear();
                database.put(pos, &record).map_err(error)?;
            }
            let mut lines = vec![format!(
                "MESSAGE Done deleting {deleted} records in {} ms",
                started.elapsed().as_millis()
            )];
            lines.extend(board_lines(database, pos).map_err(error)?);
            lines.join("\n")
        }
        command => files(database, command, pos, rules)?,
    })
}

/// The commands that read or write other files.
fn files(
    database: &mut Database,
    command: DatabaseCommand,
    pos: &Position,
    rules: Rules,
) -> Result<String, String> {
    let other = match &command {
        DatabaseCommand::ToText { path, .. }
        | DatabaseCommand::DbToLib(path)
        | DatabaseCommand::Merge(path)
        | DatabaseCommand::Split(path) => Some(path),
        _ => None,
    };
    if let Some(path) = other
        && play::files::same_file(database.path(), std::path::Path::new(path))
    {
        return Err(format!("{path} is the database in use: name another file"));
    }
    let error = |error: analysis_db::DbError| error.to_string();
    Ok(match command {
        DatabaseCommand::ToText { all, path } => {
            let csv = database.to_csv(if all { None } else { Some(rules) }).map_err(error)?;
            play::files::write_atomically(std::path::Path::new(&path), csv.as_bytes())
                .map_err(|why| format!("cannot write {path}: {why}"))?;
            format!("MESSAGE wrote {} records as CSV to {path}", csv.lines().count().saturating_sub(1))
        }
        DatabaseCommand::LibToDb(path) => {
            let bytes = analysis_db::read_import(Path::new(&path))
                .map_err(|why| format!("cannot read {path}: {why}"))?;
            let started = std::time::Instant::now();
            let import = database
                .import_lib(&bytes, rules)
                .map_err(|why| format!("{path}: {why}; nothing was imported"))?;
            format!(
                "MESSAGE Imported {} records from {} nodes of {path} in {} ms ({} nodes left out)",
                import.written,
                import.nodes,
                started.elapsed().as_millis(),
                import.skipped
            )
        }
        DatabaseCommand::DbToLib(path) => {
            let started = std::time::Instant::now();
            let (bytes, nodes) = database.export_lib(pos).map_err(error)?;
            play::files::write_atomically(std::path::Path::new(&path), &bytes)
                .map_err(|why| format!("cannot write {path}: {why}"))?;
            format!("MESSAGE Exported {nodes} nodes to {path} in {} ms", started.elapsed().as_millis())
        }
        DatabaseCommand::Merge(path) => {
            let (added, changed) = database.merge_from(std::path::Path::new(&path)).map_err(error)?;
            format!("MESSAGE Merged {path}: {added} records added, {changed} changed")
        }
        DatabaseCommand::Split(path) => {
            let mut other = Database::open(std::path::Path::new(&path)).map_err(error)?;
            let copied = database.split_into(pos, &mut other).map_err(error)?;
            format!("MESSAGE Wrote {copied} records into {path}")
        }
        _ => unreachable!("run answers the others"),
    })
}

/// `MESSAGE DATABASE REFRESH`, a line per point whose move leads to a
/// record or that has a text, `MESSAGE DATABASE DONE`.
fn board_lines(database: &Database, pos: &Position) -> Result<Vec<String>, analysis_db::DbError> {
    let rules = *pos.rules();
    let own = database.get(pos)?.unwrap_or_default();
    let mut points: Vec<(Cell, Option<Record>)> =
        database.children(pos)?.into_iter().map(|(cell, record)| (cell, Some(record))).collect();
    // A text shows on every image of its point (a symmetric position).
    for (cell, _) in &own.texts {
        for image in analysis_db::point_images(pos, *cell) {
            if !points.iter().any(|(at, _)| *at == image) && pos.get(image).is_none() {
                points.push((image, None));
            }
        }
    }
    points.sort_by_key(|(cell, _)| rules.dense_index(*cell));
    let mut lines = vec!["MESSAGE DATABASE REFRESH".to_owned()];
    for (cell, record) in points {
        let text = own.text_at(pos, cell).unwrap_or("");
        let record = record.unwrap_or_default();
        lines.push(format!(
            "MESSAGE DATABASE {} {} {} {} {} {} {} {text}",
            cell.x(),
            cell.y(),
            packed(&gui::display_label(&record)),
            value_to_protocol(record.value),
            record.depth.unwrap_or(0),
            bound_to_protocol(&record),
            u8::from(!record.comment.is_empty()),
        ));
    }
    lines.push("MESSAGE DATABASE DONE".to_owned());
    Ok(lines)
}

/// `MESSAGE DATABASE ONE label value depth bound display` (all 0 for no
/// record).
fn one_line(record: Option<&Record>) -> String {
    let Some(record) = record else { return "MESSAGE DATABASE ONE 0 0 0 0".to_owned() };
    format!(
        "MESSAGE DATABASE ONE {} {} {} {} {}",
        label_to_protocol(record.label),
        value_to_protocol(record.value),
        record.depth.unwrap_or(0),
        bound_to_protocol(record),
        gui::display_label(record)
    )
    .trim_end()
    .to_owned()
}

/// A label as the GUI numbers it: a character's code, the mover's view.
fn label_to_protocol(label: Label) -> i32 {
    gui::label_char(label).map_or(-1, i32::from)
}

fn label_from_protocol(code: i32) -> Result<Label, String> {
    if code == -1 || code == 0 {
        return Ok(Label::None);
    }
    u8::try_from(code)
        .ok()
        .and_then(gui::label_of_char)
        .ok_or_else(|| format!("label {code} is none of W, L, D, X, ! (their character codes) or -1"))
}

/// Our value in the protocol's units: the reference's.
fn value_to_protocol(value: Option<i32>) -> i32 {
    value.map_or(0, |value| i32::from(gui::value_to_reference(value)))
}

fn value_from_protocol(value: i32) -> i32 {
    gui::value_from_reference(value.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16)
}

/// The bound as the GUI numbers it (0 none, 1 upper, 2 lower, 3 exact).
fn bound_to_protocol(record: &Record) -> u8 {
    match (record.value, record.bound) {
        (None, _) => 0,
        (Some(_), Bound::Upper) => 1,
        (Some(_), Bound::Lower) => 2,
        (Some(_), Bound::Exact) => 3,
    }
}

/// Up to four characters in one number, the first in the highest byte
/// (−1 for none), as the GUI reads a point's label.
fn packed(label: &str) -> i64 {
    if label.is_empty() {
        return -1;
    }
    label.bytes().take(4).fold(0, |packed, byte| (packed << 8) | i64::from(byte))
}

/// What `filter` does with a record below the position.
fn prune(filter: DeleteFilter, record: &Record) -> Prune {
    let mover_wins = record.label == Label::Loss;
    let mover_loses = record.label == Label::Win;
    let decided = mover_wins || mover_loses;
    let distance = gui::mate_steps(record);
    let picked = match filter.picks {
        Picks::Everything => true,
        Picks::NotWinOrLoss => !decided,
        Picks::NotDecided => !decided && record.label != Label::Draw,
        Picks::Win => mover_wins,
        Picks::Loss => mover_loses,
        Picks::WinOrLoss => decided,
        Picks::Decided => decided || record.label == Label::Draw,
        Picks::WinOrLossWithoutDistance => decided && distance.is_none(),
        Picks::WinOrLossWithin(moves) => decided && distance.is_some_and(|distance| distance <= moves),
    };
    match (picked, filter.recursive) {
        (true, _) => Prune::Branch,
        (false, true) => Prune::Look,
        (false, false) => Prune::Keep,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_cross_the_protocol_in_the_references_units() {
        for theirs in [0, 1, -1, 141, -5_999, 29_993, -29_988] {
            assert_eq!(value_to_protocol(Some(value_from_protocol(theirs))), theirs, "{theirs}");
        }
        assert_eq!(value_to_protocol(Some(-797)), -141);
        assert_eq!(value_to_protocol(Some(play::PROVEN_WIN - 7)), 29_993);
    }

    #[test]
    fn labels_cross_the_protocol_and_back() {
        for label in Label::ALL {
            assert_eq!(label_from_protocol(label_to_protocol(label)), Ok(label));
        }
        assert_eq!(label_from_protocol(i32::from(b'W')), Ok(Label::Loss));
        assert!(label_from_protocol(5).is_err());
    }

    #[test]
    fn labels_show_as_the_gui_packs_them() {
        assert_eq!(packed("w3"), i64::from(b'w') << 8 | i64::from(b'3'));
        assert_eq!(packed(""), -1);
    }
}
