//! Records kept and read back: by symmetry, with texts, as children of a
//! position, in transactions, and from two connections at once.

use analysis_db::{Database, DbError, Record};
use board::{Position, Rules, Transform};
use play::analysis_store::{Bound, Label};

use crate::files::Scratch;

fn pos(moves: &str) -> Position {
    Position::from_moves(Rules::gomoku15(), moves).unwrap()
}

#[test]
fn a_record_reads_back_whole() {
    let scratch = Scratch::new("whole");
    let mut database = Database::open(&scratch.path).unwrap();
    let here = pos("h8 i9 j9");
    let rules = *here.rules();
    let cell = |name: &str| rules.parse_cell(name).unwrap();
    let record = Record {
        label: Label::Loss,
        value: Some(-350),
        depth: Some(14),
        bound: Bound::Upper,
        comment: "white's best is k10".to_owned(),
        marked: true,
        // Texts read back in row order, from the top.
        texts: vec![(cell("k10"), "9".to_owned()), (cell("a1"), "A".to_owned())],
    };
    database.put(&here, &record).unwrap();
    assert_eq!(database.get(&here).unwrap(), Some(record));
    assert_eq!(database.len().unwrap(), 1);
    assert_eq!(database.get(&pos("h8 i9")).unwrap(), None);
    // An empty record is kept (the position was seen); delete removes it.
    database.put(&here, &Record::default()).unwrap();
    assert_eq!(database.get(&here).unwrap(), Some(Record::default()));
    database.delete(&here).unwrap();
    assert_eq!(database.get(&here).unwrap(), None);
    assert!(database.is_empty().unwrap());
}

#[test]
fn the_eight_images_of_a_position_share_one_record_and_its_texts_follow() {
    let scratch = Scratch::new("symmetry");
    let mut database = Database::open(&scratch.path).unwrap();
    let original = pos("h8 i9 j9 a1 o3");
    let rules = *original.rules();
    let texts = vec![
        (rules.parse_cell("b2").unwrap(), "x".to_owned()),
        (rules.parse_cell("m13").unwrap(), "10".to_owned()),
    ];
    database
        .put(&original, &Record { label: Label::Win, texts: texts.clone(), ..Record::default() })
        .unwrap();
    for transform in Transform::ALL {
        let mut image = Position::new(rules);
        for &cell in original.moves() {
            image.play(transform.apply(cell, &rules)).unwrap();
        }
        let record = database.get(&image).unwrap().expect("the image's record");
        assert_eq!(record.label, Label::Win);
        let mut expected: Vec<_> =
            texts.iter().map(|(cell, text)| (transform.apply(*cell, &rules), text.clone())).collect();
        expected.sort_by_key(|&(cell, _)| rules.dense_index(cell));
        assert_eq!(record.texts, expected, "{transform:?}");
    }
    assert_eq!(database.len().unwrap(), 1);
}

#[test]
fn children_are_the_records_one_move_on() {
    let scratch = Scratch::new("children");
    let mut database = Database::open(&scratch.path).unwrap();
    let root = pos("h8 i9");
    let rules = *root.rules();
    database.put(&pos("h8 i9 j10"), &Record::labelled(Label::Win)).unwrap();
    database.put(&pos("h8 i9 g8"), &Record::valued(120, 9, Bound::Exact)).unwrap();
    database.put(&pos("h8 i9 g8 a1"), &Record::labelled(Label::Loss)).unwrap();
    let children = database.children(&root).unwrap();
    let mut names: Vec<String> = children.iter().map(|(cell, _)| cell.name(&rules).to_string()).collect();
    names.sort();
    // h8 i9 is its own mirror image in the diagonal through them: g8's
    // image there, h7, leads to the same position (up to symmetry).
    assert_eq!(names, ["g8", "h7", "j10"]);
    // Two moves on is not a child.
    assert!(children.iter().all(|(_, record)| record.label != Label::Loss));
}

#[test]
fn a_transaction_keeps_all_or_nothing() {
    let scratch = Scratch::new("transaction");
    let mut database = Database::open(&scratch.path).unwrap();
    let result: Result<(), DbError> = database.write(|database| {
        database.put_in(&pos("h8"), &Record::labelled(Label::Draw))?;
        database.put_in(&pos("h8 i9"), &Record::labelled(Label::Draw))?;
        Err(DbError::Record("stopped half way".to_owned()))
    });
    assert!(result.is_err());
    assert!(database.is_empty().unwrap(), "nothing of the failed import is kept");
    database
        .write(|database| {
            database.put_in(&pos("h8"), &Record::labelled(Label::Draw))?;
            database.put_in(&pos("h8 i9"), &Record::labelled(Label::Draw))
        })
        .unwrap();
    assert_eq!(database.len().unwrap(), 2);
}

#[test]
fn what_a_record_may_not_hold_is_refused() {
    let scratch = Scratch::new("refused");
    let mut database = Database::open(&scratch.path).unwrap();
    let here = pos("h8");
    let rules = *here.rules();
    let long = Record {
        texts: vec![(rules.parse_cell("a1").unwrap(), "a long text".to_owned())],
        ..Record::default()
    };
    let error = database.put(&here, &long).unwrap_err().to_string();
    assert!(error.contains("1 to 8 characters"), "{error}");
    let off = Record { texts: vec![(board::Cell::new(20, 20), "x".to_owned())], ..Record::default() };
    assert!(database.put(&here, &off).unwrap_err().to_string().contains("off the 15×15 board"));
    assert!(database.is_empty().unwrap());
}

#[test]
fn a_reader_and_a_writer_share_the_file() {
    let scratch = Scratch::new("shared");
    let mut writer = Database::open(&scratch.path).unwrap();
    let reader = Database::open_read_only(&scratch.path).unwrap();
    let positions: Vec<Position> =
        ["h8", "h8 i9", "h8 i9 j10", "h8 i9 j10 k11"].into_iter().map(pos).collect();
    let reader = std::thread::scope(|scope| {
        let reading = scope.spawn(|| {
            // The reader never waits and never sees a half-written record.
            for _ in 0..2_000 {
                for position in &positions {
                    if let Some(record) = reader.get(position).unwrap() {
                        assert_eq!(record.depth, Some(1));
                    }
                }
            }
            reader
        });
        for (i, position) in positions.iter().enumerate() {
            writer.put(position, &Record::valued(i as i32, 1, Bound::Exact)).unwrap();
        }
        reading.join().unwrap()
    });
    for (i, position) in positions.iter().enumerate() {
        assert_eq!(reader.get(position).unwrap().and_then(|record| record.value), Some(i as i32));
    }
    let refused =
        Database::open_read_only(&scratch.path).unwrap().put(&pos("a1"), &Record::labelled(Label::Win));
    assert!(matches!(refused, Err(DbError::ReadOnly { .. })));
}

#[test]
fn a_search_writes_through_the_book_and_keeps_what_a_person_wrote() {
    use play::{AnalysisStore, StoreEntry};
    let scratch = Scratch::new("book");
    let mut database = Database::open(&scratch.path).unwrap();
    let here = pos("h8 i9");
    database.put(&here, &Record { comment: "studied".to_owned(), ..Record::labelled(Label::None) }).unwrap();
    let entry =
        StoreEntry { label: Label::Win, value: Some(1_999_999_990), depth: Some(12), bound: Bound::Exact };
    assert!(database.writes());
    database.keep(&here, &entry).unwrap();
    assert_eq!(database.entry(&here), Some(entry));
    assert_eq!(database.get(&here).unwrap().unwrap().comment, "studied");
    // A later search with no result leaves a person's label; a shallower
    // one leaves the deeper value.
    database
        .put(&here, &Record { comment: "studied".to_owned(), ..Record::labelled(Label::Excluded) })
        .unwrap();
    database
        .keep(
            &here,
            &StoreEntry { label: Label::None, value: Some(40), depth: Some(10), bound: Bound::Exact },
        )
        .unwrap();
    database
        .keep(&here, &StoreEntry { label: Label::None, value: Some(-5), depth: Some(6), bound: Bound::Upper })
        .unwrap();
    let kept = database.get(&here).unwrap().unwrap();
    assert_eq!(
        (kept.label, kept.value, kept.depth, kept.bound),
        (Label::Excluded, Some(40), Some(10), Bound::Exact)
    );
    let mut reader = Database::open_read_only(&scratch.path).unwrap();
    assert!(!reader.writes());
    assert!(reader.keep(&here, &entry).unwrap_err().contains("read-only"));
}

#[test]
fn merging_adds_what_is_missing_and_deeper_values_all_or_nothing() {
    let (ours, theirs) = (Scratch::new("merge-ours"), Scratch::new("merge-theirs"));
    let mut into = Database::open(&ours.path).unwrap();
    let mut from = Database::open(&theirs.path).unwrap();
    let rules = Rules::gomoku15();
    let a1 = rules.parse_cell("a1").unwrap();
    into.put(&pos("h8"), &Record { comment: "ours".to_owned(), ..Record::valued(10, 4, Bound::Exact) })
        .unwrap();
    from.put(&pos("h8"), &Record { comment: "theirs".to_owned(), ..Record::valued(20, 9, Bound::Lower) })
        .unwrap();
    into.put(&pos("h8 i9"), &Record::labelled(Label::Win)).unwrap();
    from.put(&pos("h8 i9"), &Record { texts: vec![(a1, "t".to_owned())], ..Record::labelled(Label::Loss) })
        .unwrap();
    from.put(&pos("h8 i9 j10"), &Record::labelled(Label::Draw)).unwrap();
    drop(from);
    let (added, changed) = into.merge_from(&theirs.path).unwrap();
    assert_eq!((added, changed), (1, 1));
    // The deeper value, our comment kept; our label kept, their text added; theirs alone copied.
    let h8 = into.get(&pos("h8")).unwrap().unwrap();
    assert_eq!(
        (h8.value, h8.depth, h8.bound, h8.comment.as_str()),
        (Some(20), Some(9), Bound::Lower, "ours")
    );
    let h8i9 = into.get(&pos("h8 i9")).unwrap().unwrap();
    assert_eq!((h8i9.label, h8i9.texts), (Label::Win, vec![(a1, "t".to_owned())]));
    assert_eq!(into.get(&pos("h8 i9 j10")).unwrap().map(|r| r.label), Some(Label::Draw));
    // A file that is not a database changes nothing.
    let notes = Scratch::new("merge-notes");
    std::fs::write(&notes.path, "notes").unwrap();
    let before = into.len().unwrap();
    assert!(into.merge_from(&notes.path).is_err());
    assert_eq!(into.len().unwrap(), before);
    assert!(Database::open_read_only(&ours.path).unwrap().merge_from(&theirs.path).is_err());
}

#[test]
fn a_symmetric_positions_text_is_one_text_on_every_image_of_its_point() {
    let scratch = Scratch::new("symmetric-texts");
    let mut database = Database::open(&scratch.path).unwrap();
    // h8 alone is symmetric under all eight: i9, g9, g7 and i7 are one point.
    let here = pos("h8");
    let cell = |name: &str| Rules::gomoku15().parse_cell(name).unwrap();
    for given in ["i9", "g9", "g7", "i7"] {
        let record = Record { texts: vec![(cell(given), "ab".to_owned())], ..Record::default() };
        database.put(&here, &record).unwrap();
        let read = database.get(&here).unwrap().unwrap();
        // Kept at one point (the first in row order: g9), whichever image was given.
        assert_eq!(read.texts, [(cell("g9"), "ab".to_owned())], "given at {given}");
        for image in ["i9", "g9", "g7", "i7"] {
            assert_eq!(read.text_at(&here, cell(image)), Some("ab"), "{image}, given at {given}");
        }
        assert_eq!(read.text_at(&here, cell("h9")), None);
    }
    // Changed or taken away on one image: on all of them.
    let mut record = database.get(&here).unwrap().unwrap();
    record.set_text(&here, cell("i7"), Some("c".to_owned()));
    assert_eq!(record.texts, [(cell("i7"), "c".to_owned())]);
    record.set_text(&here, cell("g9"), None);
    assert!(record.texts.is_empty());
    // h8 h9 is symmetric in its column only: g10 and i10 are one point,
    // g10 and j10 two.
    let other = pos("h8 h9");
    let mut record = Record::default();
    record.set_text(&other, cell("g10"), Some("x".to_owned()));
    record.set_text(&other, cell("i10"), Some("y".to_owned()));
    assert_eq!(record.texts, [(cell("i10"), "y".to_owned())]);
    record.set_text(&other, cell("j10"), Some("z".to_owned()));
    assert_eq!(record.texts.len(), 2);
}
