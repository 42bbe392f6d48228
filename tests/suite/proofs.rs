//! A win the default engine reports is one: positions from games against
//! the sparring partner where it once reported a win it did not have.

use board::{Position, Rules, Side};
use play::{Agent, Limits};
use roster::AgentSpec;

/// The default engine, for a game under `rules`.
fn engine(rules: Rules) -> Box<dyn Agent> {
    let mut agent = AgentSpec::parse("alphabeta").unwrap().build(0);
    agent.new_game(&rules);
    agent
}

/// `pos` with `moves` (cell names) played.
fn after(pos: &Position, moves: &[&str]) -> Position {
    let mut pos = pos.clone();
    for name in moves {
        pos.play(pos.rules().parse_cell(name).unwrap()).unwrap();
    }
    pos
}

/// What `agent` reports of `pos` at `depth`: a proven result in plies
/// (`win_in`), if any.
fn win_in(agent: &mut Box<dyn Agent>, pos: &Position, depth: u32) -> Option<i32> {
    agent.select_move(pos, &Limits::depth(depth)).unwrap();
    agent.analysis().unwrap().win_in
}

/// Freestyle, O to move (the gate's game 113, ply 15). At depth 10 the
/// engine used to report i10 a win in 19: X's refutation, j8 (an open
/// three of its own, and a win in 17), was not among the first twelve moves
/// X's node tried, and the loss of those was taken for a proof.
const COUNTER_ATTACK: &str = "h11 e9 j7 e10 g10 f11 j9 e8 e11 d9 g12 e6 e7 c8 b7";

#[test]
fn a_refutation_outside_the_first_moves_keeps_a_line_from_being_won() {
    let pos = Position::from_moves(Rules::gomoku15(), COUNTER_ATTACK).unwrap();
    let mut agent = engine(*pos.rules());
    let claim = win_in(&mut agent, &pos, 10);
    assert!(claim.is_none_or(|plies| plies < 0), "{claim:?}");
    // After i10, X's j8 is a win the engine sees.
    let claim = win_in(&mut agent, &after(&pos, &["i10", "j8"]), 10);
    assert!(claim.is_some_and(|plies| plies < 0), "{claim:?}");
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
    let mut agent = engine(*pos.rules());
    let claim = win_in(&mut agent, &pos, 8);
    assert!(claim.is_none(), "{claim:?}");
    // After h4, f6 is forbidden to black, and white is not lost.
    let white_to_move = after(&pos, &["h4"]);
    assert!(white_to_move.is_forbidden_for(Side::X, white_to_move.rules().parse_cell("f6").unwrap()));
    let claim = win_in(&mut agent, &white_to_move, 8);
    assert!(claim.is_none(), "{claim:?}");
}
