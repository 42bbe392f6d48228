//! Saved games: our JSON file with the rules, both players, the clock and
//! the moves, or an SGF file (a name ending in `.sgf`) as gomoku GUIs and
//! managers write them.
//!
//! ```json
//! {"rules": "15,15,5", "x": "human", "o": "alphabeta", "clock": "300+2",
//!  "result": "W+T", "moves": ["h8", "h9"]}
//! ```
//!
//! `result` is written only for a game that did not end on the board, in
//! SGF's notation: `B+T` X won on time (O's flag fell), `W+T` O did. A
//! swap or RIF opening's steps (who put, swapped, declared, offered and
//! picked what) are kept as `swap` in JSON, and as the comments of the
//! opening stones in SGF; one not yet settled as `under_way` (JSON only).

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use board::{Cell, Position, Rules, Side};
use play::sgf::{self, SgfGame};
use serde::{Deserialize, Serialize};

use crate::setup::{Level, Player, Setup};

/// A saved game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameFile {
    /// `W,H,K` or `W,H,K,exact`.
    pub rules: String,
    /// `human` or a roster spec.
    pub x: String,
    pub o: String,
    /// The time control, `MATCH[+INCREMENT][/TURN]`, of a timed game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<String>,
    /// How a game that did not end on the board ended: `B+T`, `W+T`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The engines' level when not full (`strong`, `club`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// The opening rule of a swap game (`swap1`, `swap2`); `x` and `o`
    /// are the players by the colours they took.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
    /// The moves in order, in `h8` notation.
    pub moves: Vec<String>,
    /// A settled swap or RIF opening: its steps, who took which colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swap: Option<play::SwapRecord>,
    /// A swap or RIF opening not yet settled when the game was saved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub under_way: Option<UnderWay>,
}

/// A swap or RIF opening saved before its colours were settled: the
/// game resumes it where it stood.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnderWay {
    /// The RIF opening's steps taken (none under swap1 and swap2, whose
    /// stones are the moves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<play::SwapStep>,
    /// Stones a person had given toward the step asked: on the board
    /// (the moves' last ones) or, fifth stones offered, off it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Cell>,
    /// Under swap2, the second player chose to put two more stones.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub putting_two: bool,
}

/// A game read from a file: its setup, its moves, and the side whose
/// flag fell, if it was lost on time.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub setup: Setup,
    pub moves: Vec<Cell>,
    pub lost_on_time: Option<Side>,
    /// A line on what was read (such as "game 1 of 16").
    pub note: Option<String>,
    /// Which game of an SGF collection it is (from 1), so that saving
    /// replaces that game and keeps the others; `None` for our JSON.
    pub game: Option<usize>,
    /// The settled swap or RIF opening the game had, checked against its
    /// moves.
    pub swap: Option<play::SwapRecord>,
    /// The opening under way when it was saved, checked against its moves.
    pub under_way: Option<UnderWay>,
}

/// Where a save put the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saved {
    /// The file holds this game alone.
    Alone,
    /// It replaced game `game` of the collection's `of`, the others kept.
    Replaced { game: usize, of: usize },
    /// It was added to the collection as game `game`, the last.
    Appended { game: usize },
}

impl std::fmt::Display for Saved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Saved::Alone => Ok(()),
            Saved::Replaced { game, of } => write!(f, " as game {game} of {of}, the others kept"),
            Saved::Appended { game } => write!(f, " as game {game}, after the others"),
        }
    }
}

/// `B+T` when O's flag fell (X won on time), `W+T` when X's did.
#[must_use]
pub fn time_result(fallen: Side) -> String {
    sgf::result(board::Outcome::Win(fallen.opponent()), "T")
}

/// The side whose flag fell, from a result such as `W+T`.
fn fallen_of(result: &str) -> Option<Side> {
    match result.trim() {
        "B+T" | "B+Time" => Some(Side::O),
        "W+T" | "W+Time" => Some(Side::X),
        _ => None,
    }
}

/// Whether `path` names an SGF file.
#[must_use]
pub fn is_sgf(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("sgf"))
}

impl GameFile {
    /// The file for a game in progress.
    #[must_use]
    pub fn of(
        setup: &Setup,
        pos: &Position,
        lost_on_time: Option<Side>,
        (swap, under_way): (Option<&play::SwapRecord>, Option<UnderWay>),
    ) -> GameFile {
        GameFile {
            rules: setup.rules.to_string(),
            x: setup.players[0].text(),
            o: setup.players[1].text(),
            clock: setup.clock.map(|clock| clock.to_string()),
            result: lost_on_time.map(time_result),
            level: (setup.level != Level::Full).then(|| setup.level.to_string()),
            opening: setup.opening.is_swap().then(|| setup.opening.to_string()),
            moves: pos.moves().iter().map(|cell| cell.name(&setup.rules).to_string()).collect(),
            swap: swap.cloned(),
            under_way,
        }
    }

    /// The setup and moves it holds, every part checked.
    ///
    /// # Errors
    /// What is wrong in the file.
    pub fn setup(&self, time: Duration) -> Result<Loaded> {
        let rules: Rules =
            self.rules.parse().map_err(|err| anyhow::anyhow!("rules {:?}: {err}", self.rules))?;
        // A file may come from anyone: a player that would start a program
        // or name a file loads as a person, and the note says so.
        let mut refused = Vec::new();
        let mut player = |side: &str, text: &str| match Player::parse_from_file(text) {
            Ok(player) => Ok(player),
            Err(err @ roster::SpecError::NotFromFile { .. }) => {
                refused.push(format!("{side} loads as a person: {err}"));
                Ok(Player::Human)
            }
            Err(err) => Err(anyhow::Error::new(err).context(format!("player {side} {text:?}"))),
        };
        let players = [player("x", &self.x)?, player("o", &self.o)?];
        let clock = self.clock.as_deref().map(str::parse).transpose()?;
        let level = match self.level.as_deref() {
            Some(level) => level.parse().map_err(anyhow::Error::msg)?,
            None => Level::Full,
        };
        let opening = match self.opening.as_deref() {
            Some(rule) => rule.parse().map_err(anyhow::Error::msg)?,
            None => play::OpeningRule::None,
        };
        let setup = Setup { clock, level, opening, ..Setup::new(rules, players, time) };
        setup.check().map_err(anyhow::Error::msg)?;
        let mut pos = Position::new(rules);
        let mut moves = Vec::new();
        for (i, name) in self.moves.iter().enumerate() {
            let cell = rules.parse_cell(name).with_context(|| format!("move {} {name:?}", i + 1))?;
            pos.play(cell).with_context(|| format!("move {} {name:?}", i + 1))?;
            moves.push(cell);
        }
        let lost_on_time = self.result.as_deref().and_then(fallen_of);
        let note = (!refused.is_empty()).then(|| refused.join("; "));
        match (&self.swap, &self.under_way) {
            (Some(_), Some(_)) => bail!("the file's opening is both settled and under way"),
            (Some(swap), None) => check_swap(swap, &setup, &moves)?,
            (None, Some(under_way)) => check_under_way(under_way, &setup, &moves)?,
            (None, None) if setup.opening.is_swap() && !moves.is_empty() => bail!(
                "the file's {} opening has {} stones but no steps: neither settled nor under way, it cannot go on",
                setup.opening,
                moves.len()
            ),
            (None, None) => {}
        }
        Ok(Loaded {
            setup,
            moves,
            lost_on_time,
            note,
            game: None,
            swap: self.swap.clone(),
            under_way: self.under_way.clone(),
        })
    }

    /// Reads a JSON file.
    ///
    /// # Errors
    /// If it cannot be read or is not such JSON.
    pub fn load(path: &Path) -> Result<GameFile> {
        let text =
            play::files::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text).with_context(|| format!("{} is not a saved game", path.display()))
    }

    /// Writes the file through a temporary one and a rename.
    ///
    /// # Errors
    /// If it cannot be written.
    pub fn save(&self, path: &Path) -> Result<()> {
        play::files::write_atomically(path, serde_json::to_string_pretty(self)?.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// The state of a game's opening rule: settled, or under way.
pub type OpeningState<'a> = (Option<&'a play::SwapRecord>, Option<UnderWay>);

/// Saves a game to `path`: SGF if its name ends in `.sgf`, else JSON.
/// An SGF file that holds games already keeps them: the game replaces
/// game `game` of it (the one it was loaded as, if any; the comments of
/// the moves it still shares kept), else it is added after them.
///
/// # Errors
/// If it cannot be written, an SGF file there does not read (it is then
/// left as it is), or an opening under way is to be saved as SGF (which
/// cannot hold its steps).
pub fn save(
    path: &Path,
    (setup, (swap, under_way)): (&Setup, OpeningState<'_>),
    pos: &Position,
    lost_on_time: Option<Side>,
    game: Option<usize>,
) -> Result<Saved> {
    if !is_sgf(path) {
        GameFile::of(setup, pos, lost_on_time, (swap, under_way)).save(path)?;
        return Ok(Saved::Alone);
    }
    if under_way.is_some() {
        bail!(
            "the {} opening is under way, and an SGF file cannot hold its steps: save it under a name that does not end in .sgf (W), or settle the opening first",
            setup.opening
        );
    }
    // The opening's stones say who put them and who chose what.
    let names = [0, 1].map(|i| setup.players[i].text());
    let mut comments = swap.map(|swap| sgf::opening_comments(&setup.rules, &names, swap)).unwrap_or_default();
    comments.truncate(pos.moves().len());
    let result = match lost_on_time {
        Some(side) => Some(time_result(side)),
        None => pos.outcome().map(|outcome| sgf::result(outcome, "")),
    };
    let mut this = SgfGame {
        players: [Some(setup.players[0].text()), Some(setup.players[1].text())],
        result,
        event: setup.clock.map(|clock| format!("mnk-tui, clock {clock}")),
        moves: pos.moves().iter().enumerate().map(|(i, &cell)| (cell, comments.get(i).cloned())).collect(),
        ..SgfGame::new(setup.rules)
    };
    let mut games = if path.exists() {
        let text =
            play::files::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        sgf::parse(&text).with_context(|| {
            format!(
                "{} is not an SGF file we can read, so it was left as it is: save under another name (W)",
                path.display()
            )
        })?
    } else {
        Vec::new()
    };
    let saved = if let Some(index) = game.filter(|&game| (1..=games.len()).contains(&game)) {
        let old = &games[index - 1];
        // Names the game was loaded with stay where they loaded as a
        // person (a program's name, such as `pbrain-xyz 1.0`), and
        // its event where it has none of its own.
        for (name, (player, old_name)) in this.players.iter_mut().zip(setup.players.iter().zip(&old.players))
        {
            if matches!(player, Player::Human) && old_name.is_some() {
                name.clone_from(old_name);
            }
        }
        this.event = this.event.take().or_else(|| old.event.clone());
        // The comments of the moves the two games share stay.
        for ((cell, comment), (old_cell, old_comment)) in this.moves.iter_mut().zip(&old.moves) {
            if cell != old_cell {
                break;
            }
            comment.clone_from(old_comment);
        }
        games[index - 1] = this;
        if games.len() == 1 { Saved::Alone } else { Saved::Replaced { game: index, of: games.len() } }
    } else {
        // A new game's own setup: the players it names, its event.
        this.event = this.event.or_else(|| Some("mnk-tui".to_owned()));
        games.push(this);
        if games.len() == 1 { Saved::Alone } else { Saved::Appended { game: games.len() } }
    };
    play::files::write_atomically(path, sgf::collection(&games).as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(saved)
}

/// Loads game `index` (from 1) of `path`: SGF if its name ends in `.sgf`,
/// else our JSON. Players that a file may not start or let write (external
/// brains, engines with files in their options) load as people, and so do
/// an SGF file's players that are not roster specs (such as `pbrain-xyz 1.0`).
///
/// # Errors
/// If it cannot be read, is not a game, or has no game `index`.
pub fn load(path: &Path, index: usize, time: Duration) -> Result<Loaded> {
    if !is_sgf(path) {
        if index != 1 {
            bail!("{} holds one game, not game {index}", path.display());
        }
        return GameFile::load(path)?.setup(time);
    }
    let text =
        play::files::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let games = sgf::parse(&text).with_context(|| format!("{} is not a game we can read", path.display()))?;
    let Some(game) = index.checked_sub(1).and_then(|i| games.get(i)) else {
        bail!("{} holds {} game(s), not game {index}", path.display(), games.len());
    };
    // An SGF file may come from anywhere: a name that is not a spec a
    // file may give (one that would start a program or name a file)
    // loads as a person.
    let player = |name: &Option<String>| match name.as_deref().map(Player::parse_from_file) {
        Some(Ok(player)) => player,
        _ => Player::Human,
    };
    let setup = Setup::new(game.rules, [player(&game.players[0]), player(&game.players[1])], time);
    let setup = if setup.check().is_ok() {
        setup
    } else {
        Setup::new(game.rules, [Player::Human, Player::Human], time)
    };
    let names = [0, 1].map(|i| game.players[i].clone().unwrap_or_else(|| "?".to_owned()));
    Ok(Loaded {
        setup,
        moves: game.moves.iter().map(|&(cell, _)| cell).collect(),
        lost_on_time: game.result.as_deref().and_then(fallen_of),
        note: Some(format!("game {index} of {}: {} (X) vs {} (O)", games.len(), names[0], names[1])),
        game: Some(index),
        swap: None,
        under_way: None,
    })
}

/// Checks that a file's swap or RIF opening is its setup's rule, holds
/// together, and put the game's first stones.
fn check_swap(swap: &play::SwapRecord, setup: &Setup, moves: &[Cell]) -> Result<()> {
    if swap.rule != setup.opening {
        bail!("the file's swap steps are of {}, its opening is {}", swap.rule, setup.opening);
    }
    // The terminal game decides openings off the clock: no one forfeits.
    let opener = if swap.rule.is_rif() {
        play::opening_rules::rif::first_player_colour(&setup.rules, swap, None)
    } else {
        swap.first_player_colour(None)
    };
    let opener = opener.map_err(anyhow::Error::msg)?;
    if opener != swap.opener {
        bail!("the file's {} steps leave the first player {opener}, not {}", swap.rule, swap.opener);
    }
    let stones = play::opening_rules::rif::stones(&swap.steps);
    if !moves.starts_with(&stones) {
        bail!("the file's {} steps put other stones than its first moves", swap.rule);
    }
    Ok(())
}

/// Checks that an opening saved under way holds together as the live game
/// would have let it: its RIF steps each answer the rule's question (the
/// check a finished record gets), the step asked still open, the stones
/// a person had given toward it allowed, and the moves the steps' stones
/// followed by those given on the board.
fn check_under_way(under_way: &UnderWay, setup: &Setup, moves: &[Cell]) -> Result<()> {
    let rule = setup.opening;
    if !rule.is_swap() {
        bail!("the file has an opening under way but no opening rule");
    }
    let rules = setup.rules;
    let mut pos = Position::new(rules);
    for &cell in moves {
        pos.play(cell)?;
    }
    if pos.is_over() {
        bail!("the file's {rule} opening stones make a line");
    }
    if !rule.is_rif() {
        let ply = moves.len();
        let two = under_way.putting_two;
        let fits = match rule {
            play::OpeningRule::Swap2 => matches!((ply, two), (0..=3 | 5, false) | (3 | 4, true)),
            _ => matches!((ply, two), (0..=3, false)),
        };
        if !under_way.steps.is_empty() || !under_way.pending.is_empty() || !fits {
            bail!("the file's {rule} opening under way does not fit its {ply} stones");
        }
        return Ok(());
    }
    if under_way.putting_two {
        bail!("a {rule} opening puts no two more stones");
    }
    let record = play::SwapRecord { rule, opener: Side::X, steps: under_way.steps.clone() };
    // A forfeit stands for "not over yet": the steps are checked as far as
    // they go.
    play::opening_rules::rif::first_player_colour(&rules, &record, Some(Side::X))
        .map_err(anyhow::Error::msg)?;
    let ask = play::opening_rules::rif::next_ask(rule, &under_way.steps)
        .map_err(anyhow::Error::msg)?
        .with_context(|| format!("the file's {rule} steps are settled, yet saved as under way"))?;
    let pending = &under_way.pending;
    if !pending.is_empty() {
        let seat = play::opening_rules::rif::seat_of(&ask, &under_way.steps);
        if !matches!(setup.players[seat], Player::Human) {
            bail!("the file gives stones toward an engine's step of the {rule} opening");
        }
    }
    let stones = play::opening_rules::rif::stones(&under_way.steps);
    crate::rif_stones::check_pending(rules, &stones, &ask, pending).map_err(anyhow::Error::msg)?;
    let on_board = !matches!(ask, play::opening_rules::rif::OpeningAsk::Offer { .. });
    let expected: Vec<Cell> = stones.iter().chain(pending.iter().filter(|_| on_board)).copied().collect();
    if moves != expected {
        bail!("the file's moves are not the stones of its {rule} steps and those given toward the next");
    }
    Ok(())
}
