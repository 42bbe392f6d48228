//! What the database keeps of a position: a label, a value with its depth
//! and bound, a comment, and short texts on points.

use board::Cell;

/// What a player (or a search) concluded of a position, for the side to
/// move in it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Label {
    /// Nothing concluded.
    #[default]
    None,
    /// The side to move wins.
    Win,
    /// The side to move loses.
    Loss,
    /// A draw.
    Draw,
    /// The move that led here is the only one: a GUI plays it at once.
    Forced,
    /// The move that led here is not to be considered.
    Excluded,
}

impl Label {
    /// Every label, in the order their numbers run.
    pub const ALL: [Label; 6] =
        [Label::None, Label::Win, Label::Loss, Label::Draw, Label::Forced, Label::Excluded];

    /// Its number in the file.
    #[must_use]
    pub fn number(self) -> i64 {
        Label::ALL.iter().position(|&label| label == self).unwrap_or(0) as i64
    }

    /// The label numbered `number`, if any.
    #[must_use]
    pub fn from_number(number: i64) -> Option<Label> {
        usize::try_from(number).ok().and_then(|i| Label::ALL.get(i).copied())
    }
}

/// Which side of the true value a stored value lies on, as a search's
/// transposition table keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The value itself.
    #[default]
    Exact,
    /// At least the value (the search cut off above it).
    Lower,
    /// At most the value.
    Upper,
}

impl Bound {
    /// Every bound, in the order their numbers run.
    pub const ALL: [Bound; 3] = [Bound::Exact, Bound::Lower, Bound::Upper];

    /// Its number in the file.
    #[must_use]
    pub fn number(self) -> i64 {
        Bound::ALL.iter().position(|&bound| bound == self).unwrap_or(0) as i64
    }

    /// The bound numbered `number`, if any.
    #[must_use]
    pub fn from_number(number: i64) -> Option<Bound> {
        usize::try_from(number).ok().and_then(|i| Bound::ALL.get(i).copied())
    }
}

/// The most characters a point's text holds (a GUI shows a few on the
/// board).
pub const MAX_TEXT_CHARS: usize = 8;

/// The most characters a comment holds.
pub const MAX_COMMENT_CHARS: usize = 10_000;

/// What the database keeps of one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The label.
    pub label: Label,
    /// A value for the side to move (a search's evaluation), if any.
    pub value: Option<i32>,
    /// The depth the value was searched to, if known.
    pub depth: Option<u32>,
    /// Which side of the true value `value` lies on.
    pub bound: Bound,
    /// A comment, free text.
    pub comment: String,
    /// Short texts on the board's points (at most [`MAX_TEXT_CHARS`]
    /// each), in the position's own coordinates; read back in row order
    /// from the top.
    pub texts: Vec<(Cell, String)>,
}

impl Record {
    /// A record with this label alone.
    #[must_use]
    pub fn labelled(label: Label) -> Record {
        Record { label, ..Record::default() }
    }

    /// A record with this value, depth and bound.
    #[must_use]
    pub fn valued(value: i32, depth: u32, bound: Bound) -> Record {
        Record { value: Some(value), depth: Some(depth), bound, ..Record::default() }
    }

    /// Whether it says nothing (such a record is not kept).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Record::default()
    }
}
