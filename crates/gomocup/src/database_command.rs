//! The analysis-database commands Yixin-Board sends, as text: which
//! command, its arguments, and whether a position follows (`x,y` lines,
//! the moves from the empty board, up to `DONE`).

use board::Cell;

use crate::input::excerpt;
use crate::words::{Malformed, parse_cell};

/// One database command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabaseCommand {
    /// `YXSETDATABASE path`: use the database at `path` (made if missing).
    Set(String),
    /// `YXSAVEDATABASE`: nothing to do: every change is committed as made.
    Save,
    /// `YXQUERYDATABASE…`: what the database holds of the position.
    Query(Query),
    /// `YXEDITTVDDATABASE mask label value depth`: set what `mask` selects
    /// (1 label, 2 value, 4 depth) of the position's record.
    EditValue {
        /// Which parts to set.
        mask: u32,
        /// The label as the GUI sends it (a character's code: `W`, `L`,
        /// `D`, `X`, `!`; −1 or 0 none).
        label: i32,
        /// The value, in the protocol's units.
        value: i32,
        /// The depth.
        depth: i32,
    },
    /// `YXEDITTEXTDATABASE "text"`: the position's comment.
    EditComment(String),
    /// `YXEDITLABELDATABASE x,y text`: the position's text on a point
    /// (none: the text is removed).
    EditPointText(Cell, String),
    /// `YXDELETEDATABASEONE`: the position's record.
    DeleteOne,
    /// `YXDELETEDATABASEALL [filter]`: the records below the position the
    /// filter picks, and the position's texts.
    DeleteAll(DeleteFilter),
    /// `YXDBTOTXT path` (this game's rules; `all`: `YXDBTOTXTALL`): the
    /// records as CSV.
    ToText {
        /// Every rule set's records.
        all: bool,
        /// The file to write.
        path: String,
    },
    /// `YXLIBTODB path`: a RenLib file read in.
    LibToDb(String),
    /// `YXDBTOLIB path`: the records from the current position down as a
    /// RenLib file.
    DbToLib(String),
    /// `YXDBMERGE path`: another database's records added.
    Merge(String),
    /// `YXDBSPLIT path`: the current position's branch copied into another
    /// database.
    Split(String),
}

/// What a query answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `…ALL`: each point's record and text.
    All,
    /// `…ALLT`: as `All`, then the comment.
    AllAndComment,
    /// `…ONE`: the position's record.
    One,
    /// `…TEXT`: its comment.
    Comment,
}

/// Which records below a position `YXDELETEDATABASEALL` deletes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeleteFilter {
    /// Whose records are picked.
    pub picks: Picks,
    /// `…RECURSIVE`: a position not picked is kept and the positions after
    /// it are looked at in turn; else it is kept with its whole branch.
    pub recursive: bool,
}

/// The records a delete filter picks (a picked record goes with its branch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Picks {
    /// No filter: everything below.
    Everything,
    /// `NONWL`: all but wins and losses.
    NotWinOrLoss,
    /// `NONWLD`: all but wins, losses and draws.
    NotDecided,
    /// `W`: wins (of the move that led there).
    Win,
    /// `L`: losses.
    Loss,
    /// `WL`: wins and losses.
    WinOrLoss,
    /// `WLD`: wins, losses and draws.
    Decided,
    /// `WLNOSTEP`: wins and losses without a known distance.
    WinOrLossWithoutDistance,
    /// `WLINSTEP n`: wins and losses within `n` steps (the plies after the move, plus one, as the reference counts).
    WinOrLossWithin(u32),
}

impl DatabaseCommand {
    /// Whether the moves of a position follow, up to `DONE`.
    #[must_use]
    pub fn takes_position(&self) -> bool {
        matches!(
            self,
            DatabaseCommand::Query(_)
                | DatabaseCommand::EditValue { .. }
                | DatabaseCommand::EditComment(_)
                | DatabaseCommand::EditPointText(..)
                | DatabaseCommand::DeleteOne
                | DatabaseCommand::DeleteAll(_)
        )
    }
}

/// The words of the database commands.
pub(crate) const WORDS: [&str; 17] = [
    "YXSETDATABASE",
    "YXSAVEDATABASE",
    "YXQUERYDATABASEALL",
    "YXQUERYDATABASEALLT",
    "YXQUERYDATABASEONE",
    "YXQUERYDATABASETEXT",
    "YXEDITTVDDATABASE",
    "YXEDITTEXTDATABASE",
    "YXEDITLABELDATABASE",
    "YXDELETEDATABASEONE",
    "YXDELETEDATABASEALL",
    "YXDBTOTXT",
    "YXDBTOTXTALL",
    "YXLIBTODB",
    "YXDBTOLIB",
    "YXDBMERGE",
    "YXDBSPLIT",
];

/// Reads a database command: `word` (upper case) and what followed it.
/// `None`: not a database command.
pub(crate) fn parse_database(word: &str, rest: &str) -> Option<Result<DatabaseCommand, Malformed>> {
    let path = || -> Result<String, Malformed> {
        let path = rest.trim().trim_matches('"');
        if path.is_empty() {
            return Err(Malformed(format!("{word} takes a file path")));
        }
        Ok(path.to_owned())
    };
    Some(match word {
        "YXSETDATABASE" => path().map(DatabaseCommand::Set),
        "YXSAVEDATABASE" => Ok(DatabaseCommand::Save),
        "YXQUERYDATABASEALL" => Ok(DatabaseCommand::Query(Query::All)),
        "YXQUERYDATABASEALLT" => Ok(DatabaseCommand::Query(Query::AllAndComment)),
        "YXQUERYDATABASEONE" => Ok(DatabaseCommand::Query(Query::One)),
        "YXQUERYDATABASETEXT" => Ok(DatabaseCommand::Query(Query::Comment)),
        "YXEDITTVDDATABASE" => edit_value(rest),
        "YXEDITTEXTDATABASE" => unquote(rest).map(DatabaseCommand::EditComment),
        "YXEDITLABELDATABASE" => {
            let (cell, text) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            parse_cell(cell).map(|cell| DatabaseCommand::EditPointText(cell, text.trim().to_owned()))
        }
        "YXDELETEDATABASEONE" => Ok(DatabaseCommand::DeleteOne),
        "YXDELETEDATABASEALL" => delete_filter(rest).map(DatabaseCommand::DeleteAll),
        "YXDBTOTXT" => path().map(|path| DatabaseCommand::ToText { all: false, path }),
        "YXDBTOTXTALL" => path().map(|path| DatabaseCommand::ToText { all: true, path }),
        "YXLIBTODB" => path().map(DatabaseCommand::LibToDb),
        "YXDBTOLIB" => path().map(DatabaseCommand::DbToLib),
        "YXDBMERGE" => path().map(DatabaseCommand::Merge),
        "YXDBSPLIT" => path().map(DatabaseCommand::Split),
        _ => return None,
    })
}

fn edit_value(rest: &str) -> Result<DatabaseCommand, Malformed> {
    let numbers: Vec<&str> = rest.split_whitespace().collect();
    let bad = || {
        Malformed(format!(
            "YXEDITTVDDATABASE takes four whole numbers (mask label value depth), got {:?}",
            excerpt(rest)
        ))
    };
    let [mask, label, value, depth] = numbers[..] else { return Err(bad()) };
    Ok(DatabaseCommand::EditValue {
        mask: mask.parse().map_err(|_| bad())?,
        label: label.parse().map_err(|_| bad())?,
        value: value.parse().map_err(|_| bad())?,
        depth: depth.parse().map_err(|_| bad())?,
    })
}

/// A text in quotes (`\"` and `\\` inside), or the first word without.
fn unquote(rest: &str) -> Result<String, Malformed> {
    let rest = rest.trim();
    let Some(inside) = rest.strip_prefix('"') else {
        return Ok(rest.split_whitespace().next().unwrap_or("").to_owned());
    };
    let mut text = String::new();
    let mut chars = inside.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Ok(text),
            '\\' => text.push(chars.next().ok_or_else(|| Malformed("the text ends after a \\".to_owned()))?),
            c => text.push(c),
        }
    }
    Err(Malformed(format!("the text {:?} has no closing quote", excerpt(rest))))
}

/// `text` in quotes, backslashes before quotes and backslashes, as the
/// commands read a quoted text.
#[must_use]
pub fn quote(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

fn delete_filter(rest: &str) -> Result<DeleteFilter, Malformed> {
    let mut words = rest.split_whitespace();
    let Some(word) = words.next() else {
        return Ok(DeleteFilter { picks: Picks::Everything, recursive: true });
    };
    let upper = word.to_ascii_uppercase();
    let (name, recursive) = match upper.strip_suffix("RECURSIVE") {
        Some(name) => (name, true),
        None => (upper.as_str(), false),
    };
    let picks = match name {
        "NONWL" => Picks::NotWinOrLoss,
        "NONWLD" => Picks::NotDecided,
        "W" => Picks::Win,
        "L" => Picks::Loss,
        "WL" => Picks::WinOrLoss,
        "WLD" => Picks::Decided,
        "WLNOSTEP" => Picks::WinOrLossWithoutDistance,
        "WLINSTEP" => {
            let steps = words.next().and_then(|steps| steps.parse().ok()).ok_or_else(|| {
                Malformed(format!("{word} takes a number of steps, got {:?}", excerpt(rest)))
            })?;
            Picks::WinOrLossWithin(steps)
        }
        _ => {
            return Err(Malformed(format!(
                "unknown delete filter {word:?}: one of NONWL, NONWLD, W, L, WL, WLD, WLNOSTEP, WLINSTEP n, each with RECURSIVE or not"
            )));
        }
    };
    Ok(DeleteFilter { picks, recursive })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Result<DatabaseCommand, Malformed> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        parse_database(word, rest).expect("a database command")
    }

    #[test]
    fn commands_read() {
        assert_eq!(
            read("YXSETDATABASE \"C:\\db\\a b.db\""),
            Ok(DatabaseCommand::Set("C:\\db\\a b.db".to_owned()))
        );
        assert!(read("YXSETDATABASE").is_err());
        assert_eq!(
            read("YXEDITTVDDATABASE 7 87 -120 12"),
            Ok(DatabaseCommand::EditValue { mask: 7, label: 87, value: -120, depth: 12 })
        );
        assert!(read("YXEDITTVDDATABASE 7 87 x 12").is_err());
        assert_eq!(
            read("YXEDITTEXTDATABASE \"a \\\"b\\\" c\""),
            Ok(DatabaseCommand::EditComment("a \"b\" c".to_owned()))
        );
        assert!(read("YXEDITTEXTDATABASE \"open").is_err());
        assert_eq!(
            read("YXEDITLABELDATABASE 7,8 ab"),
            Ok(DatabaseCommand::EditPointText(Cell::new(7, 8), "ab".to_owned()))
        );
        assert_eq!(
            read("YXDELETEDATABASEALL wlinsteprecursive 5"),
            Ok(DatabaseCommand::DeleteAll(DeleteFilter {
                picks: Picks::WinOrLossWithin(5),
                recursive: true
            }))
        );
        assert_eq!(
            read("YXDELETEDATABASEALL NONWL"),
            Ok(DatabaseCommand::DeleteAll(DeleteFilter { picks: Picks::NotWinOrLoss, recursive: false }))
        );
        assert!(read("YXDELETEDATABASEALL WLINSTEP").is_err());
        assert!(read("YXDELETEDATABASEALL maybe").is_err());
        assert!(read("YXQUERYDATABASEALL").unwrap().takes_position());
        assert!(!read("YXDBTOLIB a.lib").unwrap().takes_position());
    }

    #[test]
    fn quoted_text_reads_back() {
        for text in ["", "plain", "say \"hi\"", "back\\slash"] {
            assert_eq!(unquote(&quote(text)), Ok(text.to_owned()));
        }
    }
}
