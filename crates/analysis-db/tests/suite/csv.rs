//! Records as CSV: out and back in unchanged, bad lines refused by number
//! with nothing changed.

use analysis_db::{Database, Record};
use board::{Position, Rules};
use play::analysis_store::{Bound, Label};

use crate::files::Scratch;

#[test]
fn records_go_out_as_csv_and_come_back_the_same() {
    let scratch = Scratch::new("csv-out");
    let mut database = Database::open(&scratch.path).unwrap();
    let rules = Rules::gomoku15();
    let cell = |name: &str| rules.parse_cell(name).unwrap();
    let records = [
        (
            Position::from_moves(rules, "h8 i9 j9").unwrap(),
            Record {
                label: Label::Loss,
                value: Some(-350),
                depth: Some(14),
                bound: Bound::Upper,
                comment: "a \"quoted\", two-line\ncomment".to_owned(),
                marked: true,
                texts: vec![(cell("k10"), "9".to_owned()), (cell("a1"), "é".to_owned())],
            },
        ),
        (Position::from_moves(Rules::renju(), "h8").unwrap(), Record::labelled(Label::Forced)),
        (Position::new(rules), Record::default()),
    ];
    for (pos, record) in &records {
        database.put(pos, record).unwrap();
    }
    let csv = database.to_csv(None).unwrap();
    assert_eq!(csv.lines().next(), Some("rules,to_move,x,o,label,value,depth,bound,marked,comment,texts"));
    let other = Scratch::new("csv-in");
    let mut again = Database::open(&other.path).unwrap();
    assert_eq!(again.import_csv(&csv).unwrap(), 3);
    for (pos, record) in &records {
        assert_eq!(again.get(pos).unwrap().as_ref(), Some(record));
    }
    assert_eq!(again.to_csv(None).unwrap(), csv);
    // One rule set's records.
    assert_eq!(database.to_csv(Some(Rules::renju())).unwrap().lines().count(), 2);
}

#[test]
fn a_bad_line_is_named_and_nothing_is_read() {
    let scratch = Scratch::new("csv-bad");
    let mut database = Database::open(&scratch.path).unwrap();
    let header = "rules,to_move,x,o,label,value,depth,bound,marked,comment,texts";
    let good = "\"15,15,5\",o,h8,,win,,,exact,0,,";
    let cases = [
        ("rules,x\n", "first line"),
        ("15,15,5,x,h8,,win,,,exact,0,,", "first line"),
        (&format!("{header}\n{good}\n\"15,15,5\",o,h8,,maybe,,,exact,0,,\n") as &str, "CSV line 3"),
        (&format!("{header}\n\"15,15,5\",x,h8 h8,,win,,,exact,0,,\n"), "CSV line 2"),
        (&format!("{header}\n\"15,15,5\",o,h8 h9 h10,,win,,,exact,0,,\n"), "alternate moves"),
        (&format!("{header}\n\"15,15,5\",x,z99,,win,,,exact,0,,\n"), "z99"),
        (&format!("{header}\n\"15,15,5\",x,,,win,12x,,exact,0,,\n"), "value"),
        (&format!("{header}\n\"15,15,5\",x,,,win,,,exact,0,\"open\n"), "not closed"),
        (&format!("{header}\n\"15,15,5\",x,,,win,,,exact,0,,a1\n"), "point=text"),
    ];
    for (text, says) in cases {
        let error = database.import_csv(text).unwrap_err().to_string();
        assert!(error.contains(says), "{text:?}: {error}");
        assert!(database.is_empty().unwrap(), "{text:?}");
    }
}
