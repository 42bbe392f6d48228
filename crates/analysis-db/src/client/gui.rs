//! A record as the GUI (Yixin-Board) and the reference engine show and
//! write it, defined once for the brain's protocol and the reference's
//! file: labels as characters in the mover's view, values in the
//! reference's units, a proven result's distance in its steps.
//!
//! A record is of the position after a move; the GUI shows it on the
//! move's point, for the player who made the move: `w` the move wins (the
//! side to move in the record has lost), `l` it loses, `d`, `!` the only
//! move, `x` a move not to consider. Values are the reference engine's
//! evaluations (ours × 200 / 1130, the scale the labels of Strength V
//! fitted), clamped to ±6,000, and a proven result ±(30,000 − plies). A
//! distance is counted as the reference counts it: the plies from the
//! record's position to the end, plus one (the move itself): `w17`.

use play::analysis_store::{Bound, Label};
use play::{EVALUATION_SCALE, PROVEN_BOUND, PROVEN_WIN};

use crate::Record;

/// The reference's proven result.
const MATE: i32 = 30_000;
/// Where its proven results start.
const MATE_IN_MAX_PLY: i32 = MATE - 500;
/// Its evaluations are clamped inside this.
const EVAL_MAX: i32 = 6_000;
/// Our evaluation units per one of the reference's.
const OURS_PER_THEIRS: f64 = 1130.0 / 200.0;

/// A label's character, the mover's view (`None` for no label).
#[must_use]
pub fn label_char(label: Label) -> Option<u8> {
    match label {
        Label::Loss => Some(b'w'),
        Label::Win => Some(b'l'),
        Label::Draw => Some(b'd'),
        Label::Forced => Some(b'!'),
        Label::Excluded => Some(b'x'),
        Label::None => None,
    }
}

/// The label a character says (either case), if it is one.
#[must_use]
pub fn label_of_char(byte: u8) -> Option<Label> {
    Some(match byte.to_ascii_lowercase() {
        b'w' => Label::Loss,
        b'l' => Label::Win,
        b'd' => Label::Draw,
        b'!' => Label::Forced,
        b'x' => Label::Excluded,
        _ => return None,
    })
}

/// Our value in the reference's units.
#[must_use]
pub fn value_to_reference(value: i32) -> i16 {
    if value.abs() > PROVEN_BOUND {
        let plies = (PROVEN_WIN - value.abs()).min(MATE - MATE_IN_MAX_PLY);
        (value.signum() * (MATE - plies)) as i16
    } else {
        (f64::from(value) / OURS_PER_THEIRS).round().clamp(f64::from(-EVAL_MAX), f64::from(EVAL_MAX)) as i16
    }
}

/// A value in the reference's units in ours.
#[must_use]
pub fn value_from_reference(value: i16) -> i32 {
    let value = i32::from(value);
    if value.abs() >= MATE_IN_MAX_PLY {
        value.signum() * (PROVEN_WIN - (MATE - value.abs()))
    } else {
        (f64::from(value) * OURS_PER_THEIRS).round() as i32
    }
}

/// A proven record's distance as the reference counts it, from the move
/// its point stands for: the plies from the record's position to the end,
/// plus one. `None` when the value proves nothing.
#[must_use]
pub fn mate_steps(record: &Record) -> Option<u32> {
    let value = record.value.filter(|value| value.abs() > PROVEN_BOUND)?;
    u32::try_from(PROVEN_WIN - value.abs()).ok().map(|plies| plies + 1)
}

/// What the GUI shows on a move's point for the record after it: `w17`
/// (the move wins, 17 steps; `w*` distance unknown), `l…`, `d`, `!`,
/// `x`, or the mover's chance `62%` from an exact value.
#[must_use]
pub fn display_label(record: &Record) -> String {
    let distance = || mate_steps(record).map_or("*".to_owned(), |steps| steps.to_string());
    match record.label {
        Label::Loss => format!("w{}", distance()),
        Label::Win => format!("l{}", distance()),
        Label::None => match record.value {
            Some(value) if record.bound == Bound::Exact && value.abs() <= PROVEN_BOUND => {
                let chance = 1.0 / (1.0 + (EVALUATION_SCALE * f64::from(value)).exp());
                format!("{}%", ((chance * 100.0) as i32).clamp(0, 99))
            }
            _ => String::new(),
        },
        label => label_char(label).map_or(String::new(), |byte| char::from(byte).to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_cross_to_the_reference_and_back() {
        for theirs in [0_i16, 1, -1, 250, -5999, 29_990, -29_501, 29_999] {
            assert_eq!(value_to_reference(value_from_reference(theirs)), theirs, "{theirs}");
        }
        assert_eq!(value_from_reference(29_990), PROVEN_WIN - 10);
        assert_eq!(value_from_reference(200), 1130);
        // The record: −797 of ours is −141 of the reference's.
        assert_eq!(value_to_reference(-797), -141);
    }

    #[test]
    fn labels_show_as_the_reference_shows_them() {
        for label in Label::ALL {
            assert_eq!(label_char(label).and_then(label_of_char), (label != Label::None).then_some(label));
        }
        // Lost in 16 plies for the side to move: the move wins in 17 steps.
        let won = Record { label: Label::Loss, value: Some(-(PROVEN_WIN - 16)), ..Record::default() };
        assert_eq!(display_label(&won), "w17");
        assert_eq!(display_label(&Record::labelled(Label::Win)), "l*");
        assert_eq!(display_label(&Record::labelled(Label::Excluded)), "x");
        // The mover's chance: the side to move stands badly.
        assert_eq!(display_label(&Record::valued(-1130, 10, Bound::Exact)), "73%");
    }
}
