//! The threat mask: which of the strongest threats each side could make
//! with its next stone somewhere on the board — a five (it holds a four),
//! an open four (it holds an open three), a four-three or double four, a
//! plain four, an open or double three — as five bits a side, the side to move's and the waiting side's together one of 1,024
//! masks. A value by mask adds to the code family's sum of cells what a sum
//! cannot say: that two threats of one side, or a threat of each, are
//! worth more or less together than apart (a four beside the opponent's
//! open three, say). The bits come from the class counts the threat
//! tracker keeps, so reading a mask costs ten lookups.

use board::Side;
use board::threats::{CellClass, Threats};

/// Bits a side: the threat classes a mask tells apart, strongest first.
pub const MASK_BITS: usize = 5;

/// How many masks there are: the side to move's bits, then the waiting side's.
pub const MASKS: usize = 1 << (2 * MASK_BITS);

/// Each bit's classes (any of them on the board sets the bit) and its name.
const BITS: [(&[CellClass], &str); MASK_BITS] = [
    (&[CellClass::Five], "five"),
    (&[CellClass::OpenFour], "open four"),
    (&[CellClass::FourThree, CellClass::DoubleFour], "four-three"),
    (&[CellClass::Four], "four"),
    (&[CellClass::OpenThree, CellClass::DoubleThree], "open three"),
];

/// The bits of the threats `side` could make with one stone.
#[inline]
#[must_use]
pub fn side_mask(threats: &Threats, side: Side) -> usize {
    let mut mask = 0;
    for (bit, (classes, _)) in BITS.iter().enumerate() {
        if classes.iter().any(|&class| threats.class_count(side, class) > 0) {
            mask |= 1 << bit;
        }
    }
    mask
}

/// The mask of a position whose side to move is `me`.
#[inline]
#[must_use]
pub fn mask(threats: &Threats, me: Side) -> usize {
    side_mask(threats, me) << MASK_BITS | side_mask(threats, me.opponent())
}

/// A mask's name, as weights files write it: `mover five+four,
/// waiting open three`, `-` for a side with none.
#[must_use]
pub fn mask_name(mask: usize) -> String {
    let side = |bits: usize| -> String {
        let names: Vec<&str> = BITS
            .iter()
            .enumerate()
            .filter(|(bit, _)| bits >> bit & 1 == 1)
            .map(|(_, (_, name))| *name)
            .collect();
        if names.is_empty() { "-".to_owned() } else { names.join("+") }
    };
    format!("mover {}, waiting {}", side(mask >> MASK_BITS), side(mask & ((1 << MASK_BITS) - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Position;

    #[test]
    fn masks_say_which_threats_each_side_holds() {
        let rules = board::Rules::gomoku15();
        // X: an open three on row 8, so an open four (f8, j8) and a four
        // (e8, k8) to make; O: scattered. O to move.
        let pos = Position::from_moves(rules, "g8 a1 h8 o15 i8").unwrap();
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(side_mask(&threats, Side::X), 1 << 1 | 1 << 3, "{pos}");
        assert_eq!(side_mask(&threats, Side::O), 0);
        assert_eq!(mask(&threats, Side::O), 1 << 1 | 1 << 3);
        assert_eq!(mask_name(mask(&threats, Side::O)), "mover -, waiting open four+four");
        // X to move with an open two: open threes to make.
        let two = Position::from_moves(rules, "g8 a1 h8 o15").unwrap();
        assert_eq!(mask(&Threats::new(&two).unwrap(), Side::X) >> MASK_BITS, 1 << 4);
        // X to move with a four (and, from it, a five to complete).
        let four = Position::from_moves(rules, "g8 a1 h8 o15 i8 a15 j8").unwrap();
        let threats = Threats::new(&four).unwrap();
        assert_eq!(mask(&threats, Side::O) & 1, 1, "O waits with no five; X's bits are the low ones");
        assert_eq!(mask_name(0), "mover -, waiting -");
        assert_eq!(
            mask_name(MASKS - 1),
            format!("mover {0}, waiting {0}", "five+open four+four-three+four+open three")
        );
    }

    #[test]
    fn every_mask_has_its_own_name() {
        let names: std::collections::HashSet<String> = (0..MASKS).map(mask_name).collect();
        assert_eq!(names.len(), MASKS);
    }
}
