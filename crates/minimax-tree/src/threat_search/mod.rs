//! The threat-space search: victory by continuous fours (VCF) and by
//! continuous threats (VCT), over a [`ThreatView`] of the position — the
//! tables of [`board::threats`] where k is 1 to
//! [`board::threats::MAX_THREAT_K`] (VCF and VCT), else the lines
//! scanned as needed ([`LineScan`], VCF only).
//!
//! The attacker plays only threats: fours (the defender must block the
//! one cell) and, in a VCT, moves that make an open three (the defender
//! must stop the open four: on a cell of the attacker's line, or with a
//! four of its own). A line is won when every defence loses. Proofs are
//! sound, not complete: where the defender could answer a double threat
//! with fours of its own, the search treats the line as unproven.

mod view;

use std::collections::HashMap;
use std::time::Instant;

use board::threats::{Pattern, Threats};
use board::{Bitboard, Cell, Direction, Position, Rules, Side};

pub(crate) use view::winning_cells;
pub use view::{LineScan, ThreatView};

/// Limits of one threat search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatLimits {
    /// Positions to visit at most.
    pub nodes: u64,
    /// Attacking moves to play at most.
    pub depth: u32,
    /// Whether the attacker may play open threes (VCT), not only fours
    /// (VCF); a view that cannot tell open threes ([`LineScan`]) searches
    /// fours alone.
    pub threes: bool,
    /// When to give up, whatever the node budget says.
    pub deadline: Option<Instant>,
    /// How the search reaches `depth`.
    pub deepening: Deepening,
}

/// How a threat search reaches its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deepening {
    /// Straight to the full depth, where the first long line of threats
    /// may take the whole budget.
    Straight,
    /// One attacking move deeper at a time, so a short win is found
    /// before a long line swallows the budget.
    Iterative,
}

impl ThreatLimits {
    /// A VCF search: fours only.
    #[must_use]
    pub const fn vcf(nodes: u64) -> ThreatLimits {
        ThreatLimits { nodes, depth: 40, threes: false, deadline: None, deepening: Deepening::Straight }
    }

    /// A VCT search: fours and open threes.
    #[must_use]
    pub const fn vct(nodes: u64) -> ThreatLimits {
        ThreatLimits { nodes, depth: 10, threes: true, deadline: None, deepening: Deepening::Iterative }
    }

    /// These limits, ending at `deadline` at the latest.
    #[must_use]
    pub const fn until(self, deadline: Option<Instant>) -> ThreatLimits {
        ThreatLimits { deadline, ..self }
    }

    /// These limits, reaching their depth this way.
    #[must_use]
    pub const fn deepening(self, deepening: Deepening) -> ThreatLimits {
        ThreatLimits { deepening, ..self }
    }
}

/// What a threat search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatWin {
    /// The winning line from the attacker's first move, attacker and
    /// defender alternating (one defence shown where there are several);
    /// empty when no win was found. A line ending in a proven position the
    /// search had seen before stops there.
    pub line: Vec<Cell>,
    /// Positions visited.
    pub nodes: u64,
    /// Whether the node budget ran out before the search was done.
    pub exhausted: bool,
    /// Plies to the win along `line`, the first move and the winning move
    /// included (0 when none was found).
    pub plies: u32,
}

impl ThreatWin {
    /// Whether a forced win was found.
    #[must_use]
    pub fn found(&self) -> bool {
        !self.line.is_empty()
    }
}

/// Looks for a forced win by threats for the side to move of `pos`: by
/// the threat tables where k has them, else by fours read off the lines.
#[must_use]
pub fn find_threat_win(pos: &Position, limits: ThreatLimits) -> ThreatWin {
    let mut work = pos.clone();
    let mut search = ThreatSearch::new();
    // A threat search reads cells and classes, never the pattern counts.
    match Threats::without_pattern_counts(pos) {
        Ok(mut threats) => search.run(&mut work, &mut threats, limits),
        Err(_) => search.run(&mut work, &mut LineScan, limits),
    }
}

/// Wins kept at most; when full, all are forgotten and keeping starts over.
const PROVEN_CAPACITY: usize = 1 << 18;

/// A reusable threat searcher: its caches and move lists are kept between
/// searches so that a searching engine allocates nothing per call.
///
/// Proven wins outlive the search that found them: a proof holds
/// wherever its position recurs, whatever the limits of the search, so
/// the next move of a game finds the win it proved before at once — a
/// search short of time would otherwise lose sight of it. They are
/// forgotten with [`ThreatSearch::forget`] (a new game) or when the
/// rules change.
#[derive(Debug, Default)]
pub struct ThreatSearch {
    nodes: u64,
    limits: Option<ThreatLimits>,
    exhausted: bool,
    /// By [`attack_key`]: won by playing the cell, in the plies beside it
    /// along the line found.
    proven: HashMap<u64, (Cell, u32)>,
    /// The rules the proofs hold under.
    proven_rules: Option<Rules>,
    /// By [`attack_key`], for this search only: not won within the depth
    /// stored (under this search's limits).
    failed: HashMap<u64, u32>,
    /// Plies to the win along the line, when the last search won.
    win_plies: u32,
    /// Whether the current iteration stopped a line at its depth.
    depth_reached: bool,
    line: Vec<Cell>,
    lists: Vec<Vec<Cell>>,
}

impl ThreatSearch {
    /// A searcher with an empty cache.
    #[must_use]
    pub fn new() -> ThreatSearch {
        ThreatSearch::default()
    }

    /// Searches `pos` (whose threats `threats` shows) for a win of its
    /// side to move within `limits`; both are restored before it returns.
    pub fn run<V: ThreatView>(
        &mut self,
        pos: &mut Position,
        threats: &mut V,
        limits: ThreatLimits,
    ) -> ThreatWin {
        self.nodes = 0;
        self.limits = Some(limits);
        self.exhausted = false;
        if self.proven_rules != Some(*pos.rules()) {
            self.forget();
            self.proven_rules = Some(*pos.rules());
        }
        self.failed.clear();
        self.line.clear();
        // Deepening, one attacking move at a time: a short win is found
        // before the first long line of threats takes the whole budget.
        // An iteration that never reached its depth has seen every line.
        let mut won = false;
        if !pos.is_over() {
            let first = match limits.deepening {
                Deepening::Iterative => 1.min(limits.depth),
                Deepening::Straight => limits.depth,
            };
            for depth in first..=limits.depth {
                self.line.clear();
                self.depth_reached = false;
                won = self.attack(pos, threats, depth, 0);
                if won || self.exhausted || !self.depth_reached {
                    break;
                }
            }
        }
        ThreatWin {
            line: if won { self.line.clone() } else { Vec::new() },
            plies: if won { self.win_plies } else { 0 },
            nodes: self.nodes,
            exhausted: self.exhausted,
        }
    }

    /// Forgets the wins proven so far (a new game).
    pub fn forget(&mut self) {
        self.proven.clear();
    }

    fn budget_left(&mut self) -> bool {
        self.nodes += 1;
        let Some(limits) = self.limits else { return false };
        if self.nodes > limits.nodes
            || (self.nodes.trailing_zeros() >= 8
                && limits.deadline.is_some_and(|deadline| Instant::now() >= deadline))
        {
            self.exhausted = true;
        }
        !self.exhausted
    }

    fn list(&mut self, level: usize) -> Vec<Cell> {
        if self.lists.len() <= level {
            self.lists.resize_with(level + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut self.lists[level]);
        list.clear();
        list
    }

    /// The attacker (to move) wins by threats within `depth` more of them.
    fn attack<V: ThreatView>(
        &mut self,
        pos: &mut Position,
        threats: &mut V,
        depth: u32,
        level: usize,
    ) -> bool {
        if !self.budget_left() {
            return false;
        }
        let attacker = pos.side_to_move();
        let defender = attacker.opponent();
        if let Some(win) = threats.five_cells(pos, attacker).iter().next() {
            self.line.push(win);
            self.win_plies = self.line.len() as u32;
            return true;
        }
        let defender_fives = threats.five_cells(pos, defender);
        let mut fives = defender_fives.iter();
        if let Some(block) = fives.next() {
            if fives.next().is_some() || threats.forbidden(pos, attacker, block) {
                return false;
            }
            // The block is forced; the attack goes on only if it was a
            // threat itself or threats stand on the board.
            play(pos, threats, block);
            self.line.push(block);
            let won = self.defend(pos, threats, depth, level + 1);
            if !won {
                self.line.pop();
            }
            undo(pos, threats);
            return won;
        }
        // (Under caro an open four may be stopped: blocking one end closes
        // the five at the other. It is played out as a four instead.)
        if !pos.rules().is_caro()
            && !threats.open_four_cells(pos, attacker).is_empty()
            && threats.four_cells(pos, defender).is_empty()
        {
            // An open four the defender cannot answer with a four of its own.
            let four = threats.open_four_cells(pos, attacker).iter().next().expect("not empty");
            self.line.push(four);
            // The four, any reply, the five.
            self.win_plies = self.line.len() as u32 + 2;
            return true;
        }
        if depth == 0 {
            self.depth_reached = true;
            return false;
        }
        let key = attack_key(pos, attacker);
        if let Some(&(cell, plies)) = self.proven.get(&key) {
            self.win_plies = self.line.len() as u32 + plies;
            self.line.push(cell);
            return true;
        }
        if let Some(&searched) = self.failed.get(&key)
            && searched >= depth
        {
            // A line below stopped at a depth: a deeper search may win.
            self.depth_reached |= searched != u32::MAX;
            return false;
        }
        // Whether a line below this node stops at the depth (then a
        // deeper search may find more here), apart from the lines before.
        let reached_before = std::mem::take(&mut self.depth_reached);
        let threes = self.limits.is_some_and(|limits| limits.threes);
        let mut moves = self.list(level);
        let fours = threats.four_cells(pos, attacker);
        moves.extend(fours);
        if threes {
            moves.extend(threats.open_three_cells(pos, attacker) - fours);
        }
        // Strongest first: open fours and four-threes end lines soonest.
        moves.sort_by_key(|&cell| std::cmp::Reverse(threats.class(pos, attacker, cell)));
        let start = self.line.len() as u32;
        let mut won = None;
        for &cell in &moves {
            play(pos, threats, cell);
            self.line.push(cell);
            let ok = self.defend(pos, threats, depth - 1, level + 1);
            undo(pos, threats);
            if ok {
                won = Some((cell, self.win_plies - start));
                break;
            }
            self.line.pop();
            if self.exhausted {
                break;
            }
        }
        self.lists[level] = moves;
        let cut_by_depth = self.depth_reached;
        self.depth_reached |= reached_before;
        if let Some(win) = won {
            if self.proven.len() >= PROVEN_CAPACITY {
                self.proven.clear();
            }
            self.proven.insert(key, win);
        } else if !self.exhausted {
            // Deepening, lost at any depth when no line stopped at this one.
            let deepening = self.limits.is_some_and(|limits| limits.deepening == Deepening::Iterative);
            self.failed.insert(key, if cut_by_depth || !deepening { depth } else { u32::MAX });
        }
        won.is_some()
    }

    /// The defender (to move) cannot escape the attacker's threats.
    fn defend<V: ThreatView>(
        &mut self,
        pos: &mut Position,
        threats: &mut V,
        depth: u32,
        level: usize,
    ) -> bool {
        if !self.budget_left() {
            return false;
        }
        let defender = pos.side_to_move();
        let attacker = defender.opponent();
        if pos.is_over() || !threats.five_cells(pos, defender).is_empty() {
            return pos.outcome() == Some(board::Outcome::Win(attacker));
        }
        let attacker_fives = threats.five_cells(pos, attacker);
        let mut replies = self.list(level);
        let mut fives = attacker_fives.iter();
        match (fives.next(), fives.next()) {
            // Two wins: only fours of its own can delay the loss — and
            // under caro a block that closes the other five's far end.
            (Some(_), Some(_)) => {
                let fours = threats.four_cells(pos, defender);
                if pos.rules().is_caro() {
                    replies.extend(attacker_fives | fours);
                } else {
                    replies.extend(fours);
                }
            }
            // Renju's black, whose one block is forbidden, has lost.
            (Some(block), None) if threats.forbidden(pos, defender, block) => {}
            (Some(block), None) => replies.push(block),
            (None, _) => {
                let open_fours = threats.open_four_cells(pos, attacker);
                if open_fours.is_empty() {
                    // No threat stands: the defender is free.
                    self.lists[level] = replies;
                    return false;
                }
                let defences =
                    threats.three_defences(pos, attacker, open_fours) | threats.four_cells(pos, defender);
                replies.extend(defences);
            }
        }
        let start = self.line.len();
        let mut end = start;
        // The win is as far as the defence that delays it longest (counted
        // from where each defence's line begins: the first one's stays).
        let mut longest = 0;
        let mut lost = true;
        for (i, &reply) in replies.iter().enumerate() {
            let base = self.line.len() as u32;
            play(pos, threats, reply);
            self.line.push(reply);
            let won = self.attack(pos, threats, depth, level + 1);
            undo(pos, threats);
            // The line shows the first defence only.
            if i == 0 && won {
                end = self.line.len();
            }
            if won {
                longest = longest.max(self.win_plies - base);
            }
            self.line.truncate(end);
            if !won {
                lost = false;
                break;
            }
        }
        if lost && replies.is_empty() {
            // Nothing to play against: two wins and no four to delay them,
            // or renju's black whose every block is forbidden. Any reply,
            // then a five — or, against an open three, an open four and
            // then a five.
            if let Some(five) = attacker_fives.iter().next() {
                self.line.push(five);
                longest = 2;
            } else if let Some(open_four) = threats.open_four_cells(pos, attacker).iter().next() {
                self.line.push(open_four);
                longest = 4;
            }
        }
        self.win_plies = start as u32 + longest;
        self.lists[level] = replies;
        if !lost {
            self.line.truncate(start);
        }
        lost
    }
}

/// The key of an attacking node: the position and the side to move (a
/// proof kept between searches may be the other side's).
fn attack_key(pos: &Position, attacker: Side) -> u64 {
    const SECOND_TO_MOVE: u64 = 0x9e37_79b9_7f4a_7c15;
    pos.hash() ^ if attacker == Side::X { 0 } else { SECOND_TO_MOVE }
}

/// The cells that may stop `attacker`'s open threes, given the cells
/// where it makes open fours: each such cell, and the cells of the same
/// line within k of it where the attacker makes a four (the ends a
/// five would need).
#[must_use]
pub fn three_defences(threats: &Threats, attacker: Side, open_fours: Bitboard) -> Bitboard {
    let rules = *threats.rules();
    let k = i32::from(rules.k());
    let mut defences = open_fours;
    for cell in open_fours {
        let patterns = threats.patterns(attacker, cell);
        for (direction, pattern) in Direction::ALL.into_iter().zip(patterns) {
            if pattern != Pattern::OpenFour {
                continue;
            }
            let (dx, dy) = direction.delta();
            for step in (-k..=k).filter(|&step| step != 0) {
                let Some(other) =
                    rules.cell(i32::from(cell.x()) + dx * step, i32::from(cell.y()) + dy * step)
                else {
                    continue;
                };
                if threats.pattern(attacker, other, direction) >= Pattern::Four {
                    defences.insert(other);
                }
            }
        }
    }
    defences
}

fn play<V: ThreatView>(pos: &mut Position, threats: &mut V, cell: Cell) {
    pos.play_unchecked(cell);
    threats.play(pos, cell);
}

fn undo<V: ThreatView>(pos: &mut Position, threats: &mut V) {
    if let Some(cell) = pos.undo() {
        threats.take_back(pos, cell);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search by fours over both views: the tables and the lines.
    /// (A searcher each: one would find the other's proof kept.)
    fn both_views(pos: &Position) -> [ThreatWin; 2] {
        let limits = ThreatLimits::vcf(100_000);
        let by_tables = ThreatSearch::new().run(&mut pos.clone(), &mut Threats::new(pos).unwrap(), limits);
        let by_lines = ThreatSearch::new().run(&mut pos.clone(), &mut LineScan, limits);
        [by_tables, by_lines]
    }

    fn first(pos: &Position, win: &ThreatWin) -> String {
        win.line[0].name(pos.rules()).to_string()
    }

    #[test]
    fn a_win_in_one_and_an_open_four_by_either_view() {
        let rules = Rules::gomoku15();
        // X to move with four in a row: wins at once.
        let pos = Position::from_moves(rules, "h8 a1 h9 a2 h10 a4 h11 a6").unwrap();
        for win in both_views(&pos) {
            assert!(["h7", "h12"].contains(&first(&pos, &win).as_str()));
            assert_eq!((win.line.len(), win.plies), (1, 1));
        }
        // Three in a row, open: h7 or h11 makes an open four, then any
        // reply, then the five.
        let pos = Position::from_moves(rules, "h8 a1 h9 a3 h10 a5").unwrap();
        for win in both_views(&pos) {
            assert!(win.found());
            assert_eq!(win.plies, 3, "{:?}", win.line);
        }
    }

    #[test]
    fn a_chain_of_fours_by_either_view() {
        let rules = Rules::gomoku15();
        // X: d4 e4 f4 (closed by O at c4) and g5 g6 g7 (closed by O at g8):
        // g4 makes a four on row 4 and one on column g together.
        let pos = Position::from_moves(rules, "d4 c4 e4 g8 f4 a1 g5 a15 g6 o1 g7 o15").unwrap();
        for win in both_views(&pos) {
            assert_eq!(first(&pos, &win), "g4", "{:?}", win.line);
            assert_eq!(win.plies, 3);
        }
    }

    #[test]
    fn a_proof_is_kept_for_the_game_and_its_rules() {
        // The chain of fours above: one node is not enough to prove it
        // afresh, and enough to find it proved.
        let moves = "d4 c4 e4 g8 f4 a1 g5 a15 g6 o1 g7 o15";
        let pos = Position::from_moves(Rules::gomoku15(), moves).unwrap();
        let mut search = ThreatSearch::new();
        let run = |search: &mut ThreatSearch, pos: &Position, nodes| {
            search.run(&mut pos.clone(), &mut Threats::new(pos).unwrap(), ThreatLimits::vcf(nodes))
        };
        assert!(!run(&mut search, &pos, 1).found());
        assert!(run(&mut search, &pos, 100_000).found());
        let kept = run(&mut search, &pos, 1);
        assert!(kept.found() && kept.nodes == 1, "{kept:?}");
        assert_eq!(first(&pos, &kept), "g4");
        // Another game forgets it; so do other rules (the same stones).
        search.forget();
        assert!(!run(&mut search, &pos, 1).found());
        assert!(run(&mut search, &pos, 100_000).found());
        let exact = Rules::new(15, 15, 5, board::RuleSet::Exact).unwrap();
        assert!(!run(&mut search, &Position::from_moves(exact, moves).unwrap(), 1).found());
    }

    #[test]
    fn deepening_finds_a_short_win_that_a_straight_search_runs_past() {
        // Renju, from a game lost at a second a move: white (to move) wins
        // through threes in a few moves, but searched straight to the
        // VCT's full depth the first long lines take any budget.
        let moves = "h8 i9 j8 g8 i8 k8 i7 g9 h6 g5 j9 f9 h9 g7 g6";
        let pos = Position::from_moves(Rules::renju(), moves).unwrap();
        let search = |deepening| {
            let limits = ThreatLimits::vct(100_000).deepening(deepening);
            ThreatSearch::new().run(&mut pos.clone(), &mut Threats::new(&pos).unwrap(), limits)
        };
        let deepened = search(Deepening::Iterative);
        assert!(deepened.found() && deepened.nodes < 1_000, "{deepened:?}");
        assert!(deepened.plies <= 9, "{deepened:?}");
        let straight = search(Deepening::Straight);
        assert!(!straight.found() && straight.exhausted, "{straight:?}");
        // Fours alone do not win here: both ways end without a win.
        for deepening in [Deepening::Iterative, Deepening::Straight] {
            let limits = ThreatLimits::vcf(100_000).deepening(deepening);
            let win = ThreatSearch::new().run(&mut pos.clone(), &mut Threats::new(&pos).unwrap(), limits);
            assert!(!win.found() && !win.exhausted, "{win:?}");
        }
    }

    #[test]
    fn deepening_stops_once_no_line_reaches_the_depth() {
        // No three or four to make (h8 and j11 share no line): the first
        // iteration sees every line, and the search costs no more than a
        // straight one.
        let pos = Position::from_moves(Rules::gomoku15(), "h8 a1 j11 a2").unwrap();
        let nodes = |deepening| {
            let limits = ThreatLimits::vct(100_000).deepening(deepening);
            ThreatSearch::new().run(&mut pos.clone(), &mut Threats::new(&pos).unwrap(), limits).nodes
        };
        assert_eq!(nodes(Deepening::Iterative), nodes(Deepening::Straight));
    }

    #[test]
    fn no_win_where_there_is_none_by_either_view() {
        let rules = Rules::gomoku15();
        // Two lone marks; a closed three and nothing else; fours that
        // would ignore the defender's own four at o5.
        for moves in [
            &["h8", "a1", "j10", "a2"][..],
            &["h8", "h7", "h9", "a1", "h10", "a15"],
            &["h8", "o1", "h9", "o2", "h10", "o3", "a15", "o4"],
        ] {
            let pos = Position::from_moves(rules, &moves.join(" ")).unwrap();
            for win in both_views(&pos) {
                assert!(!win.found() && !win.exhausted, "{moves:?}: {:?}", win.line);
            }
        }
    }

    #[test]
    fn beyond_the_tables_fours_are_read_off_the_lines() {
        // k = 9 on 19 × 19: no threat tables. X: an open row of seven;
        // an eighth at either end leaves two cells that make nine.
        let rules = Rules::new(19, 19, 9, board::RuleSet::Freestyle).unwrap();
        assert!(Threats::new(&Position::new(rules)).is_err());
        let moves =
            ["c10", "a1", "d10", "a3", "e10", "a5", "f10", "a7", "g10", "a9", "h10", "a11", "i10", "a13"];
        let pos = Position::from_moves(rules, &moves.join(" ")).unwrap();
        let win = find_threat_win(&pos, ThreatLimits::vcf(10_000));
        assert!(win.found(), "{win:?}");
        assert!(["b10", "j10"].contains(&first(&pos, &win).as_str()), "{win:?}");
        assert_eq!(win.plies, 3);
        // Closed at b10, the row makes only a four: blocked, no win.
        let closed =
            ["c10", "b10", "d10", "a1", "e10", "a3", "f10", "a5", "g10", "a7", "h10", "a9", "i10", "a11"];
        assert!(
            !find_threat_win(
                &Position::from_moves(rules, &closed.join(" ")).unwrap(),
                ThreatLimits::vcf(10_000)
            )
            .found()
        );
        // With threes asked for, the lines still give fours alone.
        assert_eq!(find_threat_win(&pos, ThreatLimits::vct(10_000)).line, win.line);
    }
}
