//! The symmetries of a board: rotations and mirror images.

use serde::{Deserialize, Serialize};

use crate::{Cell, Rules};

/// One of the 8 symmetries of a square board (the first 4 of [`Transform::ALL`]
/// are also symmetries of a rectangular one).
///
/// Rows grow downward, so [`Transform::Rotate90`] turns the board clockwise
/// as it is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Transform {
    /// Leaves every cell where it is.
    Identity,
    /// A half turn.
    Rotate180,
    /// Mirror left to right.
    FlipHorizontal,
    /// Mirror top to bottom.
    FlipVertical,
    /// A quarter turn clockwise (square boards only).
    Rotate90,
    /// Three quarter turns clockwise (square boards only).
    Rotate270,
    /// Mirror in the main diagonal: `(x, y)` to `(y, x)` (square boards only).
    Transpose,
    /// Mirror in the other diagonal (square boards only).
    AntiTranspose,
}

impl Transform {
    /// All 8, those valid on any board first.
    pub const ALL: [Transform; 8] = [
        Transform::Identity,
        Transform::Rotate180,
        Transform::FlipHorizontal,
        Transform::FlipVertical,
        Transform::Rotate90,
        Transform::Rotate270,
        Transform::Transpose,
        Transform::AntiTranspose,
    ];

    /// As (swap x and y, then mirror x, then mirror y).
    const fn parts(self) -> (bool, bool, bool) {
        match self {
            Transform::Identity => (false, false, false),
            Transform::Rotate180 => (false, true, true),
            Transform::FlipHorizontal => (false, true, false),
            Transform::FlipVertical => (false, false, true),
            Transform::Rotate90 => (true, true, false),
            Transform::Rotate270 => (true, false, true),
            Transform::Transpose => (true, false, false),
            Transform::AntiTranspose => (true, true, true),
        }
    }

    const fn from_parts(parts: (bool, bool, bool)) -> Transform {
        match parts {
            (false, false, false) => Transform::Identity,
            (false, true, true) => Transform::Rotate180,
            (false, true, false) => Transform::FlipHorizontal,
            (false, false, true) => Transform::FlipVertical,
            (true, true, false) => Transform::Rotate90,
            (true, false, true) => Transform::Rotate270,
            (true, false, false) => Transform::Transpose,
            (true, true, true) => Transform::AntiTranspose,
        }
    }

    /// Whether this transform swaps rows and columns (and so needs a square board).
    #[inline]
    #[must_use]
    pub const fn swaps_axes(self) -> bool {
        self.parts().0
    }

    /// Where `cell` goes on a board of these rules.
    ///
    /// A transform that [swaps axes](Transform::swaps_axes) is only a
    /// symmetry of a square board; [`Rules::symmetries`] lists the valid ones.
    #[inline]
    #[must_use]
    pub fn apply(self, cell: Cell, rules: &Rules) -> Cell {
        let (swap, flip_x, flip_y) = self.parts();
        debug_assert!(!swap || rules.is_square(), "{self:?} needs a square board");
        let (mut x, mut y) = (cell.x(), cell.y());
        if swap {
            (x, y) = (y, x);
        }
        if flip_x {
            x = rules.width() - 1 - x;
        }
        if flip_y {
            y = rules.height() - 1 - y;
        }
        Cell::new(x, y)
    }

    /// `self` followed by `next`, as one transform.
    #[must_use]
    pub const fn then(self, next: Transform) -> Transform {
        let (s1, x1, y1) = self.parts();
        let (s2, x2, y2) = next.parts();
        // A swap in `next` turns the first transform's x-mirror into a y-mirror.
        let (x1, y1) = if s2 { (y1, x1) } else { (x1, y1) };
        Transform::from_parts((s1 ^ s2, x1 ^ x2, y1 ^ y2))
    }

    /// The transform that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Transform {
        match self {
            Transform::Rotate90 => Transform::Rotate270,
            Transform::Rotate270 => Transform::Rotate90,
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotate90_is_clockwise() {
        let rules = Rules::tic_tac_toe();
        // Top-left corner goes to the top-right corner.
        assert_eq!(Transform::Rotate90.apply(Cell::new(0, 0), &rules), Cell::new(2, 0));
        assert_eq!(Transform::Rotate90.apply(Cell::new(2, 0), &rules), Cell::new(2, 2));
    }

    #[test]
    fn group_laws_on_every_cell() {
        let rules = Rules::new(5, 5, 3, crate::RuleSet::Freestyle).unwrap();
        for a in Transform::ALL {
            for cell in rules.cells() {
                assert_eq!(a.inverse().apply(a.apply(cell, &rules), &rules), cell, "{a:?}");
                for b in Transform::ALL {
                    let composed = a.then(b).apply(cell, &rules);
                    assert_eq!(composed, b.apply(a.apply(cell, &rules), &rules), "{a:?} then {b:?}");
                }
            }
            assert_eq!(a.then(a.inverse()), Transform::Identity);
        }
    }

    #[test]
    fn rectangular_symmetries_stay_on_board() {
        let rules = Rules::new(5, 3, 3, crate::RuleSet::Freestyle).unwrap();
        for &t in rules.symmetries() {
            assert!(!t.swaps_axes());
            for cell in rules.cells() {
                assert!(rules.contains(t.apply(cell, &rules)));
            }
        }
    }
}
