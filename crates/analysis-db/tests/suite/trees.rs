//! The database as a tree: walks, deletions by filter, a branch split off,
//! and a file of the first schema brought up to date.

use analysis_db::{Database, Prune, Record, Step};
use board::{Position, Rules};
use play::analysis_store::Label;

use crate::files::Scratch;

fn pos(moves: &str) -> Position {
    Position::from_moves(Rules::gomoku15(), moves).unwrap()
}

/// h8 → i9 (a win for its mover) → j10, h8 → h9 → h10, and far off b2.
fn small_tree(database: &mut Database) {
    for (moves, label) in [
        ("h8", Label::None),
        ("h8 i9", Label::Loss),
        ("h8 i9 j10", Label::None),
        ("h8 h9", Label::None),
        ("h8 h9 h10", Label::Win),
        ("b2", Label::None),
    ] {
        database.put(&pos(moves), &Record::labelled(label)).unwrap();
    }
}

#[test]
fn a_walk_visits_each_position_below_once_and_may_skip_a_branch() {
    let scratch = Scratch::new("walk");
    let mut database = Database::open(&scratch.path).unwrap();
    small_tree(&mut database);
    let mut seen = Vec::new();
    database
        .walk(&pos("h8"), |here, _| {
            seen.push(here.moves().len());
            Ok(if here.moves().len() == 2 && here.moves()[1] == Rules::gomoku15().parse_cell("h9").unwrap() {
                Step::Skip
            } else {
                Step::Descend
            })
        })
        .unwrap();
    // h9 (skipped below), i9, j10: i9's mirror images are one position.
    seen.sort_unstable();
    assert_eq!(seen, [2, 2, 3]);
    let mut all = 0;
    database
        .walk(&Position::new(Rules::gomoku15()), |_, _| {
            all += 1;
            Ok(Step::Descend)
        })
        .unwrap();
    assert_eq!(all, 6);
}

#[test]
fn deletions_take_what_the_filter_picks_with_its_branch() {
    let scratch = Scratch::new("delete-below");
    let mut database = Database::open(&scratch.path).unwrap();
    small_tree(&mut database);
    // Losses of the side to move (wins of the mover) go with their branch;
    // the rest is looked through.
    let deleted = database
        .delete_below(
            &pos("h8"),
            |record| if record.label == Label::Loss { Prune::Branch } else { Prune::Look },
        )
        .unwrap();
    assert_eq!(deleted, 2);
    assert_eq!(database.get(&pos("h8 i9 j10")).unwrap(), None);
    assert!(database.get(&pos("h8 h9 h10")).unwrap().is_some());
    assert!(database.get(&pos("h8")).unwrap().is_some(), "the position itself stays");
    // Keep stops the look below.
    let deleted = database
        .delete_below(
            &pos("h8"),
            |record| if record.label == Label::Win { Prune::Branch } else { Prune::Keep },
        )
        .unwrap();
    assert_eq!(deleted, 0);
    assert_eq!(database.len().unwrap(), 4);
}

#[test]
fn a_deleted_branch_keeps_what_another_line_still_reaches() {
    let scratch = Scratch::new("delete-transposed");
    let mut database = Database::open(&scratch.path).unwrap();
    // The branch h8 k11 (its label picks it; the walk meets it first, in
    // row order) reaches h8 k11 j10 i9, which h8 i9 j10 k11 reaches too
    // (another move order); h8 k11 j10 and h8 k11 j10 g7 only the branch
    // reaches.
    let branch_alone = ["h8 k11", "h8 k11 j10", "h8 k11 j10 g7"];
    let reached_elsewhere = ["h8 i9", "h8 i9 j10", "h8 i9 j10 k11", "h8 i9 j10 k11 l12"];
    database.put(&pos("h8"), &Record::default()).unwrap();
    for moves in branch_alone.iter().chain(&reached_elsewhere) {
        let label = if *moves == "h8 k11" { Label::Loss } else { Label::None };
        database.put(&pos(moves), &Record::labelled(label)).unwrap();
    }
    let deleted = database
        .delete_below(
            &pos("h8"),
            |record| if record.label == Label::Loss { Prune::Branch } else { Prune::Look },
        )
        .unwrap();
    assert_eq!(deleted, 3);
    for moves in branch_alone {
        assert_eq!(database.get(&pos(moves)).unwrap(), None, "{moves}");
    }
    for moves in reached_elsewhere {
        assert!(database.get(&pos(moves)).unwrap().is_some(), "{moves}");
    }
}

#[test]
fn a_branch_splits_off_with_the_way_to_it() {
    let scratch = Scratch::new("split-from");
    let other = Scratch::new("split-into");
    let mut database = Database::open(&scratch.path).unwrap();
    small_tree(&mut database);
    let mut into = Database::open(&other.path).unwrap();
    assert_eq!(database.split_into(&pos("h8 i9"), &mut into).unwrap(), 3);
    for moves in ["h8", "h8 i9", "h8 i9 j10"] {
        assert_eq!(into.get(&pos(moves)).unwrap(), database.get(&pos(moves)).unwrap(), "{moves}");
    }
    assert_eq!(into.len().unwrap(), 3);
    // Again: nothing new.
    assert_eq!(database.split_into(&pos("h8 i9"), &mut into).unwrap(), 0);
}

#[test]
fn files_of_older_schemas_are_read_and_brought_up_to_date() {
    // Schema 1 had no mark, schema 2 no image a record was first written in.
    for (schema, marked_column) in [(1, ""), (2, "marked INTEGER NOT NULL DEFAULT 0,")] {
        let scratch = Scratch::new(&format!("schema-{schema}"));
        let key = analysis_db::PositionKey::of(&pos("h8 i9"));
        let file = rusqlite::Connection::open(&scratch.path).unwrap();
        file.execute_batch(&format!(
            "CREATE TABLE positions (rules TEXT NOT NULL, key BLOB NOT NULL, label INTEGER NOT NULL DEFAULT 0,
                value INTEGER, depth INTEGER, bound INTEGER NOT NULL DEFAULT 0, comment TEXT NOT NULL DEFAULT '',
                {marked_column} PRIMARY KEY (rules, key)) WITHOUT ROWID;
             CREATE TABLE texts (rules TEXT NOT NULL, key BLOB NOT NULL, cell INTEGER NOT NULL, text TEXT NOT NULL,
                PRIMARY KEY (rules, key, cell)) WITHOUT ROWID;
             PRAGMA application_id = 1835952961; PRAGMA user_version = {schema};"
        ))
        .unwrap();
        file.execute(
            "INSERT INTO positions (rules, key, label, comment) VALUES (?1, ?2, 1, 'old')",
            rusqlite::params![Rules::gomoku15().to_string(), key.bytes],
        )
        .unwrap();
        drop(file);
        let old = Record { comment: "old".to_owned(), ..Record::labelled(Label::Win) };
        // Read-only: read as it is, not changed.
        let before = std::fs::read(&scratch.path).unwrap();
        assert_eq!(
            Database::open_read_only(&scratch.path).unwrap().get(&pos("h8 i9")).unwrap(),
            Some(old.clone()),
            "schema {schema}"
        );
        assert_eq!(std::fs::read(&scratch.path).unwrap(), before);
        // For writing: brought up to date, marks kept from then on; the old
        // record (its image unknown) still goes out in a library.
        let mut database = Database::open(&scratch.path).unwrap();
        assert_eq!(database.get(&pos("h8 i9")).unwrap(), Some(old.clone()));
        database.put(&pos("h8"), &Record::default()).unwrap();
        let (_, nodes) = database.export_lib(&Position::new(Rules::gomoku15())).unwrap();
        assert_eq!(nodes, 2, "schema {schema}");
        let marked = Record { marked: true, ..old };
        database.put(&pos("h8 i9"), &marked).unwrap();
        drop(database);
        assert_eq!(
            Database::open_read_only(&scratch.path).unwrap().get(&pos("h8 i9")).unwrap(),
            Some(marked)
        );
    }
}
