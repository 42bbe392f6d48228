//! A win the default engine reports is one: positions from games against
//! the sparring partner where it once reported a win it did not have.

use board::{Position, Rules};
use play::Limits;
use roster::AgentSpec;

/// Freestyle, O to move (the gate's game 113, ply 15). At depth 10 the
/// engine used to report i10 a win in 19: X's refutation, j8 (an open
/// three of its own, and a win in 17), was not among the first twelve moves
/// X's node tried, and the loss of those was taken for a proof.
const COUNTER_ATTACK: &str = "h11 e9 j7 e10 g10 f11 j9 e8 e11 d9 g12 e6 e7 c8 b7";

#[test]
fn a_refutation_outside_the_first_moves_keeps_a_line_from_being_won() {
    let pos = Position::from_moves(Rules::gomoku15(), COUNTER_ATTACK).unwrap();
    let mut agent = AgentSpec::parse("alphabeta").unwrap().build(0);
    agent.new_game(pos.rules());
    agent.select_move(&pos, &Limits::depth(10)).unwrap();
    let analysis = agent.analysis().unwrap();
    assert!(analysis.win_in.is_none_or(|plies| plies < 0), "{analysis:?}");
    // After i10, X's j8 is a win the engine sees.
    let mut after = pos.clone();
    for name in ["i10", "j8"] {
        after.play(after.rules().parse_cell(name).unwrap()).unwrap();
    }
    agent.select_move(&after, &Limits::depth(10)).unwrap();
    let analysis = agent.analysis().unwrap();
    assert!(analysis.win_in.is_some_and(|plies| plies < 0), "{analysis:?}");
}

/// Renju, the gate's game 40 (our engine black): at ply 22 it reported h4
/// a win in 7, and after white's h7 saw none. Black's f6 would make two
/// fours on row 6 (`d6 . f6 g6 h6 . j6`), a point black may not play; but
/// white's node after h4 counted f6 as an open four to answer, tried only
/// the blocks of row 6, and took their loss for a proof — h7, which stops
/// the h-file, was never tried.
const FORBIDDEN_THREAT: &str = "h8 h9 h6 i9 j6 g8 g9 i7 i10 j7 k7 k6 i8 l8 f8 g7 f7 f9 d6 e7 g6 e8";

#[test]
fn a_threat_only_a_forbidden_point_makes_forces_no_reply() {
    let pos = Position::from_moves(Rules::renju(), FORBIDDEN_THREAT).unwrap();
    let mut agent = AgentSpec::parse("alphabeta").unwrap().build(0);
    agent.new_game(pos.rules());
    agent.select_move(&pos, &Limits::depth(8)).unwrap();
    let analysis = agent.analysis().unwrap();
    assert!(analysis.win_in.is_none(), "{analysis:?}");
    // After h4, f6 is forbidden to black, and white is not lost.
    let mut after = pos.clone();
    after.play(after.rules().parse_cell("h4").unwrap()).unwrap();
    assert!(after.is_forbidden_for(board::Side::X, after.rules().parse_cell("f6").unwrap()));
    agent.select_move(&after, &Limits::depth(8)).unwrap();
    let analysis = agent.analysis().unwrap();
    assert!(analysis.win_in.is_none(), "{analysis:?}");
}
