//! Beyond the classic: the solver, priors with PUCT, and parallel trees.

use std::sync::Arc;

use board::{Cell, Outcome, Position, Rules, Side};
use mcts::{Mcts, MctsAgent, MctsConfig};
use play::{Agent, Evaluator, Limits, RandomAgent, play_game};

/// A game of a search with `config` against `random`, X on even seeds:
/// the search's side and the outcome.
fn against_random(rules: Rules, config: &MctsConfig, seed: u64) -> (Side, Outcome) {
    let mut search = MctsAgent::new(config.clone(), seed);
    let mut random = RandomAgent::new(seed);
    let side = if seed.is_multiple_of(2) { Side::X } else { Side::O };
    let agents: [&mut dyn Agent; 2] =
        if side == Side::X { [&mut search, &mut random] } else { [&mut random, &mut search] };
    (side, play_game(rules, agents, &[], &Limits::none()).unwrap().outcome)
}

#[test]
fn the_solver_proves_a_forced_win_and_stops_searching() {
    // X a1, c3; O b2, a3: O threatens c1, and X's block there forks b1 and c2.
    let rules = Rules::tic_tac_toe();
    let pos = Position::from_moves(rules, "a1 b2 c3 a3").unwrap();
    let config = MctsConfig { iterations: 100_000, solver: true, root_rules: false, ..MctsConfig::default() };
    let report = Mcts::new(config, 1).search(&pos, &Limits::none());
    assert_eq!(report.proven, 1, "{report:?}");
    assert_eq!(report.best_move, Some(rules.parse_cell("c1").unwrap()));
    assert!(report.iterations < 100_000, "a proven root stops the search: {}", report.iterations);
    // Without the solver the search runs every iteration and proves nothing.
    let plain = MctsConfig { iterations: 5_000, root_rules: false, ..MctsConfig::default() };
    let report = Mcts::new(plain, 1).search(&pos, &Limits::none());
    assert_eq!((report.proven, report.iterations), (0, 5_000));
}

#[test]
fn the_solver_proves_a_lost_position() {
    // O to move after X's fork: whatever O does, X wins.
    let rules = Rules::tic_tac_toe();
    let pos = Position::from_moves(rules, "a1 b2 c3 a3 c1").unwrap();
    let config = MctsConfig { iterations: 100_000, solver: true, root_rules: false, ..MctsConfig::default() };
    let report = Mcts::new(config, 2).search(&pos, &Limits::none());
    assert_eq!(report.proven, -1, "{report:?}");
    assert!(report.iterations < 100_000);
}

#[test]
fn proven_moves_are_worth_one_and_zero_in_the_analysis() {
    let rules = Rules::tic_tac_toe();
    let won = Position::from_moves(rules, "a1 b2 c3 a3").unwrap();
    let lost = Position::from_moves(rules, "a1 b2 c3 a3 c1").unwrap();
    // One tree, and two whose root statistics are merged.
    for threads in [1, 2] {
        let config = MctsConfig {
            iterations: 100_000,
            solver: true,
            root_rules: false,
            threads,
            ..MctsConfig::default()
        };
        let mut agent = MctsAgent::new(config, 3);
        agent.new_game(&rules);
        let cell = agent.select_move(&won, &Limits::none()).unwrap();
        let analysis = agent.analysis().unwrap();
        assert_eq!(analysis.value, Some(1.0), "{threads} trees");
        let chosen = analysis.values.iter().find(|v| v.cell == cell).unwrap();
        assert_eq!(Some(chosen.score), analysis.value, "{threads} trees: {:?}", analysis.values);
        // The proven winning move is reported as proven.
        assert_eq!(analysis.proof(cell), Some(true), "{:?}", analysis.proven);
        agent.select_move(&lost, &Limits::none()).unwrap();
        let analysis = agent.analysis().unwrap();
        assert_eq!(analysis.value, Some(0.0), "{threads} trees");
        assert!(analysis.values.iter().all(|v| v.score == 0.0), "{threads} trees: {:?}", analysis.values);
        assert_eq!(analysis.values.len(), lost.legal_moves().count(), "{threads} trees");
        // Every move of a lost root is proven lost.
        assert_eq!(analysis.proven.len(), lost.legal_moves().count(), "{threads} trees");
        assert!(
            analysis.proven.iter().all(|p| analysis.proof(p.cell) == Some(false)),
            "{:?}",
            analysis.proven
        );
    }
}

/// Ranks the centre first, then cells by distance from it.
struct Central;

impl Evaluator for Central {
    fn evaluate(&self, _: &Position) -> i32 {
        0
    }
    fn rank_moves(&self, pos: &Position, out: &mut Vec<(Cell, i32)>) {
        out.clear();
        let (cx, cy) = (i32::from(pos.rules().width()) / 2, i32::from(pos.rules().height()) / 2);
        out.extend(
            pos.legal_moves().map(|c| (c, -((i32::from(c.x()) - cx).abs() + (i32::from(c.y()) - cy).abs()))),
        );
        out.sort_by_key(|&(_, score)| -score);
    }
}

#[test]
fn priors_order_the_tries_and_steer_the_search() {
    let rules = Rules::gomoku15();
    let priors: Arc<dyn Evaluator> = Arc::new(Central);
    let config =
        MctsConfig { iterations: 300, priors: Some(priors), root_rules: false, ..MctsConfig::default() };
    let report = Mcts::new(config.clone(), 3).search(&Position::new(rules), &Limits::none());
    // The centre has the highest prior: it is tried first and visited most.
    assert_eq!(report.children[0].0, Cell::new(7, 7));
    assert_eq!(report.best_move, Some(Cell::new(7, 7)));
    // PUCT does not try every move before choosing: far fewer than 225 children.
    assert!(report.children.len() < 100, "{} children tried", report.children.len());
    assert_eq!(report, Mcts::new(config, 3).search(&Position::new(rules), &Limits::none()), "deterministic");
}

#[test]
fn parallel_trees_share_the_iterations_and_add_up() {
    let rules = Rules::five_8x8();
    let pos = Position::from_moves(rules, "d4").unwrap();
    // An odd count that is no multiple of the batch: exactly it is run.
    let config = MctsConfig { iterations: 4_001, threads: 2, ..MctsConfig::default() };
    let mut agent = MctsAgent::new(config.clone(), 9);
    agent.new_game(&rules);
    let report = agent.search(&pos, &Limits::none());
    assert_eq!(report.iterations, 4_001, "the trees together run the count, no more");
    // Each root visit, and each visit of a root child, is an iteration of
    // one of the trees.
    assert_eq!(u64::from(report.root_visits), 4_001);
    assert_eq!(report.children.iter().map(|&(_, visits, _)| u64::from(visits)).sum::<u64>(), 4_001);
    agent.new_game(&rules);
    agent.select_move(&pos, &Limits::none()).unwrap();
    let total: f64 = agent.analysis().unwrap().scores.iter().map(|s| s.score).sum();
    assert!((total - 1.0).abs() < 1e-9);
    // Fewer iterations than a batch: some trees get none, and still a move.
    for iterations in [1, 100] {
        let mut agent = MctsAgent::new(MctsConfig { iterations, threads: 3, ..MctsConfig::default() }, 4);
        let report = agent.search(&pos, &Limits::none());
        assert_eq!(report.iterations, iterations);
        assert!(report.best_move.is_some_and(|cell| pos.is_legal(cell)));
    }
}

#[test]
fn every_option_together_beats_random() {
    let rules = Rules::five_8x8();
    let config = MctsConfig {
        iterations: 1_500,
        solver: true,
        reuse: true,
        heuristic: true,
        threads: 2,
        priors: Some(Arc::new(Central)),
        ..MctsConfig::default()
    };
    for seed in 0..6 {
        let (side, outcome) = against_random(rules, &config, seed);
        assert_eq!(outcome, Outcome::Win(side), "seed {seed}");
    }
}

#[test]
fn a_shared_tree_counts_every_iteration_once_and_plays_well() {
    let rules = Rules::tic_tac_toe();
    let config = MctsConfig { iterations: 4_000, threads: 2, shared: true, ..MctsConfig::default() };
    let report = Mcts::new(config.clone(), 1).search_shared(&Position::new(rules), &Limits::none(), 2);
    assert_eq!(report.iterations, 4_000);
    // Virtual losses are settled: the root's children hold every visit once.
    assert_eq!(report.children.iter().map(|&(_, visits, _)| u64::from(visits)).sum::<u64>(), 4_000);
    assert_eq!(u64::from(report.root_visits), 4_000);
    for seed in 0..20 {
        let (side, outcome) = against_random(rules, &config, seed);
        assert_ne!(outcome, Outcome::Win(side.opponent()), "seed {seed}");
    }
}

/// 15×15 five in a row from moves.
fn gomoku(moves: &[&str]) -> Position {
    Position::from_moves(Rules::new(15, 15, 5, board::RuleSet::Freestyle).unwrap(), &moves.join(" ")).unwrap()
}

#[test]
fn with_threats_the_solver_proves_a_win_by_fours_quickly() {
    // X: h8 i8 j8 (an open three on row 8) and f6; O scattered far off.
    // X to move makes an open four at g8 or k8 and wins: the new leaf is
    // proven at once, where plain playouts need many iterations to be sure.
    let pos = gomoku(&["h8", "a1", "i8", "a15", "j8", "o1", "f6", "o15"]);
    let rules = *pos.rules();
    let threats = MctsConfig { iterations: 2_000, solver: true, threats: true, ..MctsConfig::default() };
    let report = Mcts::new(threats, 1).search(&pos, &Limits::none());
    assert_eq!(report.proven, 1, "{report:?}");
    let best = report.best_move.unwrap();
    assert!(["g8", "k8"].map(|name| rules.parse_cell(name).unwrap()).contains(&best), "{best:?}");
    assert!(report.iterations < 2_000, "a proven root stops the search: {}", report.iterations);
    let plain = MctsConfig { iterations: 2_000, solver: true, ..MctsConfig::default() };
    assert_eq!(Mcts::new(plain, 1).search(&pos, &Limits::none()).proven, 0);
}

#[test]
fn with_threats_an_open_three_is_answered() {
    // X has an open three (h8 i8 j8), O to move: O must play g8 or k8 (or
    // f8/l8), else X makes an open four. 300 iterations with threats in
    // the tree do, with or without threat playouts. (Threat playouts
    // alone do not: plain UCB1 tries each of O's 200-odd replies to a
    // move once, so most of a move's playouts start from a reply that
    // lets X's three through.)
    let pos = gomoku(&["h8", "h9", "i8", "a1", "j8"]);
    let rules = *pos.rules();
    let answers = ["f8", "g8", "k8", "l8"].map(|name| rules.parse_cell(name).unwrap());
    let tree = MctsConfig { iterations: 300, solver: true, threats: true, ..MctsConfig::default() };
    let playouts = MctsConfig { heuristic: true, threat_playouts: true, ..tree.clone() };
    for config in [tree, playouts] {
        for seed in 0..4 {
            let best = Mcts::new(config.clone(), seed).search(&pos, &Limits::none()).best_move.unwrap();
            assert!(answers.contains(&best), "seed {seed}: {} with {config:?}", best.name(&rules));
        }
    }
}

#[test]
fn threats_go_unused_where_the_tables_do_not_reach() {
    // k = 9 on 12×12: beyond the threat tables; the search is the one
    // without them, iteration for iteration.
    let rules = Rules::new(12, 12, 9, board::RuleSet::Freestyle).unwrap();
    let pos = Position::from_moves(rules, "f6 g7").unwrap();
    let plain = MctsConfig { iterations: 500, solver: true, heuristic: true, ..MctsConfig::default() };
    let with = MctsConfig { threats: true, threat_playouts: true, ..plain.clone() };
    let (a, b) =
        (Mcts::new(plain, 3).search(&pos, &Limits::none()), Mcts::new(with, 3).search(&pos, &Limits::none()));
    assert_eq!((a.best_move, a.iterations, &a.children), (b.best_move, b.iterations, &b.children));
}
