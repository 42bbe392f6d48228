//! The pattern tables: how each side's fives are judged along a line
//! (the line rule), what every neighbourhood of a cell makes for a side
//! (built on first use, per k and line rule), and the fast lookup of both
//! sides' patterns from a narrow neighbourhood.

use std::sync::OnceLock;

use crate::{Cell, Direction, Position, RuleSet, Rules, Side};

use super::{FinePattern, MAX_THREAT_K, Pattern, UnsupportedThreats};

/// Whether the threat tables know `rules`' rule set (every one but
/// caro-freestyle, whose longer lines' far ends lie past the cells a
/// table reads); k is a separate matter ([`MAX_THREAT_K`]).
#[must_use]
pub fn tables_rule_set(rules: Rules) -> bool {
    LineRule::of_rule_set(rules.rule_set()).is_some()
}
/// How one side's fives are judged along a line: what a pattern table is
/// built for. Renju gives the two sides different ones (black exact,
/// white freestyle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineRule {
    /// k or more in a row.
    Freestyle,
    /// Exactly k in a row.
    Exact,
    /// Exactly k in a row, not closed at both ends by opponent marks (the
    /// board's edge closes nothing).
    Caro,
}

impl LineRule {
    const ALL: [LineRule; 3] = [LineRule::Freestyle, LineRule::Exact, LineRule::Caro];

    /// The line rules of X and O under `rules`.
    pub(super) fn of(rules: Rules) -> Result<[LineRule; 2], UnsupportedThreats> {
        let k = rules.k();
        if k == 0 || k > MAX_THREAT_K {
            return Err(UnsupportedThreats::K(k));
        }
        LineRule::of_rule_set(rules.rule_set()).ok_or(UnsupportedThreats::Rules(rules.rule_set()))
    }

    /// The line rules of X and O under `rule_set`, if it is tabled.
    pub(super) const fn of_rule_set(rule_set: RuleSet) -> Option<[LineRule; 2]> {
        match rule_set {
            RuleSet::Freestyle => Some([LineRule::Freestyle; 2]),
            RuleSet::Exact => Some([LineRule::Exact; 2]),
            RuleSet::Renju => Some([LineRule::Exact, LineRule::Freestyle]),
            RuleSet::Caro => Some([LineRule::Caro; 2]),
            // A longer line's far end may lie past any neighbourhood.
            RuleSet::CaroFreestyle => None,
        }
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// The pattern table of one k and line rule: by the marks within k cells
/// on each side of the (empty) centre, its [`FinePattern`].
#[derive(Debug)]
pub(super) struct PatternTable {
    pub(super) k: u32,
    /// Whether a side state also says if the cell past its free ones is an
    /// opponent mark (caro: a five closed at both ends does not win).
    pub(super) ends: bool,
    pub(super) rule: LineRule,
    /// States of one side: `2^(k+1) − 1` (see [`side_state`]), twice
    /// that with `ends`.
    pub(super) side_states: usize,
    pub(super) patterns: Vec<u8>,
}

/// The state of one side of the centre: how many cells up to k lie
/// before the first blocked one (an opponent mark or the board's edge),
/// and which of those hold own marks. Cells past a block cannot be in a
/// run through the centre. Numbered `2^free − 1 + own`, so all fit below
/// `2^(k+1) − 1`.
#[inline]
pub(super) fn side_state(own: u32, blocked: u32, k: u32) -> usize {
    let free = blocked.trailing_zeros().min(k);
    let own = own & ((1 << free) - 1);
    ((1_usize << free) - 1) + own as usize
}

impl PatternTable {
    pub(super) fn build(k: u32, rule: LineRule) -> PatternTable {
        let ends = rule == LineRule::Caro;
        let side_states = ((1_usize << (k + 1)) - 1) << usize::from(ends);
        let mut table =
            PatternTable { k, ends, rule, side_states, patterns: vec![u8::MAX; side_states * side_states] };
        // Fill by memoised recursion: a state's pattern follows from those
        // with one more own mark, which are fewer in number each time.
        for state in 0..table.patterns.len() {
            table.solve(state);
        }
        table
    }

    /// The state of one side of the centre (see [`side_state`]), with the
    /// bit for an opponent's mark just past the free cells where the
    /// table keeps it.
    #[inline]
    pub(super) fn state(&self, own: u32, blocked: u32, opponent: u32) -> usize {
        let state = side_state(own, blocked, self.k);
        if self.ends {
            let free = blocked.trailing_zeros().min(self.k);
            2 * state + usize::from(free < self.k && opponent >> free & 1 == 1)
        } else {
            state
        }
    }

    /// `(free cells, own bits, closed by the opponent)` of a side state.
    pub(super) fn decode_side(&self, state: usize) -> (u32, u32, bool) {
        let (base, closed) = if self.ends { (state / 2, state % 2 == 1) } else { (state, false) };
        let (free, own) = Self::decode(base);
        (free, own, closed)
    }

    pub(super) fn encode_side(&self, free: u32, own: u32, closed: bool) -> usize {
        let base = Self::encode(free, own);
        if self.ends { 2 * base + usize::from(closed) } else { base }
    }

    /// `(free cells, own bits)` of a side state.
    pub(super) fn decode(state: usize) -> (u32, u32) {
        let free = (state + 1).ilog2();
        (free, (state + 1 - (1 << free)) as u32)
    }

    pub(super) fn encode(free: u32, own: u32) -> usize {
        ((1_usize << free) - 1) + own as usize
    }

    pub(super) fn solve(&mut self, state: usize) -> FinePattern {
        if self.patterns[state] != u8::MAX {
            return FinePattern::from_index(self.patterns[state]);
        }
        let (left, right) = (state / self.side_states, state % self.side_states);
        let (left_free, left_own, left_closed) = self.decode_side(left);
        let (right_free, right_own, right_closed) = self.decode_side(right);
        let (left_run, right_run) = (left_own.trailing_ones(), right_own.trailing_ones());
        let run = left_run + right_run + 1;
        // A run's end is closed when it reaches the opponent's mark.
        let closed = |run: u32, free: u32, closed: bool| run == free && closed;
        let five = match self.rule {
            LineRule::Freestyle => run >= self.k,
            LineRule::Exact => run == self.k,
            LineRule::Caro => {
                run == self.k
                    && !(closed(left_run, left_free, left_closed)
                        && closed(right_run, right_free, right_closed))
            }
        };
        let pattern = if five {
            FinePattern::Five
        } else {
            let (mut fives, mut open_fours, mut open_threes) = (0, 0, 0);
            let mut best = Pattern::None;
            for (side, free, own, closed) in
                [(0, left_free, left_own, left_closed), (1, right_free, right_own, right_closed)]
            {
                for step in 0..free {
                    if own >> step & 1 == 1 {
                        continue;
                    }
                    let more = self.encode_side(free, own | 1 << step, closed);
                    let next = if side == 0 {
                        more * self.side_states + right
                    } else {
                        left * self.side_states + more
                    };
                    match self.solve(next).pattern() {
                        Pattern::Five => fives += 1,
                        other => {
                            open_fours += u32::from(other == Pattern::OpenFour);
                            open_threes += u32::from(other == Pattern::OpenThree);
                            best = best.max(other.weaker());
                        }
                    }
                }
            }
            match fives {
                0 => FinePattern::refine(best, open_threes, open_fours),
                1 => FinePattern::Four,
                _ => FinePattern::OpenFour,
            }
        };
        self.patterns[state] = pattern as u8;
        pattern
    }

    /// The fine pattern of `side` at the empty `cell` in `direction`.
    #[inline]
    pub(super) fn lookup(&self, pos: &Position, side: Side, direction: Direction, cell: Cell) -> FinePattern {
        let own = pos.line_bits(side, direction, cell);
        let opponent = pos.line_bits(side.opponent(), direction, cell);
        self.lookup_bits(own, opponent, !pos.rules().line_mask(direction, cell), direction.bit(cell))
    }

    /// The fine pattern at bit `bit` of a line whose own marks are `own`,
    /// whose opponent marks are `opponent` and whose off-board bits are
    /// `walls`.
    #[inline]
    pub(super) fn lookup_bits(&self, own: u32, opponent: u32, walls: u32, bit: u32) -> FinePattern {
        self.lookup_line(&LineWords::new(own, opponent, walls), bit)
    }

    /// The fine pattern at bit `bit` of `line`.
    #[inline]
    pub(super) fn lookup_line(&self, line: &LineWords, bit: u32) -> FinePattern {
        // Right: bit + 1 upwards, as bits 0, 1, …; past bit 31 is blocked.
        let up = |word: u64| (word >> (bit + 1)) as u32;
        let right = self.state(up(line.own), up(line.blocked), up(line.opponent));
        // Left: bit − 1 downwards, which is upwards in the reversed words.
        let mirrored = 32 - bit;
        let down = |word: u64| (word >> mirrored) as u32;
        let left =
            self.state(down(line.own_reversed), down(line.blocked_reversed), down(line.opponent_reversed));
        FinePattern::from_index(self.patterns[left * self.side_states + right])
    }
}

/// One side's view of a line, and its mirror image, as 64-bit words whose
/// bits past the line's 32 are blocked: read once, it serves every cell on
/// the line.
pub(super) struct LineWords {
    pub(super) own: u64,
    /// Opponent marks and off-board bits.
    pub(super) blocked: u64,
    /// Opponent marks alone.
    pub(super) opponent: u64,
    pub(super) own_reversed: u64,
    pub(super) blocked_reversed: u64,
    pub(super) opponent_reversed: u64,
}

impl LineWords {
    #[inline]
    pub(super) fn new(own: u32, opponent: u32, walls: u32) -> LineWords {
        let blocked = opponent | walls;
        LineWords {
            own: u64::from(own),
            blocked: u64::from(blocked) | !0 << 32,
            opponent: u64::from(opponent),
            own_reversed: u64::from(own.reverse_bits()),
            blocked_reversed: u64::from(blocked.reverse_bits()) | !0 << 32,
            opponent_reversed: u64::from(opponent.reverse_bits()),
        }
    }
}
/// The table of k and `rule`, built on first use.
pub(super) fn table(k: u8, rule: LineRule) -> &'static PatternTable {
    const TABLES: usize = MAX_THREAT_K as usize + 1;
    static TABLES_BY_RULE: [[OnceLock<PatternTable>; TABLES]; LineRule::ALL.len()] =
        [const { [const { OnceLock::new() }; TABLES] }; LineRule::ALL.len()];
    TABLES_BY_RULE[rule.index()][usize::from(k)].get_or_init(|| PatternTable::build(u32::from(k), rule))
}

/// The tables of X and O under `rules`.
pub(super) fn tables(rules: Rules) -> Result<[&'static PatternTable; 2], UnsupportedThreats> {
    Ok(LineRule::of(rules)?.map(|rule| table(rules.k(), rule)))
}

/// Both sides' patterns at a cell from its neighbourhood along one line,
/// read in one step: the hot path of [`Threats::update`].
///
/// The neighbourhood is the `radius` cells on each side of the (empty)
/// centre, 2 bits a cell (empty, X, O, off the board); a side's pattern
/// depends on nothing further (freestyle: k − 1 cells, exact: k). The
/// entry holds X's fine pattern in bits 0–3 and O's in bits 4–7.
#[derive(Debug)]
pub(super) struct WindowTable {
    pub(super) radius: u32,
    pub(super) entries: Vec<u8>,
}

/// The widest neighbourhood tabled by [`WindowTable`]: `4^(2·5)` one-byte
/// entries, 1 MiB.
pub(super) const MAX_WINDOW_RADIUS: u32 = 5;

/// Two bits a cell: what a line's cell holds.
pub(super) const X_CODE: u64 = 1;
pub(super) const O_CODE: u64 = 2;
pub(super) const WALL_CODE: u64 = 3;

impl WindowTable {
    pub(super) fn build([x_table, o_table]: [&PatternTable; 2], radius: u32) -> WindowTable {
        let cells = 2 * radius;
        let entries = (0..1_usize << (2 * cells))
            .map(|index| {
                // The line: the window's cells around bit `radius`, walls beyond.
                let (mut x, mut o) = (0_u32, 0_u32);
                let mut walls = !0_u32 << (cells + 1);
                for j in 0..cells {
                    let bit = if j < radius { j } else { j + 1 };
                    match (index >> (2 * j)) & 3 {
                        1 => x |= 1 << bit,
                        2 => o |= 1 << bit,
                        3 => walls |= 1 << bit,
                        _ => {}
                    }
                }
                let for_x = x_table.lookup_bits(x, o, walls, radius);
                let for_o = o_table.lookup_bits(o, x, walls, radius);
                for_x as u8 | (for_o as u8) << 4
            })
            .collect();
        WindowTable { radius, entries }
    }

    /// A line's cells, 2 bits each, bit `i` of the line words at bits
    /// `2(i + radius)`: walls below the line, past `off_board` and past
    /// its 32 cells.
    #[inline]
    pub(super) fn pack(&self, x: u32, o: u32, off_board: u32) -> u128 {
        let line = (spread(x) * X_CODE) | (spread(o) * O_CODE) | (spread(off_board) * WALL_CODE);
        let pad = 2 * self.radius;
        (u128::from(line) << pad) | ((1 << pad) - 1) | (!0_u128 << (64 + pad))
    }

    /// Both sides' fine patterns (see [`WindowTable`]) at bit `bit` of a line
    /// packed by [`WindowTable::pack`].
    #[inline]
    pub(super) fn lookup(&self, packed: u128, bit: u32) -> u8 {
        let r = self.radius;
        let window = (packed >> (2 * bit)) as u64;
        let below = window & ((1 << (2 * r)) - 1);
        let above = (window >> (2 * r + 2)) & ((1 << (2 * r)) - 1);
        self.entries[(below | above << (2 * r)) as usize]
    }
}

/// The bits of `word` spread to every other bit: bit `i` to bit `2i`.
#[inline]
pub(super) fn spread(word: u32) -> u64 {
    let mut x = u64::from(word);
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

/// The window table for `rules`, built on first use; `None` where the
/// neighbourhood is wider than [`MAX_WINDOW_RADIUS`].
pub(super) fn window_table(rules: Rules) -> Result<Option<&'static WindowTable>, UnsupportedThreats> {
    const TABLES: usize = MAX_THREAT_K as usize + 1;
    /// Freestyle, exact, renju, caro: the pairs of line rules.
    const PAIRS: usize = 4;
    static WINDOWS: [[OnceLock<WindowTable>; TABLES]; PAIRS] =
        [const { [const { OnceLock::new() }; TABLES] }; PAIRS];
    let pair = match LineRule::of(rules)? {
        [LineRule::Freestyle, _] => 0,
        [LineRule::Exact, LineRule::Exact] => 1,
        [LineRule::Exact, _] => 2,
        [LineRule::Caro, _] => 3,
    };
    let radius = update_radius(rules);
    if radius > MAX_WINDOW_RADIUS {
        return Ok(None);
    }
    let pair_tables = tables(rules)?;
    Ok(Some(WINDOWS[pair][usize::from(rules.k())].get_or_init(|| WindowTable::build(pair_tables, radius))))
}

/// How far along a line a mark changes patterns: k cells, but under
/// freestyle k − 1, since only an overline would reach further.
pub(super) fn update_radius(rules: Rules) -> u32 {
    u32::from(rules.k()) - u32::from(rules.rule_set() == RuleSet::Freestyle)
}

/// The pattern of `side` at the empty `cell` in `direction`, by table.
///
/// # Errors
/// [`UnsupportedThreats`] for k above [`MAX_THREAT_K`] or rules not tabled.
pub fn pattern_at(
    pos: &Position,
    side: Side,
    cell: Cell,
    direction: Direction,
) -> Result<Pattern, UnsupportedThreats> {
    Ok(fine_pattern_at(pos, side, cell, direction)?.pattern())
}

/// The fine pattern of `side` at the empty `cell` in `direction`, by table.
///
/// # Errors
/// [`UnsupportedThreats`] for k above [`MAX_THREAT_K`] or rules not tabled.
pub fn fine_pattern_at(
    pos: &Position,
    side: Side,
    cell: Cell,
    direction: Direction,
) -> Result<FinePattern, UnsupportedThreats> {
    Ok(tables(*pos.rules())?[side.index()].lookup(pos, side, direction, cell))
}
