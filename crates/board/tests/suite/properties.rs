//! Property tests: the incremental win check, hash and canonical form agree
//! with slow, obviously-correct references over random games on random
//! board shapes.

use std::collections::BTreeSet;

use board::threats::{CellClass, FinePattern, Pattern, Threats, is_forbidden_shape};
use board::{Cell, Direction, Outcome, Position, RuleSet, Rules, Side, Transform, zobrist_key};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// A plain grid: `grid[y][x]`.
type Grid = Vec<Vec<Option<Side>>>;

fn grid_of(pos: &Position) -> Grid {
    let rules = pos.rules();
    (0..rules.height()).map(|y| (0..rules.width()).map(|x| pos.get(Cell::new(x, y))).collect()).collect()
}

/// Whether `side` has a winning run anywhere, by walking every maximal run.
fn reference_has_line(grid: &Grid, side: Side, k: usize, rule_set: RuleSet) -> bool {
    let height = grid.len() as i32;
    let width = grid[0].len() as i32;
    let at = |x: i32, y: i32| {
        (0..width).contains(&x) && (0..height).contains(&y) && grid[y as usize][x as usize] == Some(side)
    };
    for y in 0..height {
        for x in 0..width {
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                // Start only at the first mark of a maximal run.
                if !at(x, y) || at(x - dx, y - dy) {
                    continue;
                }
                let mut len = 0;
                while at(x + len * dx, y + len * dy) {
                    len += 1;
                }
                let len = len as usize;
                if len == k || (len > k && rule_set == RuleSet::Freestyle) {
                    return true;
                }
            }
        }
    }
    false
}

fn reference_hash(grid: &Grid) -> u64 {
    let mut hash = 0;
    for (y, row) in grid.iter().enumerate() {
        for (x, mark) in row.iter().enumerate() {
            if let Some(side) = mark {
                hash ^= zobrist_key(*side, Cell::new(x as u8, y as u8));
            }
        }
    }
    hash
}

/// A quarter turn clockwise, for any grid: the old left column becomes the top row.
fn rotate(grid: &Grid) -> Grid {
    let (height, width) = (grid.len(), grid[0].len());
    (0..width).map(|new_y| (0..height).map(|new_x| grid[height - 1 - new_x][new_y]).collect()).collect()
}

fn mirror(grid: &Grid) -> Grid {
    grid.iter().map(|row| row.iter().rev().copied().collect()).collect()
}

/// Every symmetric image of the grid: all rotations and their mirror
/// images on a square board; half turns and mirrors on a rectangle.
fn reference_images(grid: &Grid) -> Vec<Grid> {
    let square = grid.len() == grid[0].len();
    let turns: Vec<Grid> = if square {
        let mut turns = vec![grid.clone()];
        for _ in 0..3 {
            turns.push(rotate(turns.last().unwrap()));
        }
        turns
    } else {
        vec![grid.clone(), rotate(&rotate(grid))]
    };
    turns.iter().flat_map(|g| [g.clone(), mirror(g)]).collect()
}

/// Random rules on boards up to `max` a side.
fn rules_strategy(max: u32) -> impl Strategy<Value = Rules> {
    (1..=max, 1..=max, any::<bool>(), 0.0..1.0_f64).prop_map(|(w, h, exact, k)| {
        let longest = w.max(h);
        let k = 1 + (k * f64::from(longest)) as u32 % longest;
        let rule_set = if exact { RuleSet::Exact } else { RuleSet::Freestyle };
        Rules::new(w, h, k, rule_set).unwrap()
    })
}

fn random_game(rules: Rules, seed: u64, max_moves: usize) -> Vec<Cell> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = Position::new(rules);
    while !pos.is_over() && pos.ply() < max_moves {
        let moves: Vec<Cell> = pos.legal_moves().collect();
        pos.play(moves[rng.random_range(0..moves.len())]).unwrap();
    }
    pos.moves().to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn incremental_state_matches_reference(rules in rules_strategy(9), seed in any::<u64>()) {
        let moves = random_game(rules, seed, usize::MAX);
        let mut pos = Position::new(rules);
        let mut snapshots = vec![(pos.clone(), pos.hash())];
        for &cell in &moves {
            prop_assert_eq!(pos.outcome(), None);
            let mover = pos.side_to_move();
            pos.play(cell).unwrap();
            let grid = grid_of(&pos);
            let k = usize::from(rules.k());
            let won = reference_has_line(&grid, mover, k, rules.rule_set());
            prop_assert!(!reference_has_line(&grid, mover.opponent(), k, rules.rule_set()));
            let expected = if won {
                Some(Outcome::Win(mover))
            } else if pos.ply() == rules.area() {
                Some(Outcome::Draw)
            } else {
                None
            };
            prop_assert_eq!(pos.outcome(), expected, "after {:?}", pos);
            prop_assert_eq!(pos.hash(), reference_hash(&grid));
            if let Some(line) = pos.winning_line() {
                prop_assert!(line.len >= rules.k());
                prop_assert!(line.cells().all(|c| pos.get(c) == Some(mover)));
                prop_assert!(line.cells().any(|c| c == cell), "the line runs through the last move");
                prop_assert_eq!(line.cells().count(), usize::from(line.len));
            }
            prop_assert_eq!(Position::from_one_line(rules, &pos.to_one_line()).unwrap(), pos.clone());
            snapshots.push((pos.clone(), pos.hash()));
        }
        // Undo walks back through exactly the same states.
        snapshots.pop();
        while let Some((before, hash)) = snapshots.pop() {
            pos.undo().unwrap();
            prop_assert_eq!(&pos, &before);
            prop_assert_eq!(pos.hash(), hash);
            prop_assert_eq!(pos.moves(), before.moves());
        }
        prop_assert_eq!(pos.undo(), None);
    }

    /// `wins_at` answers what playing the cell and looking would.
    #[test]
    fn wins_at_matches_playing(rules in rules_strategy(9), seed in any::<u64>(), len in 0_usize..80) {
        let moves = random_game(rules, seed, len);
        let mut pos = Position::new(rules);
        for &cell in &moves {
            pos.play(cell).unwrap();
        }
        if !pos.is_over() {
            for cell in pos.legal_moves() {
                for side in [Side::X, Side::O] {
                    let mut grid = grid_of(&pos);
                    grid[usize::from(cell.y())][usize::from(cell.x())] = Some(side);
                    let expected = reference_has_line(&grid, side, usize::from(rules.k()), rules.rule_set());
                    prop_assert_eq!(pos.wins_at(cell, side), expected, "{:?} at {} in {:?}", side, cell, pos);
                }
            }
        }
    }

    #[test]
    fn canonical_form_matches_reference(rules in rules_strategy(7), seed in any::<u64>(), len in 0_usize..40) {
        let moves = random_game(rules, seed, len);
        let mut pos = Position::new(rules);
        for &cell in &moves {
            pos.play(cell).unwrap();
        }
        let reference: BTreeSet<u64> = reference_images(&grid_of(&pos)).iter().map(reference_hash).collect();
        let ours: BTreeSet<u64> = rules.symmetries().iter().map(|&t| pos.transformed(t).hash()).collect();
        prop_assert_eq!(&ours, &reference);
        let (canonical, transform) = pos.canonical();
        prop_assert_eq!(canonical, *reference.iter().next().unwrap());
        prop_assert_eq!(pos.transformed(transform).hash(), canonical);
        for &t in rules.symmetries() {
            let image = pos.transformed(t);
            prop_assert_eq!(image.transformed_hash(Transform::Identity), image.hash());
            prop_assert_eq!(pos.transformed_hash(t), image.hash());
            // The same class from every image.
            prop_assert_eq!(image.canonical().0, canonical);
            // A transform's inverse undoes it, outcome and move list included.
            let back = image.transformed(t.inverse());
            prop_assert_eq!(&back, &pos);
            prop_assert_eq!(back.moves(), pos.moves());
            prop_assert_eq!(image.outcome(), pos.outcome());
            // Moves map through the transform.
            let mapped: Vec<Cell> = pos.moves().iter().map(|&c| t.apply(c, &rules)).collect();
            prop_assert_eq!(image.moves(), &mapped[..]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    /// Line words hold, bit by bit, the marks along the line through a cell.
    #[test]
    fn line_bits_follow_the_lines(rules in rules_strategy(12), seed in any::<u64>(), len in 0_usize..60) {
        let mut pos = Position::new(rules);
        for cell in random_game(rules, seed, len) {
            pos.play(cell).unwrap();
        }
        for cell in rules.cells() {
            for direction in Direction::ALL {
                let (dx, dy) = direction.delta();
                let mask = rules.line_mask(direction, cell);
                for side in Side::ALL {
                    let word = pos.line_bits(side, direction, cell);
                    prop_assert_eq!(word & !mask, 0, "marks off the board");
                    for step in -12_i32..12 {
                        let x = i32::from(cell.x()) + step * dx;
                        let y = i32::from(cell.y()) + step * dy;
                        if let Some(other) = rules.cell(x, y) {
                            let bit = direction.bit(cell) as i32 + step;
                            prop_assert_eq!(word >> bit & 1 == 1, pos.get(other) == Some(side));
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn largest_board_games_match_reference() {
    let rules = Rules::new(32, 32, 5, RuleSet::Exact).unwrap();
    for seed in 0..6 {
        let moves = random_game(rules, seed, usize::MAX);
        let mut pos = Position::new(rules);
        for &cell in &moves {
            pos.play(cell).unwrap();
        }
        let grid = grid_of(&pos);
        let last = pos.side_to_move().opponent();
        assert_eq!(
            reference_has_line(&grid, last, 5, RuleSet::Exact),
            pos.outcome() == Some(Outcome::Win(last))
        );
        assert_eq!(pos.hash(), reference_hash(&grid));
    }
}

/// What a cell of a line holds, for the reference patterns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Own,
    Empty,
    Opponent,
    /// Off the board.
    Wall,
}

/// The pattern of `side` at the empty `cell` in `direction`, from the
/// definitions: copy the line, try every move on it, and name the best
/// result (see `board::threats`).
fn reference_pattern(pos: &Position, side: Side, cell: Cell, direction: Direction) -> Pattern {
    let (mut line, centre, rule) = reference_setup(pos, side, cell, direction);
    reference_line(&mut line, centre, rule, 3)
}

/// The fine pattern of `side` at the empty `cell` in `direction`, from
/// the definitions: the pattern, with open twos and threes told apart by
/// how many moves make them an open three or four.
fn reference_fine_pattern(pos: &Position, side: Side, cell: Cell, direction: Direction) -> FinePattern {
    let (mut line, centre, rule) = reference_setup(pos, side, cell, direction);
    let pattern = reference_line(&mut line, centre, rule, 3);
    let mut moves_making = |target: Pattern| {
        let mut count = 0;
        for i in 0..line.len() {
            let between = if i < centre { &line[i..centre] } else { &line[centre..=i] };
            if line[i] != Mark::Empty
                || between.iter().any(|&mark| matches!(mark, Mark::Opponent | Mark::Wall))
            {
                continue;
            }
            line[i] = Mark::Own;
            count += u32::from(reference_line(&mut line, centre, rule, 2) == target);
            line[i] = Mark::Empty;
        }
        count
    };
    match pattern {
        Pattern::OpenTwo => match moves_making(Pattern::OpenThree) {
            0..=2 => FinePattern::OpenTwo,
            3 => FinePattern::OpenTwo3,
            _ => FinePattern::OpenTwo4,
        },
        Pattern::OpenThree if moves_making(Pattern::OpenFour) >= 2 => FinePattern::StrongThree,
        other => other.plainest(),
    }
}

/// The line of `side` through `cell` in `direction`, k cells each side,
/// with the centre's index and the rule `reference_line` needs.
fn reference_setup(
    pos: &Position,
    side: Side,
    cell: Cell,
    direction: Direction,
) -> (Vec<Mark>, usize, (usize, bool, bool)) {
    let rules = pos.rules();
    let k = i32::from(rules.k());
    let (dx, dy) = direction.delta();
    let mut line: Vec<Mark> = (-k..=k)
        .map(|step| {
            let Some(at) = rules.cell(i32::from(cell.x()) + dx * step, i32::from(cell.y()) + dy * step)
            else {
                return Mark::Wall;
            };
            match pos.get(at) {
                None => Mark::Empty,
                Some(mark) if mark == side => Mark::Own,
                Some(_) => Mark::Opponent,
            }
        })
        .collect();
    line[k as usize] = Mark::Own;
    (line, k as usize, (usize::from(rules.k()), rules.exact_for(side), rules.is_caro()))
}

/// The pattern of the centre of `line` (own there), looking `moves` more
/// moves ahead: a two needs three more to reach the five that defines it.
/// `rule` is k, whether exactly k wins and whether a five closed at both
/// ends by the opponent does not (caro).
fn reference_line(line: &mut [Mark], centre: usize, rule: (usize, bool, bool), moves: u32) -> Pattern {
    let (k, exact, caro) = rule;
    let (mut lo, mut hi) = (centre, centre);
    while lo > 0 && line[lo - 1] == Mark::Own {
        lo -= 1;
    }
    while hi + 1 < line.len() && line[hi + 1] == Mark::Own {
        hi += 1;
    }
    let run = hi - lo + 1;
    let closed = |end: Option<usize>| end.is_some_and(|i| line.get(i) == Some(&Mark::Opponent));
    let closed_both = closed(lo.checked_sub(1)) && closed(Some(hi + 1));
    if (run == k || (run > k && !exact)) && !(caro && closed_both) {
        return Pattern::Five;
    }
    if moves == 0 {
        return Pattern::None;
    }
    let (mut fives, mut best) = (0, Pattern::None);
    for i in 0..line.len() {
        // An empty cell not cut off from the centre by a block.
        let between = if i < centre { &line[i..centre] } else { &line[centre..=i] };
        if line[i] != Mark::Empty || between.iter().any(|&mark| matches!(mark, Mark::Opponent | Mark::Wall)) {
            continue;
        }
        line[i] = Mark::Own;
        match reference_line(line, centre, rule, moves - 1) {
            Pattern::Five => fives += 1,
            Pattern::OpenFour => best = best.max(Pattern::OpenThree),
            Pattern::Four => best = best.max(Pattern::Three),
            Pattern::OpenThree => best = best.max(Pattern::OpenTwo),
            Pattern::Three => best = best.max(Pattern::Two),
            _ => {}
        }
        line[i] = Mark::Empty;
    }
    match fives {
        0 => best,
        1 => Pattern::Four,
        _ => Pattern::OpenFour,
    }
}

/// Rules the threat tables keep: freestyle and exactly k for k 3 to 6,
/// renju and caro (k = 5 only).
fn threat_rules() -> impl Strategy<Value = Rules> {
    (4u32..=13, 4u32..=13, 3u32..=6, 0_usize..4).prop_map(|(w, h, k, rule)| {
        let rule_set = [RuleSet::Freestyle, RuleSet::Exact, RuleSet::Renju, RuleSet::Caro][rule];
        let plain = matches!(rule_set, RuleSet::Freestyle | RuleSet::Exact);
        let k = if plain { k.min(w.max(h)) } else { 5 };
        let (w, h) = if plain { (w, h) } else { (w.max(7), h.max(7)) };
        Rules::new(w, h, k, rule_set).unwrap()
    })
}

/// Whether `kept` holds what the `fresh` threats of the same position
/// hold: every cell's codes and classes, the cell sets and the counts (a
/// tracker without pattern counts counts them afresh from its codes, so
/// this checks that count against the kept one too).
fn same_as_fresh(kept: &Threats, fresh: &Threats, rules: Rules) -> Result<(), TestCaseError> {
    for side in Side::ALL {
        for cell in rules.cells() {
            prop_assert_eq!(kept.code(side, cell), fresh.code(side, cell));
            prop_assert_eq!(kept.class(side, cell), fresh.class(side, cell));
        }
        prop_assert_eq!(kept.five_cells(side), fresh.five_cells(side));
        prop_assert_eq!(kept.four_cells(side), fresh.four_cells(side));
        prop_assert_eq!(kept.open_four_cells(side), fresh.open_four_cells(side));
        prop_assert_eq!(kept.open_three_cells(side), fresh.open_three_cells(side));
        for class in CellClass::ALL {
            prop_assert_eq!(kept.class_count(side, class), fresh.class_count(side, class));
        }
        for pattern in Pattern::ALL {
            prop_assert_eq!(kept.pattern_count(side, pattern), fresh.pattern_count(side, pattern));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Threats kept up to date move by move (takebacks included), by
    /// `update` or by the journalled `play` / `take_back` (with the
    /// pattern counts kept or not), equal threats computed afresh, and
    /// their patterns equal the reference's.
    #[test]
    fn threats_follow_the_game_and_match_the_reference(rules in threat_rules(), seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pos = Position::new(rules);
        let mut threats = Threats::new(&pos).unwrap();
        let mut journalled = Threats::new(&pos).unwrap();
        let mut uncounted = Threats::without_pattern_counts(&pos).unwrap();
        // Games near the centre make crowded lines.
        let centre = Cell::new(rules.width() / 2, rules.height() / 2);
        for _ in 0..2 * rules.area().min(60) {
            let before: Vec<[u16; 2]> =
                rules.cells().map(|cell| [threats.code(Side::X, cell), threats.code(Side::O, cell)]).collect();
            let cell = if pos.ply() > 0 && (pos.is_over() || rng.random_range(0..5) == 0) {
                let cell = pos.undo().unwrap();
                threats.update(&pos, cell);
                journalled.take_back(&pos, cell);
                uncounted.take_back(&pos, cell);
                cell
            } else {
                let near: Vec<Cell> = pos
                    .legal_moves()
                    .filter(|c| (i32::from(c.x()) - i32::from(centre.x())).abs() <= 3
                        && (i32::from(c.y()) - i32::from(centre.y())).abs() <= 3)
                    .collect();
                let moves: Vec<Cell> = if near.is_empty() { pos.legal_moves().collect() } else { near };
                let cell = moves[rng.random_range(0..moves.len())];
                pos.play(cell).unwrap();
                threats.update(&pos, cell);
                journalled.play(&pos, cell);
                uncounted.play(&pos, cell);
                cell
            };
            // What a move changed lies within its reach.
            let reach = threats.reach(cell);
            for (other, old) in rules.cells().zip(&before) {
                if *old != [threats.code(Side::X, other), threats.code(Side::O, other)] {
                    prop_assert!(reach.contains(other), "{} changed by {}\n{}", other, cell, pos);
                }
            }
            let fresh = Threats::new(&pos).unwrap();
            prop_assert!(!uncounted.counts_patterns() && fresh.counts_patterns());
            for kept in [&threats, &journalled, &uncounted] {
                same_as_fresh(kept, &fresh, rules)?;
            }
            if rules.forbids_any() {
                // Black's forbidden points, the cheap tests first, are the exact test's.
                for cell in pos.empty_cells() {
                    let exact =
                        board::renju::forbidden_by_definition(&rules, pos.marks(Side::X), pos.marks(Side::O), cell);
                    prop_assert_eq!(threats.forbidden(&pos, Side::X, cell), exact.is_some(), "{:?} in\n{}", cell, pos);
                    prop_assert_eq!(board::renju::forbidden_among(&rules, pos.marks(Side::X), pos.marks(Side::O), cell), exact);
                    prop_assert_eq!(pos.is_forbidden_for(Side::X, cell), exact.is_some());
                }
            }
            let empty: Vec<Cell> = pos.empty_cells().iter().collect();
            for _ in 0..4 {
                let Some(&cell) = empty.get(rng.random_range(0..empty.len().max(1))) else { break };
                for side in Side::ALL {
                    let patterns = threats.patterns(side, cell);
                    let fine = threats.fine_patterns(side, cell);
                    for (i, direction) in Direction::ALL.into_iter().enumerate() {
                        prop_assert_eq!(patterns[i], reference_pattern(&pos, side, cell, direction),
                            "{:?} {:?} {:?} in\n{}", cell, side, direction, pos);
                        prop_assert_eq!(fine[i], reference_fine_pattern(&pos, side, cell, direction),
                            "{:?} {:?} {:?} in\n{}", cell, side, direction, pos);
                        prop_assert_eq!(fine[i].pattern(), patterns[i]);
                    }
                    // Renju's black's forbidden shapes are of no class.
                    let shape = rules.forbids(side) && is_forbidden_shape(patterns);
                    let class = if shape { CellClass::None } else { CellClass::combine(patterns) };
                    prop_assert_eq!(threats.class(side, cell), class);
                    // A five is exactly a win by the position's own test.
                    prop_assert_eq!(patterns.contains(&Pattern::Five), pos.wins_at(cell, side));
                    prop_assert!(!threats.forbidden(&pos, Side::O, cell));
                }
            }
        }
    }
}
