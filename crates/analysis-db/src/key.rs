//! A position's key up to the board's symmetries: the rule set and size
//! (kept beside it), the side to move, and the stones, 2 bits a cell in
//! row order, as the smallest of the board's 8 (or 4) images. Mirror
//! images and transpositions get one key, and the transform to the key's
//! image says where a point's text goes.

use board::{Position, Side, Transform};

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
        let mut cells = vec![0_u8; pos.rules().area()];
        for &transform in pos.rules().symmetries() {
            let bytes = image_bytes(pos, transform, &mut cells);
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
        image_bytes(pos, transform, &mut vec![0_u8; pos.rules().area()]) == self.bytes
    }
}

/// The key bytes of `pos`'s image under `transform` (`cells` a scratch
/// board of the rules' area).
fn image_bytes(pos: &Position, transform: Transform, cells: &mut [u8]) -> Vec<u8> {
    let rules = *pos.rules();
    cells.fill(0);
    for (mark, stones) in [(1, pos.marks(Side::X)), (2, pos.marks(Side::O))] {
        for cell in stones {
            cells[rules.dense_index(transform.apply(cell, &rules))] = mark;
        }
    }
    let mut bytes = Vec::with_capacity(1 + rules.area().div_ceil(4));
    bytes.push(u8::from(pos.side_to_move() == Side::O));
    bytes.extend(cells.chunks(4).map(|four| four.iter().rev().fold(0, |byte, &mark| byte << 2 | mark)));
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
