//! Tactics: positions with a known win by fours, a win through threes, and
//! a defence against such a win; each must be found within a node limit.

use board::{Cell, Position, Rules, Side};
use minimax_tree::{AlphaBeta, AlphaBetaConfig, Reason, ThreatLimits, find_threat_win};
use play::Limits;

use crate::support::Touching;

fn position(moves: &str) -> Position {
    Position::from_moves(Rules::gomoku15(), moves).unwrap()
}

fn name(pos: &Position, cell: Cell) -> String {
    cell.name(pos.rules()).to_string()
}

fn engine() -> AlphaBeta<Touching> {
    AlphaBeta::new(Touching, AlphaBetaConfig { tt_bytes: 1 << 20, ..AlphaBetaConfig::default() })
}

/// X: d4 e4 f4 (closed by O at c4) and g5 g6 g7 (closed at g8): g4 makes
/// two fours at once.
const DOUBLE_FOUR: &str = "d4 c4 e4 g8 f4 a1 g5 a15 g6 o1 g7 o15";

/// X: h8 i8 and j10 j11, open: j8 makes two open threes (h8-j8 and
/// j8 _ j10 j11), and X has no four to make.
const DOUBLE_THREE: &str = "h8 a1 i8 a15 j10 o1 j11 o15";

#[test]
fn a_win_by_fours_is_found_within_a_node_limit() {
    let pos = position(DOUBLE_FOUR);
    let win = find_threat_win(&pos, ThreatLimits::vcf(2_000));
    assert_eq!(name(&pos, win.line[0]), "g4", "{:?}", win.line);
    // g4, a block, the five.
    assert_eq!(win.plies, 3);
    let result = engine().search(&pos, &Limits::nodes(20_000));
    assert_eq!(result.reason, Reason::Vcf);
    assert_eq!(name(&pos, result.best_move.unwrap()), "g4");
    assert_eq!(result.win_in(), Some(3));
}

#[test]
fn a_win_through_threes_is_found_within_a_node_limit() {
    let pos = position(DOUBLE_THREE);
    assert!(!find_threat_win(&pos, ThreatLimits::vcf(100_000)).found(), "no fours to play");
    let win = find_threat_win(&pos, ThreatLimits::vct(20_000));
    assert!(win.found() && !win.exhausted);
    let result = engine().search(&pos, &Limits::nodes(100_000));
    assert_eq!(result.reason, Reason::Vct);
    assert!(result.value > minimax_tree::MATE - 100);
    assert_eq!(result.best_move, Some(win.line[0]));
}

/// O's moves after which X has no win by fours (checked where the search
/// settles the question within its budget).
fn defences(pos: &Position) -> Vec<String> {
    let mut found = Vec::new();
    for cell in pos.legal_moves() {
        let mut after = pos.clone();
        after.play_unchecked(cell);
        let win = find_threat_win(&after, ThreatLimits::vcf(200_000));
        if !win.found() && !win.exhausted {
            found.push(name(pos, cell));
        }
    }
    found
}

#[test]
fn the_defence_against_a_win_by_fours_is_found() {
    // X: c3 d3 e3 (closed by O at b3) and f5 f6 f7 (closed at f8); O to
    // move. X threatens f3, two fours at once. (X still wins through
    // threes after any move, in 8 plies after the best, so a search that
    // gets that far proves the loss and stops before its node limit.)
    let pos = position("c3 b3 d3 f8 e3 a15 f5 o1 f6 o15 f7 a1 m13");
    let defences = defences(&pos);
    assert!(defences.contains(&"f3".to_owned()), "{defences:?}");
    assert!(defences.len() <= 3, "only cells of X's two lines defend: {defences:?}");
    let result = engine().search(&pos, &Limits::nodes(100_000));
    assert!(defences.contains(&name(&pos, result.best_move.unwrap())), "{result:?} {defences:?}");
    // Threads sharing the table find it as well, and their nodes count
    // unless the loss was proven first.
    let config = AlphaBetaConfig { tt_bytes: 1 << 20, threads: 3, ..AlphaBetaConfig::default() };
    let mut threaded = AlphaBeta::new(Touching, config);
    for _ in 0..2 {
        let result = threaded.search(&pos, &Limits::nodes(100_000));
        assert!(defences.contains(&name(&pos, result.best_move.unwrap())), "{result:?} {defences:?}");
        let proven = result.win_in().is_some_and(|plies| plies < 0);
        assert!(result.depth >= 1 && (result.nodes >= 100_000 || proven), "{result:?}");
    }
}

/// Every move outside the defences of an open three leaves the opponent
/// an open four to make: the defence list the searches use misses none.
#[test]
fn the_defences_of_an_open_three_miss_none() {
    use board::threats::Threats;
    let rules = Rules::gomoku15();
    let mut checked = 0;
    for seed in 0..60_u64 {
        let mut pos = Position::new(rules);
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while !pos.is_over() && pos.ply() < 40 {
            let threats = Threats::new(&pos).unwrap();
            let me = pos.side_to_move();
            let opponent = me.opponent();
            let open_fours = threats.open_four_cells(opponent);
            if !open_fours.is_empty() && threats.five_cells(opponent).is_empty() {
                let defences = minimax_tree::three_defences(&threats, opponent, open_fours);
                for cell in pos.legal_moves() {
                    if defences.contains(cell) {
                        continue;
                    }
                    let mut after = pos.clone();
                    after.play_unchecked(cell);
                    let after = Threats::new(&after).unwrap();
                    assert!(!after.open_four_cells(opponent).is_empty(), "{} in\n{pos}", name(&pos, cell));
                    checked += 1;
                }
            }
            // Random moves within 2 of the centre's 7x7 square.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let near: Vec<Cell> = pos
                .legal_moves()
                .filter(|c| (4..=10).contains(&c.x()) && (4..=10).contains(&c.y()))
                .collect();
            pos.play_unchecked(near[(state % near.len() as u64) as usize]);
        }
    }
    assert!(checked > 1_000, "only {checked} moves checked");
}

/// The selective options that are off by default (the singular extension,
/// internal iterative reduction, reducing late noisy moves, pruning quiet
/// ones, history-adjusted reductions, extending the table's move) change
/// which nodes are searched, never what the tactics above find.
#[test]
fn the_optional_selectivity_keeps_the_tactics() {
    let configs = [
        AlphaBetaConfig { singular_depth: 2, singular_margin: 0, ..AlphaBetaConfig::default() },
        AlphaBetaConfig { singular_depth: 4, ..AlphaBetaConfig::default() },
        AlphaBetaConfig { iir_depth: 2, ..AlphaBetaConfig::default() },
        AlphaBetaConfig { reduce_noisy: 2, ..AlphaBetaConfig::default() },
        AlphaBetaConfig { quiet_pruning: 3, ..AlphaBetaConfig::default() },
        AlphaBetaConfig { history_reductions: 4, ..AlphaBetaConfig::default() },
        AlphaBetaConfig { table_extension: 2, ..AlphaBetaConfig::default() },
    ];
    let defending = position("c3 b3 d3 f8 e3 a15 f5 o1 f6 o15 f7 a1 m13");
    let defences = defences(&defending);
    let winning = position(DOUBLE_THREE);
    for config in configs {
        let mut engine = AlphaBeta::new(Touching, AlphaBetaConfig { tt_bytes: 1 << 20, ..config });
        let result = engine.search(&defending, &Limits::nodes(100_000));
        assert!(defences.contains(&name(&defending, result.best_move.unwrap())), "{config:?} {result:?}");
        let result = engine.search(&winning, &Limits::nodes(100_000));
        assert!(result.value > minimax_tree::MATE - 100, "{config:?} {result:?}");
    }
}

fn renju(moves: &str) -> Position {
    Position::from_moves(Rules::renju(), moves).unwrap()
}

#[test]
fn renju_black_never_wins_through_a_forbidden_point() {
    // g4 is a double four and j8 a double three: wins in freestyle,
    // forbidden to black under renju.
    for (moves, forbidden) in [(DOUBLE_FOUR, "g4"), (DOUBLE_THREE, "j8")] {
        let pos = renju(moves);
        let cell = pos.rules().parse_cell(forbidden).unwrap();
        assert!(!pos.is_legal(cell));
        // A line of threats may win another way (white may have to block
        // on the point), but every move of it is legal when played.
        let win = find_threat_win(&pos, ThreatLimits::vct(50_000));
        assert!(win.line.first() != Some(&cell), "{forbidden}: {:?}", win.line);
        let mut line = pos.clone();
        for &step in &win.line {
            line.play(step).unwrap_or_else(|error| panic!("{forbidden}: {error} in {win:?}"));
        }
        let result = engine().search(&pos, &Limits::nodes(50_000));
        let best = result.best_move.unwrap();
        assert!(pos.is_legal(best), "{forbidden}: {result:?}");
        // The line it means to play holds no forbidden move either.
        let mut line = pos.clone();
        for &step in &result.line {
            line.play(step).unwrap_or_else(|error| panic!("{forbidden}: {error} in {result:?}"));
        }
    }
}

#[test]
fn renju_white_may_play_what_black_may_not() {
    // The double three of DOUBLE_THREE, white's: still a win.
    let pos = renju("a1 h8 a15 i8 o1 j10 o15 j11 b1");
    let result = engine().search(&pos, &Limits::nodes(100_000));
    assert!(result.value > minimax_tree::MATE - 100, "{result:?}");
}

#[test]
fn renju_white_wins_by_forcing_black_onto_a_forbidden_point() {
    // Black: h8 i8 and k9 l10, so j8 is a double three; white j4 j5 j6,
    // closed below by black's j3. White's j7 makes a four whose one
    // block, j8, black may not play.
    let moves = "h8 j4 i8 j5 k9 j6 l10 a1 j3";
    let pos = renju(moves);
    let win = find_threat_win(&pos, ThreatLimits::vcf(1_000));
    assert_eq!(name(&pos, win.line[0]), "j7", "{:?}", win.line);
    let result = engine().search(&pos, &Limits::nodes(20_000));
    assert_eq!(name(&pos, result.best_move.unwrap()), "j7", "{result:?}");
    assert!(result.value > minimax_tree::MATE - 100, "{result:?}");
    // Freestyle black blocks there: no such win.
    let free = position(moves);
    let first = find_threat_win(&free, ThreatLimits::vcf(1_000)).line.first().map(|&c| name(&free, c));
    assert_ne!(first.as_deref(), Some("j7"));
}

#[test]
fn renju_candidates_and_minimax_leave_forbidden_points_out() {
    use play::Agent;
    for (moves, forbidden) in [(DOUBLE_FOUR, "g4"), (DOUBLE_THREE, "j8")] {
        let pos = renju(moves);
        let cell = pos.rules().parse_cell(forbidden).unwrap();
        for candidates in [minimax_tree::Candidates::All, minimax_tree::Candidates::Near(2)] {
            assert!(!candidates.cells(&pos).contains(cell), "{forbidden}");
        }
        let mut agent = minimax_tree::MinimaxAgent::new(Touching, 2, 1);
        let best = agent.select_move(&pos, &Limits::none()).unwrap();
        assert!(pos.is_legal(best), "{forbidden}: {}", name(&pos, best));
    }
}

#[test]
fn caro_straight_four_next_to_a_stone_is_stopped_at_its_open_end() {
    // X i9–i12 with both ends empty, but O on i7: blocking i13 leaves i8,
    // whose five would be closed by O at both ends — no win under caro.
    let moves = "h8 e8 h10 h7 i9 j8 g9 i7 i11 j12 i10 l10 i12";
    let caro = Position::from_moves(Rules::caro(), moves).unwrap();
    let result = engine().search(&caro, &Limits::nodes(20_000));
    assert_eq!(name(&caro, result.best_move.unwrap()), "i13", "{result:?}");
    assert!(result.value > -(minimax_tree::MATE - 100), "{result:?}");
    let mut blocked = caro.clone();
    blocked.play(caro.rules().parse_cell("i13").unwrap()).unwrap();
    let win = find_threat_win(&blocked, ThreatLimits::vcf(20_000));
    assert!(win.line.first().is_none_or(|&cell| name(&blocked, cell) != "i8"), "{:?}", win.line);
    // In freestyle the same four wins.
    let free = position(moves);
    let result = engine().search(&free, &Limits::nodes(20_000));
    assert!(result.value < -(minimax_tree::MATE - 100), "{result:?}");
}

#[test]
fn renju_black_whose_every_block_is_forbidden_loses_to_an_open_three() {
    // From a renju self-play game: white to move makes an open three
    // whose every block is forbidden to black, who has no four to play
    // first. The threat search stopped there, looking for a five to show
    // (a panic in self-play); it is a win.
    let text = ".............../.........x...../........x.ox.../........oo.o.../........x..x.../\
                ......x.xxxoxo./........x..ox../........o.xo.../........xooo.../........o..x.../\
                .......o......./......o......../.....x........./.............../...............";
    let pos = Position::from_one_line(Rules::renju(), text).unwrap();
    assert_eq!(pos.side_to_move(), Side::O);
    let win = find_threat_win(&pos, ThreatLimits::vct(200_000));
    assert!(win.found(), "{win:?}");
    // White's three, then (black having no move that helps) its open four.
    assert_eq!(win.line.len(), 2, "{win:?}");
    let mut after = pos.clone();
    after.play(win.line[0]).unwrap();
    let threats = board::threats::Threats::new(&after).unwrap();
    assert!(threats.open_four_cells(Side::O).contains(win.line[1]), "{win:?}");
    assert_eq!(win.plies, 5, "three, any reply, open four, any reply, five");
    // The engine plays it (it must block there anyway).
    let result = engine().search(&pos, &Limits::nodes(50_000));
    assert_eq!(result.best_move, Some(win.line[0]), "{result:?}");
}
