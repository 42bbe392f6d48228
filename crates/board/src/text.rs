//! Text forms of a position: the board with coordinates, and the one-line
//! form `xo./.x./..o` (rows from the top, joined by `/`).

use std::fmt::{self, Write as _};

use thiserror::Error;

use crate::cell::ColumnName;
use crate::{Bitboard, Cell, Position, Rules, SetupError, Side};

/// Text that is not a position in the one-line form.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Not as many rows as the board has.
    #[error("the position has {found} rows separated by '/', but the board has {expected}")]
    Rows {
        /// Rows of the board.
        expected: u8,
        /// Rows in the text.
        found: usize,
    },
    /// A row of the wrong length.
    #[error("row {row} from the top has {found} cells, but the board is {expected} wide")]
    RowLength {
        /// 1-based, from the top.
        row: usize,
        /// Board width.
        expected: u8,
        /// Cells in the text.
        found: usize,
    },
    /// A character other than `x`, `o`, `.`.
    #[error("row {row} from the top has {found:?}; use x, o and . for empty")]
    BadChar {
        /// 1-based, from the top.
        row: usize,
        /// The character.
        found: char,
    },
    /// The marks could not stand on the board after a game.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// A move of a list that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move {number} ({text}): {reason}")]
pub struct MovesError {
    /// 1-based.
    pub number: usize,
    /// The move as written.
    pub text: String,
    /// Why it cannot be played.
    pub reason: String,
}

impl Position {
    /// The position after `moves`, cells written as `h8` or `7,7` and
    /// separated by spaces, played in turn from the empty board.
    ///
    /// ```
    /// let rules = board::Rules::tic_tac_toe();
    /// let pos = board::Position::from_moves(rules, "b2 a1 c3")?;
    /// assert_eq!(pos.to_one_line(), "..x/.x./o..");
    /// # Ok::<(), board::MovesError>(())
    /// ```
    ///
    /// # Errors
    /// [`MovesError`] naming the first move that cannot be read or played.
    pub fn from_moves(rules: Rules, moves: &str) -> Result<Position, MovesError> {
        let mut pos = Position::new(rules);
        for (i, text) in moves.split_whitespace().enumerate() {
            let error = |reason: String| MovesError { number: i + 1, text: text.to_owned(), reason };
            let cell = rules.parse_cell(text).map_err(|e| error(e.to_string()))?;
            pos.play(cell).map_err(|e| error(e.to_string()))?;
        }
        Ok(pos)
    }

    /// Reads the one-line form: rows from the top to the bottom joined by
    /// `/`, `.` for empty and `x`/`o` (any case) for marks; X is to move when
    /// both have as many marks. `-` and `_` are read as empty too.
    ///
    /// # Errors
    /// [`PositionError`] saying which row is wrong, or why the marks could
    /// not stand on the board after a game.
    pub fn from_one_line(rules: Rules, text: &str) -> Result<Position, PositionError> {
        let rows: Vec<&str> = text.trim().split('/').collect();
        if rows.len() != usize::from(rules.height()) {
            return Err(PositionError::Rows { expected: rules.height(), found: rows.len() });
        }
        let mut marks = [Bitboard::EMPTY; 2];
        for (y, row) in rows.iter().enumerate() {
            let found = row.chars().count();
            if found != usize::from(rules.width()) {
                return Err(PositionError::RowLength { row: y + 1, expected: rules.width(), found });
            }
            for (x, ch) in row.chars().enumerate() {
                let cell = Cell::new(x as u8, y as u8);
                match ch.to_ascii_lowercase() {
                    'x' => marks[0].insert(cell),
                    'o' => marks[1].insert(cell),
                    '.' | '-' | '_' => {}
                    found => return Err(PositionError::BadChar { row: y + 1, found }),
                }
            }
        }
        Ok(Position::from_setup(rules, marks[0], marks[1])?)
    }

    /// The one-line form, which [`Position::from_one_line`] reads back.
    #[must_use]
    pub fn to_one_line(&self) -> String {
        let rules = self.rules();
        let mut out = String::with_capacity(rules.area() + usize::from(rules.height()));
        for y in 0..rules.height() {
            if y > 0 {
                out.push('/');
            }
            for x in 0..rules.width() {
                out.push(mark_char(self.get(Cell::new(x, y))));
            }
        }
        out
    }
}

fn mark_char(mark: Option<Side>) -> char {
    mark.map_or('.', Side::mark)
}

impl fmt::Display for Position {
    /// The board with column letters above and below and row numbers (from
    /// the bottom) on both sides:
    ///
    /// ```text
    ///   a b c
    /// 3 x . o 3
    /// 2 . x . 2
    /// 1 . . . 1
    ///   a b c
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.rules();
        let label = rules.height().to_string().len();
        let column = if rules.width() > 26 { 2 } else { 1 };
        let mut header = " ".repeat(label + 1);
        for x in 0..rules.width() {
            write!(header, "{:>column$} ", ColumnName(x).to_string())?;
        }
        let header = header.trim_end();
        writeln!(f, "{header}")?;
        for y in 0..rules.height() {
            let row = rules.height() - y;
            write!(f, "{row:>label$} ")?;
            for x in 0..rules.width() {
                write!(f, "{:>column$} ", mark_char(self.get(Cell::new(x, y))))?;
            }
            writeln!(f, "{row}")?;
        }
        write!(f, "{header}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Outcome, RuleSet};

    #[test]
    fn renders_with_coordinates() {
        let rules = Rules::tic_tac_toe();
        let pos = Position::from_one_line(rules, "x.o/.x./...").unwrap();
        let expected = "  a b c\n3 x . o 3\n2 . x . 2\n1 . . . 1\n  a b c";
        assert_eq!(pos.to_string(), expected);
        assert_eq!(pos.side_to_move(), Side::O);
    }

    #[test]
    fn renders_big_boards() {
        let pos = Position::new(Rules::gomoku15());
        let text = pos.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 17);
        assert_eq!(lines[0], "   a b c d e f g h i j k l m n o");
        assert_eq!(lines[1], "15 . . . . . . . . . . . . . . . 15");
        assert_eq!(lines[15], " 1 . . . . . . . . . . . . . . . 1");
        let wide = Position::new(Rules::new(28, 3, 5, RuleSet::Freestyle).unwrap());
        assert!(wide.to_string().lines().next().unwrap().ends_with("aa ab"));
    }

    #[test]
    fn one_line_round_trips() {
        let rules = Rules::tic_tac_toe();
        for text in ["xo./.x./..o", ".../.../...", "xox/oxo/...", "XO./.x./..O"] {
            let pos = Position::from_one_line(rules, text).unwrap();
            assert_eq!(pos.to_one_line(), text.to_ascii_lowercase());
        }
        let won = Position::from_one_line(rules, "xoo/.x./..x").unwrap();
        assert_eq!(won.outcome(), Some(Outcome::Win(Side::X)));
        let drawn = Position::from_one_line(rules, "xox/xoo/oxx").unwrap();
        assert_eq!(drawn.outcome(), Some(Outcome::Draw));
    }

    #[test]
    fn bad_one_lines_say_why() {
        let rules = Rules::tic_tac_toe();
        let cases = [
            ("xo./.x.", "has 2 rows"),
            ("xo./.x/...", "row 2 from the top has 2 cells"),
            ("xo./.y./...", "row 2 from the top has 'y'"),
            ("xx./.x./...", "x has 3 marks and o has 0"),
        ];
        for (text, message) in cases {
            let err = Position::from_one_line(rules, text).unwrap_err().to_string();
            assert!(err.contains(message), "{text}: {err}");
        }
    }
}

/// At most the first 60 characters of `text`, marked where cut: what an
/// error message may quote of an input.
#[must_use]
pub fn excerpt(text: &str) -> String {
    const LIMIT: usize = 60;
    match text.char_indices().nth(LIMIT) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// `message` with each word (a run without spaces) longer than 80
/// characters cut to its [`excerpt`]: an error that quotes a huge input
/// stays short.
#[must_use]
pub fn shorten_words(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.chars().nth(80).is_some() {
            out.push_str(&excerpt(word));
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in message.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod shortening_tests {
    use super::*;

    #[test]
    fn long_quotes_are_cut() {
        let long = "x".repeat(100_000);
        let message = format!("error: invalid value '{long}' for '--position'\n");
        let short = shorten_words(&message);
        assert!(short.len() < 200 && short.ends_with("for '--position'\n"), "{short}");
        assert!(short.contains("xxx…"));
        assert_eq!(shorten_words("a b\n c"), "a b\n c");
        assert_eq!(excerpt("é").len(), 2);
    }
}
