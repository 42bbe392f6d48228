//! The Gomocup protocol's commands as text: parsing what a manager sends,
//! and the coordinates both sides use (`x,y` from 0 at the top-left, x
//! the column).

use board::Cell;

pub use crate::words::{Malformed, format_cell, parse_cell};

use crate::database_command::{self, DatabaseCommand};
use crate::input::excerpt;

/// One command from a manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START size`: a new game on a square board.
    Start(u32),
    /// `RECTSTART w,h`: a new game on a rectangular board.
    RectStart(u32, u32),
    /// `BEGIN`: the brain moves first.
    Begin,
    /// `TURN x,y`: the opponent played there; the brain answers its move.
    Turn(Cell),
    /// `BOARD`: the lines up to `DONE` give the position; the brain moves.
    Board,
    /// `YXBOARD`: as `BOARD` (1 the side to move's stones), but the brain
    /// only takes the position: no answer, no move.
    YxBoard,
    /// `YXHASHCLEAR`: forget what earlier searches stored.
    HashClear,
    /// `YXSHOWINFO`: the brain's limits, as Yixin-Board reads them.
    ShowInfo,
    /// `YXNBEST n`: the best n lines, a `MESSAGE` each, then the move.
    NBest(u32),
    /// `YXBLOCK`: the `x,y` lines up to `DONE` are cells the brain must
    /// not play, added to those given before.
    Block,
    /// `YXBLOCKUNDO`: the `x,y` lines up to `DONE` may be played again.
    BlockUndo,
    /// `YXBLOCKRESET`: every cell may be played again.
    BlockReset,
    /// `YXSEARCHDEFEND`: `MESSAGE REALTIME LOSE x,y` for each move that
    /// loses by force, then the move.
    SearchDefend,
    /// `YXBALANCEONE v` (1) or `YXBALANCETWO v` (2): that many stones
    /// (the side to move's first) after which the value is nearest `v`
    /// for the side to move; the brain answers them and puts them.
    Balance(u8, i32),
    /// `x,y,who` inside a `BOARD` block: 1 own, 2 the opponent's.
    Stone(Cell, u8),
    /// `SWAP2BOARD`: the lines up to `DONE` give the opening stones so far
    /// (none, three or five), and the brain makes its swap2 choice.
    Swap2Board,
    /// `x,y` inside a `SWAP2BOARD` block: a stone of the opening, whose
    /// colour is its place (black, white, black, white, black).
    OpeningStone(Cell),
    /// `DONE`: the end of a `BOARD` block.
    Done,
    /// `INFO key value`.
    Info(String, String),
    /// `RESTART`: the same board, emptied.
    Restart,
    /// `TAKEBACK x,y`: remove that stone.
    Takeback(Cell),
    /// `END`: the brain exits.
    End,
    /// `ABOUT`: the brain says who it is.
    About,
    /// `YXSTOP`: stop thinking and move now.
    Stop,
    /// `YXSHOWFORBID`: black's forbidden points, under renju.
    ShowForbid,
    /// An analysis-database command.
    Database(DatabaseCommand),
    /// Anything else, as sent.
    Unknown(String),
}

/// The most lines `YXNBEST` shows (more are shown as this many).
pub const MAX_LINES: u32 = 10;

/// The words that start a command.
const COMMANDS: [&str; 25] = [
    "START",
    "SWAP2BOARD",
    "RECTSTART",
    "BEGIN",
    "TURN",
    "BOARD",
    "DONE",
    "INFO",
    "RESTART",
    "TAKEBACK",
    "END",
    "ABOUT",
    "YXSTOP",
    "STOP",
    "YXSHOWFORBID",
    "YXBOARD",
    "YXHASHCLEAR",
    "YXSHOWINFO",
    "YXNBEST",
    "YXBLOCK",
    "YXBLOCKUNDO",
    "YXBLOCKRESET",
    "YXSEARCHDEFEND",
    "YXBALANCEONE",
    "YXBALANCETWO",
];

/// Reads one line a manager sent (without its line ending). Inside a
/// `BOARD` or `SWAP2BOARD` block, `in_board` makes `x,y,who` lines
/// stones and `x,y` lines opening stones.
///
/// # Errors
/// [`Malformed`] if a known command's arguments do not read.
pub fn parse(line: &str, in_board: bool) -> Result<Command, Malformed> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    // In a block, a line that starts with a command word is that command
    // (the brain then drops the block left open).
    let is_command = |word: &str| {
        COMMANDS.iter().chain(&database_command::WORDS).any(|command| word.eq_ignore_ascii_case(command))
    };
    if in_board && !is_command(word) {
        if line.split(',').count() == 2 {
            return parse_cell(line).map(Command::OpeningStone);
        }
        let mut parts = line.split(',').map(str::trim);
        let (Some(x), Some(y), Some(who), None) = (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(Malformed(format!(
                "expected x,y,who (x,y in SWAP2BOARD) or DONE in a block, got {:?}",
                excerpt(line)
            )));
        };
        let cell = parse_cell(&format!("{x},{y}"))?;
        let who: u8 = who.parse().ok().filter(|who| (1..=3).contains(who)).ok_or_else(|| {
            Malformed(format!("who must be 1 (own), 2 (opponent) or 3, got {:?}", excerpt(who)))
        })?;
        return Ok(Command::Stone(cell, who));
    }
    let number = |text: &str, what: &str| -> Result<u32, Malformed> {
        text.trim()
            .parse()
            .map_err(|_| Malformed(format!("{what} must be a whole number, got {:?}", excerpt(text.trim()))))
    };
    let upper = word.to_ascii_uppercase();
    if let Some(database) = database_command::parse_database(&upper, rest) {
        return database.map(Command::Database);
    }
    Ok(match upper.as_str() {
        // Yixin-Board sends `START W H` before an analysis.
        "START" => match rest.split_once(char::is_whitespace) {
            Some((width, height)) => {
                Command::RectStart(number(width, "START's width")?, number(height, "START's height")?)
            }
            None => Command::Start(number(rest, "START's board size")?),
        },
        "RECTSTART" => {
            let (w, h) = rest
                .split_once(',')
                .ok_or_else(|| Malformed(format!("RECTSTART takes w,h, got {:?}", excerpt(rest))))?;
            Command::RectStart(number(w, "the width")?, number(h, "the height")?)
        }
        "BEGIN" => Command::Begin,
        "TURN" => Command::Turn(parse_cell(rest)?),
        "BOARD" if rest.is_empty() => Command::Board,
        "BOARD" => return Err(Malformed(format!("BOARD takes nothing after it, got {:?}", excerpt(rest)))),
        "YXBOARD" if rest.is_empty() => Command::YxBoard,
        "YXBOARD" => {
            return Err(Malformed(format!("YXBOARD takes nothing after it, got {:?}", excerpt(rest))));
        }
        "YXHASHCLEAR" => Command::HashClear,
        "YXSHOWINFO" => Command::ShowInfo,
        "YXNBEST" => Command::NBest(number(rest, "YXNBEST's number of lines")?.clamp(1, MAX_LINES)),
        "YXBLOCK" => Command::Block,
        "YXBLOCKUNDO" => Command::BlockUndo,
        "YXBLOCKRESET" => Command::BlockReset,
        "YXSEARCHDEFEND" => Command::SearchDefend,
        "YXBALANCEONE" | "YXBALANCETWO" => {
            let stones = if word.eq_ignore_ascii_case("YXBALANCEONE") { 1 } else { 2 };
            let value = rest.parse().map_err(|_| {
                Malformed(format!(
                    "{} takes the value to balance to, a whole number, got {:?}",
                    word.to_ascii_uppercase(),
                    excerpt(rest)
                ))
            })?;
            Command::Balance(stones, value)
        }
        "SWAP2BOARD" if rest.is_empty() => Command::Swap2Board,
        "SWAP2BOARD" => {
            return Err(Malformed(format!("SWAP2BOARD takes nothing after it, got {:?}", excerpt(rest))));
        }
        "DONE" => Command::Done,
        "INFO" => {
            let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            Command::Info(key.to_ascii_lowercase(), value.trim().to_owned())
        }
        "RESTART" => Command::Restart,
        "TAKEBACK" => Command::Takeback(parse_cell(rest)?),
        "END" => Command::End,
        "ABOUT" => Command::About,
        "YXSTOP" | "STOP" => Command::Stop,
        "YXSHOWFORBID" => Command::ShowForbid,
        _ => Command::Unknown(line.to_owned()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_read() {
        assert_eq!(parse("START 15", false), Ok(Command::Start(15)));
        assert_eq!(parse("start 20", false), Ok(Command::Start(20)));
        assert_eq!(parse("RECTSTART 20,15", false), Ok(Command::RectStart(20, 15)));
        assert_eq!(parse("START 20 15", false), Ok(Command::RectStart(20, 15)));
        assert_eq!(parse("yxboard", false), Ok(Command::YxBoard));
        assert_eq!(parse("YXHASHCLEAR", false), Ok(Command::HashClear));
        assert_eq!(parse("YxShowInfo", false), Ok(Command::ShowInfo));
        assert_eq!(parse("YXNBEST 3", false), Ok(Command::NBest(3)));
        assert_eq!(parse("YXNBEST 0", false), Ok(Command::NBest(1)));
        assert!(parse("YXNBEST", false).is_err());
        assert_eq!(parse("TURN 7, 8", false), Ok(Command::Turn(Cell::new(7, 8))));
        assert_eq!(
            parse("INFO timeout_turn 5000", false),
            Ok(Command::Info("timeout_turn".into(), "5000".into()))
        );
        assert_eq!(parse("10,11,2", true), Ok(Command::Stone(Cell::new(10, 11), 2)));
        assert_eq!(parse("DONE", true), Ok(Command::Done));
        assert_eq!(parse("SWAP2BOARD", false), Ok(Command::Swap2Board));
        assert_eq!(parse("7, 8", true), Ok(Command::OpeningStone(Cell::new(7, 8))));
        assert_eq!(parse("YXSTOP", false), Ok(Command::Stop));
        assert_eq!(parse("TAKEBACK 3,4", false), Ok(Command::Takeback(Cell::new(3, 4))));
        assert_eq!(parse("PLAY 1,2", false), Ok(Command::Unknown("PLAY 1,2".into())));
        assert_eq!(format_cell(Cell::new(3, 12)), "3,12");
        assert_eq!(parse("YXBLOCK", false), Ok(Command::Block));
        assert_eq!(parse("yxblockundo", false), Ok(Command::BlockUndo));
        assert_eq!(parse("YXBLOCKRESET", false), Ok(Command::BlockReset));
        assert_eq!(parse("YXBLOCKRESET", true), Ok(Command::BlockReset));
        assert_eq!(parse("YXSEARCHDEFEND", false), Ok(Command::SearchDefend));
        assert_eq!(parse("YXBALANCEONE 0", false), Ok(Command::Balance(1, 0)));
        assert_eq!(parse("YxBalanceTwo -150", false), Ok(Command::Balance(2, -150)));
    }

    #[test]
    fn bad_arguments_say_what_was_wrong() {
        assert!(parse("START x", false).unwrap_err().0.contains("whole number"));
        assert!(parse("START 15 y", false).unwrap_err().0.contains("START's height"));
        assert!(parse("TURN 7", false).unwrap_err().0.contains("x,y"));
        assert!(parse("TURN -1,3", false).is_err());
        assert!(parse("1,2,3,4", true).unwrap_err().0.contains("x,y,who"));
        assert!(parse("1,x", true).unwrap_err().0.contains("x,y"));
        assert!(parse("SWAP2BOARD 3", false).unwrap_err().0.contains("nothing after"));
        assert!(parse("1,2,7", true).unwrap_err().0.contains("who must be"));
        assert!(parse("YXBALANCEONE", false).unwrap_err().0.contains("YXBALANCEONE takes the value"));
        assert!(parse("YXBALANCETWO x", false).unwrap_err().0.contains("whole number"));
    }
}
