//! Property tests against slow references: alpha-beta returns exactly the
//! plain minimax value, the threat search's wins and losses are real, and
//! the solver returns exactly the brute-force value.

use board::{Cell, Outcome, Position, RuleSet, Rules, Side};
use minimax_tree::{AlphaBeta, AlphaBetaConfig, Candidates, EVAL_LIMIT, MATE, Solver, SymmetricTree};
use play::Evaluator;
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

use crate::support::Touching;

/// Plain negamax, every move, no pruning, no table: the engine's scoring
/// (wins as `MATE − ply`), with its forced-move rules when `forced`.
fn reference(pos: &mut Position, depth: u32, ply: i32, forced: bool) -> i32 {
    if let Some(outcome) = pos.outcome() {
        return match outcome {
            Outcome::Win(_) => -(MATE - ply),
            Outcome::Draw => 0,
        };
    }
    if depth == 0 {
        return Touching.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
    }
    let side = pos.side_to_move();
    let mut moves: Vec<Cell> = pos.legal_moves().collect();
    if forced {
        if moves.iter().any(|&cell| pos.wins_at(cell, side)) {
            return MATE - (ply + 1);
        }
        let threats: Vec<Cell> =
            moves.iter().copied().filter(|&cell| pos.wins_at(cell, side.opponent())).collect();
        match threats.len() {
            0 => {}
            1 => moves = threats,
            _ => return -(MATE - (ply + 2)),
        }
    }
    let mut best = i32::MIN;
    for cell in moves {
        pos.play(cell).unwrap();
        best = best.max(-reference(pos, depth - 1, ply + 1, forced));
        pos.undo();
    }
    best
}

/// Whether the side to move wins within `plies` plies whatever the
/// opponent plays: every move of both sides tried.
fn wins_within(pos: &mut Position, plies: i32) -> bool {
    if plies < 1 || pos.is_over() {
        return false;
    }
    let side = pos.side_to_move();
    let moves: Vec<Cell> = pos.legal_moves().collect();
    if moves.iter().any(|&cell| pos.wins_at(cell, side)) {
        return true;
    }
    plies >= 3
        && moves.into_iter().any(|cell| {
            pos.play(cell).unwrap();
            let won = loses_within(pos, plies - 1);
            pos.undo();
            won
        })
}

/// Whether the side to move loses within `plies` plies whatever it plays.
fn loses_within(pos: &mut Position, plies: i32) -> bool {
    if let Some(outcome) = pos.outcome() {
        return matches!(outcome, Outcome::Win(_));
    }
    let side = pos.side_to_move();
    let moves: Vec<Cell> = pos.legal_moves().collect();
    if plies < 2 || moves.iter().any(|&cell| pos.wins_at(cell, side)) {
        return false;
    }
    moves.into_iter().all(|cell| {
        pos.play(cell).unwrap();
        let lost = wins_within(pos, plies - 1);
        pos.undo();
        lost
    })
}

/// The game value for the mover by brute force: 1, 0 or −1.
fn brute_force(pos: &mut Position) -> i32 {
    if let Some(outcome) = pos.outcome() {
        return match outcome {
            Outcome::Win(_) => -1,
            Outcome::Draw => 0,
        };
    }
    let moves: Vec<Cell> = pos.legal_moves().collect();
    let mut best = -1;
    for cell in moves {
        pos.play(cell).unwrap();
        best = best.max(-brute_force(pos));
        pos.undo();
        if best == 1 {
            break;
        }
    }
    best
}

fn value_for_mover(outcome: Outcome, mover: Side) -> i32 {
    match outcome {
        Outcome::Win(side) if side == mover => 1,
        Outcome::Win(_) => -1,
        Outcome::Draw => 0,
    }
}

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn alpha_beta_equals_plain_minimax(
        rules in small_rules(4),
        seed in any::<u64>(),
        plies in 0usize..8,
        depth in 1u32..=4,
        forced in any::<bool>(),
    ) {
        let pos = random_position(rules, seed, plies);
        let config = AlphaBetaConfig {
            candidates: Some(Candidates::All),
            forced_moves: forced,
            tt_bytes: 1 << 16,
            // Plain alpha-beta: the threat search prunes by design.
            threats: false,
            ..AlphaBetaConfig::default()
        };
        let mut engine = AlphaBeta::new(Touching, config);
        let expected = reference(&mut pos.clone(), depth, 0, forced);
        prop_assert_eq!(engine.search_depth(&pos, depth), expected, "depth {} in\n{}", depth, pos);
    }

    /// A win or loss the threat search reports is one, however few moves
    /// it tries first at a node: a loss is proven by every move.
    #[test]
    fn threat_search_wins_and_losses_are_real(
        (w, h) in prop_oneof![Just((6u32, 6u32)), Just((7, 6)), Just((7, 7))],
        exact in any::<bool>(),
        seed in any::<u64>(),
        plies in 6usize..16,
        depth in 2u32..=4,
        max_moves in 1usize..=2,
    ) {
        let rule_set = if exact { RuleSet::Exact } else { RuleSet::Freestyle };
        let rules = Rules::new(w, h, 4, rule_set).unwrap();
        let pos = random_position(rules, seed, plies);
        prop_assume!(!pos.is_over());
        let config = AlphaBetaConfig {
            candidates: Some(Candidates::All),
            tt_bytes: 1 << 16,
            max_moves,
            ..AlphaBetaConfig::default()
        };
        let value = AlphaBeta::new(Touching, config).search_depth(&pos, depth);
        let distance = MATE - value.abs();
        // (Longer wins are left unchecked: the reference tries every move.)
        if distance <= 7 {
            let real = if value > 0 {
                wins_within(&mut pos.clone(), distance)
            } else {
                loses_within(&mut pos.clone(), distance)
            };
            prop_assert!(real, "value {} at depth {} (max_moves {}) in\n{}", value, depth, max_moves, pos);
        }
    }

    /// Renju and caro (k = 5) on the solver's boards: 10×2 lets black make
    /// overlines and two fours on one line, and caro's fives be closed.
    #[test]
    fn solver_equals_brute_force_under_renju_and_caro(
        (w, h) in prop_oneof![Just((10u32, 2u32)), Just((2, 10)), Just((5, 4)), Just((7, 2))],
        rule_set in prop_oneof![Just(RuleSet::Renju), Just(RuleSet::Caro), Just(RuleSet::CaroFreestyle)],
        seed in any::<u64>(),
        plies in 13usize..17,
    ) {
        let rules = Rules::new(w, h, 5, rule_set).unwrap();
        let pos = random_position(rules, seed, plies);
        prop_assume!(!pos.is_over());
        let solution = Solver::new(1 << 20).solve(&pos, &play::Limits::none()).unwrap();
        let expected = brute_force(&mut pos.clone());
        prop_assert_eq!(value_for_mover(solution.value, pos.side_to_move()), expected, "\n{}", pos);
        let mut after = pos.clone();
        after.play(solution.best_move).unwrap();
        prop_assert_eq!(-brute_force(&mut after), expected);
    }

    #[test]
    fn solver_equals_brute_force(rules in small_rules(3), seed in any::<u64>(), plies in 0usize..6) {
        let pos = random_position(rules, seed, plies);
        prop_assume!(!pos.is_over());
        let solution = Solver::new(1 << 20).solve(&pos, &play::Limits::none()).unwrap();
        let mover = pos.side_to_move();
        let expected = brute_force(&mut pos.clone());
        prop_assert_eq!(value_for_mover(solution.value, mover), expected, "\n{}", pos);
        // The move named reaches that value.
        let mut after = pos.clone();
        after.play(solution.best_move).unwrap();
        prop_assert_eq!(-brute_force(&mut after), expected);
    }
}

#[test]
fn solver_agrees_with_the_tree_on_every_tic_tac_toe_position() {
    let rules = Rules::tic_tac_toe();
    let tree = SymmetricTree::build(rules).unwrap();
    let mut solver = Solver::new(1 << 20);
    let mut checked = 0;
    // Every position reachable in play, by walking the game.
    let mut stack = vec![Position::new(rules)];
    let mut seen = std::collections::HashSet::new();
    while let Some(pos) = stack.pop() {
        if !seen.insert(pos.to_one_line()) {
            continue;
        }
        let tree_value = tree.value(&pos).expect("reachable positions are in the tree");
        if let Some(outcome) = pos.outcome() {
            assert_eq!(tree_value, outcome);
            continue;
        }
        assert_eq!(solver.solve(&pos, &play::Limits::none()).unwrap().value, tree_value, "\n{pos}");
        checked += 1;
        for cell in pos.legal_moves() {
            let mut next = pos.clone();
            next.play(cell).unwrap();
            stack.push(next);
        }
    }
    // 5,478 positions in all, of which 4,520 are not over.
    assert_eq!(seen.len(), 5478);
    assert_eq!(checked, 4520);
}

#[test]
fn solves_the_small_games_tests_can_afford() {
    let rules = |w, h, k| Rules::new(w, h, k, RuleSet::Freestyle).unwrap();
    let cases = [
        (Rules::tic_tac_toe(), Outcome::Draw),
        (rules(4, 4, 3), Outcome::Win(Side::X)),
        (rules(4, 4, 4), Outcome::Draw),
        (rules(5, 4, 4), Outcome::Draw),
        (rules(5, 5, 4), Outcome::Draw),
        (rules(4, 3, 3), Outcome::Win(Side::X)),
    ];
    for (rules, value) in cases {
        let solution = Solver::new(64 << 20).solve(&Position::new(rules), &play::Limits::none()).unwrap();
        assert_eq!(solution.value, value, "{rules}");
    }
}
