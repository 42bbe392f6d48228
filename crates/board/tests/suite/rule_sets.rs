//! Renju and caro through `Position`: what is legal, what wins.

use board::renju::Forbidden;
use board::{Cell, MoveError, Outcome, Position, Rules, Side};

/// Plays `moves` (x,y pairs) in turn from X.
fn play(rules: Rules, moves: &[(u8, u8)]) -> Position {
    let mut pos = Position::new(rules);
    for &(x, y) in moves {
        pos.play(Cell::new(x, y)).unwrap_or_else(|error| panic!("{x},{y}: {error}"));
    }
    pos
}

/// X's stones and O's far apart, interleaved: O answers far away.
fn interleave(x: &[(u8, u8)], o: &[(u8, u8)]) -> Vec<(u8, u8)> {
    x.iter().zip(o).flat_map(|(&a, &b)| [a, b]).collect()
}

#[test]
fn renju_black_may_not_play_a_forbidden_point_and_white_may() {
    let rules = Rules::renju();
    // Black: two open threes meet at 7,7 (h8).
    let pos = play(rules, &interleave(&[(5, 7), (6, 7), (7, 5), (7, 6)], &[(0, 0), (0, 2), (0, 4), (0, 6)]));
    let h8 = Cell::new(7, 7);
    assert!(!pos.is_legal(h8));
    assert!(!pos.legal_moves().any(|cell| cell == h8));
    assert_eq!(pos.legal_move_count(), pos.legal_moves().count());
    assert_eq!(pos.legal_move_count(), 225 - 8 - 1);
    let error = pos.clone().play(h8).unwrap_err();
    assert!(matches!(error, MoveError::Forbidden { reason: Forbidden::DoubleThree, .. }));
    assert_eq!(error.to_string(), "h8 is forbidden for black: double three");
    // White may play there; in freestyle black may too.
    let mut moves = interleave(&[(5, 7), (6, 7), (7, 5), (7, 6)], &[(0, 0), (0, 2), (0, 4), (0, 6)]);
    moves.push((14, 14));
    let mut white = play(rules, &moves);
    assert_eq!(white.side_to_move(), Side::O);
    assert!(white.play(h8).is_ok());
    let mut free = play(
        Rules::gomoku15(),
        &interleave(&[(5, 7), (6, 7), (7, 5), (7, 6)], &[(0, 0), (0, 2), (0, 4), (0, 6)]),
    );
    assert!(free.play(h8).is_ok());
}

#[test]
fn renju_black_wins_with_exactly_five_white_with_more() {
    let rules = Rules::renju();
    let black = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)];
    let pos = play(rules, &interleave(&black, &[(0, 0), (0, 2), (0, 4), (0, 6), (0, 8)])[..9]);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::X)));
    // White's six wins: its five stones, a black answer, the sixth.
    let white = [(3, 3), (4, 3), (6, 3), (7, 3), (8, 3), (5, 3)];
    let mut moves = interleave(&[(0, 0), (0, 2), (0, 4), (0, 6), (0, 9), (2, 12)], &white);
    moves.truncate(12);
    let pos = play(rules, &moves);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::O)));
    assert_eq!(pos.winning_line().unwrap().len, 6);
}

#[test]
fn caro_needs_a_five_not_blocked_at_both_ends() {
    let rules = Rules::caro();
    // O blocks both ends first, then X makes five between them: no win.
    let x = [(4, 7), (5, 7), (6, 7), (7, 7), (8, 7)];
    let o = [(3, 7), (9, 7), (0, 0), (0, 2), (0, 4)];
    let pos = play(rules, &interleave(&x, &o)[..9]);
    assert_eq!(pos.outcome(), None, "a five closed at both ends does not win");
    assert!(pos.winning_line().is_none());
    // One end open: a win, and the line is the five.
    let o = [(3, 7), (0, 1), (0, 3), (0, 5), (0, 7)];
    let pos = play(rules, &interleave(&x, &o)[..9]);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::X)));
    assert_eq!(pos.winning_line().unwrap().len, 5);
    // At the board's edge with the other end blocked: the edge is no stone.
    let x = [(0, 7), (1, 7), (2, 7), (3, 7), (4, 7)];
    let o = [(5, 7), (9, 0), (9, 2), (9, 4), (9, 6)];
    let pos = play(rules, &interleave(&x, &o)[..9]);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::X)));
    // An overline does not win.
    let x = [(4, 7), (5, 7), (6, 7), (8, 7), (9, 7), (7, 7)];
    let o = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10)];
    let pos = play(rules, &interleave(&x, &o)[..11]);
    assert_eq!(pos.outcome(), None);
    // wins_at agrees with playing.
    let x = [(4, 7), (5, 7), (6, 7), (7, 7)];
    let o = [(3, 7), (0, 1), (0, 3), (9, 7)];
    let pos = play(rules, &interleave(&x, &o));
    assert!(!pos.wins_at(Cell::new(8, 7), Side::X), "closed at both ends once 8,7 is played");
}

#[test]
fn caro_freestyle_lets_an_open_overline_win() {
    let rules: Rules = "15,15,5,caro-freestyle".parse().unwrap();
    let x = [(4, 7), (5, 7), (6, 7), (8, 7), (9, 7), (7, 7)];
    let o = [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10)];
    let pos = play(rules, &interleave(&x, &o)[..11]);
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::X)));
    // Closed at both ends it does not.
    let o = [(3, 7), (10, 7), (0, 4), (0, 6), (0, 8), (0, 10)];
    let pos = play(rules, &interleave(&x, &o)[..11]);
    assert_eq!(pos.outcome(), None);
}

#[test]
fn playouts_under_a_rule_set_leave_the_position_as_it_was() {
    use rand::SeedableRng;
    // Debug builds check every playout move's legality as it is placed:
    // a forbidden black stone would panic here.
    for rules in [Rules::renju(), Rules::caro()] {
        let mut pos =
            play(rules, &interleave(&[(5, 7), (6, 7), (7, 5), (7, 6)], &[(0, 0), (0, 2), (0, 4), (0, 6)]));
        let (hash, ply) = (pos.hash(), pos.ply());
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let mut scratch = Vec::new();
        let mut wins = [0; 2];
        for _ in 0..200 {
            let playout = board::random_playout(&mut pos, &mut rng, &mut scratch);
            if let Outcome::Win(side) = playout.outcome {
                wins[side.index()] += 1;
            }
            assert_eq!((pos.hash(), pos.ply(), pos.outcome()), (hash, ply, None));
        }
        assert!(wins[0] + wins[1] > 150, "{rules}: {wins:?}");
    }
}
