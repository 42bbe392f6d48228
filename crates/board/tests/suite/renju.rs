//! Renju's forbidden points against the positions of `tests/data/renju.txt`
//! (other engines' regression positions, and ours), and the rules' symmetry.

use board::renju::{Forbidden, forbidden_by_definition};
use board::{Bitboard, Cell, Rules, Transform};

/// The verdict on black `cell`, by the fast test and by the definitions'
/// stone-by-stone one, which must agree.
fn judged(rules: Rules, black: Bitboard, white: Bitboard, cell: Cell) -> Option<Forbidden> {
    let verdict = board::renju::forbidden_among(&rules, black, white, cell);
    assert_eq!(verdict, forbidden_by_definition(&rules, black, white, cell), "the two tests at {cell:?}");
    verdict
}

fn cells(rules: Rules, text: &str) -> Bitboard {
    let mut stones = Bitboard::EMPTY;
    if text.trim() != "-" {
        for word in text.split_whitespace() {
            let (x, y) = word.split_once(',').expect("x,y");
            stones.insert(rules.cell(x.parse().unwrap(), y.parse().unwrap()).expect("on the board"));
        }
    }
    stones
}

/// Every case of the data file: (line, verdict, move, black, white).
fn cases() -> Vec<(usize, Option<Forbidden>, Cell, Bitboard, Bitboard)> {
    let rules = Rules::gomoku15();
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/renju.txt")).unwrap();
    let mut cases = Vec::new();
    for (number, line) in text.lines().enumerate().filter(|(_, line)| !line.starts_with('#')) {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(fields.len(), 5, "line {}: {line}", number + 1);
        let verdict = match fields[0] {
            "allowed" => None,
            "overline" => Some(Forbidden::Overline),
            "double-four" => Some(Forbidden::DoubleFour),
            "double-three" => Some(Forbidden::DoubleThree),
            other => panic!("line {}: unknown verdict {other}", number + 1),
        };
        let cell = cells(rules, fields[1]).iter().next().expect("a move");
        cases.push((number + 1, verdict, cell, cells(rules, fields[2]), cells(rules, fields[3])));
    }
    cases
}

#[test]
fn every_fixture_gets_its_verdict() {
    let rules = Rules::gomoku15();
    let cases = cases();
    assert!(cases.len() >= 15);
    for (line, verdict, cell, black, white) in cases {
        assert_eq!(judged(rules, black, white, cell), verdict, "line {line}");
    }
}

#[test]
fn the_verdicts_hold_under_every_symmetry_of_the_board() {
    let rules = Rules::gomoku15();
    for (line, verdict, cell, black, white) in cases() {
        for transform in Transform::ALL {
            let map = |stones: Bitboard| {
                let mut mapped = Bitboard::EMPTY;
                for stone in stones {
                    mapped.insert(transform.apply(stone, &rules));
                }
                mapped
            };
            let moved = transform.apply(cell, &rules);
            assert_eq!(judged(rules, map(black), map(white), moved), verdict, "line {line}, {transform:?}");
        }
    }
}

/// A diagram as the RIF's examples draw them (rows from the top, `x`
/// black, `o` white): the stones of each colour.
fn diagram(rules: Rules, rows: &[&str]) -> (Bitboard, Bitboard) {
    let (mut black, mut white) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for (r, row) in rows.iter().enumerate() {
        for (x, mark) in row.chars().enumerate() {
            let name = format!("{}{}", (b'a' + x as u8) as char, rows.len() - r);
            let cell = rules.parse_cell(&name).unwrap();
            match mark {
                'x' => black.insert(cell),
                'o' => white.insert(cell),
                _ => {}
            }
        }
    }
    (black, white)
}

/// The RIF's three: a row one stone turns into a straight four *without
/// making a five at the same time*. In both positions a point makes two
/// rows that look like threes, but one of them becomes a straight four
/// only at a point that also completes a five on another line: it is no
/// three, and the point is no double three (the sparring partner, the
/// Piskvork manager's judge and other published checkers agree).
#[test]
fn a_row_whose_straight_four_comes_with_a_five_is_no_three() {
    let rules = Rules::renju();
    let first = diagram(
        rules,
        &[
            "...............",
            "...............",
            "...............",
            "...............",
            ".........o.....",
            ".........oo....",
            ".........x.o...",
            ".......x.o.....",
            ".......o.o.....",
            "........x......",
            ".......oxxx....",
            ".........x.....",
            ".........x.....",
            ".........x.....",
            ".........o.....",
        ],
    );
    let second = diagram(
        rules,
        &[
            "...............",
            "...............",
            "......x..o.....",
            "....oox.o......",
            "....oxxx.......",
            ".....xxo...o...",
            ".....x.x.o.....",
            "......ox.......",
            "...............",
            ".......o.......",
            "...............",
            "...............",
            "...............",
            "...............",
            "...............",
        ],
    );
    let cell = |name: &str| rules.parse_cell(name).unwrap();
    // (stones, the disputed point, the points that are forbidden)
    let cases =
        [(first, cell("i7"), vec![(cell("i3"), Forbidden::DoubleThree)]), (second, cell("e9"), vec![])];
    for ((black, white), disputed, forbidden) in cases {
        for transform in Transform::ALL {
            let map = |stones: Bitboard| stones.iter().map(|stone| transform.apply(stone, &rules)).collect();
            let (black, white): (Bitboard, Bitboard) = (map(black), map(white));
            let at = |point: Cell| judged(rules, black, white, transform.apply(point, &rules));
            assert_eq!(at(disputed), None, "{transform:?}");
            for &(point, why) in &forbidden {
                assert_eq!(at(point), Some(why), "{transform:?}");
            }
            let every: Vec<Cell> = rules
                .cells()
                .filter(|&point| !black.contains(point) && !white.contains(point))
                .filter(|&point| judged(rules, black, white, point).is_some())
                .collect();
            let expected: Vec<Cell> =
                forbidden.iter().map(|&(point, _)| transform.apply(point, &rules)).collect();
            let mut every_sorted = every.clone();
            every_sorted.sort_by_key(|cell| cell.index());
            let mut expected_sorted = expected.clone();
            expected_sorted.sort_by_key(|cell| cell.index());
            assert_eq!(every_sorted, expected_sorted, "{transform:?}: every forbidden point");
        }
    }
}
