//! `bench db`: an analysis database from the command line — what it
//! holds (`stats`), a position's record and its children's (`query`),
//! and a record set by hand (`put`).

use std::path::{Path, PathBuf};

use analysis_db::{Database, Record};
use anyhow::{Context, Result, bail};
use board::{Position, Rules};
use play::book::{Bound, Label};
use serde::Serialize;

use crate::report::{emit, row};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(Debug, clap::Subcommand)]
enum DbCommand {
    /// How many records the database holds, by rule set and label.
    Stats {
        /// The database file.
        file: PathBuf,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// A position's record, and the records one move on (as a GUI shows
    /// them on the board's points).
    Query {
        /// The database file.
        file: PathBuf,
        #[command(flatten)]
        at: At,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Adds another database's records to this one, in one transaction:
    /// what only it has is copied; where both have a record, its label
    /// where this one has none, its value where it is deeper, its comment
    /// where this one has none.
    Merge {
        /// The database to add to (made if missing).
        into: PathBuf,
        /// The database to add from (only read).
        from: PathBuf,
    },
    /// Sets a position's record (the database is made if missing); what
    /// is not given is kept.
    Put {
        /// The database file.
        file: PathBuf,
        #[command(flatten)]
        at: At,
        /// none, win, loss, draw (for the side to move), forced (the move
        /// that led here is the only one) or excluded.
        #[arg(long)]
        label: Option<Label>,
        /// A value for the side to move.
        #[arg(long)]
        value: Option<i32>,
        /// The depth the value was searched to.
        #[arg(long)]
        depth: Option<u32>,
        /// A comment.
        #[arg(long)]
        comment: Option<String>,
    },
}

/// A position: rules and moves.
#[derive(Debug, clap::Args)]
struct At {
    /// Rules as W,H,K or W,H,K,RULE, or a preset such as renju.
    #[arg(long, default_value = "15,15,5")]
    rules: Rules,
    /// The moves from the empty board, such as `h8 i9 j10`.
    #[arg(long, default_value = "")]
    moves: String,
}

impl At {
    fn position(&self) -> Result<Position> {
        Position::from_moves(self.rules, &self.moves).with_context(|| format!("--moves {:?}", self.moves))
    }
}

/// A record as the reports show it.
#[derive(Serialize)]
struct Shown {
    #[serde(skip_serializing_if = "Option::is_none")]
    cell: Option<String>,
    label: &'static str,
    value: Option<i32>,
    depth: Option<u32>,
    comment: String,
    texts: Vec<(String, String)>,
}

impl Shown {
    fn of(rules: Rules, cell: Option<board::Cell>, record: &Record) -> Shown {
        Shown {
            cell: cell.map(|cell| cell.name(&rules).to_string()),
            label: record.label.name(),
            value: record.value,
            depth: record.depth,
            comment: record.comment.clone(),
            texts: record
                .texts
                .iter()
                .map(|(cell, text)| (cell.name(&rules).to_string(), text.clone()))
                .collect(),
        }
    }

    fn line(&self) -> String {
        let value = self.value.map_or(String::new(), |value| format!(" value {value}"));
        let depth = self.depth.map_or(String::new(), |depth| format!(" depth {depth}"));
        let comment = if self.comment.is_empty() { String::new() } else { format!(" — {}", self.comment) };
        format!("{}{value}{depth}{comment}", self.label)
    }
}

pub fn run(args: &Args) -> Result<()> {
    match &args.command {
        DbCommand::Stats { file, json } => stats(file, *json),
        DbCommand::Query { file, at, json } => query(file, at, *json),
        DbCommand::Merge { into, from } => {
            if !from.exists() {
                bail!("{} does not exist", from.display());
            }
            if play::files::same_file(into, from) {
                bail!("{} is the database to add to: merge another one", from.display());
            }
            let (added, changed) = Database::open(into)?.merge_from(from)?;
            println!("{}: {added} records added, {changed} changed from {}", into.display(), from.display());
            Ok(())
        }
        DbCommand::Put { file, at, label, value, depth, comment } => {
            let pos = at.position()?;
            let mut database = Database::open(file)?;
            let old = database.get(&pos)?.unwrap_or_default();
            if value.is_none() && depth.is_some() {
                bail!("--depth goes with --value");
            }
            let record = Record {
                label: label.unwrap_or(old.label),
                value: value.or(old.value),
                depth: depth.or(if value.is_some() { None } else { old.depth }),
                bound: if value.is_some() { Bound::Exact } else { old.bound },
                comment: comment.clone().unwrap_or(old.comment),
                ..old
            };
            database.put(&pos, &record)?;
            println!("{}: {}", file.display(), Shown::of(*pos.rules(), None, &record).line());
            Ok(())
        }
    }
}

#[derive(Serialize)]
struct Stats {
    records: u64,
    by_label: Vec<(String, &'static str, u64)>,
}

fn stats(file: &Path, json: bool) -> Result<()> {
    if !file.exists() {
        bail!("{} does not exist", file.display());
    }
    let database = Database::open_read_only(file)?;
    let counts = database.label_counts()?;
    let report = Stats {
        records: database.len()?,
        by_label: counts.into_iter().map(|(rules, label, count)| (rules, label.name(), count)).collect(),
    };
    emit(json, &report, |report| {
        let mut rows = vec![row("records", report.records)];
        rows.extend(
            report.by_label.iter().map(|(rules, label, count)| row(format!("{rules} {label}"), count)),
        );
        rows
    })
}

#[derive(Serialize)]
struct Query {
    position: Option<Shown>,
    children: Vec<Shown>,
}

fn query(file: &Path, at: &At, json: bool) -> Result<()> {
    if !file.exists() {
        bail!("{} does not exist", file.display());
    }
    let pos = at.position()?;
    let database = Database::open_read_only(file)?;
    let rules = *pos.rules();
    let report = Query {
        position: database.get(&pos)?.map(|record| Shown::of(rules, None, &record)),
        children: database
            .children(&pos)?
            .iter()
            .map(|(cell, record)| Shown::of(rules, Some(*cell), record))
            .collect(),
    };
    emit(json, &report, |report| {
        let mut rows =
            vec![row("position", report.position.as_ref().map_or("no record".to_owned(), Shown::line))];
        rows.extend(
            report.children.iter().map(|child| row(child.cell.clone().unwrap_or_default(), child.line())),
        );
        rows
    })
}
