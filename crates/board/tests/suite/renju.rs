//! Renju's forbidden points against the positions of `tests/data/renju.txt`
//! (other engines' regression positions, and ours), and the rules' symmetry.

use board::renju::{Forbidden, forbidden_among};
use board::{Bitboard, Cell, Rules, Transform};

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
        assert_eq!(forbidden_among(&rules, black, white, cell), verdict, "line {line}");
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
            assert_eq!(
                forbidden_among(&rules, map(black), map(white), moved),
                verdict,
                "line {line}, {transform:?}"
            );
        }
    }
}
