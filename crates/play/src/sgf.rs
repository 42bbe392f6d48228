//! Games in SGF (Smart Game Format, FF\[4\]), as gomoku managers such as
//! c-gomoku-cli and GUIs such as Piskvork and Yixin Board read and write
//! them: `GM[4]` (gomoku), `SZ[15]` (or `SZ[W:H]`), `RU[0]` (Gomocup's
//! rule number: 0 freestyle, 1 exactly five), players `PB`/`PW` (black is
//! X, the first player), the result `RE` (`B+`, `W+T` on time, `B+F` by
//! forfeit, `0` a draw) and the moves `;B[hh];W[ig]`, column letter first,
//! rows from the top. An m,n,k-game whose k is not 5 also carries our own
//! `MNK[W,H,K]` with the full rules (other readers skip it).
//!
//! Reading takes each game's main line (the first variation at every
//! branch) and keeps the comment on each move; setup stones and passes
//! are refused with the reason.

use std::fmt::Write;

use thiserror::Error;

use crate::game_record::GameRecord;
use board::{Cell, Outcome, Position, RuleSet, Rules, Side};

/// One game: rules, players, result and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfGame {
    /// The rules (15×15 five in a row, freestyle, when the file does not say).
    pub rules: Rules,
    /// Black's (X's) and White's (O's) names, X first.
    pub players: [Option<String>; 2],
    /// The result as written: `B+`, `W+T`, `0`…
    pub result: Option<String>,
    /// The event (`EV`), such as the match it was part of.
    pub event: Option<String>,
    /// The moves in order, each with its comment (`C`), if any.
    pub moves: Vec<(Cell, Option<String>)>,
}

/// Why a text is not a game we can read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("SGF {what} (at byte {at})")]
pub struct SgfError {
    /// What is wrong.
    pub what: String,
    /// Where in the text.
    pub at: usize,
}

impl SgfGame {
    /// A game of `rules` with no moves, players or result yet.
    #[must_use]
    pub fn new(rules: Rules) -> SgfGame {
        SgfGame { rules, players: [None, None], result: None, event: None, moves: Vec::new() }
    }

    /// The game of `record`: its players, moves (opening first; each
    /// agent move's thinking time as its comment) and result. A swap
    /// opening's stones say who put them and, on the last, who took
    /// which colour; `PB` and `PW` are the players by the colours they took.
    #[must_use]
    pub fn of_record(record: &GameRecord) -> SgfGame {
        let comments = match &record.swap {
            Some(swap) => {
                let mut comments = opening_comments(&record.rules, &record.players, swap);
                comments.resize(record.opening.len(), "opening move".to_owned());
                comments
            }
            None => vec!["opening move".to_owned(); record.opening.len()],
        };
        let opening = record.opening.iter().zip(comments).map(|(&cell, comment)| (cell, Some(comment)));
        let moves = record.moves.iter().map(|m| (m.cell, Some(format!("{}ms", m.micros / 1000))));
        let how = if record.forfeit.is_some() { "F" } else { "" };
        let result = result(record.outcome, how);
        SgfGame {
            rules: record.rules,
            players: record.players.clone().map(Some),
            result: Some(result),
            event: None,
            moves: opening.chain(moves).collect(),
        }
    }

    /// The position after the first `plies` moves (all of them when `None`).
    ///
    /// # Errors
    /// Which move is illegal, or that the game has fewer moves.
    pub fn position(&self, plies: Option<usize>) -> Result<Position, String> {
        let plies = plies.unwrap_or(self.moves.len());
        if plies > self.moves.len() {
            return Err(format!("the game has {} moves, not {plies}", self.moves.len()));
        }
        let mut pos = Position::new(self.rules);
        for (i, &(cell, _)) in self.moves[..plies].iter().enumerate() {
            pos.play(cell).map_err(|err| format!("move {} {}: {err}", i + 1, cell.name(&self.rules)))?;
        }
        Ok(pos)
    }

    /// The game as one SGF game tree.
    #[must_use]
    pub fn to_sgf(&self) -> String {
        let rules = self.rules;
        let mut text = String::from("(;FF[4]GM[4]CA[UTF-8]AP[mnk]");
        if rules.is_square() {
            let _ = write!(text, "SZ[{}]", rules.width());
        } else {
            let _ = write!(text, "SZ[{}:{}]", rules.width(), rules.height());
        }
        let _ = write!(text, "RU[{}]", rules.rule_set().rule_number());
        if rules.k() != 5 {
            let _ = write!(text, "MNK[{rules}]");
        }
        let props = [("EV", &self.event), ("PB", &self.players[0]), ("PW", &self.players[1])];
        for (name, value) in props.into_iter().chain([("RE", &self.result)]) {
            if let Some(value) = value {
                let _ = write!(text, "{name}[{}]", escape(value));
            }
        }
        for (i, (cell, comment)) in self.moves.iter().enumerate() {
            text.push(if i % 10 == 0 { '\n' } else { ' ' });
            let side = if i % 2 == 0 { Side::X } else { Side::O };
            let _ = write!(text, ";{}[{}{}]", letter(side), coordinate(cell.x()), coordinate(cell.y()));
            if let Some(comment) = comment {
                let _ = write!(text, "C[{}]", escape(comment));
            }
        }
        text.push_str(")\n");
        text
    }
}

/// The comment of each stone of a swap opening, `players` by the colours
/// they ended with: who put it, and after it who took or swapped colours,
/// declared, offered or picked.
#[must_use]
pub fn opening_comments(
    rules: &Rules,
    players: &[String; 2],
    swap: &crate::opening_rules::swap::SwapRecord,
) -> Vec<String> {
    // Seats by colour at the end: the first player ended as `opener`.
    let seat_name = |seat: usize| {
        let side = if seat == 0 { swap.opener } else { swap.opener.opponent() };
        &players[side.index()]
    };
    let mut comments: Vec<String> = Vec::new();
    for (step, decision) in swap.steps.iter().enumerate() {
        let seat = if swap.rule.is_rif() {
            crate::opening_rules::rif::next_ask(swap.rule, &swap.steps[..step])
                .ok()
                .flatten()
                .map_or(step % 2, |ask| crate::opening_rules::rif::seat_of(&ask, &swap.steps[..step]))
        } else {
            step % 2
        };
        let name = seat_name(seat);
        let mut note = |text: String| {
            if let Some(last) = comments.last_mut() {
                let _ = write!(last, "; {text}");
            }
        };
        match decision {
            crate::opening_rules::swap::SwapStep::Put(stones) => {
                comments.extend(stones.iter().map(|_| format!("{} opening stone put by {name}", swap.rule)));
            }
            crate::opening_rules::swap::SwapStep::Took(side) => {
                let colour = if *side == Side::X { "black" } else { "white" };
                note(format!("{name} took {colour}"));
            }
            crate::opening_rules::swap::SwapStep::Swap(swapped) => {
                note(format!("{name} {}", if *swapped { "swapped" } else { "kept its colour" }));
            }
            crate::opening_rules::swap::SwapStep::Declared { fifths, .. } => {
                let stones = if *fifths == 1 { "stone" } else { "stones" };
                comments.push(format!(
                    "{} fourth stone put by {name}, who asks for {fifths} fifth {stones}",
                    swap.rule
                ));
            }
            crate::opening_rules::swap::SwapStep::ChoseOffer(offer) => {
                note(format!(
                    "{name} {}",
                    if *offer { "offers ten fifth stones" } else { "puts one fifth stone" }
                ));
            }
            crate::opening_rules::swap::SwapStep::Offered(cells) => {
                let cells: Vec<String> = cells.iter().map(|cell| cell.name(rules).to_string()).collect();
                note(format!("{name} offered {}", cells.join(" ")));
            }
            crate::opening_rules::swap::SwapStep::Picked(_) => {
                comments.push(format!("{} fifth stone picked by {name}", swap.rule));
            }
        }
    }
    comments
}

/// A result as SGF writes it: `B+` (X won on the board), `W+T` (O won on
/// time: `how` is `T`; `F` a forfeit), `0` a draw.
#[must_use]
pub fn result(outcome: Outcome, how: &str) -> String {
    match outcome {
        Outcome::Win(side) => format!("{}+{how}", letter(side)),
        Outcome::Draw => "0".to_owned(),
    }
}

/// Every game of `games` as one SGF collection.
#[must_use]
pub fn collection(games: &[SgfGame]) -> String {
    games.iter().map(SgfGame::to_sgf).collect::<Vec<_>>().join("\n")
}

/// `B` for X (who moves first), `W` for O.
fn letter(side: Side) -> char {
    match side {
        Side::X => 'B',
        Side::O => 'W',
    }
}

/// SGF's letter for a coordinate: `a`–`z`, then `A`–`Z`.
fn coordinate(index: u8) -> char {
    if index < 26 { char::from(b'a' + index) } else { char::from(b'A' + index - 26) }
}

fn index_of(letter: u8) -> Option<u8> {
    match letter {
        b'a'..=b'z' => Some(letter - b'a'),
        b'A'..=b'Z' => Some(letter - b'A' + 26),
        _ => None,
    }
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

/// Reads every game of an SGF collection.
///
/// # Errors
/// [`SgfError`] saying what is wrong and where: text that is not SGF, a
/// game of another kind (`GM` other than 4), a board size or rule we do
/// not play, a move off the board or on a taken cell, setup stones.
pub fn parse(text: &str) -> Result<Vec<SgfGame>, SgfError> {
    let mut reader = Reader { text: text.as_bytes(), at: 0 };
    let mut games = Vec::new();
    loop {
        reader.skip_space();
        if reader.at >= reader.text.len() {
            break;
        }
        if games.len() >= MAX_GAMES {
            return Err(reader.error(&format!("holds more than {MAX_GAMES} games")));
        }
        let nodes = reader.game_tree(0)?;
        let start = reader.at;
        games.push(game(&nodes).map_err(|what| SgfError { what, at: start })?);
    }
    if games.is_empty() {
        return Err(reader.error("holds no game"));
    }
    Ok(games)
}

/// How deep variations may nest.
const MAX_NESTING: usize = 1000;

/// The most games a collection may hold, nodes a game's line, properties
/// a node and values a property: far beyond any real file, and what keeps
/// a hostile one (`(;)` or `A[]` repeated millions of times) from taking
/// gigabytes.
const MAX_GAMES: usize = 100_000;
const MAX_NODES: usize = 4_096;
const MAX_PROPERTIES: usize = 256;
const MAX_VALUES: usize = 1_024;

/// A node: its properties, each with its values.
type Node = Vec<(String, Vec<String>)>;

struct Reader<'a> {
    text: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> SgfError {
        SgfError { what: what.to_owned(), at: self.at }
    }

    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.text.get(self.at).copied()
    }

    fn expect(&mut self, byte: u8) -> Result<(), SgfError> {
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected '{}'", char::from(byte))))
        }
    }

    /// `( ;node ;node … (variation) … )`: the nodes of its main line.
    fn game_tree(&mut self, depth: usize) -> Result<Vec<Node>, SgfError> {
        // Nested variations recurse: a bound keeps a hostile file from
        // overflowing the stack.
        if depth > MAX_NESTING {
            return Err(self.error(&format!("variations nested deeper than {MAX_NESTING}")));
        }
        self.expect(b'(')?;
        let mut nodes = Vec::new();
        while self.peek() == Some(b';') {
            if nodes.len() >= MAX_NODES {
                return Err(self.error(&format!("game with more than {MAX_NODES} nodes")));
            }
            self.at += 1;
            nodes.push(self.node()?);
        }
        if nodes.is_empty() {
            return Err(self.error("game tree without a node"));
        }
        let mut first = true;
        while self.peek() == Some(b'(') {
            let variation = self.game_tree(depth + 1)?;
            if first {
                if nodes.len() + variation.len() > MAX_NODES {
                    return Err(self.error(&format!("game with more than {MAX_NODES} nodes")));
                }
                nodes.extend(variation);
                first = false;
            }
        }
        self.expect(b')')?;
        Ok(nodes)
    }

    fn node(&mut self) -> Result<Node, SgfError> {
        let mut properties = Vec::new();
        while self.peek().is_some_and(|b| b.is_ascii_uppercase()) {
            if properties.len() >= MAX_PROPERTIES {
                return Err(self.error(&format!("node with more than {MAX_PROPERTIES} properties")));
            }
            let start = self.at;
            while self.text.get(self.at).is_some_and(u8::is_ascii_alphabetic) {
                self.at += 1;
            }
            let name = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
            let mut values = Vec::new();
            while self.peek() == Some(b'[') {
                if values.len() >= MAX_VALUES {
                    return Err(self.error(&format!("property {name} with more than {MAX_VALUES} values")));
                }
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(self.error(&format!("property {name} without a value")));
            }
            properties.push((name, values));
        }
        Ok(properties)
    }

    /// `[text]`, with `\]` and `\\` escapes.
    fn value(&mut self) -> Result<String, SgfError> {
        self.expect(b'[')?;
        let mut bytes = Vec::new();
        loop {
            match self.text.get(self.at) {
                None => return Err(self.error("value not closed with ']'")),
                Some(b']') => break,
                Some(b'\\') => {
                    self.at += 1;
                    // A soft line break (backslash, newline) is no text.
                    match self.text.get(self.at) {
                        Some(b'\n') => {}
                        Some(&byte) => bytes.push(byte),
                        None => return Err(self.error("value not closed with ']'")),
                    }
                }
                Some(&byte) => bytes.push(byte),
            }
            self.at += 1;
        }
        self.at += 1;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// The game a main line of nodes holds.
fn game(nodes: &[Node]) -> Result<SgfGame, String> {
    let find = |name: &str| nodes[0].iter().find(|(key, _)| key == name).map(|(_, values)| values[0].clone());
    if let Some(gm) = find("GM")
        && gm.trim() != "4"
    {
        return Err(format!("game GM[{gm}] is not gomoku (GM[4])"));
    }
    let rules = rules_of(find("SZ").as_deref(), find("RU").as_deref(), find("MNK").as_deref())?;
    let mut game = SgfGame {
        players: [find("PB"), find("PW")],
        result: find("RE"),
        event: find("EV"),
        ..SgfGame::new(rules)
    };
    let mut pos = Position::new(rules);
    for node in nodes {
        let mut comment = None;
        let mut cell = None;
        for (name, values) in node {
            match name.as_str() {
                "B" | "W" => {
                    let side = if name == "B" { Side::X } else { Side::O };
                    let number = game.moves.len() + 1;
                    if cell.is_some() {
                        return Err(format!(
                            "move {number} {name}[{}] shares a node with the move before it: one move a node",
                            values[0]
                        ));
                    }
                    if pos.side_to_move() != side {
                        return Err(format!("move {number} is {name}'s, but it is the other side's turn"));
                    }
                    let found = point(&values[0], rules)
                        .map_err(|what| format!("move {number} {name}[{}]: {what}", values[0]))?;
                    pos.play(found).map_err(|err| format!("move {number} {name}[{}]: {err}", values[0]))?;
                    cell = Some(found);
                }
                "C" => comment = Some(values[0].clone()),
                "AB" | "AW" | "AE" => {
                    return Err(format!(
                        "setup stones ({name}) are not supported: only games played move by move"
                    ));
                }
                _ => {}
            }
        }
        if let Some(cell) = cell {
            game.moves.push((cell, comment));
        }
    }
    Ok(game)
}

/// The rules of `SZ`, `RU` and our `MNK`.
fn rules_of(size: Option<&str>, rule: Option<&str>, mnk: Option<&str>) -> Result<Rules, String> {
    let rule_set = match rule.map(str::trim) {
        None => RuleSet::Freestyle,
        Some(text) => text
            .parse::<u64>()
            .map_err(|_| format!("rule RU[{text}] is not a number"))
            .and_then(RuleSet::from_rule_number)
            .map_err(|error| format!("rule RU[{text}]: {error}"))?,
    };
    let (width, height) = match size.map(str::trim) {
        None => (15, 15),
        Some(text) => {
            let number =
                |part: &str| part.trim().parse::<u32>().map_err(|_| format!("board size SZ[{text}]"));
            match text.split_once(':') {
                Some((w, h)) => (number(w)?, number(h)?),
                None => (number(text)?, number(text)?),
            }
        }
    };
    let rules = match mnk {
        Some(text) => text.parse::<Rules>().map_err(|err| format!("rules MNK[{text}]: {err}"))?,
        None => Rules::new(width, height, 5, rule_set)
            .map_err(|err| format!("board SZ[{width}:{height}]: {err}"))?,
    };
    if (u32::from(rules.width()), u32::from(rules.height())) != (width, height) {
        return Err(format!("rules MNK[{rules}] disagree with the board size {width}×{height}"));
    }
    if let Some(rule) = rule
        && rules.rule_set() != rule_set
    {
        return Err(format!("rules MNK[{rules}] disagree with the rule RU[{}]", rule.trim()));
    }
    Ok(rules)
}

/// The cell of a move's value such as `hh`.
fn point(value: &str, rules: Rules) -> Result<Cell, String> {
    let bytes = value.trim().as_bytes();
    if bytes.is_empty() {
        return Err("a pass, which gomoku does not have".to_owned());
    }
    let [x, y] = bytes else { return Err("not two letters".to_owned()) };
    let (Some(x), Some(y)) = (index_of(*x), index_of(*y)) else { return Err("not two letters".to_owned()) };
    rules.cell(i32::from(x), i32::from(y)).ok_or_else(|| "off the board".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(rules: Rules, names: &str) -> Vec<(Cell, Option<String>)> {
        names.split_whitespace().map(|name| (rules.parse_cell(name).unwrap(), None)).collect()
    }

    #[test]
    fn a_game_round_trips_with_its_names_result_and_comments() {
        let rules = Rules::gomoku15();
        let mut moves = cells(rules, "h8 i9 g7 j10 f6 k11 e5");
        moves[2].1 = Some("a comment with ] and \\ in it".to_owned());
        let game = SgfGame {
            rules,
            players: [Some("alphabeta".to_owned()), Some("mcts [strong]".to_owned())],
            result: Some("B+".to_owned()),
            event: Some("a test".to_owned()),
            moves,
        };
        let text = game.to_sgf();
        assert!(text.starts_with("(;FF[4]GM[4]CA[UTF-8]AP[mnk]SZ[15]RU[0]EV[a test]PB[alphabeta]"), "{text}");
        assert_eq!(parse(&text).unwrap(), vec![game]);
    }

    #[test]
    fn other_rules_round_trip_through_size_rule_and_mnk() {
        for rules in [Rules::tic_tac_toe(), Rules::new(9, 7, 4, RuleSet::Exact).unwrap(), Rules::gomoku20()] {
            let game = SgfGame { moves: cells(rules, "a1 b2 c1"), ..SgfGame::new(rules) };
            let text = game.to_sgf();
            assert_eq!(parse(&text).unwrap()[0].rules, rules, "{text}");
        }
        let exact = Rules::gomoku15().with_rule_set(RuleSet::Exact);
        assert!(SgfGame::new(exact).to_sgf().contains("RU[1]"));
    }

    #[test]
    fn coordinates_are_column_then_row_from_the_top() {
        let rules = Rules::gomoku15();
        let game = &parse("(;GM[4]SZ[15];B[aa];W[ob])").unwrap()[0];
        assert_eq!(game.moves[0].0.name(&rules).to_string(), "a15");
        assert_eq!(game.moves[1].0.name(&rules).to_string(), "o14");
    }

    #[test]
    fn the_main_line_is_the_first_variation() {
        let games = parse("(;GM[4]SZ[9];B[ee](;W[dd];B[cc])(;W[ff]))").unwrap();
        let names: Vec<String> =
            games[0].moves.iter().map(|(c, _)| c.name(&games[0].rules).to_string()).collect();
        assert_eq!(names, ["e5", "d6", "c7"]);
    }

    #[test]
    fn bad_files_say_what_is_wrong() {
        let error = |text: &str| parse(text).unwrap_err().what;
        assert_eq!(error(""), "holds no game");
        assert!(error("(;GM[1]SZ[19])").contains("not gomoku"));
        assert!(error("(;GM[4]SZ[15];B[hh];B[hi])").contains("other side's turn"));
        assert!(error("(;GM[4]SZ[15];B[hh];W[hh])").contains("move 2 W[hh]"));
        assert!(error("(;GM[4]SZ[15];B[zz])").contains("off the board"));
        assert!(error("(;GM[4]SZ[15];B[])").contains("pass"));
        assert!(error("(;GM[4]SZ[15];B[hh").contains("not closed"));
        assert!(error("(;GM[4]SZ[15]AB[hh])").contains("setup stones"));
        assert!(error("(;GM[4]SZ[15]RU[3])").contains("RU[3]: not a rule we play"));
        assert!(error("(;GM[4]SZ[15]RU[x])").contains("RU[x] is not a number"));
        // Renju and caro as managers write them.
        let caro_freestyle = Rules::caro().with_rule_set(RuleSet::CaroFreestyle);
        for (rule, rules) in [("4", Rules::renju()), ("9", Rules::caro()), ("8", caro_freestyle)] {
            let games = parse(&format!("(;GM[4]SZ[15]RU[{rule}];B[hh])")).unwrap();
            assert_eq!(games[0].rules, rules);
            assert!(
                SgfGame { moves: Vec::new(), ..games[0].clone() }.to_sgf().contains(&format!("RU[{rule}]"))
            );
        }
        assert!(error("(;GM[4]SZ[99])").contains("SZ[99:99]"));
        assert!(error("(;GM[4]SZ[15]MNK[9,9,5])").contains("disagree"));
        // Two moves in one node, and rules that contradict each other.
        assert!(error("(;GM[4]SZ[15];B[hh]W[ii];B[gg])").contains("one move a node"));
        assert!(error("(;GM[4]SZ[15]RU[1]MNK[15,15,5])").contains("disagree with the rule RU[1]"));
        assert!(error("(;GM[4]SZ[9]RU[0]MNK[9,9,4,exact])").contains("disagree with the rule RU[0]"));
        assert!(error("hello").contains("expected '('"));
        let deep = format!("{}{}", "(;GM[4]".repeat(5000), ")".repeat(5000));
        assert!(error(&deep).contains("nested deeper"));
        // Hostile files under the size limit are refused at a count, not
        // read into gigabytes.
        assert!(error(&"(;)".repeat(MAX_GAMES + 1)).contains("more than 100000 games"));
        assert!(
            error(&format!("(;GM[4]A{})", "[]".repeat(MAX_VALUES + 1))).contains("more than 1024 values")
        );
        assert!(error(&format!("(;GM[4]{})", "C[]".repeat(MAX_PROPERTIES + 1))).contains("properties"));
        assert!(error(&format!("(;GM[4]{})", ";".repeat(MAX_NODES + 1))).contains("more than 4096 nodes"));
    }

    proptest::proptest! {
        /// Any text, or a real game cut or changed anywhere, reads or
        /// says why: never a panic.
        #[test]
        fn no_text_panics(text in ".{0,200}", cut in 0usize..400, byte in 0u8..128) {
            let _ = parse(&text);
            let game = "(;FF[4]GM[4]SZ[15]RU[1]PB[a\\]]RE[B+];B[hh]C[x];W[ig];B[gg](;W[ff])(;W[aa]))";
            let mut bytes = game.as_bytes().to_vec();
            let at = cut % bytes.len();
            let _ = parse(&String::from_utf8_lossy(&bytes[..at]));
            bytes[at] = byte;
            let _ = parse(&String::from_utf8_lossy(&bytes));
        }
    }
}
