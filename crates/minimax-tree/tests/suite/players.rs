//! The players: perfect play never loses, the engine takes wins and
//! blocks losses, and every player plays legal, finished games.

use board::{Outcome, Position, Rules, Side};
use minimax_tree::{AlphaBeta, AlphaBetaAgent, AlphaBetaConfig, PerfectPlayer, Reason, TreePlayer};
use play::{Agent, Limits, RandomAgent, play_game};

use crate::support::Touching;

/// Games `player` loses to `random` out of `games`, as `side`.
fn losses(make: &dyn Fn(u64) -> Box<dyn Agent>, rules: Rules, side: Side, games: u64) -> u64 {
    let mut lost = 0;
    for seed in 0..games {
        let mut player = make(seed);
        let mut random = RandomAgent::new(seed + 77);
        let agents: [&mut dyn Agent; 2] = match side {
            Side::X => [&mut *player, &mut random],
            Side::O => [&mut random, &mut *player],
        };
        let record = play_game(rules, agents, &[], &Limits::none()).unwrap();
        assert!(record.forfeit.is_none(), "{record:?}");
        lost += u64::from(record.outcome == Outcome::Win(side.opponent()));
    }
    lost
}

#[test]
fn perfect_and_tree_players_never_lose_at_tic_tac_toe() {
    let rules = Rules::tic_tac_toe();
    let perfect = |_| Box::new(PerfectPlayer::new()) as Box<dyn Agent>;
    let tree = |seed| Box::new(TreePlayer::new(seed)) as Box<dyn Agent>;
    for side in Side::ALL {
        assert_eq!(losses(&perfect, rules, side, 1000), 0, "perfect as {side:?}");
        assert_eq!(losses(&tree, rules, side, 1000), 0, "tree as {side:?}");
    }
    // Against itself: a draw, every time.
    for seed in 0..20 {
        let (mut a, mut b) = (PerfectPlayer::new(), PerfectPlayer::new());
        assert_eq!(play_game(rules, [&mut a, &mut b], &[], &Limits::none()).unwrap().outcome, Outcome::Draw);
        let (mut a, mut b) = (TreePlayer::new(seed), TreePlayer::new(seed + 1));
        assert_eq!(play_game(rules, [&mut a, &mut b], &[], &Limits::none()).unwrap().outcome, Outcome::Draw);
    }
}

#[test]
fn perfect_player_wins_a_won_game() {
    // 4,4,3 is a first-player win: as X it always wins.
    let rules = Rules::new(4, 4, 3, board::RuleSet::Freestyle).unwrap();
    let perfect = |_| Box::new(PerfectPlayer::new()) as Box<dyn Agent>;
    for seed in 0..50 {
        let mut x = perfect(seed);
        let mut o = RandomAgent::new(seed);
        let record = play_game(rules, [&mut *x, &mut o], &[], &Limits::none()).unwrap();
        assert_eq!(record.outcome, Outcome::Win(Side::X));
    }
}

fn engine() -> AlphaBeta<Touching> {
    AlphaBeta::new(Touching, AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::default() })
}

#[test]
fn the_engine_takes_wins_and_blocks_losses() {
    let rules = Rules::gomoku15();
    // X to move with an open four... and O four-in-a-row too: win first.
    let pos = Position::from_moves(rules, "h8 a1 h9 a2 h10 a3 h11 a4").unwrap();
    let result = engine().search(&pos, &Limits::depth(3));
    assert_eq!(result.reason, Reason::WinNow);
    assert!(["h7", "h12"].contains(&result.best_move.unwrap().name(&rules).to_string().as_str()));
    // O to move must block X's four.
    let pos = Position::from_moves(rules, "h8 h7 h9 a1 h10 a2 h11").unwrap();
    let result = engine().search(&pos, &Limits::depth(3));
    assert_eq!(result.reason, Reason::Block);
    assert_eq!(result.best_move.unwrap().name(&rules).to_string(), "h12");
    // X with an open three finds the open four through the threat search.
    let pos = Position::from_moves(rules, "h8 a1 h9 a2 h10 o15").unwrap();
    let result = engine().search(&pos, &Limits::depth(3));
    assert_eq!(result.reason, Reason::Vcf);
    assert!(result.value > MATE_SOON);
}

const MATE_SOON: i32 = minimax_tree::MATE - 100;

#[test]
fn the_engine_never_loses_tic_tac_toe_and_reports_its_search() {
    let rules = Rules::tic_tac_toe();
    let make = |_| Box::new(AlphaBetaAgent::new(engine(), "alphabeta")) as Box<dyn Agent>;
    for side in Side::ALL {
        assert_eq!(losses(&make, rules, side, 100), 0);
    }
    let mut agent = AlphaBetaAgent::new(engine(), "alphabeta");
    agent.new_game(&rules);
    let pos = Position::new(rules);
    agent.select_move(&pos, &Limits::depth(9)).unwrap();
    let analysis = agent.analysis().unwrap();
    assert_eq!(analysis.depth, Some(9));
    assert_eq!(analysis.value, Some(0.0));
    assert!(analysis.nodes > 0 && !analysis.line.is_empty());
    assert_eq!(analysis.scores.len(), 9);
}

#[test]
fn limits_stop_the_search() {
    let rules = Rules::gomoku15();
    let pos = Position::from_moves(rules, "h8 h9 i8 g10").unwrap();
    let mut engine = engine();
    let result = engine.search(&pos, &Limits::nodes(5_000));
    assert!(result.best_move.is_some());
    assert!(result.nodes <= 5_000 + 100, "{}", result.nodes);
    let flag = play::StopFlag::new();
    flag.stop();
    let result = engine.search(&pos, &Limits::none().with_stop(flag));
    assert!(result.best_move.is_some(), "a stopped search still names a move");
}

#[test]
fn the_engine_reports_progress_while_it_thinks() {
    let rules = Rules::gomoku15();
    let pos = Position::from_moves(rules, "h8 h9 i8 g10").unwrap();
    let progress = play::Progress::new();
    let result = engine().search(&pos, &Limits::depth(3).with_progress(progress.clone()));
    let (nodes, depth) = progress.read();
    assert_eq!(depth, result.depth);
    assert!(nodes > 0 && nodes <= result.nodes);
}

#[test]
fn a_watched_search_publishes_each_finished_depth() {
    let rules = Rules::gomoku15();
    let pos = Position::from_moves(rules, "h8 h9 i8 g10").unwrap();
    let progress = play::Progress::new();
    let mut agent = AlphaBetaAgent::new(engine(), "alphabeta");
    agent.new_game(&rules);
    agent.select_move(&pos, &Limits::depth(3).with_progress(progress.clone())).unwrap();
    let last = agent.analysis().unwrap();
    // Depths 1, 2 and 3 (a first depth may start higher: at least one).
    assert!(progress.published() >= 1);
    let published = progress.latest().unwrap();
    assert_eq!(published.depth, Some(3));
    assert_eq!(
        (published.best_move, &published.line, published.value, &published.scores),
        (last.best_move, &last.line, last.value, &last.scores)
    );
    assert!(published.nodes > 0 && published.nodes <= last.nodes);
}
