//! The open-lines tally against a slow count that walks every k-cell
//! segment of the board, over random games, take-backs and jumps to other
//! boards.

use board::{Cell, Position, RuleSet, Rules, Side};
use pattern_eval::open_segments;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// A position `plies` random moves in (fewer if the game ended).
fn random_position(rules: Rules, seed: u64, plies: usize) -> Position {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::new(rules);
    while pos.ply() < plies {
        let moves: Vec<Cell> = pos.legal_moves().collect();
        let mut next = pos.clone();
        next.play(moves[rng.random_range(0..moves.len())]).unwrap();
        if next.is_over() {
            break;
        }
        pos = next;
    }
    pos
}

fn small_rules(max_side: u32) -> impl Strategy<Value = Rules> {
    (2..=max_side, 2..=max_side, any::<bool>())
        .prop_flat_map(|(w, h, exact)| (Just(w), Just(h), 2..=w.max(h).min(4), Just(exact)))
        .prop_map(|(w, h, k, exact)| {
            let rule_set = if exact { RuleSet::Exact } else { RuleSet::Freestyle };
            Rules::new(w, h, k, rule_set).unwrap()
        })
}

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
    fn open_segments_match_a_full_count(rules in small_rules(9), seed in any::<u64>(), other in small_rules(6)) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pos = Position::new(rules);
        for step in 0..3 * rules.area() {
            if pos.ply() > 0 && (pos.is_over() || rng.random_range(0..4) == 0) {
                pos.undo();
            } else if !pos.is_over() {
                let moves: Vec<Cell> = pos.legal_moves().collect();
                pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
            }
            if step % 7 == 3 {
                let elsewhere = random_position(other, seed ^ step as u64, step % 5);
                prop_assert_eq!(open_segments(&elsewhere, Side::X), reference_open(&elsewhere, Side::X));
            }
            for side in Side::ALL {
                prop_assert_eq!(open_segments(&pos, side), reference_open(&pos, side), "\n{}", pos);
            }
        }
    }
}
