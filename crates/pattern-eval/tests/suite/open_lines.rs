//! The open-lines tally against a slow count that walks every k-cell
//! segment of the board, over random games, take-backs and jumps to other
//! boards.

use board::{Cell, Position, Side};
use pattern_eval::open_segments;
use proptest::prelude::*;

use crate::properties::{random_game, rules_strategy};

/// Open segments by walking every k-cell segment of the board.
fn reference_open(pos: &Position, side: Side) -> u32 {
    let rules = pos.rules();
    let k = i32::from(rules.k());
    let mut count = 0;
    for start in rules.cells() {
        for direction in board::Direction::ALL {
            let (dx, dy) = direction.delta();
            let cells: Option<Vec<Cell>> = (0..k)
                .map(|i| rules.cell(i32::from(start.x()) + dx * i, i32::from(start.y()) + dy * i))
                .collect();
            if cells.is_some_and(|cells| cells.iter().all(|&c| pos.get(c) != Some(side.opponent()))) {
                count += 1;
            }
        }
    }
    count
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// The per-thread tally follows games move by move, takebacks and
    /// jumps to other positions and boards included.
    #[test]
    fn open_segments_match_a_full_count(rules in rules_strategy(), seed in any::<u64>(), other in rules_strategy()) {
        let mut step = 0u64;
        random_game(rules, seed, |pos, _| {
            step += 1;
            if step % 7 == 3 {
                let elsewhere = random_game(other, seed ^ step, |_, _| {});
                assert_eq!(open_segments(&elsewhere, Side::X), reference_open(&elsewhere, Side::X), "\n{elsewhere}");
            }
            for side in Side::ALL {
                assert_eq!(open_segments(pos, side), reference_open(pos, side), "\n{pos}");
            }
        });
    }
}
