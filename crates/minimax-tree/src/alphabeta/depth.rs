//! Depth in fractions of a ply: the search counts what is left of a line
//! in sixteenths, so that extensions and reductions of less than a ply
//! add up along the line instead of rounding to whole plies. Iterations
//! and reports stay in whole plies.

/// Plies left to search, in sixteenths of a ply (at most [`MAX_STORED`]
/// in the table; below zero at the leaves).
pub(super) type Depth = i32;

/// One ply.
pub(super) const PLY: Depth = 16;

/// The deepest depth the table keeps (its field's width): 511 plies and
/// fifteen sixteenths.
pub(super) const MAX_STORED: Depth = (1 << 13) - 1;

/// `n` whole plies.
#[inline]
pub(super) const fn plies(n: u32) -> Depth {
    n as Depth * PLY
}

/// The whole plies in `depth` (rounded down, never below zero).
#[inline]
pub(super) const fn whole_plies(depth: Depth) -> u32 {
    if depth <= 0 { 0 } else { (depth / PLY) as u32 }
}

/// A depth of `fraction` plies (rounded to the nearest sixteenth).
#[inline]
pub(super) fn fractional(fraction: f64) -> Depth {
    (fraction * f64::from(PLY)).round() as Depth
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_plies_round_down_and_never_below_zero() {
        assert_eq!(whole_plies(plies(7)), 7);
        assert_eq!(whole_plies(plies(7) + PLY - 1), 7);
        assert_eq!(whole_plies(plies(7) - 1), 6);
        assert_eq!(whole_plies(-PLY), 0);
        assert_eq!(fractional(0.25), PLY / 4);
        assert_eq!(fractional(-1.5), -(PLY + PLY / 2));
    }
}
