//! Renju's forbidden points where the threats are known: the tracker's
//! patterns at a cell settle most cells before the exact test of
//! [`crate::renju`] runs.

use crate::{Cell, Position, RuleSet};

use super::Pattern;

/// Whether black may not play the empty `cell` of `pos`, given its
/// `patterns` there (one a direction): a five never is; fours on two
/// lines are a double four, whatever else the move makes; else the exact
/// test, where two threes or fours, an open four (two fours on one line
/// read as one) or a line of six leave a forbidden point possible.
#[inline]
pub(super) fn decide(pos: &Position, cell: Cell, patterns: [Pattern; 4]) -> bool {
    if patterns.contains(&Pattern::Five) {
        return false;
    }
    let fours = patterns.iter().filter(|&&pattern| pattern >= Pattern::Four).count();
    if fours >= 2 {
        return true;
    }
    let threats = patterns.iter().filter(|&&pattern| pattern >= Pattern::OpenThree).count();
    let suspect =
        threats >= 2 || patterns.contains(&Pattern::OpenFour) || crate::renju::makes_overline(pos, cell);
    suspect && crate::renju::forbidden(pos, cell).is_some()
}

/// Whether renju's black may not play the empty `cell` of `pos` (whoever
/// is to move): [`Position::is_forbidden_for`](crate::Position::is_forbidden_for)
/// under renju, never under other rules. For playouts and anything else without a tracker.
#[inline]
#[must_use]
pub fn black_forbidden(pos: &Position, cell: Cell) -> bool {
    pos.rules().rule_set() == RuleSet::Renju && crate::renju::forbidden(pos, cell).is_some()
}

#[cfg(test)]
mod tests {
    use rand::rngs::SmallRng;
    use rand::{RngExt, SeedableRng};

    use super::*;
    use crate::{Rules, Side};

    #[test]
    fn the_cheap_tests_agree_with_the_exact_one_on_crowded_boards_with_a_tracker_or_without() {
        // Random renju games (legal moves only) to many lengths: crowded
        // boards are full of threes, fours and their fakes.
        let rules = Rules::renju();
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut cells, mut forbidden) = (0, 0);
        for _ in 0..150 {
            let mut pos = Position::new(rules);
            let length = rng.random_range(20..140);
            while pos.ply() < length && !pos.is_over() {
                let legal: Vec<Cell> = pos.legal_cells().iter().collect();
                pos.play(legal[rng.random_range(0..legal.len())]).unwrap();
            }
            let threats = super::super::Threats::new(&pos).unwrap();
            for cell in pos.empty_cells() {
                let exact = crate::renju::forbidden_by_definition(
                    &rules,
                    pos.marks(Side::X),
                    pos.marks(Side::O),
                    cell,
                )
                .is_some();
                assert_eq!(black_forbidden(&pos, cell), exact, "{cell:?} in {}", pos.to_one_line());
                assert_eq!(
                    threats.forbidden(&pos, Side::X, cell),
                    exact,
                    "{cell:?} in {}",
                    pos.to_one_line()
                );
                cells += 1;
                forbidden += usize::from(exact);
            }
        }
        assert!(forbidden > 50 && cells > 1000, "{forbidden} of {cells}: too few to tell");
    }

    #[test]
    fn nothing_is_forbidden_under_other_rules() {
        let pos = Position::from_moves(Rules::gomoku15(), "h8 a1 j8 a2 i9 a3 i10 a4").unwrap();
        let cell = Rules::gomoku15().parse_cell("i8").unwrap();
        // (The exact test judges the stones whatever the rules.)
        assert!(crate::renju::forbidden(&pos, cell).is_some());
        assert!(!black_forbidden(&pos, cell));
        let renju = Position::from_moves(Rules::renju(), "h8 a1 j8 a2 i9 a3 i10 a4").unwrap();
        assert!(black_forbidden(&renju, cell));
    }
}
