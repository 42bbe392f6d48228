//! What the database keeps of a position: a label, a value with its depth
//! and bound, a comment, and short texts on points.

use board::{Cell, Position};

use crate::storage::key::point_images;
use play::analysis_store::{Bound, Label};

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
    /// Marked by a person (a RenLib mark: a position to come back to).
    pub marked: bool,
    /// Short texts on the board's points (at most [`MAX_TEXT_CHARS`]
    /// each), in the position's own coordinates; read back in row order
    /// from the top.
    pub texts: Vec<(Cell, String)>,
}

impl Record {
    /// The text on `cell` of `pos` (this record's position): a text on any
    /// point `pos`'s symmetries take `cell` to, as a symmetric position's
    /// record does not tell its images apart.
    #[must_use]
    pub fn text_at(&self, pos: &Position, cell: Cell) -> Option<&str> {
        let images = point_images(pos, cell);
        self.texts.iter().find(|(at, _)| images.contains(at)).map(|(_, text)| text.as_str())
    }

    /// Puts `text` on `cell` of `pos` (this record's position), or takes
    /// the text there away (`None`), on every image of the point.
    pub fn set_text(&mut self, pos: &Position, cell: Cell, text: Option<String>) {
        let images = point_images(pos, cell);
        self.texts.retain(|(at, _)| !images.contains(at));
        if let Some(text) = text.filter(|text| !text.is_empty()) {
            self.texts.push((cell, text));
        }
    }

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

    /// Whether it says nothing: kept all the same, it says the position
    /// was looked at (a node of an opening tree).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        *self == Record::default()
    }

    /// Its label in words, saying whose result it is: for the side to
    /// move at the record's position (`to_move`: "the side to move
    /// wins"), or for the side that moved into it ("the move wins", what
    /// a list of a position's moves says). A label is kept as the side to
    /// move's, so the two read opposite ways. Empty without a label.
    #[must_use]
    pub fn label_words(&self, to_move: bool) -> &'static str {
        match (self.label, to_move) {
            (Label::Win, true) => "the side to move wins",
            (Label::Loss, true) => "the side to move loses",
            (Label::Win, false) => "the move loses",
            (Label::Loss, false) => "the move wins",
            (Label::Draw, _) => "a draw",
            (Label::Forced, _) => "the only move",
            (Label::Excluded, _) => "not to be considered",
            (Label::None, _) => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_reads_opposite_ways_for_the_side_to_move_and_the_mover() {
        let won = Record::labelled(Label::Win);
        assert_eq!(won.label_words(true), "the side to move wins");
        assert_eq!(won.label_words(false), "the move loses");
        let lost = Record::labelled(Label::Loss);
        assert_eq!(lost.label_words(true), "the side to move loses");
        assert_eq!(lost.label_words(false), "the move wins");
        assert_eq!(Record::labelled(Label::Draw).label_words(false), "a draw");
        assert_eq!(Record::default().label_words(true), "");
    }
}
