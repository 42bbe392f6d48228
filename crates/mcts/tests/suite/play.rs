//! Classic UCB1 on tic-tac-toe: it does not lose to random, it repeats
//! itself for a seed, and it reports its visits.

use board::{Outcome, Position, Rules, Side};
use mcts::{Mcts, MctsAgent, MctsConfig};
use play::{Agent, CellScore, Limits, RandomAgent, ScoreKind, play_game};

/// The classic: UCB1 and random playouts only, no root rules.
fn config() -> MctsConfig {
    MctsConfig { iterations: 2_000, root_rules: false, ..MctsConfig::default() }
}

#[test]
fn never_loses_to_random_at_tic_tac_toe() {
    let rules = Rules::tic_tac_toe();
    for side in Side::ALL {
        let mut losses = 0;
        for seed in 0..500 {
            let mut uct = MctsAgent::new(config(), seed);
            let mut random = RandomAgent::new(seed + 9);
            let agents: [&mut dyn Agent; 2] = match side {
                Side::X => [&mut uct, &mut random],
                Side::O => [&mut random, &mut uct],
            };
            let record = play_game(rules, agents, &[], &Limits::none()).unwrap();
            losses += u32::from(record.outcome == Outcome::Win(side.opponent()));
        }
        assert_eq!(losses, 0, "as {side:?}");
    }
}

#[test]
fn takes_a_win_and_blocks_a_loss_on_a_large_board() {
    let rules = Rules::gomoku15();
    let play = |moves: &[&str]| {
        let mut pos = Position::new(rules);
        for name in moves {
            pos.play(rules.parse_cell(name).unwrap()).unwrap();
        }
        let mut agent =
            MctsAgent::new(MctsConfig { iterations: 200, root_rules: true, ..MctsConfig::default() }, 5);
        agent.new_game(&rules);
        agent.select_move(&pos, &Limits::none()).unwrap().name(&rules).to_string()
    };
    // X wins at once (also when O has four).
    assert!(["h7", "h12"].contains(&play(&["h8", "a1", "h9", "a2", "h10", "a3", "h11", "a4"]).as_str()));
    // O must block h12 (h7 is O's already).
    assert_eq!(play(&["h8", "h7", "h9", "a1", "h10", "a15", "h11"]), "h12");
}

#[test]
fn the_same_seed_searches_the_same_way() {
    let rules = Rules::five_8x8();
    let mut pos = Position::new(rules);
    pos.play(rules.parse_cell("d4").unwrap()).unwrap();
    let run = |seed| Mcts::new(config(), seed).search(&pos, &Limits::none());
    let (a, b) = (run(3), run(3));
    assert_eq!(a, b);
    assert_eq!(a.iterations, 2_000);
    assert_eq!(a.children.iter().map(|&(_, visits, _)| u64::from(visits)).sum::<u64>(), 2_000);
    assert_ne!(run(3).children, run(4).children);
}

#[test]
fn reports_visit_shares_and_respects_the_node_limit() {
    let rules = Rules::tic_tac_toe();
    let mut agent = MctsAgent::new(config(), 0);
    agent.new_game(&rules);
    let cell = agent.select_move(&Position::new(rules), &Limits::nodes(500)).unwrap();
    let analysis = agent.analysis().unwrap();
    assert_eq!(analysis.score_kind, ScoreKind::VisitShare);
    assert_eq!(analysis.nodes, 500);
    assert_eq!(analysis.best_move, Some(cell));
    let total: f64 = analysis.scores.iter().map(|s| s.score).sum();
    assert!((total - 1.0).abs() < 1e-9);
    // Beside each visit share, the move's mean; the chosen move's is the value.
    let cells = |scores: &[CellScore]| scores.iter().map(|s| s.cell).collect::<Vec<_>>();
    assert_eq!(cells(&analysis.values), cells(&analysis.scores));
    assert!(analysis.values.iter().all(|v| (0.0..=1.0).contains(&v.score)));
    let chosen = analysis.values.iter().find(|v| v.cell == cell).unwrap();
    assert_eq!(Some(chosen.score), analysis.value);
    let small = MctsConfig { node_limit: 20, ..config() };
    let report = Mcts::new(small, 1).search(&Position::new(rules), &Limits::none());
    assert!(report.saturated && report.nodes <= 20);
}

#[test]
fn tree_reuse_keeps_the_subtree_played_into() {
    let rules = Rules::five_8x8();
    let mut pos = Position::new(rules);
    let config = MctsConfig { iterations: 20_000, reuse: true, ..MctsConfig::default() };
    let mut search = Mcts::new(config.clone(), 7);
    let first = search.search(&pos, &Limits::none());
    // Play the best line's first two moves: the grandchild's visits carry over.
    let (mine, reply) = (first.line[0], first.line[1]);
    pos.play(mine).unwrap();
    pos.play(reply).unwrap();
    let mut probe = Mcts::new(config.clone(), 7);
    let again = probe.search(&Position::new(rules), &Limits::none());
    assert_eq!(again, first, "same seed, same tree");
    let second = search.search(&pos, &Limits::nodes(1_000));
    assert!(second.root_visits > 1_000, "kept {} visits", second.root_visits - 1_000);
    // Without reuse the root starts from nothing.
    let mut fresh = Mcts::new(MctsConfig { reuse: false, ..config }, 7);
    fresh.search(&Position::new(rules), &Limits::none());
    assert_eq!(fresh.search(&pos, &Limits::nodes(1_000)).root_visits, 1_000);
}

#[test]
fn the_classic_tries_moves_in_cell_order_and_breaks_ties_to_the_first() {
    let rules = Rules::tic_tac_toe();
    let classic = MctsConfig { cell_order: true, ..config() };
    let empty = Position::new(rules);
    // Five iterations try the first five cells, one each, in cell order.
    let report =
        Mcts::new(MctsConfig { iterations: 5, ..classic.clone() }, 3).search(&empty, &Limits::none());
    let tried: Vec<_> = report.children.iter().map(|&(cell, _, _)| cell).collect();
    assert_eq!(tried, rules.cells().take(5).collect::<Vec<_>>());
    assert!(report.children.iter().all(|&(_, visits, _)| visits == 1));
    // Every child visited once: the tie goes to the first.
    let report = Mcts::new(MctsConfig { iterations: 9, ..classic }, 3).search(&empty, &Limits::none());
    assert_eq!(report.best_move, rules.cells().next());
}

#[test]
fn plays_renju_and_caro_by_their_rules() {
    // Black's double three at 7,7 is refused; the tree never offers it.
    let rules = Rules::renju();
    let pos = Position::from_moves(rules, "f8 a1 g8 o1 h6 a15 h7 o15").unwrap();
    let mut mcts = MctsAgent::new(MctsConfig { iterations: 3_000, ..MctsConfig::default() }, 1);
    let chosen = mcts.select_move(&pos, &Limits::none()).unwrap();
    assert!(pos.is_legal(chosen), "{chosen:?}");
    // Whole games against a random player: legal to the end, and won.
    for rules in [Rules::renju(), Rules::caro()] {
        for seed in 0..2 {
            let mut mcts = MctsAgent::new(MctsConfig { iterations: 500, ..MctsConfig::default() }, seed);
            let mut random = RandomAgent::new(seed);
            let record = play_game(rules, [&mut mcts, &mut random], &[], &Limits::none()).unwrap();
            assert_eq!(
                (record.forfeit, record.outcome),
                (None, Outcome::Win(Side::X)),
                "{rules} seed {seed}"
            );
        }
    }
}
