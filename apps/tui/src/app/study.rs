//! An analysis database beside the game (`--database FILE`, or `D` to
//! open one): the board marks each point whose move leads to a record —
//! the move wins (`W`), loses (`L`), draws (`D`), is the only one (`!`),
//! is not to be considered (`~`), or the mover's chance in tenths (`0`–`9`)
//! — and the panel shows the position's record, its comment and the
//! cursor's point. `B` labels the move at the cursor, `C` writes the
//! position's comment, `E` a text on the cursor's point, `G` marks the
//! position. Analysis mode's engine writes what it finds back; review
//! reads it as it steps. The file is shared: a brain or another game may
//! use it at once.

use std::path::{Path, PathBuf};

use analysis_db::{Database, Record, SharedDatabase};
use board::{Cell, Position};
use play::analysis_store::{Bound, Label};
use play::{EVALUATION_SCALE, PROVEN_BOUND, PROVEN_WIN};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::App;

/// The database open beside the game, and what it says of the position
/// on the board (read again when the position changes or after an edit).
#[derive(Debug)]
pub struct Study {
    /// Opened once, and shared with an analysing engine's searches.
    database: SharedDatabase,
    /// The hash of the position read and the file's data version then
    /// (another program's writes change it), `None` to read again.
    read_for: Option<(u64, i64)>,
    own: Option<Record>,
    children: Vec<(Cell, Record)>,
    /// Why the last read or write failed, if it did.
    trouble: Option<String>,
}

impl Study {
    /// The database at `path` (made if missing).
    ///
    /// # Errors
    /// A file that is not an analysis database (left as it is), or one
    /// SQLite cannot open.
    pub fn open(path: &Path) -> Result<Study, String> {
        let database = SharedDatabase::new(Database::open(path).map_err(|error| error.to_string())?);
        Ok(Study { database, read_for: None, own: None, children: Vec::new(), trouble: None })
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.database.path()
    }

    fn read(&mut self, pos: &Position) {
        let version = match self.database.lock().data_version() {
            Ok(version) => version,
            Err(error) => {
                self.trouble = Some(error.to_string());
                return;
            }
        };
        if self.read_for == Some((pos.hash(), version)) {
            return;
        }
        self.read_for = Some((pos.hash(), version));
        let read = {
            let database = self.database.lock();
            database.get(pos).and_then(|own| Ok((own, database.children(pos)?)))
        };
        match read {
            Ok((own, children)) => {
                (self.own, self.children, self.trouble) = (own, children, None);
            }
            Err(error) => self.trouble = Some(error.to_string()),
        }
    }

    /// The record of the move to `cell`, if any.
    fn child(&self, cell: Cell) -> Option<&Record> {
        self.children.iter().find(|(at, _)| *at == cell).map(|(_, record)| record)
    }
}

/// The board's mark for a point whose move leads to `record`: the mover's
/// result, or chance in tenths.
#[must_use]
pub fn point_mark(record: &Record) -> Option<(char, Style)> {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    Some(match record.label {
        Label::Loss => ('W', bold.fg(Color::LightGreen)),
        Label::Win => ('L', bold.fg(Color::LightRed)),
        Label::Draw => ('D', bold.fg(Color::Yellow)),
        Label::Forced => ('!', bold.fg(Color::Cyan)),
        Label::Excluded => ('~', Style::new().fg(Color::DarkGray)),
        Label::None => {
            let chance = mover_chance(record)?;
            let tenth = ((chance * 10.0) as u32).min(9);
            (char::from_digit(tenth, 10).unwrap_or('?'), Style::new().fg(Color::Cyan))
        }
    })
}

/// The chance of the side that moved into `record`'s position, from its
/// exact value.
fn mover_chance(record: &Record) -> Option<f64> {
    let value = record.value.filter(|value| record.bound == Bound::Exact && value.abs() <= PROVEN_BOUND)?;
    Some(1.0 / (1.0 + (EVALUATION_SCALE * f64::from(value)).exp()))
}

/// A record in words, for the mover into its position (`the move wins in
/// 3`) or for the side to move (`own`).
fn describe(record: &Record, own: bool) -> String {
    let distance = record
        .value
        .filter(|value| value.abs() > PROVEN_BOUND)
        .map_or(String::new(), |value| format!(" in {}", (PROVEN_WIN - value.abs() + 1) / 2));
    // A child's label is its side to move's; the mover's result is the other.
    let mut text = match record.label {
        Label::Win | Label::Loss => format!("{}{distance}", record.label_words(own)),
        _ => record.label_words(own).to_owned(),
    };
    if record.label == Label::None
        && let Some(value) = record.value
    {
        let chance = 1.0 / (1.0 + (-EVALUATION_SCALE * f64::from(value)).exp());
        let chance = if own { chance } else { 1.0 - chance };
        text = format!("{:.0}%", chance * 100.0);
    }
    if let Some(depth) = record.depth {
        text = format!("{text} (depth {depth})");
    }
    if record.marked {
        text = format!("{text} ✓marked");
    }
    text.trim().to_owned()
}

/// The label a point cycles to on `B`, the mover's view: none, wins,
/// loses, draws, the only move, not to be considered.
fn next_label(label: Label) -> Label {
    match label {
        Label::None => Label::Loss,
        Label::Loss => Label::Win,
        Label::Win => Label::Draw,
        Label::Draw => Label::Forced,
        Label::Forced => Label::Excluded,
        Label::Excluded => Label::None,
    }
}

impl App {
    /// Opens the database at `path` beside the game.
    ///
    /// # Errors
    /// Why it cannot be used.
    pub fn open_database(&mut self, path: &Path) -> Result<(), String> {
        self.study = Some(Study::open(path)?);
        self.analysis_agent = None;
        self.refresh_study();
        Ok(())
    }

    /// Closes the database (the file stays).
    pub fn close_database(&mut self) {
        self.study = None;
        self.analysis_agent = None;
    }

    /// The database open beside the game, if any.
    #[must_use]
    pub fn study(&self) -> Option<&Study> {
        self.study.as_ref()
    }

    /// Reads the database again for the position on the board, if it changed.
    pub(crate) fn refresh_study(&mut self) {
        if let Some(study) = &mut self.study {
            study.read(&self.pos);
        }
    }

    /// The mark the board shows on `cell` for the database, if any.
    #[must_use]
    pub(crate) fn study_mark(&self, cell: Cell) -> Option<(char, Style)> {
        let study = self.study.as_ref()?;
        let record = study.child(cell);
        record.and_then(point_mark).or_else(|| {
            let text = study.own.as_ref()?.text_at(&self.pos, cell)?;
            Some((text.chars().next()?, Style::new().fg(Color::LightMagenta).add_modifier(Modifier::ITALIC)))
        })
    }

    /// Writes `change` of the record of `pos`, then reads again.
    fn change_record(&mut self, pos: &Position, change: impl FnOnce(&mut Record)) -> Result<(), String> {
        let Some(study) = &mut self.study else { return Err("no database: open one with D".to_owned()) };
        let mut database = study.database.lock();
        let mut record = database.get(pos).map_err(|error| error.to_string())?.unwrap_or_default();
        change(&mut record);
        database.put(pos, &record).map_err(|error| error.to_string())?;
        drop(database);
        study.read_for = None;
        self.refresh_study();
        Ok(())
    }

    /// `B`: the next label of the move at the cursor.
    pub(super) fn label_point(&mut self) {
        let cell = self.cursor;
        if !self.pos.is_legal(cell) {
            self.say("label a move: put the cursor on an empty point");
            return;
        }
        let mut after = self.pos.clone();
        after.play_unchecked(cell);
        let name = cell.name(&self.setup.rules).to_string();
        let mut said = String::new();
        let result = self.change_record(&after, |record| {
            record.label = next_label(record.label);
            said = describe(record, false);
        });
        match result {
            Ok(()) if said.is_empty() => self.message = format!("{name}: no label"),
            Ok(()) => self.message = format!("{name}: {said}"),
            Err(error) => self.message = error,
        }
    }

    /// `G`: marks the position, or unmarks it.
    pub(super) fn mark_position(&mut self) {
        let pos = self.pos.clone();
        let mut marked = false;
        match self.change_record(&pos, |record| {
            record.marked = !record.marked;
            marked = record.marked;
        }) {
            Ok(()) => self.say(if marked { "position marked" } else { "mark removed" }),
            Err(error) => self.message = error,
        }
    }

    /// Enter in the comment prompt: the position's comment (empty: none).
    pub(super) fn set_comment(&mut self, text: &str) {
        let pos = self.pos.clone();
        let text = text.replace("\\n", "\n");
        match self.change_record(&pos, |record| record.comment = text) {
            Ok(()) => self.say("comment kept"),
            Err(error) => self.message = error,
        }
    }

    /// Enter in the text prompt: the text on `cell` (empty: none).
    pub(super) fn set_point_text(&mut self, cell: Cell, text: &str) {
        let pos = self.pos.clone();
        let text = text.trim().to_owned();
        let result = self.change_record(&pos, |record| {
            record.set_text(&pos, cell, Some(text));
        });
        match result {
            Ok(()) => self.say("text kept"),
            Err(error) => self.message = error,
        }
    }

    /// The comment the prompt starts from.
    pub(super) fn comment(&self) -> String {
        self.study
            .as_ref()
            .and_then(|study| study.own.as_ref())
            .map_or(String::new(), |record| record.comment.replace('\n', "\\n"))
    }

    /// The text on `cell` the prompt starts from.
    pub(super) fn point_text(&self, cell: Cell) -> String {
        self.study
            .as_ref()
            .and_then(|study| study.own.as_ref())
            .and_then(|record| record.text_at(&self.pos, cell))
            .map_or(String::new(), str::to_owned)
    }

    /// The path of the open database, for the dialog.
    pub(super) fn database_path(&self) -> Option<PathBuf> {
        self.study.as_ref().map(|study| study.path().to_owned())
    }

    /// The open database, shared with the engines that read one.
    pub(super) fn shared_database(&self) -> Option<&SharedDatabase> {
        self.study.as_ref().map(|study| &study.database)
    }
}

/// The panel's lines for the database: the file, the position's record
/// and comment, the cursor's point.
pub(crate) fn study_lines(app: &App) -> Vec<Line<'static>> {
    let Some(study) = app.study() else { return Vec::new() };
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let name = study
        .path()
        .file_name()
        .map_or_else(|| study.path().display().to_string(), |name| name.to_string_lossy().into_owned());
    let mut lines = vec![Line::from(vec![Span::styled("database ", bold), Span::raw(name)])];
    if let Some(trouble) = &study.trouble {
        lines.push(Line::from(Span::styled(trouble.clone(), Style::new().fg(Color::Red))));
    }
    match &study.own {
        Some(record) => {
            let said = describe(record, true);
            lines.push(Line::from(if said.is_empty() {
                "this position: kept".to_owned()
            } else {
                format!("this position: {said}")
            }));
            lines.extend(
                record
                    .comment
                    .lines()
                    .map(|line| Line::from(Span::styled(line.to_owned(), Style::new().fg(Color::Yellow)))),
            );
        }
        None => lines.push(Line::from("this position: not in it")),
    }
    let rules = app.setup().rules;
    let cursor = app.cursor();
    let mut point = Vec::new();
    if let Some(record) = study.child(cursor) {
        let said = describe(record, false);
        point.push(if said.is_empty() { "kept".to_owned() } else { said });
        if !record.comment.is_empty() {
            point.push("has a comment".to_owned());
        }
    }
    if let Some(text) = study.own.as_ref().and_then(|own| own.text_at(app.pos(), cursor)) {
        point.push(format!("text {text:?}"));
    }
    if !point.is_empty() {
        lines.push(Line::from(format!("{}: {}", cursor.name(&rules), point.join(", "))));
    }
    lines
}
