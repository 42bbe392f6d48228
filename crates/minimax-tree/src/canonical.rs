//! Exact canonical keys of small boards: both sides' marks as bit sets
//! under every symmetry, the smallest pair standing for the class. Unlike
//! a hash, two positions share a key only if one is a symmetric image of
//! the other, so a proof read from a table keyed by it is a proof.

use board::{Cell, Position, Rules, Side, Transform};

/// The largest board an exact key covers: one bit per cell in a `u64`.
pub const MAX_AREA: usize = 64;

/// Every symmetry of one board as a map of dense cell indices.
#[derive(Clone, Debug)]
pub struct Symmetries {
    rules: Rules,
    transforms: &'static [Transform],
    /// `images[t][i]`: the dense index of cell `i` under transform `t`.
    images: Vec<[u8; MAX_AREA]>,
}

impl Symmetries {
    /// The symmetries of `rules`, if the board has at most [`MAX_AREA`] cells.
    #[must_use]
    pub fn new(rules: Rules) -> Option<Symmetries> {
        if rules.area() > MAX_AREA {
            return None;
        }
        let transforms = rules.symmetries();
        let images = transforms
            .iter()
            .map(|&t| {
                let mut image = [0; MAX_AREA];
                for cell in rules.cells() {
                    image[rules.dense_index(cell)] = rules.dense_index(t.apply(cell, &rules)) as u8;
                }
                image
            })
            .collect();
        Some(Symmetries { rules, transforms, images })
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The key of `pos` and the transform that maps `pos` onto the class's
    /// representative (so a move `m` of the representative is the move
    /// `transform.inverse().apply(m)` of `pos`).
    #[must_use]
    pub fn canonical(&self, pos: &Position) -> (u128, Transform) {
        let dense =
            |side| pos.marks(side).iter().fold(0u64, |bits, cell| bits | 1 << self.rules.dense_index(cell));
        self.canonical_of(dense(Side::X), dense(Side::O))
    }

    /// [`Symmetries::canonical`] of the marks as dense bit sets.
    #[must_use]
    pub fn canonical_of(&self, x: u64, o: u64) -> (u128, Transform) {
        let mut best = (u128::MAX, Transform::Identity);
        for (image, &transform) in self.images.iter().zip(self.transforms) {
            let key = u128::from(map_bits(x, image)) << 64 | u128::from(map_bits(o, image));
            if key < best.0 {
                best = (key, transform);
            }
        }
        best
    }

    /// The cell with dense index `index`.
    #[must_use]
    pub fn cell(&self, index: usize) -> Cell {
        let width = usize::from(self.rules.width());
        Cell::new((index % width) as u8, (index / width) as u8)
    }
}

/// `bits` with every cell moved through `image`.
fn map_bits(mut bits: u64, image: &[u8; MAX_AREA]) -> u64 {
    let mut out = 0;
    while bits != 0 {
        out |= 1 << image[bits.trailing_zeros() as usize];
        bits &= bits - 1;
    }
    out
}

/// The marks of both sides as dense bit sets, kept under every symmetry
/// as marks are placed and removed, so the canonical key costs a few
/// comparisons: the solver's key.
#[derive(Clone, Debug)]
pub(crate) struct SymmetricMarks {
    symmetries: Symmetries,
    /// Per transform: X's marks, O's marks.
    marks: Vec<[u64; 2]>,
}

impl SymmetricMarks {
    pub(crate) fn new(symmetries: Symmetries, pos: &Position) -> SymmetricMarks {
        let mut marks = SymmetricMarks { marks: vec![[0; 2]; symmetries.images.len()], symmetries };
        for side in Side::ALL {
            for cell in pos.marks(side) {
                marks.toggle(cell, side);
            }
        }
        marks
    }

    /// Places or removes a mark of `side` on `cell`.
    #[inline]
    pub(crate) fn toggle(&mut self, cell: Cell, side: Side) {
        let index = self.symmetries.rules.dense_index(cell);
        for (marks, image) in self.marks.iter_mut().zip(&self.symmetries.images) {
            marks[side.index()] ^= 1 << image[index];
        }
    }

    /// The canonical key and the transform onto the representative.
    #[inline]
    pub(crate) fn canonical(&self) -> (u128, Transform) {
        let mut best = (u128::MAX, Transform::Identity);
        for (marks, &transform) in self.marks.iter().zip(self.symmetries.transforms) {
            let key = u128::from(marks[0]) << 64 | u128::from(marks[1]);
            if key < best.0 {
                best = (key, transform);
            }
        }
        best
    }

    /// X's and O's marks as dense bit sets (the identity image).
    #[inline]
    pub(crate) fn dense(&self) -> [u64; 2] {
        self.marks[0]
    }

    pub(crate) fn symmetries(&self) -> &Symmetries {
        &self.symmetries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_share_a_key_and_the_transform_maps_onto_it() {
        let rules = Rules::new(4, 4, 3, board::RuleSet::Freestyle).unwrap();
        let symmetries = Symmetries::new(rules).unwrap();
        let mut pos = Position::new(rules);
        for name in ["a1", "b3", "d2"] {
            pos.play(rules.parse_cell(name).unwrap()).unwrap();
        }
        let (key, transform) = symmetries.canonical(&pos);
        let mut marks = SymmetricMarks::new(symmetries.clone(), &pos);
        assert_eq!(marks.canonical().0, key);
        for &t in rules.symmetries() {
            let image = pos.transformed(t);
            assert_eq!(symmetries.canonical(&image).0, key);
        }
        // The transform maps the position onto the representative itself.
        let representative = pos.transformed(transform);
        let dense =
            |side| representative.marks(side).iter().fold(0u128, |bits, c| bits | 1 << rules.dense_index(c));
        assert_eq!(dense(Side::X) << 64 | dense(Side::O), key);
        // Toggling back and forth returns to the same key.
        let cell = rules.parse_cell("c4").unwrap();
        marks.toggle(cell, Side::O);
        assert_ne!(marks.canonical().0, key);
        marks.toggle(cell, Side::O);
        assert_eq!(marks.canonical().0, key);
        assert!(Symmetries::new(Rules::gomoku15()).is_none());
    }
}
