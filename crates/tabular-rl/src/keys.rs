//! Table keys: a position read as a base-3 number (0 empty, 1 X, 2 O per
//! cell), exact for boards of up to 40 cells. With symmetry on, the key is
//! the smallest over the board's symmetries, so positions that are
//! rotations or reflections of each other share one entry; the transform
//! that gave it maps cells into the table's frame.
//!
//! Keys are kept incrementally: a move adds its digit to the key of every
//! transform, so keying a position costs one add per symmetry.

use board::{Cell, Position, Rules, Side};

/// The largest board the tables key exactly: 3^40 < 2^64.
pub const MAX_AREA: usize = 40;

/// How a board's cells map to key digits under each symmetry.
#[derive(Clone, Debug)]
pub struct KeySpace {
    rules: Rules,
    width: usize,
    /// `digit[t][cell]`: 3^(index of `cell` under transform t).
    digit: Vec<[u64; MAX_AREA]>,
    /// `image[t][cell]`: the dense index of `cell` under transform t.
    image: Vec<[u8; MAX_AREA]>,
}

impl KeySpace {
    /// Why a table cannot hold games of `rules`, if it cannot.
    ///
    /// # Errors
    /// The board's size against [`MAX_AREA`].
    pub fn check(rules: &Rules) -> Result<(), String> {
        if rules.area() <= MAX_AREA {
            Ok(())
        } else {
            Err(format!("tables hold boards of at most {MAX_AREA} cells, not {}", rules.area()))
        }
    }

    /// Keys for `rules`, over every symmetry of the board if `symmetric`,
    /// else the identity only. `None` if the board has more than
    /// [`MAX_AREA`] cells.
    #[must_use]
    pub fn new(rules: Rules, symmetric: bool) -> Option<KeySpace> {
        if rules.area() > MAX_AREA {
            return None;
        }
        let width = usize::from(rules.width());
        let transforms = if symmetric { rules.symmetries() } else { &rules.symmetries()[..1] };
        let mut digit = Vec::with_capacity(transforms.len());
        let mut image = Vec::with_capacity(transforms.len());
        for &transform in transforms {
            let (mut digits, mut images) = ([0u64; MAX_AREA], [0u8; MAX_AREA]);
            for cell in rules.cells() {
                let to = transform.apply(cell, &rules);
                let index = usize::from(to.y()) * width + usize::from(to.x());
                let from = usize::from(cell.y()) * width + usize::from(cell.x());
                digits[from] = 3u64.pow(index as u32);
                images[from] = index as u8;
            }
            digit.push(digits);
            image.push(images);
        }
        Some(KeySpace { rules, width, digit, image })
    }

    /// The rules keyed.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Whether keys are taken over the symmetries.
    #[must_use]
    pub fn is_symmetric(&self) -> bool {
        self.digit.len() > 1
    }

    /// The dense index of a cell: `y·width + x`.
    #[must_use]
    pub fn index(&self, cell: Cell) -> usize {
        usize::from(cell.y()) * self.width + usize::from(cell.x())
    }

    /// The keys of the empty board.
    #[must_use]
    pub fn empty(&self) -> Keys {
        Keys { keys: [0; 8], count: self.digit.len() }
    }

    /// The keys of `pos`, from scratch: from its marks, so a position set
    /// up without a history (a one-line position) keys as one played.
    #[must_use]
    pub fn keys_of(&self, pos: &Position) -> Keys {
        let mut keys = self.empty();
        for side in Side::ALL {
            for cell in pos.marks(side) {
                self.play(&mut keys, cell, side);
            }
        }
        keys
    }

    /// Adds `side`'s mark on `cell` to every key.
    #[inline]
    pub fn play(&self, keys: &mut Keys, cell: Cell, side: Side) {
        let from = self.index(cell);
        let value = if side == Side::X { 1 } else { 2 };
        for (key, digit) in keys.keys[..keys.count].iter_mut().zip(&self.digit) {
            *key += value * digit[from];
        }
    }

    /// The key after `side` plays `cell`, without changing `keys`.
    #[inline]
    #[must_use]
    pub fn key_after(&self, keys: &Keys, cell: Cell, side: Side) -> u64 {
        let mut next = *keys;
        self.play(&mut next, cell, side);
        next.key()
    }

    /// Where `cell` lands in the table's frame of a position whose
    /// canonical transform is `transform` (from [`Keys::canonical`]).
    #[must_use]
    pub fn image(&self, transform: usize, cell: Cell) -> usize {
        usize::from(self.image[transform][self.index(cell)])
    }
}

/// The keys of one position under each symmetry in use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keys {
    keys: [u64; 8],
    count: usize,
}

impl Keys {
    /// The table key: the smallest over the symmetries in use.
    #[inline]
    #[must_use]
    pub fn key(&self) -> u64 {
        self.keys[..self.count].iter().copied().min().unwrap_or(0)
    }

    /// The table key and the first transform that gives it.
    #[must_use]
    pub fn canonical(&self) -> (u64, usize) {
        let mut best = (self.keys[0], 0);
        for (t, &key) in self.keys[..self.count].iter().enumerate().skip(1) {
            if key < best.0 {
                best = (key, t);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_keys_are_base_3_numbers() {
        let rules = Rules::tic_tac_toe();
        let space = KeySpace::new(rules, false).unwrap();
        // a3 is the top-left (index 0), b3 index 1; X = 1, O = 2.
        let keys = space.keys_of(&Position::from_moves(rules, "a3 b3").unwrap());
        assert_eq!(keys.key(), 1 + 2 * 3);
        assert_eq!(space.empty().key(), 0);
        assert!(!space.is_symmetric());
    }

    #[test]
    fn a_position_set_up_without_history_keys_as_one_played() {
        let rules = Rules::tic_tac_toe();
        for symmetric in [false, true] {
            let space = KeySpace::new(rules, symmetric).unwrap();
            let played = Position::from_moves(rules, "b2 a1 c3").unwrap();
            let set_up = Position::from_one_line(rules, &played.to_one_line()).unwrap();
            assert!(set_up.moves().is_empty() || set_up.moves().len() == 3);
            assert_eq!(space.keys_of(&set_up).key(), space.keys_of(&played).key());
        }
    }

    #[test]
    fn symmetric_keys_join_rotations_and_reflections() {
        let rules = Rules::tic_tac_toe();
        let space = KeySpace::new(rules, true).unwrap();
        let corners = ["a1", "a3", "c1", "c3"]
            .map(|corner| space.keys_of(&Position::from_moves(rules, corner).unwrap()).key());
        assert!(corners.iter().all(|&key| key == corners[0]));
        let centre = space.keys_of(&Position::from_moves(rules, "b2").unwrap()).key();
        let edge = space.keys_of(&Position::from_moves(rules, "a2").unwrap()).key();
        assert!(centre != corners[0] && edge != corners[0] && edge != centre);
        // The canonical frame maps a cell consistently: the X corner lands
        // on the same table cell whichever corner it was.
        for corner in ["a1", "a3", "c1", "c3"] {
            let keys = space.keys_of(&Position::from_moves(rules, corner).unwrap());
            let (_, transform) = keys.canonical();
            assert_eq!(space.image(transform, rules.parse_cell(corner).unwrap()), 0, "{corner}");
        }
    }

    #[test]
    fn incremental_keys_match_keys_from_scratch() {
        let rules = Rules::new(4, 4, 3, board::RuleSet::Freestyle).unwrap();
        let space = KeySpace::new(rules, true).unwrap();
        let moves = ["a1", "b2", "d4", "c1", "a4"];
        let mut keys = space.empty();
        for (ply, name) in moves.iter().enumerate() {
            let side = if ply % 2 == 0 { Side::X } else { Side::O };
            let before = keys;
            let cell = rules.parse_cell(name).unwrap();
            space.play(&mut keys, cell, side);
            assert_eq!(space.key_after(&before, cell, side), keys.key());
            assert_eq!(keys, space.keys_of(&Position::from_moves(rules, &moves[..=ply].join(" ")).unwrap()));
        }
    }

    #[test]
    fn big_boards_are_refused() {
        assert!(KeySpace::new(Rules::new(7, 6, 4, board::RuleSet::Freestyle).unwrap(), true).is_none());
        assert!(KeySpace::new(Rules::new(8, 5, 4, board::RuleSet::Freestyle).unwrap(), true).is_some());
    }
}
