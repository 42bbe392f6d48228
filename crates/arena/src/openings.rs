//! Openings: the moves a game starts from before the engines take over.
//! Each is played twice, once with each engine as X, so that neither gets
//! the better side of it and two deterministic engines still play
//! different games.

use board::{Cell, Position, Rules, Side, mix_seed};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};
use thiserror::Error;

/// How many random openings are drawn for one that is balanced.
const TRIES: u32 = 10_000;

/// Where a match's openings come from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Openings {
    /// Every game starts from the empty board.
    #[default]
    Empty,
    /// `plies` random moves, drawn from the match seed, leaving a position
    /// where neither side has won or can win with its next move.
    Random {
        /// Moves in each opening.
        plies: usize,
    },
    /// These openings in turn (from a file, say), cycling if there are
    /// fewer than the match needs.
    List(Vec<Vec<Cell>>),
}

/// An opening that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningsError {
    /// A line of an openings file names a cell that cannot be played.
    #[error("openings line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        reason: String,
    },
    /// The file holds no opening.
    #[error(
        "the openings file holds no opening (one opening per line, moves separated by spaces, such as `h8 i9`)"
    )]
    Empty,
    /// `random:N` without a number, or with one that fills the board.
    #[error("openings random:N needs a number of moves below the board's {area} cells, got {given:?}")]
    Plies {
        /// What followed `random:`.
        given: String,
        /// Cells of the board.
        area: usize,
    },
    /// The openings file cannot be read.
    #[error(
        "openings take none, random:N, renju26, gomoku15, renju15 or a file, and {path} cannot be read: {reason}"
    )]
    File {
        /// The file named.
        path: String,
        /// Why not.
        reason: String,
    },
    /// No balanced opening of that length was found.
    #[error("no balanced opening of {plies} random moves found on {rules} in {TRIES} tries: use fewer moves")]
    Unbalanced {
        /// Moves asked for.
        plies: usize,
        /// The board.
        rules: String,
    },
}

impl Openings {
    /// The opening of pair `pair` (games 2·pair and 2·pair + 1), for a run
    /// seeded with `seed`.
    ///
    /// # Errors
    /// [`OpeningsError::Unbalanced`] if random openings of that length
    /// cannot be balanced on this board.
    pub fn opening(&self, rules: Rules, seed: u64, pair: u64) -> Result<Vec<Cell>, OpeningsError> {
        match self {
            Openings::Empty => Ok(Vec::new()),
            Openings::List(list) if list.is_empty() => Ok(Vec::new()),
            Openings::List(list) => Ok(list[(pair % list.len() as u64) as usize].clone()),
            Openings::Random { plies } => random_opening(rules, *plies, mix_seed(seed, pair)),
        }
    }

    /// The openings a command line names: `none`, `random:N` (N random
    /// moves), `renju26` (the 26 standard renju openings, 1D to 13I),
    /// `gomoku15` or `renju15` (the even openings of the repository's
    /// `openings/` folder, built in, so that they are found from any
    /// folder) or a file of openings ([`Openings::parse`]).
    ///
    /// # Errors
    /// [`OpeningsError`] saying what cannot be used.
    pub fn from_arg(text: &str, rules: Rules) -> Result<Openings, OpeningsError> {
        let text = text.trim();
        if text == "none" {
            return Ok(Openings::Empty);
        }
        if text.eq_ignore_ascii_case(RENJU_26) {
            return renju_26(rules);
        }
        if let Some((_, file)) = BUILT_IN.iter().find(|(name, _)| text.eq_ignore_ascii_case(name)) {
            return Openings::parse(file, rules);
        }
        if let Some(plies) = text.strip_prefix("random:") {
            let area = rules.area();
            return match plies.trim().parse() {
                Ok(plies) if plies < area => Ok(Openings::Random { plies }),
                _ => Err(OpeningsError::Plies { given: plies.to_owned(), area }),
            };
        }
        let file = play::files::read_to_string(std::path::Path::new(text))
            .map_err(|error| OpeningsError::File { path: text.to_owned(), reason: error.to_string() })?;
        Openings::parse(&file, rules)
    }

    /// Reads openings, one per line: cells such as `h8` or `7,7` separated
    /// by spaces; `#` starts a comment, and blank lines are skipped.
    /// Every opening must be playable on `rules` and leave the game open.
    ///
    /// # Errors
    /// [`OpeningsError`] naming the line and what was wrong.
    pub fn parse(text: &str, rules: Rules) -> Result<Openings, OpeningsError> {
        let mut list = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let line_error = |reason: String| OpeningsError::Line { line: index + 1, reason };
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let pos = Position::from_moves(rules, line).map_err(|error| line_error(error.to_string()))?;
            let moves = pos.moves().to_vec();
            if pos.outcome().is_some() {
                return Err(line_error("the opening ends the game".to_owned()));
            }
            list.push(moves);
        }
        if list.is_empty() {
            return Err(OpeningsError::Empty);
        }
        Ok(Openings::List(list))
    }
}

/// The name of the 26 standard renju openings as openings.
const RENJU_26: &str = "renju26";

/// The openings files built in, by name: those a strong long search
/// judged even (their headers say how).
const BUILT_IN: [(&str, &str); 2] = [
    ("gomoku15", include_str!("../../../openings/gomoku15.txt")),
    ("renju15", include_str!("../../../openings/renju15.txt")),
];

/// The 26 standard renju openings ([`board::renju::openings`]), 1D to
/// 13I, about the board's centre.
fn renju_26(rules: Rules) -> Result<Openings, OpeningsError> {
    let list = board::renju::openings::STANDARD_OPENINGS
        .iter()
        .map(|opening| opening.moves(&rules).map(|moves| moves.to_vec()))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| OpeningsError::File {
            path: RENJU_26.to_owned(),
            reason: format!("the standard renju openings need a 5x5 centre, and {rules} has none"),
        })?;
    Ok(Openings::List(list))
}

/// `plies` uniformly random moves from `seed`, redrawn until neither side
/// has won or can win at once.
fn random_opening(rules: Rules, plies: usize, seed: u64) -> Result<Vec<Cell>, OpeningsError> {
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..TRIES {
        let mut pos = Position::new(rules);
        let mut open = true;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let count = pos.legal_move_count();
            if count == 0 || pos.outcome().is_some() {
                open = false;
                break;
            }
            let cell =
                moves.into_iter().nth(rng.random_range(0..count)).expect("count is the number of moves");
            pos.play_unchecked(cell);
        }
        if open && is_balanced(&pos) {
            return Ok(pos.moves().to_vec());
        }
    }
    Err(OpeningsError::Unbalanced { plies, rules: rules.to_string() })
}

/// The game goes on and no empty cell wins at once for either side.
fn is_balanced(pos: &Position) -> bool {
    pos.outcome().is_none()
        && pos
            .legal_moves()
            .into_iter()
            .all(|cell| !pos.wins_at(cell, Side::X) && !pos.wins_at(cell, Side::O))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_balanced_and_repeat_for_a_seed() {
        let rules = Rules::five_8x8();
        let openings = Openings::Random { plies: 6 };
        for pair in 0..50 {
            let moves = openings.opening(rules, 9, pair).unwrap();
            assert_eq!(moves.len(), 6);
            let mut pos = Position::new(rules);
            for &cell in &moves {
                pos.play(cell).unwrap();
            }
            assert!(is_balanced(&pos));
            assert_eq!(openings.opening(rules, 9, pair).unwrap(), moves);
        }
        assert_ne!(openings.opening(rules, 9, 0).unwrap(), openings.opening(rules, 10, 0).unwrap());
    }

    #[test]
    fn the_built_in_files_read_as_the_files_do_from_any_folder() {
        for (name, path, rules) in [
            ("gomoku15", "openings/gomoku15.txt", Rules::gomoku15()),
            ("renju15", "openings/renju15.txt", Rules::renju()),
        ] {
            let file =
                std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../").to_owned() + path)
                    .unwrap();
            assert_eq!(Openings::from_arg(name, rules).unwrap(), Openings::parse(&file, rules).unwrap());
        }
    }

    #[test]
    fn the_standard_renju_openings_are_openings() {
        let Openings::List(list) = Openings::from_arg("renju26", Rules::renju()).unwrap() else {
            panic!("a list")
        };
        assert_eq!(list.len(), 26);
        let name = |cell: Cell| cell.name(&Rules::renju()).to_string();
        assert_eq!(list[3].iter().map(|&cell| name(cell)).collect::<Vec<_>>(), ["h8", "h9", "i9"]);
        assert!(Openings::from_arg("RENJU26", Rules::gomoku15()).is_ok());
        let error = Openings::from_arg("renju26", Rules::tic_tac_toe()).unwrap_err();
        assert!(error.to_string().contains("need a 5x5 centre"), "{error}");
    }

    #[test]
    fn tic_tac_toe_openings_leave_no_threat() {
        let rules = Rules::tic_tac_toe();
        for pair in 0..30 {
            let moves = Openings::Random { plies: 2 }.opening(rules, 1, pair).unwrap();
            let mut pos = Position::new(rules);
            for &cell in &moves {
                pos.play(cell).unwrap();
            }
            assert!(rules.cells().all(|cell| !pos.is_legal(cell) || !pos.wins_at(cell, Side::X)));
        }
        // Nine moves fill the board: the game is over.
        let error = Openings::Random { plies: 9 }.opening(rules, 1, 0).unwrap_err();
        assert!(error.to_string().contains("no balanced opening of 9"), "{error}");
    }

    #[test]
    fn files_read_both_notations_and_cycle() {
        let rules = Rules::five_8x8();
        let text = "# two openings\n\nd4 e5 # scored -12\n3,3 4,4 5,5\r\n";
        let openings = Openings::parse(text, rules).unwrap();
        let first = openings.opening(rules, 0, 0).unwrap();
        assert_eq!(first, vec![rules.parse_cell("d4").unwrap(), rules.parse_cell("e5").unwrap()]);
        assert_eq!(openings.opening(rules, 0, 1).unwrap().len(), 3);
        assert_eq!(openings.opening(rules, 0, 2).unwrap(), first);
    }

    #[test]
    fn bad_files_say_which_line() {
        let rules = Rules::tic_tac_toe();
        let cases = [
            ("a1 a1\n", "line 1: move 2 (a1): a1 is already taken"),
            ("a1\nz9\n", "line 2"),
            ("a1 b1 a2 b2 a3\n", "line 1: the opening ends the game"),
            ("a1 b1 a2 b2 a3 c3\n", "line 1: move 6 (c3)"),
            ("# nothing\n", "no opening"),
        ];
        for (text, expected) in cases {
            let error = Openings::parse(text, rules).unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }
}
