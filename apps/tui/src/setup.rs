//! What a game is — rules, who plays each side, thinking time — below
//! the screen, the menu and the game files, which all read it.

use std::time::Duration;

use board::Rules;
use play::OpeningRule;
use play::clock::TimeControl;
use roster::AgentSpec;

/// Who plays a side.
#[derive(Clone, Debug)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// An engine from the roster.
    Engine(AgentSpec),
}

impl Player {
    /// `human`, or a roster spec.
    ///
    /// # Errors
    /// The roster's message if the spec is not valid.
    pub fn parse(text: &str) -> Result<Player, roster::SpecError> {
        if text.trim().eq_ignore_ascii_case("human") {
            Ok(Player::Human)
        } else {
            text.parse().map(Player::Engine)
        }
    }

    /// `human`, or a roster spec that a file names: one that would start
    /// a program or name a file is refused (see
    /// [`roster::AgentSpec::parse_from_file`]).
    ///
    /// # Errors
    /// The roster's message if the spec is not valid or not for a file.
    pub fn parse_from_file(text: &str) -> Result<Player, roster::SpecError> {
        if text.trim().eq_ignore_ascii_case("human") {
            Ok(Player::Human)
        } else {
            roster::AgentSpec::parse_from_file(text).map(Player::Engine)
        }
    }

    /// As written in specs and files.
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            Player::Human => "human".to_owned(),
            Player::Engine(spec) => spec.text().to_owned(),
        }
    }
}

/// The engine the person plays by default, and the one that gives hints.
pub const DEFAULT_ENGINE: &str = "alphabeta";

/// Where `S` saves and `L` loads when no file was named (a name ending
/// in `.sgf` is saved as SGF).
pub const DEFAULT_FILE: &str = "mnk-game.json";

/// How strongly the engines of a game play: a cap on the positions (or
/// Monte-Carlo iterations) an engine searches a move, within its time.
/// An engine that does not search (a learner's table, a one-ply greedy
/// player) plays as it always does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// No cap: as much as the time allows.
    #[default]
    Full,
    Strong,
    Club,
    Casual,
    Beginner,
}

impl Level {
    /// Every level, strongest first.
    pub const ALL: [Level; 5] = [Level::Full, Level::Strong, Level::Club, Level::Casual, Level::Beginner];

    /// As the dialog, the flag and the game file write it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Full => "full",
            Level::Strong => "strong",
            Level::Club => "club",
            Level::Casual => "casual",
            Level::Beginner => "beginner",
        }
    }

    /// The positions an engine may search a move (`None`: no cap). Each
    /// level a tenth of the one above, which the README's measurements
    /// show to be ordered.
    #[must_use]
    pub fn nodes(self) -> Option<u64> {
        match self {
            Level::Full => None,
            Level::Strong => Some(200_000),
            Level::Club => Some(20_000),
            Level::Casual => Some(2_000),
            Level::Beginner => Some(200),
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Level {
    type Err = String;

    fn from_str(text: &str) -> Result<Level, String> {
        Level::ALL.into_iter().find(|level| level.name().eq_ignore_ascii_case(text.trim())).ok_or_else(|| {
            let names: Vec<&str> = Level::ALL.iter().map(|level| level.name()).collect();
            format!("unknown level {text:?}: the levels are {}", names.join(", "))
        })
    }
}

/// What a game is: rules, players, thinking time, the clocks and how
/// strongly its engines play.
#[derive(Clone, Debug)]
pub struct Setup {
    pub rules: Rules,
    pub players: [Player; 2],
    /// An engine's time a move in an untimed game (and for hints).
    pub time: Duration,
    /// The time control of a timed game: then each engine's budget
    /// comes from its clock, and a fallen flag loses.
    pub clock: Option<TimeControl>,
    /// The engines' strength (hints and analysis are always at full).
    pub level: Level,
    /// How the first stones are put: under swap1 or swap2 X's player
    /// opens and the colours fall where the players' choices put them.
    pub opening: OpeningRule,
}

impl Setup {
    /// An untimed game of `rules` between `players`, `time` a move, at
    /// full strength.
    #[must_use]
    pub fn new(rules: Rules, players: [Player; 2], time: Duration) -> Setup {
        Setup { rules, players, time, clock: None, level: Level::Full, opening: OpeningRule::None }
    }

    /// Checks that both engines can play the rules.
    ///
    /// # Errors
    /// The reason one cannot.
    pub fn check(&self) -> Result<(), String> {
        self.opening.check(&self.rules)?;
        if self.opening.is_rif() && !self.rules.forbids_any() {
            return Err(format!(
                "{} is an opening rule of renju (the RIF's): play it with --rules renju, not {}",
                self.opening, self.rules
            ));
        }
        for player in &self.players {
            if let Player::Engine(spec) = player {
                spec.check_rules(&self.rules).map_err(|err| err.to_string())?;
            }
        }
        Ok(())
    }
}

/// The moves a game starts from, as `--from` names them: a standard renju
/// opening by its code or name (`4D`, `Kagetsu`; see
/// [`board::renju::openings`]), or moves such as `h8 h9 i9`; with a line
/// saying what they are.
///
/// # Errors
/// What cannot be played, or that the moves end the game.
pub fn start_moves(text: &str, rules: Rules) -> Result<(Vec<board::Cell>, String), String> {
    if let Some(opening) = board::renju::openings::standard_opening(text) {
        let moves = opening.moves(&rules).ok_or_else(|| {
            format!("the standard opening {} does not fit the {rules} board", opening.code())
        })?;
        return Ok((
            moves.to_vec(),
            format!("from the standard opening {} {}", opening.code(), opening.name),
        ));
    }
    let pos = board::Position::from_moves(rules, text).map_err(|error| {
        format!("{error} (--from takes a standard renju opening, such as 4D or Kagetsu, or moves such as h8 h9 i9)")
    })?;
    if pos.is_over() {
        return Err(format!("the moves {text:?} end the game"));
    }
    Ok((pos.moves().to_vec(), format!("from {}", text.trim())))
}

#[cfg(test)]
mod start_tests {
    use super::*;

    #[test]
    fn a_game_starts_from_a_standard_opening_or_moves() {
        let rules = Rules::renju();
        let name = |moves: &[board::Cell]| {
            moves.iter().map(|cell| cell.name(&rules).to_string()).collect::<Vec<_>>()
        };
        let (moves, note) = start_moves("Kagetsu", rules).unwrap();
        assert_eq!(
            (name(&moves), note.as_str()),
            (vec!["h8".to_owned(), "h9".into(), "i9".into()], "from the standard opening 4D Kagetsu")
        );
        assert_eq!(name(&start_moves("13i", rules).unwrap().0), ["h8", "i9", "f6"]);
        assert_eq!(name(&start_moves("h8 i9", rules).unwrap().0), ["h8", "i9"]);
        assert!(start_moves("h8 z99", rules).unwrap_err().contains("standard renju opening"));
        let five = "h8 a1 i8 a2 j8 a3 k8 a4 l8";
        assert!(start_moves(five, Rules::gomoku15()).unwrap_err().contains("end the game"));
    }
}
