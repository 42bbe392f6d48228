//! The words both sides of the protocol share: coordinates (`x,y` from 0
//! at the top-left, x the column) and the error of a line that does not
//! read.

use std::fmt;

use board::Cell;

use crate::input::excerpt;

/// A command that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub String);

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads `x,y` (spaces allowed around the numbers).
///
/// # Errors
/// [`Malformed`] naming what was expected.
pub fn parse_cell(text: &str) -> Result<Cell, Malformed> {
    let bad = || {
        Malformed(format!("expected coordinates x,y (whole numbers from 0), got {:?}", excerpt(text.trim())))
    };
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x: u32 = x.trim().parse().map_err(|_| bad())?;
    let y: u32 = y.trim().parse().map_err(|_| bad())?;
    u8::try_from(x)
        .ok()
        .zip(u8::try_from(y).ok())
        .and_then(|(x, y)| Cell::try_new(x, y))
        .ok_or_else(|| Malformed(format!("{x},{y} is off the board")))
}

/// `x,y` as the protocol writes it.
#[must_use]
pub fn format_cell(cell: Cell) -> String {
    format!("{},{}", cell.x(), cell.y())
}
