//! The alpha-beta engine's own behaviours, on the tests' evaluation: tiny
//! budgets, leaves raised by a double three, forced blocks, pruning and
//! selectivity steps, several lines, excluded cells.

use board::{Cell, Position, Rules};
use minimax_tree::{AlphaBeta, AlphaBetaConfig, MATE};
use play::{Limits, PROVEN_BOUND as MATE_BOUND, Progress, RootStep};

use crate::support::{Touching, TouchingPolicy};
#[test]
fn a_budget_of_a_node_or_two_reports_no_proof() {
    let pos = Position::from_moves(Rules::gomoku15(), "h8 i9 g7").unwrap();
    for nodes in 1..=3 {
        let mut engine = AlphaBeta::new(Touching, AlphaBetaConfig::default());
        let report = engine.search(&pos, &Limits::nodes(nodes));
        assert_eq!(report.win_in(), None, "{nodes} nodes: {report:?}");
        assert!(report.value.abs() < MATE_BOUND, "{nodes} nodes: {report:?}");
        assert!(report.best_move.is_some_and(|cell| pos.is_legal(cell)));
    }
}

#[test]
fn a_double_three_the_opponent_cannot_answer_raises_the_leaf() {
    let leaf = |bonus: i32, moves: &str| {
        let pos = Position::from_moves(Rules::gomoku15(), moves).unwrap();
        let config = AlphaBetaConfig { tt_bytes: 0, double_three_bonus: bonus, ..AlphaBetaConfig::default() };
        AlphaBeta::new(Touching, config).search_depth(&pos, 0)
    };
    // X to move: j8 makes open threes h8-j8 and j8-j10-j11; O has nothing.
    let double_three = "h8 a1 i8 a15 j10 o1 j11 o15";
    assert_eq!(leaf(700, double_three), leaf(0, double_three) + 700);
    // O with a three of its own (b1 c1 d1, open): no bonus.
    let answered = "h8 b1 i8 c1 j10 d1 j11 o15";
    assert_eq!(leaf(700, answered), leaf(0, answered));
}

#[test]
fn a_forced_block_that_costs_no_depth_shows_a_win_a_ply_sooner() {
    // From a self-play game, X to move: X wins in 7 plies through a
    // four whose block is forced. Found at depth 3 only when the block
    // costs no depth; without that it takes depth 4.
    let pos = Position::from_moves(Rules::gomoku15(), "j7 i6 h8 j6 h7 i5 h6 h5 i8 k6 j8 l6").unwrap();
    let value = |extend_forced: bool, depth: u32| {
        let config = AlphaBetaConfig {
            tt_bytes: 0,
            extend_forced,
            double_three_bonus: 0,
            ..AlphaBetaConfig::default()
        };
        AlphaBeta::new(Touching, config).search_depth(&pos, depth)
    };
    assert_eq!(value(true, 3), MATE - 7);
    assert!(value(false, 3) < MATE_BOUND, "{}", value(false, 3));
    assert_eq!(value(false, 4), MATE - 7);
}

#[test]
fn pruning_near_the_leaves_saves_nodes_and_keeps_the_win() {
    // The forced win above, and a quiet middle game.
    let win = Position::from_moves(Rules::gomoku15(), "j7 i6 h8 j6 h7 i5 h6 h5 i8 k6 j8 l6").unwrap();
    let quiet = Position::from_moves(Rules::gomoku15(), "h8 i9 h10 g9 j9 i8 i10 g8 f7 j8").unwrap();
    let search = |pos: &Position, config: AlphaBetaConfig, depth: u32| {
        let mut engine = AlphaBeta::new(Touching, AlphaBetaConfig { tt_bytes: 1 << 20, ..config });
        let value = engine.search_depth(pos, depth);
        (value, engine.nodes())
    };
    let off = AlphaBetaConfig { late_move_pruning: 0, ..AlphaBetaConfig::default() };
    let on = AlphaBetaConfig { late_move_pruning: 5, ..AlphaBetaConfig::default() };
    assert_eq!(search(&win, on.clone(), 5).0, MATE - 7);
    let (pruned, unpruned) = (search(&quiet, on, 6).1, search(&quiet, off, 6).1);
    assert!(pruned < unpruned, "{pruned} nodes with move-count pruning, {unpruned} without");
}

#[test]
fn each_selectivity_step_keeps_the_forced_win_and_changes_the_tree() {
    let win = Position::from_moves(Rules::gomoku15(), "j7 i6 h8 j6 h7 i5 h6 h5 i8 k6 j8 l6").unwrap();
    // A middle game of a match against the sparring partner, undecided.
    let quiet =
        Position::from_moves(Rules::gomoku15(), "e11 f10 j8 g10 h10 f9 h11 g11 h12 h9 f12 h14 g12 e12 f11")
            .unwrap();
    let search = |pos: &Position, config: &AlphaBetaConfig, depth: u32| {
        let mut engine = AlphaBeta::new(Touching, AlphaBetaConfig { tt_bytes: 1 << 20, ..config.clone() });
        let value = engine.search_depth(pos, depth);
        (value, engine.nodes())
    };
    let base = AlphaBetaConfig::default();
    let steps = [
        // (Open lines score in small units: a small margin.)
        AlphaBetaConfig { futility_depth: 8, futility_margin: 5, ..base.clone() },
        AlphaBetaConfig { razor_percent: 2, ..base.clone() },
        AlphaBetaConfig { fail_high_percent: 2, ..base.clone() },
        AlphaBetaConfig { log_reduction_percent: 100, ..base.clone() },
        // (On by default: the step heard is turning it off.)
        AlphaBetaConfig { lmp_unimproving_percent: 100, ..base.clone() },
        AlphaBetaConfig { singular_depth: 3, ..base.clone() },
        AlphaBetaConfig { null_move_depth: 2, null_move_margin: 1, ..base.clone() },
    ];
    let (value, plain) = search(&quiet, &base, 7);
    assert!(value.abs() < MATE_BOUND, "{value}");
    for step in &steps {
        assert_eq!(search(&win, step, 5).0, MATE - 7, "{step:?}");
        let (_, nodes) = search(&quiet, step, 7);
        assert_ne!(nodes, plain, "{step:?} searched the same tree");
    }
}

#[test]
fn reductions_and_pruning_by_the_policy_act_only_where_the_evaluator_has_one() {
    fn nodes<E: play::Evaluator>(mut engine: AlphaBeta<E>, pos: &Position) -> u64 {
        engine.search_depth(pos, 7);
        engine.nodes()
    }
    let win = Position::from_moves(Rules::gomoku15(), "j7 i6 h8 j6 h7 i5 h6 h5 i8 k6 j8 l6").unwrap();
    let quiet =
        Position::from_moves(Rules::gomoku15(), "e11 f10 j8 g10 h10 f9 h11 g11 h12 h9 f12 h14 g12 e12 f11")
            .unwrap();
    let by_index = AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::default() };
    let plain = nodes(AlphaBeta::new(Touching, by_index.clone()), &quiet);
    let by_order = nodes(AlphaBeta::new(TouchingPolicy, by_index.clone()), &quiet);
    for by_policy in [
        AlphaBetaConfig { policy_reduction_tenths: 10, ..by_index.clone() },
        AlphaBetaConfig { policy_pruning_tenths: 5, ..by_index.clone() },
    ] {
        // Without a policy the setting changes nothing.
        assert_eq!(nodes(AlphaBeta::new(Touching, by_policy.clone()), &quiet), plain, "{by_policy:?}");
        // With one it changes the tree and keeps the forced win.
        assert_ne!(
            nodes(AlphaBeta::new(TouchingPolicy, by_policy.clone()), &quiet),
            by_order,
            "{by_policy:?}"
        );
        assert_eq!(AlphaBeta::new(TouchingPolicy, by_policy).search_depth(&win, 5), MATE - 7);
    }
}

#[test]
fn several_lines_are_distinct_and_listed_best_first() {
    let pos =
        Position::from_moves(Rules::gomoku15(), "e11 f10 j8 g10 h10 f9 h11 g11 h12 h9 f12 h14").unwrap();
    let config = AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::default() };
    let lines = AlphaBeta::new(Touching, config.clone()).search_lines(&pos, &Limits::nodes(30_000), 3);
    let moves: Vec<Cell> = lines.iter().filter_map(|line| line.best_move).collect();
    assert_eq!(moves.len(), 3);
    assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2], "{moves:?}");
    let alone = AlphaBeta::new(Touching, config).search(&pos, &Limits::nodes(10_000));
    assert!(alone.best_move.is_some_and(|best| moves.contains(&best)), "{moves:?}");
    assert!(lines.iter().all(|line| line.depth > 0 && !line.line.is_empty()));
    // Listed best first.
    assert!(lines.windows(2).all(|pair| pair[0].value >= pair[1].value), "{lines:?}");
}

#[test]
fn excluded_cells_are_never_chosen_and_root_moves_are_reported() {
    // X has an open four's worth: f8 or k8 wins (g8 h8 i8 j8).
    let pos = Position::from_moves(Rules::gomoku15(), "g8 a1 h8 a3 i8 a5 j8 o1").unwrap();
    let config = AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::default() };
    let mut engine = AlphaBeta::new(Touching, config);
    let win = engine.search(&pos, &Limits::nodes(20_000)).best_move.unwrap();
    let mut excluded = board::Bitboard::EMPTY;
    excluded.insert(win);
    let other = engine.search(&pos, &Limits::nodes(20_000).with_excluded(excluded));
    assert_ne!(other.best_move, Some(win));
    assert!(other.value > MATE_BOUND, "the other end wins too: {other:?}");
    // A quiet position: every root move searched is reported, entered
    // and then done (or lost), and none of them is excluded.
    let pos =
        Position::from_moves(Rules::gomoku15(), "e11 f10 j8 g10 h10 f9 h11 g11 h12 h9 f12 h14").unwrap();
    let best = engine.search(&pos, &Limits::nodes(20_000)).best_move.unwrap();
    let mut excluded = board::Bitboard::EMPTY;
    excluded.insert(best);
    let progress = Progress::with_root_moves();
    let limits = Limits::nodes(20_000).with_excluded(excluded).with_progress(progress.clone());
    let other = engine.search(&pos, &limits).best_move.unwrap();
    assert_ne!(other, best);
    let events = progress.take_root_events();
    assert!(events.iter().all(|event| event.cell != best), "{events:?}");
    assert!(events.iter().any(|event| event.step == RootStep::Entered && event.cell == other));
    assert!(events.iter().any(|event| event.step != RootStep::Entered && event.cell == other));
}

#[test]
fn recorded_cuts_are_the_searchs_own_and_change_nothing_else() {
    let pos = Position::from_moves(Rules::gomoku15(), "h8 i9 j8 g8 i7 h6 k9").unwrap();
    let config = AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::default() };
    let limits = Limits::nodes(20_000);
    let mut plain = AlphaBeta::new(Touching, config.clone());
    let expected = plain.search(&pos, &limits);
    let mut recording = AlphaBeta::new(Touching, config);
    recording.record_cuts(2, usize::MAX);
    let report = recording.search(&pos, &limits);
    assert_eq!((report.best_move, report.value), (expected.best_move, expected.value));
    assert_eq!(recording.nodes(), plain.nodes(), "recording cuts changes no node");
    assert!(plain.take_cuts().is_empty(), "nothing kept unless asked");
    let cuts = recording.take_cuts();
    assert!(!cuts.is_empty());
    for cut in &cuts {
        // Each is a node below the searched position, its cutting move a
        // move there, from a node with the plies left asked for.
        assert!(cut.moves.len() > pos.moves().len() && cut.moves.starts_with(pos.moves()), "{cut:?}");
        let mut node = Position::new(Rules::gomoku15());
        for &cell in &cut.moves {
            node.play(cell).unwrap();
        }
        assert!(node.is_legal(cut.cell), "{cut:?}");
        assert!(cut.plies_left >= 2, "{cut:?}");
    }
    assert!(cuts.iter().any(|cut| cut.tried_before > 0), "some cuts came late");
    assert!(recording.take_cuts().is_empty(), "taken once");
}
