//! RenLib `.lib` files: a hand-made library read and written back byte
//! for byte, random libraries through the database and back, and broken
//! files refused without a change.

use analysis_db::{Database, Record};
use board::{Cell, Position, Rules};
use play::analysis_store::Label;
use rand::rngs::SmallRng;
use rand::{RngExt as _, SeedableRng};

use crate::files::Scratch;

/// A node of a library as the test writes it.
struct Node {
    cell: Cell,
    comment: Vec<u8>,
    text: Vec<u8>,
    mark: bool,
    /// A marker: a text on the point, no stone played.
    marker: bool,
    children: Vec<Node>,
}

fn node(name: &str, comment: &[u8], text: &[u8], mark: bool, children: Vec<Node>) -> Node {
    let cell = Rules::renju().parse_cell(name).unwrap();
    Node { cell, comment: comment.to_vec(), text: text.to_vec(), mark, marker: false, children }
}

fn marker(name: &str, text: &[u8]) -> Node {
    Node { marker: true, ..node(name, b"", text, false, Vec::new()) }
}

/// The file of `siblings` under a 3.0 header, written from the format's
/// description (the slow, obvious reference).
fn library(siblings: &[Node]) -> Vec<u8> {
    let mut out = vec![0xFF, b'R', b'e', b'n', b'L', b'i', b'b', 0xFF, 3, 0];
    out.extend([0xFF; 10]);
    write_siblings(siblings, &mut out);
    out
}

fn write_siblings(siblings: &[Node], out: &mut Vec<u8>) {
    for (i, node) in siblings.iter().enumerate() {
        let mut flags = 0u8;
        if i + 1 < siblings.len() {
            flags |= 0x80;
        }
        if node.children.is_empty() {
            flags |= 0x40;
        }
        if node.mark {
            flags |= 0x10;
        }
        if node.marker {
            flags |= 0x02;
        }
        if !node.comment.is_empty() {
            flags |= 0x08;
        }
        if !node.text.is_empty() {
            flags |= 0x01;
        }
        out.push((node.cell.y() << 4) | (node.cell.x() + 1));
        out.push(flags);
        if !node.text.is_empty() {
            out.extend([0, 1]);
        }
        for run in [&node.comment, &node.text] {
            if !run.is_empty() {
                out.extend(run.iter());
                out.extend(if run.len() % 2 == 1 { vec![0] } else { vec![0, 0] });
            }
        }
        write_siblings(&node.children, out);
    }
}

fn pos(moves: &str) -> Position {
    Position::from_moves(Rules::renju(), moves).unwrap()
}

fn hand_made() -> Vec<u8> {
    library(&[node(
        "h8",
        b"Welcome\x08line two\r\nline three",
        b"",
        false,
        vec![
            node("h9", b"", b"a", false, vec![node("i10", b"", b"W", true, vec![])]),
            // A comment in a legacy code page (not UTF-8): kept byte for byte.
            node("i9", b"\xc6\xe5 bad", b"L", false, vec![node("j10", b"", b"", false, vec![])]),
            // A letter D is a text, not a draw; a marker a letter on a
            // point (at h8, symmetric all ways, where the text is kept: the
            // first in row order of its images).
            node("j9", b"", b"D", false, vec![]),
            marker("e12", b"A"),
        ],
    )])
}

#[test]
fn a_library_reads_in_and_writes_back_byte_for_byte() {
    let scratch = Scratch::new("lib-hand");
    let mut database = Database::open(&scratch.path).unwrap();
    let file = hand_made();
    let import = database.import_lib(&file, Rules::renju()).unwrap();
    assert_eq!((import.nodes, import.skipped), (7, 0));
    // Six positions written, each once, though texts write to their parents too.
    assert_eq!(import.written, 6);
    // What the records say.
    let h8 = database.get(&pos("h8")).unwrap().unwrap();
    assert_eq!(h8.comment, "Welcome\nline two\nline three");
    let cell = |name: &str| Rules::renju().parse_cell(name).unwrap();
    // W and L are labels (the mover's result), other texts texts.
    assert_eq!(h8.texts.len(), 3);
    let here = pos("h8");
    for (at, text) in [("e12", "A"), ("k12", "A"), ("h9", "a"), ("g8", "a"), ("j9", "D"), ("f7", "D")] {
        assert_eq!(h8.text_at(&here, cell(at)), Some(text), "{at}");
    }
    assert_eq!(h8.text_at(&here, cell("i9")), None, "L is i9's label");
    assert_eq!(database.get(&pos("h8 j9")).unwrap(), Some(Record::default()));
    assert_eq!(database.get(&pos("h8 e12")).unwrap(), None, "a marker plays no stone");
    let won = database.get(&pos("h8 h9 i10")).unwrap().unwrap();
    assert_eq!((won.label, won.marked), (Label::Loss, true), "W: the mover wins, the side to move loses");
    assert_eq!(database.get(&pos("h8 i9")).unwrap().unwrap().label, Label::Win);
    assert_eq!(database.get(&pos("h8 i9 j10")).unwrap(), Some(Record::default()), "a bare node is kept");
    // Written back: the same bytes.
    let (written, nodes) = database.export_lib(&Position::new(Rules::renju())).unwrap();
    assert_eq!(nodes, 7);
    assert_eq!(written, file);
    // From a position down: the way to it, then its branch.
    let (branch, nodes) = database.export_lib(&pos("h8 i9")).unwrap();
    assert_eq!(nodes, 3);
    let mut again = Database::open(&Scratch::new("lib-branch").path).unwrap();
    again.import_lib(&branch, Rules::renju()).unwrap();
    assert!(again.get(&pos("h8 i9 j10")).unwrap().is_some());
    assert!(again.get(&pos("h8 h9")).unwrap().is_none());
}

/// A random tree of moves near the centre, with random comments, texts
/// (some in bytes that are not UTF-8) and marks.
fn random_tree(rng: &mut SmallRng, depth: usize, taken: &mut Vec<Cell>) -> Vec<Node> {
    if depth == 0 {
        return Vec::new();
    }
    let count = rng.random_range(0..=3);
    let mut siblings = Vec::new();
    for _ in 0..count {
        let cell = Cell::new(rng.random_range(4..11), rng.random_range(4..11));
        if taken.contains(&cell) || siblings.iter().any(|node: &Node| node.cell == cell) {
            continue;
        }
        let mut bytes = |chance: f64| -> Vec<u8> {
            if !rng.random_bool(chance) {
                return Vec::new();
            }
            let len = rng.random_range(1..6);
            (0..len)
                .map(|_| {
                    if rng.random_bool(0.8) {
                        rng.random_range(b'a'..=b'z')
                    } else {
                        rng.random_range(0x80..=0xFF)
                    }
                })
                .collect()
        };
        let (comment, text) = (bytes(0.3), bytes(0.3));
        taken.push(cell);
        let children = random_tree(rng, depth - 1, taken);
        taken.pop();
        siblings.push(Node { cell, comment, text, mark: rng.random_bool(0.1), marker: false, children });
    }
    siblings
}

#[test]
fn random_libraries_go_through_the_database_and_back_unchanged() {
    let mut rng = SmallRng::seed_from_u64(65);
    let empty = Position::new(Rules::renju());
    for round in 0..25 {
        let tree = random_tree(&mut rng, 6, &mut Vec::new());
        let first = Scratch::new(&format!("lib-random-{round}"));
        let mut database = Database::open(&first.path).unwrap();
        database.import_lib(&library(&tree), Rules::renju()).unwrap();
        let (written, _) = database.export_lib(&empty).unwrap();
        // Through a second database: the same file and the same records.
        let second = Scratch::new(&format!("lib-random-{round}-again"));
        let mut again = Database::open(&second.path).unwrap();
        again.import_lib(&written, Rules::renju()).unwrap();
        assert_eq!(again.export_lib(&empty).unwrap().0, written, "round {round}");
        assert_eq!(again.to_csv(None).unwrap(), database.to_csv(None).unwrap(), "round {round}");
    }
}

/// Every move path of a library's tree (each node's moves from the root),
/// read from the format's description.
fn paths_of_file(bytes: &[u8]) -> Vec<Vec<Cell>> {
    fn run(bytes: &[u8], at: &mut usize) {
        loop {
            let (first, second) = (bytes[*at], bytes[*at + 1]);
            *at += 2;
            if first == 0 || second == 0 {
                return;
            }
        }
    }
    fn siblings(bytes: &[u8], at: &mut usize, path: &mut Vec<Cell>, paths: &mut Vec<Vec<Cell>>) {
        loop {
            let (spot, flags) = (bytes[*at], bytes[*at + 1]);
            *at += 2;
            if flags & 0x01 != 0 {
                *at += 2;
            }
            if flags & 0x08 != 0 {
                run(bytes, at);
            }
            if flags & 0x01 != 0 {
                run(bytes, at);
            }
            path.push(Cell::new((spot & 0x0F) - 1, spot >> 4));
            paths.push(path.clone());
            if flags & 0x40 == 0 {
                siblings(bytes, at, path, paths);
            }
            path.pop();
            if flags & 0x80 == 0 {
                return;
            }
        }
    }
    let mut paths = Vec::new();
    if bytes.len() > 20 {
        siblings(bytes, &mut 20, &mut Vec::new(), &mut paths);
    }
    paths.sort();
    paths
}

/// Every move path of a tree as the test made it.
fn paths_of_tree(siblings: &[Node], path: &mut Vec<Cell>, paths: &mut Vec<Vec<Cell>>) {
    for node in siblings {
        path.push(node.cell);
        paths.push(path.clone());
        paths_of_tree(&node.children, path, paths);
        path.pop();
    }
}

#[test]
fn an_exported_library_has_the_move_paths_of_the_one_imported() {
    let mut rng = SmallRng::seed_from_u64(79);
    let empty = Position::new(Rules::renju());
    let mut compared = 0;
    while compared < 30 {
        let tree = random_tree(&mut rng, 6, &mut Vec::new());
        let mut paths = Vec::new();
        paths_of_tree(&tree, &mut Vec::new(), &mut paths);
        // Trees where two nodes reach one position (a transposition, or
        // mirror images) unfold otherwise: left to other tests.
        let mut keys: Vec<Vec<u8>> = paths
            .iter()
            .map(|path| {
                let mut pos = Position::new(Rules::renju());
                for &cell in path {
                    pos.play_unchecked(cell);
                }
                analysis_db::PositionKey::of(&pos).bytes
            })
            .collect();
        keys.sort();
        keys.dedup();
        if keys.len() != paths.len() || paths.len() < 3 {
            continue;
        }
        let scratch = Scratch::new(&format!("lib-paths-{compared}"));
        let mut database = Database::open(&scratch.path).unwrap();
        let import = database.import_lib(&library(&tree), Rules::renju()).unwrap();
        if import.skipped > 0 {
            continue; // a move renju refuses
        }
        paths.sort();
        let (written, _) = database.export_lib(&empty).unwrap();
        assert_eq!(paths_of_file(&written), paths, "tree {compared}");
        compared += 1;
    }
}

#[test]
fn a_position_written_twice_says_its_comment_once() {
    // h8 i9 j10 k11 and h8 k11 j10 i9 reach one position; its comment.
    let tree = [node(
        "h8",
        b"",
        b"",
        false,
        vec![
            node(
                "k11",
                b"",
                b"",
                false,
                vec![node("j10", b"", b"", false, vec![node("i9", b"here", b"", false, vec![])])],
            ),
            node(
                "i9",
                b"",
                b"",
                false,
                vec![node("j10", b"", b"", false, vec![node("k11", b"", b"", false, vec![])])],
            ),
        ],
    )];
    let scratch = Scratch::new("lib-comment-once");
    let mut database = Database::open(&scratch.path).unwrap();
    database.import_lib(&library(&tree), Rules::renju()).unwrap();
    let (written, nodes) = database.export_lib(&Position::new(Rules::renju())).unwrap();
    assert_eq!(nodes, 7);
    assert_eq!(written.windows(4).filter(|window| window == b"here").count(), 1);
}

/// A library's bytes: the 3.0 header, then `nodes` as they are.
fn raw(nodes: &[u8]) -> Vec<u8> {
    let mut out = vec![0xFF, b'R', b'e', b'n', b'L', b'i', b'b', 0xFF, 3, 0];
    out.extend([0xFF; 10]);
    out.extend(nodes);
    out
}

/// The move byte of a point: its column + 1, its row from the top.
fn spot(name: &str) -> u8 {
    let cell = Rules::renju().parse_cell(name).unwrap();
    (cell.y() << 4) | (cell.x() + 1)
}

#[test]
fn libraries_renlib_reads_are_read_as_it_reads_them() {
    let csv_of = |bytes: &[u8]| {
        let scratch = Scratch::new("lib-lenient");
        let mut database = Database::open(&scratch.path).unwrap();
        let import = database.import_lib(bytes, Rules::renju()).unwrap();
        (import, database.to_csv(None).unwrap())
    };
    // One move whose flags promise a child the file does not hold: the
    // end of the file ends the tree.
    let (import, csv) = csv_of(&raw(&[spot("h8"), 0x00]));
    assert_eq!(import.nodes, 1);
    assert_eq!(csv.lines().count(), 2, "a header and h8's record: {csv}");
    // Bytes after the tree's last node, one or a node's worth: not read.
    let (_, whole) = csv_of(&hand_made());
    for extra in [&[0x78][..], &[0x78, 0x40][..]] {
        let mut file = hand_made();
        file.extend(extra);
        assert_eq!(csv_of(&file).1, whole, "{extra:?}");
    }
    // A pass (a node without a move below the root) hands the turn over:
    // h8, h9, a pass by black, then i9 is white's.
    let (import, csv) = csv_of(&raw(&[spot("h8"), 0x00, spot("h9"), 0x00, 0x00, 0x00, spot("i9"), 0x40]));
    assert_eq!((import.nodes, import.skipped), (4, 0));
    let mut after = pos("h8 h9");
    after.pass();
    let scratch = Scratch::new("lib-pass");
    let mut database = Database::open(&scratch.path).unwrap();
    database
        .import_lib(&raw(&[spot("h8"), 0x00, spot("h9"), 0x00, 0x00, 0x00, spot("i9"), 0x40]), Rules::renju())
        .unwrap();
    assert!(database.get(&after).unwrap().is_some(), "the position after the pass: {csv}");
    after.play(Rules::renju().parse_cell("i9").unwrap()).unwrap();
    assert_eq!(after.marks(board::Side::O).count(), 2, "i9 is white's");
    assert!(database.get(&after).unwrap().is_some(), "{csv}");
}

#[test]
fn broken_libraries_are_refused_with_where_and_nothing_changes() {
    let scratch = Scratch::new("lib-broken");
    let mut database = Database::open(&scratch.path).unwrap();
    database.put(&pos("a1"), &Record::labelled(Label::Draw)).unwrap();
    let before = database.to_csv(None).unwrap();
    let file = hand_made();
    let refuse = |database: &mut Database, bytes: &[u8], says: &str| {
        let error = database.import_lib(bytes, Rules::renju()).unwrap_err().to_string();
        assert!(error.contains(says), "{error}");
    };
    refuse(&mut database, &file[..10], "fewer than its header's 20");
    refuse(&mut database, b"not a renlib file at all, clearly", "not a RenLib");
    let mut newer = file.clone();
    newer[8] = 4;
    refuse(&mut database, &newer, "version 4.0");
    refuse(&mut database, &file[..file.len() - 3], "at byte");
    let error = database.import_lib(&file, Rules::gomoku20()).unwrap_err();
    assert!(error.to_string().contains("up to 15×15"), "{error}");
    assert_eq!(database.to_csv(None).unwrap(), before);

    // Random damage: never a panic; a refusal changes nothing.
    let mut rng = SmallRng::seed_from_u64(66);
    for _ in 0..2_000 {
        let mut bytes = file.clone();
        match rng.random_range(0..3) {
            0 => {
                let at = rng.random_range(0..bytes.len());
                bytes[at] = rng.random();
            }
            1 => bytes.truncate(rng.random_range(0..bytes.len())),
            _ => {
                let at = rng.random_range(20..bytes.len());
                bytes.insert(at, rng.random());
            }
        }
        let scratch = Scratch::new("lib-fuzz");
        let mut fuzzed = Database::open(&scratch.path).unwrap();
        fuzzed.put(&pos("a1"), &Record::labelled(Label::Draw)).unwrap();
        if fuzzed.import_lib(&bytes, Rules::renju()).is_err() {
            assert_eq!(fuzzed.to_csv(None).unwrap(), before);
        }
    }
}

#[test]
fn a_text_on_a_point_without_a_record_goes_out_as_a_marker_and_comes_back() {
    let scratch = Scratch::new("lib-marker-out");
    let mut database = Database::open(&scratch.path).unwrap();
    let empty = Position::new(Rules::renju());
    let cell = |name: &str| Rules::renju().parse_cell(name).unwrap();
    let record = Record { texts: vec![(cell("h8"), "A".to_owned())], ..Record::default() };
    database.put(&empty, &record).unwrap();
    database.put(&pos("h8 h9"), &Record::labelled(Label::Draw)).unwrap();
    let (written, nodes) = database.export_lib(&empty).unwrap();
    // The marker alone: h8 has no record, so no move reaches h8 h9.
    assert_eq!(nodes, 1);
    let mut again = Database::open(&Scratch::new("lib-marker-in").path).unwrap();
    again.import_lib(&written, Rules::renju()).unwrap();
    assert_eq!(again.get(&empty).unwrap().unwrap().texts, record.texts);
    assert_eq!(again.get(&pos("h8")).unwrap(), None);
}
