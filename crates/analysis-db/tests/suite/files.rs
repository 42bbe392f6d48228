//! The file: made when missing, refused (and left as it was) when it is
//! not ours or is newer, and nothing committed lost when a writer is
//! killed.

use std::path::PathBuf;
use std::process::{Command, Stdio};

use analysis_db::{Database, DbError, Record, SCHEMA};
use board::{Position, Rules};
use play::analysis_store::Label;

/// A database path in the temporary folder, its files removed when dropped.
pub struct Scratch {
    pub path: PathBuf,
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("analysis-db-{}-{name}.mnkdb", std::process::id()));
        let scratch = Scratch { path };
        scratch.remove();
        scratch
    }

    fn remove(&self) {
        for end in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(format!("{}{end}", self.path.display()));
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.remove();
    }
}

#[test]
fn a_file_that_is_not_ours_is_refused_and_left_as_it_was() {
    let scratch = Scratch::new("foreign-text");
    std::fs::write(&scratch.path, "someone's notes, not a database at all\n".repeat(100)).unwrap();
    let before = std::fs::read(&scratch.path).unwrap();
    let error = Database::open(&scratch.path).unwrap_err();
    assert!(matches!(error, DbError::Foreign { .. }), "{error}");
    assert!(error.to_string().contains("left as it is"), "{error}");
    assert_eq!(std::fs::read(&scratch.path).unwrap(), before);

    // Another program's SQLite file.
    let scratch = Scratch::new("foreign-sqlite");
    let other = rusqlite::Connection::open(&scratch.path).unwrap();
    other.execute_batch("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');").unwrap();
    drop(other);
    let before = std::fs::read(&scratch.path).unwrap();
    let error = Database::open(&scratch.path).unwrap_err();
    assert!(error.to_string().contains("not an mnk analysis database"), "{error}");
    assert_eq!(std::fs::read(&scratch.path).unwrap(), before);
}

#[test]
fn a_newer_schema_is_refused_and_left_as_it_was() {
    let scratch = Scratch::new("newer");
    drop(Database::open(&scratch.path).unwrap());
    let file = rusqlite::Connection::open(&scratch.path).unwrap();
    file.pragma_update(None, "user_version", SCHEMA + 1).unwrap();
    drop(file);
    let before = std::fs::read(&scratch.path).unwrap();
    let error = Database::open(&scratch.path).unwrap_err();
    assert!(matches!(error, DbError::Newer { found, .. } if found == SCHEMA + 1), "{error}");
    assert!(Database::open_read_only(&scratch.path).is_err());
    assert_eq!(std::fs::read(&scratch.path).unwrap(), before);
}

#[test]
fn reading_only_needs_a_file() {
    let scratch = Scratch::new("missing");
    assert!(Database::open_read_only(&scratch.path).is_err());
    assert!(!scratch.path.exists(), "nothing was made");
}

/// The writer a killed process plays: records committed one by one,
/// each reported after its commit. Not a test of its own: the kill test
/// runs it in a process it kills.
#[test]
#[ignore = "the writer process of a_writer_killed_mid_write_loses_nothing_committed"]
fn writer_for_the_kill_test() {
    let path = std::env::var("ANALYSIS_DB_WRITER").expect("ANALYSIS_DB_WRITER names the database");
    let mut database = Database::open(path.as_ref()).unwrap();
    let rules = Rules::gomoku15();
    for i in 0.. {
        let cell = rules.cells().nth(i % rules.area()).unwrap();
        let mut pos = Position::new(rules);
        pos.play(cell).unwrap();
        let record =
            Record { value: Some(i as i32), comment: "x".repeat(200), ..Record::labelled(Label::Draw) };
        database
            .write(|database| {
                // Many positions a transaction, as an import writes them.
                for j in 0..50_u32 {
                    let mut deeper = pos.clone();
                    let other = rules.cells().filter(|&c| c != cell).nth(j as usize).unwrap();
                    deeper.play(other).unwrap();
                    database.put_in(&deeper, &record)?;
                }
                database.put_in(&pos, &record)
            })
            .unwrap();
        println!("committed {i}");
    }
}

#[test]
fn a_writer_killed_mid_write_loses_nothing_committed() {
    use std::io::{BufRead, BufReader};
    let scratch = Scratch::new("killed");
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "files::writer_for_the_kill_test",
            "--ignored",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("ANALYSIS_DB_WRITER", &scratch.path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut committed = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some(i) = line.strip_prefix("committed ").and_then(|i| i.parse::<usize>().ok()) {
            committed = Some(i);
            if i == 40 {
                break;
            }
        }
    }
    // SIGKILL: no destructor, no checkpoint, a transaction in flight.
    child.kill().unwrap();
    child.wait().unwrap();
    let committed = committed.expect("the writer committed");
    let database = Database::open(&scratch.path).expect("the file opens after the kill");
    let rules = Rules::gomoku15();
    for i in 0..=committed {
        let mut pos = Position::new(rules);
        pos.play(rules.cells().nth(i).unwrap()).unwrap();
        let record = database.get(&pos).unwrap();
        assert!(record.is_some(), "commit {i} of {committed} was lost");
    }
}
