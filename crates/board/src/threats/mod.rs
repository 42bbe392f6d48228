//! Shared tactics: for every empty cell, direction and side, what the line
//! through the cell becomes if that side plays there — a five, an open
//! four, a four, an open three, … — and the cell's combined class over the
//! four directions. Every engine asks the same questions of a position
//! (can I win now, must I block, which cells answer an open three), so
//! they are answered once, here, and kept up to date as marks come and go.
//!
//! The names count from k: a "five" is k in a row, a "four" is one move
//! from k, a "three" two moves, and so on, whatever k is. A class is
//! defined by what one more move makes, looking only at the line through
//! the cell and the cells within k of it:
//!
//! - **five**: the move completes a winning line (exactly k under
//!   [`RuleSet::Exact`], k or more under freestyle);
//! - **open four**: after the move, two or more cells of the line would
//!   each complete a five through the cell; **four**: exactly one;
//! - **open three** / **three**: after the move, one more move of the
//!   side in the line can make an open four / at best a four;
//! - **open two** / **two**: likewise, one more move can make an open
//!   three / at best a three.
//!
//! For k ≤ 3 the same definitions hold; in practice only five (win), four
//! (the block the opponent must find) and none matter there.
//!
//! ```
//! use board::threats::{CellClass, Pattern, Threats};
//! use board::{Direction, Position, Rules, Side};
//!
//! let rules = Rules::gomoku15();
//! let mut pos = Position::new(rules);
//! for name in ["g8", "a1", "h8", "a15", "i8", "o1"] {
//!     pos.play(rules.parse_cell(name)?)?;
//! }
//! let threats = Threats::new(&pos)?;
//! // X's open three g8-i8: f8 and j8 make an open four.
//! let f8 = rules.parse_cell("f8")?;
//! assert_eq!(threats.pattern(Side::X, f8, Direction::Horizontal), Pattern::OpenFour);
//! assert_eq!(threats.class(Side::X, f8), CellClass::OpenFour);
//! assert!(threats.open_four_cells(Side::X).contains(f8));
//! assert!(threats.five_cells(Side::X).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod codes;
mod forbidden;
mod patterns;
mod tables;
mod tracker;
mod values;

use thiserror::Error;

pub use codes::{
    CODES, Code, code_of, code_of_fine, fine_patterns_of, is_forbidden_shape, move_parts, patterns_of,
};
pub use forbidden::black_forbidden;
pub use patterns::{CellClass, FinePattern, Pattern};
pub use tables::{fine_pattern_at, pattern_at, tables_rule_set};
pub use tracker::Threats;
pub use values::{CodeValues, CodeValuesError};

use crate::RuleSet;

/// The largest k whose patterns are tabled: a table has `(2^(k+1) − 1)²`
/// entries, 261,121 bytes for k = 8.
pub const MAX_THREAT_K: u8 = 8;

/// Hand-set move scores ([`Threats::move_score`]) below this make and
/// block no three: the quiet moves, which searches reduce and prune, and
/// which a learned move policy may order among themselves.
pub const QUIET_MOVE_SCORE: i32 = 40;

/// Rules whose threats are not tabled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum UnsupportedThreats {
    /// A k the tables do not reach.
    #[error("threat patterns need k from 1 to {MAX_THREAT_K}, got k = {0}")]
    K(u8),
    /// A rule set whose fives a line's neighbourhood cannot decide.
    #[error("threat patterns are not tabled for {} rules", .0.name())]
    Rules(RuleSet),
}

#[cfg(test)]
mod tests {
    use super::codes::*;
    use super::*;
    use crate::{Bitboard, Cell, Direction, Position, RuleSet, Rules, Side};

    fn at(rules: Rules, name: &str) -> Cell {
        rules.parse_cell(name).unwrap()
    }

    /// The hand-set move score from the patterns directly, as it was
    /// written before the table: the table must agree on every pair of
    /// codes.
    fn move_score_by_patterns(own: Code, theirs: Code) -> i32 {
        const OWN_MOVE: [i32; Pattern::NUM] = [0, 2, 6, 8, 24, 30, 400, 20_000];
        const BLOCK_MOVE: [i32; Pattern::NUM] = [0, 1, 4, 5, 18, 22, 150, 10_000];
        let bonus = |code: Code| match CellClass::combine(unpack(code)) {
            CellClass::DoubleThree => 150,
            CellClass::FourThree => 500,
            CellClass::DoubleFour => 800,
            _ => 0,
        };
        let mut score = 0;
        for (&mine, &other) in unpack(own).iter().zip(&unpack(theirs)) {
            score += OWN_MOVE[mine as usize] + BLOCK_MOVE[other as usize];
        }
        score + bonus(own) + bonus(theirs) / 2
    }

    /// Every code of plainest fine patterns, one for each four patterns.
    fn plain_codes() -> Vec<Code> {
        (0..1_u16 << 12)
            .map(|bits| code_of([0, 3, 6, 9].map(|shift| Pattern::ALL[usize::from(bits >> shift) & 7])))
            .collect()
    }

    #[test]
    fn the_move_table_scores_as_the_patterns_do() {
        let table = move_table();
        let codes = plain_codes();
        for &own in codes.iter().step_by(7) {
            for &theirs in &codes {
                let by_table = table[plain_code(own)].0 + table[plain_code(theirs)].1;
                assert_eq!(by_table, move_score_by_patterns(own, theirs), "codes {own}, {theirs}");
            }
        }
        // A fine code's plain code packs its patterns.
        for code in 0..=Code::MAX {
            assert_eq!(unpack_plain(plain_code(code)), patterns_of(code), "code {code}");
        }
    }

    #[test]
    fn fine_patterns_tell_apart_what_patterns_do_not() {
        let rules = Rules::gomoku15();
        let h = Direction::Horizontal;
        // X: g8 h8 i8 with room on both sides: f8 and j8 each make an open
        // four, so g8's row is a strong three; O's d8 leaves one.
        let pos = Position::from_moves(rules, "h8 a1 i8 a15").unwrap();
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.fine_patterns(Side::X, at(rules, "g8"))[0], FinePattern::StrongThree);
        let pos = Position::from_moves(rules, "h8 e8 i8 a15 l8 o15").unwrap();
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.fine_patterns(Side::X, at(rules, "g8"))[0], FinePattern::OpenThree);
        assert_eq!(threats.pattern(Side::X, at(rules, "g8"), h), Pattern::OpenThree);
        // X's lone h8 with room all round: g8 makes an open two that four
        // moves (e8, f8, i8, j8) make an open three; by O's e8 fewer do.
        let pos = Position::from_moves(rules, "h8 a1").unwrap();
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.fine_patterns(Side::X, at(rules, "g8"))[0], FinePattern::OpenTwo4);
        let pos = Position::from_moves(rules, "h8 e8").unwrap();
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.fine_patterns(Side::X, at(rules, "g8"))[0], FinePattern::OpenTwo);
        assert_eq!(threats.pattern(Side::X, at(rules, "g8"), h), Pattern::OpenTwo);
        // Marked cells: all dead, code 0.
        assert_eq!(threats.code(Side::X, at(rules, "h8")), 0);
    }

    #[test]
    fn classic_shapes_on_15x15() {
        let rules = Rules::gomoku15();
        // X: g8 h8 i8 open; O far away.
        let pos = Position::from_moves(rules, "g8 a1 h8 a15 i8 o1").unwrap();
        let threats = Threats::new(&pos).unwrap();
        let h = Direction::Horizontal;
        assert_eq!(threats.pattern(Side::X, at(rules, "f8"), h), Pattern::OpenFour);
        assert_eq!(threats.pattern(Side::X, at(rules, "j8"), h), Pattern::OpenFour);
        assert_eq!(threats.pattern(Side::X, at(rules, "e8"), h), Pattern::Four);
        assert_eq!(threats.pattern(Side::X, at(rules, "k8"), h), Pattern::Four);
        assert_eq!(threats.pattern(Side::O, at(rules, "f8"), h), Pattern::None);
        assert_eq!(threats.open_four_cells(Side::X).count(), 2);
        // Blocked at f8 by O: only fours remain on the row.
        let pos = Position::from_moves(rules, "g8 f8 h8 a15 i8 o1").unwrap();
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.pattern(Side::X, at(rules, "j8"), h), Pattern::Four);
        assert!(threats.open_four_cells(Side::X).is_empty());
        assert_eq!(threats.four_cells(Side::X).count(), 2);
        // Four in a row: both ends win.
        let pos = Position::from_moves(rules, "g8 a1 h8 a15 i8 o1 j8 o15").unwrap();
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.five_cells(Side::X).count(), 2);
        assert_eq!(threats.class(Side::X, at(rules, "f8")), CellClass::Five);
    }

    #[test]
    fn exact_rules_see_overlines() {
        let rules = Rules::gomoku15().with_rule_set(RuleSet::Exact);
        // X: e8 f8 g8 h8 _ j8: i8 makes six, not five.
        let pos = Position::from_moves(rules, "e8 a1 f8 a3 g8 a5 h8 a7 j8 o1").unwrap();
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.pattern(Side::X, at(rules, "i8"), Direction::Horizontal), Pattern::None);
        assert_eq!(threats.pattern(Side::X, at(rules, "d8"), Direction::Horizontal), Pattern::Five);
    }

    #[test]
    fn renju_judges_each_side_by_its_own_line_rule() {
        let rules = Rules::renju();
        // X: e8 f8 g8 h8 _ j8, O the same on row 4: i8 is six for black
        // (no five), i4 six for white (a five).
        let pos = Position::from_moves(rules, "e8 e4 f8 f4 g8 g4 h8 h4 j8 j4 a15").unwrap();
        let threats = Threats::new(&pos).unwrap();
        let h = Direction::Horizontal;
        assert_eq!(threats.pattern(Side::X, at(rules, "i8"), h), Pattern::None);
        assert_eq!(threats.pattern(Side::X, at(rules, "d8"), h), Pattern::Five);
        assert_eq!(threats.pattern(Side::O, at(rules, "i4"), h), Pattern::Five);
        // i8 makes an overline: forbidden to black, who may play d8.
        assert!(threats.forbidden(&pos, Side::X, at(rules, "i8")));
        assert!(!threats.forbidden(&pos, Side::X, at(rules, "d8")));
        assert!(!threats.forbidden(&pos, Side::O, at(rules, "i8")));
        let cells = threats.playable(
            &pos,
            Side::X,
            threats.five_cells(Side::X) | Bitboard::from_iter([at(rules, "i8")]),
        );
        assert!(!cells.contains(at(rules, "i8")) && cells.contains(at(rules, "d8")));
    }

    #[test]
    fn black_double_threes_are_forbidden_under_renju() {
        let rules = Rules::renju();
        // X: h8 i8 on the row, k9 l10 on the diagonal through j8.
        let pos = Position::from_moves(rules, "h8 a1 i8 a15 k9 o1 l10 o15").unwrap();
        let threats = Threats::new(&pos).unwrap();
        let j8 = at(rules, "j8");
        let open_threes = threats.patterns(Side::X, j8).iter().filter(|&&p| p == Pattern::OpenThree).count();
        assert_eq!(open_threes, 2);
        assert!(threats.forbidden_shape(Side::X, j8) && threats.forbidden(&pos, Side::X, j8));
        // Black's forbidden shape counts for nothing: no class, no score,
        // to black or to white.
        assert_eq!(threats.class(Side::X, j8), CellClass::None);
        let moves = ["h8", "a1", "i8", "a15", "k9", "o1", "l10", "o15"];
        let freestyle =
            Threats::new(&Position::from_moves(Rules::gomoku15(), &moves.join(" ")).unwrap()).unwrap();
        assert_eq!(freestyle.class(Side::X, j8), CellClass::DoubleThree);
        assert_eq!(threats.move_score(Side::X, j8), 0);
        assert!(freestyle.move_score(Side::X, j8) > 150);
        assert!(threats.move_score(Side::O, j8) < freestyle.move_score(Side::O, j8));
        assert!(!threats.forbidden(&pos, Side::X, at(rules, "g8")));
    }

    #[test]
    fn caro_fives_closed_at_both_ends_do_not_count() {
        let rules = Rules::caro();
        // X: e8 f8 g8 h8 between O's d8 and j8: i8 closes nothing open.
        let pos = Position::from_moves(rules, "e8 d8 f8 j8 g8 a1 h8 a15").unwrap();
        let threats = Threats::new(&pos).unwrap();
        let h = Direction::Horizontal;
        assert_eq!(threats.pattern(Side::X, at(rules, "i8"), h), Pattern::None);
        assert!(!pos.wins_at(at(rules, "i8"), Side::X));
        // At the board's edge a five counts: the edge is no stone.
        let pos = Position::from_moves(rules, "b1 f1 c1 a15 d1 o15 e1 o1").unwrap();
        let threats = Threats::new(&pos).unwrap();
        assert_eq!(threats.pattern(Side::X, at(rules, "a1"), h), Pattern::Five);
        assert!(pos.wins_at(at(rules, "a1"), Side::X));
        // Caro with longer lines winning is not tabled.
        let freestyle = Rules::caro().with_rule_set(RuleSet::CaroFreestyle);
        assert_eq!(
            Threats::new(&Position::new(freestyle)).unwrap_err(),
            UnsupportedThreats::Rules(RuleSet::CaroFreestyle)
        );
    }

    #[test]
    fn combined_classes() {
        use Pattern as P;
        assert_eq!(CellClass::combine([P::Four, P::OpenThree, P::None, P::Two]), CellClass::FourThree);
        assert_eq!(CellClass::combine([P::Four, P::Four, P::None, P::None]), CellClass::DoubleFour);
        assert_eq!(
            CellClass::combine([P::OpenThree, P::OpenThree, P::None, P::None]),
            CellClass::DoubleThree
        );
        assert_eq!(CellClass::combine([P::OpenTwo, P::OpenTwo, P::Two, P::None]), CellClass::DoubleTwo);
        assert_eq!(CellClass::combine([P::None; 4]), CellClass::None);
    }
}
