//! Threat search: victory by continuous fours (VCF). The attacker plays
//! only moves that threaten to win at once, so every reply is forced; a
//! double threat the defender cannot answer ends it.

use board::{Bitboard, Cell, Direction, Position, Side};

/// Limits of one threat search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcfLimits {
    /// Positions to visit at most.
    pub nodes: u64,
    /// Fours to play at most.
    pub depth: u32,
}

impl Default for VcfLimits {
    fn default() -> VcfLimits {
        VcfLimits { nodes: 100_000, depth: 30 }
    }
}

/// What a threat search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vcf {
    /// The winning line: the attacker's fours and the forced replies,
    /// alternating, ending with the attacker's winning move or the four
    /// that threatens to win twice. Empty when none was found.
    pub line: Vec<Cell>,
    /// Positions visited.
    pub nodes: u64,
}

impl Vcf {
    /// Whether a forced win was found.
    #[must_use]
    pub fn found(&self) -> bool {
        !self.line.is_empty()
    }
}

/// Looks for a win by continuous fours for the side to move of `pos`.
/// A line it returns is a proof: every defender reply in it is forced
/// (any other loses at once), and the defender never had a win of its own.
#[must_use]
pub fn find_vcf(pos: &Position, limits: VcfLimits) -> Vcf {
    let mut search =
        Search { nodes: 0, limits, line: Vec::new(), fours: Vec::new(), completions: Vec::new() };
    let mut work = pos.clone();
    let found = !pos.is_over() && search.attack(&mut work, limits.depth);
    Vcf { line: if found { search.line } else { Vec::new() }, nodes: search.nodes }
}

struct Search {
    nodes: u64,
    limits: VcfLimits,
    line: Vec<Cell>,
    /// One list of four-making moves per level.
    fours: Vec<Vec<Cell>>,
    /// The winning cells a four made (read before going deeper).
    completions: Vec<Cell>,
}

/// The first two cells of `near` where `side` wins at once (no allocation:
/// engines ask this at every node).
#[inline]
pub(crate) fn winning_cells(pos: &Position, side: Side, near: Bitboard) -> [Option<Cell>; 2] {
    let mut wins = near.iter().filter(|&cell| pos.wins_at(cell, side));
    [wins.next(), wins.next()]
}

/// Empty cells next to `side`'s marks: where its wins can be.
fn next_to(pos: &Position, side: Side) -> Bitboard {
    pos.marks(side).dilate(pos.rules()) & pos.empty_cells()
}

impl Search {
    fn attack(&mut self, pos: &mut Position, depth: u32) -> bool {
        self.nodes += 1;
        if self.nodes > self.limits.nodes {
            return false;
        }
        let attacker = pos.side_to_move();
        let defender = attacker.opponent();
        if let [Some(win), _] = winning_cells(pos, attacker, next_to(pos, attacker)) {
            self.line.push(win);
            return true;
        }
        let threats = winning_cells(pos, defender, next_to(pos, defender));
        if depth == 0 || threats[1].is_some() {
            return false;
        }
        let level = depth as usize;
        if self.fours.len() <= level {
            self.fours.resize_with(level + 1, Vec::new);
        }
        let mut fours = std::mem::take(&mut self.fours[level]);
        four_moves(pos, attacker, &mut fours);
        let mut won = false;
        for &four in &fours {
            // With a defender threat on the board, only a four that blocks it.
            if threats[0].is_some_and(|threat| threat != four) {
                continue;
            }
            pos.play_unchecked(four);
            completions(pos, four, attacker, &mut self.completions);
            won = match self.completions.len() {
                0 => false,
                1 => {
                    // The defender must block; it has no win of its own.
                    let block = self.completions[0];
                    pos.play_unchecked(block);
                    self.line.extend([four, block]);
                    let won = self.attack(pos, depth - 1);
                    if !won {
                        self.line.truncate(self.line.len() - 2);
                    }
                    pos.undo();
                    won
                }
                _ => {
                    self.line.push(four);
                    true
                }
            };
            pos.undo();
            if won || self.nodes > self.limits.nodes {
                break;
            }
        }
        self.fours[level] = fours;
        won
    }
}

/// The cells where `side`, having just played `four`, now wins at once:
/// the empty cell of each k-segment through `four` that it nearly fills.
fn completions(pos: &Position, four: Cell, side: Side, cells: &mut Vec<Cell>) {
    cells.clear();
    // Marks besides `four` itself: k − 2 of them leave one empty cell.
    segments_through(pos, four, side, u32::from(pos.rules().k()) - 2, |segment_empty| {
        for cell in segment_empty {
            if !cells.contains(&cell) && pos.wins_at(cell, side) {
                cells.push(cell);
            }
        }
    });
}

/// Clears `out` and fills it with the empty cells where `side` makes a
/// four: a k-segment with k − 2 of its marks, none of the opponent's, and
/// the cell.
pub(crate) fn four_moves(pos: &Position, side: Side, out: &mut Vec<Cell>) {
    out.clear();
    let k = u32::from(pos.rules().k());
    if k < 2 {
        return;
    }
    // The cell and k − 2 marks leave one empty cell in the segment, so
    // the cell is within two steps of a mark.
    let near = pos.marks(side).dilate(pos.rules()).dilate(pos.rules()) & pos.empty_cells();
    for cell in near {
        let mut found = false;
        segments_through(pos, cell, side, k - 2, |_| found = true);
        if found {
            out.push(cell);
        }
    }
}

/// Calls `f` with the other empty cells of every k-segment through `cell`
/// on the board that holds exactly `marks` marks of `side` besides `cell`
/// and none of the opponent's.
fn segments_through(
    pos: &Position,
    cell: Cell,
    side: Side,
    marks: u32,
    mut f: impl FnMut(&mut dyn Iterator<Item = Cell>),
) {
    let rules = pos.rules();
    let k = u32::from(rules.k());
    let segment = (1u64 << k) - 1;
    for direction in Direction::ALL {
        let bit = direction.bit(cell);
        let own = u64::from(pos.line_bits(side, direction, cell)) & !(1 << bit);
        let theirs = u64::from(pos.line_bits(side.opponent(), direction, cell));
        let on_board = u64::from(rules.line_mask(direction, cell));
        for start in bit.saturating_sub(k - 1)..=bit {
            let window = segment << start;
            if window & !on_board != 0 || window & theirs != 0 || (window & own).count_ones() != marks {
                continue;
            }
            let (dx, dy) = direction.delta();
            let mut empty = (start..start + k).filter(|&b| b != bit && own >> b & 1 == 0).filter_map(|b| {
                let steps = b as i32 - bit as i32;
                rules.cell(i32::from(cell.x()) + dx * steps, i32::from(cell.y()) + dy * steps)
            });
            f(&mut empty);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use board::Rules;

    fn position(rules: board::Rules, moves: &[&str]) -> Position {
        let mut pos = Position::new(rules);
        for name in moves {
            pos.play(rules.parse_cell(name).unwrap()).unwrap();
        }
        pos
    }

    #[test]
    fn finds_a_win_in_one_and_an_open_four() {
        let rules = Rules::gomoku15();
        // X to move with four in a row: wins at once.
        let pos = position(rules, &["h8", "a1", "h9", "a2", "h10", "a4", "h11", "a6"]);
        let vcf = find_vcf(&pos, VcfLimits::default());
        assert!(["h7", "h12"].contains(&vcf.line[0].name(&rules).to_string().as_str()));
        assert_eq!(vcf.line.len(), 1);
        // Three in a row, open: h7 or h11 makes an open four.
        let pos = position(rules, &["h8", "a1", "h9", "a3", "h10", "a5"]);
        let vcf = find_vcf(&pos, VcfLimits::default());
        assert!(vcf.found());
        assert_eq!(vcf.line.len(), 1, "{:?}", vcf.line);
    }

    #[test]
    fn finds_a_chain_of_fours() {
        let rules = Rules::gomoku15();
        // X: d4 e4 f4 (closed by O at c4) and g5 g6 g7 (closed by O at g8):
        // g4 makes a four on row 4 (h4 forced) and one on column g
        // together — a double four.
        let pos =
            position(rules, &["d4", "c4", "e4", "g8", "f4", "a1", "g5", "a15", "g6", "o1", "g7", "o15"]);
        let vcf = find_vcf(&pos, VcfLimits::default());
        assert!(vcf.found());
        assert_eq!(vcf.line[0].name(&rules).to_string(), "g4", "{:?}", vcf.line);
    }

    #[test]
    fn reports_none_where_there_is_none() {
        let rules = Rules::gomoku15();
        // Two lone marks: no four can even be made.
        let pos = position(rules, &["h8", "a1", "j10", "a2"]);
        let vcf = find_vcf(&pos, VcfLimits::default());
        assert!(!vcf.found());
        // A closed three and nothing else: one four, blocked, then nothing.
        let pos = position(rules, &["h8", "h7", "h9", "a1", "h10", "a15"]);
        let vcf = find_vcf(&pos, VcfLimits::default());
        assert!(!vcf.found());
        // The defender's own four must be answered: X cannot win by fours
        // that ignore O's threat at o5.
        let pos = position(rules, &["h8", "o1", "h9", "o2", "h10", "o3", "a15", "o4"]);
        let vcf = find_vcf(&pos, VcfLimits::default());
        assert!(!vcf.found(), "{:?}", vcf.line);
    }
}
