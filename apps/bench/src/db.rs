//! `bench db`: an analysis database from the command line — what it
//! holds (`stats`), a position's record and its children's (`query`),
//! a record set by hand (`put`), two databases merged (`merge`), a branch
//! split off (`split`), RenLib `.lib` files in and out (`import-lib`,
//! `export-lib`; `random-lib` makes one to measure on) and the records as CSV (`export-csv`).

use std::path::{Path, PathBuf};

use analysis_db::{Database, Record};
use anyhow::{Context, Result, bail};
use board::{Position, Rules};
use play::analysis_store::{Bound, Label};
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
    /// Copies a position's branch (its record, those below it and those on
    /// the way to it) into another database (made if missing), where that
    /// one has no record, in one transaction.
    Split {
        /// The database to copy from (only read).
        file: PathBuf,
        /// The database to copy into.
        into: PathBuf,
        #[command(flatten)]
        at: At,
    },
    /// Reads a RenLib `.lib` file (versions 3.x) into the database (made
    /// if missing), in one transaction: its move tree, comments, marks and
    /// texts; a text `W` or `L` is the move's result (other texts stay
    /// texts).
    ImportLib {
        /// The database file.
        file: PathBuf,
        /// The `.lib` file.
        lib: PathBuf,
        /// The rules the library's games are played by.
        #[arg(long, default_value = "renju")]
        rules: Rules,
    },
    /// Writes a random RenLib `.lib` file of `--nodes` nodes (moves near
    /// the centre, comments and texts here and there), the same for the
    /// same seed: a library to measure imports and exports on.
    RandomLib {
        /// The `.lib` file to write (replaced whole).
        lib: PathBuf,
        /// How many nodes.
        #[arg(long, default_value_t = 100_000)]
        nodes: u64,
        /// The seed.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Writes the records from a position down as a RenLib `.lib` file.
    ExportLib {
        /// The database file (only read).
        file: PathBuf,
        /// The `.lib` file to write (replaced whole, never half-written).
        lib: PathBuf,
        #[command(flatten)]
        at: At,
    },
    /// Reads a database file of Yixin or of the reference engine (Rapfi's
    /// `yixindb`, plain or LZ4-packed) into the database (made if
    /// missing), in one transaction.
    ImportYxdb {
        /// The database file.
        file: PathBuf,
        /// The Yixin database file.
        yxdb: PathBuf,
    },
    /// Writes every record (freestyle, exactly five and renju, five in a
    /// row) as a plain Yixin database file, which Yixin and the reference
    /// engine read.
    ExportYxdb {
        /// The database file (only read).
        file: PathBuf,
        /// The Yixin database file to write (replaced whole).
        yxdb: PathBuf,
    },
    /// Writes every record as CSV: rules, the position (side to move and
    /// stones), label, value, depth, bound, mark, comment and texts.
    ExportCsv {
        /// The database file (only read).
        file: PathBuf,
        /// The CSV file to write (replaced whole).
        csv: PathBuf,
    },
    /// Reads records from CSV as `export-csv` writes them (each replaces
    /// its position's record), in one transaction.
    ImportCsv {
        /// The database file (made if missing).
        file: PathBuf,
        /// The CSV file.
        csv: PathBuf,
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
    /// The label as kept: the side to move's at the record's position.
    label: &'static str,
    /// The label in words, saying whose result it is: the side to move's
    /// for the position asked about, the move's for its moves.
    #[serde(skip_serializing_if = "str::is_empty")]
    result: &'static str,
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
            result: record.label_words(cell.is_none()),
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
        let label = if self.result.is_empty() { self.label } else { self.result };
        format!("{label}{value}{depth}{comment}")
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
        DbCommand::Split { file, into, at } => {
            let pos = at.position()?;
            let source = open_existing(file)?;
            if play::files::same_file(file, into) {
                bail!("{} is the database to copy from: split into another one", into.display());
            }
            let copied = source.split_into(&pos, &mut Database::open(into)?)?;
            println!("{}: {copied} records copied from {}", into.display(), file.display());
            Ok(())
        }
        command @ (DbCommand::ImportLib { .. }
        | DbCommand::ExportLib { .. }
        | DbCommand::ImportYxdb { .. }
        | DbCommand::ExportYxdb { .. }
        | DbCommand::ExportCsv { .. }
        | DbCommand::ImportCsv { .. }) => transfer(command),
        DbCommand::RandomLib { lib, nodes, seed } => {
            let bytes = crate::random_lib::random_library(*nodes, *seed);
            play::files::write_atomically(lib, &bytes)
                .with_context(|| format!("cannot write {}", lib.display()))?;
            println!("{}: a random library of {nodes} nodes, {} bytes", lib.display(), bytes.len());
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

/// The commands that read a file into a database or write one out of it.
fn transfer(command: &DbCommand) -> Result<()> {
    match command {
        DbCommand::ImportLib { file, lib, rules } => {
            let bytes =
                analysis_db::read_import(lib).with_context(|| format!("cannot read {}", lib.display()))?;
            let started = std::time::Instant::now();
            let import = Database::open(file)?
                .import_lib(&bytes, *rules)
                .with_context(|| format!("{}: nothing was imported", lib.display()))?;
            println!(
                "{}: {} nodes read from {} in {:.2} s, {} records written, {} nodes left out (a move on a stone, after the end, or refused by the rules)",
                file.display(),
                import.nodes,
                lib.display(),
                started.elapsed().as_secs_f64(),
                import.written,
                import.skipped
            );
            Ok(())
        }
        DbCommand::ExportLib { file, lib, at } => {
            refuse_same(file, lib)?;
            let pos = at.position()?;
            let started = std::time::Instant::now();
            let (bytes, nodes) = open_existing(file)?.export_lib(&pos)?;
            play::files::write_atomically(lib, &bytes)
                .with_context(|| format!("cannot write {}", lib.display()))?;
            println!("{}: {nodes} nodes written in {:.2} s", lib.display(), started.elapsed().as_secs_f64());
            Ok(())
        }
        DbCommand::ImportYxdb { file, yxdb } => {
            let bytes =
                analysis_db::read_import(yxdb).with_context(|| format!("cannot read {}", yxdb.display()))?;
            let import = Database::open(file)?
                .import_yxdb(&bytes)
                .with_context(|| format!("{}: nothing was imported", yxdb.display()))?;
            println!(
                "{}: {} records read from {}, {} written, {} left out (a pass not after its side's stones, or stones alternate moves and passes do not reach)",
                file.display(),
                import.records,
                yxdb.display(),
                import.written,
                import.skipped
            );
            Ok(())
        }
        DbCommand::ExportYxdb { file, yxdb } => {
            refuse_same(file, yxdb)?;
            let (bytes, export) = open_existing(file)?.export_yxdb()?;
            play::files::write_atomically(yxdb, &bytes)
                .with_context(|| format!("cannot write {}", yxdb.display()))?;
            println!(
                "{}: {} records written, {} left out (rules the format has no number for)",
                yxdb.display(),
                export.written,
                export.skipped
            );
            Ok(())
        }
        DbCommand::ExportCsv { file, csv } => {
            refuse_same(file, csv)?;
            let text = open_existing(file)?.to_csv(None)?;
            roster::shell::write_file(csv, &text)?;
            println!("{}: {} lines", csv.display(), text.lines().count());
            Ok(())
        }
        DbCommand::ImportCsv { file, csv } => {
            let bytes =
                analysis_db::read_import(csv).with_context(|| format!("cannot read {}", csv.display()))?;
            let text =
                String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", csv.display()))?;
            let count = Database::open(file)?
                .import_csv(&text)
                .with_context(|| format!("{}: nothing was imported", csv.display()))?;
            println!("{}: {count} records read from {}", file.display(), csv.display());
            Ok(())
        }
        _ => unreachable!("run answers the others"),
    }
}

/// Refuses to write `out` over the database `file` (after links).
fn refuse_same(file: &Path, out: &Path) -> Result<()> {
    if play::files::same_file(file, out) {
        bail!("{} is the database itself: write to another file", out.display());
    }
    Ok(())
}

/// An existing database, for reading.
fn open_existing(file: &Path) -> Result<Database> {
    if !file.exists() {
        bail!("{} does not exist", file.display());
    }
    Ok(Database::open_read_only(file)?)
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
    /// Where the query found nothing: the rules the file holds records
    /// of, when they are others than the query's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    other_rules: Vec<String>,
}

fn query(file: &Path, at: &At, json: bool) -> Result<()> {
    if !file.exists() {
        bail!("{} does not exist", file.display());
    }
    let pos = at.position()?;
    let database = Database::open_read_only(file)?;
    let rules = *pos.rules();
    let mut report = Query {
        position: database.get(&pos)?.map(|record| Shown::of(rules, None, &record)),
        children: database
            .children(&pos)?
            .iter()
            .map(|(cell, record)| Shown::of(rules, Some(*cell), record))
            .collect(),
        other_rules: Vec::new(),
    };
    if report.position.is_none() && report.children.is_empty() {
        report.other_rules = database
            .label_counts()?
            .into_iter()
            .map(|(held, _, _)| held)
            .filter(|held| *held != rules.to_string())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
    }
    emit(json, &report, |report| {
        let missing = if report.other_rules.is_empty() {
            "no record".to_owned()
        } else {
            format!(
                "no record under {rules}; the file holds records of {} (give --rules)",
                report.other_rules.join(", ")
            )
        };
        let mut rows = vec![row("position", report.position.as_ref().map_or(missing, Shown::line))];
        rows.extend(
            report.children.iter().map(|child| row(child.cell.clone().unwrap_or_default(), child.line())),
        );
        rows
    })
}
