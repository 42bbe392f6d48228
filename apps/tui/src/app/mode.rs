//! What the screen is doing: one [`Mode`] at a time, each with its own
//! key handler and panel in its own file (`playing.rs`, `dialog.rs`,
//! `analysing.rs`, `reviewing.rs`, `help.rs`).

use crate::menu::Menu;
use crate::review::Review;

/// What the screen is doing.
#[derive(Debug)]
pub enum Mode {
    /// A game played (or engines watched): moves, undo, hints, files.
    Playing,
    /// The new-game dialog over the board (`N`).
    Menu(Box<Menu>),
    /// Analysis mode (`A`): an engine analyses the position until it
    /// changes; the person moves for both sides and engines do not play.
    Analysis(Analysing),
    /// A game stepped through beside its evaluation graph (`V`).
    Review(Review),
    /// The keys (`?`), over the mode they were asked for in, which any key
    /// goes back to.
    Help(Box<Mode>),
    /// A file name asked for (`W` save as, `O` open, `D` a database), or
    /// a comment or a point's text (`C`, `E`), over the game.
    Prompt(Prompt),
}

/// A file name being typed, and what it is for.
#[derive(Debug)]
pub struct Prompt {
    /// Save as, or open.
    pub purpose: Purpose,
    /// The name so far (for opening, a game number may follow it).
    pub text: String,
    /// The name is still the one filled in, selected: typing replaces it,
    /// Backspace clears it, an arrow key keeps it for editing.
    pub selected: bool,
    /// The name named an existing file to save over, and Enter was
    /// pressed once: again overwrites it.
    pub(super) confirm: bool,
}

/// What a [`Prompt`] asks a file name for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// `W`: save the game under this name.
    SaveAs,
    /// `O`: open this file (and game N of a collection: `games.sgf 3`).
    Open,
    /// `D`: use this analysis database (made if missing).
    Database,
    /// `C`: the position's comment in the database.
    Comment,
    /// `E`: the text on this point in the database.
    PointText(board::Cell),
}

/// Analysis mode's progress on the position on the board.
#[derive(Debug, Default)]
pub struct Analysing {
    /// How many analyses the running search has published that are shown.
    pub(super) seen: u64,
    /// The position (its hash) whose analysis finished by itself.
    pub(super) done: Option<u64>,
    /// With several lines asked for: the last complete set, of the
    /// position `lines_of` (its hash), best first.
    pub(super) lines: Vec<play::Analysis>,
    pub(super) lines_of: u64,
    /// The time the running (or next) set of lines takes: each set
    /// searches longer than the one before.
    pub(super) budget: std::time::Duration,
    /// The heat map before analysis turned it on, shown again after.
    pub(super) heat_before: super::Heat,
}

impl Mode {
    /// The mode under the help overlay, or this one.
    #[must_use]
    pub fn beneath_help(&self) -> &Mode {
        match self {
            Mode::Help(beneath) => beneath,
            mode => mode,
        }
    }
}
