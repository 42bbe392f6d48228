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

/// Renju, a self-play game (white to move at ply 89): white proved n15 a
/// win in 25, and two moves later, the same proof's next step to find
/// again in a tenth of a short move, played a quiet move and drew. The
/// partner, given the position after n15, calls black lost too.
const KEPT_PROOF: &str = "h8 i9 f6 j7 g8 i8 h9 h10 i10 f7 j8 h6 g7 i6 g5 g6 h5 f5 h7 e7 i5 k6 j6 \
    k5 k7 l8 g9 f10 h11 g10 g12 j9 e10 f11 f9 d11 e11 e12 d10 f12 e9 d9 f13 e14 e5 d4 c11 f8 c10 \
    d13 c14 b10 d6 e13 g11 c7 h12 j11 g15 c12 b12 a13 f15 h15 i12 i11 i13 j12 j13 k14 j14 k15 k13 \
    l13 m11 l12 l11 k9 h4 g3 m7 l9 m9 m10 k8 k12 m12 i3 m6";

/// Nodes enough for the threat search to prove the win from scratch, and
/// too few (a quarter of them go to it) to prove it again two moves on.
const PROVING_NODES: u64 = 100_000;
const SHORT_NODES: u64 = 4_000;

#[test]
fn a_win_proved_once_is_played_out_on_a_short_budget() {
    let pos = Position::from_moves(Rules::renju(), KEPT_PROOF).unwrap();
    let mut agent = engine(*pos.rules());
    let report = |agent: &mut Box<dyn Agent>, pos: &Position, nodes: u64| {
        let cell = agent.select_move(pos, &Limits::nodes(nodes)).unwrap();
        (cell.name(pos.rules()).to_string(), agent.analysis().unwrap().win_in)
    };
    let (first, claim) = report(&mut agent, &pos, PROVING_NODES);
    // (27: the longest defence the proof met, not the first one's 25.)
    assert_eq!((first.as_str(), claim), ("n15", Some(27)));
    // Black's defences as the proof showed them; white's next step.
    let later = after(&pos, &["n15", "m14", "b13", "c13"]);
    let (_, fresh) = report(&mut engine(*pos.rules()), &later, SHORT_NODES);
    assert_eq!(fresh, None, "a fresh engine proves it on the short budget: the test shows nothing");
    let (_, kept) = report(&mut agent, &later, SHORT_NODES);
    assert!(kept.is_some_and(|plies| plies > 0), "{kept:?}");
}
