//! A position's key up to the board's symmetries: the rule set and size
//! (kept beside it), the side to move, and the stones, 2 bits a cell in
//! row order, as the smallest of the board's 8 (or 4) images. Mirror
//! images and transpositions get one key, and the transform to the key's
//! image says where a point's text goes (on a symmetric position, the
//! first in row order of the points it could go to).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use board::{Cell, Position, Side, Transform};

/// A position's key, and the transform that takes its cells to the key's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionKey {
    /// The side to move (0 X, 1 O), then the stones of the canonical image.
    pub bytes: Vec<u8>,
    /// Takes a cell of the position to the key's image.
    pub transform: Transform,
}

impl PositionKey {
    /// The key of `pos`.
    #[must_use]
    pub fn of(pos: &Position) -> PositionKey {
        let mut best = PositionKey { bytes: Vec::new(), transform: Transform::Identity };
        for &transform in pos.rules().symmetries() {
            let bytes = image_bytes(pos, transform);
            if best.bytes.is_empty() || bytes < best.bytes {
                best = PositionKey { bytes, transform };
            }
        }
        best
    }

    /// Whether `transform` takes `pos` to this key's image: `pos` is in
    /// the coordinates of a record whose key took that transform.
    #[must_use]
    pub fn is_image(&self, pos: &Position, transform: Transform) -> bool {
        image_bytes(pos, transform) == self.bytes
    }

    /// Where a text on `cell` of `pos` (this key's position) is kept in
    /// the key's image: of the points the transforms that take `pos` to
    /// the key's image take `cell` to (several, when the position is
    /// symmetric), the first in row order — what the reference engine
    /// looks up, so that every image of the point shows the text.
    #[must_use]
    pub fn canonical_point(&self, pos: &Position, cell: Cell) -> Cell {
        canonical_point(pos, cell, &self.transforms_onto(pos))
    }

    /// Every transform that takes `pos` (this key's position) to the
    /// key's image: one, or more for a symmetric position.
    #[must_use]
    pub fn transforms_onto(&self, pos: &Position) -> Vec<Transform> {
        let onto: Vec<Transform> = pos
            .rules()
            .symmetries()
            .iter()
            .copied()
            .filter(|&transform| image_bytes(pos, transform) == self.bytes)
            .collect();
        if onto.is_empty() { vec![self.transform] } else { onto }
    }
}

/// Of the points `onto` (transforms to one image) take `cell` to, the
/// first in row order.
#[must_use]
pub fn canonical_point(pos: &Position, cell: Cell, onto: &[Transform]) -> Cell {
    let rules = pos.rules();
    onto.iter()
        .map(|transform| transform.apply(cell, rules))
        .min_by_key(|&image| rules.dense_index(image))
        .unwrap_or(cell)
}

/// The points `pos`'s own symmetries take `cell` to, `cell` first: the
/// points a text on `cell` shows on (a symmetric position's records do
/// not tell its images apart).
#[must_use]
pub fn point_images(pos: &Position, cell: Cell) -> Vec<Cell> {
    let rules = pos.rules();
    let mut images = vec![cell];
    for &transform in rules.symmetries() {
        let keeps = |side: Side| {
            pos.marks(side).into_iter().all(|stone| pos.get(transform.apply(stone, rules)) == Some(side))
        };
        let image = transform.apply(cell, rules);
        if keeps(Side::X) && keeps(Side::O) && !images.contains(&image) {
            images.push(image);
        }
    }
    images
}

/// A set of keys' bytes, hashed cheaply (FNV-1a): walks and imports keep
/// one entry a position, and `SipHash` cost them a tenth of their time.
pub(crate) type KeySet = HashSet<Vec<u8>, BuildHasherDefault<KeyHasher>>;

/// FNV-1a over a key's bytes.
pub(crate) struct KeyHasher(u64);

impl Default for KeyHasher {
    fn default() -> Self {
        KeyHasher(0xCBF2_9CE4_8422_2325)
    }
}

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
}

/// The key bytes of `pos`'s image under `transform`: the side to move,
/// then 2 bits a cell in row order.
fn image_bytes(pos: &Position, transform: Transform) -> Vec<u8> {
    let rules = *pos.rules();
    let mut bytes = vec![0_u8; 1 + rules.area().div_ceil(4)];
    bytes[0] = u8::from(pos.side_to_move() == Side::O);
    for (mark, stones) in [(1_u8, pos.marks(Side::X)), (2, pos.marks(Side::O))] {
        for cell in stones {
            let index = rules.dense_index(transform.apply(cell, &rules));
            bytes[1 + index / 4] |= mark << (2 * (index % 4));
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use board::Rules;

    use super::*;

    #[test]
    fn the_images_of_a_position_share_its_key() {
        let rules = Rules::gomoku15();
        let pos = Position::from_moves(rules, "h8 i9 j9 a1 o3").unwrap();
        let key = PositionKey::of(&pos);
        for &transform in rules.symmetries() {
            let mut image = Position::new(rules);
            for &cell in pos.moves() {
                image.play(transform.apply(cell, &rules)).unwrap();
            }
            let other = PositionKey::of(&image);
            assert_eq!(other.bytes, key.bytes, "{transform:?}");
            // Each image's transform lands its cells where the key's are.
            for &cell in pos.moves() {
                assert_eq!(
                    other.transform.apply(transform.apply(cell, &rules), &rules),
                    key.transform.apply(cell, &rules)
                );
            }
        }
        // Another position, or the same stones with the other side to move, differ.
        let other = Position::from_moves(rules, "h8 i9 j9 a1 o4").unwrap();
        assert_ne!(PositionKey::of(&other).bytes, key.bytes);
        assert_ne!(
            key.bytes[0],
            PositionKey::of(&Position::from_moves(rules, "h8 i9 j9 a1").unwrap()).bytes[0]
        );
    }
}
