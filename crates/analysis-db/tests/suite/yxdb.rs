//! The database file of Yixin and of the reference engine: a file written
//! from the format's description reads in and writes back byte for byte,
//! packed or plain, and broken files are refused without a change.

use analysis_db::{Database, Record};
use board::{Position, Rules};
use play::PROVEN_WIN;
use play::analysis_store::{Bound, Label};
use rand::rngs::SmallRng;
use rand::{RngExt as _, SeedableRng};

use crate::files::Scratch;

/// One record of the file: key bytes and record bytes.
fn record(key: &[u8], label: u8, value: i16, depth_bound: i16, text: &str) -> (Vec<u8>, Vec<u8>) {
    let mut body = vec![label];
    body.extend(value.to_le_bytes());
    body.extend(depth_bound.to_le_bytes());
    body.extend(text.as_bytes());
    (key.to_vec(), body)
}

/// The file: a count, the charset record, then the records.
fn file(records: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let mut out = ((records.len() + 1) as u32).to_le_bytes().to_vec();
    let mut meta = vec![0u8; 5];
    meta.extend(b"charset=\"UTF-8\"");
    for (key, body) in std::iter::once((vec![0u8; 3], meta)).chain(records.iter().cloned()) {
        out.extend((key.len() as u16).to_le_bytes());
        out.extend(&key);
        out.extend((body.len() as u16).to_le_bytes());
        out.extend(&body);
    }
    out
}

/// h8 (none, a text "ab" on g9); h8 g9 (the move wins: w, in 10 plies,
/// depth 12, a comment); h8 h9 (value 150, depth 9) — each key the least
/// image, stones sorted, in the file's order.
fn sample() -> Vec<u8> {
    file(&[
        record(&[0, 15, 15, 7, 7], 0xFF, 0, 0, "@BTXT@66ab"),
        record(&[0, 15, 15, 7, 7, 6, 6], b'w', -29_990, (12 << 2) | 3, "a good\u{8}reply"),
        record(&[0, 15, 15, 7, 7, 6, 7], 0xFF, 150, (9 << 2) | 3, ""),
    ])
}

fn pos(moves: &str) -> Position {
    Position::from_moves(Rules::gomoku15(), moves).unwrap()
}

#[test]
fn a_file_reads_in_and_writes_back_byte_for_byte() {
    let scratch = Scratch::new("yxdb");
    let mut database = Database::open(&scratch.path).unwrap();
    let import = database.import_yxdb(&sample()).unwrap();
    assert_eq!((import.records, import.written, import.skipped), (3, 3, 0));
    let cell = |name: &str| Rules::gomoku15().parse_cell(name).unwrap();
    assert_eq!(database.get(&pos("h8")).unwrap().unwrap().texts, [(cell("g9"), "ab".to_owned())]);
    let won = database.get(&pos("h8 i7")).unwrap().unwrap();
    assert_eq!(
        won,
        Record {
            label: Label::Loss,
            value: Some(-(PROVEN_WIN - 10)),
            depth: Some(12),
            bound: Bound::Exact,
            comment: "a good\nreply".to_owned(),
            ..Record::default()
        }
    );
    // The engine's 150 in ours (1130 : 200).
    assert_eq!(database.get(&pos("h8 h7")).unwrap().unwrap().value, Some(848));
    let (written, export) = database.export_yxdb().unwrap();
    assert_eq!((export.written, export.skipped), (3, 0));
    assert_eq!(written, sample());

    // LZ4-packed, as the reference engine saves by default.
    let mut packed = lz4_flex::frame::FrameEncoder::new(Vec::new());
    std::io::Write::write_all(&mut packed, &sample()).unwrap();
    let packed = packed.finish().unwrap();
    let other = Scratch::new("yxdb-packed");
    let mut again = Database::open(&other.path).unwrap();
    again.import_yxdb(&packed).unwrap();
    assert_eq!(again.to_csv(None).unwrap(), database.to_csv(None).unwrap());

    // Opened as ours, such a file is refused with what to do, and left as it is.
    for bytes in [sample(), packed] {
        let file = Scratch::new("yxdb-as-ours");
        std::fs::write(&file.path, &bytes).unwrap();
        let error = Database::open(&file.path).unwrap_err().to_string();
        assert!(error.contains("bench db import-yxdb"), "{error}");
        assert_eq!(std::fs::read(&file.path).unwrap(), bytes);
    }
}

#[test]
fn a_packed_file_that_unpacks_past_the_limit_is_refused_and_changes_nothing() {
    // A small file that unpacks to more than the limit: zeros, packed.
    let mut packed = lz4_flex::frame::FrameEncoder::new(Vec::new());
    let zeros = vec![0_u8; 1 << 20];
    for _ in 0..=(analysis_db::import_limit() >> 20) {
        std::io::Write::write_all(&mut packed, &zeros).unwrap();
    }
    let packed = packed.finish().unwrap();
    assert!(packed.len() < 4 << 20, "{} bytes packed", packed.len());
    let scratch = Scratch::new("yxdb-bomb");
    let mut database = Database::open(&scratch.path).unwrap();
    let error = database.import_yxdb(&packed).unwrap_err().to_string();
    assert!(error.contains("unpacks past") && error.contains("MNK_MAX_FILE_MIB"), "{error}");
    assert!(database.is_empty().unwrap());
}

#[test]
fn our_records_go_out_in_the_files_order_and_come_back() {
    let scratch = Scratch::new("yxdb-ours");
    let mut database = Database::open(&scratch.path).unwrap();
    let renju = |moves: &str| Position::from_moves(Rules::renju(), moves).unwrap();
    database
        .put(
            &renju("h8 i9 j9"),
            &Record { comment: "line one\nline two".to_owned(), ..Record::labelled(Label::Forced) },
        )
        .unwrap();
    database.put(&pos("a1 o15"), &Record::valued(-5650, 7, Bound::Lower)).unwrap();
    // Caro has no number in the format: left out.
    database
        .put(&Position::from_moves(Rules::caro(), "h8").unwrap(), &Record::labelled(Label::Draw))
        .unwrap();
    let (bytes, export) = database.export_yxdb().unwrap();
    assert_eq!((export.written, export.skipped), (2, 1));
    let other = Scratch::new("yxdb-ours-again");
    let mut again = Database::open(&other.path).unwrap();
    assert_eq!(again.import_yxdb(&bytes).unwrap().written, 2);
    assert_eq!(again.get(&renju("h8 i9 j9")).unwrap(), database.get(&renju("h8 i9 j9")).unwrap());
    assert_eq!(again.get(&pos("a1 o15")).unwrap(), database.get(&pos("a1 o15")).unwrap());
    assert_eq!(again.export_yxdb().unwrap().0, bytes);
}

#[test]
fn broken_files_are_refused_and_nothing_changes() {
    let scratch = Scratch::new("yxdb-broken");
    let mut database = Database::open(&scratch.path).unwrap();
    database.put(&pos("a1"), &Record::labelled(Label::Draw)).unwrap();
    let before = database.to_csv(None).unwrap();
    let good = sample();
    let refuse = |database: &mut Database, bytes: &[u8], says: &str| {
        let error = database.import_yxdb(bytes).unwrap_err().to_string();
        assert!(error.contains(says), "{error}");
    };
    refuse(&mut database, &good[..good.len() - 2], "ends inside a record");
    let mut extra = good.clone();
    extra.push(0);
    refuse(&mut database, &extra, "after the last record");
    let mut rule = good.clone();
    // The first record's rule byte.
    let at = 4 + 2 + 3 + 2 + 20 + 2;
    rule[at] = 7;
    refuse(&mut database, &rule, "rule 7");
    refuse(&mut database, &[0x04, 0x22, 0x4D, 0x18, 1, 2, 3], "does not unpack");
    assert_eq!(database.to_csv(None).unwrap(), before);
    let mut rng = SmallRng::seed_from_u64(67);
    for _ in 0..1_000 {
        let mut bytes = good.clone();
        let at = rng.random_range(0..bytes.len());
        if rng.random_bool(0.5) {
            bytes[at] = rng.random();
        } else {
            bytes.truncate(at);
        }
        let scratch = Scratch::new("yxdb-fuzz");
        let mut fuzzed = Database::open(&scratch.path).unwrap();
        fuzzed.put(&pos("a1"), &Record::labelled(Label::Draw)).unwrap();
        if fuzzed.import_yxdb(&bytes).is_err() {
            assert_eq!(fuzzed.to_csv(None).unwrap(), before);
        }
    }
}

#[test]
fn a_pass_reads_in_and_writes_back_after_its_sides_stones() {
    // h8 g9, then black passes: white to move, the pass after black's stones.
    let bytes = file(&[record(&[0, 15, 15, 7, 7, 0xFF, 0xFF, 6, 6], 0xFF, 40, (3 << 2) | 3, "")]);
    let scratch = Scratch::new("yxdb-pass");
    let mut database = Database::open(&scratch.path).unwrap();
    let import = database.import_yxdb(&bytes).unwrap();
    assert_eq!((import.records, import.written, import.skipped), (1, 1, 0));
    let mut passed = pos("h8 g9");
    passed.pass();
    assert!(database.get(&passed).unwrap().is_some());
    assert!(database.get(&pos("h8 g9")).unwrap().is_none(), "black to move is another position");
    let (out, export) = database.export_yxdb().unwrap();
    assert_eq!((export.written, export.skipped), (1, 0));
    assert_eq!(out, bytes);
}

#[test]
fn a_symmetric_positions_text_goes_where_the_reference_looks_it_up() {
    // At h8 a text on any of i9, g9, g7, i7 is one text, kept in the file
    // at the first in row order of its images, (6, 6): what the sample's
    // first record holds.
    let cell = |name: &str| Rules::gomoku15().parse_cell(name).unwrap();
    for given in ["i9", "g9", "g7", "i7"] {
        let scratch = Scratch::new(&format!("yxdb-symmetric-{given}"));
        let mut database = Database::open(&scratch.path).unwrap();
        let record = Record { texts: vec![(cell(given), "ab".to_owned())], ..Record::default() };
        database.put(&pos("h8"), &record).unwrap();
        let (out, _) = database.export_yxdb().unwrap();
        let expected = file(&[record_without_value(&[0, 15, 15, 7, 7], "@BTXT@66ab")]);
        assert_eq!(out, expected, "given at {given}");
    }
}

/// A record with a label of none and no value.
fn record_without_value(key: &[u8], text: &str) -> (Vec<u8>, Vec<u8>) {
    record(key, 0xFF, 0, 0, text)
}
