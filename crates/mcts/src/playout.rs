//! Heuristic playouts: win if you can, block an immediate loss, otherwise
//! a uniformly random move.

use board::{Cell, Direction, Outcome, Position, Side};
use rand::RngExt;
use rand::rngs::SmallRng;

/// Plays `pos` out with the heuristic and returns the result; `pos` is
/// left as it was. Threats only appear on the lines through the last
/// move, so each side's winning cells are tracked from those, and checked
/// again when used.
pub(crate) fn heuristic_playout(
    pos: &mut Position,
    rng: &mut SmallRng,
    threats: &mut [Vec<Cell>; 2],
) -> Outcome {
    threats[0].clear();
    threats[1].clear();
    // Start from every current winning cell.
    for side in Side::ALL {
        let near = pos.marks(side).dilate(pos.rules()) & pos.empty_cells();
        threats[side.index()].extend(near.iter().filter(|&cell| !pos.is_over() && pos.wins_at(cell, side)));
    }
    let mut played = 0;
    while pos.outcome().is_none() {
        let mover = pos.side_to_move();
        let cell = live(pos, &mut threats[mover.index()], mover)
            .or_else(|| live(pos, &mut threats[mover.opponent().index()], mover.opponent()))
            .unwrap_or_else(|| {
                let empty = pos.empty_cells();
                empty.nth(rng.random_range(0..empty.count())).expect("a game not over has an empty cell")
            });
        pos.play_unchecked(cell);
        played += 1;
        if pos.outcome().is_none() {
            note_threats(pos, cell, mover, &mut threats[mover.index()]);
        }
    }
    let outcome = pos.outcome().expect("played out");
    for _ in 0..played {
        pos.undo();
    }
    outcome
}

/// A cell of `cells` where `side` still wins now, dropping stale ones.
fn live(pos: &Position, cells: &mut Vec<Cell>, side: Side) -> Option<Cell> {
    while let Some(&cell) = cells.last() {
        if pos.get(cell).is_none() && pos.wins_at(cell, side) {
            return Some(cell);
        }
        cells.pop();
    }
    None
}

/// Adds the cells where `side`, having just played `cell`, now wins.
fn note_threats(pos: &Position, cell: Cell, side: Side, out: &mut Vec<Cell>) {
    let rules = pos.rules();
    let reach = i32::from(rules.k()) - 1;
    for direction in Direction::ALL {
        let (dx, dy) = direction.delta();
        for step in (-reach..=reach).filter(|&s| s != 0) {
            if let Some(near) = rules.cell(i32::from(cell.x()) + dx * step, i32::from(cell.y()) + dy * step)
                && pos.get(near).is_none()
                && !out.contains(&near)
                && pos.wins_at(near, side)
            {
                out.push(near);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;
    use rand::SeedableRng;

    #[test]
    fn a_side_that_can_win_does() {
        let rules = Rules::tic_tac_toe();
        // X to move wins at c3; a heuristic playout always ends so.
        let mut pos = Position::from_one_line(rules, "xx./oo./...").unwrap();
        let before = pos.clone();
        let mut rng = SmallRng::seed_from_u64(1);
        let mut threats = [Vec::new(), Vec::new()];
        for _ in 0..50 {
            assert_eq!(heuristic_playout(&mut pos, &mut rng, &mut threats), Outcome::Win(Side::X));
        }
        assert_eq!(pos, before);
        // O to move must block c1: X then wins far less often than when
        // O plays at random.
        let mut pos = Position::from_one_line(rules, ".../.o./xx.").unwrap();
        let mut scratch = Vec::new();
        let (mut heuristic, mut random) = (0, 0);
        for _ in 0..1000 {
            heuristic +=
                u32::from(heuristic_playout(&mut pos, &mut rng, &mut threats) == Outcome::Win(Side::X));
            random += u32::from(
                board::random_playout(&mut pos, &mut rng, &mut scratch).outcome == Outcome::Win(Side::X),
            );
        }
        assert!(heuristic + 300 < random, "heuristic {heuristic}, random {random} of 1000");
    }
}
