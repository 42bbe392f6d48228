//! The rules of an m,n,k-game: board size, line length, and which lines
//! win (the rule set: freestyle, exactly k, renju or caro).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{Cell, Transform};

/// The largest width or height a board may have.
pub const MAX_SIZE: u8 = 32;

/// Which lines win: whether a line longer than k does, and the two rule
/// sets of gomoku tournaments that say more (five in a row only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleSet {
    /// k or more in a row wins (freestyle gomoku, tic-tac-toe).
    #[default]
    Freestyle,
    /// Exactly k in a row wins; longer lines do not (standard gomoku).
    Exact,
    /// Renju (the RIF's rules): black (X) wins with exactly five and may
    /// not play an overline, a double four or a double three
    /// ([`crate::renju`]); white wins with five or more.
    Renju,
    /// Caro (the Gomocup's rule): exactly five wins, and only if at least
    /// one of its two ends is not the opponent's stone.
    Caro,
    /// Caro in which a longer line wins too, on the same condition
    /// (Piskvork's rule 8).
    CaroFreestyle,
}

impl RuleSet {
    /// The number the Gomocup protocol's `INFO rule` and SGF's `RU` give
    /// it: 0 freestyle, 1 exactly five, 4 renju, and 9 caro (Piskvork's
    /// caro with exactly five).
    #[must_use]
    pub const fn rule_number(self) -> u64 {
        match self {
            RuleSet::Freestyle => 0,
            RuleSet::Exact => 1,
            RuleSet::Renju => 4,
            RuleSet::CaroFreestyle => 8,
            RuleSet::Caro => 9,
        }
    }

    /// The rule set a manager's `INFO rule` (or a file's `RU`) names: the
    /// protocol's bits (1 exactly five, 4 renju, 8 caro) and the values of
    /// managers that read otherwise — 2 is renju to Yixin Board and Rapfi,
    /// 5 and 6 freestyle with swap1 and swap2 (the manager runs the
    /// opening), 9 Piskvork's caro with exactly five.
    ///
    /// # Errors
    /// A value we do not play, and which we do.
    pub fn from_rule_number(rule: u64) -> Result<RuleSet, String> {
        match rule {
            0 | 5 | 6 => Ok(RuleSet::Freestyle),
            1 => Ok(RuleSet::Exact),
            2 | 4 => Ok(RuleSet::Renju),
            8 => Ok(RuleSet::CaroFreestyle),
            9 => Ok(RuleSet::Caro),
            _ => {
                Err("not a rule we play: 0 freestyle, 1 exactly five, 2 or 4 renju, 8 caro (five or more), \
                      9 caro (exactly five), 5 and 6 freestyle with swap1 and swap2"
                    .to_owned())
            }
        }
    }

    /// As the rules string writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Freestyle => "freestyle",
            RuleSet::Exact => "exact",
            RuleSet::Renju => "renju",
            RuleSet::Caro => "caro",
            RuleSet::CaroFreestyle => "caro-freestyle",
        }
    }
}

/// A bad board size, line length or rules string.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// Width or height outside `1..=32`.
    #[error("{what} must be between 1 and {MAX_SIZE}, got {value}")]
    BadSize {
        /// `"width"` or `"height"`.
        what: &'static str,
        /// The value given.
        value: u32,
    },
    /// Renju or caro with a k other than five.
    #[error("{rule} is played with five in a row, not k = {k}")]
    NotFive {
        /// The rule set.
        rule: &'static str,
        /// The k given.
        k: u32,
    },
    /// k outside `1..=max(width, height)`.
    #[error("k must be between 1 and {max} (the longer side of the board), got {k}")]
    BadK {
        /// The k given.
        k: u32,
        /// The largest k this board allows.
        max: u8,
    },
    /// A rules string that is not `W,H,K[,rule]` or a preset name.
    #[error(
        "cannot read rules {text:?}: {reason}; write W,H,K[,exact|freestyle|renju|caro|caro-freestyle] \
         (e.g. 15,15,5) or one of tictactoe, five8x8, gomoku15, gomoku20, renju, caro"
    )]
    Syntax {
        /// The text given.
        text: String,
        /// What was wrong with it.
        reason: String,
    },
}

/// Board size, line length and rule set of one m,n,k-game.
///
/// Always valid: every constructor checks `1 ≤ width, height ≤ 32` and
/// `1 ≤ k ≤ max(width, height)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawRules", into = "RawRules")]
pub struct Rules {
    width: u8,
    height: u8,
    k: u8,
    rule_set: RuleSet,
}

impl Rules {
    /// Rules for a `width` × `height` board where `k` in a row wins.
    ///
    /// # Errors
    /// [`RulesError`] if a size is outside `1..=32` or `k` outside
    /// `1..=max(width, height)`.
    pub fn new(width: u32, height: u32, k: u32, rule_set: RuleSet) -> Result<Rules, RulesError> {
        for (what, value) in [("width", width), ("height", height)] {
            if value == 0 || value > u32::from(MAX_SIZE) {
                return Err(RulesError::BadSize { what, value });
            }
        }
        let max = width.max(height) as u8;
        if k == 0 || k > u32::from(max) {
            return Err(RulesError::BadK { k, max });
        }
        if !matches!(rule_set, RuleSet::Freestyle | RuleSet::Exact) && k != 5 {
            return Err(RulesError::NotFive { rule: rule_set.name(), k });
        }
        Ok(Rules { width: width as u8, height: height as u8, k: k as u8, rule_set })
    }

    /// Tic-tac-toe: 3×3, three in a row.
    #[must_use]
    pub const fn tic_tac_toe() -> Rules {
        Rules::preset(3, 3, 3)
    }

    /// Five in a row on 8×8, the board of the classic weight-evolution run.
    #[must_use]
    pub const fn five_8x8() -> Rules {
        Rules::preset(8, 8, 5)
    }

    /// Freestyle gomoku on 15×15.
    #[must_use]
    pub const fn gomoku15() -> Rules {
        Rules::preset(15, 15, 5)
    }

    /// Freestyle gomoku on 20×20, the Gomocup tournament board.
    #[must_use]
    pub const fn gomoku20() -> Rules {
        Rules::preset(20, 20, 5)
    }

    const fn preset(width: u8, height: u8, k: u8) -> Rules {
        Rules { width, height, k, rule_set: RuleSet::Freestyle }
    }

    /// Renju on 15×15, the RIF's board.
    #[must_use]
    pub const fn renju() -> Rules {
        Rules { rule_set: RuleSet::Renju, ..Rules::preset(15, 15, 5) }
    }

    /// Caro on 15×15.
    #[must_use]
    pub const fn caro() -> Rules {
        Rules { rule_set: RuleSet::Caro, ..Rules::preset(15, 15, 5) }
    }

    /// The same rules with another rule set.
    #[must_use]
    pub const fn with_rule_set(self, rule_set: RuleSet) -> Rules {
        Rules { rule_set, ..self }
    }

    /// Number of columns.
    #[inline]
    #[must_use]
    pub const fn width(&self) -> u8 {
        self.width
    }

    /// Number of rows.
    #[inline]
    #[must_use]
    pub const fn height(&self) -> u8 {
        self.height
    }

    /// Marks in a row needed to win.
    #[inline]
    #[must_use]
    pub const fn k(&self) -> u8 {
        self.k
    }

    /// Which lines win.
    #[inline]
    #[must_use]
    pub const fn rule_set(&self) -> RuleSet {
        self.rule_set
    }

    /// Whether `side` wins only with exactly k in a row (an overline does
    /// not win for it).
    #[inline]
    #[must_use]
    pub const fn exact_for(&self, side: crate::Side) -> bool {
        match self.rule_set {
            RuleSet::Freestyle | RuleSet::CaroFreestyle => false,
            RuleSet::Exact | RuleSet::Caro => true,
            RuleSet::Renju => matches!(side, crate::Side::X),
        }
    }

    /// Whether these rules forbid `side` some empty points (renju's
    /// black: overlines, double fours, double threes).
    #[inline]
    #[must_use]
    pub const fn forbids(&self, side: crate::Side) -> bool {
        matches!(self.rule_set, RuleSet::Renju) && matches!(side, crate::Side::X)
    }

    /// Whether these rules forbid either side any points.
    #[inline]
    #[must_use]
    pub const fn forbids_any(&self) -> bool {
        matches!(self.rule_set, RuleSet::Renju)
    }

    /// Whether every line of k or more of a side's marks wins, whatever
    /// lies around it (freestyle): no other test of a line is needed.
    #[inline]
    #[must_use]
    pub const fn every_long_line_wins(&self) -> bool {
        matches!(self.rule_set, RuleSet::Freestyle)
    }

    /// Whether a five closed at both ends by the opponent does not win.
    #[inline]
    #[must_use]
    pub const fn is_caro(&self) -> bool {
        matches!(self.rule_set, RuleSet::Caro | RuleSet::CaroFreestyle)
    }

    /// Whether the rules are the plain ones every engine plays (freestyle
    /// or exactly k), not a rule set with forbidden points or blocked
    /// fives.
    #[inline]
    #[must_use]
    pub const fn is_plain(&self) -> bool {
        matches!(self.rule_set, RuleSet::Freestyle | RuleSet::Exact)
    }

    /// Number of cells.
    #[inline]
    #[must_use]
    pub const fn area(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Whether width equals height (and so the board has 8 symmetries).
    #[inline]
    #[must_use]
    pub const fn is_square(&self) -> bool {
        self.width == self.height
    }

    /// The cell at column `x`, row `y` (0,0 top-left), if it is on the board.
    #[inline]
    #[must_use]
    pub fn cell(&self, x: i32, y: i32) -> Option<Cell> {
        if (0..i32::from(self.width)).contains(&x) && (0..i32::from(self.height)).contains(&y) {
            Some(Cell::new(x as u8, y as u8))
        } else {
            None
        }
    }

    /// Whether `cell` lies on this board.
    #[inline]
    #[must_use]
    pub const fn contains(&self, cell: Cell) -> bool {
        cell.x() < self.width && cell.y() < self.height
    }

    /// Every cell of the board, row by row from the top-left.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let (width, height) = (self.width, self.height);
        (0..height).flat_map(move |y| (0..width).map(move |x| Cell::new(x, y)))
    }

    /// A dense index `y * width + x` in `0..area()`, for per-board arrays.
    #[inline]
    #[must_use]
    pub const fn dense_index(&self, cell: Cell) -> usize {
        cell.y() as usize * self.width as usize + cell.x() as usize
    }

    /// The symmetries of this board: 8 on a square board, 4 otherwise.
    #[must_use]
    pub fn symmetries(&self) -> &'static [Transform] {
        if self.is_square() { &Transform::ALL } else { &Transform::ALL[..4] }
    }
}

impl fmt::Display for Rules {
    /// The form [`Rules::from_str`] reads back: `15,15,5`, `15,15,5,exact`,
    /// `15,15,5,renju`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{},{}", self.width, self.height, self.k)?;
        if self.rule_set != RuleSet::Freestyle {
            write!(f, ",{}", self.rule_set.name())?;
        }
        Ok(())
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Reads `W,H,K` with an optional `,exact`, `,freestyle`, `,renju`,
    /// `,caro` or `,caro-freestyle`, or a preset name: `tictactoe`,
    /// `five8x8`, `gomoku15`, `gomoku20`, `renju`, `caro`.
    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let syntax = |reason: &str| RulesError::Syntax { text: text.to_owned(), reason: reason.to_owned() };
        let trimmed = text.trim().to_ascii_lowercase();
        match trimmed.as_str() {
            "tictactoe" | "tic-tac-toe" => return Ok(Rules::tic_tac_toe()),
            "five8x8" => return Ok(Rules::five_8x8()),
            "gomoku15" | "gomoku" => return Ok(Rules::gomoku15()),
            "gomoku20" => return Ok(Rules::gomoku20()),
            "renju" => return Ok(Rules::renju()),
            "caro" => return Ok(Rules::caro()),
            _ => {}
        }
        let parts: Vec<&str> = trimmed.split(',').map(str::trim).collect();
        if !(3..=4).contains(&parts.len()) {
            return Err(syntax("expected three numbers and an optional rule"));
        }
        let mut numbers = [0_u32; 3];
        for (number, (part, name)) in numbers.iter_mut().zip(parts.iter().zip(["width", "height", "k"])) {
            *number = part.parse().map_err(|_| syntax(&format!("{name} {part:?} is not a whole number")))?;
        }
        let rule_set = match parts.get(3).copied() {
            None | Some("freestyle") => RuleSet::Freestyle,
            Some("exact" | "standard") => RuleSet::Exact,
            Some("renju") => RuleSet::Renju,
            Some("caro") => RuleSet::Caro,
            Some("caro-freestyle") => RuleSet::CaroFreestyle,
            Some(other) => {
                return Err(syntax(&format!(
                    "the rule must be freestyle, exact, renju, caro or caro-freestyle, not {other:?}"
                )));
            }
        };
        Rules::new(numbers[0], numbers[1], numbers[2], rule_set)
    }
}

/// The serialised form, validated on the way in.
#[derive(Serialize, Deserialize)]
struct RawRules {
    width: u32,
    height: u32,
    k: u32,
    /// Written `rule_set`; files of earlier versions say `overline`
    /// (bincode reads by position: the field stays last).
    #[serde(default, rename = "rule_set", alias = "overline")]
    rule_set: RuleSet,
}

impl From<Rules> for RawRules {
    fn from(rules: Rules) -> Self {
        RawRules {
            width: rules.width.into(),
            height: rules.height.into(),
            k: rules.k.into(),
            rule_set: rules.rule_set,
        }
    }
}

impl TryFrom<RawRules> for Rules {
    type Error = RulesError;

    fn try_from(raw: RawRules) -> Result<Self, RulesError> {
        Rules::new(raw.width, raw.height, raw.k, raw.rule_set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets() {
        assert_eq!(Rules::tic_tac_toe().to_string(), "3,3,3");
        assert_eq!(Rules::five_8x8().to_string(), "8,8,5");
        assert_eq!(Rules::gomoku15().to_string(), "15,15,5");
        assert_eq!(Rules::gomoku20().area(), 400);
    }

    #[test]
    fn validates_sizes_and_k() {
        assert!(Rules::new(32, 32, 32, RuleSet::Freestyle).is_ok());
        assert!(Rules::new(1, 1, 1, RuleSet::Exact).is_ok());
        assert!(Rules::new(3, 7, 7, RuleSet::Freestyle).is_ok());
        assert_eq!(
            Rules::new(0, 3, 3, RuleSet::Freestyle),
            Err(RulesError::BadSize { what: "width", value: 0 })
        );
        assert_eq!(
            Rules::new(3, 33, 3, RuleSet::Freestyle),
            Err(RulesError::BadSize { what: "height", value: 33 })
        );
        assert_eq!(Rules::new(3, 3, 4, RuleSet::Freestyle), Err(RulesError::BadK { k: 4, max: 3 }));
        assert!(Rules::new(3, 3, 0, RuleSet::Freestyle).is_err());
    }

    #[test]
    fn parses_and_prints() {
        let rules: Rules = "15,15,5,exact".parse().unwrap();
        assert_eq!(rules.rule_set(), RuleSet::Exact);
        assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
        assert_eq!(" 3, 3, 3 ".parse::<Rules>().unwrap(), Rules::tic_tac_toe());
        assert_eq!("Gomoku15".parse::<Rules>().unwrap(), Rules::gomoku15());
        for bad in ["", "3,3", "3,3,3,3,3", "a,3,3", "3,3,3,swap", "40,40,5", "3,3,9"] {
            let err = bad.parse::<Rules>().unwrap_err().to_string();
            assert!(!err.is_empty(), "{bad}");
        }
        let err = "3,x,3".parse::<Rules>().unwrap_err().to_string();
        assert!(err.contains("height \"x\" is not a whole number"), "{err}");
        // Renju and caro: five in a row only, on any board size.
        for (text, rules) in [("renju", Rules::renju()), ("caro", Rules::caro())] {
            assert_eq!(text.parse::<Rules>().unwrap(), rules);
            assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
        }
        assert_eq!("20,20,5,renju".parse::<Rules>().unwrap().rule_set(), RuleSet::Renju);
        let err = "9,9,4,renju".parse::<Rules>().unwrap_err().to_string();
        assert!(err.contains("renju is played with five in a row, not k = 4"), "{err}");
    }

    #[test]
    fn serde_validates() {
        let json = serde_json::to_string(&Rules::gomoku15()).unwrap();
        assert_eq!(json, r#"{"width":15,"height":15,"k":5,"rule_set":"freestyle"}"#);
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), Rules::gomoku15());
        // Files of earlier versions name the rule set `overline`.
        let old = r#"{"width":15,"height":15,"k":5,"overline":"renju"}"#;
        assert_eq!(serde_json::from_str::<Rules>(old).unwrap(), Rules::renju());
        assert!(serde_json::from_str::<Rules>(r#"{"width":15,"height":15,"k":16}"#).is_err());
    }

    #[test]
    fn cells_and_dense_indices() {
        let rules = Rules::new(4, 3, 3, RuleSet::Freestyle).unwrap();
        let cells: Vec<Cell> = rules.cells().collect();
        assert_eq!(cells.len(), 12);
        for (i, &cell) in cells.iter().enumerate() {
            assert_eq!(rules.dense_index(cell), i);
            assert!(rules.contains(cell));
        }
        assert_eq!(rules.cell(3, 2), Some(Cell::new(3, 2)));
        assert_eq!(rules.cell(4, 0), None);
        assert_eq!(rules.cell(-1, 0), None);
        assert!(!rules.contains(Cell::new(0, 3)));
    }

    #[test]
    fn symmetry_counts() {
        assert_eq!(Rules::gomoku15().symmetries().len(), 8);
        let rect = Rules::new(4, 3, 3, RuleSet::Freestyle).unwrap();
        assert_eq!(rect.symmetries().len(), 4);
    }
}
