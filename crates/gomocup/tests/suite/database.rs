//! The analysis-database commands of Yixin-Board through in-memory pipes:
//! each command and its answers, and the database the engine is given.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use board::Rules;
use gomocup::{Resources, serve};
use play::Agent;

use crate::common::{First, about};

/// A database file of this test's own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("mnk-brain-db-{}-{name}", std::process::id()));
        let scratch = Scratch(path);
        scratch.remove();
        scratch
    }
    fn path(&self) -> &Path {
        &self.0
    }
    fn remove(&self) {
        for end in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{end}", self.0.display()));
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.remove();
    }
}

/// The brain's answers to `input`, and the resources each engine was made with.
fn run(input: &str) -> (Vec<String>, Vec<Resources>) {
    let engines = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&engines);
    let make = move |_: Rules, resources: Resources| -> Result<Box<dyn Agent>, String> {
        seen.lock().unwrap().push(resources);
        Ok(Box::new(First))
    };
    let mut output = Vec::new();
    serve(std::io::BufReader::new(Cursor::new(input.to_owned())), &mut output, about(), Box::new(make))
        .unwrap();
    let answers = String::from_utf8(output).unwrap().lines().map(str::to_owned).collect();
    let engines = engines.lock().unwrap().clone();
    (answers, engines)
}

#[test]
fn edits_are_read_back_as_the_gui_reads_them() {
    let db = Scratch::new("edits");
    let set = format!("YXSETDATABASE {}\n", db.path().display());
    let input = [
        "START 15\n",
        &set,
        // h8 then i9 wins for the one who played i9 (W), value 29990: in 10 plies.
        "YXEDITTVDDATABASE 7 87 -29990 12\n7,7\n8,8\nDONE\n",
        "YXEDITLABELDATABASE 6,6 ab\n7,7\nDONE\n",
        "YXEDITTEXTDATABASE \"a \\\"good\\\" reply\"\n7,7\n8,8\nDONE\n",
        "YXQUERYDATABASEALLT\n7,7\nDONE\n",
        "YXQUERYDATABASEONE\n7,7\n8,8\nDONE\n",
        "YXQUERYDATABASETEXT\n7,7\n8,8\nDONE\n",
        "YXQUERYDATABASEONE\n0,0\nDONE\n",
    ]
    .concat();
    let (answers, _) = run(&input);
    // As the reference shows them: the distance in its steps (the 10
    // plies after the move, and the move: 11), a text on every image of
    // its point (h8 is symmetric: g9, i9, g7 and i7 are one point).
    let w11 = (i64::from(b'w') << 16) | (i64::from(b'1') << 8) | i64::from(b'1');
    let line = |x: u8, y: u8| format!("MESSAGE DATABASE {x} {y} {w11} -29990 12 3 1 ab");
    let expected = [
        "OK".to_owned(),
        format!("MESSAGE DATABASE ONE {} -29990 12 3 w11", i32::from(b'w')),
        "MESSAGE DATABASE REFRESH".to_owned(),
        // i9's mirror images (g7, i7, g9) are the same position: one record.
        line(6, 6),
        line(8, 6),
        line(6, 8),
        line(8, 8),
        "MESSAGE DATABASE DONE".to_owned(),
        "MESSAGE DATABASE TEXT \"\"".to_owned(),
        format!("MESSAGE DATABASE ONE {} -29990 12 3 w11", i32::from(b'w')),
        "MESSAGE DATABASE TEXT \"a \\\"good\\\" reply\"".to_owned(),
        "MESSAGE DATABASE ONE 0 0 0 0".to_owned(),
    ];
    assert_eq!(answers, expected);
}

#[test]
fn a_query_writes_nothing() {
    let db = Scratch::new("query");
    let set = format!("YXSETDATABASE {}\n", db.path().display());
    let input = [
        "START 15\n",
        &set,
        "YXEDITTVDDATABASE 7 87 -29990 12\n7,7\n8,8\nDONE\n",
        // Looked at, never written: h8 i9 j10 and the empty board.
        "YXQUERYDATABASEALL\n7,7\n8,8\n9,9\nDONE\n",
        "YXQUERYDATABASEALL\nDONE\n",
        "YXQUERYDATABASEONE\n7,7\n8,8\n9,9\nDONE\n",
    ]
    .concat();
    let (answers, _) = run(&input);
    assert_eq!(answers.last().map(String::as_str), Some("MESSAGE DATABASE ONE 0 0 0 0"), "{answers:?}");
    let database = analysis_db::Database::open_read_only(db.path()).unwrap();
    assert_eq!(database.len().unwrap(), 1, "only the edited record");
}

#[test]
fn the_engine_is_given_the_database_and_read_only_is_kept() {
    let db = Scratch::new("engine");
    let path = db.path().display().to_string();
    let input = format!(
        "START 15\nYXSETDATABASE {path}\nINFO database_readonly 1\nYXEDITTVDDATABASE 1 87 0 0\n7,7\nDONE\nYXDELETEDATABASEONE\n7,7\nDONE\nINFO database_readonly 0\nINFO usedatabase 0\nYXQUERYDATABASEONE\n7,7\nDONE\n"
    );
    let (answers, made) = run(&input);
    let refused = "MESSAGE the database is read-only (INFO database_readonly 1): nothing was written";
    assert_eq!(
        answers,
        ["OK", refused, refused, "MESSAGE no database in use: send INFO usedatabase 1 or YXSETDATABASE"]
    );
    let databases: Vec<Option<(PathBuf, bool)>> = made
        .into_iter()
        .map(|resources| resources.database.map(|(opened, write)| (opened.path().to_owned(), write)))
        .collect();
    assert_eq!(
        databases,
        [
            None,
            Some((db.path().to_owned(), true)),
            Some((db.path().to_owned(), false)),
            Some((db.path().to_owned(), true)),
            None
        ]
    );
}

#[test]
fn deletions_follow_their_filters() {
    let db = Scratch::new("delete");
    let set = format!("YXSETDATABASE {}\n", db.path().display());
    // Below h8: i9 (a win for its mover) with j10 below it, and h9 (none)
    // with h10 below it.
    let edits = [
        "YXEDITTVDDATABASE 1 87 0 0\n7,7\n8,8\nDONE\n",
        "YXEDITTVDDATABASE 1 -1 0 0\n7,7\n8,8\n9,9\nDONE\n",
        "YXEDITTVDDATABASE 2 0 15 0\n7,7\n7,8\nDONE\n",
        "YXEDITTVDDATABASE 2 0 16 0\n7,7\n7,8\n7,9\nDONE\n",
    ]
    .concat();
    let count = |filter: &str| -> String {
        let input = format!("START 15\n{set}{edits}YXDELETEDATABASEALL {filter}\n7,7\nDONE\n");
        let (answers, _) = run(&input);
        let done = answers.iter().find(|line| line.starts_with("MESSAGE Done deleting")).cloned();
        db.remove();
        done.unwrap_or_default().split_whitespace().nth(3).unwrap_or("?").to_owned()
    };
    // W: the i9 branch (2 records); the h9 branch is kept whole.
    assert_eq!(count("W"), "2");
    // NONWL: h9 and its branch.
    assert_eq!(count("NONWL"), "2");
    assert_eq!(count(""), "4");
    // L: none of the children is a loss for its mover; kept whole.
    assert_eq!(count("L"), "0");
}

#[test]
fn files_go_out_and_come_back_through_the_commands() {
    let db = Scratch::new("files");
    let other = Scratch::new("files-other");
    let lib = Scratch::new("files.lib");
    let csv = Scratch::new("files.csv");
    let (db_path, lib_path, csv_path, other_path) = (
        db.path().display().to_string(),
        lib.path().display().to_string(),
        csv.path().display().to_string(),
        other.path().display().to_string(),
    );
    let input = format!(
        "START 15\nYXSETDATABASE {db_path}\nYXEDITTVDDATABASE 1 87 0 0\n7,7\n8,8\nDONE\nYXEDITTEXTDATABASE \"note\"\n7,7\nDONE\nYXBOARD\n7,7,2\nDONE\nYXDBTOLIB {lib_path}\nYXDBTOTXTALL {csv_path}\nYXDBSPLIT {other_path}\nYXSETDATABASE {other_path}\nYXQUERYDATABASETEXT\n7,7\nDONE\nYXDELETEDATABASEALL\nDONE\nYXLIBTODB {lib_path}\nYXQUERYDATABASEONE\n7,7\n8,8\nDONE\nYXLIBTODB {db_path}\n"
    );
    let (answers, _) = run(&input);
    let won = format!("MESSAGE DATABASE ONE {} 0 0 0 w*", i32::from(b'w'));
    assert_eq!(answers[..2], ["OK".to_owned(), won.clone()]);
    // YXBOARD set the game's position to h8: the files are of it.
    let answers = &answers[2..];
    assert!(answers[0].starts_with("MESSAGE Exported 2 nodes to "), "{answers:?}");
    assert!(answers[1].starts_with("MESSAGE wrote 2 records as CSV"), "{answers:?}");
    assert!(answers[2].starts_with("MESSAGE Wrote 2 records into"), "{answers:?}");
    assert_eq!(answers[3], "MESSAGE DATABASE TEXT \"note\"");
    // Everything below the empty board.
    assert!(answers[4].starts_with("MESSAGE Done deleting 2 records"), "{answers:?}");
    assert_eq!(answers[5..7], ["MESSAGE DATABASE REFRESH", "MESSAGE DATABASE DONE"]);
    assert!(answers[7].starts_with("MESSAGE Imported"), "{answers:?}");
    assert_eq!(answers[8], won);
    // A database is not a .lib: refused, nothing imported.
    assert!(answers[9].starts_with("ERROR") && answers[9].contains("nothing was imported"), "{answers:?}");
    assert_eq!(answers.len(), 10, "{answers:?}");
}

#[test]
fn bad_database_commands_get_errors() {
    let db = Scratch::new("bad");
    let input = format!(
        "YXQUERYDATABASEONE\nDONE\nSTART 15\nYXSETDATABASE {}\nYXEDITTVDDATABASE 1 2 3\nYXEDITTVDDATABASE 1 5 0 0\n7,7\nDONE\nYXQUERYDATABASEONE\n7,7\n7,7\nDONE\nYXDELETEDATABASEALL SOME\nYXEDITLABELDATABASE 20,20 x\n7,7\nDONE\n",
        db.path().display()
    );
    let (answers, _) = run(&input);
    assert_eq!(answers.len(), 7, "{answers:?}");
    assert_eq!(answers[0], "ERROR no game: send START first");
    assert_eq!(answers[1], "OK");
    for answer in &answers[2..] {
        assert!(answer.starts_with("ERROR"), "{answers:?}");
    }
    assert!(answers[3].contains("label 5"), "{answers:?}");
    assert!(answers[4].contains("7,7"), "{answers:?}");
    // A file out over the database in use is refused; the database stays.
    let path = db.path().display().to_string();
    let (answers, _) = run(&format!(
        "START 15\nYXSETDATABASE {path}\nYXDBTOLIB {path}\nYXDBTOTXTALL {path}\nYXDBMERGE {path}\n"
    ));
    assert_eq!(answers.len(), 4, "{answers:?}");
    for answer in &answers[1..] {
        assert!(answer.contains("is the database in use"), "{answers:?}");
    }
    assert!(analysis_db::Database::open(db.path()).is_ok());
}
