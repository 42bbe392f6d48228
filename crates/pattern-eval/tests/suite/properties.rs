//! Property tests: incremental windows, cell scores and position scores
//! agree with slow, obviously-correct references that walk the board cell
//! by cell, over random games on random boards with random weights.

use board::{Cell, Direction, Position, RuleSet, Rules, Side};
use pattern_eval::{
    BLOCKS_NOW, FORCED_WIN, Family, PatternBoard, PatternEvaluator, PatternIndex, PatternTable, WINS_NOW,
    Weights, Window,
};
use play::Evaluator;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The cell `steps` steps from `cell` along `direction`, if on the board.
fn step(rules: Rules, cell: Cell, direction: Direction, steps: i32) -> Option<Cell> {
    let (dx, dy) = direction.delta();
    rules.cell(i32::from(cell.x()) + dx * steps, i32::from(cell.y()) + dy * steps)
}

/// The length of `side`'s run through `cell` if it played there.
fn run_through(pos: &Position, cell: Cell, side: Side, direction: Direction) -> u32 {
    let mut run = 1;
    for sign in [-1, 1] {
        let mut steps = 1;
        while step(*pos.rules(), cell, direction, sign * steps).is_some_and(|c| pos.get(c) == Some(side)) {
            run += 1;
            steps += 1;
        }
    }
    run
}

/// Whether `side` playing `cell` wins along `direction`.
fn really_wins(pos: &Position, cell: Cell, side: Side, direction: Direction) -> bool {
    let run = run_through(pos, cell, side, direction);
    let k = u32::from(pos.rules().k());
    match pos.rules().rule_set() {
        RuleSet::Freestyle => run >= k,
        RuleSet::Exact => run == k,
        RuleSet::Renju | RuleSet::Caro | RuleSet::CaroFreestyle => {
            unreachable!("the properties draw plain rules")
        }
    }
}

/// The pattern `side` sees around `cell`, written as the table documents:
/// a classic mask with the far-left cell as its top bit (off the board
/// and the opponent count as empty), or a base-3 number far left first
/// (0 empty, 1 own, 2 blocked; everything past a block blocked).
fn reference_pattern(pos: &Position, cell: Cell, side: Side, direction: Direction, family: Family) -> u32 {
    let n = i32::from(pos.rules().k()) - 1;
    let offsets: Vec<i32> = (-n..0).chain(1..=n).collect();
    match family {
        Family::Classic => offsets.iter().fold(0, |mask, &o| {
            let own = step(*pos.rules(), cell, direction, o).is_some_and(|c| pos.get(c) == Some(side));
            mask << 1 | u32::from(own)
        }),
        Family::Ternary => {
            // Walk outwards on each side, blocked from the first block on.
            let digit_at = |o: i32| {
                let sign = o.signum();
                for s in 1..=o.abs() {
                    match step(*pos.rules(), cell, direction, sign * s).map(|c| pos.get(c)) {
                        None => return 2,
                        Some(Some(mark)) if mark != side => return 2,
                        _ => {}
                    }
                }
                u32::from(pos.get(step(*pos.rules(), cell, direction, o).unwrap()) == Some(side))
            };
            offsets.iter().fold(0, |value, &o| value * 3 + digit_at(o))
        }
    }
}

/// The value of `side`'s view: `None` for a real win, else the weight
/// (a pattern that only looks like a win, an overline under the exact
/// rule, is worth nothing), and whether the view holds an own mark.
fn reference_view(
    pos: &Position,
    cell: Cell,
    side: Side,
    direction: Direction,
    weights: &Weights,
) -> (Option<i32>, bool) {
    if really_wins(pos, cell, side, direction) {
        return (None, true);
    }
    let table = PatternTable::new(weights.family(), weights.k()).unwrap();
    let pattern = reference_pattern(pos, cell, side, direction, weights.family());
    let value = match table.index(pattern) {
        PatternIndex::Weight(i) => weights.values()[i],
        PatternIndex::Zero | PatternIndex::Win => 0,
    };
    let holds_own = match weights.family() {
        Family::Classic => pattern != 0,
        // An own digit (1) anywhere: cells past a block are 2.
        Family::Ternary => {
            let mut rest = pattern;
            (0..2 * (weights.k() - 1)).any(|_| {
                let own = rest % 3 == 1;
                rest /= 3;
                own
            })
        }
    };
    (Some(value), holds_own)
}

#[derive(Debug, PartialEq, Eq)]
enum Expected {
    Wins,
    Blocks,
    Sum(i32),
}

/// "Classic pattern weights" in docs/algorithms.md: Σ (own weight + 1 where the own view is not empty) + Σ opponent weight.
fn reference_cell(pos: &Position, cell: Cell, weights: &Weights) -> Expected {
    let side = pos.side_to_move();
    let mut sum = 0;
    let mut blocks = false;
    for direction in Direction::ALL {
        match reference_view(pos, cell, side, direction, weights) {
            (None, _) => return Expected::Wins,
            (Some(value), holds_own) => sum += value + i32::from(holds_own),
        }
        match reference_view(pos, cell, side.opponent(), direction, weights) {
            (None, _) => blocks = true,
            (Some(value), _) => sum += value,
        }
    }
    if blocks { Expected::Blocks } else { Expected::Sum(sum) }
}

fn classify(score: i32) -> Expected {
    if score >= WINS_NOW {
        Expected::Wins
    } else if score >= BLOCKS_NOW {
        Expected::Blocks
    } else {
        Expected::Sum(score)
    }
}

/// The position score as [`PatternEvaluator::evaluate`] documents it.
fn reference_evaluate(pos: &Position, weights: &Weights) -> i32 {
    if let Some(outcome) = pos.outcome() {
        return match outcome.winner() {
            Some(winner) if winner == pos.side_to_move() => FORCED_WIN,
            Some(_) => -FORCED_WIN,
            None => 0,
        };
    }
    let mover = pos.side_to_move();
    let mut total = 0i64;
    let mut threats = 0;
    for cell in pos.empty_cells() {
        let views = |side| Direction::ALL.map(|d| reference_view(pos, cell, side, d, weights).0);
        let (mine, theirs) = (views(mover), views(mover.opponent()));
        if mine.contains(&None) {
            return FORCED_WIN;
        }
        if theirs.contains(&None) {
            threats += 1;
        } else {
            total += mine
                .iter()
                .chain(&theirs)
                .zip([1, 1, 1, 1, -1, -1, -1, -1])
                .map(|(v, sign)| i64::from(v.unwrap()) * sign)
                .sum::<i64>();
        }
    }
    if threats >= 2 {
        return -FORCED_WIN;
    }
    total.clamp(-i64::from(FORCED_WIN / 2), i64::from(FORCED_WIN / 2)) as i32
}

pub(crate) fn rules_strategy() -> impl Strategy<Value = Rules> {
    (2u32..=12, 2u32..=12, any::<bool>())
        .prop_flat_map(|(w, h, exact)| (Just(w), Just(h), 2..=w.max(h).min(8), Just(exact)))
        .prop_map(|(w, h, k, exact)| {
            let rule_set = if exact { RuleSet::Exact } else { RuleSet::Freestyle };
            Rules::new(w, h, k, rule_set).unwrap()
        })
}

/// A random game: random moves, sometimes taken back, calling `check`
/// after every change.
pub(crate) fn random_game(
    rules: Rules,
    seed: u64,
    mut check: impl FnMut(&Position, Option<(Cell, Side, bool)>),
) -> Position {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::new(rules);
    for _ in 0..rules.area() + 10 {
        if pos.ply() > 0 && (pos.is_over() || rng.random_range(0..5) == 0) {
            let side = pos.side_to_move().opponent();
            let cell = pos.undo().unwrap();
            check(&pos, Some((cell, side, false)));
        } else if !pos.is_over() {
            let moves: Vec<Cell> = pos.legal_moves().collect();
            let cell = moves[rng.random_range(0..moves.len())];
            let side = pos.side_to_move();
            pos.play(cell).unwrap();
            check(&pos, Some((cell, side, true)));
        }
    }
    pos
}

fn random_weights(family: Family, k: u32, seed: u64) -> Weights {
    let len = PatternTable::new(family, k).unwrap().len();
    let mut rng = SmallRng::seed_from_u64(seed);
    Weights::new(family, k, (0..len).map(|_| rng.random_range(-1000..=1000)).collect()).unwrap()
}

proptest! {
    #[test]
    fn incremental_windows_equal_fresh_ones(rules in rules_strategy(), seed in any::<u64>()) {
        let k = u32::from(rules.k());
        let mut board = PatternBoard::new(rules).unwrap();
        random_game(rules, seed, |pos, change| {
            let (cell, side, placed) = change.unwrap();
            if placed { board.place(cell, side) } else { board.remove(cell, side) }
            for cell in rules.cells() {
                for direction in Direction::ALL {
                    assert_eq!(board.window(cell, direction), Window::from_position(pos, cell, direction, k));
                }
            }
        });
    }

    #[test]
    fn cell_scores_follow_the_definition(rules in rules_strategy(), seed in any::<u64>(), ternary in any::<bool>()) {
        let family = if ternary { Family::Ternary } else { Family::Classic };
        let weights = random_weights(family, u32::from(rules.k()), seed);
        let evaluator = PatternEvaluator::new(weights.clone());
        let mut board = PatternBoard::new(rules).unwrap();
        let (mut fresh, mut incremental) = (Vec::new(), Vec::new());
        random_game(rules, seed ^ 1, |pos, _| {
            board.sync(pos).unwrap();
            evaluator.score_cells(pos, &mut fresh);
            evaluator.score_cells_on(&board, pos, &mut incremental);
            assert_eq!(fresh, incremental);
            if pos.is_over() {
                assert!(fresh.is_empty());
                return;
            }
            assert_eq!(fresh.len(), pos.legal_move_count());
            for &(cell, score) in &fresh {
                assert_eq!(classify(score), reference_cell(pos, cell, &weights), "{cell} {family} {:?} in\n{pos}", pos.rules());
                assert_eq!(evaluator.score_cell(pos, cell), score);
            }
            assert_eq!(evaluator.evaluate(pos), reference_evaluate(pos, &weights), "\n{pos}");
        });
    }

    #[test]
    fn ranking_is_sorted_and_complete(rules in rules_strategy(), seed in any::<u64>()) {
        let evaluator = PatternEvaluator::default_for(Family::Ternary, u32::from(rules.k())).unwrap();
        let pos = random_game(rules, seed, |_, _| {});
        let mut ranked = Vec::new();
        evaluator.rank_moves(&pos, &mut ranked);
        prop_assert!(ranked.windows(2).all(|pair| pair[0].1 >= pair[1].1));
        let mut cells: Vec<Cell> = ranked.iter().map(|&(cell, _)| cell).collect();
        cells.sort_unstable();
        let mut legal: Vec<Cell> = pos.legal_moves().collect();
        legal.sort_unstable();
        prop_assert_eq!(cells, legal);
    }
}
