//! Threat-space search over [`board::threats`]: victory by continuous
//! fours (VCF) and by continuous threats (VCT), for k from 4 to
//! [`board::threats::MAX_THREAT_K`].
//!
//! The attacker plays only threats: fours (the defender must block the
//! one cell) and, in a VCT, moves that make an open three (the defender
//! must stop the open four: on a cell of the attacker's line, or with a
//! four of its own). A line is won when every defence loses. Proofs are
//! sound, not complete: where the defender could answer a double threat
//! with fours of its own, the search treats the line as unproven.

use std::collections::HashMap;
use std::time::Instant;

use board::threats::{Pattern, Threats};
use board::{Bitboard, Cell, Direction, Position, Side};

/// Limits of one threat search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatLimits {
    /// Positions to visit at most.
    pub nodes: u64,
    /// Attacking moves to play at most.
    pub depth: u32,
    /// Whether the attacker may play open threes (VCT), not only fours (VCF).
    pub threes: bool,
    /// When to give up, whatever the node budget says.
    pub deadline: Option<Instant>,
}

impl ThreatLimits {
    /// A VCF search: fours only.
    #[must_use]
    pub const fn vcf(nodes: u64) -> ThreatLimits {
        ThreatLimits { nodes, depth: 40, threes: false, deadline: None }
    }

    /// A VCT search: fours and open threes.
    #[must_use]
    pub const fn vct(nodes: u64) -> ThreatLimits {
        ThreatLimits { nodes, depth: 10, threes: true, deadline: None }
    }

    /// These limits, ending at `deadline` at the latest.
    #[must_use]
    pub const fn until(self, deadline: Option<Instant>) -> ThreatLimits {
        ThreatLimits { deadline, ..self }
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

/// Looks for a forced win by threats for the side to move of `pos`.
///
/// # Errors
/// [`board::threats::UnsupportedThreatK`] for k above the tabled ones.
pub fn find_threat_win(
    pos: &Position,
    limits: ThreatLimits,
) -> Result<ThreatWin, board::threats::UnsupportedThreatK> {
    let mut threats = Threats::new(pos)?;
    let mut work = pos.clone();
    let mut search = ThreatSearch::new();
    Ok(search.run(&mut work, &mut threats, limits))
}

/// A reusable threat searcher: its proof cache and move lists are kept
/// between searches so that a searching engine allocates nothing per call.
#[derive(Debug, Default)]
pub struct ThreatSearch {
    nodes: u64,
    limits: Option<ThreatLimits>,
    exhausted: bool,
    /// By position hash: `Some((cell, plies))` won by playing `cell`, in
    /// `plies` along the line found; `None` not won within the depth
    /// stored beside it.
    cache: HashMap<u64, (Option<(Cell, u32)>, u32)>,
    /// Plies to the win along the line, when the last search won.
    win_plies: u32,
    line: Vec<Cell>,
    lists: Vec<Vec<Cell>>,
}

impl ThreatSearch {
    /// A searcher with an empty cache.
    #[must_use]
    pub fn new() -> ThreatSearch {
        ThreatSearch::default()
    }

    /// Searches `pos` (whose threats are `threats`) for a win of its side
    /// to move within `limits`; both are restored before it returns.
    pub fn run(&mut self, pos: &mut Position, threats: &mut Threats, limits: ThreatLimits) -> ThreatWin {
        self.nodes = 0;
        self.limits = Some(limits);
        self.exhausted = false;
        self.cache.clear();
        self.line.clear();
        let won = !pos.is_over() && self.attack(pos, threats, limits.depth, 0);
        ThreatWin {
            line: if won { self.line.clone() } else { Vec::new() },
            plies: if won { self.win_plies } else { 0 },
            nodes: self.nodes,
            exhausted: self.exhausted,
        }
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
    fn attack(&mut self, pos: &mut Position, threats: &mut Threats, depth: u32, level: usize) -> bool {
        if !self.budget_left() {
            return false;
        }
        let attacker = pos.side_to_move();
        let defender = attacker.opponent();
        if let Some(win) = threats.five_cells(attacker).iter().next() {
            self.line.push(win);
            self.win_plies = self.line.len() as u32;
            return true;
        }
        let defender_fives = threats.five_cells(defender);
        let mut fives = defender_fives.iter();
        if let Some(block) = fives.next() {
            if fives.next().is_some() {
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
        if !threats.open_four_cells(attacker).is_empty() && threats.four_cells(defender).is_empty() {
            // An open four the defender cannot answer with a four of its own.
            let four = threats.open_four_cells(attacker).iter().next().expect("not empty");
            self.line.push(four);
            // The four, any reply, the five.
            self.win_plies = self.line.len() as u32 + 2;
            return true;
        }
        if depth == 0 {
            return false;
        }
        let key = pos.hash();
        match self.cache.get(&key) {
            Some(&(Some((cell, plies)), _)) => {
                self.win_plies = self.line.len() as u32 + plies;
                self.line.push(cell);
                return true;
            }
            Some(&(None, searched)) if searched >= depth => return false,
            _ => {}
        }
        let threes = self.limits.is_some_and(|limits| limits.threes);
        let mut moves = self.list(level);
        let fours = threats.four_cells(attacker);
        moves.extend(fours);
        if threes {
            moves.extend(threats.open_three_cells(attacker) - fours);
        }
        // Strongest first: open fours and four-threes end lines soonest.
        moves.sort_by_key(|&cell| std::cmp::Reverse(threats.class(attacker, cell)));
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
        if won.is_some() || !self.exhausted {
            self.cache.insert(key, (won, depth));
        }
        won.is_some()
    }

    /// The defender (to move) cannot escape the attacker's threats.
    fn defend(&mut self, pos: &mut Position, threats: &mut Threats, depth: u32, level: usize) -> bool {
        if !self.budget_left() {
            return false;
        }
        let defender = pos.side_to_move();
        let attacker = defender.opponent();
        if pos.is_over() || !threats.five_cells(defender).is_empty() {
            return pos.outcome() == Some(board::Outcome::Win(attacker));
        }
        let attacker_fives = threats.five_cells(attacker);
        let mut replies = self.list(level);
        let mut fives = attacker_fives.iter();
        match (fives.next(), fives.next()) {
            // Two wins: only fours of its own can delay the loss.
            (Some(_), Some(_)) => replies.extend(threats.four_cells(defender)),
            (Some(block), None) => replies.push(block),
            (None, _) => {
                let open_fours = threats.open_four_cells(attacker);
                if open_fours.is_empty() {
                    // No threat stands: the defender is free.
                    self.lists[level] = replies;
                    return false;
                }
                let defences = three_defences(threats, attacker, open_fours) | threats.four_cells(defender);
                replies.extend(defences);
            }
        }
        let start = self.line.len();
        let mut end = start;
        let mut first_plies = 0;
        let mut lost = true;
        for (i, &reply) in replies.iter().enumerate() {
            play(pos, threats, reply);
            self.line.push(reply);
            let won = self.attack(pos, threats, depth, level + 1);
            undo(pos, threats);
            // The line shows the first defence only.
            if i == 0 && won {
                end = self.line.len();
                first_plies = self.win_plies;
            }
            self.line.truncate(end);
            if !won {
                lost = false;
                break;
            }
        }
        if lost && replies.is_empty() {
            // Two wins and no four to delay them: any reply, then a five.
            self.line.push(attacker_fives.iter().next().expect("a five cell"));
            first_plies = self.line.len() as u32 + 1;
        }
        self.win_plies = first_plies;
        self.lists[level] = replies;
        if !lost {
            self.line.truncate(start);
        }
        lost
    }
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

fn play(pos: &mut Position, threats: &mut Threats, cell: Cell) {
    pos.play_unchecked(cell);
    threats.play(pos, cell);
}

fn undo(pos: &mut Position, threats: &mut Threats) {
    if let Some(cell) = pos.undo() {
        threats.take_back(pos, cell);
    }
}
