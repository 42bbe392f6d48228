//! Perft: counting the game tree, as a check of move generation and win
//! detection and as a speed figure.

use serde::{Deserialize, Serialize};

use crate::{Cell, Outcome, Position, RuleSet, Side};

/// Counts of the game tree below a position.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Perft {
    /// Positions (move sequences) at each depth, the start position at 0.
    pub nodes_per_depth: Vec<u64>,
    /// Finished games within the depth: the sum of the three below.
    pub games: u64,
    /// Games won by X.
    pub x_wins: u64,
    /// Games won by O.
    pub o_wins: u64,
    /// Games drawn.
    pub draws: u64,
}

/// Walks every move sequence from `pos` up to `depth` plies, counting the
/// positions at each depth and the games that end on the way.
#[must_use]
pub fn perft(pos: &Position, depth: usize) -> Perft {
    let mut counts = Perft { nodes_per_depth: vec![0; depth + 1], ..Perft::default() };
    let mut pos = pos.clone();
    walk(&mut pos, 0, &mut counts);
    counts.games = counts.x_wins + counts.o_wins + counts.draws;
    counts
}

fn walk(pos: &mut Position, depth: usize, counts: &mut Perft) {
    counts.nodes_per_depth[depth] += 1;
    match pos.outcome() {
        Some(Outcome::Win(Side::X)) => counts.x_wins += 1,
        Some(Outcome::Win(Side::O)) => counts.o_wins += 1,
        Some(Outcome::Draw) => counts.draws += 1,
        None if depth + 1 < counts.nodes_per_depth.len() => {
            // Renju's black may not play its forbidden points.
            let renju_black = pos.rules().rule_set() == RuleSet::Renju && pos.side_to_move() == Side::X;
            for y in 0..pos.rules().height() {
                // Each child is undone before the next, so the row read
                // here stays the row to walk.
                let mut empty = pos.empty_row(y);
                while empty != 0 {
                    let cell = Cell::new(empty.trailing_zeros() as u8, y);
                    empty &= empty - 1;
                    if renju_black && crate::renju::forbidden(pos, cell).is_some() {
                        continue;
                    }
                    pos.play_unchecked(cell);
                    walk(pos, depth + 1, counts);
                    pos.undo();
                }
            }
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn tic_tac_toe_counts() {
        let counts = perft(&Position::new(Rules::tic_tac_toe()), 9);
        assert_eq!(counts.nodes_per_depth, [1, 9, 72, 504, 3024, 15120, 54720, 148_176, 200_448, 127_872]);
        assert_eq!(counts.games, 255_168);
        assert_eq!(counts.x_wins, 131_184);
        assert_eq!(counts.o_wins, 77_904);
        assert_eq!(counts.draws, 46_080);
    }

    /// The tree by `legal_moves`, slowly: what perft must count.
    fn count(pos: &mut Position, depth: usize, nodes: &mut [u64]) {
        nodes[depth] += 1;
        if depth + 1 < nodes.len() {
            for cell in pos.legal_moves().collect::<Vec<_>>() {
                pos.play(cell).unwrap();
                count(pos, depth + 1, nodes);
                pos.undo();
            }
        }
    }

    #[test]
    fn renju_and_caro_count_the_legal_moves() {
        // Black (X) to move with forbidden points: a double three at c3
        // on 6×6 (b3 d3 … and c2 c4 …): some cells are left out.
        for rules in
            [Rules::new(6, 6, 5, RuleSet::Renju).unwrap(), Rules::new(6, 6, 5, RuleSet::Caro).unwrap()]
        {
            let start = Position::from_moves(rules, "b3 a6 d3 f6 c2 a1 c5 f1").unwrap();
            let counts = perft(&start, 3);
            let mut nodes = vec![0; 4];
            count(&mut start.clone(), 0, &mut nodes);
            assert_eq!(counts.nodes_per_depth, nodes, "{rules}");
        }
        let renju =
            Position::from_moves(Rules::new(6, 6, 5, RuleSet::Renju).unwrap(), "b3 a6 d3 f6 c2 a1 c5 f1")
                .unwrap();
        assert!(renju.legal_move_count() < 28, "black has forbidden points here");
    }

    #[test]
    fn shallow_depth_counts_only_early_games() {
        let counts = perft(&Position::new(Rules::tic_tac_toe()), 5);
        assert_eq!(counts.nodes_per_depth, [1, 9, 72, 504, 3024, 15120]);
        // Only X can have won by ply 5: 8 lines, 3! orders of X's marks,
        // 6 · 5 ordered places for O's two: 1440 games.
        assert_eq!(counts.x_wins, 1440);
        assert_eq!(counts.o_wins + counts.draws, 0);
    }
}
