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
